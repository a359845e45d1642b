// What the engine needs from persistence: an ordered, durable log of opaque
// records (one write operation each) and snapshots of the whole state, each
// tagged with the last taskID it contains. Adapters know nothing about search
// or about what the bytes mean; they report what they find damaged and let
// the engine decide whether that loses anything.

/** A record of the write log: one write operation, encoded. */
export interface Entry {
  /** The task the write is. */
  taskID: number;
  /** The write, encoded by the engine; opaque to the storage. */
  bytes: Uint8Array;
}

/** A snapshot to store: its bytes are the pieces end to end (a large one is never one array). */
export interface SnapshotEntry {
  taskID: number;
  /** Read once, in order; a piece may be let go once written (they are encoded as they are asked for). */
  pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
}

/** Something an adapter found damaged or out of place while opening. */
export interface Damage {
  /** One line for an operator: which file, what is wrong. */
  what: string;
  /**
   * For damaged log records: the tasks they may have held lie strictly
   * between `after` and `before` (no `before`: the log's tail, a write that
   * was torn before it was acknowledged).
   */
  log?: { after: number; before?: number };
  /** Nothing tells what was lost (the manifest itself is unreadable): opening needs a repair. */
  unknownLoss?: boolean;
}

/** A stored snapshot, read only when the engine needs it (an older one usually is not). */
export interface StoredSnapshot {
  taskID: number;
  /** Its bytes; rejects with the reason when it is missing or not the file written. */
  read(): Promise<Uint8Array>;
  /** The file it is in, when it is one (a snapshot's proof may read it in a worker thread), and its length. */
  file?: string;
  bytes?: number;
}

/** What a storage found when it opened: the snapshots and log records to load, and what it found damaged. */
export interface StoredState {
  /** Snapshots, newest first (the engine falls back to an older one when one is unreadable). */
  snapshots: StoredSnapshot[];
  /** Intact log records in order (damaged ones are skipped, and listed in `damage`). */
  log: Entry[];
  /** What was found damaged or out of place; the engine decides whether it loses anything. */
  damage: Damage[];
  /**
   * The store has stood on a snapshot: without one that loads, the log alone
   * is not the whole history.
   */
  needsSnapshot: boolean;
  /**
   * Sets aside what cannot be used, never deleting a byte of it: the damaged
   * log bytes found, and the pieces the engine could not use (`unusable`);
   * then removes leftovers of interrupted writes. The engine calls it once it
   * has read everything and judged it: a wrong or missing encryption key, or
   * damage that needs a repair, must change nothing. Resolves with one line
   * per thing set aside, saying where it went.
   */
  repair?: (unusable: Unusable) => Promise<string[]>;
}

/** Stored pieces whose bytes are intact as stored but could not be used (they do not decode or load). */
export interface Unusable {
  /** Snapshots, by the task they were taken after. */
  snapshots: number[];
  /** Log records, by task. */
  logRecords: number[];
}

/** What the engine tells a storage of an append. */
export interface AppendOptions {
  /**
   * The engine waits for this record before it does anything else with the
   * write: the storage may make it durable on this thread at once rather
   * than elsewhere (a thread pool's fsync), which would only add the hops
   * there and back. Otherwise the engine goes on with other work meanwhile.
   */
  atOnce?: boolean;
}

/**
 * Where an engine keeps its data: `memoryStorage()`, `fsStorage(dir)`,
 * `idbStorage(name)`, or your own. An ordered, durable log of opaque write
 * records and snapshots of the whole state, each tagged with its last task.
 */
export interface Storage {
  /** Reads what is stored (taking the store's lock, where it has one). */
  open(): Promise<StoredState>;
  /**
   * Resolves once the record is durable. A storage without it keeps no log:
   * the engine then encodes no write (what it keeps lives until the process
   * ends or a snapshot is stored). A record that cannot be made durable
   * rejects with a StorageWriteError and leaves the log as it was.
   */
  append?(entry: Entry, options?: AppendOptions): Promise<void>;
  /**
   * `append` puts each record in the log in the order it is called, at
   * once or after the ones before it, so it may be called again before the
   * last call resolved: records appended meanwhile can be made durable
   * together (the file store's group commit). Without it, the engine waits
   * for each record to be durable before it appends the next. A failure
   * may fail the other records not durable yet with it (a failed fsync
   * fails them all: the log is cut back to what was durable).
   */
  readonly appendsInCallOrder?: boolean;
  /**
   * Set (to the reason) when the storage is open read-only: the engine
   * refuses writes with a 503 before logging them, and keeps the records it
   * makes itself (search events) in memory only.
   */
  readOnly?: string;
  /**
   * A snapshot of everything up to `taskID` is being taken: records appended
   * from now on may start a new part of the log, which the snapshot will not
   * need to keep.
   */
  snapshotStarted?(taskID: number): void;
  /**
   * Stores a snapshot (its pieces end to end, written without holding the
   * main thread for the whole of it) and hands it, as stored, to `prove`
   * (which reads it back and rejects when it does not load). Only once proven does it replace
   * what it supersedes: every snapshot but this one and the previous, and the
   * log records the previous one already contains. A snapshot that fails its
   * proof is removed and the rejection passes through.
   */
  writeSnapshot(snapshot: SnapshotEntry, prove: (stored: StoredSnapshot) => Promise<void>): Promise<void>;
  /** Releases the store (its lock, its files or database) once the engine is done with it. */
  close(): Promise<void>;
}

/** Snapshots kept: the newest, and one to fall back to. */
export const SNAPSHOTS_KEPT = 2;

/** Keeps nothing: an engine that lives as long as its process. */
export function memoryStorage(): Storage {
  return {
    open: async () => ({ snapshots: [], log: [], damage: [], needsSnapshot: false }),
    writeSnapshot: async () => {},
    close: async () => {},
  };
}
