// One read worker thread as the pool sees it (Node: worker_threads): it is
// started from the writer's image, posted the stream of operations, asked
// reads; it tells what it has applied, and when it stops. A read in flight
// on a thread that stops fails with `ThreadStopped`, so it can be asked
// again elsewhere (a read changes nothing).
import { Worker } from 'node:worker_threads';
import type { ReplicatedOp, StateImage } from '../durability/replication.js';
import type { WriteOperation } from '../engine/writes.js';
import type { ReplicaOptions } from '../engine/engine.js';
import type { SearchEvent } from '../analytics/events.js';
import type { FromWorker, ReadAnswer, ReadCall, ToWorker } from './protocol.js';

/** The thread stopped before it answered: the read may be asked again. */
export class ThreadStopped extends Error {}

/** What the pool hears from a thread. */
export interface ThreadEvents {
  /** It applied more of the stream (`appliedThrough` grew). */
  applied(thread: ReplicaThread): void;
  /** It stopped (crashed, failed to apply, or was ended): `reason` says why. */
  stopped(thread: ReplicaThread, reason: string): void;
}

/** A read's answer with the search events the worker recorded while answering. */
export interface ThreadAnswer { answer: ReadAnswer; searches: SearchEvent[] }

export class ReplicaThread {
  /** The last queued task applied there (0 until its image is loaded). */
  appliedThrough = 0;
  /** Its image is loaded: it answers reads. */
  ready = false;
  /** Reads asked and not answered yet. */
  get inFlight(): number { return this.reads.size; }
  /** Resolves once it answers reads; rejects if it stops first. */
  readonly whenReady: Promise<void>;
  readonly startedAt = Date.now();
  private readonly worker: Worker;
  private readonly reads = new Map<number, { resolve: (a: ThreadAnswer) => void; reject: (e: Error) => void }>();
  private nextRead = 1;
  private stopped = false;
  private reason: string | undefined;
  private becameReady!: () => void;
  private neverReady!: (e: Error) => void;

  /** `slot`: its place in the pool (0-based); `options`: what its engine opens with (the writer's Engine.replicaOptions). */
  constructor(readonly slot: number, script: URL, options: ReplicaOptions, private readonly events: ThreadEvents) {
    this.whenReady = new Promise((resolve, reject) => { this.becameReady = resolve; this.neverReady = reject; });
    this.whenReady.catch(() => {});
    this.worker = new Worker(script, { workerData: options });
    this.worker.on('message', (message: FromWorker) => this.received(message));
    this.worker.on('error', (e) => { this.reason ??= e.message.split('\n')[0]; });
    this.worker.on('exit', (code) => this.ended(this.reason ?? `it exited with code ${code}`));
  }

  /** Sends it the writer's image (its bytes are moved, not copied) and the key browse cursors are signed with. */
  start(image: StateImage, cursorKey: CryptoKey): void {
    this.post({ type: 'image', image, cursorKey }, [image.bytes.buffer as ArrayBuffer]);
  }

  /** The next operation of the stream. */
  feed(entry: ReplicatedOp<WriteOperation>): void {
    this.post({ type: 'op', entry });
  }

  /** Asks it a read. */
  read(op: string, call: ReadCall): Promise<ThreadAnswer> {
    if (this.stopped) return Promise.reject(new ThreadStopped(this.reason));
    const id = this.nextRead++;
    const answered = new Promise<ThreadAnswer>((resolve, reject) => this.reads.set(id, { resolve, reject }));
    this.post({ type: 'read', id, op, call });
    return answered;
  }

  /** Ends it the way a crash would: the pool hears that it stopped (tests of what follows). */
  kill(): void {
    void this.worker.terminate();
  }

  /** Ends it (the pool closing). */
  async terminate(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }

  private post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (!this.stopped) this.worker.postMessage(message, transfer);
  }

  private received(message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.becameReady();
        return;
      case 'applied':
        this.appliedThrough = Math.max(this.appliedThrough, message.taskID);
        this.events.applied(this);
        return;
      case 'answer': {
        const read = this.reads.get(message.id);
        this.reads.delete(message.id);
        read?.resolve({ answer: message.answer, searches: message.searches });
        return;
      }
      case 'failed':
        this.reason = `its replica failed to apply an operation: ${message.message}`;
    }
  }

  private ended(reason: string): void {
    const ending = !this.stopped;
    this.stopped = true;
    this.ready = false;
    this.neverReady(new Error(reason));
    for (const read of this.reads.values()) read.reject(new ThreadStopped(reason));
    this.reads.clear();
    if (ending) this.events.stopped(this, reason);
  }
}
