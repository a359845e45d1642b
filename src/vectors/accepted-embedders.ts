// The embedders setting of each index as the writes accepted so far leave
// it, before the task queue applies them: records carrying vectors are
// checked against it when they are accepted, so a batch sent right after the
// settings naming its embedders (without waiting for their task) is taken.
import type { WriteOperation } from '../engine/writes.js';
import type { EmbedderSettings } from './embedder-settings.js';

type Embedders = Readonly<Record<string, EmbedderSettings>> | undefined;

export class AcceptedEmbedders {
  /** Per index: its embedders after the last accepted write that set them (undefined: reset). */
  private readonly accepted = new Map<string, Embedders>();

  /** Notes what an accepted write does to embedders. */
  note(operation: WriteOperation): void {
    if (operation.type === 'settings' && operation.settings.embedders !== undefined) {
      this.accepted.set(operation.indexName, operation.settings.embedders ?? undefined);
    } else if (operation.type === 'deleteIndex') this.accepted.delete(operation.indexName);
    else if (operation.type === 'operation') this.accepted.delete(operation.destination);
  }

  /** An index's embedders once accepted writes are applied (`applied`: what its settings hold now). */
  of(indexName: string, applied: Embedders): Embedders {
    return this.accepted.has(indexName) ? this.accepted.get(indexName) : applied;
  }
}
