// kthSmallest (src/util/kth-smallest.ts) against a sort, on arrays of
// every size up to a few thousand, with many equal values, sorted and
// reversed runs, and every k at the small sizes.
import { describe, expect, it } from 'vitest';
import { kthSmallest } from '../../src/util/kth-smallest.js';
import { prng } from '../support/random.js';

describe('kthSmallest', () => {
  it('gives the k-th value of the sorted numbers, for every k', () => {
    const random = prng(41);
    for (let round = 0; round < 300; round++) {
      const length = 1 + Math.floor(random() * (round < 200 ? 40 : 3_000));
      const spread = [2, 10, 1e6][round % 3];
      const values = Float64Array.from({ length }, () => Math.floor(random() * spread) - spread / 2);
      if (round % 7 === 0) values.sort();
      if (round % 11 === 0) values.sort().reverse();
      const sorted = values.slice().sort();
      const ks = length <= 40 ? Array.from({ length }, (_, i) => i + 1) : [1, 2, Math.ceil(length / 2), length - 1, length, 1 + Math.floor(random() * length)];
      for (const k of ks) expect(kthSmallest(values.slice(), k)).toBe(sorted[k - 1]);
    }
  });
});
