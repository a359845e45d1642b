// Everything the analytics side of the engine keeps: search and insight
// events, A/B tests, the personalization strategy and profile resets, the
// query suggestions configurations and builds. Changes are logged as `analytics` operations
// through the engine's immediate-write path (like key changes) and the whole
// state rides in snapshots. Every operation is idempotent, so replaying one a
// snapshot already holds changes nothing.
//
// Search events are many and small: they are applied at once and logged in
// batches: when enough are waiting, before any other analytics change (so the
// log keeps their order relative to it), and when the engine closes. A
// snapshot holds the waiting ones, so they need no log record after it. A
// batch the log refuses (cluster mode while NATS cannot be reached) is kept
// waiting, ahead of newer searches, and logged again every RETRY_MS until
// the log takes it: the searches were answered and counted here all along.
import { EventStore, type EventsSnapshot, type InsightEvent, type SearchEvent } from './events.js';
import type { ABTest } from '../abtest/tests.js';
import type { Strategy } from '../personalization/strategy.js';
import { SuggestionsState, type SuggestionsOperation, type SuggestionsSnapshot } from '../suggestions/state.js';
import type { SnapshotUse, StateSection } from '../durability/state-section.js';

export type AnalyticsOperation = SuggestionsOperation | { type: 'analytics' } & (
  | { action: 'events'; searches: SearchEvent[]; events: InsightEvent[] }
  | { action: 'forgetUser'; userToken: string; until: number }
  | { action: 'putABTest'; test: ABTest }
  | { action: 'deleteABTest'; id: number }
  | { action: 'strategy'; strategy: Strategy }
  | { action: 'resetProfile'; userToken: string; until: number }
);

export interface AnalyticsSnapshot extends EventsSnapshot {
  abTests: ABTest[];
  lastABTestID: number;
  strategy?: Strategy;
  profileResets: Array<[string, number]>;
  suggestions: SuggestionsSnapshot;
}

/** Where operations go: the engine's durable, immediately applied log write; resolves with the taskID. */
export type Persist = (op: AnalyticsOperation) => Promise<number>;
/** The engine's log write of an operation already applied (search events). */
export type LogApplied = Persist;

/** Waiting searches are logged once there are this many. */
const SEARCH_BATCH = 500;
/**
 * Batches' worth of waiting searches past which they are logged within the
 * search that recorded the last one: searches asked in-process one after
 * another, each awaited, never let the timer run, and waited in memory by
 * the hundred thousand.
 */
const STARVED_BATCHES = 8;
/** A batch of searches the log refused is offered again after this long. */
const RETRY_MS = 2000;

/** Analytics' part of a snapshot (absent in a follower's image: see src/follow/scope.ts). */
export interface AnalyticsPart {
  analytics?: AnalyticsSnapshot;
}

/** The analytics section of the engine's state. */
export class AnalyticsState implements StateSection<AnalyticsPart, { type: string }> {
  store: EventStore;
  readonly abTests = new Map<number, ABTest>();
  strategy: Strategy | undefined;
  /** Per userToken: the personalization profile ignores events received up to this time. */
  readonly profileResets = new Map<string, number>();
  suggestions = new SuggestionsState();
  /** The highest A/B test id ever given (ids are not reused after a delete). */
  lastABTestID = 0;
  private pendingSearches: SearchEvent[] = [];
  /**
   * Where searches go instead of being recorded here: a replica's searches
   * are recorded once, by the writer (see src/replication/).
   */
  searchSink: ((event: SearchEvent) => void) | undefined;
  private flushScheduled = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  /** @param maxEventsKept - searches, and insight events, the store keeps at most (see EventStore). */
  constructor(private readonly persist: Persist, private readonly logApplied: LogApplied, private readonly maxEventsKept?: number) {
    this.store = new EventStore(maxEventsKept);
  }

  /**
   * Records a search now; it reaches the log with the next batch, encoded
   * once the search has been answered (a batch's JSON took milliseconds
   * inside the search that filled it: the p99 of a run of searches).
   */
  recordSearch(event: SearchEvent): void {
    if (this.searchSink) return this.searchSink(event);
    this.store.add([event], []);
    this.pendingSearches.push(event);
    if (this.retry) return;
    if (this.pendingSearches.length >= SEARCH_BATCH * STARVED_BATCHES) this.flushNow();
    else if (this.pendingSearches.length >= SEARCH_BATCH && !this.flushScheduled) {
      this.flushScheduled = true;
      setTimeout(() => {
        this.flushScheduled = false;
        this.flushNow();
      }, 0);
    }
  }

  /** Searches recorded and not logged yet. */
  get waitingSearches(): number {
    return this.pendingSearches.length;
  }

  private flushNow(): void {
    this.flush().catch((e: Error) => console.error(`lantern: search events are kept here until the log takes them (${e.message.split('\n')[0]})`));
  }

  /**
   * Logs the searches recorded but not logged yet, SEARCH_BATCH to an entry
   * (appended together, in order). When the log refuses some they stay
   * waiting (logged again after RETRY_MS, or with the next batch) and the
   * refusal is passed on.
   */
  async flush(): Promise<void> {
    const searches = this.pendingSearches;
    this.pendingSearches = [];
    const batches: SearchEvent[][] = [];
    for (let i = 0; i < searches.length; i += SEARCH_BATCH) batches.push(searches.slice(i, i + SEARCH_BATCH));
    const logged = await Promise.allSettled(batches.map((batch) => this.logApplied({ type: 'analytics', action: 'events', searches: batch, events: [] })));
    const refused = logged.flatMap((outcome, i) => (outcome.status === 'rejected' ? [{ batch: batches[i]!, reason: outcome.reason as unknown }] : []));
    if (!refused.length) return;
    // the newest the store keeps are all a replay would keep of them
    this.pendingSearches = refused.flatMap(({ batch }) => batch).concat(this.pendingSearches).slice(-this.store.room);
    this.retryLater();
    throw refused[0]!.reason;
  }

  /** Stops offering refused searches to the log again (the engine is closing). */
  stopRetrying(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
  }

  private retryLater(): void {
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.flush().catch(() => {}); // refused again: flush set the next retry
    }, RETRY_MS);
    this.retry.unref?.();
  }

  /** Logs (durably) and applies one change; earlier searches are logged first. */
  async write(op: AnalyticsOperation): Promise<number> {
    await this.flush();
    return this.persist(op);
  }

  /** Applies an analytics operation (others are ignored). */
  apply(logged: { type: string }): void {
    if (logged.type !== 'analytics') return;
    const op = logged as AnalyticsOperation;
    switch (op.action) {
      case 'events': return this.store.add(op.searches, op.events);
      case 'forgetUser': return this.store.forgetUser(op.userToken, op.until);
      case 'putABTest':
        this.abTests.set(op.test.abTestID, op.test);
        this.lastABTestID = Math.max(this.lastABTestID, op.test.abTestID);
        return;
      case 'deleteABTest': this.abTests.delete(op.id); return;
      case 'strategy': this.strategy = op.strategy; return;
      case 'resetProfile': this.profileResets.set(op.userToken, op.until); return;
      default: this.suggestions.apply(op);
    }
  }

  /**
   * Everything, waiting searches included: once a stored snapshot holds
   * them they need no log record (a replica's image holds them too, but
   * they are still logged: its idempotent `events` apply skips them).
   */
  snapshot(use: SnapshotUse): AnalyticsPart {
    if (use === 'store') this.pendingSearches = [];
    return {
      analytics: {
        ...this.store.snapshot(),
        abTests: [...this.abTests.values()],
        lastABTestID: this.lastABTestID,
        ...(this.strategy ? { strategy: this.strategy } : {}),
        profileResets: [...this.profileResets],
        suggestions: this.suggestions.snapshot(),
      },
    };
  }

  restore({ analytics: snapshot }: AnalyticsPart): void {
    if (!snapshot) return;
    this.store.restore(snapshot);
    for (const test of snapshot.abTests) this.abTests.set(test.abTestID, test);
    this.lastABTestID = snapshot.lastABTestID;
    this.strategy = snapshot.strategy;
    for (const [token, until] of snapshot.profileResets) this.profileResets.set(token, until);
    this.suggestions.restore(snapshot.suggestions);
  }

  reset(): void {
    this.store = new EventStore(this.maxEventsKept);
    this.abTests.clear();
    this.strategy = undefined;
    this.profileResets.clear();
    this.suggestions = new SuggestionsState();
    this.lastABTestID = 0;
    this.pendingSearches = [];
  }
}
