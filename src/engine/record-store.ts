// The records of an index by record id. Records read from a snapshot stay
// packed (MessagePack, one record each, the whole blob deflated: repeated
// keys cost little) until first asked for, so reopening a large index costs
// no parsing; new records are kept as objects. Record ids are found by
// objectID through a table over the objectIDs the store holds.
import { decode, encode } from '@msgpack/msgpack';
import { deflate, inflate, syncInflater } from './compression.js';
import { ObjectIdTable } from './object-id-table.js';
import type { Record_ } from './records.js';

/** The records as a snapshot holds them: one deflated blob of packed records. */
export interface PackedRecords {
  /** objectID per record id ('' where there is no record). */
  objectIDs: string[];
  /** End offset of each record's bytes in the inflated blob (a Uint32Array's bytes, little endian); no bytes = no record. */
  ends: Uint8Array;
  blob: Uint8Array;
}

export class RecordStore {
  /** Per record id: the record, null once removed, undefined while still packed. */
  private objects: Array<Record_ | null | undefined> = [];
  private packed: Uint8Array | undefined;
  /** Where inflating can wait for the first read (Node), the blob and how to inflate it. */
  private deflated: { blob: Uint8Array; inflate: (bytes: Uint8Array) => Uint8Array } | undefined;
  private ends: Uint32Array | undefined;
  /** objectID per record id of the records read from a snapshot. */
  private packedObjectIDs: string[] | undefined;
  private readonly ids = new ObjectIdTable((id) => this.objectIDOf(id));

  /** Record ids issued so far, live or not. */
  get length(): number { return this.objects.length; }
  /** Live records. */
  get size(): number { return this.ids.size; }

  /** Record id of a live record's objectID. */
  idOf(objectID: string): number | undefined { return this.ids.get(objectID); }

  private objectIDOf(id: number): string | undefined {
    const record = this.objects[id];
    if (record !== undefined) return record?.objectID;
    return this.isPacked(id) ? this.packedObjectIDs![id] : undefined;
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
    if (this.deflated) {
      this.packed = this.deflated.inflate(this.deflated.blob);
      this.deflated = undefined;
    }
    const unpacked = decode(this.packed!.subarray(this.packedStart(id), this.ends![id])) as Record_;
    this.objects[id] = unpacked;
    return unpacked;
  }

  /** Adds a record whose objectID is not in the store; returns its record id. */
  push(record: Record_): number {
    const id = this.objects.push(record) - 1;
    this.ids.add(record.objectID, id);
    return id;
  }

  /** Removes the record of an objectID; returns the record id it had. */
  remove(objectID: string): number | undefined {
    const id = this.ids.delete(objectID);
    if (id === undefined) return undefined;
    this.objects[id] = null;
    if (this.packedObjectIDs) this.packedObjectIDs[id] = '';
    return id;
  }

  *entries(): Iterable<[number, Record_]> {
    for (let id = 0; id < this.objects.length; id++) {
      const r = this.get(id);
      if (r) yield [id, r];
    }
  }

  async pack(): Promise<PackedRecords> {
    const parts: Uint8Array[] = [];
    const objectIDs: string[] = [];
    const ends = new Uint32Array(this.objects.length);
    let size = 0;
    for (let id = 0; id < this.objects.length; id++) {
      const r = this.get(id);
      if (r) {
        const bytes = encode(r);
        parts.push(bytes);
        size += bytes.length;
      }
      objectIDs.push(r ? r.objectID : '');
      ends[id] = size;
    }
    const whole = new Uint8Array(size);
    let at = 0;
    for (const p of parts) { whole.set(p, at); at += p.length; }
    return { objectIDs, ends: new Uint8Array(ends.buffer), blob: await deflate(whole) };
  }

  static async unpack(packed: PackedRecords): Promise<RecordStore> {
    const store = new RecordStore();
    store.objects = new Array(packed.objectIDs.length);
    store.packedObjectIDs = packed.objectIDs;
    store.ends = new Uint32Array(packed.ends.slice().buffer);
    packed.objectIDs.forEach((objectID, id) => { if (store.isPacked(id)) store.ids.add(objectID, id); });
    const inflateNow = await syncInflater();
    if (inflateNow) store.deflated = { blob: packed.blob, inflate: inflateNow };
    else store.packed = await inflate(packed.blob);
    return store;
  }
}
