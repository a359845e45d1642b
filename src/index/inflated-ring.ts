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
// The buffers are segments, the first of FIRST_SEGMENT_BYTES and each
// next one twice the last, up to SEGMENT_BYTES, allocated as chunks fill
// them and up to the capacity (a small store holds a small segment); a
// chunk never straddles two. Kept chunks are listed oldest first in
// parallel arrays, which is also the order the writer meets them in on
// its next lap.

const FIRST_SEGMENT_BYTES = 64 << 10;
/** The largest segment: a chunk larger than this is never kept. */
const SEGMENT_BYTES = 4 << 20;
/** What a chunk of no bytes is kept as: there is nothing to overwrite. */
const NO_BYTES = new Uint8Array(0);

export class InflatedRing {
  /** The largest chunk kept. */
  private readonly largest: number;
  private readonly segments: Uint8Array[] = [];
  private allocatedBytes = 0;
  /** Where the next chunk goes: a segment (segments.length: one to allocate) and an offset in it. */
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
    this.largest = Math.min(capacity, SEGMENT_BYTES);
  }

  /** Copies `bytes` in under `key`; the view holding them, or undefined when no segment can hold them. */
  keep(key: number, bytes: Uint8Array): Uint8Array | undefined {
    const length = bytes.length;
    if (length === 0) return NO_BYTES;
    if (length > this.largest || !this.placeFor(length)) return undefined;
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
  get allocated(): number { return this.allocatedBytes; }

  /**
   * Moves the writer, if need be, to where `length` bytes fit: the next
   * segment, a new one while the capacity allows, else the first again.
   * False when no segment can hold them (all smaller).
   */
  private placeFor(length: number): boolean {
    for (let moves = 0; moves <= this.segments.length + 1; moves++) {
      if (this.segment === this.segments.length && !this.allocate(length)) {
        this.segment = 0;
        this.offset = 0;
      }
      if (this.offset + length <= this.segments[this.segment].length) return true;
      this.nextSegment();
    }
    return false;
  }

  /** A new segment at the end, for at least `length` bytes; false when the capacity has no room for one. */
  private allocate(length: number): boolean {
    const room = this.capacity - this.allocatedBytes;
    const last = this.segments.at(-1);
    const size = Math.min(Math.max(last ? Math.min(last.length * 2, SEGMENT_BYTES) : FIRST_SEGMENT_BYTES, length), room);
    if (size < length) return false;
    this.segments.push(new Uint8Array(size));
    this.allocatedBytes += size;
    return true;
  }

  /**
   * Moves the writer to the start of the next segment. The chunks of an
   * earlier lap left past the offset in the segment it leaves are the
   * oldest: they are dropped now, so that the oldest listed chunk is
   * always the next one the writer meets.
   */
  private nextSegment(): void {
    this.dropOverlapping(Number.POSITIVE_INFINITY);
    this.segment++;
    this.offset = 0;
  }

  /**
   * Drops the chunks of an earlier lap that start before `end` in the
   * current segment: those at or past the writer's offset (the chunks this
   * lap wrote there start before it), oldest first.
   */
  private dropOverlapping(end: number): void {
    while (
      this.oldest < this.keys.length && this.segmentOf[this.oldest] === this.segment
      && this.starts[this.oldest] >= this.offset && this.starts[this.oldest] < end
    ) this.dropOldest();
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
