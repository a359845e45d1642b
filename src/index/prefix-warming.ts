// The prefix cache's one-letter entries, built while the thread is idle: a
// first keystroke is a one-letter prefix, whose subtree is the largest a
// query reads, and its first asks decoded it or built the entry then
// (several times an answer's usual time). Once writes pause (see
// idle-work.ts), each step builds the core's entry of one letter, the
// costliest to decode first, as a second ask would cache it
// (assembly/prefix-warming.ts), until no letter worth it is left.
//
// Before any letter, the steps list the dictionary's new terms for the
// lookup of a typo'd word's other first letters (assembly/first-letter-typos.ts),
// 2,048 terms a step: until every term is listed, searches walk those
// letters, and listing them as they were made slowed imports. A search that
// finds at most SEARCH_LISTING terms left lists them first: a search right
// after an import (no idle time between) then looks up too, for a one-time
// cost of a few ms (the 15k terms of 100k generated records: ~6 ms). So
// does a write applied while searches arrive, which readies the ranks for
// the next search through the same call (IndexCatalog.computeRanksOf).
//
// After the letters, the steps list long records' tokens term by term
// (assembly/term-positions.ts), 64k tokens a step: a broad search over long
// documents reads those lists for many candidates at once. Listed as each
// record was indexed, they made an import of such records ~15% slower; a
// record not listed yet is scanned on its own, as before.
//
// An index of 65,536 records or more reserves its caches' room when they
// are first laid out, for the records it holds then: laid out in a pause
// of an import, they would be reserved for its first batches only. There
// the core waits for a search to lay them out, and the warming goes on
// after the next search.
import type { CoreIndex } from '../core/core-index.js';
import { WARM_STEP } from '../core/abi.js';
import { IdleWork } from './idle-work.js';

/** Quiet time after the last write before a step, as for packing records (see record-store.ts). */
const WARM_QUIET_MS = 100;
/** Terms left to list that a search lists before it runs (more are left to idle steps: 0.4-0.7 µs a term). */
export const SEARCH_LISTING = 16_384;

export class PrefixWarming {
  private readonly work: IdleWork;
  /** The last step found the caches not laid out: the next search lays them out. */
  private waitingForSearch = false;
  /** Terms may be left to list: written since every term was last found listed. */
  private termsMayWait = true;

  /** Warms the core `index` searches (held weakly: a dropped index is not kept alive for it). */
  constructor(private readonly index: WeakRef<{ readonly coreIndex: CoreIndex }>) {
    this.work = new IdleWork(() => this.step(index.deref()?.coreIndex), WARM_QUIET_MS);
  }

  /** The index's records were written, or its core restored or replaced: its cache is to warm again. */
  noteWrite(): void {
    this.waitingForSearch = false;
    this.termsMayWait = true;
    this.work.noteWrite();
  }

  /**
   * A search of the index is under way: the terms left to list are listed
   * first when few enough (see SEARCH_LISTING); it lays the caches out, so
   * a warming that waited for it goes on after it.
   */
  noteSearch(): void {
    if (this.termsMayWait) this.listTermsLeft();
    if (!this.waitingForSearch) return;
    this.waitingForSearch = false;
    this.work.schedule();
  }

  /** The index is dropped: nothing more is warmed. */
  cancel(): void {
    this.work.cancel();
  }

  /** Lists the terms left when SEARCH_LISTING or fewer are. */
  private listTermsLeft(): void {
    const core = this.index.deref()?.coreIndex;
    if (!core || core.termsToList > SEARCH_LISTING) return;
    while (!core.listNewTerms());
    this.termsMayWait = false;
  }

  private step(core: CoreIndex | undefined): boolean {
    if (!core) return false;
    if (!core.listNewTerms()) return true;
    const done = core.warmPrefixes();
    this.waitingForSearch = done === WARM_STEP.unlaid;
    if (done === WARM_STEP.more) return true;
    return !core.listRecordPositions();
  }
}
