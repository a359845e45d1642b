// A query typed keystroke by keystroke re-sends its first words each time;
// the core matches them once and keeps their matches (the word memo). Every
// answer must be the one an index that never saw the earlier keystrokes
// gives, before and after writes.
import { beforeAll, describe, expect, it } from 'vitest';
import { build, search, ready, type Doc } from './helpers.js';
import { readFixture } from '../support/fixtures.js';

beforeAll(ready);

interface Talk { name: string; speakers?: string[]; event_name?: string; tags?: string[] }

const talks = readFixture<Talk[]>('talks.json');
const docs: Doc[] = talks.map((t) => [t.name, t.speakers ?? [], t.event_name ?? '', t.tags ?? []]);
const PHRASES = ['design the future', 'brain science', 'climate change now', 'what makes us happy', 'the power of music'];

/** Every keystroke of a phrase: "d", "de", ..., "design the future". */
const keystrokes = (phrase: string) => Array.from({ length: phrase.length }, (_, i) => phrase.slice(0, i + 1));

const answer = (core: ReturnType<typeof build>, text: string) => {
  const r = search(core, text, { length: 20 });
  return { nbHits: r.nbHits, hits: r.hits.map((h) => [h.id, h.typos, h.proximity, h.words, h.attributeRank, h.attributePosition, h.exactWords]) };
};

describe('word memo', () => {
  it('answers every keystroke as a fresh index does, typos included', () => {
    const typing = build(docs);
    let multiWord = 0;
    for (const phrase of [...PHRASES, 'desgin teh futur', 'brian sceince']) {
      for (const text of keystrokes(phrase)) {
        const fresh = build(docs);
        const want = answer(fresh, text);
        expect(answer(typing, text), text).toEqual(want);
        if (text.trim().includes(' ') && want.nbHits > 0) multiWord++;
      }
    }
    expect(multiWord).toBeGreaterThan(40);
  });

  it('answers as a fresh index does when keystrokes come a few at a time', () => {
    // a word whose next word is past its first letter gets its slot at its second sight
    const typing = build(docs);
    let multiWord = 0;
    for (const phrase of [...PHRASES, 'desgin teh futur', 'brian sceince']) {
      for (const text of keystrokes(phrase).filter((_, i) => i % 3 === 2)) {
        const want = answer(build(docs), text);
        expect(answer(typing, text), text).toEqual(want);
        if (/ \S\S/.test(text) && want.nbHits > 0) multiWord++;
      }
    }
    expect(multiWord).toBeGreaterThan(10);
  });

  it('sees records written between keystrokes', () => {
    const core = build(docs);
    expect(answer(core, 'quantum zebr').nbHits).toBe(0);
    const id = docs.length;
    core.addDocuments([{ id, segments: [{ attribute: 0, text: 'quantum zebra crossing' }] }]);
    expect(answer(core, 'quantum zebra').hits.map((h) => h[0])).toContain(id);
    core.removeDocument(id);
    expect(answer(core, 'quantum zebra c').nbHits).toBe(0);
  });
});
