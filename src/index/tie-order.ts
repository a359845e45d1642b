// The order of records every ranking criterion ties: by objectID,
// descending, as the service's (docs/COMPATIBILITY.md, "Tie order"). It
// keeps no value per record: objectIDs are the record store's, and they
// are unique, so no two live records tie. A replaced record (a new id, the
// same objectID) is placed where the one it replaces was.
import type { RecordStore } from './record-store.js';
import { LabelledOrder, type KeySorter, type SortedIds } from './labelled-order.js';

/** Runs of records sharing a key this short are sorted by comparing their objectIDs (a radix pass costs a call into the core). */
const SHORT_RUN = 48;

/** UTF-16 units of an objectID a radix pass sorts by: four, 16 bits each, the two halves of a 64-bit key. */
const PASS_UNITS = 4;

export class TieOrder extends LabelledOrder {
  /** `sortByKeys` sorts ids by 64-bit keys (the core's radix sort: see assembly/radix-sort.ts). */
  constructor(private readonly sortByKeys: KeySorter) {
    super();
  }

  /** By objectID, descending (UTF-16 units, as JavaScript compares strings). */
  protected compare(a: number, b: number): number {
    const x = this.store!.objectIDOf(a)!;
    const y = this.store!.objectIDOf(b)!;
    return x < y ? 1 : x > y ? -1 : 0;
  }

  /** The objectID is the store's: nothing to keep. */
  protected placeKey(): void {}

  protected forgetKey(): void {}

  /**
   * Every live record by objectID: a most-significant-first radix sort, by
   * four UTF-16 units a pass in the core, of each run still tied, runs
   * short enough sorted by comparison. A comparison sort alone took 0.2-0.5
   * s for 100,000 random UUIDs, at a restart's first search.
   */
  protected sortAll(_store: RecordStore, ids: number[]): SortedIds {
    return this.sortPlaced(ids);
  }

  /** objectIDs are the store's own: nothing is placed, nothing read but them. */
  protected sortPlaced(ids: number[]): SortedIds {
    const order = Int32Array.from(ids);
    this.sortRun(order, 0);
    return { order, tied: new Uint8Array(order.length) };
  }

  /** Sorts `ids` (in place), whose objectIDs share their first `unit` UTF-16 units. */
  private sortRun(ids: Int32Array, unit: number): void {
    const n = ids.length;
    if (n <= SHORT_RUN) { ids.sort(this.compareThenId); return; }
    const high = new Int32Array(n);
    const low = new Int32Array(n);
    let longest = 0;
    for (let i = 0; i < n; i++) {
      const text = this.store!.objectIDOf(ids[i])!;
      // past its end a text reads 0 (NaN | 0): "ab" before "ab\0" is left to the comparisons of a tied run
      // inverted: descending
      high[i] = ~((text.charCodeAt(unit) << 16) | (text.charCodeAt(unit + 1) | 0));
      low[i] = ~((text.charCodeAt(unit + 2) << 16) | (text.charCodeAt(unit + 3) | 0));
      if (text.length > longest) longest = text.length;
    }
    const { order, tied } = this.sortByKeys(ids, high, low);
    ids.set(order);
    const deeper = longest > unit + PASS_UNITS;
    for (let start = 0; start < n;) {
      let end = start + 1;
      while (end < n && tied[end] === 1) end++;
      if (end - start > 1) {
        const run = ids.subarray(start, end);
        if (deeper) this.sortRun(run, unit + PASS_UNITS);
        else run.sort(this.compareThenId);
      }
      start = end;
    }
  }
}
