// The server's side of following: the recent operations every follower
// tails, kept in one backlog. The feed is a replication target of the
// writer (src/durability/replication.ts): it is handed every operation
// entering the writer's state and keeps those a follower may need (index
// writes, recommend rules and dictionary changes), each with the indexes it
// reaches, up to `backlog` records' worth. Each follower's log is a cursor into it, read
// at the follower's pace (a slow one holds no copy: one that falls behind
// the backlog's start is told to load a snapshot), filtered by its key
// (scope.ts) and written as server-sent events (events.ts). Once a follower
// has every kept operation, its stream sends the recommend models it has
// not received (models.ts).
import type { Caller } from '../auth/caller.js';
import type { Engine } from '../engine/engine.js';
import type { WriteOperation } from '../engine/writes.js';
import type { Logged } from '../durability/durability.js';
import type { ReplicatedOp, ReplicationTarget } from '../durability/replication.js';
import { ApiError } from '../util/errors.js';
import { LIVE_EVENT, PING, STREAM_START, opEvent, reloadEvent, skipEvent } from './events.js';
import { ModelsFeed, type SentModels } from './models.js';
import { reachOf, visibility } from './scope.js';

/** @internal What the feed reads of the writer. */
export type FeedSource = Pick<Engine, 'indexes' | 'tasks' | 'replicateTo' | 'appliedThrough' | 'recommend'>;

/** An operation kept for followers: what it reaches, as the writer stood when it was handed over. */
interface Kept {
  taskID: number;
  op: Logged<WriteOperation>;
  queued: boolean;
  reach: string[];
  /** Records it holds (1 for any other write): what the backlog's size counts. */
  weight: number;
  /** The operation as JSON, written once for every follower that receives it whole. */
  text?: string;
}

/** Records' worth of operations kept for followers by default. */
export const DEFAULT_BACKLOG = 10_000;
/** A follower with nothing to receive gets a comment this often (its reader deems 3 missed ones a lost connection). */
export const PING_MS = 15_000;
/** Operations written to a follower's stream per chunk. */
const CHUNK = 64;

export class FollowFeed implements ReplicationTarget<WriteOperation> {
  /** Kept operations, in the order they are sent; `kept[0]` is the `dropped`-th one ever kept. */
  private kept: Kept[] = [];
  private dropped = 0;
  private weight = 0;
  /** Every task after this one that a follower may need is kept (until the backlog drops it). */
  private covers: number;
  /** Dictionary changes waiting for the earlier tasks still queued (see `feed`). */
  private held: Kept[] = [];
  /** Wakes the followers' streams waiting for something new. */
  private arrived: () => void = () => {};
  private arrival = new Promise<void>((resolve) => { this.arrived = resolve; });
  private closed = false;
  private readonly detach: () => void;
  private readonly models: ModelsFeed;

  private constructor(private readonly engine: FeedSource, private readonly backlog: number, readonly pingMs: number) {
    this.covers = engine.appliedThrough;
    this.detach = engine.replicateTo(this);
    this.models = new ModelsFeed(engine.recommend, () => this.wake());
  }

  /** @internal A feed of `engine`'s operations from now on, keeping `backlog` records' worth. */
  static attach(engine: FeedSource, backlog = DEFAULT_BACKLOG, pingMs = PING_MS): FollowFeed {
    return new FollowFeed(engine, backlog, pingMs);
  }

  /**
   * An operation entering the writer's state. Queued writes come in taskID
   * order; a dictionary change or recommend rules are applied (and handed
   * over) at once, maybe before queued writes with smaller taskIDs: they
   * are held until those are handed over, so that taskIDs only grow along a
   * follower's log (it resumes after the last one it has).
   */
  feed({ taskID, op, queued }: ReplicatedOp<WriteOperation>): void {
    if (this.closed || (!queued && op.type !== 'dictionaries' && op.type !== 'recommend')) return;
    const kept: Kept = { taskID, op, queued, reach: reachOf(op, this.engine.indexes), weight: weightOf(op) };
    if (queued) {
      this.releaseHeld(taskID);
      this.keep(kept);
    } else if (this.engine.tasks.pendingCount === 0) {
      this.keep(kept);
    } else {
      this.held.push(kept);
      void this.engine.tasks.idle().then(() => this.releaseHeld(Infinity));
    }
  }

  /** Keeps the held changes that come before task `before`. */
  private releaseHeld(before: number): void {
    while (this.held.length > 0 && this.held[0].taskID < before) this.keep(this.held.shift()!);
  }

  private keep(kept: Kept): void {
    this.kept.push(kept);
    this.weight += kept.weight;
    while (this.weight > this.backlog && this.kept.length > 1) {
      const old = this.kept.shift()!;
      this.dropped++;
      this.weight -= old.weight;
      this.covers = Math.max(this.covers, old.taskID);
    }
    this.wake();
  }

  private wake(): void {
    const arrived = this.arrived;
    this.arrival = new Promise<void>((resolve) => { this.arrived = resolve; });
    arrived();
  }

  /**
   * The log a follower with `caller`'s key reads after task `after`: what
   * the backlog keeps after it, `live` once it has it all, then each new
   * operation as it comes. A 410 when the backlog no longer reaches back to
   * `after` (or `after` is a task this server never had: another history).
   */
  stream(caller: Caller, after: number): ReadableStream<Uint8Array> {
    if (after < this.covers) {
      throw new ApiError('log_trimmed', `The log no longer holds the tasks after ${after} (it keeps those after ${this.covers}): load /1/lantern/follow/snapshot, then follow after its task`);
    }
    if (after > 0 && this.engine.tasks.status(after) === undefined) {
      throw new ApiError('log_trimmed', `This server has no task ${after}: its history is not the one followed; load /1/lantern/follow/snapshot`);
    }
    return this.cursor(caller, this.positionAfter(after));
  }

  /** The place of the first kept operation after task `after`. */
  private positionAfter(after: number): number {
    const index = this.kept.findIndex((k) => k.taskID > after);
    return this.dropped + (index < 0 ? this.kept.length : index);
  }

  /** A follower's stream from place `position`, written as it reads it. */
  private cursor(caller: Caller, position: number): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let live = false;
    let ended = false;
    const sent: SentModels = new Map();
    return new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(encoder.encode(STREAM_START)),
      // a pull that enqueues nothing is not called again: it waits until there is something to send
      pull: async (controller) => {
        for (;;) {
          const { text, next, end } = await this.nextChunk(caller, position, live, sent);
          if (ended) return;
          position = next;
          if (text === LIVE_EVENT) live = true;
          if (text !== '') controller.enqueue(encoder.encode(text));
          if (end) controller.close();
          if (end || text !== '') return;
        }
      },
      cancel: () => { ended = true; },
    });
  }

  /**
   * What a follower at `position` reads next: kept operations it sees (a
   * chunk of them), then the recommend models it was not `sent`, `live`
   * once it has them all, a ping when nothing comes for a while, a reload
   * when the backlog dropped what it needs next; `end` once the stream is
   * over.
   */
  private async nextChunk(caller: Caller, position: number, live: boolean, sent: SentModels): Promise<{ text: string; next: number; end?: boolean }> {
    if (this.closed) return { text: '', next: position, end: true };
    if (position < this.dropped) return { text: reloadEvent('this follower fell behind the log the server keeps'), next: position, end: true };
    const end = this.dropped + this.kept.length;
    if (position < end) return this.chunk(caller, position, Math.min(end, position + CHUNK));
    const models = this.models.unsent(caller, sent);
    if (models !== '') return { text: models, next: position };
    if (!live) return { text: LIVE_EVENT, next: position };
    return { text: (await this.arrivedWithin(this.pingMs)) ? '' : PING, next: position };
  }

  /** The events of kept operations [from, to) for `caller`; a reload ends the stream. */
  private chunk(caller: Caller, from: number, to: number): { text: string; next: number; end?: boolean } {
    let text = '';
    for (let position = from; position < to; position++) {
      const kept = this.kept[position - this.dropped];
      const seen = visibility(kept.op, kept.reach, caller);
      if (seen === 'reload') return { text: text + reloadEvent(`task ${kept.taskID} reaches indexes this key does not`), next: position + 1, end: true };
      if (seen === 'skip') text += kept.queued ? skipEvent(kept.taskID) : '';
      else text += opEvent(kept.taskID, kept.queued, seen.send === kept.op ? (kept.text ??= JSON.stringify(kept.op)) : JSON.stringify(seen.send));
    }
    return { text, next: to };
  }

  /** Whether something new is kept within `ms` milliseconds. */
  private arrivedWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.arrival.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Ends every follower's stream and stops keeping operations. */
  close(): void {
    this.closed = true;
    this.detach();
    this.models.close();
    this.kept = [];
    this.held = [];
    this.wake();
  }
}

function weightOf(op: WriteOperation): number {
  return op.type === 'batch' ? Math.max(1, op.actions.length) : 1;
}
