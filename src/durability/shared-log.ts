// A log shared by the nodes of a cluster (cluster mode: src/nats/, a NATS
// JetStream stream), and the operation log over it (SharedOperationLog: see
// operation-log.ts for the other kinds of log durability writes to). A
// storage's own log (a file, IndexedDB) is written by one engine, which
// gives each write its taskID and applies it once it is durable. A shared
// log is written by every node: it gives each entry its taskID (its
// position in the log) when it holds it durably, and hands every entry to
// every node in that order, the node's own entries included. A node applies
// what it wrote when the log hands it back, as every other node does, so
// every node applies the same entries in the same order under the same
// taskIDs, through the one apply path (Durability's handOver). Snapshots still go to
// the engine's `Storage` (a NATS object store in cluster mode), tagged with
// the last taskID they hold; a node starts from the newest and follows the
// log after it.

import { ApiError } from '../util/errors.js';
import type { WritePacer } from '../engine/write-pacer.js';
import type { Codec } from './persistence.js';
import { encodeForLog, type Deliver, type EntryShape, type Logged, type OperationLog } from './operation-log.js';

/** An entry of a shared log. */
export interface SharedEntry {
  /** Its position in the log: the task ID every node gives it. */
  taskID: number;
  /** The operation, as the engine's codec encodes it for a log. */
  bytes: Uint8Array;
  /**
   * A queued write (records, settings...), applied in taskID order by the
   * task queue; otherwise an immediate one (keys, analytics, dictionaries,
   * search events), idempotent and applied as soon as it is handed over.
   */
  queued: boolean;
  /** What a queued write weighs in the task queue (records of a batch; 1 otherwise). */
  weight: number;
  /** The index a queued write writes to (its tasks are counted per index). */
  group?: string;
  /** Appended by this node (the node that wrote it stores the snapshot due after it). */
  own: boolean;
}

/** What a node appends: an entry before the log gives it its place. */
export type NewEntry = Omit<SharedEntry, 'taskID' | 'own'>;

/** A log of writes several engines share and apply in its order (a NATS JetStream stream): `Lantern.open({ sharedLog })`. */
export interface SharedLog {
  /**
   * Why writes are refused now (the log cannot be reached, say), in a
   * sentence for the caller; undefined while they are taken. Reads go on.
   */
  readonly unavailable: string | undefined;
  /**
   * Appends an entry; resolves with its taskID once the log holds it
   * durably (the entry is handed to `follow`'s callback on every node,
   * this one included, possibly before this resolves). Rejects with an
   * `ApiError` when it cannot: 503 while the log cannot be reached, 413 for
   * an entry larger than it takes.
   */
  append(entry: NewEntry): Promise<number>;
  /**
   * Hands every entry after task `after` to `deliver`, in order, one at a
   * time (the next once the promise `deliver` returned settled), from now
   * until `close`. Resolves once the entries the log held when called are
   * handed over (the node has caught up). Rejects with a `LogTrimmedError`
   * when the log no longer holds the entry after `after`. `trimmed` is
   * called when, later, the log was trimmed past the entries this node was
   * to read next (it was away from the log for long): following has
   * stopped, writes are refused, and the node starts again from a newer
   * snapshot and calls `follow` again.
   */
  follow(after: number, deliver: (entry: SharedEntry) => Promise<void>, trimmed?: () => void): Promise<void>;
  /** Whether the log holds task `taskID` (a node asked about a task it was not handed yet). */
  holds(taskID: number): Promise<boolean>;
  /** Stops following and lets go of the log. */
  close(): Promise<void>;
}

/** The log was trimmed past the entries a node needs next: it must start again from a newer snapshot. */
export class LogTrimmedError extends Error {
  /** `'LogTrimmedError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'LogTrimmedError';
  /**
   * @param after - the last task this node holds.
   * @param first - the first task the log still holds.
   */
  constructor(readonly after: number, readonly first: number) {
    super(`the log was trimmed: it starts at task ${first}, and this node needs task ${after + 1} next`);
  }
}

const ignore = () => {};

/**
 * A shared log as the engine's operation log: operations encoded with the
 * engine's codec (its key), entries decoded when the engine asks for them,
 * and an append resolved once the log handed the entry back to this node
 * (read your writes).
 */
export class SharedOperationLog<Operation extends object> implements OperationLog<Operation> {
  readonly shared = true;
  readonly keeps = false;
  readonly writes = true;
  /** Entries handed over so far (through this taskID), and appends waiting for theirs. */
  private handed = { through: 0, waiting: [] as Array<{ taskID: number; resume: () => void }> };
  /** Resolves once the last append asked for has been passed to the log (see append). */
  private lastSent: Promise<void> = Promise.resolve();

  constructor(private readonly log: SharedLog, private readonly codec: Codec, private readonly pacer: WritePacer) {}

  refusal(): ApiError | undefined {
    return this.log.unavailable === undefined ? undefined : new ApiError('unavailable', this.log.unavailable);
  }

  async append(op: Logged<Operation>, { applied: _applied, ...shape }: EntryShape): Promise<number> {
    const refused = this.refusal();
    if (refused) throw refused;
    const started = performance.now();
    const encoded = encodeForLog(this.codec, op).then((e) => {
      this.pacer.charge(performance.now() - started);
      return e;
    });
    // encodings end in any order (encryption is asynchronous), appends start in call order: entries written
    // together (a flush's batches of search events) reach the log, and every node, in the order they were written
    const sent = Promise.all([encoded, this.lastSent]).then(([{ bytes }]) => ({ appended: this.log.append({ ...shape, bytes }) }));
    this.lastSent = sent.then(ignore, ignore);
    const taskID = await (await sent).appended;
    if (taskID > this.handed.through) await new Promise<void>((resume) => this.handed.waiting.push({ taskID, resume }));
    return taskID;
  }

  follow(after: number, deliver: Deliver<Operation>, trimmed?: () => void): Promise<void> {
    this.handed.through = after;
    return this.log.follow(after, async ({ bytes, ...entry }) => {
      await deliver({ ...entry, operation: async () => await this.codec.decodeOperation(bytes) as Logged<Operation> });
      this.handedThrough(entry.taskID);
    }, trimmed);
  }

  async record(): Promise<void> {}

  holds(taskID: number): Promise<boolean> { return this.log.holds(taskID); }

  close(): Promise<void> { return this.log.close(); }

  private handedThrough(taskID: number): void {
    this.handed.through = taskID;
    const still = this.handed.waiting.filter((w) => w.taskID > taskID);
    for (const w of this.handed.waiting) if (w.taskID <= taskID) w.resume();
    this.handed.waiting = still;
  }
}
