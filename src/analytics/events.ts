// What analytics are computed from: one record per search and one per
// insight event (click, conversion, view). Both are kept in arrival order.
import type { NumericOperator } from '../index/filters/parse.js';
import { DAY_MS, RETENTION_DAYS } from './params.js';

/** A filter a search used, as analytics report it. */
export interface UsedFilter { attribute: string; operator: ':' | NumericOperator; value: string }

export interface SearchEvent {
  /** Unique; the search's queryID when it was tracked (clickAnalytics). */
  id: string;
  index: string;
  query: string;
  nbHits: number;
  /** objectIDs of the page of hits returned (for top hits). */
  hits: string[];
  filters: UsedFilter[];
  tags: string[];
  /** The userToken, or the source address when there is none. */
  user: string;
  country?: string;
  at: number;
  tracked: boolean;
  abTest?: { id: number; variant: number };
}

export type EventType = 'click' | 'conversion' | 'view';

export interface InsightEvent {
  id: string;
  eventType: EventType;
  eventSubtype?: string;
  eventName: string;
  index: string;
  userToken: string;
  /** When it happened (the event's timestamp) and when it was received. */
  at: number;
  receivedAt: number;
  queryID?: string;
  objectIDs?: string[];
  filters?: string[];
  positions?: number[];
  /** Purchases: what was paid, per object (objectData) or in total (value), in `currency`. */
  currency?: string;
  value?: number;
  objectData?: Array<{ price?: number; quantity?: number; discount?: number }>;
}

/** A click or conversion counts toward its search only within an hour of it. */
export const ATTRIBUTION_WINDOW_MS = 3_600_000;

export interface EventsSnapshot {
  searches: SearchEvent[];
  events: InsightEvent[];
  /** Where each list was dropped for room up to; absent when neither was. */
  droppedThrough?: DroppedThrough;
}

/** Per list, the time up to which its events were dropped for room (0: none was): events of the list received then or before are refused. */
export interface DroppedThrough { searches: number; events: number }

/**
 * Searches, and insight events, kept at most by default (see
 * `EngineOptions.maxAnalyticsEvents`): a search's record holds ~550-700
 * bytes of heap, so a busy server would keep gigabytes of them within the
 * retention, and every snapshot would carry them. This many searches are
 * about six days at one a second.
 */
export const MAX_EVENTS_KEPT = 500_000;

/**
 * How long events are kept: the reports' reach (RETENTION_DAYS), and a day
 * for its first day's start. Past it they only cost memory, snapshots and
 * every report's scan of the store, growing with every search served.
 */
export const KEPT_MS = (RETENTION_DAYS + 1) * DAY_MS;
/** Events past KEPT_MS are dropped once the oldest is this much older still: a pass a day at most. */
const DROP_SLACK_MS = DAY_MS;

export class EventStore {
  readonly searches: SearchEvent[] = [];
  readonly events: InsightEvent[] = [];
  /**
   * Insight events removed so far (a user forgotten, events past their
   * retention): what reads them by position in `events` starts again.
   */
  eventsRemoved = 0;
  private readonly ids = new Set<string>();
  private readonly byQueryID = new Map<string, SearchEvent>();
  /**
   * The insight events of each userToken, in the order received: made at
   * the first ask (a million events: ~150 ms), then kept up as events come
   * and go. A personalised search read every event of the store to find one
   * user's (14 ms a search at a million events).
   */
  private byUser: Map<string, InsightEvent[]> | undefined;
  /** The latest time an event was received at: the store's clock, so that a replay drops what the first run dropped. */
  private latest = 0;
  /**
   * Per list, the latest time among the events dropped for room: a log
   * entry replayed over a snapshot brings none of them back (the dropped
   * ids are forgotten), so a replay keeps what the first run kept.
   */
  private readonly droppedThrough: DroppedThrough = { searches: 0, events: 0 };
  /** How far past its room a list grows before its oldest are dropped: a drop shifts the whole list, so it happens once in that many events. */
  private readonly dropSlack: number;

  /** @param room - events of each list kept at most (MAX_EVENTS_KEPT by default); the oldest go first. */
  constructor(readonly room = MAX_EVENTS_KEPT) {
    if (!Number.isSafeInteger(room) || room < 1) throw new RangeError(`maxAnalyticsEvents: a whole number from 1, not ${room}`);
    this.dropSlack = Math.max(1, Math.floor(room / 8));
  }

  /**
   * Adds events not seen yet and not dropped already (a log entry replayed
   * over a snapshot adds nothing twice, nor what the snapshot dropped).
   * After each one it drops what is past a list's room or the retention:
   * the same events in the same order drop the same ones whether they were
   * applied one by one (searches as they are answered) or as the log's
   * batch replayed. (A replay may order a search after insight events it
   * came before; only the retention's day of slack, which no report reads,
   * can then differ.)
   */
  add(searches: SearchEvent[], events: InsightEvent[]): void {
    for (const s of searches) {
      if (this.ids.has(s.id) || this.dropped(s.at, 'searches')) continue;
      this.ids.add(s.id);
      this.searches.push(s);
      if (s.tracked) this.byQueryID.set(s.id, s);
      if (s.at > this.latest) this.latest = s.at;
      this.settle();
    }
    for (const e of events) {
      if (this.ids.has(e.id) || this.dropped(e.receivedAt, 'events')) continue;
      this.ids.add(e.id);
      this.events.push(e);
      if (this.byUser) fileByUser(this.byUser, e);
      if (e.receivedAt > this.latest) this.latest = e.receivedAt;
      this.settle();
    }
  }

  /**
   * Drops the oldest of a list once it is `dropSlack` past its room, down
   * to the room (the list's horizon moves past them), then what is past
   * the retention. Most calls drop nothing: a drop shifts the whole list.
   */
  private settle(): void {
    if (this.searches.length > this.room + this.dropSlack) {
      const count = this.searches.length - this.room;
      this.droppedThrough.searches = latestOf(this.searches, count, this.droppedThrough.searches, (s) => s.at);
      this.dropOldestSearches(count);
    }
    if (this.events.length > this.room + this.dropSlack) {
      const count = this.events.length - this.room;
      this.droppedThrough.events = latestOf(this.events, count, this.droppedThrough.events, (e) => e.receivedAt);
      this.dropOldestEvents(count);
    }
    this.dropExpired();
  }

  /** The insight events of `userToken`, in the order received (see byUser). */
  eventsOf(userToken: string): readonly InsightEvent[] {
    if (this.byUser === undefined) {
      this.byUser = new Map();
      for (const e of this.events) fileByUser(this.byUser, e);
    }
    return this.byUser.get(userToken) ?? [];
  }

  /**
   * Whether an event of the `kind` list received at `time` is one the store
   * dropped or would drop at once (one replayed after a snapshot that
   * dropped it): past the retention, or no later than the list's latest
   * event dropped for room.
   */
  private dropped(time: number, kind: keyof DroppedThrough): boolean {
    return time < this.latest - KEPT_MS || time <= this.droppedThrough[kind];
  }

  /**
   * Drops the searches and insight events received more than KEPT_MS
   * before the latest one, once the oldest kept is DROP_SLACK_MS past
   * that. Both lists are in the order received.
   */
  private dropExpired(): void {
    const cutoff = this.latest - KEPT_MS;
    const oldest = Math.min(this.searches[0]?.at ?? Infinity, this.events[0]?.receivedAt ?? Infinity);
    if (oldest >= cutoff - DROP_SLACK_MS) return;
    this.dropOldestSearches(leadingCount(this.searches, (s) => s.at < cutoff));
    this.dropOldestEvents(leadingCount(this.events, (e) => e.receivedAt < cutoff));
  }

  private dropOldestSearches(count: number): void {
    if (count === 0) return;
    for (const s of this.searches.splice(0, count)) this.forget(s.id);
  }

  private dropOldestEvents(count: number): void {
    if (count === 0) return;
    const dropped = this.events.splice(0, count);
    for (const e of dropped) this.ids.delete(e.id);
    this.eventsRemoved += count;
    if (this.byUser) unfileOldest(this.byUser, dropped);
  }

  private forget(searchID: string): void {
    this.ids.delete(searchID);
    this.byQueryID.delete(searchID);
  }

  searchOf(queryID: string | undefined): SearchEvent | undefined {
    return queryID === undefined ? undefined : this.byQueryID.get(queryID);
  }

  /** Forgets the insight events of a user received up to `until` (and the user's searches). */
  forgetUser(userToken: string, until: number): void {
    const keepEvent = (e: InsightEvent) => e.userToken !== userToken || e.receivedAt > until;
    const keepSearch = (s: SearchEvent) => s.user !== userToken || s.at > until;
    const events = this.events.length;
    replaceContents(this.events, this.events.filter(keepEvent));
    this.eventsRemoved += events - this.events.length;
    const kept = this.byUser?.get(userToken)?.filter(keepEvent);
    if (kept?.length) this.byUser!.set(userToken, kept); else this.byUser?.delete(userToken);
    replaceContents(this.searches, this.searches.filter(keepSearch));
    for (const [queryID, s] of this.byQueryID) if (!keepSearch(s)) this.byQueryID.delete(queryID);
  }

  /** Copies of the lists: a snapshot's encoding pauses between slices of them, and the store may drop or forget events meanwhile. */
  snapshot(): EventsSnapshot {
    const dropped = this.droppedThrough.searches > 0 || this.droppedThrough.events > 0;
    return { searches: this.searches.slice(), events: this.events.slice(), ...(dropped ? { droppedThrough: { ...this.droppedThrough } } : {}) };
  }

  restore(snapshot: EventsSnapshot): void {
    this.add(snapshot.searches, snapshot.events);
    const dropped = snapshot.droppedThrough;
    if (!dropped) return;
    this.droppedThrough.searches = Math.max(this.droppedThrough.searches, dropped.searches);
    this.droppedThrough.events = Math.max(this.droppedThrough.events, dropped.events);
  }
}

/** Adds `event` to its user's list. */
function fileByUser(byUser: Map<string, InsightEvent[]>, event: InsightEvent): void {
  const list = byUser.get(event.userToken);
  if (list) list.push(event); else byUser.set(event.userToken, [event]);
}

/** Removes `dropped`, the oldest events of the store, from their users' lists (each user's oldest, so at their starts). */
function unfileOldest(byUser: Map<string, InsightEvent[]>, dropped: readonly InsightEvent[]): void {
  const perUser = new Map<string, number>();
  for (const e of dropped) perUser.set(e.userToken, (perUser.get(e.userToken) ?? 0) + 1);
  for (const [userToken, count] of perUser) {
    const list = byUser.get(userToken);
    if (list === undefined) continue;
    if (list.length > count) list.splice(0, count); else byUser.delete(userToken);
  }
}

/** The latest of `since` and the times of the first `count` items of `list`. */
function latestOf<T>(list: readonly T[], count: number, since: number, timeOf: (item: T) => number): number {
  let latest = since;
  for (let i = 0; i < count; i++) latest = Math.max(latest, timeOf(list[i]!));
  return latest;
}

/** How many items at the start of `list` pass `test`. */
function leadingCount<T>(list: readonly T[], test: (item: T) => boolean): number {
  let count = 0;
  while (count < list.length && test(list[count])) count++;
  return count;
}

function replaceContents<T>(target: T[], items: T[]): void {
  target.length = 0;
  target.push(...items);
}
