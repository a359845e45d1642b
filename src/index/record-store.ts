// The records of an index by record id, kept packed: one record each, in
// chunks of 16 record ids, as JSON text in UTF-8. A chunk whose records came
// with their JSON (a large batch the log wrote) is packed once its
// last id is issued; one whose records came as objects only (an engine in
// memory) is packed off the write path: once writes pause, past a budget of
// objects held, or by the next snapshot (see UNPACKED_BYTES). A snapshot
// takes packed chunks as they are, and a restart reads them back without
// parsing. A chunk is deflated off the write path: by the next snapshot,
// or, where inflating is synchronous (Node), once the inflated bytes held
// pass a budget (see deflateOverBudget); an index held in memory only and
// never snapshotted pays for no deflating until then. Deflated chunks stay
// deflated, those read again lately also inflated beside (in an
// InflatedRing); where inflating is not synchronous they stay inflated too
// (still a fraction of the objects). Every record's objectID is also kept
// in a dense list, so finding a record id by objectID (a table over that
// list) and answering a hit by its objectID alone never read the record
// itself.
import { deflate, deflateNow, inflate, inflateNow, inflateTransient, loadSyncZlib, syncZlib } from '../util/compression.js';
import { ObjectIdTable } from './object-id-table.js';
import { InflatedRing } from './inflated-ring.js';
import { ByteWriter } from '../util/bytes.js';
import type { SearchRecord } from './records.js';
import { yieldTurn } from '../util/turns.js';
import { countWrite, IdleWork } from './idle-work.js';

/** Changes kept for readers that fold them in (see changesSince). */
const CHANGES_KEPT = 1 << 16;

/**
 * Record ids per chunk of a new store: ~6 KB of the synthetic benchmark's
 * records. A hit read from a deflated chunk inflates all of it: at 1M
 * records (where most chunks are deflated) chunks of 64 put 27-42% of a
 * first-sight answer's time in inflating, 16 brought the answer's p50 from
 * 3.5 to 2.3 ms. Smaller chunks deflate less well (0.43 of the JSON
 * against 0.39 for 64) and 8 were no faster. A store read from a snapshot
 * keeps the size the snapshot was written with.
 */
export const CHUNK_RECORDS = 16;

/**
 * Inflated bytes a chunk of large records is cut to. A record is read by
 * inflating its chunk up to its end: 16 records of ~7 KB (documents of
 * ~1,000 words) put ~56 KB of inflating in each hit read, 14% of such a
 * default answer's time. A store whose first 16 records would make a
 * chunk of more than twice this holds fewer a chunk (see chunkRecordsFor).
 */
export const CHUNK_BYTES = 16 << 10;

/** Record ids per chunk for records of `average` bytes: CHUNK_RECORDS, halved until a chunk holds CHUNK_BYTES or fewer where those would hold twice that. */
export function chunkRecordsFor(average: number): number {
  let size = CHUNK_RECORDS;
  if (average * size <= 2 * CHUNK_BYTES) return size;
  while (size > 1 && average * size > CHUNK_BYTES) size >>= 1;
  return size;
}

/**
 * Inflated bytes a store holds (Node): of the chunks not deflated yet, and
 * kept beside deflated ones, of those deflated or read again most recently
 * (see InflatedRing; a first read keeps nothing).
 */
const INFLATED_BYTES = 64 << 20;

/**
 * Records kept decoded (a power of two), of those read lately: a page of
 * hits asked for again (the next keystroke, the previous page) decodes
 * nothing, or a record or two that another took the slot of. A kept
 * record outlives a young-generation collection or two and is copied by
 * each: 4,096 of them doubled what each collection copied in a run of
 * first-sight searches over 100k synthetic records (1.5 against 0.7 MB),
 * for ~1 µs saved per hit found again. But a small corpus's records are
 * found again and again, and larger ones cost more to decode: 512 held a
 * fifth of the 2,356 TED talks, whose 1.3 kB records take 7 µs each to
 * parse, and 4,096 cut the default answer's p50 there by 8-13% at first
 * sight, the plain shape's and the cities' unchanged (bench/RESULTS.md,
 * "The fixed cost of an answer").
 */
const DECODED_KEPT = 4096;

/**
 * Records of more JSON bytes than this are kept decoded from their second
 * read on (see DecodedRecords.keep). A kept record is copied by the next
 * young-generation collection and promoted: documents of ~7 KB (~1,000
 * words), ten a page, made each collection copy ~3 MB and pause 6-10 ms,
 * and a first-sight answer met one of those pauses every ~60 answers, the
 * long documents' p99 (bench/RESULTS.md, "A long record's decoded copy").
 * Smaller records, found again and again in a small corpus, are kept at
 * once.
 */
const KEPT_AT_ONCE_BYTES = 2 << 10;

/**
 * The records kept decoded (see DECODED_KEPT), direct-mapped: a record's
 * slot is its id's low bits, and a record read later takes the slot from
 * the one there. A Map in least-recently-read order cost ~0.6 µs a record
 * read at first sight (an insertion, a deletion, an iterator to find the
 * oldest), a fifth of reading it.
 */
class DecodedRecords {
  private readonly ids = new Int32Array(DECODED_KEPT).fill(-1);
  private readonly records = new Array<SearchRecord | undefined>(DECODED_KEPT).fill(undefined);
  /** Per slot, the large record read once lately and not kept (see KEPT_AT_ONCE_BYTES). */
  private readonly readOnce = new Int32Array(DECODED_KEPT).fill(-1);

  get(id: number): SearchRecord | undefined {
    const slot = id & (DECODED_KEPT - 1);
    return this.ids[slot] === id ? this.records[slot] : undefined;
  }

  /** Keeps `record`, decoded from `bytes` JSON bytes: at once when small, else when read lately already. */
  keep(id: number, record: SearchRecord, bytes: number): void {
    const slot = id & (DECODED_KEPT - 1);
    if (bytes > KEPT_AT_ONCE_BYTES && this.readOnce[slot] !== id) {
      this.readOnce[slot] = id;
      return;
    }
    this.ids[slot] = id;
    this.records[slot] = record;
  }

  delete(id: number): void {
    const slot = id & (DECODED_KEPT - 1);
    if (this.ids[slot] !== id) return;
    this.ids[slot] = -1;
    this.records[slot] = undefined;
  }
}

/**
 * JSON bytes, estimated, of the records a store holds as objects in chunks
 * filled and not packed yet; past it the oldest are packed as new ones fill.
 * Stringifying every record as it came took an eighth of an in-memory
 * import's CPU (100k of the synthetic benchmark's records); held as objects
 * (~1.3 times their JSON on the heap, for those records) they are packed
 * once writes pause instead, and an import of up to ~130k such records
 * never waits for it. While writes keep coming, a store holds at most this
 * beside the inflated bytes it held before (INFLATED_BYTES, as much);
 * once they pause, what it held before.
 */
const UNPACKED_BYTES = 64 << 20;

/**
 * How long writes pause before the chunks left unpacked are packed, a slice
 * per turn: longer than the turns between an import's batches, so that the
 * import never waits for it.
 */
const PACK_QUIET_MS = 100;

/**
 * Records packed per turn once writes pause, in estimated JSON bytes (a
 * chunk at least): ~1 ms, so that a search arriving meanwhile waits no
 * longer. A count of chunks took 2 ms a turn of short records and 11 ms of
 * the TED talks' 1.3 KB ones.
 */
export const PACK_SLICE_BYTES = 64 << 10;

/** Deflated chunks whose last read is noted (a power of two): 128k records' worth, more than the 64 MB kept inflated hold. */
const READ_CHUNKS_NOTED = 8192;

/** Chunks a snapshot packs or deflates between turns of the event loop (~0.2 ms each). */
const SNAPSHOT_SLICE = 32;

/** Record ids unpacked between turns of the event loop. */
const UNPACK_SLICE = 1 << 16;

/** Bytes of copies of waiting texts a store keeps for the next chunk's (see RecordStore.waitingCopies); more are let go. */
const WAITING_COPIES_KEPT = 1 << 20;

/** Largest offset the snapshot format's end offsets (32 bits) can hold. */
const MAX_PACKED_BYTES = 0xffffffff;

/** The records as a snapshot holds them: packed records, deflated in chunks. */
export interface PackedRecords {
  /**
   * How each record is packed: JSON text in UTF-8, read back by the engine's
   * own JSON.parse (a record of the benchmark's 486 bytes in ~1.1 µs, against
   * 3-5.5 µs for MessagePack in JavaScript, which 0.1.0's snapshots held: a
   * page of 20 hits spent 60-110 µs decoding, a fifth of a first-sight
   * search). Every value the API accepts is JSON, and keys such as
   * "__proto__" are parsed as data.
   */
  format: 'json';
  /** objectID per record id ('' where there is no record). */
  objectIDs: string[];
  /** End offset of each record's bytes in the inflated chunks end to end (a Uint32Array's bytes, little endian); no bytes = no record. */
  ends: Uint8Array;
  /** The deflated chunks: chunk k holds the records of ids [k * chunkRecords, (k + 1) * chunkRecords). */
  chunks: Uint8Array[];
  chunkRecords: number;
}

/** The packed records of the ids [k * chunkRecords, (k + 1) * chunkRecords). */
interface Chunk {
  /** Per id of the chunk, where its record's bytes end in the inflated chunk (no bytes = no record). */
  ends: Uint32Array;
  /** At least one of the two is kept; `deflated` is made at the latest by the next snapshot. */
  deflated?: Uint8Array;
  inflated?: Uint8Array;
  /** `deflated` is being made. */
  deflating?: Promise<void>;
  /** An id of the chunk was issued or removed since it was packed: the next snapshot packs it again. */
  stale: boolean;
  /** Its inflated bytes are counted in the store's `undeflatedBytes`: nothing deflates it yet. */
  undeflated?: boolean;
  /** Bytes of the removed records it still holds (see reclaim). */
  deadBytes: number;
}

export interface RecordStoreOptions {
  /**
   * Inflated bytes held (Node): of the chunks not deflated yet, the oldest
   * deflated first past it, and kept beside deflated ones, of those
   * deflated or read again most recently, the oldest dropped first
   * (default 64 MB; see InflatedRing).
   */
  inflatedBytes?: number;
  /** Estimated JSON bytes of records held as objects in chunks filled and not packed (default 64 MB; 0: packed as they fill). */
  unpackedBytes?: number;
}

export class RecordStore {
  /**
   * Per record id: a record not packed yet (of the open chunk, or of one
   * left unpacked), null once removed, undefined when packed (or never held).
   */
  private objects: Array<SearchRecord | null | undefined> = [];
  private chunks: Array<Chunk | undefined> = [];
  private chunkRecords = CHUNK_RECORDS;
  /**
   * The texts given with the records of the open chunk (the last), by their
   * place in it: a chunk filled with every record's text is packed at once,
   * any other is left unpacked and its texts dropped.
   */
  private readonly openTexts: Array<Uint8Array | undefined> = [];
  /**
   * The copies ownWaitingTexts made of the open chunk's texts, end to end
   * from 0 to `waitingCopiesUsed`. One array reused from chunk to chunk: an
   * array per text (a batch is applied in slices, each leaving texts to
   * copy) cost ~10 µs a text importing the 135k cities on files, in the
   * allocator and the collections it set off, and one a call ~35 µs.
   */
  private waitingCopies = new Uint8Array(0);
  private waitingCopiesUsed = 0;
  /** objectID per record id ('' once removed, and for ids a snapshot holds no record at). */
  private objectIDs: string[] = [];
  private readonly ids = new ObjectIdTable((id) => this.objectIDOf(id));
  /** The inflated bytes kept of chunks that have deflated ones (Node): a chunk dropped from the ring reads its deflated bytes again. */
  private readonly kept: InflatedRing;
  /** Packed records decoded lately. */
  private readonly decoded = new DecodedRecords();
  /** Deflated chunks read lately, by their index's low bits (see readBefore). */
  private readonly readChunks = new Int32Array(READ_CHUNKS_NOTED).fill(-1);
  /** Chunks packed and left to deflate, oldest first from `undeflatedHead` (a chunk packed again since is skipped). */
  private undeflatedQueue: number[] = [];
  private undeflatedHead = 0;
  /** Inflated bytes of the chunks packed and not deflated, nor being deflated. */
  private undeflatedBytes = 0;
  /** Chunks filled and left unpacked, oldest first: the estimated JSON bytes of their records (see UNPACKED_BYTES). */
  private readonly unpacked = new Map<number, number>();
  private unpackedBytes = 0;
  private readonly unpackedBudget: number;
  /**
   * Packs the chunks left unpacked once writes pause. Its timer holds the
   * store weakly: an engine closed, or an index dropped, lets go of its
   * records, and a store collected has nothing left to pack.
   */
  private readonly idlePacking = idlePackingOf(new WeakRef(this));
  /** Record ids pushed or removed, oldest first, after the `changesDropped` oldest ones. */
  private changes: number[] = [];
  private changesDropped = 0;

  constructor(options: RecordStoreOptions = {}) {
    this.unpackedBudget = options.unpackedBytes ?? UNPACKED_BYTES;
    this.kept = new InflatedRing(options.inflatedBytes ?? INFLATED_BYTES, (k, view) => {
      const chunk = this.chunks[k];
      if (chunk?.inflated === view) chunk.inflated = undefined;
    });
  }

  /** Record ids issued so far, live or not. */
  get length(): number { return this.objects.length; }
  /** Live records. */
  get size(): number { return this.ids.size; }

  /** Record id of a live record's objectID. */
  idOf(objectID: string): number | undefined { return this.ids.get(objectID); }

  /** objectID of a live record (an objectID may be ''). */
  objectIDOf(id: number): string | undefined {
    const record = this.objects[id];
    if (record === null) return undefined;
    return record !== undefined || this.hasBytes(id) ? this.objectIDs[id] : undefined;
  }

  get(id: number): SearchRecord | undefined {
    const record = this.objects[id];
    if (record !== undefined) return record ?? undefined;
    const known = this.decoded.get(id);
    if (known) return known;
    const chunk = this.chunkOf(id);
    if (!chunk || !this.hasBytes(id)) return undefined;
    const k = Math.floor(id / this.chunkRecords);
    const at = id % this.chunkRecords;
    // a chunk not read lately is inflated only as far as the record's end, into memory the next such read reuses
    const bytes = chunk.inflated || this.readBefore(k) ? this.inflatedOf(k, chunk) : inflateTransient(chunk.deflated!, this.inflatedSize(chunk), chunk.ends[at]);
    const packed = bytesIn(chunk.ends, at, bytes);
    const unpacked = unpackRecord(packed);
    this.decoded.keep(id, unpacked, packed.length);
    return unpacked;
  }

  /**
   * Whether deflated chunk k was read lately (and notes that it is now). A
   * chunk is kept inflated from its second read on: a first-sight page reads
   * ~20 random chunks once each, and keeping each cost an allocation outside
   * the heap that V8 answered with mark-compacts (see inflate-into.node.ts),
   * so a first read inflates into memory the next one reuses.
   */
  private readBefore(k: number): boolean {
    const slot = k & (READ_CHUNKS_NOTED - 1);
    if (this.readChunks[slot] === k) return true;
    this.readChunks[slot] = k;
    return false;
  }

  /**
   * Adds a record whose objectID is not in the store; returns its record id.
   * `text`: its JSON in UTF-8 (JSON.stringify's), packed as it is.
   */
  push(record: SearchRecord, text?: Uint8Array): number {
    const id = this.objects.push(record) - 1;
    this.openTexts[id % this.chunkRecords] = text;
    this.objectIDs[id] = record.objectID;
    this.ids.add(record.objectID, id);
    this.changed(id);
    if (id % this.chunkRecords !== this.chunkRecords - 1) return id;
    if (id === this.chunkRecords - 1 && this.chunks.length === 0) this.sizeChunks(id + 1);
    else this.filled(Math.floor(id / this.chunkRecords));
    return id;
  }

  /**
   * The first `count` ids filled the first chunk of a new store: chunks
   * hold fewer records from now on when these are large (see
   * chunkRecordsFor), and each chunk of these ids is filled. A store read
   * from a snapshot keeps the snapshot's size.
   */
  private sizeChunks(count: number): void {
    let bytes = 0;
    for (let id = 0; id < count; id++) {
      const record = this.objects[id];
      if (record) bytes += this.openTexts[id]?.byteLength ?? JSON.stringify(record).length;
    }
    const size = chunkRecordsFor(bytes / count);
    if (size === this.chunkRecords) {
      this.filled(0);
      return;
    }
    const texts = this.openTexts.slice(0, count);
    this.chunkRecords = size;
    for (let k = 0; k < count / size; k++) {
      // the open chunk's texts are found by their place in it
      this.openTexts.fill(undefined);
      for (let at = 0; at < size; at++) this.openTexts[at] = texts[k * size + at];
      this.filled(k);
    }
  }

  /**
   * Chunk k's last id was issued: packed now when every record came with
   * its text (copied, so that the batch's bytes can go), else left
   * unpacked (see UNPACKED_BYTES), the oldest ones packed past the budget.
   */
  private filled(k: number): void {
    this.reuseWaitingCopies(); // read by pack(k) below at the latest
    if (this.unpackedBudget === 0 || this.textsGiven(k)) {
      this.pack(k);
      countWrite();
      return;
    }
    this.openTexts.fill(undefined);
    const estimate = this.jsonBytesOf(k);
    this.unpacked.set(k, estimate);
    this.unpackedBytes += estimate;
    if (this.unpackedBytes > this.unpackedBudget) this.packDownTo(this.unpackedBudget);
    this.idlePacking.noteWrite();
  }

  /** Whether every live record of chunk k, the open one, came with its text. */
  private textsGiven(k: number): boolean {
    const first = k * this.chunkRecords;
    for (let at = 0; at < this.chunkRecords; at++) {
      if (this.objects[first + at] && this.openTexts[at] === undefined) return false;
    }
    return true;
  }

  /**
   * The JSON bytes of chunk k's records, estimated from its last live one's
   * (a sixteenth of the stringifying that packing it does): records of
   * megabytes must not be taken for the few hundred bytes of those before.
   */
  private jsonBytesOf(k: number): number {
    for (let id = (k + 1) * this.chunkRecords - 1; id >= k * this.chunkRecords; id--) {
      const record = this.objects[id];
      if (record) return JSON.stringify(record).length * this.chunkRecords;
    }
    return 0;
  }

  /** Packs the chunks left unpacked, oldest first, until what is left is estimated at `above` bytes or fewer. */
  private packDownTo(above: number): void {
    for (const k of this.unpacked.keys()) {
      if (this.unpackedBytes <= above) break;
      this.pack(k);
    }
  }

  /** Packs a slice of the chunks left unpacked (writes paused): PACK_SLICE_BYTES of records, a chunk at least; whether any are left. */
  packSlice(): boolean {
    let sliced = 0;
    for (const [k, estimate] of this.unpacked) {
      if (sliced > 0 && sliced + estimate > PACK_SLICE_BYTES) break;
      this.pack(k);
      sliced += estimate;
    }
    return this.unpacked.size > 0;
  }

  /** Bytes, estimated as JSON, of the records held as objects in chunks filled and not packed yet. */
  get bytesToPack(): number { return this.unpackedBytes; }

  /** The store is let go of (its index cleared or rebuilt): the chunks it left unpacked stay so. */
  letGo(): void {
    this.idlePacking.cancel();
  }

  /**
   * Copies the texts still waiting in the open chunk out of the bytes they
   * are views of (a whole batch's, see LOGGED_TEXT): once the batch is
   * applied, those bytes can go. A text is copied once, of at most a
   * chunk's records less one, into memory the store reuses once they are
   * packed (see waitingCopies).
   */
  ownWaitingTexts(): void {
    let bytes = 0;
    for (const text of this.openTexts) if (text && text.buffer !== this.waitingCopies.buffer) bytes += text.byteLength;
    if (bytes === 0) return;
    if (this.waitingCopiesUsed + bytes > this.waitingCopies.length) this.growWaitingCopies(this.waitingCopiesUsed + bytes);
    const copies = this.waitingCopies;
    for (let at = 0; at < this.openTexts.length; at++) {
      const text = this.openTexts[at];
      if (!text || text.buffer === copies.buffer) continue;
      copies.set(text, this.waitingCopiesUsed);
      this.openTexts[at] = copies.subarray(this.waitingCopiesUsed, (this.waitingCopiesUsed += text.byteLength));
    }
  }

  /** Room for `length` bytes of copies: the texts copied so far move with them. */
  private growWaitingCopies(length: number): void {
    const previous = this.waitingCopies;
    const grown = new Uint8Array(Math.max(length, previous.length * 2));
    grown.set(previous.subarray(0, this.waitingCopiesUsed));
    for (let at = 0; at < this.openTexts.length; at++) {
      const text = this.openTexts[at];
      if (text?.buffer === previous.buffer) this.openTexts[at] = grown.subarray(text.byteOffset, text.byteOffset + text.byteLength);
    }
    this.waitingCopies = grown;
  }

  /** The open chunk filled (packed, or its texts dropped): the copies of its texts are no longer read. */
  private reuseWaitingCopies(): void {
    this.waitingCopiesUsed = 0;
    if (this.waitingCopies.length > WAITING_COPIES_KEPT) this.waitingCopies = new Uint8Array(0);
  }

  /** Bytes of the buffers the texts waiting in the open chunk keep alive (theirs, or the batches' they are views of). */
  get waitingTextBuffers(): number {
    const buffers = new Set<ArrayBufferLike>();
    for (const text of this.openTexts) if (text) buffers.add(text.buffer);
    let bytes = 0;
    for (const buffer of buffers) bytes += buffer.byteLength;
    return bytes;
  }

  /** Removes the record of an objectID; returns the record id it had. */
  remove(objectID: string): number | undefined {
    const id = this.ids.delete(objectID);
    if (id === undefined) return undefined;
    this.objects[id] = null;
    this.objectIDs[id] = '';
    this.decoded.delete(id);
    this.changed(id);
    this.reclaim(id);
    return id;
  }

  /** Bytes the packed chunks hold (before compression), removed records' included until repacked. */
  get packedBytes(): number {
    let bytes = 0;
    for (const chunk of this.chunks) bytes += chunk ? this.inflatedSize(chunk) : 0;
    return bytes;
  }

  /** Inflated bytes of the packed chunks that nothing deflates yet (see deflateOverBudget). */
  get bytesToDeflate(): number { return this.undeflatedBytes; }

  /** Inflated bytes held against the budget: of the chunks waiting to deflate, and the ring's. */
  get inflatedBytesHeld(): number { return this.undeflatedBytes + this.kept.allocated; }

  /**
   * Counts the bytes of a removed record against its packed chunk, and packs
   * the chunk again once removed records hold half of it. A snapshot repacks
   * every chunk touched, but an index that never snapshots (in memory) kept
   * every version of every record it was sent: 7.5 MB more with each
   * replacement of 50,000 records. Repacking at half keeps at most twice the
   * live bytes, for at most the bytes removed rewritten.
   */
  private reclaim(id: number): void {
    const k = Math.floor(id / this.chunkRecords);
    const chunk = this.chunks[k];
    if (!chunk || !this.hasBytes(id)) return;
    const at = id % this.chunkRecords;
    chunk.deadBytes += chunk.ends[at] - (at === 0 ? 0 : chunk.ends[at - 1]);
    if (chunk.deadBytes * 2 >= this.inflatedSize(chunk)) this.pack(k);
  }

  /** Changes made so far: a mark for `changesSince`. */
  get changeCount(): number { return this.changesDropped + this.changes.length; }

  /**
   * Record ids pushed or removed since `mark` (what derived orders fold in
   * instead of rebuilding), or undefined when they are no longer all kept.
   */
  changesSince(mark: number): number[] | undefined {
    if (mark < this.changesDropped) return undefined;
    return this.changes.slice(mark - this.changesDropped);
  }

  private changed(id: number): void {
    const chunk = this.chunkOf(id);
    if (chunk) chunk.stale = true;
    this.changes.push(id);
    // a reader that many changes behind rebuilds at about the same cost as folding them in
    if (this.changes.length > CHANGES_KEPT) {
      const dropped = this.changes.length >> 1;
      this.changes = this.changes.slice(dropped);
      this.changesDropped += dropped;
    }
  }

  /** The ids of every live record, in order (no record is read). */
  *liveIds(): Iterable<number> {
    for (let id = 0; id < this.objects.length; id++) if (this.objectIDOf(id) !== undefined) yield id;
  }

  /**
   * Every live record from id `from` on, a chunk at a time (scans decode
   * without keeping: a browse or a facet built over a million records must
   * not hold them all).
   */
  *entries(from = 0): Iterable<[number, SearchRecord]> {
    for (let first = from - (from % this.chunkRecords); first < this.objects.length; first += this.chunkRecords) {
      // a chunk's records are all decoded before the first is handed out: what the reader does
      // between two may read other chunks, whose bytes can take the place of this one's in the ring
      for (const entry of this.chunkEntries(first)) if (entry[0] >= from) yield entry;
    }
  }

  /** The live records of the chunk starting at record id `first`. */
  private chunkEntries(first: number): Array<[number, SearchRecord]> {
    const chunk = this.chunkOf(first);
    const inflated = chunk && this.bytesOf(chunk);
    const entries: Array<[number, SearchRecord]> = [];
    for (let id = first; id < Math.min(first + this.chunkRecords, this.objects.length); id++) {
      const record = this.objects[id];
      if (record) entries.push([id, record]);
      else if (record === undefined && chunk && this.hasBytes(id)) {
        entries.push([id, this.decoded.get(id) ?? unpackRecord(bytesIn(chunk.ends, id - first, inflated!))]);
      }
    }
    return entries;
  }

  /**
   * Decodes every packed record once, keeping none of them (a snapshot's
   * proof: a restart must be able to read each one); `pause` runs between chunks.
   */
  async readEachPacked(pause: () => Promise<void>): Promise<void> {
    for (let first = 0; first < this.objects.length; first += this.chunkRecords) {
      const chunk = this.chunkOf(first);
      if (!chunk) continue;
      const inflated = this.bytesOf(chunk);
      for (let id = first; id < Math.min(first + this.chunkRecords, this.objects.length); id++) {
        if (this.objects[id] === undefined && this.hasBytes(id)) unpackRecord(bytesIn(chunk.ends, id - first, inflated));
      }
      await pause();
    }
  }

  /**
   * The records as a snapshot holds them: the chunks no write touched since
   * they were deflated are reused as they are; the others are packed and
   * deflated now.
   */
  async snapshot(): Promise<PackedRecords> {
    const count = Math.ceil(this.objects.length / this.chunkRecords);
    let worked = 0;
    for (let k = 0; k < count; k++) {
      let chunk = this.chunks[k];
      if (!chunk || chunk.stale) chunk = this.pack(k, false);
      else if (chunk.deflated) continue;
      this.dequeue(chunk);
      // deflated here rather than waited for: the thread pool may be queued behind the log's fsyncs
      const deflated = deflateNow(chunk.inflated!);
      if (deflated) {
        chunk.deflated = deflated;
        this.keptInflated(k);
      } else if (!chunk.deflating) this.deflateLater(k, chunk);
      if (++worked % SNAPSHOT_SLICE === 0) await yieldTurn();
    }
    // without a synchronous deflate (browsers), the deflates under way are waited for
    await Promise.all(this.chunks.filter((chunk) => chunk && !chunk.deflated).map((chunk) => chunk!.deflating));
    const ends = new Uint32Array(this.objects.length);
    const chunks: Uint8Array[] = [];
    let offset = 0;
    for (let k = 0; k < count; k++) {
      const chunk = this.chunks[k]!;
      if (!chunk.deflated) {
        chunk.deflated = await deflate(chunk.inflated!); // its deflate after packing failed
        if (this.chunks[k] === chunk) this.keptInflated(k);
      }
      const first = k * this.chunkRecords;
      for (let id = first; id < Math.min(first + this.chunkRecords, this.objects.length); id++) ends[id] = offset + chunk.ends[id - first];
      offset += this.inflatedSize(chunk);
      if (offset > MAX_PACKED_BYTES) throw new Error('records: an index packs to more than 4 GiB, more than a snapshot can hold');
      chunks.push(chunk.deflated);
      if ((k * this.chunkRecords) % UNPACK_SLICE < this.chunkRecords) await yieldTurn();
    }
    return { format: 'json', objectIDs: this.objectIDs.slice(), ends: new Uint8Array(ends.buffer), chunks, chunkRecords: this.chunkRecords };
  }

  static async unpack(packed: PackedRecords, options: RecordStoreOptions = {}): Promise<RecordStore> {
    const store = new RecordStore(options);
    if (packed.format !== 'json') throw new Error(`snapshot records: unknown record format ${String(packed.format)}`);
    const count = packed.objectIDs.length;
    // a copy of its own (a Node Buffer's slice() is a view: its buffer may be a whole message's, of any length)
    const ends = new Uint32Array(Uint8Array.from(packed.ends).buffer);
    if (ends.length !== count) throw new Error('snapshot records: one end offset per record id expected');
    store.objects = new Array(count);
    store.objectIDs = packed.objectIDs;
    // a turn of the event loop now and then: a million records are read between searches
    store.ids.reserve(count);
    for (let id = 0; id < count; id++) {
      if (ends[id] !== (id === 0 ? 0 : ends[id - 1])) store.ids.add(packed.objectIDs[id], id);
      if (id % UNPACK_SLICE === UNPACK_SLICE - 1) await yieldTurn();
    }
    const { chunks, chunkRecords } = packed;
    if (!Number.isInteger(chunkRecords) || chunkRecords < 1 || !Array.isArray(chunks) || chunks.length < Math.ceil(count / chunkRecords)) {
      throw new Error('snapshot records: chunks do not cover the record ids');
    }
    await store.adoptChunks(chunks, chunkRecords, ends);
    return store;
  }

  /**
   * Takes a snapshot's chunks as they are. They are copied (into one buffer:
   * thousands of arrays of their own weigh on the collector): MessagePack
   * gives views of the snapshot, which an unread chunk would keep whole.
   */
  private async adoptChunks(views: Uint8Array[], chunkRecords: number, ends: Uint32Array): Promise<void> {
    this.chunkRecords = chunkRecords;
    const all = new Uint8Array(views.reduce((n, chunk) => n + chunk.length, 0));
    const deflated: Uint8Array[] = [];
    let at = 0;
    for (const chunk of views) {
      all.set(chunk, at);
      deflated.push(all.subarray(at, at += chunk.length));
      if ((deflated.length * chunkRecords) % UNPACK_SLICE < chunkRecords) await yieldTurn();
    }
    // without a synchronous inflate, reads cannot wait for one: every chunk is inflated now
    await loadSyncZlib();
    const inflated = syncZlib() ? undefined : await Promise.all(deflated.map(inflate));
    this.chunks = [];
    for (let k = 0; k < deflated.length; k++) {
      this.chunks.push({ ends: chunkEnds(ends, k, chunkRecords), deflated: deflated[k], inflated: inflated?.[k], stale: false, deadBytes: 0 });
      if ((k * chunkRecords) % UNPACK_SLICE < chunkRecords) await yieldTurn();
    }
  }

  /**
   * Packs chunk k as it is now: the records not packed yet, and the bytes of
   * those packed before and still live. Its objects are let go.
   */
  private pack(k: number, deflateLater = true): Chunk {
    const first = k * this.chunkRecords;
    const last = Math.min(first + this.chunkRecords, this.objects.length);
    const previous = this.chunks[k];
    const previousBytes = previous && this.bytesOf(previous);
    const ends = new Uint32Array(this.chunkRecords);
    const writer = chunkWriter;
    writer.clear();
    this.noteUnpacked(k);
    // the texts waiting are the open chunk's
    const open = k === Math.floor((this.objects.length - 1) / this.chunkRecords);
    for (let id = first; id < first + this.chunkRecords; id++) {
      const record = id < last ? this.objects[id] : null;
      if (record) this.appendRecord(writer, record, open ? id - first : -1);
      else if (record === undefined && previous && this.hasBytes(id)) writer.append(bytesIn(previous.ends, id - first, previousBytes!));
      ends[id - first] = writer.length;
    }
    const chunk: Chunk = { ends, inflated: writer.view().slice(), stale: false, deadBytes: 0 };
    if (previous) this.dequeue(previous);
    this.chunks[k] = chunk;
    for (let id = first; id < last; id++) if (this.objects[id]) this.objects[id] = undefined;
    if (deflateLater) this.enqueue(k, chunk);
    return chunk;
  }

  /** Chunk k, about to be packed, is no longer one left unpacked. */
  private noteUnpacked(k: number): void {
    const estimate = this.unpacked.get(k);
    if (estimate === undefined) return;
    this.unpacked.delete(k);
    this.unpackedBytes -= estimate;
    if (this.unpacked.size === 0) this.idlePacking.cancel();
  }

  /** Appends a record not packed yet, at `at` in the open chunk (-1: in another): the text given with it, else its JSON. */
  private appendRecord(writer: ByteWriter, record: SearchRecord, at: number): void {
    const text = at < 0 ? undefined : this.openTexts[at];
    if (text === undefined) {
      writer.appendUtf8(JSON.stringify(record));
      return;
    }
    writer.append(text);
    this.openTexts[at] = undefined; // a view of its batch's bytes: holds all of them
  }

  /**
   * Leaves chunk k, just packed, to deflate later. Deflating a chunk of 16
   * of the benchmark's records took ~0.25 ms of this thread even on the
   * thread pool (a zlib stream set up per chunk) and more of the pool's,
   * which shares this machine's cores: at 100k records, a fifth of an
   * import's time. A store that never snapshots and holds less than its
   * budget of inflated bytes never pays it.
   */
  private enqueue(k: number, chunk: Chunk): void {
    chunk.undeflated = true;
    this.undeflatedBytes += this.inflatedSize(chunk);
    this.undeflatedQueue.push(k);
    this.deflateOverBudget();
  }

  /** A chunk about to be deflated, or packed again, no longer counts as waiting to be. */
  private dequeue(chunk: Chunk): void {
    if (!chunk.undeflated) return;
    chunk.undeflated = false;
    this.undeflatedBytes -= this.inflatedSize(chunk);
  }

  /**
   * Deflates the oldest chunks waiting (on the thread pool), while the
   * inflated bytes held (theirs and the ring's) are more than the budget:
   * past it an import deflates as it packs, and the memory held stays
   * what it was when every chunk was deflated at once. Only where reads
   * inflate synchronously (Node): elsewhere chunks keep their inflated
   * bytes anyway, and a snapshot deflates them.
   */
  private deflateOverBudget(): void {
    if (!syncZlib()) return;
    while (this.undeflatedBytes + this.kept.allocated > this.kept.capacity && this.undeflatedHead < this.undeflatedQueue.length) {
      const k = this.undeflatedQueue[this.undeflatedHead++];
      const chunk = this.chunks[k];
      if (!chunk?.undeflated) continue;
      this.dequeue(chunk);
      this.deflateLater(k, chunk);
    }
    this.compactQueue();
  }

  /**
   * Lets go of the queue's entries passed, and of those of chunks deflated
   * or packed again since (an index rewritten under its budget enqueues a
   * chunk at each repacking): the queue stays within twice the chunks.
   */
  private compactQueue(): void {
    const queue = this.undeflatedQueue;
    if (this.undeflatedHead >= 1024 && this.undeflatedHead * 2 >= queue.length) {
      this.undeflatedQueue = queue.slice(this.undeflatedHead);
      this.undeflatedHead = 0;
    } else if (queue.length - this.undeflatedHead > 2 * this.chunks.length + 1024) {
      const waiting = new Set<number>();
      for (let at = this.undeflatedHead; at < queue.length; at++) if (this.chunks[queue[at]]?.undeflated) waiting.add(queue[at]);
      this.undeflatedQueue = [...waiting];
      this.undeflatedHead = 0;
    }
  }

  /**
   * Deflates a chunk off this thread (on the thread pool in Node); once
   * deflated, its inflated bytes go to the ring (see keptInflated). A
   * snapshot does not wait for it where it can deflate on the spot (Node),
   * and does again one that failed.
   */
  private deflateLater(k: number, chunk: Chunk): void {
    chunk.deflating = deflate(chunk.inflated!).then(
      (deflated) => {
        chunk.deflating = undefined;
        // a snapshot may have deflated it meanwhile (and its inflated bytes may be gone since)
        if (chunk.deflated) return;
        chunk.deflated = deflated;
        if (this.chunks[k] === chunk) this.keptInflated(k);
      },
      () => { chunk.deflating = undefined; },
    );
  }

  private chunkOf(id: number): Chunk | undefined { return this.chunks[Math.floor(id / this.chunkRecords)]; }

  /** Whether the packed chunk of `id` holds bytes for it (removed records keep theirs until it is packed again). */
  private hasBytes(id: number): boolean {
    const chunk = this.chunkOf(id);
    if (!chunk) return false;
    const at = id % this.chunkRecords;
    return chunk.ends[at] !== (at === 0 ? 0 : chunk.ends[at - 1]);
  }

  /** How many bytes a chunk holds once inflated: where its last id's bytes end. */
  private inflatedSize(chunk: Chunk): number {
    return chunk.ends[this.chunkRecords - 1];
  }

  /** A chunk's inflated bytes, inflated now if need be (into a buffer of their known size) and not kept. */
  private bytesOf(chunk: Chunk): Uint8Array {
    return chunk.inflated ?? inflateNow(chunk.deflated!, this.inflatedSize(chunk));
  }

  /** The inflated bytes of chunk k (read again lately), inflated now if need be and kept in the ring. */
  private inflatedOf(k: number, chunk: Chunk): Uint8Array {
    if (chunk.inflated) return chunk.inflated;
    // inflated into reused memory, then copied into the ring: nothing allocated per chunk
    const bytes = inflateTransient(chunk.deflated!, this.inflatedSize(chunk));
    chunk.inflated = this.kept.keep(k, bytes);
    // the ring may have grown into the budget of the chunks waiting to deflate
    this.deflateOverBudget();
    return chunk.inflated ?? bytes;
  }

  /** Chunk k, deflated now, keeps its inflated bytes in the ring (Node) rather than in a buffer of its own. */
  private keptInflated(k: number): void {
    if (!syncZlib()) return; // reads cannot inflate: every chunk keeps its inflated bytes
    const chunk = this.chunks[k];
    if (chunk?.inflated && chunk.deflated) chunk.inflated = this.kept.keep(k, chunk.inflated);
  }
}

/** The idle packing of a store held weakly (see RecordStore.idlePacking). */
function idlePackingOf(store: WeakRef<RecordStore>): IdleWork {
  return new IdleWork(() => store.deref()?.packSlice() ?? false, PACK_QUIET_MS);
}

/** One array for every chunk packed (a new one per chunk costs more than writing it). */
const chunkWriter = new ByteWriter(1 << 18);
const utf8Decoder = new TextDecoder();

/** A record from its packed bytes (JSON text). */
function unpackRecord(bytes: Uint8Array): SearchRecord {
  return JSON.parse(utf8Decoder.decode(bytes)) as SearchRecord;
}

/** The bytes of the record at position `at` of a chunk. */
function bytesIn(ends: Uint32Array, at: number, inflated: Uint8Array): Uint8Array {
  return inflated.subarray(at === 0 ? 0 : ends[at - 1], ends[at]);
}

/** Chunk k's end offsets, relative to its start, from a snapshot's offsets over all chunks (ids past the last repeat its end). */
function chunkEnds(ends: Uint32Array, k: number, chunkRecords: number): Uint32Array {
  const first = k * chunkRecords;
  const start = first === 0 ? 0 : ends[first - 1];
  const relative = new Uint32Array(chunkRecords);
  let end = 0;
  for (let at = 0; at < chunkRecords; at++) {
    if (first + at < ends.length) end = ends[first + at] - start;
    relative[at] = end;
  }
  return relative;
}

/**
 * What a derived order or grouping has read of a store's changes: the
 * store it follows and how far it read. `take` answers the changes since
 * the last take, or undefined when they are not all known (another store,
 * or changes no longer kept): the reader then builds itself from every
 * record.
 */
export class ChangesRead {
  /** The store read last. */
  store: RecordStore | undefined;
  private seen = 0;

  /** The record ids `store` changed since the last take, or undefined (see above); either way, read up to now. */
  take(store: RecordStore): number[] | undefined {
    const changes = store === this.store ? store.changesSince(this.seen) : undefined;
    this.store = store;
    this.seen = store.changeCount;
    return changes;
  }
}
