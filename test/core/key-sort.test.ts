// The core's radix sort of ids by 64-bit keys (assembly/radix-sort.ts), which
// the orders of customRanking, sort replicas and ties use: against a
// comparison sort in JavaScript, on sizes each side of its switch from 8-bit
// to 16-bit digits, with keys that share digits (passes that move nothing)
// and keys that repeat (ties keep the order they came in).
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { prng } from '../support/random.js';
import { ready } from './helpers.js';

beforeAll(ready);

/** Keys of `count` ids: `distinct` values at most, only the bits of `highMask` and `lowMask` varying in each half. */
function keysOf(count: number, seed: number, distinct: number, highMask: number, lowMask: number) {
  const random = prng(seed);
  const values = Array.from({ length: distinct }, () => [(random() * 2 ** 32) & highMask, (random() * 2 ** 32) & lowMask]);
  const ids = Int32Array.from({ length: count }, (_, i) => count - i);
  const high = new Int32Array(count);
  const low = new Int32Array(count);
  for (let i = 0; i < count; i++) [high[i], low[i]] = values[Math.floor(random() * distinct)];
  return { ids, high, low };
}

/** The same order by comparison: unsigned high, then unsigned low, then the order given. */
function compared(ids: Int32Array, high: Int32Array, low: Int32Array): { order: number[]; tied: number[] } {
  const at = Array.from(ids.keys()).sort((a, b) => (high[a] >>> 0) - (high[b] >>> 0) || (low[a] >>> 0) - (low[b] >>> 0) || a - b);
  return {
    order: at.map((i) => ids[i]),
    tied: at.map((i, k) => (k > 0 && high[i] === high[at[k - 1]] && low[i] === low[at[k - 1]] ? 1 : 0)),
  };
}

describe('the core sorts ids by 64-bit keys', () => {
  const cases = [
    { name: 'a few ids', count: 5, distinct: 5, highMask: -1, lowMask: -1 },
    { name: 'a short run of ties', count: 60, distinct: 3, highMask: -1, lowMask: -1 },
    // one pass moves ids: the sorted run ends in the sort's other buffers
    { name: 'keys differing in their last byte only', count: 1000, distinct: 200, highMask: 0, lowMask: 0xff },
    { name: 'keys differing in one byte of each half', count: 1000, distinct: 200, highMask: 0xff00, lowMask: 0xff },
    { name: 'one key for all', count: 500, distinct: 1, highMask: -1, lowMask: -1 },
    { name: 'many ids, 16-bit digits', count: 40000, distinct: 30000, highMask: -1, lowMask: -1 },
    { name: 'many ids differing in their last 16 bits only', count: 40000, distinct: 5000, highMask: 0, lowMask: 0xffff },
  ];
  for (const { name, count, distinct, highMask, lowMask } of cases) {
    it(`as a comparison sort does: ${name}`, () => {
      const core = new CoreIndex();
      const { ids, high, low } = keysOf(count, count + distinct, distinct, highMask, lowMask);
      const { order, tied } = core.sortByKeys(ids, high, low);
      expect({ order: Array.from(order), tied: Array.from(tied) }).toEqual(compared(ids, high, low));
    });
  }
});
