// An index's live records in an order kept across writes, and the labels
// the core compares for it: per record id a number that orders records as
// the order does, ties sharing one. The order is kept by folding in the
// record store's changes (removed records out, new ones placed by binary
// search) instead of sorting every record again: the first search after a
// write paid for that sort (~25 ms at 20,000 records), again after every
// write. What records are ordered by is a subclass's: asc()/desc() entries
// (RankOrder), objectIDs (TieOrder).
//
// Labels leave gaps: a new record takes a label between its neighbours', so
// a write changes the labels of its own records only, and the core copies
// those (CoreIndex.syncRanks) instead of an array over every record. When a
// gap runs out, every label is given anew (a new generation, which readers
// copy whole). Labels never decrease along the order, and records sharing
// one (ties) come by id, so a record's label and id find its place.
import type { RankLabels } from '../core/core-index.js';
import { ChangesRead, type RecordStore } from './record-store.js';

/** Sorts ids by 64-bit keys (high, then low, unsigned; stable): the ids in order, and per position whether it ties with the one before. */
export type KeySorter = (ids: Int32Array, high: Int32Array, low: Int32Array) => SortedIds;

/** Ids in order, and per position 1 when it ties with the one before. */
export interface SortedIds { order: Int32Array; tied: Uint8Array }

/** Labels lie in [1, LABEL_LIMIT): the core compares them as unsigned 32-bit keys, 0 is a record id without a record. */
const LABEL_LIMIT = 2 ** 31;

/**
 * A fold of more changes than the order's length over this sorts the order
 * anew: a batch applied while no search came (the sort replicas no one
 * searched meanwhile) left 40,000 changes to fold into each order of 20,000
 * TED records, 1.4 s of placing them one binary search at a time across 13
 * indexes' orders, at the next write.
 */
const RESORT_SHARE = 4;
/** Below so many changes a fold places them (a few milliseconds at most), keeping the labels of the records it leaves alone. */
const RESORT_MIN = 1024;

/** Where the first label of a generation goes: a quarter of the range is left below it, and about as much above the last. */
const FIRST_LABEL = LABEL_LIMIT / 4;

export abstract class LabelledOrder implements RankLabels {
  /** Live record ids, in order: the start of `orderBuffer`. */
  protected order: Int32Array = new Int32Array(0);
  private orderBuffer: Int32Array = this.order;
  /** The buffer of the order before: the next fold merges into it (a fold allocates nothing once they are large enough). */
  private spare: Int32Array = new Int32Array(0);
  labels: Int32Array = new Int32Array(0);
  generation = 0;
  changed: number[] = [];
  /** Distance between two labels given out by the last relabelling: a record placed before the first or after the last takes one such step. */
  private step = 1;
  /** How far the order has read its store's changes. */
  private readonly read = new ChangesRead();
  /** The store whose records the order holds (that of the last update). */
  protected get store(): RecordStore | undefined { return this.read.store; }

  /** How two records in the order (or being placed in it) compare: negative when `a` comes first, 0 when they tie. */
  protected abstract compare(a: number, b: number): number;
  /** Makes a live record's key ready for `compare`, as it is placed in the order. */
  protected abstract placeKey(store: RecordStore, id: number): void;
  /** Drops what was kept of a record no longer live (in the order or not). */
  protected abstract forgetKey(id: number): void;
  /** Every live record of `store` (`ids`, ascending) sorted: ties by id, as `compareThenId` orders them. */
  protected abstract sortAll(store: RecordStore, ids: number[]): SortedIds;
  /** The same, every key already placed (by a fold's placeKey): nothing read from the records. */
  protected abstract sortPlaced(ids: number[]): SortedIds;

  /** The labels of `store`'s records as they are now (this order, with the store's changes folded in). */
  update(store: RecordStore): RankLabels {
    const changes = this.read.take(store);
    if (changes === undefined) this.rebuild(store);
    else if (changes.length > 0) this.fold(store, changes);
    return this;
  }

  /** The first position of the order whose record `before` is false for: it holds for every record before it (a binary search). */
  protected firstNotBefore(before: (other: number) => boolean): number {
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

  /** The order's own: records that tie come by id (see positionOf). */
  protected readonly compareThenId = (a: number, b: number): number => this.compare(a, b) || a - b;

  /** Per position of `order`, 1 when its record ties with the one before (by `compare`). */
  protected tiesOf(order: Int32Array): Uint8Array {
    const tied = new Uint8Array(order.length);
    for (let i = 1; i < order.length; i++) tied[i] = this.compare(order[i - 1], order[i]) === 0 ? 1 : 0;
    return tied;
  }

  /** Sorts every live record (`keysPlaced`: each live record's key is placed, none is read). */
  private rebuild(store: RecordStore, keysPlaced = false): void {
    const ids = [...store.liveIds()];
    const { order, tied } = keysPlaced ? this.sortPlaced(ids) : this.sortAll(store, ids);
    this.order = this.orderBuffer = order;
    this.relabel(store.length, (i) => tied[i] === 1);
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
   * Takes the removed records out of the order (found by their labels) and
   * puts the new ones in, each where a binary search of the order finds or
   * places it (k log n comparisons for k changes, then the runs between
   * them copied whole), labelled between their neighbours. Only when some
   * gap has no room left are all labels given anew.
   */
  private fold(store: RecordStore, changes: number[]): void {
    if (this.labels.length < store.length) this.labels = grown(this.labels, Math.ceil(store.length * 1.25));
    const fresh: number[] = [];
    const removed: number[] = [];
    for (const id of new Set(changes)) {
      if (store.objectIDOf(id) !== undefined) { this.placeKey(store, id); fresh.push(id); } else {
        if (this.labels[id] !== 0) removed.push(id);
        this.forgetKey(id);
      }
    }
    // many changes at once (writes applied while no search asked for the order): sorted anew, the
    // keys just placed (a radix sort in the core) costs less than placing each by binary search
    if (fresh.length + removed.length > Math.max(RESORT_MIN, this.order.length / RESORT_SHARE)) return this.rebuild(store, true);
    const gone = removed.map((id) => this.positionOf(id)).sort((x, y) => x - y);
    if (gone[0] === -1) return this.rebuild(store); // never expected: an order that lost track of a record is rebuilt, not trusted
    for (const id of removed) this.labels[id] = 0;
    // out first: a removed record's key may be gone (a TieOrder's objectID), and the binary searches below compare keys
    this.dropPositions(gone);
    fresh.sort(this.compareThenId);
    const placed = this.insert(fresh, fresh.map((id) => this.after(id)));
    const { order } = this;
    if (!this.labelFresh(placed)) this.relabel(store.length, (i) => this.compare(order[i - 1], order[i]) === 0);
    else if (this.changed.length > order.length / 4) {
      // readers this far behind copy every label rather than the list of changes, which need not grow any longer
      this.generation++;
      this.changed = [];
    }
  }

  /** Position of the record `id` in the order, or -1: by its label, then its id among those sharing it. */
  private positionOf(id: number): number {
    const { labels } = this;
    const label = labels[id];
    const at = this.firstNotBefore((other) => labels[other] < label || (labels[other] === label && other < id));
    return this.order[at] === id ? at : -1;
  }

  /** Takes the records at positions `gone` (ascending) out of the order, in place. */
  private dropPositions(gone: number[]): void {
    if (gone.length === 0) return;
    const { order } = this;
    let to = gone[0];
    for (let g = 0; g < gone.length; g++) {
      const end = g + 1 < gone.length ? gone[g + 1] : order.length;
      order.copyWithin(to, gone[g] + 1, end);
      to += end - gone[g] - 1;
    }
    this.order = order.subarray(0, to);
  }

  /**
   * Makes the order the one before with `fresh` (sorted) inserted before
   * the positions `at`; the runs between them are copied whole, into the
   * buffer the order before last used. Returns where each fresh record went.
   */
  private insert(fresh: number[], at: number[]): number[] {
    if (fresh.length === 0) return [];
    const { order } = this;
    const length = order.length + fresh.length;
    const into = this.spare.length >= length ? this.spare : new Int32Array(Math.ceil(length * 1.25));
    const placed: number[] = [];
    let m = 0;
    let from = 0;
    for (let f = 0; f < fresh.length; f++) {
      into.set(order.subarray(from, at[f]), m);
      m += at[f] - from;
      from = at[f];
      placed.push(m);
      into[m++] = fresh[f];
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
export function grown<T extends Int32Array | Float64Array>(array: T, length: number): T {
  const longer = new (array.constructor as new (length: number) => T)(length);
  longer.set(array);
  return longer;
}
