// A state section: one kind of state the durability module keeps (the
// indexes, security, analytics, clusters). The module knows nothing of what
// a section holds: it hands every logged operation to every section in
// order, merges their parts into a snapshot, gives each its part back at
// recovery and empties them all when a snapshot fails to load halfway. A new
// kind of state is a new section registered at the composition root
// (src/engine/engine.ts), and nothing else.

/** What a snapshot is taken for: to be stored, or as the image a replica starts from (src/durability/replication.ts). */
export type SnapshotUse = 'store' | 'replica';

/** Options of `restore`. */
export interface RestoreOptions {
  /**
   * Set aside what cannot be loaded (kept as it is stored, refused with a
   * clear error) instead of failing the whole snapshot; `restore` returns
   * the names of what it set aside.
   */
  quarantine: boolean;
}

export interface StateSection<Part extends object = object, Operation = unknown> {
  /**
   * Applies one logged operation, live or replayed, at the time it was
   * accepted; operations of other sections are ignored. Never half-done:
   * operations are checked before they are logged.
   */
  apply(op: Operation, taskID: number): void;
  /**
   * Its part of the engine's state (the fields of the snapshot it owns),
   * taken between tasks, for `use`: a snapshot to store, or the image a
   * replica starts from (which must change nothing of what is stored).
   */
  snapshot(use: SnapshotUse): Part | Promise<Part>;
  /**
   * Loads its part of a snapshot, in the current format (one of an older
   * format is upgraded before: see snapshot-upgrade.ts; fields an image
   * leaves out are undefined); throws when it cannot. Returns what it set aside.
   */
  restore(state: Partial<Part>, options: RestoreOptions): string[] | void | Promise<string[] | void>;
  /** Back to empty (a snapshot failed to load halfway, the next one is tried). */
  reset(): void;
  /**
   * Checks that its part of a snapshot just stored loads, as a restart would
   * need it, without changing itself (rejects when it does not).
   */
  prove?(state: Partial<Part>): Promise<void>;
}
