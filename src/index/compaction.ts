// Compaction of an index's core: a removed or replaced record stays in the
// posting lists of its words (a tombstone: searches skip it) until a pass
// rewrites the lists without it. A pass starts once the tombstones outnumber
// the live records, and goes a step per write, each write rewriting twice
// the posting bytes its records hold on average: the pass ends before
// tombstones double again, and its cost is spread over the writes that
// caused it (paced like them, see write-pacer.ts). Rewriting every list at
// once stopped searches for 200 ms at 50,000 records, for seconds at 1M.
import type { CoreIndex } from '../core/core-index.js';

/** Tombstones below this never start a pass (a small index is cheap to search either way). */
const MIN_DEAD = 1000;
/** The smallest step, in posting bytes (about a millisecond of rewriting). */
const MIN_STEP_BYTES = 64 * 1024;

export class Compaction {
  /** Records removed since the running pass started (or since the last one ended). */
  private dead = 0;
  /** The running pass: the next term to rewrite, and the posting bytes a written record pays for. */
  private pass: { nextTerm: number; bytesPerRecord: number } | undefined;

  /** A record was removed (deleted, or replaced by a new version). */
  removed(): void {
    this.dead++;
  }

  /** The core was replaced by a new one (cleared, reindexed, adopted): it holds no tombstones. */
  reset(): void {
    this.dead = 0;
    this.pass = undefined;
  }

  /**
   * After a write of `written` records to `core` (holding `live` records):
   * starts a pass when due and advances the running one. True when a pass
   * ended with this step.
   */
  afterWrite(core: CoreIndex, written: number, live: number): boolean {
    if (!this.pass && this.dead > MIN_DEAD && this.dead > live) {
      this.pass = { nextTerm: 0, bytesPerRecord: core.postingBytes() / (live + this.dead) };
      this.dead = 0;
    }
    if (!this.pass) return false;
    const budget = Math.max(MIN_STEP_BYTES, Math.ceil(2 * written * this.pass.bytesPerRecord));
    this.pass.nextTerm = core.compactSome(this.pass.nextTerm, budget);
    if (this.pass.nextTerm < core.termCount) return false;
    this.pass = undefined;
    return true;
  }
}
