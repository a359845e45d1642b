// The upkeep of vector spaces in the background: linking the vectors
// written into their graphs (a space answers a vector as soon as it is
// written, scanning the ones not linked yet exactly), and rebuilding a
// space whose deleted vectors outnumber its live ones. It goes a few
// milliseconds at a time, charged to the write pacer like any write work,
// so searches keep their share of the thread while an import's vectors are
// linked.
import type { SearchIndex } from '../index/search-index.js';
import type { WritePacer } from '../engine/write-pacer.js';
import { yieldTurn } from '../util/turns.js';

/** Milliseconds of linking per step (between two steps, searches waiting run). */
const STEP_MS = 4;

export class VectorLinker {
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly indexes: () => Iterable<SearchIndex>, private readonly pacer: Pick<WritePacer, 'pause' | 'charge'>) {}

  /** Starts linking if vectors wait and it is not under way. */
  wake(): void {
    if (this.running || this.stopped) return;
    this.running = this.linkAll().finally(() => { this.running = undefined; });
  }

  /** Resolves once no vector waits to be linked. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void { this.stopped = true; }

  private async linkAll(): Promise<void> {
    let waiting = true;
    while (waiting && !this.stopped) {
      waiting = false;
      for (const index of [...this.indexes()]) {
        if (index.sharesData || !index.vectors.busy) continue;
        await this.pacer.pause();
        const started = performance.now();
        index.upkeepVectors(STEP_MS);
        if (index.vectors.busy) waiting = true;
        this.pacer.charge(performance.now() - started);
        await yieldTurn();
      }
    }
  }
}
