// The core's memory grows by a quarter at least (scripts/build-runtime.mjs):
// V8 counts each growth as a new buffer of the memory's whole size and marks
// the whole JS heap once such buffers pass 64 MB, so an import that grew a
// large memory a little at a time marked the heap after nearly every growth.
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { prng } from '../support/random.js';
import { ready } from './helpers.js';

beforeAll(ready);

/** Records of ten words drawn from a vocabulary that keeps growing, as a real import's does. */
function batchOf(next: () => number, from: number, count: number) {
  const word = () => `w${Math.floor(next() * (from + 5000)).toString(36)}`;
  return Array.from({ length: count }, (_, i) => ({
    id: from + i,
    segments: [{ attribute: 0, text: Array.from({ length: 10 }, word).join(' ') }],
  }));
}

describe('the core memory', () => {
  it('grows a quarter at a time at least, as records are added', () => {
    const core = new CoreIndex();
    core.setAttributes([{ rank: 0, unordered: false }]);
    const next = prng(5);
    const sizes = [core.memoryBytes];
    for (let from = 0; sizes[sizes.length - 1] < 24 << 20; from += 1000) {
      core.addDocuments(batchOf(next, from, 1000));
      if (core.memoryBytes !== sizes[sizes.length - 1]) sizes.push(core.memoryBytes);
    }
    const growths = sizes.slice(1).map((size, i) => ({ from: sizes[i], ratio: size / sizes[i] }));
    // a quarter of the pages, rounded down: 1.25 less a page
    const small = growths.filter((g) => g.from >= 1 << 20 && g.ratio < 1.25 - 65536 / g.from);
    expect(small, JSON.stringify(growths)).toEqual([]);
    expect(growths.filter((g) => g.from >= 1 << 20).length).toBeLessThanOrEqual(Math.ceil(Math.log(24) / Math.log(1.25)) + 1);
  });
});
