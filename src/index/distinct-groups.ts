// The groups of attributeForDistinct: per record id, a number its records
// share (the first value of the attribute; -1 without one, a group of its
// own), which the core's distinct counts by. Kept across writes by reading
// only the records the store changed since: computed whole per write, the
// groups decoded every record of the index and of each replica that has
// distinct (2 s a write at 20,000 TED records and 12 replicas, while
// searches arrived). Group numbers are dense (the core keeps per-group
// state indexed by them): one per value seen since the last rebuild.
import { NotedValues } from './noted-values.js';
import type { RankLabels } from '../core/core-index.js';
import { ChangesRead, type RecordStore } from './record-store.js';
import { valuesAt, type SearchRecord } from './records.js';

/** The label of a record without a distinct value (or of an id without a record). */
const NO_GROUP = -1;

export class DistinctGroups implements RankLabels {
  labels: Int32Array = new Int32Array(0);
  generation = 0;
  changed: number[] = [];
  /** Group number per distinct value (as a string key), since the last rebuild. */
  private readonly groupOfKey = new Map<string, number>();
  /**
   * Keys noted as records were saved into `notedStore`, for ids not grouped
   * yet: a rebuild or fold reads them instead of decoding the records (a
   * first search after an import decoded every record of each index).
   */
  private readonly noted = new NotedValues<string | undefined>();
  private notedStore: RecordStore | undefined;
  /** How far the groups have read their store's changes. */
  private readonly read = new ChangesRead();

  constructor(private readonly path: string[]) {}

  /**
   * Notes the key of a record as it is saved into `store` as `id` (the
   * record at hand). Notes are kept for one store: a record store replaced
   * (a clear, an index rebuilt for new settings) issues its ids anew.
   */
  note(store: RecordStore, id: number, record: SearchRecord): void {
    if (store !== this.notedStore) {
      this.noted.clear();
      this.notedStore = store;
    }
    this.noted.set(store, id, this.keyOf(record));
  }

  /** The groups of `store`'s records as they are now (the store's changes since the last update read in). */
  update(store: RecordStore): RankLabels {
    const changes = this.read.take(store);
    if (changes === undefined) this.rebuild(store);
    else if (changes.length > 0) this.fold(store, changes);
    this.noted.clear();
    return this;
  }

  /** Groups every live record; a new generation (readers copy every label). */
  private rebuild(store: RecordStore): void {
    this.groupOfKey.clear();
    this.labels = new Int32Array(store.length).fill(NO_GROUP);
    for (const id of store.liveIds()) this.labels[id] = this.groupOf(this.keyAt(store, id));
    this.generation++;
    this.changed = [];
  }

  /**
   * Groups the records changed (every id issued since is among them, so no
   * id is left without a label): removed ones lose their group.
   */
  private fold(store: RecordStore, changes: number[]): void {
    if (this.labels.length < store.length) {
      const longer = new Int32Array(Math.ceil(store.length * 1.25)).fill(NO_GROUP);
      longer.set(this.labels);
      this.labels = longer;
    }
    for (const id of new Set(changes)) {
      this.labels[id] = store.objectIDOf(id) === undefined ? NO_GROUP : this.groupOf(this.keyAt(store, id));
      this.changed.push(id);
    }
    // readers this far behind copy every label rather than the list of changes, which need not grow any longer
    if (this.changed.length > store.size / 4) {
      this.generation++;
      this.changed = [];
    }
  }

  /** A live record's key: noted as it was saved, else read from the record. */
  private keyAt(store: RecordStore, id: number): string | undefined {
    if (store === this.notedStore && this.noted.has(id)) return this.noted.get(id);
    return this.keyOf(store.get(id)!);
  }

  /**
   * A record's distinct key: its first value at the path. Numbers are
   * rounded to the nearest integer and compared as strings (1.4, 1 and "1"
   * are one group); a missing value, null or a boolean makes no group.
   */
  private keyOf(record: SearchRecord): string | undefined {
    const value = valuesAt(record, this.path).flat(Infinity as 1)[0];
    if (value === undefined || value === null || typeof value === 'boolean') return undefined;
    return typeof value === 'number' ? String(Math.round(value)) : typeof value === 'string' ? value : JSON.stringify(value);
  }

  /** The group of a key (a new one for a key not seen since the last rebuild); none without a key. */
  private groupOf(key: string | undefined): number {
    if (key === undefined) return NO_GROUP;
    let group = this.groupOfKey.get(key);
    if (group === undefined) {
      group = this.groupOfKey.size;
      this.groupOfKey.set(key, group);
    }
    return group;
  }
}
