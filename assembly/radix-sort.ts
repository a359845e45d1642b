// A stable LSD radix sort of ids by 64-bit keys, for the orders of
// customRanking and sort replicas (src/index/rank-order.ts). An order is
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
  let ids = heap.alloc(bytes), high = heap.alloc(bytes), low = heap.alloc(bytes);
  let nextIds = heap.alloc(bytes), nextHigh = heap.alloc(bytes), nextLow = heap.alloc(bytes);
  const counts = heap.alloc((0x10000 + 1) << 2);
  const from = scratchBase();
  memory.copy(ids, from, bytes);
  memory.copy(high, from + bytes, bytes);
  memory.copy(low, from + (bytes << 1), bytes);
  for (let pass = 0; pass < 4; pass++) {
    const digits = pass < 2 ? low : high;
    const shift: u32 = (pass & 1) == 1 ? 16 : 0;
    memory.fill(counts, 0, (0x10000 + 1) << 2);
    for (let i = 0; i < count; i++) {
      const slot = counts + ((<usize>((load<u32>(digits + (<usize>i << 2)) >> shift) & 0xffff) + 1) << 2);
      store<u32>(slot, load<u32>(slot) + 1);
    }
    for (let b = 1; b <= 0x10000; b++) {
      const slot = counts + (<usize>b << 2);
      store<u32>(slot, load<u32>(slot) + load<u32>(slot - 4));
    }
    for (let i = 0; i < count; i++) {
      const o = <usize>i << 2;
      const slot = counts + (<usize>((load<u32>(digits + o) >> shift) & 0xffff) << 2);
      const to = <usize>load<u32>(slot) << 2;
      store<u32>(slot, load<u32>(slot) + 1);
      store<u32>(nextIds + to, load<u32>(ids + o));
      store<u32>(nextHigh + to, load<u32>(high + o));
      store<u32>(nextLow + to, load<u32>(low + o));
    }
    let t = ids; ids = nextIds; nextIds = t;
    t = high; high = nextHigh; nextHigh = t;
    t = low; low = nextLow; nextLow = t;
  }
  results.length = 0;
  results.reserve(count << 1);
  for (let i = 0; i < count; i++) results.push(load<i32>(ids + (<usize>i << 2)));
  for (let i = 0; i < count; i++) {
    const o = <usize>i << 2;
    results.push(i > 0 && load<u32>(high + o) == load<u32>(high + o - 4) && load<u32>(low + o) == load<u32>(low + o - 4) ? 1 : 0);
  }
  heap.free(ids); heap.free(high); heap.free(low);
  heap.free(nextIds); heap.free(nextHigh); heap.free(nextLow);
  heap.free(counts);
}
