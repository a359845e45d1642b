// What the engine needs from persistence: an ordered, durable log of opaque
// records (one write operation each) and snapshots of the whole state, each
// tagged with the last taskID it contains. Adapters know nothing about search
// or about what the bytes mean.

export interface Entry {
  taskID: number;
  bytes: Uint8Array;
}

export interface StoredState {
  /** Snapshots, newest first (the engine falls back to an older one when one is corrupt). */
  snapshots: Entry[];
  /** Log records in order; what follows a torn or corrupt record is dropped and reported. */
  log: Entry[];
  /**
   * Removes the torn or corrupt tail found by `open`. The engine calls it once
   * it has read everything (a wrong encryption key must change nothing).
   */
  repair?: () => Promise<void>;
}

export interface Storage {
  open(): Promise<StoredState>;
  /**
   * Resolves once the record is durable. A storage without it keeps no log:
   * the engine then encodes no write (what it keeps lives until the process
   * ends or a snapshot is stored).
   */
  append?(entry: Entry): Promise<void>;
  /**
   * Stores a snapshot atomically, then drops what is no longer needed: every
   * snapshot but this one and the previous, and the log records the previous
   * one already contains.
   */
  writeSnapshot(snapshot: Entry): Promise<void>;
  close(): Promise<void>;
}

/** Snapshots kept: the newest, and one to fall back to. */
export const SNAPSHOTS_KEPT = 2;

/** Keeps nothing: an engine that lives as long as its process. */
export function memoryStorage(): Storage {
  return {
    open: async () => ({ snapshots: [], log: [] }),
    writeSnapshot: async () => {},
    close: async () => {},
  };
}
