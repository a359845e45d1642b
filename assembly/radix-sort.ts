// A stable LSD radix sort of ids by 64-bit keys, for the orders of
// customRanking and sort replicas (src/index/rank-order.ts), and the
// dictionary's new terms by their first units (dictionary.ts). An order is
// sorted whole once (after an import, a restart, new settings), so the same
// loops in JavaScript ran unoptimized: 100-250 ms at 100k records, where
// compiled code takes a few.
import { results, scratchBase } from './buffers';

/**
 * Scratch: `count` ids, then their `count` high halves, then their `count`
 * low halves (i32; three runs, so JS copies each in one go). Results: the ids in the
 * order of their keys (high, then low, both unsigned; equal keys keep their
 * order), then per position 1 when its key equals the one before, else 0.
 */
export function sortByKeys(count: i32): void {
  const bytes = <usize>count << 2;
  // sorted where they were written: copies would take three more runs of the core's memory, which grew by
  // a quarter for them when an index's numeric columns were ordered after its customRanking (100k records)
  const ids = scratchBase(), high = ids + bytes, low = high + bytes;
  sortIdsByKeys(ids, high, low, count);
  results.length = 0;
  results.reserve(count << 1);
  for (let i = 0; i < count; i++) results.push(load<i32>(ids + (<usize>i << 2)));
  for (let i = 0; i < count; i++) {
    const o = <usize>i << 2;
    results.push(i > 0 && load<u32>(high + o) == load<u32>(high + o - 4) && load<u32>(low + o) == load<u32>(low + o - 4) ? 1 : 0);
  }
}

/**
 * Sorts `count` ids at `ids` by their keys, high halves at `high` and low
 * halves at `low` (u32 each), in place: ids and halves end in key order,
 * equal keys in the order they came. Digits of 16 bits for many ids, of 8
 * for fewer: a pass clears and sums a count per digit value, 65,536 of
 * them at 16 bits, which made each call cost ~0.7 ms whatever its size
 * (the tie order sorts thousands of short runs of objectIDs: 0.7 s at the
 * cities' first search). A pass whose digit all ids share moves nothing.
 */
export function sortIdsByKeys(ids: usize, high: usize, low: usize, count: i32): void {
  const digitBits: u32 = count >= WIDE_DIGITS_FROM ? 16 : 8;
  const buckets = <i32>(1 << digitBits);
  const mask: u32 = <u32>buckets - 1;
  const bytes = <usize>count << 2;
  let nextIds = heap.alloc(bytes), nextHigh = heap.alloc(bytes), nextLow = heap.alloc(bytes);
  const counts = heap.alloc(<usize>(buckets + 1) << 2);
  let atIds = ids, atHigh = high, atLow = low;
  const passesPerHalf = <i32>(32 / digitBits);
  for (let pass = 0; pass < passesPerHalf * 2; pass++) {
    const digits = pass < passesPerHalf ? atLow : atHigh;
    const shift: u32 = <u32>(pass % passesPerHalf) * digitBits;
    memory.fill(counts, 0, <usize>(buckets + 1) << 2);
    for (let i = 0; i < count; i++) {
      const slot = counts + ((<usize>((load<u32>(digits + (<usize>i << 2)) >> shift) & mask) + 1) << 2);
      store<u32>(slot, load<u32>(slot) + 1);
    }
    if (count == 0 || sharedDigit(counts, buckets, count)) continue;
    for (let b = 1; b <= buckets; b++) {
      const slot = counts + (<usize>b << 2);
      store<u32>(slot, load<u32>(slot) + load<u32>(slot - 4));
    }
    for (let i = 0; i < count; i++) {
      const o = <usize>i << 2;
      const slot = counts + (<usize>((load<u32>(digits + o) >> shift) & mask) << 2);
      const to = <usize>load<u32>(slot) << 2;
      store<u32>(slot, load<u32>(slot) + 1);
      store<u32>(nextIds + to, load<u32>(atIds + o));
      store<u32>(nextHigh + to, load<u32>(atHigh + o));
      store<u32>(nextLow + to, load<u32>(atLow + o));
    }
    let t = atIds; atIds = nextIds; nextIds = t;
    t = atHigh; atHigh = nextHigh; nextHigh = t;
    t = atLow; atLow = nextLow; nextLow = t;
  }
  // passes skipped may leave the sorted runs in the other buffers
  if (atIds != ids) {
    memory.copy(ids, atIds, bytes);
    memory.copy(high, atHigh, bytes);
    memory.copy(low, atLow, bytes);
    nextIds = atIds; nextHigh = atHigh; nextLow = atLow;
  }
  heap.free(nextIds); heap.free(nextHigh); heap.free(nextLow);
  heap.free(counts);
}

/** From this many ids, digits of 16 bits (see sortIdsByKeys). */
const WIDE_DIGITS_FROM = 1 << 15;

/** Whether the digit counted in `counts` (value v at v + 1) is one value for all `count` ids. */
function sharedDigit(counts: usize, buckets: i32, count: i32): bool {
  for (let b = 1; b <= buckets; b++) {
    const n = <i32>load<u32>(counts + (<usize>b << 2));
    if (n != 0) return n == count;
  }
  return false;
}
