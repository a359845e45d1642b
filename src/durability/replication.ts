// The replication seam: the writer's operations as a stream a replica
// applies. A replica is an engine that starts from an image of the writer's
// state (snapshot bytes, `Durability.image`) and then applies every operation
// that enters the writer's state, in the order the writer applies them,
// through the same `apply` (`Durability.applyReplicated`). Read workers
// (src/replication/) are the first replicas; a node applying a shared log
// is fed the same entries, and so is a follower tailing a server over HTTP
// (src/follow/: the server's feed is a target, the follower applies them).
// A writer may have several targets (read workers and followers' feed).

/** One operation of the stream, with the taskID the log gives it. */
export interface ReplicatedOp<Operation> {
  taskID: number;
  /** As logged: stamped with the time it was accepted (durability.ts, `Logged`). */
  op: Operation & { at?: number };
  /**
   * A queued write (records, settings...): queued ones arrive in taskID
   * order, are applied one after another as the writer ran them, and are
   * published once every replica applied them. The others (keys, analytics,
   * dictionaries, search events already recorded) are idempotent and
   * applied on arrival: an image may already hold them.
   */
  queued: boolean;
}

/** Where the writer sends its stream (the replicas, through whatever carries it). */
export interface ReplicationTarget<Operation> {
  /** An operation entering the writer's state, in the order it does. */
  feed(entry: ReplicatedOp<Operation>): void;
  /**
   * Settles once every replica applied queued task `taskID`: the task is
   * published then. A target without it (followers' feed) holds nothing back.
   */
  published?(taskID: number): Promise<void>;
}

/** The writer's state as a replica starts from it: an unstored snapshot, and the last task it holds. */
export interface StateImage {
  bytes: Uint8Array;
  lastTaskID: number;
}
