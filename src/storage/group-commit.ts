// Group commit: the log's frames are written on the main thread, in order,
// as they come, and made durable by an fsync on the thread pool; frames
// written while one fsync is under way wait for the next, which makes all
// of them durable at once. Searches and the application of writes go on
// meanwhile, and writers sending at the same time share one fsync instead
// of waiting for one each.
//
// A frame is never taken as durable by an fsync that began before it was
// written. An fsync that fails fails every frame written since the last
// one that succeeded: after a failed fsync the kernel may have dropped the
// pages it could not write and marked them clean, so no later fsync could
// be trusted to have written them (the owner cuts the file back to what
// was durable before).

/** A promise and what settles it. */
interface Group {
  done: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const done = new Promise<void>((ok, fail) => { resolve = ok; reject = fail; });
  done.catch(() => {}); // a group nobody waits for any more must not be an unhandled rejection
  return { done, resolve, reject };
}

/** How the owner of the file makes its frames durable, and cuts it back when that failed. */
export interface Syncs {
  /** Makes durable every frame written before it is called (an fsync on the thread pool); rejects when it could not. */
  sync(): Promise<void>;
  /** The same on this thread; throws when it could not. */
  syncHere(): void;
  /**
   * Cuts the file back to the frames durable before a failed fsync; returns
   * the error the frames fail with. Called at once, so that no frame is
   * written between the cut and the failure of the frames it cut.
   */
  cutBack(e: unknown): unknown;
}

export class GroupCommit {
  /** The fsync under way, if any. */
  private syncing: Promise<void> | undefined;
  /** The frames written since the fsync under way began: they wait for the next. */
  private waiting: Group | undefined;
  /** Resolves whoever waits for no fsync to be under way or due. */
  private idle: Array<() => void> = [];

  constructor(private readonly syncs: Syncs) {}

  /**
   * A frame was just written: resolves once it is durable, rejects when it
   * could not be made so. `here`: nothing else waits for this thread, so
   * when no fsync is under way the frame is made durable on this thread at
   * once (a hop to the thread pool and back costs a sequential writer more
   * than the fsync; it pays only when other work can use the thread).
   */
  written(here = false): Promise<void> {
    if (here && !this.syncing) {
      try {
        this.syncs.syncHere();
        return Promise.resolve();
      } catch (e) {
        return Promise.reject(this.syncs.cutBack(e));
      }
    }
    this.waiting ??= newGroup();
    const { done } = this.waiting;
    if (!this.syncing) this.syncNext();
    return done;
  }

  /** Whether a frame is waiting for an fsync, or one is under way. */
  get busy(): boolean {
    return this.syncing !== undefined;
  }

  /** Resolves once no frame waits and no fsync is under way (whether it succeeded or not). */
  settled(): Promise<void> {
    return this.busy ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  /** Starts the fsync the frames waiting need. */
  private syncNext(): void {
    const group = this.waiting!;
    this.waiting = undefined;
    this.syncing = this.syncs.sync().then(
      () => { group.resolve(); },
      (e: unknown) => {
        const error = this.syncs.cutBack(e);
        group.reject(error);
        // frames written during the failed fsync are cut back with the rest
        this.waiting?.reject(error);
        this.waiting = undefined;
      },
    ).then(() => {
      this.syncing = undefined;
      if (this.waiting) this.syncNext();
      else for (const resolve of this.idle.splice(0)) resolve();
    });
  }
}
