// Before a query, the core clears only the bitmaps the queries before it
// wrote, and a bounded last word's only where its candidates were
// (assembly/written-bitmaps.ts). A bit left over would add a hit, a typo or
// a lead place to a later query: whatever came before, each answer must be
// the one an index that never answered a query gives.
import { beforeAll, describe, expect, it } from 'vitest';
import { BROAD, RARE, build, query, rareAndBroad, ready, type Doc } from './helpers.js';
import type { CoreIndex } from '../../src/core/core-index.js';
import { prng } from '../support/random.js';

beforeAll(ready);

const ATTRIBUTES = [{ rank: 0 }, { rank: 1 }];

/** One letter of an inner place replaced: a one-typo match of the word. */
const typo = (word: string) => `${word.slice(0, 2)}x${word.slice(3)}`;

/** Queries of one to three words: rare and broad words, typos, prefixes, unknown words. */
function queries(rnd: () => number, count: number): string[] {
  const pick = <T>(from: T[]) => from[Math.floor(rnd() * from.length)];
  const rare = () => pick(RARE)[0];
  const broad = () => {
    const word = pick(BROAD)[0];
    const form = Math.floor(rnd() * 3);
    return form === 0 ? word : form === 1 ? typo(word) : word.slice(0, 3);
  };
  const shapes = [
    () => `${rare()} ${broad()}`,
    () => `${rare()} ${rare()} ${broad()}`,
    () => `${broad()} ${rare()} ${broad()}`,
    () => broad(),
    () => `${broad()} ${broad()}`,
    () => `${rare()} zzz`,
  ];
  return Array.from({ length: count }, () => pick(shapes)());
}

const answer = (core: CoreIndex, text: string) => {
  const result = core.search(query(text, { length: 200 }));
  return { ...result, unmatched: core.unmatchedWords() };
};

describe('bitmaps cleared where the queries before wrote', () => {
  it('answers each query of a sequence as an index that answered none', () => {
    const docs: Doc[] = rareAndBroad(11, 8000);
    const core = build(docs, { attributes: ATTRIBUTES });
    let withHits = 0;
    for (const text of queries(prng(13), 60)) {
      const got = answer(core, text);
      expect(got, text).toEqual(answer(build(docs, { attributes: ATTRIBUTES }), text));
      if (got.nbHits > 0) withHits++;
    }
    expect(withHits).toBeGreaterThan(30);
  });
});
