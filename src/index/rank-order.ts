// The order of an index's live records by a list of asc()/desc() entries
// (customRanking, a sort replica's ranking), kept across writes with the
// labels the core compares for it (see labelled-order.ts). Dense ranks
// (ties sharing the first position: _rankingInfo.userScore) are read from
// the order when asked.
import { NotedValues } from './noted-values.js';
import type { RecordStore } from './record-store.js';
import type { SearchRecord } from './records.js';
import { valuesAt } from './records.js';
import { compareValues, sortValue, type SortValue } from './sort-values.js';
import type { SortEntry } from './settings.js';
import { LabelledOrder, grown, type KeySorter, type SortedIds } from './labelled-order.js';
import { putSortableKeys } from './number-keys.js';

export type { KeySorter } from './labelled-order.js';

export class RankOrder extends LabelledOrder {
  /** Per record id: its values for the entries (undefined: not in the order). */
  private keys: Array<SortValue[] | undefined> = [];
  /**
   * Values noted as records were saved, for ids not yet in the order (see
   * note): a Map, as the ids noted lie past every id of an array emptied by
   * the last rebuild, which made it a slow dictionary (a third of a fold);
   * trimmed to the live records (an order no search asks for is never folded).
   */
  private readonly noted = new NotedValues<SortValue[]>();

  /** `sortByKeys` sorts ids by 64-bit keys (the core's, compiled: see assembly/radix-sort.ts). */
  constructor(private readonly entries: SortEntry[], private readonly sortByKeys: KeySorter) {
    super();
  }

  /**
   * Notes a record's values for the entries as it is saved into `store` (the record at
   * hand): orders rebuilt or folded later read them instead of decoding the
   * record. An id's note is replaced whenever a record takes the id (after
   * a clear, ids start over), so a noted value never goes stale.
   */
  note(store: RecordStore, id: number, record: SearchRecord): void {
    this.noted.set(store, id, this.keyOf(record));
  }

  /** A live record's values: noted as it was saved, else read from the record. */
  private valuesOf(store: RecordStore, id: number): SortValue[] {
    return this.noted.get(id) ?? this.keyOf(store.get(id)!);
  }

  /** A live record's dense rank: how many records sort strictly before it (ties share the first position). */
  rankOf(store: RecordStore, id: number): number {
    this.update(store);
    const { labels } = this;
    const label = labels[id];
    return this.firstNotBefore((other) => labels[other] < label);
  }

  /**
   * Per record id in the order: its first value as a number that sorts the
   * way the order does (negated when descending, Infinity when missing;
   * NaN when it is not a number), so most comparisons of a fold's binary
   * searches read two numbers instead of two records' value lists.
   */
  private leading = new Float64Array(0);

  protected compare(a: number, b: number): number {
    const x = this.leading[a];
    const y = this.leading[b];
    if (x < y) return -1;
    if (x > y) return 1;
    return this.compareValuesOf(a, b);
  }

  private compareValuesOf(a: number, b: number): number {
    const ka = this.keys[a]!;
    const kb = this.keys[b]!;
    for (let i = 0; i < this.entries.length; i++) {
      const c = compareValues(ka[i], kb[i], this.entries[i].descending);
      if (c !== 0) return c;
    }
    return 0;
  }

  protected placeKey(store: RecordStore, id: number): void {
    this.place(id, this.valuesOf(store, id));
    this.noted.delete(id);
  }

  protected forgetKey(id: number): void {
    this.keys[id] = undefined;
    this.noted.delete(id);
  }

  /** Notes a record's values for the binary searches (see `leading`). */
  private place(id: number, values: SortValue[]): void {
    this.keys[id] = values;
    if (id >= this.leading.length) this.leading = grown(this.leading, Math.max(id + 1, Math.ceil(this.leading.length * 1.25)));
    const v = values[0];
    this.leading[id] = v === undefined ? Infinity : typeof v !== 'number' ? NaN : this.entries[0].descending ? -v : v;
  }

  private keyOf(record: SearchRecord): SortValue[] {
    return this.entries.map((e) => sortValue(valuesAt(record, e.path)));
  }

  /** Sorts every live record: by its noted values, or those of the record decoded where none were noted. */
  protected sortAll(store: RecordStore, ids: number[]): SortedIds {
    this.keys = [];
    for (const id of ids) this.place(id, this.valuesOf(store, id));
    this.noted.clear();
    return this.sortPlaced(ids);
  }

  /** Sorts live records by the values placed: a radix sort where it can, else by comparison. */
  protected sortPlaced(ids: number[]): SortedIds {
    const sorted = this.radixSorted(ids);
    if (sorted) return sorted;
    const order = Int32Array.from(ids).sort(this.compareThenId);
    return { order, tied: this.tiesOf(order) };
  }

  /**
   * `ids` sorted by one numeric entry, with their tie flags: each value's
   * bits made sortable as unsigned 64-bit keys, sorted by the core's radix
   * sort (stable, as the comparison sort is). Undefined when the order has
   * several entries or a value that is not a number. It runs at the first
   * search after an import or a restart: a comparison sort took seconds
   * there at a million records.
   */
  private radixSorted(ids: number[]): SortedIds | undefined {
    if (this.entries.length !== 1) return undefined;
    const descending = this.entries[0].descending;
    const n = ids.length;
    const values = new Float64Array(n);
    const missing = new Uint8Array(n);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      order[i] = ids[i];
      const v = this.keys[ids[i]]![0];
      if (typeof v === 'number') values[i] = v;
      else if (v === undefined) missing[i] = 1;
      else return undefined;
    }
    const high = new Int32Array(n);
    const low = new Int32Array(n);
    putSortableKeys(values, n, descending, high, low);
    for (let i = 0; i < n; i++) {
      // all ones, the largest key, is kept for missing values: last, both directions
      if (missing[i] === 1) { high[i] = -1; low[i] = -1; } else if (high[i] === -1 && low[i] === -1) low[i] = -2;
    }
    return this.sortByKeys(order, high, low);
  }
}
