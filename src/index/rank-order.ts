// The order of an index's live records by a list of asc()/desc() entries
// (customRanking, a sort replica's ranking), and the labels the core compares
// for it: per record id a number that orders records as the entries do, ties
// sharing one. It is kept across writes by folding in the record store's
// changes (removed records out, new ones placed by binary search) instead of
// sorting every record again: the first search after a write paid for that
// sort (~25 ms at 20,000 records), again after every write.
//
// Labels leave gaps: a new record takes a label between its neighbours', so
// a write changes the labels of its own records only, and the core copies
// those (CoreIndex.syncRanks) instead of an array over every record. Dense
// ranks (ties sharing the first position: _rankingInfo.userScore) are read
// from the order when asked. When a gap runs out, every label is given anew
// (a new generation, which readers copy whole).
import type { RankLabels } from '../core/core-index.js';
import type { RecordStore } from './record-store.js';
import type { SearchRecord } from './records.js';
import { valuesAt } from './records.js';
import { compareValues, sortValue, type SortValue } from './sort-values.js';
import type { SortEntry } from './settings.js';

/** Sorts ids by 64-bit keys (high, then low, unsigned; stable): the ids in order, and per position whether it ties with the one before. */
export type KeySorter = (ids: Int32Array, high: Int32Array, low: Int32Array) => { order: Int32Array; tied: Uint8Array };

/** Labels lie in [1, LABEL_LIMIT): the core compares them as unsigned 32-bit keys, 0 is a record id without a record. */
const LABEL_LIMIT = 2 ** 31;

/** Where the first label of a generation goes: a quarter of the range is left below it, and about as much above the last. */
const FIRST_LABEL = LABEL_LIMIT / 4;

export class RankOrder implements RankLabels {
  /** Live record ids, in order. */
  private order: Int32Array = new Int32Array(0);
  labels: Int32Array = new Int32Array(0);
  generation = 0;
  changed: number[] = [];
  /** Distance between two labels given out by the last relabelling: a record placed before the first or after the last takes one such step. */
  private step = 1;
  /** Per record id: its values for the entries (undefined: not in the order). */
  private keys: Array<SortValue[] | undefined> = [];
  /** Values noted as records were saved, for ids not yet in the order (see note). */
  private noted: Array<SortValue[] | undefined> = [];
  /** Per record id: 1 while a fold takes it out of the order (kept between folds, cleared after each). */
  private removing: Uint8Array = new Uint8Array(0);
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

  /** The labels of `store`'s records as they are now (this order, with the store's changes folded in). */
  update(store: RecordStore): RankLabels {
    const changes = store === this.store ? store.changesSince(this.seen) : undefined;
    if (changes === undefined) this.rebuild(store);
    else if (changes.length > 0) this.fold(store, changes);
    this.store = store;
    this.seen = store.changeCount;
    return this;
  }

  /** A live record's dense rank: how many records sort strictly before it (ties share the first position). */
  rankOf(store: RecordStore, id: number): number {
    this.update(store);
    const { order, labels } = this;
    const label = labels[id];
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (labels[order[mid]] < label) lo = mid + 1;
      else hi = mid;
    }
    return lo;
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
      this.order = sorted[0];
      this.relabel(store.length, (i) => sorted[1][i] === 1);
      return;
    }
    const order = Int32Array.from(ids).sort(this.compare);
    this.order = order;
    this.relabel(store.length, (i) => this.compare(order[i - 1], order[i]) === 0);
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
   * Gives every record of the order a label anew, `step` apart (one label
   * per run of ties, `tied(i)`: position i ties with the one before), in the
   * middle half of the range; a new generation.
   */
  private relabel(capacity: number, tied: (i: number) => boolean): void {
    const { order } = this;
    let groups = 0;
    const startsGroup = new Uint8Array(order.length);
    for (let i = 0; i < order.length; i++) if (i === 0 || !tied(i)) { startsGroup[i] = 1; groups++; }
    this.step = Math.max(1, Math.floor(LABEL_LIMIT / (2 * groups + 2)));
    const labels = new Int32Array(Math.max(capacity, order.length));
    let label = FIRST_LABEL - this.step;
    for (let i = 0; i < order.length; i++) {
      if (startsGroup[i]) label += this.step;
      labels[order[i]] = label;
    }
    this.labels = labels;
    this.generation++;
    this.changed = [];
  }

  /**
   * Takes the removed records out of the order and puts the new ones in,
   * each where a binary search of the order places it (k log n comparisons
   * for k changes, one pass over typed arrays to merge), labelled between
   * their neighbours. Only when some gap has no room left are all labels
   * given anew.
   */
  private fold(store: RecordStore, changes: number[]): void {
    if (this.removing.length < store.length) this.removing = new Uint8Array(Math.ceil(store.length * 1.25));
    if (this.labels.length < store.length) this.labels = grown(this.labels, Math.ceil(store.length * 1.25));
    const fresh: number[] = [];
    const removed: number[] = [];
    for (const id of new Set(changes)) {
      // a removed record keeps its key until the merge: the binary searches read the order as it was
      if (store.objectIDOf(id) !== undefined) { this.keys[id] = this.valuesOf(store, id); fresh.push(id); } else if (this.keys[id] !== undefined) { this.removing[id] = 1; removed.push(id); }
      this.noted[id] = undefined;
    }
    fresh.sort(this.compare);
    const at = fresh.map((id) => this.after(id));
    const merged = this.merge(fresh, at, removed.length);
    const roomy = this.labelFresh(merged, fresh);
    for (const id of removed) {
      this.removing[id] = 0;
      this.keys[id] = undefined;
      this.labels[id] = 0;
    }
    if (merged.length !== this.order.length - removed.length + fresh.length) return this.rebuild(store); // never expected: an order that lost track is rebuilt, not trusted
    this.order = merged;
    if (!roomy) this.relabel(store.length, (i) => this.compare(merged[i - 1], merged[i]) === 0);
    else if (this.changed.length > this.order.length / 4) this.relabel(store.length, (i) => this.labels[merged[i - 1]] === this.labels[merged[i]]);
  }

  /** The order without the records being removed, with `fresh` (sorted) inserted at positions `at` of the old order. */
  private merge(fresh: number[], at: number[], removed: number): Int32Array {
    const { order, removing } = this;
    const merged = new Int32Array(order.length - removed + fresh.length);
    let m = 0;
    let f = 0;
    for (let i = 0; i < order.length; i++) {
      for (; f < fresh.length && at[f] === i; f++) merged[m++] = fresh[f];
      const id = order[i];
      if (removing[id] === 0) merged[m++] = id;
    }
    for (; f < fresh.length; f++) merged[m++] = fresh[f];
    return merged.length === m ? merged : merged.subarray(0, m);
  }

  /**
   * Labels the fresh records, placed in `merged`: a record that ties with
   * the one before it takes its label, any other one a label between its
   * neighbours'. False when some gap had no room left.
   */
  private labelFresh(merged: Int32Array, fresh: number[]): boolean {
    let roomy = true;
    let position = 0;
    // `fresh` is sorted, so its records come in merged order: one scan finds them, in runs of neighbours
    for (let f = 0; f < fresh.length;) {
      while (merged[position] !== fresh[f]) position++;
      let end = f + 1;
      while (end < fresh.length && merged[position + end - f] === fresh[end]) end++;
      roomy = this.labelRun(merged, position, end - f) && roomy;
      for (; f < end; f++) this.changed.push(fresh[f]);
      position += end - f;
    }
    return roomy;
  }

  /** Labels the run of `count` fresh records at `merged[from...]`, between the labels of the records around it. */
  private labelRun(merged: Int32Array, from: number, count: number): boolean {
    const { labels } = this;
    const to = from + count;
    const below = from > 0 ? labels[merged[from - 1]] : 0;
    const above = to < merged.length ? labels[merged[to]] : LABEL_LIMIT;
    const startsLabel = (i: number) => i === 0 || this.compare(merged[i - 1], merged[i]) !== 0;
    let needed = 0;
    for (let i = from; i < to; i++) if (startsLabel(i)) needed++;
    // appended or prepended records take labels a step apart (so the next ones still find room); others share the gap evenly
    let step = (above - below) / (needed + 1);
    let first = below;
    if (to === merged.length && below + this.step * needed < LABEL_LIMIT) step = this.step;
    else if (from === 0 && above - this.step * needed >= 1) [step, first] = [this.step, above - this.step * (needed + 1)];
    if (step < 1) return false;
    let label = below;
    for (let i = from, given = 0; i < to; i++) {
      if (startsLabel(i)) label = Math.floor(first + step * ++given);
      labels[merged[i]] = label;
    }
    return true;
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
}

/** `array` copied into a longer one (the rest zeros). */
function grown(array: Int32Array, length: number): Int32Array {
  const longer = new Int32Array(length);
  longer.set(array);
  return longer;
}
