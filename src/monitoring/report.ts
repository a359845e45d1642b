// Monitoring answers in the spec's shapes, built from the recorder. The
// servers are the engine's clusters (partitions of this one process, in one
// region); the only probe is the process itself, which measures every call.
import { badRequest } from '../util/errors.js';
import { APP_SCOPE, indexScope, serverScope, type Bucket, type Metrics } from './metrics.js';
import { PERIOD_NAMES, RECENT } from './periods.js';
import {
  INTEGER_STATISTICS, MAP_STATISTICS, STATISTIC_NAMES, integerSeries, mapSeries, recordSeries, type TimePoint,
} from './statistics.js';

/**
 * The spec's region enum has no name for "this machine", and a server must
 * name one of its regions: Lantern's servers answer the first US one.
 */
export const REGION = 'use';
export const PROBE = 'in-process';

/** Infrastructure metrics the client names; those not measured here answer with no data points. */
export const INFRASTRUCTURE_METRICS = ['avg_build_time', 'ssd_usage', 'ram_search_usage', 'ram_indexing_usage', 'cpu_usage'];

/** A comma-separated list of names, each one of `known` (400 otherwise). */
export function namesIn(list: string, known: readonly string[], what: string): string[] {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !known.includes(n));
  if (names.length === 0 || unknown.length) throw badRequest(`Unknown ${what}: ${unknown.join(', ') || '(none)'}; known: ${known.join(', ')}`);
  return names;
}

export function checkPeriod(period: string): string {
  if (!PERIOD_NAMES.includes(period)) throw badRequest(`Unknown period "${period}"; known: ${PERIOD_NAMES.join(', ')}`);
  return period;
}

const averageLatency = (b: Bucket) => INTEGER_STATISTICS.avg_processing_time(b);
const averageTaskMs = (b: Bucket) => (b.tasks ? Math.round(b.taskMs / b.tasks) : undefined);

export function perServer<T>(servers: string[], value: (server: string) => T): Record<string, T> {
  return Object.fromEntries(servers.map((s) => [s, value(s)]));
}

/** Average search latency per point over the recent period, per server. */
export function latency(metrics: Metrics, servers: string[]): Record<string, TimePoint[]> {
  return perServer(servers, (s) => integerSeries(metrics.buckets(serverScope(s), RECENT).points, averageLatency));
}

/** Average time to apply a task per point over the recent period, per server. */
export function indexingTime(metrics: Metrics, servers: string[]): Record<string, TimePoint[]> {
  return perServer(servers, (s) => integerSeries(metrics.buckets(serverScope(s), RECENT).points, averageTaskMs));
}

export interface UsageRequest { statistics: string[]; period: string; indexName?: string; servers: readonly string[] }

/** `{<statistic>: [{t, v}]}` for the app, or for one index. */
export function usage(metrics: Metrics, request: UsageRequest): Record<string, TimePoint<unknown>[]> {
  const scope = request.indexName === undefined ? APP_SCOPE : indexScope(request.indexName);
  const { points, before } = metrics.buckets(scope, request.period);
  const out: Record<string, TimePoint<unknown>[]> = {};
  for (const name of namesIn(request.statistics.join(','), STATISTIC_NAMES, 'statistic')) {
    if (name === 'records') out[name] = recordSeries(points, before);
    else if (!MAP_STATISTICS.includes(name)) out[name] = integerSeries(points, INTEGER_STATISTICS[name]);
    else if (request.indexName !== undefined) throw badRequest(`Statistic ${name} is reported per server, not per index`);
    else out[name] = peakQps(metrics, name, request);
  }
  return out;
}

function peakQps(metrics: Metrics, name: string, request: UsageRequest): TimePoint<Record<string, number>>[] {
  const scopes = name === 'region_max_qps'
    ? new Map([[REGION, metrics.buckets(APP_SCOPE, request.period).points]])
    : new Map(request.servers.map((s) => [s, metrics.buckets(serverScope(s), request.period).points]));
  return mapSeries(scopes, (b) => b.peakQps);
}

/**
 * `{metrics: {<metric>: {<server>: [{t, v}]}}}`, times in seconds: the
 * official spec's shape (the older documents wrapped each server's points
 * with its region and cluster, and named the period; the spec allows
 * neither). Values are integers, as the spec types them: build times are
 * whole seconds.
 */
export function infrastructure(metrics: Metrics, names: string[], period: string, servers: readonly string[]) {
  const data = (metric: string, server: string) => (metric !== 'avg_build_time' ? [] : integerSeries(
    metrics.buckets(serverScope(server), period).points,
    (b) => (b.tasks ? b.taskMs / b.tasks / 1000 : undefined),
  ).map(({ t, v }) => ({ t: Math.floor(t / 1000), v: Math.round(v) })));
  return {
    metrics: Object.fromEntries(names.map((metric) => [metric, perServer([...servers], (server) => data(metric, server))])),
  };
}
