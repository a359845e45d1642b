// From raw events to what reports count: keystroke series collapse to their
// final query, and clicks and conversions are attributed to the search whose
// queryID they carry (within the attribution window), then to the final
// search of its series.
import { ATTRIBUTION_WINDOW_MS, type EventStore, type InsightEvent, type SearchEvent } from './events.js';

/** Two searches of one user on one index this close, one query a prefix of the other, are one series. */
export const KEYSTROKE_WINDOW_MS = 30_000;

/** What happened after one (final) search. */
export interface Outcome {
  /** Distinct clicks (queryID, objectID, position) and their positions. */
  clicks: number;
  positions: number[];
  /** Distinct conversions (queryID, objectID or filter), and those of the addToCart and purchase subtypes. */
  conversions: number;
  addToCarts: number;
  purchases: number;
  /** Revenue of the purchases, per currency. */
  revenue: Record<string, number>;
  /** The same figures per record (objectID) the events named: what top hits count. */
  byItem: Map<string, ItemOutcome>;
}

/** What happened to one record after one search. */
export interface ItemOutcome { clicks: number; conversions: number; addToCarts: number; purchases: number; revenue: Record<string, number> }

export const emptyOutcome = (): Outcome => ({ clicks: 0, positions: [], conversions: 0, addToCarts: 0, purchases: 0, revenue: {}, byItem: new Map() });

function itemOutcome(outcome: Outcome, item: string): ItemOutcome {
  let figures = outcome.byItem.get(item);
  if (!figures) outcome.byItem.set(item, (figures = { clicks: 0, conversions: 0, addToCarts: 0, purchases: 0, revenue: {} }));
  return figures;
}

/** What a purchase paid for its `i`th object: its price × quantity − discount, or the value when it names one object. */
function paidFor(event: InsightEvent, i: number, objects: number): number {
  const data = event.objectData?.[i];
  if (data?.price !== undefined) return data.price * (data.quantity ?? 1) - (data.discount ?? 0);
  return objects === 1 && !event.objectData?.some((d) => d.price !== undefined) ? event.value ?? 0 : 0;
}

/** What a purchase paid: the objects' price × quantity − discount, else its value. */
function paid(event: InsightEvent): number {
  const priced = event.objectData?.filter((d) => d.price !== undefined) ?? [];
  if (priced.length === 0) return event.value ?? 0;
  return priced.reduce((sum, d) => sum + d.price! * (d.quantity ?? 1) - (d.discount ?? 0), 0);
}

function continues(earlier: SearchEvent, later: SearchEvent): boolean {
  return later.at - earlier.at <= KEYSTROKE_WINDOW_MS
    && earlier.query !== later.query
    && (later.query.startsWith(earlier.query) || earlier.query.startsWith(later.query));
}

/** Per search id: the search that ends its keystroke series (itself when it is final). */
export function finalSearches(searches: readonly SearchEvent[]): Map<string, SearchEvent> {
  const series = new Map<string, SearchEvent[]>();
  for (const s of searches) {
    const key = `${s.user}\u0000${s.index}`;
    let list = series.get(key);
    if (!list) series.set(key, (list = []));
    list.push(s);
  }
  const final = new Map<string, SearchEvent>();
  for (const list of series.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let i = list.length - 1; i >= 0; i--) {
      const next = list[i + 1];
      final.set(list[i].id, next && continues(list[i], next) ? final.get(next.id)! : list[i]);
    }
  }
  return final;
}

function attributable(event: InsightEvent, search: SearchEvent): boolean {
  return Math.abs(event.at - search.at) <= ATTRIBUTION_WINDOW_MS;
}

/** Per final search id: its clicks and conversions. */
export function outcomesOf(store: EventStore, final: Map<string, SearchEvent>): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  const seen = new Set<string>();
  for (const event of store.events) {
    if (event.eventType === 'view') continue;
    const search = store.searchOf(event.queryID);
    if (!search || !attributable(event, search)) continue;
    const target = final.get(search.id) ?? search;
    let outcome = outcomes.get(target.id);
    if (!outcome) outcomes.set(target.id, (outcome = emptyOutcome()));
    const items = event.objectIDs ?? event.filters ?? [];
    /** True the first time a (kind, queryID, item) is met. */
    const first = (kind: string, item: string) => {
      const key = `${kind}\u0000${event.queryID}\u0000${item}`;
      return !seen.has(key) && Boolean(seen.add(key));
    };
    items.forEach((item, i) => {
      const position = event.positions?.[i];
      const forItem = itemOutcome(outcome!, item);
      if (event.eventType === 'click') {
        if (!first('click', `${item}\u0000${position}`)) return;
        outcome!.clicks++;
        forItem.clicks++;
        if (position !== undefined) outcome!.positions.push(position);
        return;
      }
      if (first('conversion', item)) { outcome!.conversions++; forItem.conversions++; }
      if (event.eventSubtype === 'addToCart' && first('addToCart', item)) { outcome!.addToCarts++; forItem.addToCarts++; }
      if (event.eventSubtype === 'purchase' && first('purchase', item)) { outcome!.purchases++; forItem.purchases++; }
      if (event.eventSubtype === 'purchase' && event.currency !== undefined) {
        forItem.revenue[event.currency] = (forItem.revenue[event.currency] ?? 0) + paidFor(event, i, items.length);
      }
    });
    if (event.eventSubtype === 'purchase' && event.currency !== undefined) {
      outcome.revenue[event.currency] = (outcome.revenue[event.currency] ?? 0) + paid(event);
    }
  }
  return outcomes;
}
