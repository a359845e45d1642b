// The metrics recorder on its own, with a clock the test moves: exact
// percentiles, one point per step of each period, records carried forward,
// incidents kept 30 days, status degraded while an incident is fresh.
import { describe, expect, it } from 'vitest';
import { APP_SCOPE, indexScope, MAX_INCIDENTS, Metrics, serverScope } from '../../src/monitoring/metrics.js';
import { REGION, usage } from '../../src/monitoring/report.js';
import { ApiError } from '../../src/util/errors.js';

const START = Date.UTC(2025, 0, 15, 12, 0, 0);

function recorder() {
  let now = START;
  const metrics = new Metrics(() => now);
  return { metrics, advance: (ms: number) => { now += ms; }, now: () => now };
}

const search = (ms: number, server = 'c1', indexes = ['talks'], queries = 1) =>
  ({ kind: 'search' as const, queries, indexes, server, ms, succeeded: true });

/** Nearest-rank percentile, written independently of the recorder. */
function nearestRank(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1];
}

describe('the metrics recorder', () => {
  it('search latency: average and 90/99/99.9 percentiles are exact over integer milliseconds', () => {
    const { metrics } = recorder();
    const latencies = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 113);
    for (const ms of latencies) metrics.recordRequest(search(ms));
    const figures = usage(metrics, {
      statistics: ['avg_processing_time,90p_processing_time,99p_processing_time,99.9p_processing_time'],
      period: 'hour', servers: ['c1'],
    });
    const average = Math.round(latencies.reduce((a, b) => a + b, 0) / latencies.length);
    expect(figures.avg_processing_time).toEqual([{ t: START, v: average }]);
    expect(figures['90p_processing_time']).toEqual([{ t: START, v: nearestRank(latencies, 90) }]);
    expect(figures['99p_processing_time']).toEqual([{ t: START, v: nearestRank(latencies, 99) }]);
    expect(figures['99.9p_processing_time']).toEqual([{ t: START, v: nearestRank(latencies, 99.9) }]);
  });

  it('operations land in the bucket of their time: one point per 10 s over the last minute', () => {
    const { metrics, advance } = recorder();
    const perStep = [3, 0, 5, 1, 0, 2];
    for (const count of perStep) {
      for (let i = 0; i < count; i++) metrics.recordRequest({ ...search(1), kind: i % 2 ? 'write' : 'search' });
      advance(10_000);
    }
    advance(-10_000); // the clock sits in the last step
    const { operations, search_operations, write_operations } = usage(metrics, {
      statistics: ['operations,search_operations,write_operations'], period: 'minute', servers: ['c1'],
    });
    expect(operations.map((p) => p.v)).toEqual(perStep);
    expect(operations.map((p) => p.t)).toEqual(perStep.map((_, i) => START + i * 10_000));
    expect(search_operations.map((p) => p.v)).toEqual(perStep.map((n) => Math.ceil(n / 2)));
    expect(write_operations.map((p) => p.v)).toEqual(perStep.map((n) => Math.floor(n / 2)));
    // an hour later the minute window holds only empty points
    advance(3_600_000);
    expect(usage(metrics, { statistics: ['operations'], period: 'minute', servers: ['c1'] }).operations.every((p) => p.v === 0)).toBe(true);
    // while the day window (10-minute points) still has them all in its first point
    const day = usage(metrics, { statistics: ['operations'], period: 'day', servers: ['c1'] }).operations;
    expect(day[0]).toEqual({ t: START, v: perStep.reduce((a, b) => a + b, 0) });
  });

  it('calls read in the middle of a step count once, with those after the read, at every resolution', () => {
    const { metrics, advance } = recorder();
    const read = (period: string) => usage(metrics, { statistics: ['search_operations,99p_processing_time'], period, servers: ['c1'] });
    for (const ms of [1, 2, 3]) metrics.recordRequest(search(ms));
    expect(read('minute').search_operations.at(-1)).toEqual({ t: START, v: 3 });
    advance(5_000); // the same 10-second step
    for (const ms of [40, 50]) metrics.recordRequest(search(ms));
    for (const period of ['minute', 'hour', 'day', 'week', 'month']) {
      expect(read(period).search_operations.at(-1)?.v).toBe(5);
      expect(read(period)['99p_processing_time'].at(-1)?.v).toBe(50);
    }
    advance(10_000); // the next step: the calls before it stay in theirs
    metrics.recordRequest(search(7));
    expect(read('minute').search_operations.slice(-2).map((p) => p.v)).toEqual([5, 1]);
    expect(read('hour').search_operations.at(-1)?.v).toBe(6);
    expect(metrics.buckets(indexScope('talks'), 'day').points.at(-1)).toMatchObject({ searchOperations: 6, latencyCount: 6 });
  });

  it('a multi-query counts each query (on the index it names); peak queries per second per server and per region', () => {
    const { metrics, advance } = recorder();
    metrics.recordRequest(search(1, 'c1', ['a', 'b', 'b'], 3));
    metrics.recordRequest(search(1, 'c1'));
    metrics.recordRequest(search(1, 'c2'));
    advance(1000);
    metrics.recordRequest(search(1, 'c2'));
    const figures = usage(metrics, { statistics: ['search_operations,max_qps,region_max_qps'], period: 'hour', servers: ['c1', 'c2'] });
    expect(figures.search_operations).toEqual([{ t: START, v: 6 }]);
    expect(figures.max_qps).toEqual([{ t: START, v: { c1: 4, c2: 1 } }]);
    expect(figures.region_max_qps).toEqual([{ t: START, v: { [REGION]: 5 } }]);
    expect(usage(metrics, { statistics: ['search_operations'], period: 'hour', indexName: 'b', servers: [] }).search_operations)
      .toEqual([{ t: START, v: 2 }]);
  });

  it('records: the last sample at or before each point, nothing before the first sample', () => {
    const { metrics, advance } = recorder();
    advance(60_000);
    metrics.sampleRecords(new Map([['talks', 10], ['small', 2]]));
    advance(120_000);
    metrics.sampleRecords(new Map([['talks', 15], ['small', 2]]));
    advance(60_000);
    const { records } = usage(metrics, { statistics: ['records'], period: 'hour', servers: [] });
    expect(records).toEqual([
      { t: START + 60_000, v: 12 }, { t: START + 120_000, v: 12 }, { t: START + 180_000, v: 17 }, { t: START + 240_000, v: 17 },
    ]);
    expect(usage(metrics, { statistics: ['records'], period: 'hour', indexName: 'talks', servers: [] }).records.at(-1)).toEqual({ t: START + 240_000, v: 15 });
  });

  it('indexing time per task per server', () => {
    const { metrics } = recorder();
    metrics.recordTask({ indexes: ['talks'], server: 'c1', ms: 30 });
    metrics.recordTask({ indexes: ['talks'], server: 'c1', ms: 50 });
    const [bucket] = metrics.buckets(serverScope('c1'), 'hour').points;
    expect(bucket).toMatchObject({ tasks: 2, taskMs: 80 });
    expect(metrics.buckets(serverScope('c2'), 'hour').points[0]).toMatchObject({ tasks: 0 });
    expect(metrics.buckets(indexScope('talks'), 'hour').points[0]).toMatchObject({ tasks: 2 });
    expect(metrics.buckets(APP_SCOPE, 'hour').points[0]).toMatchObject({ tasks: 2 });
  });

  it('unknown statistics and per-index peak figures are refused with 400', () => {
    const { metrics } = recorder();
    const call = (statistics: string, indexName?: string) => () => usage(metrics, { statistics: [statistics], period: 'day', indexName, servers: ['c1'] });
    expect(call('records,bogus')).toThrow(ApiError);
    expect(call('')).toThrow(/statistic/);
    expect(call('max_qps', 'talks')).toThrow(/per server/);
  });

  it('incidents: kept 30 days (and at most MAX_INCIDENTS); the server is degraded for 5 minutes after one', () => {
    const { metrics, advance } = recorder();
    expect(metrics.statusOf('c1')).toBe('operational');
    metrics.recordIncident('c1', 'Internal error in search', 'boom');
    expect(metrics.statusOf('c1')).toBe('degraded_performance');
    expect(metrics.statusOf('c2')).toBe('operational');
    expect(metrics.incidentsOf('c1')).toEqual([{ t: START, v: { title: 'Internal error in search', body: 'boom', status: 'degraded_performance' } }]);
    advance(5 * 60_000);
    expect(metrics.statusOf('c1')).toBe('operational');
    advance(29 * 86_400_000);
    metrics.recordIncident('c1', 'second', 'again');
    expect(metrics.incidentsOf('c1').map((i) => i.v.body)).toEqual(['boom', 'again']);
    advance(86_400_000);
    expect(metrics.incidentsOf('c1').map((i) => i.v.body)).toEqual(['again']);
    for (let i = 0; i < MAX_INCIDENTS + 5; i++) metrics.recordIncident('c2', 'flood', String(i));
    const kept = metrics.incidentsOf('c2');
    expect(kept.length).toBe(MAX_INCIDENTS);
    expect(kept[0].v.body).toBe('5');
  });
});

describe('the router hook', () => {
  it('records synchronous and asynchronous operations alike, and an internal error of either as an incident', async () => {
    const { Lantern } = await import('../../src/lantern.js');
    const { observeRequest } = await import('../../src/monitoring/observe.js');
    const engine = await Lantern.open({});
    try {
      await engine.request({ method: 'PUT', path: '/1/indexes/talks/1', body: { title: 'a talk' } });
      await engine.waitForTasks();
      const call = { route: { op: 'searchSingleIndex', method: 'POST', right: 'search' }, params: { indexName: 'talks' }, body: {}, headers: {} };
      const server = engine.clusters.names[0];
      const searches = () => engine.metrics.buckets(indexScope('talks'), 'day').points.reduce((n, b) => n + b.searchOperations, 0);
      expect(observeRequest(engine, call, () => 42)).toBe(42); // answered synchronously
      await expect(observeRequest(engine, call, async () => 43)).resolves.toBe(43);
      expect(searches()).toBe(2);
      expect(() => observeRequest(engine, call, () => { throw new TypeError('sync boom'); })).toThrow('sync boom');
      await expect(observeRequest(engine, call, async () => { throw new TypeError('async boom'); })).rejects.toThrow('async boom');
      expect(() => observeRequest(engine, call, () => { throw new ApiError('invalid_request', 'bad'); })).toThrow('bad');
      expect(engine.metrics.incidentsOf(server).map((i) => i.v.body)).toEqual(['sync boom', 'async boom']);
      expect(searches()).toBe(5);
      // a made-up index name keeps no figures of its own (a storm of names grew them without bound)
      observeRequest(engine, { ...call, params: { indexName: 'made-up' } }, () => 44);
      expect(engine.metrics.buckets(indexScope('made-up'), 'day').points.reduce((n, b) => n + b.searchOperations, 0)).toBe(0);
      expect(engine.metrics.buckets(indexScope('talks'), 'day').points.reduce((n, b) => n + b.searchOperations, 0)).toBe(5);
    } finally {
      await engine.close();
    }
  });
});
