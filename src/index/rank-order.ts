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
  /** Live record ids, in order: the start of `orderBuffer`. */
  private order: Int32Array = new Int32Array(0);
  private orderBuffer: Int32Array = this.order;
  /** The buffer of the order before: the next fold merges into it (a fold allocates nothing once they are large enough). */
  private spare: Int32Array = new Int32Array(0);
  labels: Int32Array = new Int32Array(0);
  generation = 0;
  changed: number[] = [];
  /** Distance between two labels given out by the last relabelling: a record placed before the first or after the last takes one such step. */
  private step = 1;
  /** Per record id: its values for the entries (undefined: not in the order). */
  private keys: Array<SortValue[] | undefined> = [];
  /**
   * Values noted as records were saved, for ids not yet in the order (see
   * note): a Map, as the ids noted lie past every id of an array emptied by
   * the last rebuild, which made it a slow dictionary (a third of a fold).
   */
  private noted = new Map<number, SortValue[]>();
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
    this.noted.set(id, this.keyOf(record));
  }

  /** A live record's values: noted as it was saved, else read from the record. */
  private valuesOf(store: RecordStore, id: number): SortValue[] {
    return this.noted.get(id) ?? this.keyOf(store.get(id)!);
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
    const { labels } = this;
    const label = labels[id];
    return this.firstNotBefore((other) => labels[other] < label);
  }

  /** The first position of the order whose record `before` is false for: it holds for every record before it (a binary search). */
  private firstNotBefore(before: (other: number) => boolean): number {
    const { order } = this;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(order[mid])) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Per record id in the order: its first value as a number that sorts the
   * way the order does (negated when descending, Infinity when missing;
   * NaN when it is not a number), so most comparisons of a fold's binary
   * searches read two numbers instead of two records' value lists.
   */
  private leading = new Float64Array(0);

  private readonly compare = (a: number, b: number): number => {
    const x = this.leading[a];
    const y = this.leading[b];
    if (x < y) return -1;
    if (x > y) return 1;
    return this.compareValuesOf(a, b);
  };

  private compareValuesOf(a: number, b: number): number {
    const ka = this.keys[a]!;
    const kb = this.keys[b]!;
    for (let i = 0; i < this.entries.length; i++) {
      const c = compareValues(ka[i], kb[i], this.entries[i].descending);
      if (c !== 0) return c;
    }
    return 0;
  }

  /** Notes a record's values for the binary searches (see `leading`). */
  private place(id: number, values: SortValue[]): void {
    this.keys[id] = values;
    if (id >= this.leading.length) this.leading = grown(this.leading, Math.max(id + 1, Math.ceil(this.leading.length * 1.25)));
    const v = values[0];
    this.leading[id] = v === undefined ? Infinity : typeof v !== 'number' ? NaN : this.entries[0].descending ? -v : v;
  }

  /** The order's own: records that tie by the entries come by id (see positionOf). */
  private readonly compareThenId = (a: number, b: number): number => this.compare(a, b) || a - b;

  private keyOf(record: SearchRecord): SortValue[] {
    return this.entries.map((e) => sortValue(valuesAt(record, e.path)));
  }

  /** Sorts every live record: by its noted values, or those of the record decoded where none were noted. */
  private rebuild(store: RecordStore): void {
    this.keys = [];
    const ids: number[] = [];
    for (const id of store.liveIds()) {
      this.place(id, this.valuesOf(store, id));
      ids.push(id);
    }
    this.noted.clear();
    const sorted = this.radixSorted(ids);
    if (sorted) {
      this.order = this.orderBuffer = sorted[0];
      this.relabel(store.length, (i) => sorted[1][i] === 1);
      return;
    }
    const order = Int32Array.from(ids).sort(this.compareThenId);
    this.order = this.orderBuffer = order;
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
   * each where a binary search of the order finds or places it (k log n
   * comparisons for k changes, then the runs between them copied whole),
   * labelled between their neighbours. Only when some gap has no room left
   * are all labels given anew.
   */
  private fold(store: RecordStore, changes: number[]): void {
    if (this.labels.length < store.length) this.labels = grown(this.labels, Math.ceil(store.length * 1.25));
    const fresh: number[] = [];
    const removed: number[] = [];
    for (const id of new Set(changes)) {
      if (store.objectIDOf(id) !== undefined) { this.place(id, this.valuesOf(store, id)); fresh.push(id); } else if (this.keys[id] !== undefined) removed.push(id);
      this.noted.delete(id);
    }
    // a removed record keeps its key until the merge: the binary searches read the order as it was
    const gone = removed.map((id) => this.positionOf(id)).sort((x, y) => x - y);
    fresh.sort(this.compareThenId);
    const at = fresh.map((id) => this.after(id));
    for (const id of removed) {
      this.keys[id] = undefined;
      this.labels[id] = 0;
    }
    if (gone[0] === -1) return this.rebuild(store); // never expected: an order that lost track of a record is rebuilt, not trusted
    const placed = this.merge(fresh, at, gone);
    const { order } = this;
    if (!this.labelFresh(placed)) this.relabel(store.length, (i) => this.compare(order[i - 1], order[i]) === 0);
    else if (this.changed.length > order.length / 4) {
      // readers this far behind copy every label rather than the list of changes, which need not grow any longer
      this.generation++;
      this.changed = [];
    }
  }

  /**
   * Position of the record `id` in the order, or -1. Records that tie keep
   * their ids ascending (ids only grow, and a new record goes after those it
   * ties with), so values then id order it: one binary search finds it
   * however many records tie with it.
   */
  private positionOf(id: number): number {
    const at = this.firstNotBefore((other) => this.compareThenId(other, id) < 0);
    return this.order[at] === id ? at : -1;
  }

  /**
   * Makes the order the old one without the records at positions `gone`
   * (ascending), with `fresh` (sorted) inserted before the old positions
   * `at`; the runs between them are copied whole, into the buffer the
   * order before last used. Returns where each fresh record went.
   */
  private merge(fresh: number[], at: number[], gone: number[]): number[] {
    const { order } = this;
    const length = order.length - gone.length + fresh.length;
    const into = this.spare.length >= length ? this.spare : new Int32Array(Math.ceil(length * 1.25));
    const placed: number[] = [];
    let m = 0;
    let from = 0;
    for (let f = 0, g = 0; f < fresh.length || g < gone.length;) {
      const insert = f < fresh.length ? at[f] : Infinity;
      const until = Math.min(insert, g < gone.length ? gone[g] : Infinity);
      into.set(order.subarray(from, until), m);
      m += until - from;
      from = until;
      // a record inserted at a position goes before the old record there (removed or not)
      if (insert === until) {
        placed.push(m);
        into[m++] = fresh[f++];
      } else {
        from++;
        g++;
      }
    }
    into.set(order.subarray(from), m);
    this.spare = this.orderBuffer;
    this.orderBuffer = into;
    this.order = into.subarray(0, length);
    return placed;
  }

  /**
   * Labels the fresh records, at positions `placed` of the order (ascending):
   * a record that ties with the one before it takes its label, any other one
   * a label between its neighbours'. False when some gap had no room left.
   */
  private labelFresh(placed: number[]): boolean {
    let roomy = true;
    // fresh records side by side share the gap around them: labelled a run at a time
    for (let f = 0; f < placed.length;) {
      let end = f + 1;
      while (end < placed.length && placed[end] === placed[f] + end - f) end++;
      roomy = this.labelRun(this.order, placed[f], end - f) && roomy;
      for (; f < end; f++) this.changed.push(this.order[placed[f]]);
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
    return this.firstNotBefore((other) => this.compare(other, id) <= 0);
  }
}

/** `array` copied into a longer one of its kind (the rest zeros). */
function grown<T extends Int32Array | Float64Array>(array: T, length: number): T {
  const longer = new (array.constructor as new (length: number) => T)(length);
  longer.set(array);
  return longer;
}
