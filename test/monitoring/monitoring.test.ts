// Monitoring through the official client (`initMonitoring`, and customGet
// for the usage paths the client has no method for), in-process through
// lanternRequester: figures checked against what this test itself sent.
import { algoliasearch } from 'algoliasearch';
import { beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester, type EndRequest } from '../../src/requester.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID, expectError, readFixture, sender, talksSettings } from '../api/helpers.js';

const CLUSTERS = ['c1-test', 'c2-test'];
const talks = readFixture<any[]>('talks.json');
const small = [{ objectID: 's1', title: 'one' }, { objectID: 's2', title: 'two' }, { objectID: 's3', title: 'three' }];

let engine: Lantern;
/** Calls the requester passed to the engine, counted here independently of Lantern. */
let sent = 0;
let client: ReturnType<typeof algoliasearch>;
let monitoring: ReturnType<ReturnType<typeof algoliasearch>['initMonitoring']>;
let singleSearches = 0;
let multiQueries = 0;

function countingRequester(target: Lantern) {
  const inner = lanternRequester(target);
  return { send: (request: EndRequest) => { sent++; return inner.send(request); } };
}

const usage = (path: string) => monitoring.customGet({ path: `1/usage/${path}` }) as Promise<Record<string, Array<{ t: number; v: any }>>>;
const total = (points: Array<{ v: number }>) => points.reduce((sum, p) => sum + p.v, 0);

beforeAll(async () => {
  engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, clusters: CLUSTERS });
  const requester = countingRequester(engine);
  client = algoliasearch(APP_ID, ADMIN_KEY, { requester });
  monitoring = client.initMonitoring({ options: { requester } });
  await client.setSettings({ indexName: 'talks', indexSettings: talksSettings() as never });
  await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
  await client.saveObjects({ indexName: 'small', objects: small, waitForTasks: true });
  for (const query of ['giver', 'gvier', 'ocean', 'brain', 'music']) {
    await client.searchSingleIndex({ indexName: 'talks', searchParams: { query } });
    singleSearches++;
  }
  await client.search({ requests: [{ indexName: 'talks', query: 'climate' }, { indexName: 'small', query: 'two' }] });
  multiQueries++;
}, 60_000);

describe('monitoring, in-process through the official client', () => {
  it('records per index and in total: what the test imported', async () => {
    const all = await usage('records/period/hour');
    expect(all.records.at(-1)!.v).toBe(talks.length + small.length);
    expect((await usage('records/period/day/talks')).records.at(-1)!.v).toBe(talks.length);
    expect((await usage('records/period/month/small')).records.at(-1)!.v).toBe(small.length);
  });

  it('operations: every call the client sent (the asking call not yet counted); search queries one per query', async () => {
    const before = sent;
    const figures = await usage('total_operations,total_search_operations/period/hour');
    expect(total(figures.total_operations)).toBe(before);
    expect(total(figures.total_search_operations)).toBe(singleSearches + 2 * multiQueries);
    const small_ = await usage('search_operations/period/hour/small');
    expect(total(small_.search_operations)).toBe(1);
  });

  it('search latency: averages and percentiles are integers in order, only where searches ran', async () => {
    const figures = await usage('avg_processing_time,90p_processing_time,99p_processing_time/period/hour');
    expect(figures['90p_processing_time'].length).toBeGreaterThan(0);
    figures['90p_processing_time'].forEach((p, i) => {
      expect(Number.isInteger(p.v)).toBe(true);
      expect(p.v).toBeLessThanOrEqual(figures['99p_processing_time'][i].v);
    });
    const latency = await monitoring.getLatency({ clusters: 'c1-test' });
    expect(Object.keys(latency.metrics!.latency!)).toEqual(['c1-test']);
    expect(latency.metrics!.latency!['c1-test'].length).toBeGreaterThan(0);
    expect(latency.metrics!.latency!['c1-test'].every((p) => Number.isInteger(p.v) && p.v! >= 0)).toBe(true);
  });

  it('peak queries per second: a map per server; searches without a user run on the first cluster', async () => {
    const { max_qps } = await usage('max_qps/period/hour');
    expect(Object.keys(max_qps[0].v).sort()).toEqual(CLUSTERS);
    expect(Math.max(...max_qps.map((p) => p.v['c1-test']))).toBeGreaterThanOrEqual(1);
    expect(Math.max(...max_qps.map((p) => p.v['c2-test']))).toBe(0);
    // a user assigned to the second cluster moves its searches there
    await client.assignUserId({ xAlgoliaUserID: 'reader', assignUserIdParams: { cluster: 'c2-test' } });
    await client.searchSingleIndex({ indexName: 'small', searchParams: { query: 'one' } }, { headers: { 'X-Algolia-User-ID': 'reader' } });
    const after = await usage('max_qps/period/hour');
    expect(Math.max(...after.max_qps.map((p) => p.v['c2-test']))).toBe(1);
  });

  it('indexing time per server, and avg_build_time in seconds with second timestamps', async () => {
    const indexing = await monitoring.getIndexingTime({ clusters: CLUSTERS.join(',') });
    expect(indexing.metrics!.indexing!['c1-test'].length).toBeGreaterThan(0);
    expect(indexing.metrics!.indexing!['c2-test']).toEqual([]);
    const infra: any = await monitoring.getMetrics({ metric: 'avg_build_time', period: 'hour' });
    expect(Object.keys(infra)).toEqual(['metrics']); // the spec's shape: no period beside the metrics
    const c1 = infra.metrics.avg_build_time['c1-test'];
    expect(c1.length).toBeGreaterThan(0);
    expect(c1.every((p: { t: number }) => p.t < Date.now() / 1000 + 1 && p.t > Date.now() / 1000 - 3600)).toBe(true);
    const all: any = await monitoring.getMetrics({ metric: '*', period: 'minute' });
    expect(Object.keys(all.metrics).sort()).toEqual(['avg_build_time', 'cpu_usage', 'ram_indexing_usage', 'ram_search_usage', 'ssd_usage']);
  });

  it('status, incidents, inventory, probes, reachability name the configured clusters', async () => {
    expect(await monitoring.getStatus()).toEqual({ status: { 'c1-test': 'operational', 'c2-test': 'operational' } });
    expect(await monitoring.getClusterStatus({ clusters: 'c2-test' })).toEqual({ status: { 'c2-test': 'operational' } });
    expect(await monitoring.getIncidents()).toEqual({ incidents: { 'c1-test': [], 'c2-test': [] } });
    expect(await monitoring.getClusterIncidents({ clusters: 'c1-test' })).toEqual({ incidents: { 'c1-test': [] } });
    const { inventory } = await monitoring.getServers();
    expect(inventory!.map((s) => [s.name, s.cluster, s.is_replica])).toEqual([['c1-test', 'c1-test', false], ['c2-test', 'c2-test', false]]);
    expect(await monitoring.getReachability({ clusters: 'c1-test,c2-test' })).toEqual({ 'c1-test': { 'in-process': true }, 'c2-test': { 'in-process': true } });
    const probes: any = await monitoring.customGet({ path: '1/inventory/probes' });
    expect(probes.probes.map((p: { name: string }) => p.name)).toEqual(['in-process']);
    const relevant: any = await monitoring.customGet({ path: '1/latency/c1-test/probes/relevant' });
    expect(relevant.metrics.latency_by_probes['c1-test']['in-process'].length).toBeGreaterThan(0);
  });
});

describe('monitoring errors', () => {
  const send = () => sender(engine);

  it('unknown statistic, period, index, metric or server → 400 with a message', async () => {
    expectError(await send()('GET', '/1/usage/records,bogus/period/hour'), 400, /bogus/);
    expectError(await send()('GET', '/1/usage/records/period/decade'), 400, /period/);
    expectError(await send()('GET', '/1/usage/records/period/day/no_such_index'), 400, /index/);
    expectError(await send()('GET', '/1/usage/max_qps/period/day/talks'), 400, /per server/);
    expectError(await send()('GET', '/1/infrastructure/disk_temperature/period/minute'), 400, /disk_temperature/);
    expectError(await send()('GET', '/1/infrastructure/cpu_usage/period/year'), 400, /period/);
    expectError(await send()('GET', '/1/status/c9-nowhere'), 400, /c9-nowhere/);
    await expect(monitoring.getMetrics({ metric: 'avg_build_time', period: 'decade' as never })).rejects.toThrow(/period/);
  });

  it('a key with the usage right reads monitoring; one without is refused', async () => {
    const usageKey = (await send()('POST', '/1/keys', { acl: ['usage'] })).body.key;
    const searchKey = (await send()('POST', '/1/keys', { acl: ['search'] })).body.key;
    const as = (key: string) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key });
    expect((await send()('GET', '/1/status', undefined, as(usageKey))).status).toBe(200);
    expectError(await send()('GET', '/1/status', undefined, as(searchKey)), 403);
    expect((await send()('GET', '/1/status', undefined, ADMIN_HEADERS)).status).toBe(200);
  });
});
