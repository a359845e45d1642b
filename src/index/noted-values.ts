// Values noted per record id as records are saved (the record at hand), for
// an order or grouping to read instead of decoding the record when it next
// folds the store's changes in. A note is dropped once read; one never read
// (the order of a replica no one searches) would stay for good, so the notes
// of records no longer live are let go whenever they outnumber the store's
// live records: notes stay within twice those, at an amortized constant cost.
import type { RecordStore } from './record-store.js';

/** Notes beyond twice the live records (and this many) are trimmed. */
const SLACK = 1024;

export class NotedValues<T> {
  private readonly values = new Map<number, T>();

  /** Notes `value` for record `id` of `store` (replacing an earlier note: an id is reissued after a clear). */
  set(store: RecordStore, id: number, value: T): void {
    this.values.set(id, value);
    if (this.values.size > 2 * store.size + SLACK) this.trim(store);
  }

  get(id: number): T | undefined { return this.values.get(id); }
  has(id: number): boolean { return this.values.has(id); }
  delete(id: number): void { this.values.delete(id); }
  clear(): void { this.values.clear(); }
  get size(): number { return this.values.size; }

  /** Lets go of the notes of records no longer live. */
  private trim(store: RecordStore): void {
    for (const id of this.values.keys()) if (store.objectIDOf(id) === undefined) this.values.delete(id);
  }
}
