// Room in the task queue, taken before a write is logged. The durability
// module holds a write's acknowledgement until the queue weighs at most
// `maxQueuedRecords` — but only after the write joined the queue, so every
// writer waiting added its batch past the limit: 32 writers of 1000-record
// batches kept 52,000 records queued and waited 4.7-5.5 s each for their
// answer. Here a write first takes room for its records (the queue's
// weight, plus writes being logged, plus its own, within the limit), in
// arrival order; when none frees within `maxWaitMs` it is refused, 503 with
// Retry-After, before anything is logged, so the caller may simply send it
// again. A write heavier than the whole limit gets room in an empty queue.
import { RetryLater } from '../util/errors.js';

/** Milliseconds a write sent to `lantern serve` waits for room before it is refused. */
export const SERVE_WRITE_WAIT_MS = 2000;

interface Waiting {
  weight: number;
  take: () => void;
  refuse: () => void;
}

export class WriteRoom {
  /** Records of writes that took room and are not queued yet (being logged), or queued and not acknowledged. */
  private reserved = 0;
  private readonly waiting: Waiting[] = [];
  /** Whether a wait for the queue to lighten is pending (one at a time). */
  private watching = false;

  /**
   * `queued`: the records queued now; `roomFor(limit)`: resolves once the
   * queue weighs at most `limit` (TaskQueue.roomFor).
   */
  constructor(
    private readonly limit: number,
    private readonly queued: () => number,
    private readonly roomFor: (limit: number) => Promise<void>,
    private readonly maxWaitMs = Infinity,
  ) {}

  /** Runs `write` (which queues `weight` records) once there is room for them; a 503 when none frees in time. */
  async write<T>(weight: number, write: () => Promise<T>): Promise<T> {
    await this.take(weight);
    try {
      return await write();
    } finally {
      this.reserved -= weight;
      this.admitWaiting();
    }
  }

  private take(weight: number): Promise<void> {
    if (this.waiting.length === 0 && this.fits(weight)) {
      this.reserved += weight;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiting: Waiting = {
        weight,
        take: () => { clearTimeout(timer); resolve(); },
        refuse: () => reject(new RetryLater('unavailable', `The write queue is full: send the write again in a moment (it waited ${this.maxWaitMs} ms for room; nothing was written)`, 1)),
      };
      // no bound (in-process callers by default): the write waits as long as indexing takes
      const timer = Number.isFinite(this.maxWaitMs) ? setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiting), 1);
        waiting.refuse();
        this.admitWaiting(); // the next in line may fit where this one did not
      }, this.maxWaitMs) : undefined;
      this.waiting.push(waiting);
      this.admitWaiting();
    });
  }

  private fits(weight: number): boolean {
    const taken = this.queued() + this.reserved;
    return taken + weight <= this.limit || taken === 0;
  }

  /** Lets in the waiting writes that fit, in order; watches the queue for the first that does not. */
  private admitWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].weight)) {
      const next = this.waiting.shift()!;
      this.reserved += next.weight;
      next.take();
    }
    if (this.waiting.length === 0 || this.watching) return;
    this.watching = true;
    const room = Math.max(0, this.limit - this.reserved - this.waiting[0].weight);
    void this.roomFor(room).then(() => {
      this.watching = false;
      this.admitWaiting();
    });
  }
}
