// The A/B testing API v3 (/3/abtests): the same tests as v2 (tests.ts, the
// analytics state), created and shown in v3's shape. A v3 test names the
// metrics it reports (`metrics`, stored on the test) and may carry a
// configuration; a test created through v2 reports every metric. Each
// variant's metrics are a list of results (name, value, pValue against the
// control) from the searches the test routed and their clicks and
// conversions, as v2's figures (metrics.ts); the timeseries are the same
// results per UTC day.
import { ApiError, badRequest } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import { own } from '../util/own-keys.js';
import type { EventStore, SearchEvent } from '../analytics/events.js';
import { Scope } from '../analytics/reports.js';
import { DAY_MS, dayOf } from '../analytics/params.js';
import { significance } from './metrics.js';
import { sampleSizes } from './estimate.js';
import { newABTest, statusOf, testHeader, type ABTest, type MetricChoice } from './tests.js';

/** The metrics of v3 (its `MetricName`), in the order they are listed. */
export const METRIC_NAMES = [
  'search_count', 'tracked_search_count', 'user_count', 'tracked_user_count', 'no_result_count',
  'add_to_cart_count', 'purchase_count', 'clicked_search_count', 'converted_search_count',
  'click_through_rate', 'conversion_rate', 'add_to_cart_rate', 'purchase_rate', 'average_click_position', 'revenue',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** snake_case → camelCase (`click_through_rate` → `clickThroughRate`): the spec's examples name metrics both ways. */
const camel = (name: string) => name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
const BY_NAME = new Map<string, MetricName>(METRIC_NAMES.flatMap((n) => [[n, n], [camel(n), n]] as Array<[string, MetricName]>));

/** A metric's name as v3 writes it, from either spelling; undefined for an unknown one. */
export function metricName(text: unknown): MetricName | undefined {
  return typeof text === 'string' ? BY_NAME.get(text) : undefined;
}

/** The rates a two-proportion test compares, and the searches each counts as a success. */
const RATES = {
  click_through_rate: 'clicked_search_count',
  conversion_rate: 'converted_search_count',
  add_to_cart_rate: 'addToCartSearches',
  purchase_rate: 'purchaseSearches',
} as const;
type RateName = keyof typeof RATES;
const isRate = (name: MetricName): name is RateName => name in RATES;

const EFFECT_METRICS = ['addToCartRate', 'clickThroughRate', 'conversionRate', 'purchaseRate', 'noResultsRate'];
/** The rate each effect metric but noResultsRate is measured by. */
const EFFECT_RATES: Record<string, RateName> = {
  clickThroughRate: 'click_through_rate', conversionRate: 'conversion_rate', addToCartRate: 'add_to_cart_rate', purchaseRate: 'purchase_rate',
};
const ERROR_CORRECTIONS = ['bonferroni', 'benjamini-hochberg'];
/** The significance level results are judged at (before a multiple-testing correction). */
const ALPHA = 0.05;

const invalid = (message: string) => new ApiError('unprocessable', message);

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw invalid(`${where} has an unknown field "${key}" (allowed: ${allowed.join(', ')})`);
  }
}

function parseMetrics(value: unknown): MetricChoice[] {
  if (!Array.isArray(value)) throw invalid('metrics is required: an array of {name, dimension}');
  return value.map((m: unknown, i) => {
    if (!isPlainObject(m)) throw invalid(`metrics[${i}] must be an object`);
    onlyKeys(m, ['name', 'dimension'], `metrics[${i}]`);
    const name = metricName(m.name);
    if (!name) throw invalid(`metrics[${i}].name must be one of ${METRIC_NAMES.join(', ')}`);
    if (m.dimension === undefined) return { name };
    if (typeof m.dimension !== 'string' || m.dimension === '') throw invalid(`metrics[${i}].dimension must be a non-empty string`);
    if (name !== 'revenue') throw invalid(`metrics[${i}].dimension is for revenue only (its currency)`);
    return { name, dimension: m.dimension };
  });
}

function parseConfiguration(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw invalid('configuration must be an object');
  onlyKeys(value, ['minimumDetectableEffect', 'filters', 'errorCorrection'], 'configuration');
  const { minimumDetectableEffect: effect, filters, errorCorrection } = value;
  if (effect !== undefined) {
    if (!isPlainObject(effect)) throw invalid('configuration.minimumDetectableEffect must be an object');
    if (typeof effect.size !== 'number' || !(effect.size >= 0 && effect.size <= 1)) throw invalid('minimumDetectableEffect.size must be a number from 0 to 1');
    if (typeof effect.metric !== 'string' || !EFFECT_METRICS.includes(effect.metric)) throw invalid(`minimumDetectableEffect.metric must be one of ${EFFECT_METRICS.join(', ')}`);
  }
  if (filters !== undefined) {
    if (!Array.isArray(filters)) throw invalid('configuration.filters must be an array');
    filters.forEach((f: unknown, i) => {
      if (!isPlainObject(f)) throw invalid(`configuration.filters[${i}] must be an object`);
      onlyKeys(f, ['domain', 'name', 'trackEffects', 'includes'], `configuration.filters[${i}]`);
      if (typeof f.domain !== 'string' || typeof f.name !== 'string') throw invalid(`configuration.filters[${i}] needs a domain and a name (strings)`);
      for (const flag of ['trackEffects', 'includes']) {
        if (f[flag] !== undefined && typeof f[flag] !== 'boolean') throw invalid(`configuration.filters[${i}].${flag} must be a boolean`);
      }
    });
  }
  if (errorCorrection !== undefined && !ERROR_CORRECTIONS.includes(errorCorrection as string)) {
    throw invalid(`configuration.errorCorrection must be one of ${ERROR_CORRECTIONS.join(', ')}`);
  }
  return value;
}

/** A new test from a v3 create request (name, variants, metrics and endAt required); 422 when invalid, 404 for a missing index. */
export function newABTestV3(body: unknown, id: number, now: number, indexExists: (name: string) => boolean): ABTest {
  if (!isPlainObject(body)) throw invalid('The body must be an object');
  onlyKeys(body, ['name', 'variants', 'metrics', 'configuration', 'endAt'], 'The body');
  if (body.endAt === undefined) throw invalid('endAt is required');
  if (Array.isArray(body.variants)) {
    body.variants.forEach((v: unknown, i) => { if (isPlainObject(v)) onlyKeys(v, ['index', 'trafficPercentage', 'description', 'customSearchParameters'], `variants[${i}]`); });
    if (body.variants.length > 2) throw invalid('Lantern runs A/B tests of exactly 2 variants (the control and one variant)');
  }
  const metrics = parseMetrics(body.metrics);
  const configuration = parseConfiguration(body.configuration);
  const test = newABTest(body, id, now, indexExists);
  return { ...test, metrics, ...(configuration ? { configuration } : {}) };
}

/** What a variant's searches add up to: each metric's value (null: no data) and the revenue per currency. */
interface Figures {
  values: Record<Exclude<MetricName, 'revenue'>, number | null>;
  successes: Record<RateName, number>;
  revenue: Record<string, number>;
  /** When the variant's last search happened (undefined: none). */
  last?: number;
}

function figuresOf(scope: Scope, searches: SearchEvent[]): Figures {
  const tracked = searches.filter((s) => s.tracked);
  const outcomes = tracked.map((s) => scope.outcome(s));
  const count = (test: (o: (typeof outcomes)[number]) => boolean) => outcomes.filter(test).length;
  const sum = (pick: (o: (typeof outcomes)[number]) => number) => outcomes.reduce((n, o) => n + pick(o), 0);
  const rate = (n: number) => (tracked.length ? n / tracked.length : null);
  const positions = outcomes.flatMap((o) => o.positions);
  const successes = {
    click_through_rate: count((o) => o.clicks > 0),
    conversion_rate: count((o) => o.conversions > 0),
    add_to_cart_rate: count((o) => o.addToCarts > 0),
    purchase_rate: count((o) => o.purchases > 0),
  };
  const revenue: Record<string, number> = {};
  for (const o of outcomes) for (const [currency, amount] of Object.entries(o.revenue)) revenue[currency] = (revenue[currency] ?? 0) + amount;
  return {
    values: {
      search_count: searches.length,
      tracked_search_count: tracked.length,
      user_count: new Set(searches.map((s) => s.user)).size,
      tracked_user_count: new Set(tracked.map((s) => s.user)).size,
      no_result_count: searches.filter((s) => s.nbHits === 0).length,
      add_to_cart_count: sum((o) => o.addToCarts),
      purchase_count: sum((o) => o.purchases),
      clicked_search_count: successes.click_through_rate,
      converted_search_count: successes.conversion_rate,
      click_through_rate: rate(successes.click_through_rate),
      conversion_rate: rate(successes.conversion_rate),
      add_to_cart_rate: rate(successes.add_to_cart_rate),
      purchase_rate: rate(successes.purchase_rate),
      average_click_position: positions.length ? positions.reduce((a, b) => a + b, 0) / positions.length : null,
    },
    successes,
    revenue,
    last: searches.length ? searches.reduce((t, s) => Math.max(t, s.at), 0) : undefined,
  };
}

export interface MetricResult {
  name: MetricName;
  updatedAt: string;
  value: number;
  pValue: number;
  dimension?: string;
  criticalValue?: number;
  significant?: boolean;
}

/** The metrics to report: the test's own choice, else every metric (revenue once per currency seen). */
function chosen(test: ABTest, figures: Figures[], only?: ReadonlySet<MetricName>): MetricChoice[] {
  const currencies = [...new Set(figures.flatMap((f) => Object.keys(f.revenue)))].sort();
  const choices: MetricChoice[] = test.metrics ?? METRIC_NAMES.map((name) => ({ name }));
  return choices
    .filter((c) => !only || only.has(c.name as MetricName))
    .flatMap((c) => (c.name === 'revenue' && c.dimension === undefined ? currencies.map((dimension) => ({ name: c.name, dimension })) : [c]));
}

/**
 * Each variant's results. The control's pValue is 0 (the spec's rule); a
 * variant's rate has the two-sided p-value of a two-proportion z-test
 * against the control, judged at 5 % after the test's multiple-testing
 * correction (`criticalValue`, `significant`); counts, the average click
 * position and revenue are not tested (pValue 1). A metric without data
 * (a rate without tracked searches, a position without clicks) is left out:
 * a result's value is a number.
 */
function resultsOf(test: ABTest, figures: Figures[], at: string, only?: ReadonlySet<MetricName>): MetricResult[][] {
  const choices = chosen(test, figures, only);
  const results = figures.map((f, variant) => choices.flatMap((c): MetricResult[] => {
    const name = c.name as MetricName;
    const updatedAt = f.last === undefined ? at : new Date(f.last).toISOString();
    if (name === 'revenue') {
      const value = f.revenue[c.dimension!] ?? 0;
      return [{ name, dimension: c.dimension!, updatedAt, value, pValue: variant === 0 ? 0 : 1 }];
    }
    const value = f.values[name];
    if (value === null) return [];
    if (variant === 0 || !isRate(name)) return [{ name, updatedAt, value, pValue: variant === 0 ? 0 : 1 }];
    const control = figures[0];
    const confidence = significance(control.successes[name], control.values.tracked_search_count!, f.successes[name], f.values.tracked_search_count!);
    return [{ name, updatedAt, value, pValue: confidence === null ? 1 : Math.max(0, 1 - confidence) }];
  }));
  correct(results.slice(1).flat().filter((r) => isRate(r.name)), test.configuration?.errorCorrection);
  return results;
}

/** Sets each tested result's criticalValue and significant: Bonferroni, Benjamini-Hochberg, or 5 % each without a correction. */
function correct(tested: MetricResult[], method: unknown): void {
  const m = tested.length;
  if (method === 'benjamini-hochberg') {
    const ranked = [...tested].sort((a, b) => a.pValue - b.pValue);
    let passing = 0;
    ranked.forEach((r, i) => { if (r.pValue <= ((i + 1) / m) * ALPHA) passing = i + 1; });
    ranked.forEach((r, i) => Object.assign(r, { criticalValue: ((i + 1) / m) * ALPHA, significant: i < passing }));
    return;
  }
  const critical = method === 'bonferroni' ? ALPHA / m : ALPHA;
  for (const r of tested) Object.assign(r, { criticalValue: critical, significant: r.pValue <= critical });
}

function testScope(test: ABTest, store: EventStore): { scope: Scope; perVariant: SearchEvent[][] } {
  const scope = new Scope(store, (s) => s.abTest?.id === test.abTestID);
  return { scope, perVariant: test.variants.map((_, i) => scope.searches.filter((s) => s.abTest!.variant === i + 1)) };
}

/** Per variant, the searches needed to detect the configured minimum effect (from the control's rate so far); undefined without one. */
function estimatedSampleSizes(test: ABTest, figures: Figures[]): number[] | undefined {
  const effect = test.configuration?.minimumDetectableEffect as { size: number; metric: string } | undefined;
  if (!effect || !(effect.size > 0)) return undefined;
  const control = figures[0].values;
  const rate = effect.metric === 'noResultsRate'
    ? (control.search_count ? control.no_result_count! / control.search_count : null)
    : control[own(EFFECT_RATES, effect.metric) as RateName];
  const expected = rate ? rate * (1 + effect.size) : 0;
  if (!rate || expected >= 1) return undefined;
  const [a, b] = test.variants.map((v) => v.trafficPercentage);
  return sampleSizes(rate, expected, b / a);
}

/** An A/B test in v3's shape (the `ABTest` schema). */
export function describeABTestV3(test: ABTest, store: EventStore, now = Date.now()) {
  const { scope, perVariant } = testScope(test, store);
  const figures = perVariant.map((list) => figuresOf(scope, list));
  const results = resultsOf(test, figures, test.updatedAt);
  const sizes = estimatedSampleSizes(test, figures);
  return {
    ...testHeader(test, now),
    variants: test.variants.map((v, i) => ({
      index: v.index,
      trafficPercentage: v.trafficPercentage,
      description: v.description,
      ...(v.customSearchParameters ? { customSearchParameters: v.customSearchParameters } : {}),
      ...(sizes ? { estimatedSampleSize: sizes[i] } : {}),
      metrics: results[i],
    })),
    ...(test.configuration ? { configuration: test.configuration } : {}),
  };
}

function parseDay(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms) || dayOf(ms) !== text) throw badRequest(`Invalid value for "${name}": expected a date YYYY-MM-DD`);
  return ms;
}

/** The `metric` query parameter: comma-separated metric names; undefined for every metric. */
function parseMetricParam(text: string | undefined): Set<MetricName> | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return new Set(text.split(',').map((t) => {
    const name = metricName(t.trim());
    if (!name) throw badRequest(`Invalid value for "metric": "${t.trim()}" is not one of ${METRIC_NAMES.join(', ')}`);
    return name;
  }));
}

/**
 * GET /3/abtests/{id}/timeseries: per variant, each UTC day's results from
 * that day's searches. The days are those asked for (startDate, endDate)
 * within the test's life: from its creation to its stop, its end or today.
 */
export function timeseriesV3(test: ABTest, store: EventStore, query: Record<string, string>, now = Date.now()) {
  const only = parseMetricParam(query.metric);
  const asked = { start: parseDay('startDate', query.startDate), end: parseDay('endDate', query.endDate) };
  if (asked.start !== undefined && asked.end !== undefined && asked.start > asked.end) throw badRequest('startDate must not be after endDate');
  const ended = Math.min(now, Date.parse(test.stoppedAt ?? test.endAt));
  const first = Math.max(asked.start ?? 0, Date.parse(`${test.createdAt.slice(0, 10)}T00:00:00Z`));
  const last = Math.min(asked.end ?? Infinity, Date.parse(`${dayOf(Math.max(ended, Date.parse(test.createdAt)))}T00:00:00Z`));
  const days: string[] = [];
  for (let d = first; d <= last; d += DAY_MS) days.push(dayOf(d));
  const { scope, perVariant } = testScope(test, store);
  const byDay = days.map((date) => {
    const figures = perVariant.map((list) => figuresOf(scope, list.filter((s) => dayOf(s.at) === date)));
    return { date, results: resultsOf(test, figures, `${date}T00:00:00Z`, only) };
  });
  return {
    abTestID: test.abTestID,
    variants: test.variants.map((_, i) => ({ dates: byDay.map(({ date, results }) => ({ date, metrics: results[i] })) })),
  };
}

/** v3's list order: active tests first, then by creation (`direction`, newest first by default). */
export function listOrderV3(direction: string | undefined, now = Date.now()): (a: ABTest, b: ABTest) => number {
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') throw badRequest('Invalid value for "direction": expected asc or desc');
  const sign = direction === 'asc' ? 1 : -1;
  const active = (t: ABTest) => (statusOf(t, now) === 'active' ? 0 : 1);
  return (a, b) => active(a) - active(b) || sign * (Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.abTestID - b.abTestID);
}
