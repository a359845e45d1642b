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
// letters, and listing them as they were made slowed imports.
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

export class PrefixWarming {
  private readonly work: IdleWork;
  /** The last step found the caches not laid out: the next search lays them out. */
  private waitingForSearch = false;

  /** Warms the core `index` searches (held weakly: a dropped index is not kept alive for it). */
  constructor(index: WeakRef<{ readonly coreIndex: CoreIndex }>) {
    this.work = new IdleWork(() => this.step(index.deref()?.coreIndex), WARM_QUIET_MS);
  }

  /** The index's records were written, or its core restored or replaced: its cache is to warm again. */
  noteWrite(): void {
    this.waitingForSearch = false;
    this.work.noteWrite();
  }

  /** A search of the index is under way: it lays the caches out, so a warming that waited for it goes on after it. */
  noteSearch(): void {
    if (!this.waitingForSearch) return;
    this.waitingForSearch = false;
    this.work.schedule();
  }

  /** The index is dropped: nothing more is warmed. */
  cancel(): void {
    this.work.cancel();
  }

  private step(core: CoreIndex | undefined): boolean {
    if (core && !core.listNewTerms()) return true;
    const done = core?.warmPrefixes() ?? WARM_STEP.done;
    this.waitingForSearch = done === WARM_STEP.unlaid;
    return done === WARM_STEP.more;
  }
}
