// Values noted per record id as records are saved (the record at hand), for
// an order or grouping to read instead of decoding the record when it next
// folds the store's changes in. A note is dropped once read; one never read
// (the order of a replica no one searches) would stay for good, so the notes
// of records no longer live are let go whenever they outnumber the store's
// live records: notes stay within twice those, at an amortized constant cost.
//
// The notes are an array from the lowest id noted on: ids are given in
// order, so notes are appended, and noting 100k records in a Map (hashing
// each id, growing its table again and again) took ~2% of an import. Once
// every note is read, the array is let go.
import type { RecordStore } from './record-store.js';

/** Notes beyond twice the live records (and this many) are trimmed. */
const SLACK = 1024;

/** What the array holds for a note of undefined (a record in no group): a hole, or undefined, is no note. */
const NOTED_UNDEFINED = Symbol('noted undefined');

export class NotedValues<T> {
  /** The note of record id `first + i` at i. */
  private notes: Array<T | typeof NOTED_UNDEFINED | undefined> = [];
  private first = 0;
  private count = 0;

  /** Notes `value` for record `id` of `store` (replacing an earlier note: an id is reissued after a clear). */
  set(store: RecordStore, id: number, value: T): void {
    if (this.count === 0) {
      this.notes = [];
      this.first = id;
    } else if (id < this.first) {
      this.notes = [...new Array<undefined>(this.first - id), ...this.notes];
      this.first = id;
    }
    const at = id - this.first;
    if (this.notes[at] === undefined) this.count++;
    this.notes[at] = value === undefined ? NOTED_UNDEFINED : value;
    if (this.count > 2 * store.size + SLACK) this.trim(store);
  }

  get(id: number): T | undefined {
    const note = this.noteOf(id);
    return note === NOTED_UNDEFINED ? undefined : note;
  }

  has(id: number): boolean { return this.noteOf(id) !== undefined; }

  delete(id: number): void {
    if (this.noteOf(id) === undefined) return;
    this.notes[id - this.first] = undefined;
    if (--this.count === 0) this.notes = [];
  }

  clear(): void {
    this.notes = [];
    this.count = 0;
  }

  get size(): number { return this.count; }

  private noteOf(id: number): T | typeof NOTED_UNDEFINED | undefined {
    return id >= this.first ? this.notes[id - this.first] : undefined;
  }

  /** Lets go of the notes of records no longer live. */
  private trim(store: RecordStore): void {
    for (let at = 0; at < this.notes.length; at++) {
      const id = this.first + at;
      if (this.notes[at] !== undefined && store.objectIDOf(id) === undefined) this.delete(id);
    }
  }
}
