// What each bitmap of the query arena (wordsets.ts) holds, so that a query
// clears only what the ones before it wrote: at 1M records clearing the
// whole arena took 1.6 MB of stores a two-word query (a twentieth of its
// time), where a bounded last word (bounded-match.ts) writes a few hundred
// records' bits, all among the candidates its decoding was bounded by.
import { IntVec } from './buffers';

/** A bitmap is all zero; has bits only in the vectors of the bound summary (see boundVectors); or anywhere. */
export const CLEAR = 0, WITHIN_BOUND = 1, ANYWHERE = 2;

/** Per bitmap of the arena (by index), its state; a bitmap past the end is ANYWHERE (never cleared yet). */
const states = new IntVec();
/** The bitmap size the states are for: another lays the arena out anew. */
let statesWords: i32 = -1;
/**
 * Whether a query cleared the arena and has not ended (see endQuery). A
 * query the core aborted (memory it could not grow) may have written bits
 * it never noted: the next one then clears every bitmap whole.
 */
let queryOpen = false;

/** Notes a write of kind `how` into bitmap `index` (a state only rises until cleared). */
@inline export function noteWritten(index: i32, how: i32): void {
  if (states.get(index) < how) states.set(index, how);
}

@inline export function stateOf(index: i32): i32 { return states.get(index); }

/**
 * Before a query: clears the bitmaps of the arena at `arena` (bitmaps of
 * `bitmapWords` u32 words) the queries before wrote, among the first
 * `cleared` (the query's bitmaps to start zero) and every one written within
 * the bound summary `vectors` (`vectorWords` u32 words, a bit per 128
 * records: this query replaces it). The `total - cleared` bitmaps after them
 * are the query's work bitmaps, written before they are read: ANYWHERE.
 */
export function clearWritten(arena: usize, bitmapWords: i32, cleared: i32, total: i32, vectors: usize, vectorWords: i32): void {
  if (statesWords != bitmapWords || queryOpen) {
    states.length = 0;
    statesWords = bitmapWords;
  }
  while (states.length < total) states.push(ANYWHERE);
  const bytes = <usize>bitmapWords << 2;
  for (let i = 0; i < states.length; i++) {
    const state = states.get(i);
    if (state == CLEAR || (state == ANYWHERE && i >= cleared)) continue;
    const bitmap = arena + <usize>i * bytes;
    if (state == WITHIN_BOUND) clearVectors(bitmap, vectors, vectorWords);
    else memory.fill(bitmap, 0, bytes);
    states.set(i, CLEAR);
  }
  for (let i = cleared; i < total; i++) states.set(i, ANYWHERE);
  queryOpen = true;
}

/** The query that cleared the arena ended: every write it made was noted. */
export function endQuery(): void { queryOpen = false; }

/** Zeroes the 128-record vectors of `bitmap` that `vectors` has a bit for. */
function clearVectors(bitmap: usize, vectors: usize, vectorWords: i32): void {
  const zero = i32x4.splat(0);
  for (let i = 0; i < vectorWords; i++) {
    let bits = load<u32>(vectors + (<usize>i << 2));
    while (bits != 0) {
      v128.store(bitmap + ((<usize>(i << 5) + <usize>ctz(bits)) << 4), zero);
      bits &= bits - 1;
    }
  }
}
