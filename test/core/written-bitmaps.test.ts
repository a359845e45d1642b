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

/** The core's own exports, for a test that starves the allocator (no other test reaches them). */
type CoreExports = { memory: WebAssembly.Memory; setRanks(slot: number, count: number): void };

/**
 * Leaves `core`'s allocator no free block of `room` bytes or more: its
 * memory grown to the most WebAssembly allows, then the largest blocks it
 * can still hand out taken by rank slots no query here reads (sort slots
 * 1-7). A query needing such a block then aborts mid-way, as it would on a
 * machine out of memory.
 */
function starve(core: CoreIndex, room: number): void {
  const exports = (core as unknown as { core: CoreExports }).core;
  for (let pages = 65536 - exports.memory.buffer.byteLength / 65536; pages > 0; pages >>= 1) {
    try { exports.memory.grow(pages); } catch { /* past the limit: half as much */ }
  }
  for (let slot = 1; slot <= 7; slot++) {
    let fits = 0, fails = 1 << 26;
    while (fails - fits > 1) {
      const count = (fits + fails) >> 1;
      try { exports.setRanks(slot, count); fits = count; } catch { fails = count; }
    }
    exports.setRanks(slot, fits);
    if (fits * 4 < room) return;
  }
}

/** The answer to `text`, or undefined when the core aborted it (a RuntimeError out of the WebAssembly). */
function answerOrAbort(core: CoreIndex, text: string): ReturnType<typeof answer> | undefined {
  try { return answer(core, text); } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    return undefined;
  }
}

describe('after a query the core aborted', () => {
  const docs: Doc[] = rareAndBroad(11, 20000);
  const fresh = () => build(docs, { attributes: ATTRIBUTES });
  // queries whose memory the index holds once answered (three times: the second fills the word memo's four slots)
  const small = ['okapi quagga', 'ibex okapi', 'quagga ibex', 'okapi', 'okapi q', 'ibex q', 'quagga o', 'lambda o'];
  // broad words: cache entries built while a memo slot fills, longer key logs and candidate lists
  const large = ['theta o', 'ibex theta', 'okapi kappa', 'kappa lambda', 'theta kappa s', 'lambda theta', 'sigma kappa theta', 't'];

  it('answers each query as an index that answered none', () => {
    const expected = small.map((text) => answer(fresh(), text));
    let aborted = 0, checked = 0;
    for (const room of [1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18]) {
      const core = fresh();
      for (let i = 0; i < 3; i++) for (const text of small) answer(core, text);
      starve(core, room);
      for (const text of large) {
        if (answerOrAbort(core, text)) continue;
        aborted++;
        // a query may abort too for want of the memory the aborted one took: each answered is checked
        small.forEach((next, i) => {
          const got = answerOrAbort(core, next);
          if (!got) return;
          checked++;
          expect(got, `${next} after ${text} aborted (room ${room})`).toEqual(expected[i]);
        });
      }
    }
    expect(aborted).toBeGreaterThan(10);
    expect(checked).toBeGreaterThan(50);
  });
});
