// The analytics reports: each endpoint's figures from the searches of one
// index in a day range (final queries only) and their outcomes.
import { fold } from '../text/fold.js';
import type { EventStore, SearchEvent, UsedFilter } from './events.js';
import { emptyOutcome, finalSearches, outcomesOf, type Outcome } from './outcomes.js';
import { dayOf, matchesTags, pageOf, type ReportParams } from './params.js';

/** The searches a report counts, with what followed each. */
export class Scope {
  readonly searches: SearchEvent[];
  private readonly outcomes: Map<string, Outcome>;

  constructor(store: EventStore, filter: (s: SearchEvent) => boolean) {
    const final = finalSearches(store.searches);
    this.searches = store.searches.filter((s) => final.get(s.id) === s && filter(s));
    this.outcomes = outcomesOf(store, final);
  }

  static of(store: EventStore, params: ReportParams): Scope {
    return new Scope(store, (s) => s.index === params.index && s.at >= params.from && s.at < params.to && matchesTags(params.tags, s.tags));
  }

  outcome(s: SearchEvent): Outcome {
    return (s.tracked && this.outcomes.get(s.id)) || emptyOutcome();
  }
}

/** Click and conversion figures of a set of searches, with the null rules of the spec. */
export interface Engagement {
  trackedSearchCount: number;
  clickCount: number;
  conversionCount: number;
  clickThroughRate: number | null;
  conversionRate: number | null;
  averageClickPosition: number | null;
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);
const mean = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

export type OutcomeCount = 'clicks' | 'conversions' | 'addToCarts' | 'purchases';

/** Share of the tracked searches followed by at least one of `kind` (null without tracked searches). */
export function rateOf(scope: Scope, searches: SearchEvent[], kind: OutcomeCount): number | null {
  const outcomes = searches.filter((s) => s.tracked).map((s) => scope.outcome(s));
  return ratio(outcomes.filter((o) => o[kind] > 0).length, outcomes.length);
}

export function engagementOf(scope: Scope, searches: SearchEvent[]): Engagement {
  const tracked = searches.filter((s) => s.tracked);
  const outcomes = tracked.map((s) => scope.outcome(s));
  return {
    trackedSearchCount: tracked.length,
    clickCount: outcomes.reduce((n, o) => n + o.clicks, 0),
    conversionCount: outcomes.reduce((n, o) => n + o.conversions, 0),
    clickThroughRate: rateOf(scope, searches, 'clicks'),
    conversionRate: rateOf(scope, searches, 'conversions'),
    averageClickPosition: mean(outcomes.flatMap((o) => o.positions)),
  };
}

/** Counts of keys, most frequent first (ties: first seen first). */
function ranked<K>(keys: Iterable<K>): Array<[K, number]> {
  const counts = new Map<K, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

const queryKey = (s: SearchEvent) => fold(s.query.trim());

function groupBy<K>(items: SearchEvent[], key: (s: SearchEvent) => K): Map<K, SearchEvent[]> {
  const groups = new Map<K, SearchEvent[]>();
  for (const s of items) {
    const k = key(s);
    const list = groups.get(k);
    if (list) list.push(s); else groups.set(k, [s]);
  }
  return groups;
}

function byDay<T>(scope: Scope, params: ReportParams, figures: (searches: SearchEvent[]) => T): Array<{ date: string } & T> {
  const days = groupBy(scope.searches, (s) => dayOf(s.at));
  return params.days.map((date) => ({ date, ...figures(days.get(date) ?? []) }));
}

/** The scope's searches by query (folded and trimmed), most searched first. */
export function searchesByQuery(scope: Scope): Map<string, SearchEvent[]> {
  return new Map([...groupBy(scope.searches, queryKey)].sort((a, b) => b[1].length - a[1].length));
}

export function topSearches(scope: Scope, params: ReportParams) {
  const rows = [...searchesByQuery(scope)].map(([search, list]) => {
    const row = { search, count: list.length, nbHits: list[list.length - 1].nbHits };
    if (!params.clickAnalytics && !params.revenueAnalytics) return row;
    const withClicks = { ...row, ...engagementOf(scope, list), clickPositions: positionBuckets(scope, list) };
    return params.revenueAnalytics ? { ...withClicks, ...revenueFigures(scope, list) } : withClicks;
  });
  const sortKey = params.orderBy === 'searchCount' ? 'count' : params.orderBy;
  const sign = params.direction === 'asc' ? 1 : -1;
  // nulls (no data) sort last in either direction
  const value = (r: Record<string, unknown>) => r[sortKey] as number | null;
  rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (x - y) || b.count - a.count;
  });
  return { searches: pageOf(rows, params) };
}

export function searchesCount(scope: Scope, params: ReportParams) {
  return { count: scope.searches.length, dates: byDay(scope, params, (list) => ({ count: list.length })) };
}

export function searchesNoResults(scope: Scope, params: ReportParams) {
  const empty = scope.searches.filter((s) => s.nbHits === 0);
  const rows = [...groupBy(empty, queryKey)]
    .map(([search, list]) => ({ search, count: list.length, withFilterCount: list.filter((s) => s.filters.length > 0).length }))
    .sort((a, b) => b.count - a.count);
  return { searches: pageOf(rows, params) };
}

// The no-result and no-click rates are numbers in the official spec, where the
// older documents made a rate null without data: 0 on a day without searches.
function noResultFigures(list: SearchEvent[]) {
  const noResultCount = list.filter((s) => s.nbHits === 0).length;
  return { rate: ratio(noResultCount, list.length) ?? 0, count: list.length, noResultCount };
}

export function noResultRate(scope: Scope, params: ReportParams) {
  return { ...noResultFigures(scope.searches), dates: byDay(scope, params, noResultFigures) };
}

export function topHits(scope: Scope, params: ReportParams) {
  const searches = searchesFor(scope, params.search);
  const rows = ranked(searches.flatMap((s) => s.hits)).map(([hit, count]) => ({ hit, count }));
  if (!params.clickAnalytics && !params.revenueAnalytics) return { hits: pageOf(rows, params) };
  const page = pageOf(rows, params);
  const figuresOf = hitFigures(scope, searches, new Set(page.map((row) => row.hit)));
  return {
    hits: page.map((row) => {
      const figures = figuresOf.get(row.hit) ?? emptyHitFigures();
      const { clickCount, conversionCount, trackedHitCount, clickedIn, convertedIn } = figures;
      const withClicks = {
        ...row, clickThroughRate: ratio(clickedIn, trackedHitCount), conversionRate: ratio(convertedIn, trackedHitCount),
        trackedHitCount, clickCount, conversionCount,
      };
      if (!params.revenueAnalytics) return withClicks;
      return {
        ...withClicks, addToCartRate: ratio(figures.addedIn, trackedHitCount), addToCartCount: figures.addToCartCount,
        purchaseRate: ratio(figures.purchasedIn, trackedHitCount), purchaseCount: figures.purchaseCount, currencies: figures.currencies,
      };
    }),
  };
}

const emptyHitFigures = () => ({
  trackedHitCount: 0, clickCount: 0, conversionCount: 0, addToCartCount: 0, purchaseCount: 0,
  clickedIn: 0, convertedIn: 0, addedIn: 0, purchasedIn: 0,
  currencies: {} as Currencies,
});

/**
 * Per record of `hits`, its figures over the tracked searches that answered
 * it: how many there were, how many of them led to a click (a conversion,
 * ...) on it, and the events' counts and revenue. One pass over the searches.
 */
function hitFigures(scope: Scope, searches: SearchEvent[], hits: ReadonlySet<string>): Map<string, ReturnType<typeof emptyHitFigures>> {
  const out = new Map<string, ReturnType<typeof emptyHitFigures>>();
  for (const s of searches) {
    if (!s.tracked) continue;
    for (const hit of s.hits) {
      if (!hits.has(hit)) continue;
      let figures = out.get(hit);
      if (!figures) out.set(hit, (figures = emptyHitFigures()));
      figures.trackedHitCount++;
      const item = scope.outcome(s).byItem.get(hit);
      if (!item) continue;
      figures.clickCount += item.clicks;
      figures.conversionCount += item.conversions;
      figures.addToCartCount += item.addToCarts;
      figures.purchaseCount += item.purchases;
      if (item.clicks > 0) figures.clickedIn++;
      if (item.conversions > 0) figures.convertedIn++;
      if (item.addToCarts > 0) figures.addedIn++;
      if (item.purchases > 0) figures.purchasedIn++;
      addRevenue(figures.currencies, item.revenue);
    }
  }
  return out;
}

function distinctUsers(list: SearchEvent[]) {
  return { count: new Set(list.map((s) => s.user)).size };
}

export function usersCount(scope: Scope, params: ReportParams) {
  return { ...distinctUsers(scope.searches), dates: byDay(scope, params, distinctUsers) };
}

/** Searches of `search` when given (exact query), else every search of the scope. */
function searchesFor(scope: Scope, search: string | undefined): SearchEvent[] {
  return search === undefined ? scope.searches : scope.searches.filter((s) => queryKey(s) === fold(search.trim()));
}

export function topFilterAttributes(scope: Scope, params: ReportParams) {
  const attributes = searchesFor(scope, params.search).flatMap((s) => [...new Set(s.filters.map((f) => f.attribute))]);
  return { attributes: pageOf(ranked(attributes).map(([attribute, count]) => ({ attribute, count })), params) };
}

const filterKey = (f: UsedFilter) => JSON.stringify([f.attribute, f.operator, f.value]);
const filterOf = (key: string): UsedFilter => {
  const [attribute, operator, value] = JSON.parse(key);
  return { attribute, operator, value };
};

export function topFiltersNoResults(scope: Scope, params: ReportParams) {
  const empty = searchesFor(scope, params.search).filter((s) => s.nbHits === 0 && s.filters.length > 0);
  const sets = ranked(empty.map((s) => JSON.stringify(s.filters.map(filterKey).sort())));
  return { values: pageOf(sets.map(([set, count]) => ({ count, values: (JSON.parse(set) as string[]).map(filterOf) })), params) };
}

/** `/2/filters/{attribute list}`: values of the named attributes (comma-separated). */
export function topFilterValues(scope: Scope, params: Pick<ReportParams, 'search' | 'limit' | 'offset'>, attributeList: string) {
  const attributes = new Set(attributeList.split(',').map((a) => a.trim()));
  const keys = searchesFor(scope, params.search).flatMap((s) => [...new Set(s.filters.filter((f) => attributes.has(f.attribute)).map(filterKey))]);
  return { values: pageOf(ranked(keys).map(([key, count]) => ({ ...filterOf(key), count })), params) };
}

export function topCountries(scope: Scope, params: ReportParams) {
  const countries = scope.searches.flatMap((s) => (s.country ? [s.country] : []));
  return { countries: pageOf(ranked(countries).map(([country, count]) => ({ country, count })), params) };
}

export function averageClickPosition(scope: Scope, params: ReportParams) {
  const figures = (list: SearchEvent[]) => {
    const { averageClickPosition: average, clickCount } = engagementOf(scope, list);
    return { average, clickCount };
  };
  return { ...figures(scope.searches), dates: byDay(scope, params, figures) };
}

export function clickThroughRate(scope: Scope, params: ReportParams) {
  const figures = (list: SearchEvent[]) => {
    const { clickThroughRate: rate, trackedSearchCount, clickCount } = engagementOf(scope, list);
    return { rate, trackedSearchCount, clickCount };
  };
  return { ...figures(scope.searches), dates: byDay(scope, params, figures) };
}

export function conversionRate(scope: Scope, params: ReportParams) {
  const figures = (list: SearchEvent[]) => {
    const { conversionRate: rate, trackedSearchCount, conversionCount } = engagementOf(scope, list);
    return { rate, trackedSearchCount, conversionCount };
  };
  return { ...figures(scope.searches), dates: byDay(scope, params, figures) };
}

/** Tracked searches that found something, and those of them nobody clicked. */
function noClickFigures(scope: Scope, list: SearchEvent[]) {
  const withResults = list.filter((s) => s.tracked && s.nbHits > 0);
  const noClickCount = withResults.filter((s) => scope.outcome(s).clicks === 0).length;
  return { rate: ratio(noClickCount, withResults.length) ?? 0, count: withResults.length, noClickCount };
}

/** `/2/searches/noClicks`: queries with results whose tracked searches got no click at all. */
export function searchesNoClicks(scope: Scope, params: ReportParams) {
  const rows = [...searchesByQuery(scope)]
    .map(([search, list]) => ({ search, list: list.filter((s) => s.tracked && s.nbHits > 0) }))
    .filter(({ list }) => list.length > 0 && list.every((s) => scope.outcome(s).clicks === 0))
    .map(({ search, list }) => ({ search, count: list.length, nbHits: list[list.length - 1].nbHits }))
    .sort((a, b) => b.count - a.count);
  return { searches: pageOf(rows, params) };
}

export function noClickRate(scope: Scope, params: ReportParams) {
  const figures = (list: SearchEvent[]) => noClickFigures(scope, list);
  return { ...figures(scope.searches), dates: byDay(scope, params, figures) };
}

/** Click position buckets: each of the first ten positions, then 11–20 and 21 onwards (-1: the end). */
const POSITION_BUCKETS: Array<[number, number]> = [...Array.from({ length: 10 }, (_, i): [number, number] => [i + 1, i + 1]), [11, 20], [21, -1]];

/** Clicks of the tracked searches per position bucket (the twelve of POSITION_BUCKETS). */
function positionBuckets(scope: Scope, searches: SearchEvent[]) {
  const positions = searches.filter((s) => s.tracked).flatMap((s) => scope.outcome(s).positions);
  const inBucket = (p: number, [low, high]: [number, number]) => p >= low && (high === -1 || p <= high);
  return POSITION_BUCKETS.map((position) => ({ position, clickCount: positions.filter((p) => inBucket(p, position)).length }));
}

export function clickPositions(scope: Scope) {
  return { positions: positionBuckets(scope, scope.searches) };
}

/** Tracked searches followed by at least one conversion of a subtype, over tracked searches. */
function subtypeRate(scope: Scope, params: ReportParams, kind: 'addToCarts' | 'purchases', countName: string) {
  const figures = (list: SearchEvent[]) => {
    const outcomes = list.filter((s) => s.tracked).map((s) => scope.outcome(s));
    return {
      rate: rateOf(scope, list, kind),
      trackedSearchCount: outcomes.length,
      [countName]: outcomes.reduce((n, o) => n + o[kind], 0),
    };
  };
  return { ...figures(scope.searches), dates: byDay(scope, params, figures) };
}

export const addToCartRate = (scope: Scope, params: ReportParams) => subtypeRate(scope, params, 'addToCarts', 'addToCartCount');
export const purchaseRate = (scope: Scope, params: ReportParams) => subtypeRate(scope, params, 'purchases', 'purchaseCount');

type Currencies = Record<string, { currency: string; revenue: number }>;

/** Adds `revenue` (amount per currency) to the `currencies` of a report. */
function addRevenue(currencies: Currencies, revenue: Record<string, number>): void {
  for (const [currency, amount] of Object.entries(revenue)) {
    currencies[currency] = { currency, revenue: (currencies[currency]?.revenue ?? 0) + amount };
  }
}

/** Purchase revenue of the tracked searches among `searches`, per currency. */
function currenciesOf(scope: Scope, searches: SearchEvent[]): Currencies {
  const currencies: Currencies = {};
  for (const s of searches) if (s.tracked) addRevenue(currencies, scope.outcome(s).revenue);
  return currencies;
}

/** A top search's revenue figures (`revenueAnalytics`): add-to-carts, purchases, revenue per currency. */
function revenueFigures(scope: Scope, searches: SearchEvent[]) {
  const outcomes = searches.filter((s) => s.tracked).map((s) => scope.outcome(s));
  return {
    currencies: currenciesOf(scope, searches),
    addToCartRate: rateOf(scope, searches, 'addToCarts'),
    addToCartCount: outcomes.reduce((n, o) => n + o.addToCarts, 0),
    purchaseRate: rateOf(scope, searches, 'purchases'),
    purchaseCount: outcomes.reduce((n, o) => n + o.purchases, 0),
  };
}

/** Purchase revenue of the tracked searches, per currency. */
export function revenue(scope: Scope, params: ReportParams) {
  const figures = (list: SearchEvent[]) => ({ currencies: currenciesOf(scope, list) });
  return { ...figures(scope.searches), dates: byDay(scope, params, figures) };
}

/** When the index last received a search; null for none. */
export function status(store: EventStore, index: string) {
  let last: number | undefined;
  for (const s of store.searches) if (s.index === index && (last === undefined || s.at > last)) last = s.at;
  return { updatedAt: last === undefined ? null : new Date(last).toISOString() };
}
