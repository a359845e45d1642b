// The order of an index's live records by a list of asc()/desc() entries
// (customRanking, a sort replica's ranking): the ranks the core compares,
// ties sharing a rank. It is kept across writes by folding in the record
// store's changes (removed records out, new ones placed by binary search)
// instead of sorting every record again: the first search after a write paid
// for that sort (~25 ms at 20,000 records), again after every write.
import type { RecordStore } from './record-store.js';
import type { SearchRecord } from './records.js';
import { valuesAt } from './records.js';
import { compareValues, sortValue, type SortValue } from './sort-values.js';
import type { SortEntry } from './settings.js';

/** Sorts ids by 64-bit keys (high, then low, unsigned; stable): the ids in order, and per position whether it ties with the one before. */
export type KeySorter = (ids: Int32Array, high: Int32Array, low: Int32Array) => { order: Int32Array; tied: Uint8Array };

export class RankOrder {
  /** Live record ids, in order. */
  private order: Int32Array = new Int32Array(0);
  /** Per position of `order`: 1 when its record ties with the one before (so shares its rank). */
  private tied: Uint8Array = new Uint8Array(0);
  /** Per record id: its values for the entries (undefined: not in the order). */
  private keys: Array<SortValue[] | undefined> = [];
  /** Values noted as records were saved, for ids not yet in the order (see note). */
  private noted: Array<SortValue[] | undefined> = [];
  private store: RecordStore | undefined;
  private seen = 0;

  /** `sortByKeys` sorts ids by 64-bit keys (the core's, compiled: see assembly/radix-sort.ts). */
  constructor(private readonly entries: SortEntry[], private readonly sortByKeys: KeySorter) {}

  /**
   * Notes a record's values for the entries as it is saved (the record at
   * hand): orders rebuilt or folded later read them instead of decoding the
   * record. An id's note is replaced whenever a record takes the id (after
   * a clear, ids start over), so a noted value never goes stale.
   */
  note(id: number, record: SearchRecord): void {
    this.noted[id] = this.keyOf(record);
  }

  /** A live record's values: noted as it was saved, else read from the record. */
  private valuesOf(store: RecordStore, id: number): SortValue[] {
    return this.noted[id] ?? this.keyOf(store.get(id)!);
  }

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

  private keyOf(record: SearchRecord): SortValue[] {
    return this.entries.map((e) => sortValue(valuesAt(record, e.path)));
  }

  /** Sorts every live record: by its noted values, or those of the record decoded where none were noted. */
  private rebuild(store: RecordStore): void {
    this.keys = [];
    const ids: number[] = [];
    for (const id of store.liveIds()) {
      this.keys[id] = this.valuesOf(store, id);
      ids.push(id);
    }
    this.noted = [];
    const sorted = this.radixSorted(ids);
    if (sorted) {
      [this.order, this.tied] = sorted;
      return;
    }
    const order = Int32Array.from(ids).sort(this.compare);
    this.order = order;
    this.tied = new Uint8Array(order.length);
    for (let i = 1; i < order.length; i++) this.tied[i] = this.compare(order[i - 1], order[i]) === 0 ? 1 : 0;
  }

  /**
   * `ids` sorted by one numeric entry, with their tie flags: each value's
   * bits made sortable as unsigned 64-bit keys, sorted by the core's radix
   * sort (stable, as the comparison sort is). Undefined when the order has
   * several entries or a value that is not a number. It runs at the first
   * search after an import or a restart: a comparison sort took seconds
   * there at a million records.
   */
  private radixSorted(ids: number[]): [Int32Array, Uint8Array] | undefined {
    if (this.entries.length !== 1) return undefined;
    const descending = this.entries[0].descending;
    const n = ids.length;
    const value = new Float64Array(1);
    // the bits as int32: bit operations on them stay small integers, where uint32s above 2^31 would be
    // boxed numbers in code not yet optimized (an order is often sorted once, before optimizing pays)
    const bits = new Int32Array(value.buffer);
    const high = new Int32Array(n);
    const low = new Int32Array(n);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      order[i] = ids[i];
      const v = this.keys[ids[i]]![0];
      if (v === undefined) { high[i] = -1; low[i] = -1; continue; } // all ones: last, both directions
      if (typeof v !== 'number') return undefined;
      value[0] = v === 0 ? 0 : v; // -0 sorts with 0
      let h = bits[1];
      let l = bits[0];
      if (h < 0) { h = ~h; l = ~l; } else h |= 0x80000000;
      if (descending) { h = ~h; l = ~l; }
      if (h === -1 && l === -1) l = -2; // the largest key is kept for missing values
      high[i] = h;
      low[i] = l;
    }
    const sorted = this.sortByKeys(order, high, low);
    return [sorted.order, sorted.tied];
  }

  /**
   * Takes the removed records out of the order and puts the new ones in,
   * each where a binary search of the order places it: k log n comparisons
   * for k changes, one pass over typed arrays to merge (it runs at the first
   * search after every write), and ties recomputed only where the order changed.
   */
  private fold(store: RecordStore, changed: number[]): void {
    const gone = new Uint8Array(store.length);
    const fresh: number[] = [];
    let removed = 0;
    for (const id of new Set(changed)) {
      // a removed record keeps its key until the merge: the binary searches read the order as it was
      if (store.objectIDOf(id) !== undefined) { this.keys[id] = this.valuesOf(store, id); fresh.push(id); } else if (this.keys[id] !== undefined) { gone[id] = 1; removed++; }
      this.noted[id] = undefined;
    }
    fresh.sort(this.compare);
    const { order, tied } = this;
    const at = fresh.map((id) => this.after(id));
    const merged = new Int32Array(order.length - removed + fresh.length);
    const mergedTied = new Uint8Array(merged.length);
    let m = 0;
    let f = 0;
    /** Whether the last record merged was the one at position i - 1 of the order (so its tie flag holds). */
    let lastKept = -2;
    for (let i = 0; i <= order.length; i++) {
      for (; f < fresh.length && at[f] === i; f++, lastKept = -2, m++) {
        merged[m] = fresh[f];
        mergedTied[m] = m > 0 && this.compare(merged[m - 1], fresh[f]) === 0 ? 1 : 0;
      }
      if (i === order.length) break;
      const id = order[i];
      if (gone[id]) continue;
      merged[m] = id;
      mergedTied[m] = lastKept === i - 1 ? tied[i] : m > 0 && this.compare(merged[m - 1], id) === 0 ? 1 : 0;
      lastKept = i;
      m++;
    }
    for (const id of changed) if (gone[id]) this.keys[id] = undefined;
    if (m !== merged.length) return this.rebuild(store); // never expected: an order that lost track is rebuilt, not trusted
    this.order = merged;
    this.tied = mergedTied;
  }

  /** Position in the order after every record that sorts before `id` or ties with it. */
  private after(id: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.order[mid], id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private assign(capacity: number): Int32Array {
    const ranks = new Int32Array(capacity);
    let rank = 0;
    for (let i = 0; i < this.order.length; i++) {
      if (!this.tied[i]) rank = i;
      ranks[this.order[i]] = rank;
    }
    return ranks;
  }
}
