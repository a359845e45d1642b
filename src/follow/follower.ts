// A follower: an engine kept current by a server it follows over HTTP. It
// loads the server's snapshot (GET /1/lantern/follow/snapshot) when it
// holds nothing yet, or when the server can no longer give it the writes
// it missed, then tails the server's log (GET /1/lantern/follow/log,
// server-sent events) from the last taskID it holds, applying each write
// through the replication seam (`Engine.loadImage`, `applyReplicated`: a
// replica's path, which logs them first when the engine has a store of its
// own), and the recommend models the log sends as they change. A lost
// connection is made again with growing pauses; meanwhile the engine
// answers from what it holds. The wire is `fetch` streaming, read
// by events.ts: one path for Node, Electron, workers and pages, the key in
// a header (not in URLs), and the HTTP status of a refusal in hand.
import type { Engine } from '../engine/engine.js';
import type { WriteOperation } from '../engine/writes.js';
import { ApiError } from '../util/errors.js';
import { TASK_HEADER } from '../api/follow.js';
import { EventReader, type FollowEvent } from './events.js';
import type { FollowOptions, FollowState } from './options.js';

/** @internal What a follower drives of its engine. */
export type FollowingEngine = Pick<Engine, 'loadImage' | 'applyReplicated' | 'recommend'>;

const SNAPSHOT_PATH = '/1/lantern/follow/snapshot';
const LOG_PATH = '/1/lantern/follow/log';

/** The server can no longer give the writes after this follower's last one: a snapshot is loaded. */
class Behind extends Error {}

/**
 * An engine's follower of a `lantern serve` (`engine.follower`, with
 * `Lantern.open({ follow })`): it loads the server's snapshot, tails its
 * writes over HTTP and applies them, and catches up when the server is back.
 */
export class Follower {
  private readonly options: Required<Omit<FollowOptions, 'appId'>> & Pick<FollowOptions, 'appId'>;
  private position: number;
  private needsImage: boolean;
  private status: Omit<FollowState, 'url' | 'lastTaskID'> = { connected: false, caughtUp: false, snapshotsLoaded: 0 };
  private waiting: Array<{ taskID: number; resume: () => void }> = [];
  private readonly stopped = new AbortController();
  private running: Promise<void> = Promise.resolve();
  /** Settles `start`: called once caught up, and after each failed attempt (only the first call counts). */
  private attempted: () => void = () => {};

  /** @internal `Lantern.open` makes it. `lastTaskID`: the server's task the engine holds everything up to (0: it holds nothing yet). */
  constructor(private readonly engine: FollowingEngine, options: FollowOptions, lastTaskID: number) {
    this.options = { retryMs: 500, maxRetryMs: 30_000, silenceMs: 45_000, fetch: globalThis.fetch.bind(globalThis), ...options };
    this.position = lastTaskID;
    this.needsImage = lastTaskID === 0;
  }

  /** @internal Starts following (`Lantern.open`); resolves once the first attempt caught up with the server, or failed (the engine then answers from what it holds). */
  start(): Promise<void> {
    return new Promise((firstAttempt) => {
      this.attempted = firstAttempt;
      this.running = this.follow();
    });
  }

  /** Where it stands. */
  get state(): FollowState {
    return { url: this.options.url, lastTaskID: this.position, ...this.status };
  }

  /**
   * Resolves once it is caught up with the server and holds task `taskID`
   * (a write acknowledged by the server; default: whatever the server had
   * when this follower connected).
   */
  caughtUp(taskID = 0): Promise<void> {
    if (this.reached(taskID)) return Promise.resolve();
    return new Promise((resume) => this.waiting.push({ taskID, resume }));
  }

  /** Stops following (the engine keeps what it holds). */
  async close(): Promise<void> {
    this.stopped.abort();
    await this.running;
  }

  private reached(taskID: number): boolean {
    return this.status.caughtUp && this.position >= taskID;
  }

  /** Connects, follows until the connection is lost, pauses, again: until closed. */
  private async follow(): Promise<void> {
    let pause = this.options.retryMs;
    while (!this.stopped.signal.aborted) {
      try {
        if (this.needsImage) await this.loadSnapshot();
        await this.tail(() => { pause = this.options.retryMs; });
      } catch (e) {
        if (e instanceof Behind) {
          this.needsImage = true;
          continue;
        }
        this.lost(e);
      }
      this.attempted();
      await this.pauseFor(pause);
      pause = Math.min(pause * 2, this.options.maxRetryMs);
    }
  }

  private lost(e: unknown): void {
    this.status = { ...this.status, connected: false, caughtUp: false };
    if (!this.stopped.signal.aborted) this.status.lastError = e instanceof Error ? e.message : String(e);
  }

  private pauseFor(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.stopped.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
    });
  }

  /** Loads the server's snapshot in place of what the engine holds. */
  private async loadSnapshot(): Promise<void> {
    const response = await this.get(SNAPSHOT_PATH, this.stopped.signal);
    const lastTaskID = Number(response.headers.get(TASK_HEADER));
    const bytes = new Uint8Array(await response.arrayBuffer());
    await this.engine.loadImage({ bytes, lastTaskID });
    this.position = lastTaskID;
    this.needsImage = false;
    this.status.snapshotsLoaded++;
  }

  /** Reads the log after the last task held, applying it, until the connection ends; `connected` runs once it is open. */
  private async tail(connected: () => void): Promise<void> {
    const connection = new AbortController();
    const stop = () => connection.abort();
    this.stopped.signal.addEventListener('abort', stop, { once: true });
    const silence = new Watchdog(this.options.silenceMs, () => connection.abort(new Error('the server sent nothing for too long')));
    try {
      const response = await this.get(`${LOG_PATH}?after=${this.position}`, connection.signal);
      this.status = { ...this.status, connected: true, lastError: undefined };
      connected();
      const reader = new EventReader();
      const text = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        silence.reset();
        const { done, value } = await text.read();
        if (done) throw new Error('the server ended the log');
        silence.pause();
        for (const event of reader.push(value)) await this.handle(event);
      }
    } finally {
      silence.pause();
      this.stopped.signal.removeEventListener('abort', stop);
      connection.abort();
    }
  }

  private async handle(event: FollowEvent): Promise<void> {
    switch (event.type) {
      case 'op':
        await this.engine.applyReplicated({ taskID: event.taskID, op: event.op as WriteOperation, queued: event.queued });
        return this.advance(event.taskID);
      case 'skip': return this.advance(event.taskID);
      case 'live':
        this.status.caughtUp = true;
        this.attempted();
        return this.advance(this.position);
      case 'reload': throw new Behind(event.message);
      case 'models': return this.engine.recommend.receive(event.indexName, event.models, event.settings);
    }
  }

  /** The engine holds everything up to `taskID`: the callers waiting for it are told. */
  private advance(taskID: number): void {
    this.position = Math.max(this.position, taskID);
    const still = this.waiting.filter((w) => !this.reached(w.taskID));
    for (const w of this.waiting) if (this.reached(w.taskID)) w.resume();
    this.waiting = still;
  }

  /** A GET of the server's; a 410 means the log no longer reaches back here, any other refusal is an ApiError. */
  private async get(path: string, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { 'x-algolia-api-key': this.options.apiKey };
    if (this.options.appId !== undefined) headers['x-algolia-application-id'] = this.options.appId;
    const response = await this.options.fetch(new URL(path, this.options.url), { headers, signal, cache: 'no-store' });
    if (response.ok) return response;
    const message = await response.json().then((b: { message?: string }) => b.message ?? '', () => '');
    if (response.status === 410) throw new Behind(message);
    throw ApiError.answered(response.status, `${this.options.url} answered ${response.status}: ${message}`);
  }
}

/** Calls `expired` once `ms` pass between a reset and the next pause. */
class Watchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(private readonly ms: number, private readonly expired: () => void) {}
  reset(): void {
    this.pause();
    this.timer = setTimeout(this.expired, this.ms);
  }
  pause(): void {
    clearTimeout(this.timer);
  }
}
