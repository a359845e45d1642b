// POST /2/abtests/estimate: how many tracked searches each variant needs to
// detect a relative change of `size` in a metric, and how many days of the
// control index's recent traffic that takes. The baseline rate and the daily
// traffic come from the tracked searches of the last 7 days on the control
// index; sample sizes are the two-proportion test's (two-sided, α = 0.05,
// power 0.8) for groups split by trafficPercentage.
import { ApiError } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import { own } from '../util/own-keys.js';
import type { EventStore } from '../analytics/events.js';
import { DAY_MS } from '../analytics/params.js';
import { rateOf, Scope, type OutcomeCount } from '../analytics/reports.js';
import { parseVariants } from './tests.js';

const TRAFFIC_DAYS = 7;
const Z_ALPHA = 1.959964; // two-sided 5 %
const Z_BETA = 0.841621; // power 80 %

/** What each metric counts: an outcome of tracked searches, or (noResultsRate, the v3 client's) searches without results. */
const METRICS: Record<string, OutcomeCount | 'noResults'> = {
  clickThroughRate: 'clicks', conversionRate: 'conversions', addToCartRate: 'addToCarts', purchaseRate: 'purchases', noResultsRate: 'noResults',
};

const invalid = (message: string) => new ApiError('unprocessable', message);

interface EstimateRequest { metric: OutcomeCount | 'noResults'; size: number; excludeEmptySearches: boolean }

function parseRequest(body: Record<string, unknown>): EstimateRequest {
  const configuration = body.configuration;
  if (!isPlainObject(configuration)) throw invalid('configuration is required');
  const effect = configuration.minimumDetectableEffect;
  if (!isPlainObject(effect)) throw invalid('configuration.minimumDetectableEffect is required');
  const metric = typeof effect.metric === 'string' ? own(METRICS, effect.metric) as EstimateRequest['metric'] | undefined : undefined;
  if (!metric) throw invalid(`minimumDetectableEffect.metric must be one of ${Object.keys(METRICS).join(', ')}`);
  if (typeof effect.size !== 'number' || !(effect.size > 0)) throw invalid('minimumDetectableEffect.size must be a number above 0');
  return { metric, size: effect.size, excludeEmptySearches: isPlainObject(configuration.emptySearch) && configuration.emptySearch.exclude === true };
}

/** Group sizes (control, variant) of a two-proportion test with group B = k × group A. */
export function sampleSizes(p1: number, p2: number, k: number): [number, number] {
  const pooled = (p1 + k * p2) / (1 + k);
  const spread = Z_ALPHA * Math.sqrt(pooled * (1 - pooled) * (1 + 1 / k)) + Z_BETA * Math.sqrt(p1 * (1 - p1) + (p2 * (1 - p2)) / k);
  const a = Math.ceil((spread * spread) / ((p2 - p1) * (p2 - p1)));
  return [a, Math.ceil(k * a)];
}

export function estimateABTest(body: unknown, store: EventStore, indexExists: (name: string) => boolean, now = Date.now()) {
  if (!isPlainObject(body)) throw invalid('The body must be an object');
  const request = parseRequest(body);
  const [control, variant] = parseVariants(body.variants, indexExists);
  const scope = new Scope(store, (s) => s.index === control.index && s.tracked && s.at > now - TRAFFIC_DAYS * DAY_MS
    && !(request.excludeEmptySearches && s.query.trim() === ''));
  const noResults = scope.searches.filter((s) => s.nbHits === 0).length;
  const baseline = request.metric === 'noResults'
    ? (scope.searches.length ? noResults / scope.searches.length : null)
    : rateOf(scope, scope.searches, request.metric);
  if (!baseline) throw invalid(`No tracked searches with this metric on ${control.index} in the last ${TRAFFIC_DAYS} days to estimate from`);
  const expected = baseline * (1 + request.size);
  if (expected >= 1) throw invalid('minimumDetectableEffect.size is too large for the current rate');
  const sizes = sampleSizes(baseline, expected, variant.trafficPercentage / control.trafficPercentage);
  const perDay = scope.searches.length / TRAFFIC_DAYS;
  return { durationDays: Math.ceil((sizes[0] + sizes[1]) / perDay), sampleSizes: sizes };
}
