// Monitoring (the status host's /1/ endpoints, all GET): status, incidents,
// usage, inventory, latency, indexing time, reachability, infrastructure —
// this process's own figures, per cluster.
import { checkPeriod, INFRASTRUCTURE_METRICS, indexingTime, infrastructure, latency, namesIn, PROBE, perServer, REGION, usage } from '../monitoring/report.js';
import { badRequest } from '../util/errors.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the metrics, the servers (clusters) and the indexes. */
type Uses = Pick<Engine, 'clusters' | 'indexes' | 'metrics'>;

/** The servers a call names (`{clusters}`, comma-separated), or all of them. */
function servers(ctx: OperationContext<'clusters?', Uses>): string[] {
  const all = ctx.engine.clusters.names;
  return ctx.params.clusters === undefined ? [...all] : namesIn(ctx.params.clusters, all, 'server');
}

export function getStatus(ctx: OperationContext<'clusters?', Uses>) {
  return { status: perServer(servers(ctx), (s) => ctx.engine.metrics.statusOf(s)) };
}

export function getIncidents(ctx: OperationContext<'clusters?', Uses>) {
  return { incidents: perServer(servers(ctx), (s) => ctx.engine.metrics.incidentsOf(s)) };
}

export function getUsage(ctx: OperationContext<'indexName?' | 'period' | 'statistic', Uses>) {
  const { indexName } = ctx.params;
  if (indexName !== undefined && !ctx.engine.indexes.has(indexName)) throw badRequest(`Unknown index "${indexName}"`);
  const period = checkPeriod(ctx.params.period);
  ctx.engine.metrics.sampleRecords(new Map([...ctx.engine.indexes].map(([name, index]) => [name, index.size])));
  return usage(ctx.engine.metrics, { statistics: [ctx.params.statistic], period, indexName, servers: ctx.engine.clusters.names });
}

export function getServers(ctx: OperationContext<never, Uses>) {
  return {
    inventory: ctx.engine.clusters.names.map((name) => ({
      name, region: REGION, is_replica: false, is_slave: false, cluster: name, status: 'PRODUCTION', type: 'cluster',
    })),
  };
}

export function getProbes() {
  return { probes: [{ name: PROBE, city: null, country: null, latitude: null, longitude: null, regions: [REGION] }] };
}

export function getLatency(ctx: OperationContext<'clusters', Uses>) {
  return { metrics: { latency: latency(ctx.engine.metrics, servers(ctx)) } };
}

export function getLatencyByRelevantProbes(ctx: OperationContext<'clusters', Uses>) {
  const byServer = latency(ctx.engine.metrics, servers(ctx));
  return { metrics: { latency_by_probes: perServer(servers(ctx), (s) => ({ [PROBE]: byServer[s] })) } };
}

export function getLatencyByOtherProbes(ctx: OperationContext<'clusters', Uses>) {
  return { metrics: { latency_by_probes: perServer(servers(ctx), () => ({})) } };
}

export function getIndexingTime(ctx: OperationContext<'clusters', Uses>) {
  return { metrics: { indexing: indexingTime(ctx.engine.metrics, servers(ctx)) } };
}

/** The process answering is the probe: every server it holds is reachable. */
export function getReachability(ctx: OperationContext<'clusters', Uses>) {
  return perServer(servers(ctx), () => ({ [PROBE]: true }));
}

export function getMetrics(ctx: OperationContext<'metric' | 'period', Uses>) {
  const period = checkPeriod(ctx.params.period);
  const names = ctx.params.metric === '*' ? INFRASTRUCTURE_METRICS : namesIn(ctx.params.metric, INFRASTRUCTURE_METRICS, 'metric');
  return infrastructure(ctx.engine.metrics, names, period, ctx.engine.clusters.names);
}
