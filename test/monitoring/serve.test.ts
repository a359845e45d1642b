// `lantern serve --clusters ...` (dist/cli.js) over HTTP: the official
// search client assigns users and writes records for them, the monitoring
// client (its own host) reads the figures of what this test sent.
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../api/helpers.js';
import { startServe, type Served } from '../support/serve.js';

const APP = 'SERVEAPP';
const KEY = 'serve-admin-key';
const talks = readFixture<any[]>('talks.json').slice(0, 300);

let served: Served;
let url: URL;

beforeAll(async () => {
  served = await startServe(['--memory', '--app-id', APP, '--admin-key', KEY, '--clusters', 'c1-test,c2-test']);
  url = new URL(served.url);
});

afterAll(() => served.stop());

describe('monitoring and multi-cluster over HTTP (lantern serve)', () => {
  it('figures of what the clients sent, through the search host and the status host', async () => {
    const hosts = [{ url: url.hostname, port: Number(url.port), protocol: 'http' as const, accept: 'readWrite' as const }];
    const client = algoliasearch(APP, KEY, { hosts });
    const monitoring = client.initMonitoring({ options: { hosts } });

    await client.assignUserId({ xAlgoliaUserID: 'ada', assignUserIdParams: { cluster: 'c2-test' } });
    await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true }, { headers: { 'X-Algolia-User-ID': 'ada' } });
    const queries = ['ocean', 'brain', 'music', 'giver'];
    for (const query of queries) {
      await client.searchSingleIndex({ indexName: 'talks', searchParams: { query } }, { headers: { 'X-Algolia-User-ID': 'ada' } });
    }

    const ada = await client.getUserId({ userID: 'ada' });
    const size = talks.reduce((sum, t) => sum + Buffer.byteLength(JSON.stringify(t)), 0);
    expect(ada).toEqual({ userID: 'ada', clusterName: 'c2-test', nbRecords: talks.length, dataSize: size });

    const usage: any = await monitoring.customGet({ path: '1/usage/records,total_search_operations,max_qps/period/hour' });
    expect(usage.records.at(-1).v).toBe(talks.length);
    expect(usage.total_search_operations.reduce((sum: number, p: { v: number }) => sum + p.v, 0)).toBe(queries.length);
    expect(Math.max(...usage.max_qps.map((p: any) => p.v['c2-test']))).toBeGreaterThanOrEqual(1);
    const latency = await monitoring.getLatency({ clusters: 'c2-test' });
    expect(latency.metrics!.latency!['c2-test'].length).toBeGreaterThan(0);
    expect(await monitoring.getStatus()).toEqual({ status: { 'c1-test': 'operational', 'c2-test': 'operational' } });

    const refused: any = await client.searchSingleIndex({ indexName: 'talks', searchParams: { query: 'x' } }, { headers: { 'X-Algolia-User-ID': 'nobody' } })
      .then(() => undefined, (e) => e);
    expect(refused?.status).toBe(404);
    const bad = await fetch(new URL('/1/usage/records/period/decade', url), { headers: { 'x-algolia-application-id': APP, 'x-algolia-api-key': KEY } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/period/);
  }, 60_000);
});
