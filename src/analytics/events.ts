// What analytics are computed from: one record per search and one per
// insight event (click, conversion, view). Both are kept in arrival order.
import type { NumericOperator } from '../index/filters/parse.js';

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

export interface EventsSnapshot { searches: SearchEvent[]; events: InsightEvent[] }

export class EventStore {
  readonly searches: SearchEvent[] = [];
  readonly events: InsightEvent[] = [];
  private readonly ids = new Set<string>();
  private readonly byQueryID = new Map<string, SearchEvent>();

  /** Adds events not seen yet (a log entry replayed over a snapshot adds nothing twice). */
  add(searches: SearchEvent[], events: InsightEvent[]): void {
    for (const s of searches) {
      if (this.ids.has(s.id)) continue;
      this.ids.add(s.id);
      this.searches.push(s);
      if (s.tracked) this.byQueryID.set(s.id, s);
    }
    for (const e of events) {
      if (this.ids.has(e.id)) continue;
      this.ids.add(e.id);
      this.events.push(e);
    }
  }

  searchOf(queryID: string | undefined): SearchEvent | undefined {
    return queryID === undefined ? undefined : this.byQueryID.get(queryID);
  }

  /** Forgets the insight events of a user received up to `until` (and the user's searches). */
  forgetUser(userToken: string, until: number): void {
    const keepEvent = (e: InsightEvent) => e.userToken !== userToken || e.receivedAt > until;
    const keepSearch = (s: SearchEvent) => s.user !== userToken || s.at > until;
    replaceContents(this.events, this.events.filter(keepEvent));
    replaceContents(this.searches, this.searches.filter(keepSearch));
    for (const [queryID, s] of this.byQueryID) if (!keepSearch(s)) this.byQueryID.delete(queryID);
  }

  snapshot(): EventsSnapshot {
    return { searches: this.searches, events: this.events };
  }

  restore(snapshot: EventsSnapshot): void {
    this.add(snapshot.searches, snapshot.events);
  }
}

function replaceContents<T>(target: T[], items: T[]): void {
  target.length = 0;
  target.push(...items);
}
