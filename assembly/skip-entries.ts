// Skip entries beside the posting lists: every SKIP_SPAN bytes of a term's
// list, the offset of the first posting starting there and the record
// before it (plus one: the decoder's `next` at that posting). A term decoded
// within known candidates (a bounded last word, see bounded-match.ts) jumps
// over the blocks between entries whose records hold no candidate: at 1M
// records the last word's terms decoded within the first word's candidates
// were a third of a first-sight query, each posting read to find the few
// among them. Derived from the lists, never stored: kept up as postings are
// appended, rebuilt when a list is rewritten (compaction) or read from a
// snapshot.
import { IntVec } from './buffers';

/** Posting bytes between two skip entries. */
export const SKIP_SHIFT = 5;
export const SKIP_SPAN: i32 = 1 << SKIP_SHIFT;

/** A term's block: its entry count and capacity, then the entries (next, offset), two u32 each. */
const HEADER_BYTES: usize = 8;

@unmanaged
export class SkipEntries {
  /** Per term, its block (0: no entry yet). */
  blocks: IntVec = new IntVec();
  /**
   * Per term, its block's entry count, kept beside the other terms' too: a
   * posting appended asks whether it starts a new span, and reading the
   * count from the term's block (one of thousands spread over the heap) was
   * a cache miss at nearly every posting, most of an append's time.
   */
  counts: IntVec = new IntVec();

  ensure(count: i32): void {
    this.blocks.growZeroed(count);
    this.counts.growZeroed(count);
  }

  /** The entries of `term`'s list (0: none; else count, then pairs from HEADER_BYTES on). */
  @inline of(term: i32): usize { return term < this.blocks.length ? <usize>this.blocks.get(term) : 0; }

  /**
   * Notes that a posting of `term`'s list starts at byte `offset`, after
   * record `next - 1`: an entry when it is the first to start in a new span
   * (a posting is shorter than a span, so at most one span starts in it).
   */
  @inline note(term: i32, offset: i32, next: u32): void {
    const count = this.counts.get(term);
    if (offset >> SKIP_SHIFT <= count) return;
    this.append(term, count, offset, next);
  }

  private append(term: i32, count: i32, offset: i32, next: u32): void {
    let block = <usize>this.blocks.get(term);
    // full when its count is a capacity (see grow): its header, far from the term's other data, is not read
    if (count == 0 || (count >= 4 && (count & (count - 1)) == 0)) block = this.grow(term, block, count);
    const entry = block + HEADER_BYTES + (<usize>count << 3);
    store<u32>(entry, next);
    store<u32>(entry, <u32>offset, 4);
    store<i32>(block, count + 1);
    this.counts.set(term, count + 1);
  }

  /** Room for twice `count` entries, 4 at first: a block's capacity is 4 times a power of two, and a cleared term has none. */
  private grow(term: i32, block: usize, count: i32): usize {
    const capacity = count < 4 ? 4 : count << 1;
    const bytes = HEADER_BYTES + (<usize>capacity << 3);
    const grown = block == 0 ? heap.alloc(bytes) : heap.realloc(block, bytes);
    store<i32>(grown, count);
    store<i32>(grown, capacity, 4);
    this.blocks.set(term, <i32>grown);
    return grown;
  }

  /** Forgets `term`'s entries and frees its block (its list is being rewritten, emptied or gone). */
  free(term: i32): void {
    const block = this.of(term);
    if (block == 0) return;
    heap.free(block);
    this.blocks.set(term, 0);
    this.counts.set(term, 0);
  }
}

/** The entry count of a block from SkipEntries.of (0 for none). */
@inline export function skipCount(block: usize): i32 { return block == 0 ? 0 : load<i32>(block); }
/** Entry `i`'s record before it, plus one. */
@inline export function skipNext(block: usize, i: i32): u32 { return load<u32>(block + HEADER_BYTES + (<usize>i << 3)); }
/** Entry `i`'s byte offset in the list. */
@inline export function skipOffset(block: usize, i: i32): u32 { return load<u32>(block + HEADER_BYTES + (<usize>i << 3), 4); }

/** Records per bit of a candidates' vector summary: one 128-bit vector of a bitmap. */
export const VECTOR_SHIFT = 7;

/**
 * Whether the vector summary `vectors` (a bit per 128 records: some
 * candidate among them) has a bit for some record in [lo, hi).
 */
@inline export function anyVectorBetween(vectors: usize, lo: u32, hi: u32): bool {
  if (hi <= lo) return false;
  const first = lo >> VECTOR_SHIFT, last = (hi - 1) >> VECTOR_SHIFT;
  let w = first >> 5;
  const lastWord = last >> 5;
  let bits = load<u32>(vectors + (<usize>w << 2)) & (<u32>0xffffffff << (first & 31));
  while (w < lastWord) {
    if (bits != 0) return true;
    w++;
    bits = load<u32>(vectors + (<usize>w << 2));
  }
  return (bits & (<u32>0xffffffff >> (31 - (last & 31)))) != 0;
}
