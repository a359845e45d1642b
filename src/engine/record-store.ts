// The records of an index by record id. Records read from a snapshot stay
// packed (MessagePack, one record each, deflated in chunks of record ids:
// repeated keys cost little) until first asked for, so reopening a large
// index costs no parsing, and where inflating can be synchronous (Node) the
// first search inflates the chunks of its hits only; new records are kept as
// objects. Every record's objectID is also kept in a dense list, so finding
// a record id by objectID (a table over that list) and answering a hit by its
// objectID alone never read the record itself.
import { Encoder } from '@msgpack/msgpack';
import { decode } from './msgpack.js';
import { deflate, inflate, syncInflater } from './compression.js';
import { ObjectIdTable } from './object-id-table.js';
import { ByteWriter } from './bytes.js';
import type { Record_ } from './records.js';
import { yieldTurn } from './tasks.js';

/** Changes kept for readers that fold them in (see changesSince). */
const CHANGES_KEPT = 1 << 16;

/** Record ids per deflated chunk: ~200 KB of the synthetic benchmark's records, inflated in well under a millisecond (a first page of hits may need ten). */
const CHUNK_RECORDS = 512;

/** Record ids unpacked between turns of the event loop. */
const UNPACK_SLICE = 1 << 16;

/** The records as a snapshot holds them: packed records, deflated in chunks. */
export interface PackedRecords {
  /** objectID per record id ('' where there is no record). */
  objectIDs: string[];
  /** End offset of each record's bytes in the inflated chunks end to end (a Uint32Array's bytes, little endian); no bytes = no record. */
  ends: Uint8Array;
  /** The deflated chunks: chunk k holds the records of ids [k * chunkRecords, (k + 1) * chunkRecords). */
  chunks?: Uint8Array[];
  chunkRecords?: number;
  /** Older snapshots: every record in one deflated blob. */
  blob?: Uint8Array;
}

export class RecordStore {
  /** Per record id: the record, null once removed, undefined while still packed. */
  private objects: Array<Record_ | null | undefined> = [];
  /** Per chunk of packed records: its bytes, inflated on first read where inflating is synchronous. */
  private chunks: Array<{ bytes: Uint8Array; inflated: boolean }> = [];
  private chunkRecords = CHUNK_RECORDS;
  private inflateNow: ((bytes: Uint8Array) => Uint8Array) | undefined;
  private ends: Uint32Array | undefined;
  /** objectID per record id ('' once removed, and for ids a snapshot holds no record at). */
  private objectIDs: string[] = [];
  private readonly ids = new ObjectIdTable((id) => this.objectIDOf(id));
  /** Record ids pushed or removed, oldest first, after the `changesDropped` oldest ones. */
  private changes: number[] = [];
  private changesDropped = 0;

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
    return record !== undefined || this.isPacked(id) ? this.objectIDs[id] : undefined;
  }

  /** Whether a record read from a snapshot has bytes at `id` (an objectID may be ''). */
  private isPacked(id: number): boolean {
    const ends = this.ends;
    return ends !== undefined && id < ends.length && ends[id] !== this.packedStart(id);
  }

  /** Where the bytes of the packed record `id` start in the inflated blob (they end at ends[id]). */
  private packedStart(id: number): number { return id === 0 ? 0 : this.ends![id - 1]; }

  get(id: number): Record_ | undefined {
    const record = this.objects[id];
    if (record !== undefined) return record ?? undefined;
    if (!this.isPacked(id)) return undefined;
    const k = Math.floor(id / this.chunkRecords);
    const chunk = this.chunks[k];
    if (!chunk.inflated) {
      chunk.bytes = this.inflateNow!(chunk.bytes);
      chunk.inflated = true;
    }
    const unpacked = this.decodePacked(id, chunk.bytes);
    this.objects[id] = unpacked;
    return unpacked;
  }

  /** The packed record `id`, decoded from its chunk's inflated bytes. */
  private decodePacked(id: number, inflated: Uint8Array): Record_ {
    const chunkStart = this.packedStart(Math.floor(id / this.chunkRecords) * this.chunkRecords);
    return decode(inflated.subarray(this.packedStart(id) - chunkStart, this.ends![id] - chunkStart)) as Record_;
  }

  /**
   * Decodes every packed record once, keeping none of them (a snapshot's
   * proof: a restart must be able to read each one, and keeping them would
   * grow the heap by the whole store); `pause` runs between chunks.
   */
  async readEachPacked(pause: () => Promise<void>): Promise<void> {
    for (const [k, chunk] of this.chunks.entries()) {
      const inflated = chunk.inflated ? chunk.bytes : this.inflateNow!(chunk.bytes);
      const first = k * this.chunkRecords;
      for (let id = first; id < Math.min(first + this.chunkRecords, this.objects.length); id++) {
        if (this.objects[id] === undefined && this.isPacked(id)) this.decodePacked(id, inflated);
      }
      await pause();
    }
  }

  /** Adds a record whose objectID is not in the store; returns its record id. */
  push(record: Record_): number {
    const id = this.objects.push(record) - 1;
    this.objectIDs[id] = record.objectID;
    this.ids.add(record.objectID, id);
    this.changed(id);
    return id;
  }

  /** Removes the record of an objectID; returns the record id it had. */
  remove(objectID: string): number | undefined {
    const id = this.ids.delete(objectID);
    if (id === undefined) return undefined;
    this.objects[id] = null;
    this.objectIDs[id] = '';
    this.changed(id);
    return id;
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
    this.changes.push(id);
    // a reader that many changes behind rebuilds at about the same cost as folding them in
    if (this.changes.length > CHANGES_KEPT) {
      const dropped = this.changes.length >> 1;
      this.changes = this.changes.slice(dropped);
      this.changesDropped += dropped;
    }
  }

  *entries(): Iterable<[number, Record_]> {
    for (let id = 0; id < this.objects.length; id++) {
      const r = this.get(id);
      if (r) yield [id, r];
    }
  }

  /**
   * The records as a snapshot holds them. A chunk at a time, with a turn of
   * the event loop between chunks: searches are answered while a large store
   * is packed (nothing writes meanwhile: a snapshot is captured between tasks).
   */
  async pack(): Promise<PackedRecords> {
    // one encoder, and one array for a chunk's records (deflated, then reused): a new encoder, or a new
    // array, per record cost more than encoding it
    const encoder = new Encoder();
    const chunk = new ByteWriter(1 << 18);
    const chunks: Uint8Array[] = [];
    const objectIDs: string[] = [];
    const ends = new Uint32Array(this.objects.length);
    let size = 0;
    for (let first = 0; first < this.objects.length; first += CHUNK_RECORDS) {
      chunk.clear();
      for (let id = first; id < Math.min(first + CHUNK_RECORDS, this.objects.length); id++) {
        const r = this.get(id);
        if (r) {
          const bytes = encoder.encodeSharedRef(r);
          chunk.append(bytes);
          size += bytes.length;
        }
        objectIDs.push(r ? r.objectID : '');
        ends[id] = size;
      }
      chunks.push(await deflate(chunk.view()));
      await yieldTurn();
    }
    return { objectIDs, ends: new Uint8Array(ends.buffer), chunks, chunkRecords: CHUNK_RECORDS };
  }

  static async unpack(packed: PackedRecords): Promise<RecordStore> {
    const store = new RecordStore();
    store.objects = new Array(packed.objectIDs.length);
    store.objectIDs = packed.objectIDs;
    store.ends = new Uint32Array(packed.ends.slice().buffer);
    if (store.ends.length !== packed.objectIDs.length) throw new Error('snapshot records: one end offset per record id expected');
    // a turn of the event loop now and then: a million records are read between searches
    store.ids.reserve(packed.objectIDs.length);
    for (let id = 0; id < packed.objectIDs.length; id++) {
      if (store.isPacked(id)) store.ids.add(packed.objectIDs[id], id);
      if (id % UNPACK_SLICE === UNPACK_SLICE - 1) await yieldTurn();
    }
    // an older snapshot's one blob is one chunk of every record; the chunks are
    // copied: MessagePack gives views of the snapshot, which an unread chunk kept whole
    // (into one buffer for all of them: thousands of arrays of their own weigh on the collector)
    const views = packed.chunks ?? (packed.blob ? [packed.blob] : []);
    const all = new Uint8Array(views.reduce((n, chunk) => n + chunk.length, 0));
    const deflated: Uint8Array[] = [];
    let at = 0;
    for (const chunk of views) {
      all.set(chunk, at);
      deflated.push(all.subarray(at, at += chunk.length));
      if (deflated.length % (UNPACK_SLICE / CHUNK_RECORDS) === 0) await yieldTurn();
    }
    store.chunkRecords = packed.chunks ? packed.chunkRecords ?? CHUNK_RECORDS : Math.max(1, packed.objectIDs.length);
    if (!Number.isInteger(store.chunkRecords) || store.chunkRecords < 1 || deflated.length < Math.ceil(packed.objectIDs.length / store.chunkRecords)) {
      throw new Error('snapshot records: chunks do not cover the record ids');
    }
    store.inflateNow = await syncInflater();
    const inflated = store.inflateNow ? deflated : await Promise.all(deflated.map(inflate));
    store.chunks = inflated.map((bytes) => ({ bytes, inflated: !store.inflateNow }));
    return store;
  }
}
