// A replica: an engine with no store of its own, started from the writer's
// image and kept current by the writer's stream of operations
// (src/durability/replication.ts). It owns the order: entries that arrive
// before the image are held until it is loaded; queued writes are applied
// one after another in the order they come, each acknowledged once
// applied (the writer publishes a task once every replica acknowledged
// it); the other operations are applied on arrival, so a read that comes
// after them sees them. Whatever carries the stream (a worker thread's
// port here) hands it the entries; applying is the engine's own
// (`Engine.applyReplicated`, the writer's `apply`).
import type { Engine } from '../engine/engine.js';
import type { ReplicatedOp, StateImage } from '../durability/replication.js';
import type { WriteOperation } from '../engine/writes.js';

export interface ReplicaEvents {
  /** Queued task `taskID` (and every one before it) is applied here. */
  applied(taskID: number): void;
  /** An operation failed to apply: this replica may differ from the writer from now on, and must be dropped. */
  failed(error: unknown): void;
}

export class Replica {
  /** Entries that came before the image, until it is loaded. */
  private held: Array<ReplicatedOp<WriteOperation>> | undefined = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly engine: Pick<Engine, 'applyReplicated' | 'loadImage'>, private readonly events: ReplicaEvents) {}

  /** Loads the writer's image, then applies the entries held meanwhile (those it holds are skipped). */
  async start(image: StateImage): Promise<void> {
    await this.engine.loadImage(image);
    this.events.applied(image.lastTaskID);
    const held = this.held ?? [];
    this.held = undefined;
    for (const entry of held) this.receive(entry);
  }

  /** The next entry of the stream. */
  receive(entry: ReplicatedOp<WriteOperation>): void {
    if (this.held) {
      this.held.push(entry);
      return;
    }
    if (!entry.queued) {
      // applied before this call returns (nothing to wait for: applyReplicated is synchronous for these)
      this.engine.applyReplicated(entry).catch((e: unknown) => this.events.failed(e));
      return;
    }
    this.queue = this.queue
      .then(() => this.engine.applyReplicated(entry))
      .then(() => this.events.applied(entry.taskID), (e: unknown) => this.events.failed(e));
  }
}
