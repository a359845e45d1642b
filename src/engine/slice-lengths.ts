// How much of a batch is applied in one event-loop turn: as many actions as
// take about the engine's `writeSliceMs` (SLICE_MS by default) on the index
// written (100 at most), learnt from the slices applied to it before. A
// fixed count held only for the records it was tuned on: 100 generated
// records took ~2.5 ms a slice, 100 TED talks with their twelve sort
// replicas 13 ms at the median, and a search arriving meanwhile waits for
// the whole slice.

/** Milliseconds a slice should take by default (100 generated records, the count measured best, take ~2.5 ms). */
const SLICE_MS = 3;

/**
 * Bounds of a slice, in actions. Below: a slice's fixed cost (cache
 * refreshes, folds) caps how short is worth it. Above: the count measured
 * best on generated records, with four writers of 1,000-record batches
 * against eight searchers (bench/reads-under-writes.mjs, alternated in one
 * session): p99 65-72 ms at 250, 62-64 ms at 100, 54-59 ms at 50, which
 * cost a third of the writes' throughput. Cheaper actions than those do not
 * make longer slices.
 */
const MIN_ACTIONS = 10;
const MAX_ACTIONS = 100;

/** An index's first slices: the cost measured on generated records. */
const FIRST_MS_PER_ACTION = 0.025;

/** Weight of the last slice in the running estimate: a slice preempted by the machine moves it by a third only. */
const LAST_WEIGHT = 0.3;

/** Indexes whose estimates are kept at most. */
const MAX_INDEXES = 4096;

export class SliceLengths {
  /** `sliceMs`: milliseconds a slice should take (see EngineOptions.writeSliceMs). */
  constructor(private readonly sliceMs = SLICE_MS) {
    if (!(sliceMs > 0 && Number.isFinite(sliceMs))) {
      throw new RangeError(`writeSliceMs must be a positive number of milliseconds, not ${String(sliceMs)}`);
    }
  }

  /**
   * Per index name: milliseconds an action took, as estimated from its
   * slices so far; null after its first slice, which is not learnt from: it
   * also made the index (a new core, its settings).
   */
  private readonly msPerAction = new Map<string, number | null>();

  /** Actions of a batch to `indexName` to apply in the next turn. */
  lengthFor(indexName: string): number {
    const ms = this.msPerAction.get(indexName) ?? FIRST_MS_PER_ACTION;
    return Math.min(MAX_ACTIONS, Math.max(MIN_ACTIONS, Math.round(this.sliceMs / ms)));
  }

  /** A slice of `actions` actions to `indexName` was applied in `ms`. */
  noteSlice(indexName: string, actions: number, ms: number): void {
    if (actions <= 0) return;
    const last = ms / actions;
    const before = this.msPerAction.get(indexName);
    if (before === undefined) {
      // an application writing to ever new index names does not grow this for good: estimates are relearnt
      if (this.msPerAction.size >= MAX_INDEXES) this.msPerAction.clear();
      this.msPerAction.set(indexName, null);
    } else {
      this.msPerAction.set(indexName, before === null ? last : before + LAST_WEIGHT * (last - before));
    }
  }
}
