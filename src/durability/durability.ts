// Durability: what makes an accepted write survive. This module owns
//
// - the one write path: every write is appended to the operation log
//   (operation-log.ts: the storage's own, a memory store's, a refusing one
//   for followers and read-only stores, or a cluster's shared log), which
//   gives it its taskID, holds it durably and hands it back; it is
//   acknowledged then;
// - the one apply path (handOver): what the log hands over, this engine's
//   entries and, on a shared log, every other node's, is queued (records,
//   settings: applied in order, one task at a time) or applied at once
//   (keys, analytics);
// - snapshots: taken every `snapshotEvery` entries and on demand, captured
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
// them through the same `apply` (a replica with a store of its own records
// them in its log under the writer's taskIDs).
import { ApiError } from '../util/errors.js';
import { Codec } from './persistence.js';
import { decodeSnapshotOf, recover, type Recovered } from './recovery.js';
import { TaskQueue, type TaskStatus } from './task-queue.js';
import { yieldTurn } from '../util/turns.js';
import type { WritePacer } from '../engine/write-pacer.js';
import { StoreDamagedError } from '../storage/errors.js';
import type { Storage, StoredSnapshot } from '../storage/storage.js';
import type { SnapshotUse, StateSection } from './state-section.js';
import type { ReplicatedOp, ReplicationTarget, StateImage } from './replication.js';
import { concat } from '../util/bytes.js';
import { LogTrimmedError, SharedOperationLog, type SharedLog } from './shared-log.js';
import { asJson, MemoryLog, RefusingLog, type HandedEntry, type Logged, type OperationLog } from './operation-log.js';
import { assertJson } from '../util/json-check.js';
import { StorageLog } from './storage-log.js';
import { SNAPSHOT_FORMAT } from './snapshot-upgrade.js';

export type { Logged } from './operation-log.js';

/** What every snapshot holds besides the sections' parts. */
export interface SnapshotHeader {
  /** Its format (see snapshot-upgrade.ts: a snapshot of an older one is upgraded as it is decoded). */
  version: typeof SNAPSHOT_FORMAT;
  /** The last task the snapshot holds (a snapshot is taken between tasks). */
  lastTaskID: number;
}

export interface DurabilityOptions<Operation> {
  storage: Storage;
  /** Encrypts the log and snapshots (AES-GCM). */
  encryptionKey?: string | Uint8Array;
  /**
   * A snapshot is taken after this many entries of the log, queued or
   * applied at once (0: only on `snapshot()`): a server that only answers
   * searches logs their events, and its log would otherwise grow for good.
   */
  snapshotEvery: number;
  /** Records the task queue may hold before an acknowledgement waits for room. */
  maxQueuedRecords: number;
  /** Opens a damaged store with what can be kept (see recovery.ts). */
  repair: boolean;
  /**
   * Refuses (throws a 400) an operation a snapshot could not hold exactly;
   * called before it is logged. The sections' rule (the composition root
   * passes src/index/storable.ts's): what they hold is theirs to say.
   */
  check?: (op: object) => void;
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
  /** Where every write goes to become durable (chosen at open: see operationLog). */
  private log!: OperationLog<Operation>;
  /** What opening found damaged and recovered from (empty for a sound store). */
  recovery: Recovered = { lastTaskID: 0, problems: [], lost: [], fellBack: false, unusable: { snapshots: [], logRecords: [] }, setAside: [] };
  private codec!: Codec;
  private lastApplied = 0;
  /**
   * The last entry applied at once (keys, analytics): a snapshot holds it,
   * so the log after the snapshot need not (a server that only answers
   * searches logs nothing else, and its log would never be compacted).
   */
  private lastAppliedAtOnce = 0;
  /** The last queued entry handed over: until it is applied, an entry applied at once after it is not all a capture holds. */
  private lastQueuedHanded = 0;
  /** The last entry handed over (a snapshot is due when one crosses a multiple of snapshotEvery, on a shared log). */
  private lastHanded = 0;
  /** Entries handed over since the last snapshot was captured (see snapshotEvery). */
  private entriesSinceSnapshot = 0;
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
    this.log = this.operationLog();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.recovered();
        await this.followed();
        break;
      } catch (e) {
        // a shared log moves on while a node loads it (other nodes store newer snapshots, delete older ones, trim the log): load the newest again
        const movedOn = e instanceof LogTrimmedError || e instanceof StoreDamagedError;
        if (!this.log.shared || !movedOn || attempt >= 3) throw e;
        await this.tasks.idle(); // what the attempt queued runs on the state it was queued for, then goes with it
        this.reset();
      }
    }
    // a store recovered from an older snapshot, or repaired, stands on a new one from now on
    if (this.recovery.fellBack || (this.options.repair && this.recovery.problems.length > 0)) await this.snapshot();
  }

  /**
   * The log this engine writes to: a cluster's shared log; a follower's,
   * refusing its own writes and recording what its server sends; a
   * read-only storage's, refusing them; the storage's own; or none kept.
   */
  private operationLog(): OperationLog<Operation> {
    const { log, follows, storage, pacer } = this.options;
    if (log) return new SharedOperationLog<Operation>(log, this.codec, pacer);
    const own = storage.append ? new StorageLog<Operation>(storage.append.bind(storage), this.codec, pacer, storage.appendsInCallOrder === true) : new MemoryLog<Operation>();
    if (follows !== undefined) return new RefusingLog<Operation>(() => new ApiError('follower', follows), own);
    if (storage.readOnly !== undefined) return new RefusingLog<Operation>(() => new ApiError('unavailable', storage.readOnly!));
    return own;
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

  // --- writes: one path, whatever the log

  /**
   * Logs a write durably, then queues it; resolves with its taskID once it
   * is durable and the queue has room for it. `weight`: the records it
   * writes (1 for any other write); `group`: writes of one group (an index)
   * are waited for together.
   */
  async write(operation: Operation, weight = 1, group?: string): Promise<number> {
    const taskID = await this.appended({ ...operation, at: Date.now() }, { queued: true, weight, ...(group === undefined ? {} : { group }) }, operation);
    // backpressure: a writer faster than indexing waits (its write is durable) instead of growing the queue without bound
    await this.tasks.roomFor(this.options.maxQueuedRecords);
    return taskID;
  }

  /**
   * Logs a change durably and applies it at once (no task to wait for). Such
   * changes (keys, analytics) are idempotent: a snapshot taken before the
   * queue reaches this taskID replays it harmlessly. Resolves with the taskID.
   */
  writeNow(op: Operation): Promise<number> {
    return this.appended(op, { queued: false, weight: 1 });
  }

  /**
   * Logs an operation already applied (search events recorded on the spot):
   * it needs neither applying again nor the checks of what callers send. An
   * engine whose own writes are refused (a follower, a read-only store)
   * keeps it in memory only: resolves with 0. On a shared log that cannot be
   * reached this rejects, and the caller keeps what it holds (see
   * AnalyticsState.flush).
   */
  async logApplied(op: Operation): Promise<number> {
    if (!this.log.writes) return 0;
    return this.log.append(op, { queued: false, weight: 1, applied: true });
  }

  /**
   * Refused writes are refused before anything is checked; what a snapshot
   * could not hold is a 400 before it is logged (what is not JSON at all,
   * which the check sees as nested too deep or worse, says so). `given`:
   * the operation as the caller gave it, which the check sees (the check may
   * know it: see withCheckedBodies); `op` adds only the time it was written.
   */
  private appended(op: Logged<Operation>, shape: { queued: boolean; weight: number; group?: string }, given: Operation = op): Promise<number> {
    const refused = this.log.refusal();
    if (refused) return Promise.reject(refused);
    try {
      this.options.check?.(given);
    } catch (e) {
      return Promise.reject(notJson(given) ?? e);
    }
    return this.log.append(op, shape);
  }

  /** Resolves once every accepted write is applied. */
  waitForTasks(): Promise<void> { return this.tasks.idle(); }

  /** Applies a queued write; `snapshotAfter`: a snapshot is due once it is applied (shared log). */
  private async applied(taskID: number, op: Logged<Operation>, snapshotAfter = false): Promise<void> {
    await this.afterSnapshotInFlight();
    // replicas apply it alongside: it is published once they all did (TaskQueue.publishedWhen)
    this.feed({ taskID, op, queued: true });
    try {
      await this.run(op, taskID);
    } finally {
      this.passed(taskID, snapshotAfter);
    }
  }

  /** Notes queued task `taskID` as done with (applied, failed, or skipped unread), and takes a snapshot if one is due. */
  private passed(taskID: number, snapshotAfter: boolean): void {
    this.lastApplied = taskID;
    this.entriesSinceSnapshot++;
    if (snapshotAfter || this.snapshotDue()) this.autoSnapshot();
  }

  private async run(op: Logged<Operation>, taskID: number): Promise<void> {
    if (this.options.runTask) await this.options.runTask(op, taskID);
    else this.apply(op, taskID);
  }

  // --- what the log hands over: every entry, this engine's and (on a shared log) every other node's

  /** Follows the log from the state loaded; resolves once what it held is applied. */
  private async followed(): Promise<void> {
    this.lastHanded = this.lastApplied;
    await this.log.follow(this.lastApplied, (entry) => this.handOver(entry), () => void this.rejoined());
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
   * An entry the log hands over, in its order: a queued write goes to the
   * task queue, decoded when it runs (another node's once the queue has
   * room: a node behind holds the log back, not its memory); any other is
   * applied at once (unless this engine applied it already), and passed on.
   */
  private async handOver(entry: HandedEntry<Operation>): Promise<void> {
    const { taskID, queued, weight, group, own } = entry;
    const snapshotAfter = this.reachesSnapshotMark(taskID, own);
    this.lastHanded = taskID;
    if (queued) {
      if (!own) await this.tasks.roomFor(this.options.maxQueuedRecords);
      this.lastQueuedHanded = taskID;
      this.tasks.advancePast(taskID);
      const task = async () => this.applied(taskID, await this.readQueued(entry, taskID, snapshotAfter), snapshotAfter);
      this.tasks.schedule(taskID, task, (e) => console.error(`lantern: task ${taskID} failed`, e), group, weight);
      return;
    }
    this.tasks.advancePast(taskID);
    let op: Logged<Operation>;
    try {
      op = await entry.operation();
    } catch (e) {
      console.error(`lantern: task ${taskID} cannot be read; it is skipped`, e);
      return;
    }
    if (!entry.applied) this.apply(op, taskID);
    this.lastAppliedAtOnce = taskID;
    this.feed({ taskID, op, queued: false });
    this.entriesSinceSnapshot++;
    if (snapshotAfter || this.snapshotDue()) this.autoSnapshot();
  }

  /**
   * A queued entry's operation, read as its task runs. One that cannot be
   * read (another node's, under a key this one lacks) is skipped like an
   * entry applied at once: the state holds all it ever will of it, so a
   * snapshot may be named past it (else every later one would be named
   * before it, and a restart would apply again what it holds after it).
   */
  private async readQueued(entry: HandedEntry<Operation>, taskID: number, snapshotAfter: boolean): Promise<Logged<Operation>> {
    try {
      return await entry.operation();
    } catch (e) {
      this.passed(taskID, snapshotAfter);
      throw e;
    }
  }

  /**
   * On a shared log, whether `taskID`, this node's entry handed over after
   * `lastHanded`, is the one that reaches a multiple of snapshotEvery: the
   * node that wrote it stores the snapshot (one node does).
   */
  private reachesSnapshotMark(taskID: number, own: boolean): boolean {
    const every = this.options.snapshotEvery;
    return this.log.shared && own && every > 0 && Math.floor(taskID / every) > Math.floor(this.lastHanded / every);
  }

  /** A task's status; one this node was not handed yet is `notPublished` when the shared log holds it. */
  async taskStatus(taskID: number): Promise<TaskStatus | undefined> {
    const status = this.tasks.status(taskID);
    if (status) return status;
    return (await this.log.holds(taskID)) ? 'notPublished' : undefined;
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
    if (this.log.keeps) await this.snapshot();
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
    if (!queued && !this.log.keeps) return this.apply(op, taskID);
    if (queued && taskID <= this.lastApplied) return;
    if (!this.log.keeps) {
      await this.run(op, taskID);
      this.lastApplied = taskID;
      return;
    }
    await this.log.record(taskID, op);
    if (!queued) return this.apply(op, taskID);
    // between two captures, as the writer's tasks are (a snapshot never holds half of it)
    await this.tasks.exclusive(() => this.applied(taskID, op));
  }

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
    this.lastAppliedAtOnce = 0;
    this.lastQueuedHanded = 0;
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
        let state: SnapshotHeader | undefined = await this.captured(this.log.shared ? 'replica' : 'store');
        const taskID = state.lastTaskID;
        this.entriesSinceSnapshot = 0;
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
    await this.log?.close();
    await this.tasks.idle();
    await this.snapshotting;
    await this.storage.close();
  }

  /**
   * The last entry the state holds with every one before it: the last
   * queued task applied, or, once every queued entry handed over is
   * applied, the last entry applied at once. A capture waits for the tasks
   * queued when it was asked for, not for those handed over while it
   * waited, and an entry applied at once may follow one of those.
   */
  private lastHeld(): number {
    return this.lastQueuedHanded <= this.lastApplied ? Math.max(this.lastApplied, this.lastAppliedAtOnce) : this.lastApplied;
  }

  /**
   * The state, taken after the writes queued so far and before any newer
   * one: it cannot change while it is captured, and a steady stream of
   * writes cannot postpone it.
   */
  private captured(use: SnapshotUse): Promise<SnapshotHeader> {
    return this.tasks.exclusive(async () => {
      const lastTaskID = this.lastHeld();
      if (use === 'store') this.storage.snapshotStarted?.(lastTaskID);
      const state: SnapshotHeader = { version: SNAPSHOT_FORMAT, lastTaskID };
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
    return !this.log.shared && this.options.snapshotEvery > 0 && this.entriesSinceSnapshot >= this.options.snapshotEvery;
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

/** The 400 for an operation JSON cannot hold (a cycle, a BigInt: only in-process callers can send them), if it is one. */
function notJson(op: object): unknown {
  try {
    asJson(() => assertJson(op));
    return undefined;
  } catch (e) {
    return e;
  }
}
