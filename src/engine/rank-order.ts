// The order of an index's live records by a list of asc()/desc() entries
// (customRanking, a sort replica's ranking): the ranks the core compares,
// ties sharing a rank. It is kept across writes by folding in the record
// store's changes (a merge of the changed records into the order) instead of
// sorting every record again: the first search after a write paid for that
// sort (~25 ms at 20,000 records), again after every write.
import type { RecordStore } from './record-store.js';
import type { Record_ } from './records.js';
import { valuesAt } from './records.js';
import { compareValues, sortValue, type SortValue } from './sort-values.js';
import type { SortEntry } from './settings.js';

export class RankOrder {
  /** Live record ids, in order. */
  private order: number[] = [];
  /** Per record id: its values for the entries (undefined: no live record). */
  private keys: Array<SortValue[] | undefined> = [];
  private store: RecordStore | undefined;
  private seen = 0;

  constructor(private readonly entries: SortEntry[]) {}

  /** Per record id of `store`: its rank (0 for ids without a record). */
  ranks(store: RecordStore): Int32Array {
    const changed = store === this.store ? store.changesSince(this.seen) : undefined;
    if (changed === undefined) this.rebuild(store);
    else if (changed.length > 0) this.fold(store, changed);
    this.store = store;
    this.seen = store.changeCount;
    return this.assign(store.length);
  }

  private readonly compare = (a: number, b: number): number => {
    const ka = this.keys[a]!;
    const kb = this.keys[b]!;
    for (let i = 0; i < this.entries.length; i++) {
      const c = compareValues(ka[i], kb[i], this.entries[i].descending);
      if (c !== 0) return c;
    }
    return 0;
  };

  private keyOf(record: Record_): SortValue[] {
    return this.entries.map((e) => sortValue(valuesAt(record, e.path)));
  }

  private rebuild(store: RecordStore): void {
    this.keys = [];
    this.order = [];
    for (const [id, record] of store.entries()) {
      this.keys[id] = this.keyOf(record);
      this.order.push(id);
    }
    this.order.sort(this.compare);
  }

  /** Takes the changed ids out of the order and merges the live ones back in, sorted. */
  private fold(store: RecordStore, changed: number[]): void {
    const touched = new Uint8Array(store.length);
    const added: number[] = [];
    for (const id of changed) {
      if (touched[id]) continue;
      touched[id] = 1;
      const record = store.get(id);
      this.keys[id] = record ? this.keyOf(record) : undefined;
      if (record) added.push(id);
    }
    added.sort(this.compare);
    const order = this.order;
    const merged = new Array<number>(order.length + added.length);
    let n = 0;
    let a = 0;
    for (let i = 0; i < order.length; i++) {
      const id = order[i];
      if (touched[id]) continue;
      while (a < added.length && this.compare(added[a], id) < 0) merged[n++] = added[a++];
      merged[n++] = id;
    }
    while (a < added.length) merged[n++] = added[a++];
    merged.length = n;
    this.order = merged;
  }

  private assign(capacity: number): Int32Array {
    const ranks = new Int32Array(capacity);
    let rank = 0;
    for (let i = 0; i < this.order.length; i++) {
      if (i > 0 && this.compare(this.order[i - 1], this.order[i]) !== 0) rank = i;
      ranks[this.order[i]] = rank;
    }
    return ranks;
  }
}
