// The task queue: every write gets a taskID at once and is applied later,
// in order. A task is `notPublished` until applied (and, with replicas,
// until every replica applied it too: `publishedWhen`), then `published`.
// Each task weighs what it writes (records, for a batch), so writers can be
// held back while the queue is heavier than the engine applies in a moment.

export type TaskStatus = 'published' | 'notPublished';

import { yieldTurn } from '../util/turns.js';

export class TaskQueue {
  private next = 1;
  /** Pending taskIDs, with the index each one writes to (when it writes to one). */
  private readonly pending = new Map<number, string | undefined>();
  private tail: Promise<void> = Promise.resolve();
  /** What the pending tasks write, summed (records of batches; 1 for any other task). */
  private weight = 0;
  private readonly waitingForRoom: Array<{ limit: number; resume: () => void }> = [];
  /**
   * While set, a task applied here stays `notPublished` (and keeps its
   * weight) until the promise it gives for the task settles: replicas
   * applying it too (see src/replication/). The next task does not wait for it.
   */
  publishedWhen: ((taskID: number) => Promise<void>) | undefined;

  /** Ids issued so far continue after `last` (used when replaying a log). */
  advancePast(last: number): void {
    if (last >= this.next) this.next = last + 1;
  }

  allocate(): number {
    return this.next++;
  }

  /** What the pending tasks write, summed (see `roomFor`). */
  get queuedWeight(): number { return this.weight; }

  /** Schedules `apply` after every earlier task; the returned id is `notPublished` until it ran. */
  schedule(taskID: number, apply: () => void | Promise<void>, onError: (e: unknown) => void, indexName?: string, weight = 1): void {
    this.pending.set(taskID, indexName);
    this.weight += weight;
    this.tail = this.tail
      .then(yieldTurn)
      .then(apply)
      .catch(onError)
      .finally(() => this.publish(taskID, weight));
  }

  /** Publishes an applied task: at once, or once `publishedWhen` says so. */
  private publish(taskID: number, weight: number): void {
    const done = () => {
      this.pending.delete(taskID);
      this.weight -= weight;
      this.resumeWriters();
    };
    const gate = this.publishedWhen?.(taskID);
    if (gate) gate.then(done, done);
    else done();
  }

  /** Resolves once the pending tasks weigh at most `limit` (at once when they already do). */
  roomFor(limit: number): Promise<void> {
    if (this.weight <= limit) return Promise.resolve();
    return new Promise((resume) => this.waitingForRoom.push({ limit, resume }));
  }

  private resumeWriters(): void {
    for (let i = 0; i < this.waitingForRoom.length;) {
      const waiting = this.waitingForRoom[i];
      if (this.weight > waiting.limit) { i++; continue; }
      this.waitingForRoom.splice(i, 1);
      waiting.resume();
    }
  }

  /** Runs `work` between two tasks: nothing is applied while it runs. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.then(() => {}, () => {});
    return result;
  }

  status(taskID: number): TaskStatus | undefined {
    if (this.pending.has(taskID)) return 'notPublished';
    return taskID > 0 && taskID < this.next ? 'published' : undefined;
  }

  get pendingCount(): number { return this.pending.size; }

  /** Tasks not yet applied that write to `indexName`. */
  pendingFor(indexName: string): number {
    let count = 0;
    for (const name of this.pending.values()) if (name === indexName) count++;
    return count;
  }

  /** Resolves once every task scheduled so far is applied. */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do { seen = this.tail; await seen; } while (seen !== this.tail);
  }
}
