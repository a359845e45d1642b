// The adjacent-pair sketches on real records: TED talks (names,
// descriptions, speakers, tags), queried with words found side by side in
// the descriptions, the last one cut to a prefix. Every first page must be
// the first page of the order ranked whole (see adjacent-pairs.test.ts).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../support/random.js';
import { build, ready, search } from './helpers.js';

beforeAll(ready);

type Talk = { name: string; description: string; speakers: string[]; tags: string[] };
const talks: Talk[] = JSON.parse(readFileSync(new URL('../fixtures/talks.json', import.meta.url), 'utf8'));

describe('adjacent-pair sketches on TED talks', () => {
  it('pages of broad queries are the pages of the whole order', () => {
    const core = build(talks.map((t) => [t.name, t.description, t.speakers, t.tags]));
    const rnd = prng(34);
    let broad = 0;
    for (let q = 0; q < 300; q++) {
      const words = talks[Math.floor(rnd() * talks.length)].description.toLowerCase().split(/[^a-z]+/).filter(Boolean);
      if (words.length < 2) continue;
      const at = Math.floor(rnd() * (words.length - 1));
      const text = `${words[at]} ${words[at + 1].slice(0, Math.max(2, words[at + 1].length - 1))}`;
      const { nbHits } = search(core, text, { length: 0 });
      if (nbHits >= 512) broad++;
      const all = search(core, text, { length: nbHits }).hits.map((h) => [h.id, h.proximity]);
      expect(search(core, text, { length: 20 }).hits.map((h) => [h.id, h.proximity]), text).toEqual(all.slice(0, 20));
    }
    expect(broad).toBeGreaterThan(15);
  });
});
