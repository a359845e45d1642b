// Read workers (`lantern serve --workers N`): the main thread stays the one
// writer (the HTTP wire, the router, durability) and N worker threads each
// hold a replica of its state in memory. The pool owns them: it starts each
// from the writer's image, feeds them every operation the writer applies
// (it is the writer's replication target), answers the router's read calls
// on the least busy one, records what those reads recorded (search events)
// on the writer, publishes a task once every replica applied it, and starts
// a thread that stopped again from the writer's state. While no thread is
// ready, the writer answers reads itself.
import type { Lantern } from '../lantern.js';
import type { ReadForwarder, OperationContext } from '../api/types.js';
import type { ReplicatedOp, ReplicationTarget } from '../durability/replication.js';
import type { WriteOperation } from '../engine/writes.js';
import { REPLICA_READS, resultOf } from './reads.js';
import { ReplicaThread, ThreadStopped, type ThreadAnswer } from './replica-thread.js';
import type { ReadCall } from './protocol.js';

export interface ReadPoolOptions {
  /** Worker threads, each holding a replica of the whole state (memory is that many times the state). */
  workers: number;
  /** The worker script (default: the Node build's `read-worker.js`, next to this bundle). */
  script?: URL;
  /** Where a worker stopping or starting again is told (default: a line on stderr). */
  report?: (line: string) => void;
}

/** The worker script of the Node build (dist/read-worker.js), next to the bundle chunk this module is in. */
const READ_WORKER = new URL('./read-worker.js', import.meta.url);

/** A thread that stops this soon after it started is restarted after a pause, and not at all after `MAX_QUICK_STOPS` in a row. */
const QUICK_STOP_MS = 10_000;
const MAX_QUICK_STOPS = 3;

/** The response header naming the worker that answered (1-based): operators (and tests) see how reads spread. */
export const WORKER_HEADER = 'x-lantern-worker';

export class ReadPool implements ReplicationTarget<WriteOperation>, ReadForwarder {
  private readonly threads: Array<ReplicaThread | undefined>;
  /** Stops in a row soon after starting, per slot. */
  private readonly quickStops: number[];
  private waiting: Array<{ taskID: number; publish: () => void }> = [];
  private turn = 0;
  private closing = false;
  /** Stops the writer's feeding this pool. */
  private detach: () => void = () => {};

  private constructor(private readonly engine: Lantern, private readonly options: ReadPoolOptions) {
    this.threads = new Array(options.workers).fill(undefined);
    this.quickStops = new Array(options.workers).fill(0);
  }

  /** Starts `options.workers` threads on `engine`'s state; resolves once every one answers reads. */
  static async start(engine: Lantern, options: ReadPoolOptions): Promise<ReadPool> {
    const pool = new ReadPool(engine, options);
    pool.detach = engine.replicateTo(pool);
    engine.services.reads = pool;
    try {
      await Promise.all(pool.threads.map((_, slot) => pool.launch(slot)));
    } catch (e) {
      await pool.close();
      throw new Error(`a read worker did not start: ${(e as Error).message}`, { cause: e });
    }
    return pool;
  }

  /** Threads answering reads now. */
  get ready(): number { return this.threads.filter((t) => t?.ready).length; }

  // --- the writer's replication target

  feed(entry: ReplicatedOp<WriteOperation>): void {
    for (const thread of this.threads) thread?.feed(entry);
  }

  published(taskID: number): Promise<void> {
    if (taskID <= this.floor()) return Promise.resolve();
    return new Promise((publish) => this.waiting.push({ taskID, publish }));
  }

  // --- the router's reads

  run(op: string, ctx: OperationContext<string, unknown>, here: () => unknown): unknown {
    if (!REPLICA_READS.has(op)) return here();
    const thread = this.pick();
    if (!thread) return here();
    return thread.read(op, callOf(ctx)).then(
      (answered) => this.answered(thread, answered),
      // the thread stopped while answering: the read is asked again (it changes nothing)
      (e: unknown) => { if (e instanceof ThreadStopped) return this.run(op, ctx, here); throw e; },
    );
  }

  /**
   * Ends worker `slot` (0-based) the way a crash would, to see what follows
   * (the tests: its reads asked again elsewhere, the worker started again).
   * @internal
   */
  crash(slot: number): void {
    this.threads[slot]?.kill();
  }

  /** Ends every thread; the writer answers everything again. */
  async close(): Promise<void> {
    this.closing = true;
    this.detach();
    this.engine.services.reads = undefined;
    await Promise.all(this.threads.map((t) => t?.terminate()));
    this.threads.fill(undefined);
    this.settle();
  }

  /** The read's result, once the searches it recorded are recorded on the writer (once, here). */
  private answered(thread: ReplicaThread, { answer, searches }: ThreadAnswer): unknown {
    for (const event of searches) this.engine.analytics.recordSearch(event);
    return resultOf(answer, { [WORKER_HEADER]: String(thread.slot + 1) });
  }

  /** The ready thread with the fewest reads in flight, taking turns among equals. */
  private pick(): ReplicaThread | undefined {
    const n = this.threads.length;
    let best: ReplicaThread | undefined;
    for (let k = 0; k < n; k++) {
      const thread = this.threads[(this.turn + k) % n];
      if (thread?.ready && (!best || thread.inFlight < best.inFlight)) best = thread;
    }
    this.turn = (this.turn + 1) % n;
    return best;
  }

  // --- threads

  /**
   * Starts a thread in `slot`: it gets the stream from now on (held there
   * until its image is loaded, and waited for before a task is published),
   * then the writer's image. Resolves once it answers reads.
   */
  private async launch(slot: number): Promise<void> {
    const thread = new ReplicaThread(slot, this.options.script ?? READ_WORKER, this.engine.replicaOptions, {
      applied: () => this.settle(),
      stopped: (t, reason) => this.stopped(t, reason),
    });
    this.threads[slot] = thread;
    const image = await this.engine.image().catch(async (e: unknown) => {
      // no image, no replica: it must not hold publication back
      this.threads[slot] = undefined;
      await thread.terminate();
      this.settle();
      throw e;
    });
    thread.start(image, this.engine.cursorKey);
    await thread.whenReady;
  }

  private stopped(thread: ReplicaThread, reason: string): void {
    if (this.threads[thread.slot] !== thread) return;
    this.threads[thread.slot] = undefined;
    this.settle();
    if (this.closing) return;
    const slot = thread.slot;
    const quick = Date.now() - thread.startedAt < QUICK_STOP_MS;
    this.quickStops[slot] = quick ? this.quickStops[slot] + 1 : 0;
    const name = `read worker ${slot + 1}`;
    if (this.quickStops[slot] >= MAX_QUICK_STOPS) {
      this.report(`${name} stopped (${reason}) ${MAX_QUICK_STOPS} times in a row: not started again; ${this.others()}`);
      return;
    }
    this.report(`${name} stopped (${reason}): starting it again from the writer's state; ${this.others()}`);
    setTimeout(() => {
      if (this.closing) return;
      this.launch(slot).then(
        () => this.report(`${name} started again`),
        () => {}, // it stopped again: stopped() reported it
      );
    }, quick ? 1000 * this.quickStops[slot] : 0);
  }

  private others(): string {
    const ready = this.ready;
    return ready > 0 ? `meanwhile ${ready} other worker${ready > 1 ? 's answer' : ' answers'} reads` : 'meanwhile the main thread answers reads';
  }

  /** The last task every thread attached has applied (no thread: every task). */
  private floor(): number {
    let floor = Infinity;
    for (const thread of this.threads) if (thread) floor = Math.min(floor, thread.appliedThrough);
    return floor;
  }

  /** Publishes the tasks every thread has applied. */
  private settle(): void {
    if (this.waiting.length === 0) return;
    const floor = this.floor();
    const still: typeof this.waiting = [];
    for (const w of this.waiting) {
      if (w.taskID <= floor) w.publish();
      else still.push(w);
    }
    this.waiting = still;
  }

  private report(line: string): void {
    (this.options.report ?? ((text: string) => process.stderr.write(`lantern: ${text}\n`)))(line);
  }
}

/** What a worker needs of a call to answer it. */
function callOf(ctx: OperationContext<string, unknown>): ReadCall {
  const { params, query, body, headers, sourceIp, caller } = ctx;
  return { params, query, body, headers, sourceIp, caller };
}
