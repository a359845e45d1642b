// The analytics patterns queries (/3/patterns/*): metrics over the recorded
// searches and what followed them, picked by the field catalog Lantern
// publishes (`catalog()`, one domain, `core`). A query names its metrics
// (and groupBy fields, filters, distributions) by kind and gives its literal
// values in `parameters`: `indices` (required: the indexes searched),
// `startDate` and `endDate` (UTC days as the /2 reports take, or date-times
// such as 2026-11-22T00:00:00Z; the last 90 days at most, the last 8 by
// default), `tags` (analyticsTags, as /2's), and the
// operands filters refer to. Searches count as the /2 reports count them
// (final queries of keystroke series; clicks and conversions attributed
// through their queryID: reports.ts). Every mistake is a 400 naming it.
import { badRequest } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import { fold } from '../text/fold.js';
import type { EventStore, SearchEvent } from './events.js';
import { engagementOf, rateOf, Scope } from './reports.js';
import { dayOf, matchesTags, parseReportParams, parseTags } from './params.js';

/** The one domain of Lantern's catalog (a query's default when it names none). */
export const DOMAIN = 'core';

type Value = number | string | null;
type Figure = (scope: Scope, searches: SearchEvent[]) => number | null;

interface Field { description: string }
interface MetricField extends Field { value: Figure }
interface GroupField extends Field { key: (s: SearchEvent) => string | null }
type FilterTest = (s: SearchEvent, operand: unknown) => boolean;
interface FilterField extends Field { boolean?: (s: SearchEvent) => boolean; operators?: Record<string, FilterTest> }
interface DistributionField extends Field { values: (scope: Scope, searches: SearchEvent[]) => number[] }

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);
const tracked = (searches: SearchEvent[]) => searches.filter((s) => s.tracked);
const outcomeSum = (pick: 'clicks' | 'conversions' | 'addToCarts' | 'purchases'): Figure =>
  (scope, searches) => tracked(searches).reduce((n, s) => n + scope.outcome(s)[pick], 0);
const withOutcome = (pick: 'clicks' | 'conversions'): Figure =>
  (scope, searches) => tracked(searches).filter((s) => scope.outcome(s)[pick] > 0).length;

const METRICS: Record<string, MetricField> = {
  searchesCount: { description: 'Searches (final queries of keystroke series).', value: (_, l) => l.length },
  usersCount: { description: 'Distinct users (userToken, else source address) who searched.', value: (_, l) => new Set(l.map((s) => s.user)).size },
  noResultsCount: { description: 'Searches without results.', value: (_, l) => l.filter((s) => s.nbHits === 0).length },
  noResultsRate: { description: 'Share of searches without results (null without searches).', value: (_, l) => ratio(l.filter((s) => s.nbHits === 0).length, l.length) },
  trackedSearchesCount: { description: 'Searches with clickAnalytics (a queryID events can refer to).', value: (_, l) => tracked(l).length },
  clicksCount: { description: 'Distinct clicks attributed to the tracked searches.', value: outcomeSum('clicks') },
  clickedSearchesCount: { description: 'Tracked searches with at least one click.', value: withOutcome('clicks') },
  conversionsCount: { description: 'Distinct conversions attributed to the tracked searches.', value: outcomeSum('conversions') },
  convertedSearchesCount: { description: 'Tracked searches with at least one conversion.', value: withOutcome('conversions') },
  clickThroughRate: { description: 'Share of tracked searches with a click (null without tracked searches).', value: (scope, l) => rateOf(scope, l, 'clicks') },
  conversionRate: { description: 'Share of tracked searches with a conversion.', value: (scope, l) => rateOf(scope, l, 'conversions') },
  averageClickPosition: { description: 'Mean position of the clicks (null without clicks).', value: (scope, l) => engagementOf(scope, l).averageClickPosition },
  addToCartCount: { description: 'Distinct addToCart conversions.', value: outcomeSum('addToCarts') },
  addToCartRate: { description: 'Share of tracked searches with an addToCart conversion.', value: (scope, l) => rateOf(scope, l, 'addToCarts') },
  purchaseCount: { description: 'Distinct purchase conversions.', value: outcomeSum('purchases') },
  purchaseRate: { description: 'Share of tracked searches with a purchase.', value: (scope, l) => rateOf(scope, l, 'purchases') },
};

const queryKey = (s: SearchEvent) => fold(s.query.trim());

const GROUPS: Record<string, GroupField> = {
  index: { description: 'The index searched.', key: (s) => s.index },
  search: { description: 'The query (trimmed, case and accents folded, as /2/searches groups it).', key: queryKey },
  country: { description: 'The country (ISO code) of the search\'s source address; null when unknown.', key: (s) => s.country ?? null },
};

const text = (operand: unknown) => (typeof operand === 'string' ? operand : '');
const list = (operand: unknown) => (Array.isArray(operand) ? operand.filter((v): v is string => typeof v === 'string') : [text(operand)]);
const num = (operand: unknown) => (typeof operand === 'number' ? operand : NaN);

/** The operators of a string field read by `get` (null: the search has none). */
function stringOperators(get: (s: SearchEvent) => string | null, normalise = (t: string) => t): Record<string, FilterTest> {
  const value = (s: SearchEvent) => get(s) ?? '';
  return {
    '=': (s, o) => value(s) === normalise(text(o)),
    '!=': (s, o) => value(s) !== normalise(text(o)),
    IN: (s, o) => list(o).map(normalise).includes(value(s)),
    CONTAINS: (s, o) => value(s).includes(normalise(text(o))),
    STARTS_WITH: (s, o) => value(s).startsWith(normalise(text(o))),
    CONTAINS_PREFIX: (s, o) => value(s).split(/\s+/).some((w) => w.startsWith(normalise(text(o)))),
  };
}

const FILTERS: Record<string, FilterField> = {
  index: { description: 'The index searched (operators =, !=, IN, CONTAINS, STARTS_WITH, CONTAINS_PREFIX).', operators: stringOperators((s) => s.index) },
  search: { description: 'The query, folded (operators as index).', operators: stringOperators(queryKey, (t) => fold(t.trim())) },
  country: { description: 'The country code (operators as index).', operators: stringOperators((s) => s.country ?? null) },
  tags: {
    description: 'The analyticsTags of the search: CONTAINS one tag, IN any of a list.',
    operators: { CONTAINS: (s, o) => s.tags.includes(text(o)), IN: (s, o) => list(o).some((t) => s.tags.includes(t)) },
  },
  nbHits: {
    description: 'The number of hits (operators =, !=, >, <, >=, <=; a number operand).',
    operators: {
      '=': (s, o) => s.nbHits === num(o), '!=': (s, o) => s.nbHits !== num(o), '>': (s, o) => s.nbHits > num(o),
      '<': (s, o) => s.nbHits < num(o), '>=': (s, o) => s.nbHits >= num(o), '<=': (s, o) => s.nbHits <= num(o),
    },
  },
  hasResults: { description: 'Boolean: the search found something.', boolean: (s) => s.nbHits > 0 },
  tracked: { description: 'Boolean: the search had clickAnalytics.', boolean: (s) => s.tracked },
  hasFilters: { description: 'Boolean: the search used filters.', boolean: (s) => s.filters.length > 0 },
};

const DISTRIBUTIONS: Record<string, DistributionField> = {
  clickPosition: { description: 'Positions of the clicks on tracked searches.', values: (scope, l) => tracked(l).flatMap((s) => scope.outcome(s).positions) },
  nbHits: { description: 'Number of hits of each search.', values: (_, l) => l.map((s) => s.nbHits) },
};

const ROOTS = ['searches'];

function entries(fields: Record<string, Field>) {
  return Object.entries(fields).map(([kind, f]) => ({ kind, description: f.description, roots: ROOTS, requires: [] as string[] }));
}

/** GET /3/patterns/fields: the catalog (the `Catalog` schema). */
export function catalog() {
  return { domains: { [DOMAIN]: { metrics: entries(METRICS), filters: entries(FILTERS), groups: entries(GROUPS), distributions: entries(DISTRIBUTIONS) } } };
}

// ---------------------------------------------------------------------------
// Reading a query

type Body = Record<string, unknown>;

function objectOf(value: unknown, what: string): Body {
  if (!isPlainObject(value)) throw badRequest(`${what} must be an object`);
  return value;
}

function onlyKeys(value: Body, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw badRequest(`${where} has an unknown field "${key}" (allowed: ${allowed.join(', ')})`);
  }
}

function arrayOf(body: Body, name: string, required: boolean): unknown[] {
  const value = body[name];
  if (value === undefined && !required) return [];
  if (!Array.isArray(value)) throw badRequest(required ? `${name} is required: an array` : `${name} must be an array`);
  return value;
}

/** A field entry's kind, checked against the catalog's `fields` of its domain. */
function kindOf<T>(value: unknown, where: string, fields: Record<string, T>, usage: string, domain: string, extra: string[] = []): string {
  const entry = objectOf(value, where);
  onlyKeys(entry, ['domain', 'kind', ...extra], where);
  const entryDomain = entry.domain ?? domain;
  if (entryDomain !== DOMAIN) throw badRequest(`${where}.domain: unknown domain ${JSON.stringify(entryDomain)} (Lantern's catalog has "${DOMAIN}")`);
  if (typeof entry.kind !== 'string' || !Object.hasOwn(fields, entry.kind)) {
    throw badRequest(`${where}.kind: ${JSON.stringify(entry.kind)} is not a ${usage} of domain ${DOMAIN} (one of ${Object.keys(fields).join(', ')}; see /3/patterns/fields)`);
  }
  return entry.kind;
}

function intOf(body: Body, name: string, fallback: number, min: number, max: number): number {
  const value = body[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`Invalid value for "${name}": expected an integer from ${min} to ${max}`);
  }
  return value;
}

interface Query {
  scope: Scope;
  days: string[];
  indices: string[];
}

/** The literal values of `parameters`, by kind. */
function parametersOf(body: Body): Map<string, unknown> {
  const values = new Map<string, unknown>();
  arrayOf(body, 'parameters', true).forEach((p, i) => {
    const where = `parameters[${i}]`;
    const entry = objectOf(p, where);
    onlyKeys(entry, ['domain', 'kind', 'value'], where);
    if (typeof entry.kind !== 'string' || entry.kind === '') throw badRequest(`${where}.kind is required: a string`);
    const value = entry.value;
    const ok = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (!ok) throw badRequest(`${where}.value is required: a string, a number, a boolean or an array of strings`);
    if (values.has(entry.kind)) throw badRequest(`parameters: "${entry.kind}" is given twice`);
    values.set(entry.kind, value);
  });
  return values;
}

function stringParameter(values: Map<string, unknown>, kind: string): string | undefined {
  const value = values.get(kind);
  if (value !== undefined && typeof value !== 'string') throw badRequest(`parameters: "${kind}" must be a string`);
  return value;
}

/** The searches a query reads: its indices and days, its tags and filters. */
function queryOf(body: Body, domain: string, store: EventStore, now: number): Query {
  const values = parametersOf(body);
  const indices = values.get('indices');
  if (!Array.isArray(indices) || indices.length === 0 || indices.includes('')) throw badRequest('parameters must give "indices": a non-empty array of index names');
  const range = parseReportParams({
    index: String(indices[0]),
    ...definedOnly({ startDate: stringParameter(values, 'startDate'), endDate: stringParameter(values, 'endDate') }),
  }, now, { dateTimes: true });
  const tags = parseTags(stringParameter(values, 'tags'));
  const tests = arrayOf(body, 'filters', false).map((f, i) => filterOf(f, `filters[${i}]`, domain, values));
  const wanted = new Set(indices as string[]);
  const scope = new Scope(store, (s) => wanted.has(s.index) && s.at >= range.from && s.at < range.to && matchesTags(tags, s.tags) && tests.every((t) => t(s)));
  return { scope, days: range.days, indices: indices as string[] };
}

function definedOnly(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

function filterOf(value: unknown, where: string, domain: string, values: Map<string, unknown>): (s: SearchEvent) => boolean {
  const kind = kindOf(value, where, FILTERS, 'filter', domain, ['operator', 'parameter']);
  const entry = value as Body;
  const field = FILTERS[kind];
  if (entry.operator === undefined) {
    if (!field.boolean) throw badRequest(`${where}: "${kind}" is not boolean: it needs an operator and a parameter`);
    if (entry.parameter !== undefined) throw badRequest(`${where}: a boolean filter takes no parameter`);
    return field.boolean;
  }
  const operators = field.operators ?? {};
  if (typeof entry.operator !== 'string' || !Object.hasOwn(operators, entry.operator)) {
    throw badRequest(`${where}.operator: ${JSON.stringify(entry.operator)} does not apply to "${kind}" (${field.boolean ? 'a boolean field takes none' : `one of ${Object.keys(operators).join(', ')}`})`);
  }
  const parameter = objectOf(entry.parameter, `${where}.parameter`);
  onlyKeys(parameter, ['domain', 'kind'], `${where}.parameter`);
  if (typeof parameter.kind !== 'string' || !values.has(parameter.kind)) {
    throw badRequest(`${where}.parameter: "${String(parameter.kind)}" is not among the parameters`);
  }
  const operand = values.get(parameter.kind);
  const numeric = kind === 'nbHits';
  if (numeric ? typeof operand !== 'number' : entry.operator === 'IN' ? !Array.isArray(operand) : typeof operand !== 'string') {
    throw badRequest(`${where}: the parameter "${parameter.kind}" must be ${numeric ? 'a number' : entry.operator === 'IN' ? 'an array of strings' : 'a string'}`);
  }
  const test = operators[entry.operator];
  return (s) => test(s, operand);
}

function domainOf(body: Body): string {
  if (body.domain !== undefined && typeof body.domain !== 'string') throw badRequest('domain must be a string');
  return (body.domain as string | undefined) ?? DOMAIN;
}

function metricsOf(body: Body, domain: string): string[] {
  const kinds = arrayOf(body, 'metrics', true).map((m, i) => kindOf(m, `metrics[${i}]`, METRICS, 'metric', domain));
  if (kinds.length === 0) throw badRequest('metrics must name at least one metric');
  return kinds;
}

function groupsOf(body: Body, domain: string): string[] {
  return arrayOf(body, 'groupBy', false).map((g, i) => kindOf(g, `groupBy[${i}]`, GROUPS, 'group', domain));
}

/** The body of a patterns query, with only `allowed` fields. */
function payload(body: unknown, allowed: string[]): Body {
  const b = objectOf(body, 'The body');
  onlyKeys(b, allowed, 'The body');
  return b;
}

function figures(kinds: string[], scope: Scope, searches: SearchEvent[]): Record<string, Value> {
  return Object.fromEntries(kinds.map((k) => [k, METRICS[k].value(scope, searches)]));
}

/** The scope's searches by their values of `groups` (one group of all without any). */
function grouped(scope: Scope, groups: string[]): Array<{ key: Record<string, Value>; searches: SearchEvent[] }> {
  const out = new Map<string, { key: Record<string, Value>; searches: SearchEvent[] }>();
  for (const s of scope.searches) {
    const key = Object.fromEntries(groups.map((g) => [g, GROUPS[g].key(s)]));
    const id = JSON.stringify(key);
    const group = out.get(id);
    if (group) group.searches.push(s); else out.set(id, { key, searches: [s] });
  }
  return [...out.values()];
}

// ---------------------------------------------------------------------------
// The four queries

export interface Checked { indices: string[] }

/** POST /3/patterns/timeseries: a series per groupBy combination (most searched first), totals and per-day metrics. */
export function timeseries(body: unknown, store: EventStore, check: (q: Checked) => void, now = Date.now()) {
  const b = payload(body, ['domain', 'metrics', 'groupBy', 'filters', 'parameters', 'limit', 'offset']);
  const domain = domainOf(b);
  const metrics = metricsOf(b, domain);
  const groups = groupsOf(b, domain);
  const limit = intOf(b, 'limit', 100, 1, 100);
  const offset = intOf(b, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const query = queryOf(b, domain, store, now);
  check(query);
  if (query.scope.searches.length === 0) return { series: null };
  const series = grouped(query.scope, groups)
    .sort((a, b2) => b2.searches.length - a.searches.length)
    .slice(offset, offset + limit)
    .map(({ key, searches }) => {
      const byDay = new Map<string, SearchEvent[]>();
      for (const s of searches) {
        const day = dayOf(s.at);
        const list = byDay.get(day);
        if (list) list.push(s); else byDay.set(day, [s]);
      }
      return {
        ...(groups.length ? { key } : {}),
        totals: figures(metrics, query.scope, searches),
        dates: query.days.map((date) => ({ date, metrics: figures(metrics, query.scope, byDay.get(date) ?? []) })),
      };
    });
  return { series };
}

/** POST /3/patterns/scalar: each metric over the whole period. */
export function scalar(body: unknown, store: EventStore, check: (q: Checked) => void, now = Date.now()) {
  const b = payload(body, ['domain', 'metrics', 'filters', 'parameters']);
  const domain = domainOf(b);
  const metrics = metricsOf(b, domain);
  const query = queryOf(b, domain, store, now);
  check(query);
  return figures(metrics, query.scope, query.scope.searches);
}

/** POST /3/patterns/table: a row per groupBy combination (one row without groupBy), sorted by orderBy (nulls last). */
export function table(body: unknown, store: EventStore, check: (q: Checked) => void, now = Date.now()) {
  const b = payload(body, ['domain', 'metrics', 'groupBy', 'filters', 'parameters', 'orderBy', 'limit', 'offset']);
  const domain = domainOf(b);
  const metrics = metricsOf(b, domain);
  const groups = groupsOf(b, domain);
  const orders = arrayOf(b, 'orderBy', false).map((o, i) => {
    const where = `orderBy[${i}]`;
    const entry = objectOf(o, where);
    onlyKeys(entry, ['domain', 'kind', 'direction'], where);
    if (typeof entry.kind !== 'string' || !(metrics.includes(entry.kind) || groups.includes(entry.kind))) {
      throw badRequest(`${where}.kind: ${JSON.stringify(entry.kind)} must be one of the query's metrics or groupBy fields`);
    }
    if (entry.direction !== 'asc' && entry.direction !== 'desc') throw badRequest(`${where}.direction is required: asc or desc`);
    return { kind: entry.kind, sign: entry.direction === 'asc' ? 1 : -1 };
  });
  if (groups.length && !orders.length) throw badRequest('orderBy is required when groupBy is set');
  const limit = intOf(b, 'limit', 1000, 1, 1000);
  const offset = intOf(b, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const query = queryOf(b, domain, store, now);
  check(query);
  const rows = (groups.length ? grouped(query.scope, groups) : [{ key: {}, searches: query.scope.searches }])
    .map(({ key, searches }) => ({ ...key, ...figures(metrics, query.scope, searches) }) as Record<string, Value>);
  rows.sort((x, y) => {
    for (const { kind, sign } of orders) {
      const [a, c] = [x[kind], y[kind]];
      if (a === c) continue;
      if (a === null || c === null) return a === null ? 1 : -1;
      return sign * (typeof a === 'number' && typeof c === 'number' ? a - c : String(a).localeCompare(String(c)));
    }
    return 0;
  });
  return { rows: rows.slice(offset, offset + limit) };
}

/**
 * A histogram's bins from its edges: [a, b) each, a last edge of -1 leaving
 * the last bin open. Labels: discrete bins of one value are that value
 * (`"3"`), wider ones `"11-20"`, continuous ones `"0.5-1.5"`, an open one
 * `"21+"`.
 */
function binsOf(edges: unknown, where: string, continuous: boolean): Array<{ label: string; low: number; high: number }> {
  if (!Array.isArray(edges) || edges.length < 2 || !edges.every((e) => typeof e === 'number' && Number.isFinite(e))) {
    throw badRequest(`${where}.bins is required: at least 2 numbers (bin edges)`);
  }
  const open = edges.at(-1) === -1;
  const closed = (open ? edges.slice(0, -1) : edges) as number[];
  if (!continuous && !closed.every(Number.isInteger)) throw badRequest(`${where}.bins: a discrete distribution takes integer edges (continuous: true for others)`);
  if (closed.length < (open ? 1 : 2)) throw badRequest(`${where}.bins: at least one bin is needed`);
  for (let i = 1; i < closed.length; i++) if (!(closed[i] > closed[i - 1])) throw badRequest(`${where}.bins must ascend (only a last -1 may follow: an open last bin)`);
  const bins = [];
  for (let i = 0; i + 1 < closed.length; i++) {
    const [low, high] = [closed[i], closed[i + 1]];
    const label = continuous ? `${low}-${high}` : high - low === 1 ? `${low}` : `${low}-${high - 1}`;
    bins.push({ label, low, high });
  }
  if (open) bins.push({ label: `${closed.at(-1)}+`, low: closed.at(-1)!, high: Infinity });
  return bins;
}

/** POST /3/patterns/distribution: `histogram<Kind>` per distribution, bin label → count. */
export function distribution(body: unknown, store: EventStore, check: (q: Checked) => void, now = Date.now()) {
  const b = payload(body, ['domain', 'distributions', 'filters', 'parameters']);
  const domain = domainOf(b);
  const definitions = arrayOf(b, 'distributions', true).map((d, i) => {
    const where = `distributions[${i}]`;
    const kind = kindOf(d, where, DISTRIBUTIONS, 'distribution', domain, ['continuous', 'bins']);
    const entry = d as Body;
    if (entry.continuous !== undefined && typeof entry.continuous !== 'boolean') throw badRequest(`${where}.continuous must be a boolean`);
    return { kind, bins: binsOf(entry.bins, where, entry.continuous === true) };
  });
  if (definitions.length === 0) throw badRequest('distributions must name at least one distribution');
  const query = queryOf(b, domain, store, now);
  check(query);
  const out: Record<string, Record<string, number>> = {};
  for (const { kind, bins } of definitions) {
    const counts = Object.fromEntries(bins.map((bin) => [bin.label, 0]));
    for (const v of DISTRIBUTIONS[kind].values(query.scope, query.scope.searches)) {
      const bin = bins.find((x) => v >= x.low && v < x.high);
      if (bin) counts[bin.label]++;
    }
    out[`histogram${kind[0].toUpperCase()}${kind.slice(1)}`] = counts;
  }
  return out;
}
