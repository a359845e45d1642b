// `lantern serve --clusters ...` (dist/cli.js) over HTTP: the official
// search client assigns users and writes records for them, the monitoring
// client (its own host) reads the figures of what this test sent.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../api/helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const APP = 'SERVEAPP';
const KEY = 'serve-admin-key';
const talks = readFixture<any[]>('talks.json').slice(0, 300);

let child: ChildProcess;
let url: URL;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function listening(process_: ChildProcess): Promise<URL> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`no "listening on" line\n${stdout}`)), 15000);
    process_.stdout!.on('data', (d) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) { clearTimeout(timer); resolve(new URL(m[1])); }
    });
    process_.once('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited with ${code}`)); });
  });
}

beforeAll(async () => {
  expect(existsSync(CLI), 'dist/cli.js is missing: run `npm run build`').toBe(true);
  const port = await freePort();
  child = spawn(process.execPath, [CLI, 'serve', '--memory', '--port', String(port), '--app-id', APP, '--admin-key', KEY, '--clusters', 'c1-test,c2-test'], { cwd: ROOT });
  url = await listening(child);
});

afterAll(async () => {
  const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
  child.kill('SIGTERM');
  await exited;
});

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
