// The operation log: the one path every write takes to become durable. The
// durability module appends an operation and gets its taskID back once the
// log holds it durably and has handed it over; the log hands every entry, in
// its order, to the one callback that applies it (Durability's handOver),
// the entries this engine appended included. So there is one apply path
// whatever keeps the log:
//
// - StorageLog (storage-log.ts): the storage's own log (a file, IndexedDB).
//   It gives each entry its taskID, appends it (fsync'd), hands it back.
// - MemoryLog (below): an engine that keeps nothing. It gives taskIDs and
//   hands entries back without encoding them.
// - RefusingLog (below): a follower's, or a read-only storage's. Its own
//   writes are refused; a follower still records what its server sends.
// - SharedOperationLog (shared-log.ts): a log every node of a cluster
//   appends to (NATS JetStream). It gives taskIDs; it hands every node's
//   entries to every node.
import { ApiError, badRequest } from '../util/errors.js';
import { assertJson } from '../util/json-check.js';
import { yieldTurn } from '../util/turns.js';
import type { Codec } from './persistence.js';
import { isBatch, writeBatch, type Batch, type LoggedBatch } from './batch-text.js';

/** An operation as the log holds it: stamped with the time it was accepted (queued writes). */
export type Logged<Operation> = Operation & { at?: number };

/** How an entry is applied, said when it is appended and handed back with it. */
export interface EntryShape {
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
  /** Applied already by the engine that appends it (a search event recorded on the spot): handed back to be passed on, not applied again. */
  applied?: boolean;
}

/** An entry the log hands over, in its order. */
export interface HandedEntry<Operation> extends EntryShape {
  /** Its place in the log: the taskID every engine reading the log gives it. */
  taskID: number;
  /** Appended by this engine (the engine that wrote it stores the snapshot due after it, on a shared log). */
  own: boolean;
  /** The operation, decoded when asked for (a queued write is decoded when it runs, not while it waits). */
  operation(): Logged<Operation> | Promise<Logged<Operation>>;
}

/** Hands an entry to the engine; the log hands over the next once the promise settles. */
export type Deliver<Operation> = (entry: HandedEntry<Operation>) => Promise<void>;

export interface OperationLog<Operation> {
  /**
   * Other engines append to it too (a cluster's shared log): every snapshot
   * is a replica's kind (nothing may be dropped as if it replaced the log),
   * and one is due every `snapshotEvery` entries, stored by the engine that
   * wrote the entry reaching the mark.
   */
  readonly shared: boolean;
  /** It keeps what it records: a replica with a log of its own logs what it applies, and stands on snapshots. */
  readonly keeps: boolean;
  /**
   * It takes this engine's own writes at all (a follower's and a read-only
   * store's never do: the search events such an engine records stay in
   * memory). One that takes them may still refuse them for a while (`refusal`).
   */
  readonly writes: boolean;
  /** Why this engine's own writes are refused now (the error they get); undefined while they are taken. */
  refusal(): ApiError | undefined;
  /**
   * Appends an operation; resolves with its taskID once the log holds it
   * durably and has handed it over (here too): what this engine answers
   * next holds it. Rejects with an ApiError when it is refused (`refusal`),
   * when it cannot be written as JSON (400), or cannot be made durable
   * (503, 507 for a full disk); the log is then as it was.
   */
  append(op: Logged<Operation>, shape: EntryShape): Promise<number>;
  /**
   * Hands every entry after task `after` to `deliver` from now on, in order,
   * one at a time; resolves once the entries the log held are handed over.
   * `trimmed`: the log was trimmed past this engine (see SharedLog.follow).
   */
  follow(after: number, deliver: Deliver<Operation>, trimmed?: () => void): Promise<void>;
  /** Stores an operation another engine gave `taskID` (a replica keeping a copy of what it applies); no-op when it keeps nothing. */
  record(taskID: number, op: Logged<Operation>): Promise<void>;
  /** Whether it holds task `taskID` (asked of one not handed over yet). */
  holds(taskID: number): Promise<boolean>;
  /** Resolves once every append under way is done; stops following. */
  close(): Promise<void>;
}

/**
 * What the local logs share: taskIDs given in append order, and the engine's
 * `deliver` to hand their entries to, once it follows.
 */
export abstract class LocalLog<Operation> implements OperationLog<Operation> {
  readonly shared = false;
  readonly writes: boolean = true;
  abstract readonly keeps: boolean;
  protected next = 1;
  private deliver: Deliver<Operation> | undefined;

  refusal(): ApiError | undefined { return undefined; }

  abstract append(op: Logged<Operation>, shape: EntryShape): Promise<number>;

  /** A local log's entries were replayed at recovery: it hands over only what is appended from now on. */
  async follow(after: number, deliver: Deliver<Operation>): Promise<void> {
    if (after >= this.next) this.next = after + 1;
    this.deliver = deliver;
  }

  async record(_taskID: number, _op: Logged<Operation>): Promise<void> {}

  async holds(): Promise<boolean> { return false; }

  async close(): Promise<void> {}

  /** Hands an entry this engine appended back to it. */
  protected handBack(taskID: number, shape: EntryShape, operation: () => Logged<Operation>): Promise<void> {
    if (!this.deliver) throw new Error('the log is appended to before the engine follows it');
    return this.deliver({ ...shape, taskID, own: true, operation });
  }
}

/**
 * The log of an engine that keeps nothing (memory storage): taskIDs, and
 * entries handed back as they are. Nothing is encoded (building a batch's
 * JSON only to drop it took a third of indexing), but what a logging engine
 * could not write is refused alike.
 */
export class MemoryLog<Operation extends object> extends LocalLog<Operation> {
  readonly keeps = false;

  async append(op: Logged<Operation>, shape: EntryShape): Promise<number> {
    if (!shape.applied) asJson(() => assertJson(op));
    const taskID = this.next++;
    await this.handBack(taskID, shape, () => op);
    return taskID;
  }
}

/**
 * The log of an engine whose own writes are refused: a follower's (it
 * applies only what its server sends, and records that in `recording`, its
 * storage's log, when it has one) or a read-only storage's.
 */
export class RefusingLog<Operation extends object> extends LocalLog<Operation> {
  override readonly writes = false;
  readonly keeps: boolean;

  constructor(private readonly error: () => ApiError, private readonly recording?: OperationLog<Operation>) {
    super();
    this.keeps = recording?.keeps ?? false;
  }

  override refusal(): ApiError { return this.error(); }

  append(): Promise<number> { return Promise.reject(this.error()); }

  override record(taskID: number, op: Logged<Operation>): Promise<void> {
    return this.recording?.record(taskID, op) ?? Promise.resolve();
  }

  override async close(): Promise<void> { await this.recording?.close(); }
}

/** Actions of a logged batch past which it is encoded on a turn of its own, an action at a time (see encodeForLog). */
const LARGE_BATCH = 100;

export const isLarge = (op: object): op is Batch => isBatch(op) && op.actions.length > LARGE_BATCH;

/** An operation as a log stores it: its bytes, and for a large batch, where each action is in them (each record's bytes go with it when it runs). */
export interface EncodedOperation { bytes: Uint8Array; batch?: LoggedBatch }

/**
 * Encodes an operation for a log: a large batch on a turn of its own
 * (searches waiting run first) an action at a time (see batch-text.ts),
 * its UTF-8 kept for the records' bytes. What JSON cannot hold is a 400.
 */
export async function encodeForLog(codec: Codec, op: object): Promise<EncodedOperation> {
  if (!isLarge(op)) return { bytes: await asJson(() => codec.encodeOperation(op)) };
  await yieldTurn();
  const { sealed, utf8, written } = await asJson(() => codec.encodeOperationWith((writer) => writeBatch(op, writer)));
  return { bytes: sealed, batch: { utf8, ...written } };
}

/** Runs a JSON check or encoding; what JSON cannot hold (only in-process callers can send it: a cycle, a BigInt) is a 400. */
export function asJson<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw badRequest(`Invalid JSON: the write cannot be written as JSON (${String(e instanceof Error ? e.message : e).split('\n')[0]})`);
  }
}
