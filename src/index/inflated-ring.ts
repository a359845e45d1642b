// The inflated bytes a record store keeps beside its deflated chunks
// (Node), copied into buffers allocated once and written in turn as a
// ring: a chunk kept goes at the write position, and the chunks kept
// longest ago whose bytes that overwrites are dropped.
//
// Before, a chunk read again was inflated by a zlib stream and into a
// buffer of its own, both made for it, and the buffer was let go when the
// chunk was dropped (external memory until a mark-compact). Now it is
// inflated into the memory the record store's first reads reuse and
// copied here: at 1M records, default answers at first sight p50 -5% and
// -2%, mean -5% and -1% (two engines in one process, both orders;
// bench/RESULTS.md, stop 36), and nothing is allocated or let go per
// chunk once the segments are there.
//
// The buffers are segments of at most SEGMENT_BYTES, allocated as they
// fill up to the capacity (a store whose chunks fit holds only what they
// need); a chunk never straddles two. Kept chunks are listed oldest first
// in parallel arrays, which is also the order the writer meets them in on
// its next lap.

/** The largest segment: a chunk larger than this is never kept. */
const SEGMENT_BYTES = 4 << 20;

export class InflatedRing {
  private readonly segmentBytes: number;
  private readonly segments: Uint8Array[] = [];
  /** Where the next chunk goes: a segment and an offset in it. */
  private segment = 0;
  private offset = 0;
  /** The chunks kept, oldest first from `oldest`: key, segment, start, and the view handed out. */
  private readonly keys: number[] = [];
  private readonly segmentOf: number[] = [];
  private readonly starts: number[] = [];
  private readonly views: Uint8Array[] = [];
  private oldest = 0;

  /**
   * `capacity`: bytes in all. `dropped(key, view)` is told of each chunk
   * whose bytes are about to be overwritten (the view it was given then
   * holds another chunk's bytes).
   */
  constructor(readonly capacity: number, private readonly dropped: (key: number, view: Uint8Array) => void) {
    this.segmentBytes = Math.min(capacity, SEGMENT_BYTES);
  }

  /** Copies `bytes` in under `key`; the view holding them, or undefined when they are larger than a segment. */
  keep(key: number, bytes: Uint8Array): Uint8Array | undefined {
    const length = bytes.length;
    if (length > this.segmentBytes) return undefined;
    if (this.offset + length > this.segmentBytes) this.nextSegment();
    if (this.segment === this.segments.length) this.segments.push(new Uint8Array(this.segmentBytes));
    this.dropOverlapping(this.offset + length);
    const view = this.segments[this.segment].subarray(this.offset, this.offset + length);
    view.set(bytes);
    this.keys.push(key);
    this.segmentOf.push(this.segment);
    this.starts.push(this.offset);
    this.views.push(view);
    this.offset += length;
    return view;
  }

  /** Bytes of the segments allocated so far. */
  get allocated(): number { return this.segments.length * this.segmentBytes; }

  /**
   * Moves the writer to the start of the next segment (the first once
   * every segment the capacity allows is there). The chunks of an earlier
   * lap left past the offset in the segment it leaves are the oldest: they
   * are dropped now, so that the oldest listed chunk is always the next
   * one the writer meets.
   */
  private nextSegment(): void {
    while (this.oldest < this.keys.length && this.segmentOf[this.oldest] === this.segment && this.starts[this.oldest] >= this.offset) this.dropOldest();
    this.segment++;
    this.offset = 0;
    if (this.segment === this.segments.length && (this.segment + 1) * this.segmentBytes > this.capacity) this.segment = 0;
  }

  /** Drops the chunks of an earlier lap that start before `end` in the current segment. */
  private dropOverlapping(end: number): void {
    while (this.oldest < this.keys.length && this.segmentOf[this.oldest] === this.segment && this.starts[this.oldest] < end) this.dropOldest();
  }

  private dropOldest(): void {
    const at = this.oldest++;
    this.dropped(this.keys[at], this.views[at]);
    // the listed views are what keeps them: let the dropped ones go, and the list's head now and then
    if (this.oldest >= 1024 && this.oldest * 2 >= this.keys.length) {
      for (const list of [this.keys, this.segmentOf, this.starts, this.views]) list.splice(0, this.oldest);
      this.oldest = 0;
    }
  }
}
