// Durability: what makes an accepted write survive. This module owns
//
// - the task queue: every write is logged durably, acknowledged with a
//   taskID, then applied in order, one task at a time (key and analytics
//   changes are applied at once, right after they are logged);
// - the log: writes are appended to the storage one at a time, in the order
//   they were accepted;
// - snapshots: taken every `snapshotEvery` tasks and on demand, captured
//   between tasks, encoded a section at a time as they are written, read
//   back and proven before they replace anything;
// - recovery and replay: at open, the newest valid snapshot, then the log
//   after it (see recovery.ts).
//
// What the state is belongs to the state sections it is given (see
// state-section.ts): it hands them every operation, merges their parts into
// snapshots and gives each its part back. It is also the seam replication
// uses (replication.ts): a writer sends every operation entering its state
// to its replicas, and a replica starts from the writer's image and applies
// them through the same `apply`. With a shared log (cluster mode,
// shared-log.ts) writes are appended to it instead of the storage's log,
// and every node applies each entry as the log hands it back.
import { assertJson } from '../index/json-check.js';
import { assertStorable } from '../index/storable.js';
import { ApiError, badRequest } from '../util/errors.js';
import { Codec } from './persistence.js';
import { decodeSnapshotOf, recover, type Recovered } from './recovery.js';
import { TaskQueue, type TaskStatus } from './task-queue.js';
import { yieldTurn } from '../util/turns.js';
import type { WritePacer } from '../engine/write-pacer.js';
import { isStorageWriteError, StoreDamagedError } from '../storage/errors.js';
import type { Storage, StoredSnapshot } from '../storage/storage.js';
import type { SnapshotUse, StateSection } from './state-section.js';
import type { ReplicatedOp, ReplicationTarget, StateImage } from './replication.js';
import { concat } from '../util/bytes.js';
import { LogTrimmedError, type NewEntry, type SharedEntry, type SharedLog } from './shared-log.js';
import { SNAPSHOT_FORMAT } from './snapshot-upgrade.js';

/** What every snapshot holds besides the sections' parts. */
export interface SnapshotHeader {
  /** Its format (see snapshot-upgrade.ts: a snapshot of an older one is upgraded as it is decoded). */
  version: typeof SNAPSHOT_FORMAT;
  /** The last task the snapshot holds (a snapshot is taken between tasks). */
  lastTaskID: number;
}

/** An operation as the log holds it: stamped with the time it was accepted. */
export type Logged<Operation> = Operation & { at?: number };

export interface DurabilityOptions<Operation> {
  storage: Storage;
  /** Encrypts the log and snapshots (AES-GCM). */
  encryptionKey?: string | Uint8Array;
  /** A snapshot is taken after this many tasks (0: only on `snapshot()`). */
  snapshotEvery: number;
  /** Records the task queue may hold before an acknowledgement waits for room. */
  maxQueuedRecords: number;
  /** Opens a damaged store with what can be kept (see recovery.ts). */
  repair: boolean;
  /** The sections, in the order each operation is applied to them. */
  sections: ReadonlyArray<StateSection<object, Logged<Operation>>>;
  /** Charged with the time appends take (appending competes with searches as writing does). */
  pacer: WritePacer;
  /**
   * Applies a queued write (default: `apply`); the composition root paces
   * large batches and observes tasks here.
   */
  runTask?: (op: Logged<Operation>, taskID: number) => Promise<void>;
  /** Whether a logged operation is replayed at recovery (default: all of them). */
  replays?: (op: Logged<Operation>, taskID: number) => boolean;
  /**
   * Proves a stored snapshot somewhere else (a worker thread): true once it
   * loads there, false where that is not done (it is then proven here);
   * rejects with the reason it does not load.
   */
  proveElsewhere?: (stored: StoredSnapshot) => Promise<boolean>;
  /**
   * A log shared with other nodes (cluster mode, see shared-log.ts): writes
   * are appended to it instead of the storage's log and applied as it hands
   * them back; `storage` holds only snapshots, and a snapshot is due every
   * `snapshotEvery` entries of the log, stored by the node that wrote the
   * entry reaching the mark.
   */
  log?: SharedLog;
  /**
   * Set (to the sentence the caller gets) on a follower (src/follow/): it
   * applies only what the server it follows sends (`applyReplicated`), so
   * its own writes are refused with a 405 and the search events it records
   * stay in memory (its log holds the server's taskIDs only).
   */
  follows?: string;
}

export class Durability<Operation extends object> {
  readonly tasks = new TaskQueue();
  /** What opening found damaged and recovered from (empty for a sound store). */
  recovery: Recovered = { lastTaskID: 0, problems: [], lost: [], fellBack: false, unusable: { snapshots: [], logRecords: [] }, setAside: [] };
  private codec!: Codec;
  private logTail: Promise<void> = Promise.resolve();
  private lastApplied = 0;
  private appliedSinceSnapshot = 0;
  private snapshotting: Promise<void> | undefined;
  /** The snapshot in flight has captured the state and is being encoded and stored. */
  private snapshotCaptured = false;
  /** Snapshots proven in a worker thread and here (see proveElsewhere). */
  readonly proofs = { elsewhere: 0, here: 0 };
  /** Where operations entering the state go (replicas, followers' feed). */
  private readonly targets = new Set<ReplicationTarget<Operation>>();

  constructor(private readonly options: DurabilityOptions<Operation>) {}

  get storage(): Storage { return this.options.storage; }

  /** Reads back what the storage holds: the newest valid snapshot, then the log after it. */
  async open(): Promise<void> {
    this.codec = await Codec.create(this.options.encryptionKey);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.recovered();
        await this.followed();
        break;
      } catch (e) {
        // a shared log moves on while a node loads it (other nodes store newer snapshots, delete older ones, trim the log): load the newest again
        const movedOn = e instanceof LogTrimmedError || e instanceof StoreDamagedError;
        if (!this.options.log || !movedOn || attempt >= 3) throw e;
        await this.tasks.idle(); // what the attempt queued runs on the state it was queued for, then goes with it
        this.reset();
      }
    }
    // a store recovered from an older snapshot, or repaired, stands on a new one from now on
    if (this.recovery.fellBack || (this.options.repair && this.recovery.problems.length > 0)) await this.snapshot();
  }

  /** The newest valid snapshot, then the storage's log after it (see recovery.ts). */
  private async recovered(): Promise<void> {
    const stored = await this.storage.open();
    this.recovery = await recover<SnapshotHeader>(stored, this.codec, {
      restore: (state, quarantine) => this.restore(state, quarantine),
      reset: () => this.reset(),
      replay: (op, taskID) => this.replay(op as Logged<Operation>, taskID),
    }, this.options.repair);
    this.lastApplied = this.recovery.lastTaskID;
    this.tasks.advancePast(this.lastApplied);
    this.recovery.setAside = await stored.repair?.(this.recovery.unusable) ?? [];
  }

  /** Applies an operation to every section, at the time it was accepted. */
  apply(op: Logged<Operation>, taskID: number): void {
    for (const section of this.options.sections) section.apply(op, taskID);
  }

  // --- writes

  /**
   * Logs a write durably, then queues it; resolves with its taskID once it
   * is durable and the queue has room for it. `weight`: the records it
   * writes (1 for any other write); `group`: writes of one group (an index)
   * are waited for together.
   */
  async write(operation: Operation, weight = 1, group?: string): Promise<number> {
    this.refuseOnFollower();
    const taskID = this.options.log
      ? await this.appendShared({ ...operation, at: Date.now() }, { queued: true, weight, ...(group === undefined ? {} : { group }) })
      : await this.logAndQueue(operation, weight, group);
    // backpressure: a writer faster than indexing waits (its write is durable) instead of growing the queue without bound
    await this.tasks.roomFor(this.options.maxQueuedRecords);
    return taskID;
  }

  private async logAndQueue(operation: Operation, weight: number, group: string | undefined): Promise<number> {
    const op: Logged<Operation> = { ...operation, at: Date.now() };
    const taskID = this.tasks.allocate();
    const text = await this.logged(taskID, op);
    const task = text === undefined ? this.taskOf(taskID, op) : this.taskOfText(taskID, text);
    this.tasks.schedule(taskID, task, (e) => console.error(`lantern: task ${taskID} failed`, e), group, weight);
    return taskID;
  }

  private taskOf(taskID: number, op: Logged<Operation>): () => Promise<void> {
    return () => this.applied(taskID, op);
  }

  /**
   * The task of a large write, held as the JSON text it was logged as and
   * parsed when it runs (what a replay of the log does). Thousands of parsed
   * records waiting in the queue survived every young-generation collection,
   * which copied them each time; the text is one object outside it.
   */
  private taskOfText(taskID: number, text: string): () => Promise<void> {
    return () => this.applied(taskID, JSON.parse(text) as Logged<Operation>);
  }

  /**
   * Logs a change durably and applies it at once (no task to wait for). Such
   * changes (keys, analytics) are idempotent: a snapshot taken before the
   * queue reaches this taskID replays it harmlessly. Resolves with the taskID.
   */
  async writeNow(op: Operation): Promise<number> {
    this.refuseOnFollower();
    if (this.options.log) return this.appendShared(op, { queued: false, weight: 1 });
    const taskID = this.tasks.allocate();
    await this.logged(taskID, op, () => {
      this.apply(op, taskID);
      this.feed({ taskID, op, queued: false });
    });
    return taskID;
  }

  /**
   * Logs an operation already applied (search events recorded on the spot):
   * it needs neither applying nor the JSON check of what callers send. A
   * read-only storage logs nothing.
   */
  async logApplied(op: Operation): Promise<number> {
    if (this.options.follows !== undefined) return 0;
    // the shared log hands it back to every node (here too: applying search events again adds nothing);
    // while it cannot be reached this rejects, and the caller keeps what it holds (see AnalyticsState.flush)
    if (this.options.log) return this.appendShared(op, { queued: false, weight: 1 });
    const taskID = this.tasks.allocate();
    if (this.storage.append && this.storage.readOnly === undefined) await this.logged(taskID, op);
    this.feed({ taskID, op, queued: false });
    return taskID;
  }

  private refuseOnFollower(): void {
    if (this.options.follows !== undefined) throw new ApiError('follower', this.options.follows);
  }

  /** Resolves once every accepted write is applied. */
  waitForTasks(): Promise<void> { return this.tasks.idle(); }

  /**
   * Appends `op` to the storage's log (in call order), then runs `then`. A
   * storage that keeps no log gets nothing: encoding a batch of records to
   * bytes only to drop them took a third of indexing in memory. The
   * operation is still checked to be JSON (what cannot be logged is refused
   * alike whatever the storage).
   */
  private logged(taskID: number, op: object, then?: () => void): Promise<string | undefined> {
    if (this.storage.readOnly !== undefined) throw new ApiError('unavailable', this.storage.readOnly);
    const append = this.storage.append?.bind(this.storage);
    // a large write is encoded and appended on a turn of its own, after its checks: searches waiting run between
    const large = isLarge(op);
    let encoded = large || !append ? undefined : this.encoded(op);
    if (!append) asJson(() => assertJson(op));
    assertStorable(op); // and what a snapshot could not hold exactly (too deep, Infinity, a lone surrogate)
    return this.serialized(async () => {
      let text: string | undefined;
      if (append) {
        if (large) await yieldTurn();
        const started = performance.now();
        if (large) text = asJson(() => JSON.stringify(op));
        const bytes = await (encoded ??= asJson(() => this.codec.encodeOperationText(text!)));
        await append({ taskID, bytes }).catch(refuseUnstored);
        this.options.pacer.charge(performance.now() - started);
      }
      then?.();
      return text;
    });
  }

  /** The log's bytes for `op`: a 400 for what JSON cannot hold. */
  private encoded(op: object): Promise<Uint8Array> {
    return asJson(() => this.codec.encodeOperation(op));
  }

  /** Runs storage calls one at a time, in the order they were asked for. */
  private serialized<T>(call: () => Promise<T>): Promise<T> {
    const done = this.logTail.then(call);
    this.logTail = done.then(() => {}, () => {});
    return done;
  }

  /** Applies a queued write; `snapshotAfter`: a snapshot is due once it is applied (shared log). */
  private async applied(taskID: number, op: Logged<Operation>, snapshotAfter = false): Promise<void> {
    await this.afterSnapshotInFlight();
    // replicas apply it alongside: it is published once they all did (TaskQueue.publishedWhen)
    this.feed({ taskID, op, queued: true });
    try {
      await this.run(op, taskID);
    } finally {
      this.lastApplied = taskID;
      this.appliedSinceSnapshot++;
      if (snapshotAfter || this.snapshotDue()) this.autoSnapshot();
    }
  }

  private async run(op: Logged<Operation>, taskID: number): Promise<void> {
    if (this.options.runTask) await this.options.runTask(op, taskID);
    else this.apply(op, taskID);
  }

  // --- a shared log (cluster mode, see shared-log.ts): it gives the taskID, and every node applies what it hands back

  /** Entries of the shared log handed over so far (through this taskID), and writes waiting for theirs. */
  private handed = { through: 0, lastQueued: 0, waiting: [] as Array<{ taskID: number; resume: () => void }> };

  /** Appends `op` to the shared log; resolves with its taskID once the log holds it and handed it to this node. */
  private async appendShared(op: object, entry: Omit<NewEntry, 'bytes'>): Promise<number> {
    const log = this.options.log!;
    if (log.unavailable !== undefined) throw new ApiError('unavailable', log.unavailable);
    assertStorable(op);
    if (isLarge(op)) await yieldTurn(); // encoded on a turn of its own, after its checks (as logged() does)
    const started = performance.now();
    const bytes = await this.encoded(op);
    this.options.pacer.charge(performance.now() - started);
    const taskID = await log.append({ ...entry, bytes });
    // read your writes: what this node answers next holds it (a queued write: in its task queue)
    if (taskID > this.handed.through) await new Promise<void>((resume) => this.handed.waiting.push({ taskID, resume }));
    return taskID;
  }

  /** Follows the shared log (when there is one) from the state loaded; resolves once what it held is applied. */
  private async followed(): Promise<void> {
    if (!this.options.log) return;
    this.handed.through = this.handed.lastQueued = this.lastApplied;
    await this.options.log.follow(this.lastApplied, (entry) => this.handOver(entry), () => void this.rejoined());
    await this.tasks.idle();
  }

  /**
   * The shared log was trimmed past this running node (it was away from it
   * for long): it loads the newest stored snapshot it can read (an older one
   * when the newest cannot be, as a start does), decoded with the store's
   * codec (its key), in place of its state (searches are answered from the
   * old state until then), and follows the log after it. A node that cannot
   * says so and stays as it is (writes refused, searches answered).
   */
  private async rejoined(): Promise<void> {
    const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));
    const { snapshots } = await this.storage.open().catch((e: unknown) => {
      console.error(`lantern: the stored snapshots cannot be listed: ${reason(e)}`);
      return { snapshots: [] };
    });
    for (const snapshot of snapshots) {
      try {
        const state = await decodeSnapshotOf<SnapshotHeader>(this.codec, await snapshot.read(), snapshot.taskID, yieldTurn);
        await this.replaceState(state, snapshot.taskID);
        await this.followed();
        return;
      } catch (e) {
        console.error(`lantern: the snapshot of task ${snapshot.taskID} cannot be loaded: ${reason(e)}`);
      }
    }
    console.error('lantern: no stored snapshot could be loaded: restart this node');
  }

  /**
   * An entry the shared log hands over, in its order: a queued write goes to
   * the task queue (once it has room: a node behind holds the log back, not
   * its memory), decoded when it runs; any other is applied at once.
   */
  private async handOver({ taskID, bytes, queued, weight, group, own }: SharedEntry): Promise<void> {
    if (queued) {
      await this.tasks.roomFor(this.options.maxQueuedRecords);
      // the node that wrote the entry reaching a multiple of snapshotEvery stores the snapshot (one node does)
      const every = this.options.snapshotEvery;
      const snapshotAfter = own && every > 0 && Math.floor(taskID / every) > Math.floor(this.handed.lastQueued / every);
      this.handed.lastQueued = taskID;
      this.tasks.advancePast(taskID);
      const task = async () => this.applied(taskID, await this.decoded(bytes), snapshotAfter);
      this.tasks.schedule(taskID, task, (e) => console.error(`lantern: task ${taskID} failed`, e), group, weight);
    } else {
      const op = await this.decoded(bytes).catch((e: unknown) => console.error(`lantern: task ${taskID} cannot be read; it is skipped`, e));
      if (op) {
        this.apply(op, taskID);
        this.feed({ taskID, op, queued: false });
      }
      this.tasks.advancePast(taskID);
    }
    this.handed.through = taskID;
    const still = this.handed.waiting.filter((w) => w.taskID > taskID);
    for (const w of this.handed.waiting) if (w.taskID <= taskID) w.resume();
    this.handed.waiting = still;
  }

  private async decoded(bytes: Uint8Array): Promise<Logged<Operation>> {
    return await this.codec.decodeOperation(bytes) as Logged<Operation>;
  }

  /** A task's status; one this node was not handed yet is `notPublished` when the shared log holds it. */
  async taskStatus(taskID: number): Promise<TaskStatus | undefined> {
    const status = this.tasks.status(taskID);
    if (status || !this.options.log) return status;
    return (await this.options.log.holds(taskID)) ? 'notPublished' : undefined;
  }

  // --- replication (see replication.ts)

  /**
   * Sends every operation entering the state from now on to `target` too,
   * until the function returned is called; a target that has `published`
   * holds a queued task back until it says every replica applied it.
   */
  replicateTo(target: ReplicationTarget<Operation>): () => void {
    this.targets.add(target);
    this.gatePublishing();
    return () => {
      this.targets.delete(target);
      this.gatePublishing();
    };
  }

  private gatePublishing(): void {
    const gates = [...this.targets].filter((t) => t.published);
    this.tasks.publishedWhen = gates.length === 0 ? undefined : (taskID) => Promise.all(gates.map((t) => t.published!(taskID))).then(() => {});
  }

  private feed(entry: ReplicatedOp<Operation>): void {
    for (const target of this.targets) target.feed(entry);
  }

  /**
   * The state applied so far as snapshot bytes, captured between tasks like
   * a snapshot but neither stored nor encrypted, and changing nothing of
   * what is stored: what a replica starts from. `select` keeps part of it
   * (what a follower may receive).
   */
  async image(select: (state: SnapshotHeader) => SnapshotHeader = (state) => state): Promise<StateImage> {
    const state = select(await this.captured('replica'));
    const pieces: Uint8Array[] = [];
    for await (const piece of await (await Codec.create()).encodeSnapshot(state, yieldTurn)) pieces.push(piece);
    return { bytes: concat(pieces), lastTaskID: state.lastTaskID };
  }

  /**
   * A replica's start: loads the writer's image into the sections, in place
   * of what they held (a follower loading a newer one). A replica with a
   * store of its own (a follower's) stores it as its snapshot.
   */
  async loadImage({ bytes, lastTaskID }: StateImage): Promise<void> {
    // an image is never encrypted (see image)
    await this.replaceState(await decodeSnapshotOf<SnapshotHeader>(await Codec.create(), bytes, lastTaskID, yieldTurn), lastTaskID);
  }

  /** Puts a decoded snapshot's state in place of the sections' (once the tasks under way are done). */
  private async replaceState(state: SnapshotHeader, lastTaskID: number): Promise<void> {
    await this.tasks.idle();
    this.reset();
    await this.restore(state, false);
    this.lastApplied = lastTaskID;
    this.tasks.advancePast(lastTaskID);
    if (this.keepsLog) await this.snapshot();
  }

  /**
   * A replica applies one operation of the writer's stream, as the writer
   * did: a queued one through `runTask` (once the previous one is done: the
   * caller waits), skipped when the image holds it; any other at once. A
   * replica with a store of its own logs it first, under the writer's
   * taskID, and takes snapshots as the writer does.
   */
  async applyReplicated({ taskID, op, queued }: ReplicatedOp<Operation>): Promise<void> {
    this.tasks.advancePast(taskID);
    if (!queued && !this.keepsLog) return this.apply(op, taskID);
    if (queued && taskID <= this.lastApplied) return;
    if (!this.keepsLog) {
      await this.run(op, taskID);
      this.lastApplied = taskID;
      return;
    }
    await this.logged(taskID, op);
    if (!queued) return this.apply(op, taskID);
    // between two captures, as the writer's tasks are (a snapshot never holds half of it)
    await this.tasks.exclusive(() => this.applied(taskID, op));
  }

  /** Whether the storage keeps a log (a replica with one keeps what it applies). */
  private get keepsLog(): boolean { return this.storage.append !== undefined; }

  /** The last queued task applied. */
  get appliedThrough(): number { return this.lastApplied; }

  // --- recovery

  private async restore(state: SnapshotHeader, quarantine: boolean): Promise<string[]> {
    const setAside: string[] = [];
    for (const section of this.options.sections) {
      const names = await section.restore(state, { quarantine });
      if (names) setAside.push(...names);
    }
    return setAside;
  }

  /** Back to empty (a snapshot failed to load halfway). */
  private reset(): void {
    for (const section of this.options.sections) section.reset();
  }

  private replay(op: Logged<Operation>, taskID: number): void {
    if (this.options.replays && !this.options.replays(op, taskID)) return;
    this.apply(op, taskID);
  }

  // --- snapshots

  /** Writes a snapshot of everything applied so far (waits for queued writes first). */
  async snapshot(): Promise<void> {
    if (this.snapshotting) return this.snapshotting;
    this.snapshotting = (async () => {
      try {
        // a shared log stays every other node's source: nothing may be dropped as if this snapshot replaced it
        let state: SnapshotHeader | undefined = await this.captured(this.options.log ? 'replica' : 'store');
        const taskID = state.lastTaskID;
        this.appliedSinceSnapshot = 0;
        this.snapshotCaptured = true;
        const pieces = await this.codec.encodeSnapshot(state, yieldTurn);
        // the pieces hold what they still have to write, and nothing else does: the capture (a copy of
        // every core) is let go a section at a time as it is written, before the proof reads it back
        state = undefined;
        await this.storage.writeSnapshot({ taskID, pieces }, (stored) => this.prove(stored));
      } finally {
        this.snapshotting = undefined;
        this.snapshotCaptured = false;
      }
    })();
    return this.snapshotting;
  }

  /** Waits for every task, snapshot and append in flight, then closes the storage. */
  async close(): Promise<void> {
    await this.options.log?.close();
    await this.tasks.idle();
    await this.snapshotting;
    await this.logTail;
    await this.storage.close();
  }

  /**
   * The state, taken after the writes queued so far and before any newer
   * one: it cannot change while it is captured, and a steady stream of
   * writes cannot postpone it.
   */
  private captured(use: SnapshotUse): Promise<SnapshotHeader> {
    return this.tasks.exclusive(async () => {
      if (use === 'store') this.storage.snapshotStarted?.(this.lastApplied);
      const state: SnapshotHeader = { version: SNAPSHOT_FORMAT, lastTaskID: this.lastApplied };
      for (const section of this.options.sections) Object.assign(state, await section.snapshot(use));
      return state;
    });
  }

  /** Proves a stored snapshot before anything it supersedes is dropped: in a worker thread where it can, else here. */
  private async prove(stored: StoredSnapshot): Promise<void> {
    if (await this.options.proveElsewhere?.(stored)) {
      this.proofs.elsewhere++;
      return;
    }
    await this.proveBytes(await stored.read(), stored.taskID);
    this.proofs.here++;
  }

  /**
   * Proves a snapshot's bytes: they decode, say the task they were taken
   * at, and load into sections of their own (`prove` of the composition
   * root: every index into a core of its own, every record read), as a
   * restart would need them. Rejects with the reason they do not.
   */
  async proveBytes(stored: Uint8Array, taskID: number): Promise<void> {
    const state = await decodeSnapshotOf<SnapshotHeader>(this.codec, stored, taskID, yieldTurn);
    for (const section of this.options.sections) await section.prove?.(state);
  }

  private snapshotDue(): boolean {
    return !this.options.log && this.options.snapshotEvery > 0 && this.appliedSinceSnapshot >= this.options.snapshotEvery;
  }

  private autoSnapshot(): void {
    this.snapshot().catch((e) => console.error('lantern: automatic snapshot failed', e));
  }

  /**
   * A write stall: when the next snapshot is due while the one before it is
   * still being encoded and stored, writes wait for it before they are
   * applied, then start the due one. Otherwise a slow disk would let the log
   * grow past two snapshots' worth of writes.
   */
  private async afterSnapshotInFlight(): Promise<void> {
    if (!this.snapshotDue() || !this.snapshotCaptured) return;
    await this.snapshotting?.catch(() => {});
    this.autoSnapshot();
  }
}

/** Actions of a logged batch past which it is encoded and appended on a turn of its own (see logged). */
const LARGE_BATCH = 100;

const isLarge = (op: object) => 'actions' in op && Array.isArray(op.actions) && op.actions.length > LARGE_BATCH;

/** Runs a JSON check or encoding; what JSON cannot hold (only in-process callers can send it: a cycle, a BigInt) is a 400. */
function asJson<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw badRequest(`Invalid JSON: the write cannot be written as JSON (${String(e instanceof Error ? e.message : e).split('\n')[0]})`);
  }
}

/** A write the storage could not make durable is refused, not acknowledged: 507 when the disk is full, else 503. */
function refuseUnstored(e: unknown): never {
  if (isStorageWriteError(e)) throw new ApiError(e.diskFull ? 'disk_full' : 'unavailable', e.message);
  throw e;
}
