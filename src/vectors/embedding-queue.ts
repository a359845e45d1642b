// Embedding records in the background. A write is accepted (and searchable
// by keywords) before its vectors exist; its texts wait here until their
// embedder answers, however long it is down: a failed request is retried
// with a growing delay, never given up. A newer text for a record replaces
// its older one not yet embedded, and an answer for a text the record no
// longer has is not reported. Queries are not queued: their caller waits
// for embed([query], { timeoutMs }) and falls back on keywords.

import type { Embedder } from './embedder.js';
import { MAX_TEXTS_PER_REQUEST } from './embedder.js';

/** A record's text to embed: `key` names the record, `hash` is textHash(text). */
export interface EmbeddingJob { key: string; text: string; hash: string }

/** A record's vector, for the text whose hash is `hash`. */
export interface EmbeddedVector { key: string; hash: string; vector: Float32Array }

export interface EmbeddingQueueOptions {
  /**
   * Called with each request's vectors (those still current): the caller
   * stores them as a write. Until the promise it returns settles, the jobs
   * count as pending; if it rejects, they are embedded again later.
   */
  onEmbedded(embedder: string, results: EmbeddedVector[]): void | Promise<void>;
  /**
   * Asked as a job is about to be sent: false when the record is gone or
   * already has the vector of this text (the caller stores each vector's
   * hash), and the job is dropped as done. So a text is not embedded
   * twice, whoever queues it again (a restart replaying writes), while a
   * record deleted and written again is. Without it, every job is sent.
   */
  needsEmbedding?(embedder: string, job: EmbeddingJob): boolean;
  /** Called with the keys of jobs dropped unsent (not needed any more, or their lane cleared): they will never be embedded. */
  onDropped?(embedder: string, keys: string[]): void;
  /** Texts per request (default MAX_TEXTS_PER_REQUEST, 64). */
  batchSize?: number;
  /** Requests in flight per embedder (default 2: a local model server is busy with one, the next is ready). */
  maxInFlight?: number;
  /** The first retry's delay, doubled on each failure in a row up to maxRetryDelayMs (defaults 500 and 30000). */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** A request not answered in this time fails and is retried (default 60000: a cold model may take long). */
  timeoutMs?: number;
}

export interface EmbedderQueueStatus {
  /** Texts waiting or in flight. */
  pending: number;
  /** Requests in flight. */
  requests: number;
  /** The last failure's message, until a request succeeds. */
  lastError: string | null;
  /** When (ms since the epoch) the failures in a row began; null when the last request succeeded. */
  retryingSince: number | null;
  /** When the next attempt is due while waiting after a failure. */
  nextAttemptAt: number | null;
}

/** One embedder's texts and requests. */
interface Lane {
  embedder: Embedder;
  /** Jobs waiting for a request, by key: a newer job for a key replaces the one here. */
  waiting: Map<string, EmbeddingJob>;
  /** The hash of each key's text in a request. */
  inFlight: Map<string, string>;
  requests: number;
  failuresInARow: number;
  lastError: string | null;
  retryingSince: number | null;
  retryAt: number | null;
  retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by clear(): answers to requests sent before are dropped. */
  generation: number;
}

export class EmbeddingQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly idleWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private readonly stopped = new AbortController();
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: EmbeddingQueueOptions) {
    this.batchSize = options.batchSize ?? MAX_TEXTS_PER_REQUEST;
    this.maxInFlight = options.maxInFlight ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /**
   * Queues `jobs` for `embedder` (which from now on embeds its lane's
   * texts: pass the one built from the current settings). A job whose key
   * waits with another text replaces it; one whose text is already waiting
   * or in flight adds nothing.
   */
  enqueue(embedder: Embedder, jobs: Iterable<EmbeddingJob>): void {
    if (this.stopped.signal.aborted) throw new Error('The embedding queue is closed');
    const lane = this.laneFor(embedder);
    for (const job of jobs) {
      if (lane.inFlight.get(job.key) === job.hash) {
        lane.waiting.delete(job.key); // the request in flight answers for this text
        continue;
      }
      lane.waiting.delete(job.key); // a replaced job goes to the end: its record was written last
      lane.waiting.set(job.key, job);
    }
    this.send(lane);
  }

  /**
   * Forgets `embedder`'s jobs, waiting and in flight (whose answers are
   * then dropped): for an embedder removed, or whose vectors changed
   * meaning (another model), before its records are queued again.
   */
  clear(embedder: string): void {
    const lane = this.lanes.get(embedder);
    if (!lane) return;
    const dropped = [...lane.waiting.keys(), ...lane.inFlight.keys()];
    lane.waiting.clear();
    lane.inFlight.clear();
    lane.generation++;
    if (dropped.length > 0) this.options.onDropped?.(embedder, dropped);
    this.resetFailures(lane);
    this.settleIdle();
  }

  /** Texts of `embedder` waiting or in flight. */
  pending(embedder: string): number {
    const lane = this.lanes.get(embedder);
    return lane ? lane.waiting.size + lane.inFlight.size : 0;
  }

  status(): Record<string, EmbedderQueueStatus> {
    return Object.fromEntries([...this.lanes].map(([name, lane]) => [name, {
      pending: this.pending(name),
      requests: lane.requests,
      lastError: lane.lastError,
      retryingSince: lane.retryingSince,
      nextAttemptAt: lane.retryAt,
    }]));
  }

  /** Resolves once no text is pending for any embedder; rejects if the queue is closed first. */
  idle(): Promise<void> {
    if (this.stopped.signal.aborted) return Promise.reject(this.stopped.signal.reason);
    return new Promise((resolve, reject) => {
      this.idleWaiters.push({ resolve, reject });
      this.settleIdle();
    });
  }

  /** Stops: timers cleared, requests aborted, nothing sent again. Pending texts are left (their records have no vector yet). */
  close(): void {
    if (this.stopped.signal.aborted) return;
    this.stopped.abort(new Error('The embedding queue was closed'));
    for (const lane of this.lanes.values()) clearTimeout(lane.retryTimer);
    const pending = [...this.lanes.keys()].reduce((sum, name) => sum + this.pending(name), 0);
    for (const waiter of this.idleWaiters.splice(0)) {
      waiter.reject(new Error(`The embedding queue was closed with ${pending} texts pending`));
    }
  }

  private laneFor(embedder: Embedder): Lane {
    let lane = this.lanes.get(embedder.name);
    if (!lane) {
      lane = {
        embedder, waiting: new Map(), inFlight: new Map(), requests: 0, failuresInARow: 0,
        lastError: null, retryingSince: null, retryAt: null, retryTimer: undefined, generation: 0,
      };
      this.lanes.set(embedder.name, lane);
    }
    lane.embedder = embedder;
    return lane;
  }

  /** Sends requests while the lane has texts waiting, room in flight, and is not waiting to retry. */
  private send(lane: Lane): void {
    while (!this.stopped.signal.aborted && lane.retryTimer === undefined
      && lane.requests < this.maxInFlight && lane.waiting.size > 0) {
      const batch: EmbeddingJob[] = [];
      const dropped: string[] = [];
      for (const job of lane.waiting.values()) {
        if (batch.length === this.batchSize) break;
        lane.waiting.delete(job.key);
        if (this.options.needsEmbedding?.(lane.embedder.name, job) ?? true) batch.push(job);
        else dropped.push(job.key);
      }
      if (dropped.length > 0) this.options.onDropped?.(lane.embedder.name, dropped);
      if (batch.length === 0) continue;
      for (const job of batch) lane.inFlight.set(job.key, job.hash);
      lane.requests++;
      void this.embed(lane, batch);
    }
    this.settleIdle(); // the jobs left may all have been done
  }

  private async embed(lane: Lane, batch: EmbeddingJob[]): Promise<void> {
    const { generation, embedder } = lane;
    try {
      const vectors = await embedder.embed(batch.map((job) => job.text), { signal: this.stopped.signal, timeoutMs: this.timeoutMs });
      if (lane.generation !== generation) return;
      const current = batch.map((job, i) => ({ key: job.key, hash: job.hash, vector: vectors[i] }))
        .filter((result) => !lane.waiting.has(result.key)); // a newer text waits for this record
      if (current.length > 0) await this.options.onEmbedded(embedder.name, current);
      if (lane.generation !== generation) return;
      this.resetFailures(lane);
      this.finish(lane, batch);
    } catch (error) {
      if (this.stopped.signal.aborted || lane.generation !== generation) return;
      this.finish(lane, batch, error);
    } finally {
      lane.requests--;
      this.send(lane);
      this.settleIdle();
    }
  }

  /** The batch's texts leave the lane's requests; after `error`, those not replaced meanwhile wait again. */
  private finish(lane: Lane, batch: EmbeddingJob[], error?: unknown): void {
    for (const job of batch) {
      if (lane.inFlight.get(job.key) === job.hash) lane.inFlight.delete(job.key);
      if (error !== undefined && !lane.waiting.has(job.key)) lane.waiting.set(job.key, job);
    }
    if (error !== undefined) this.retryLater(lane, error);
  }

  /** Waits before the lane's next request: the delay doubles with each failure in a row, with jitter (retries of many lanes or processes spread out). */
  private retryLater(lane: Lane, error: unknown): void {
    lane.failuresInARow++;
    lane.lastError = error instanceof Error ? error.message : String(error);
    lane.retryingSince ??= Date.now();
    if (lane.retryTimer !== undefined) return; // a request of the same round failed too
    const delay = Math.min(this.maxRetryDelayMs, this.retryDelayMs * 2 ** (lane.failuresInARow - 1));
    const jittered = delay / 2 + Math.random() * (delay / 2);
    lane.retryAt = Date.now() + jittered;
    lane.retryTimer = setTimeout(() => {
      lane.retryTimer = undefined;
      lane.retryAt = null;
      this.send(lane);
    }, jittered);
  }

  /** The embedder answers (or was cleared): no more waiting before the next request. */
  private resetFailures(lane: Lane): void {
    clearTimeout(lane.retryTimer);
    lane.retryTimer = undefined;
    lane.retryAt = null;
    lane.failuresInARow = 0;
    lane.lastError = null;
    lane.retryingSince = null;
  }

  private settleIdle(): void {
    if (this.idleWaiters.length === 0) return;
    for (const name of this.lanes.keys()) if (this.pending(name) > 0) return;
    for (const waiter of this.idleWaiters.splice(0)) waiter.resolve();
  }
}
