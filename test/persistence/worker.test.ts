// Worker mode in Node worker_threads: the engine in a worker
// (fixtures/engine-worker.mjs, the built package) behind connectWorker
// answers the same endpoint calls exactly as an in-thread engine does; the
// typed client, the official algoliasearch client (lanternRequester) and
// fsStorage work through it; close() terminates the worker.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { algoliasearch } from 'algoliasearch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Lantern, lanternRequester } from '../../src/index.js';
import { connectWorker, type RemoteLantern } from '../../src/worker.js';
import type { ApiRequest, ApiResponse } from '../../src/api/types.js';
import { cleanup, normalized, readFixture, talksSettings, tempDir } from './helpers.js';

const WORKER = fileURLToPath(new URL('./fixtures/engine-worker.mjs', import.meta.url));
const CLOSE_PROCESS = fileURLToPath(new URL('./fixtures/close-worker-process.mjs', import.meta.url));
const talks = readFixture<any[]>('talks.json').slice(0, 500);

interface Started { worker: Worker; remote: RemoteLantern; exited: Promise<number> }

const started: Started[] = [];

function startEngineWorker(workerData: Record<string, unknown> = {}): Started {
  const worker = new Worker(WORKER, { workerData });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  const remote = connectWorker(worker);
  const s = { worker, remote, exited };
  started.push(s);
  return s;
}

afterEach(async () => {
  for (const s of started.splice(0)) await s.worker.terminate();
  await cleanup();
});

/**
 * dataSize and fileSize measure the core's WebAssembly memory, not the data
 * (as in snapshots.test.ts): idle work grows it at its own time (an index
 * warms its prefix cache once writes pause), in each engine at another.
 */
const MEMORY_FIGURES = new Set(['dataSize', 'fileSize']);

/** A response as it can be compared across two engines: no timings, dates, signed cursors or memory figures. */
function comparable(response: ApiResponse) {
  const body = JSON.parse(JSON.stringify(normalized(response.body)), (k, v) => (
    k === 'cursor' && typeof v === 'string' ? '<cursor>' : MEMORY_FIGURES.has(k) && typeof v === 'number' && v > 0 ? '<memory bytes>' : v));
  // every call has its own request id
  const headers = Object.fromEntries(Object.entries(response.headers ?? {})
    .map(([k, v]) => [k, k === 'x-request-id' || k === 'correlation-id' ? '<request id>' : v]));
  return { status: response.status, headers, body };
}

/** The same calls, in order; `wait` waits for the queue. */
type Step = ApiRequest | 'wait';

const STEPS: Step[] = [
  { method: 'PUT', path: '/1/indexes/talks/settings', body: talksSettings() },
  { method: 'POST', path: '/1/indexes/talks/batch', body: { requests: talks.map((body) => ({ action: 'addObject', body })) } },
  'wait',
  { method: 'GET', path: '/1/indexes/talks/task/2' },
  { method: 'POST', path: '/1/indexes/talks/query', body: { query: 'gvier', hitsPerPage: 5 } },
  { method: 'POST', path: '/1/indexes/talks/query', body: { query: 'psycology', facets: ['tags', 'speakers'], maxValuesPerFacet: 10 } },
  { method: 'POST', path: '/1/indexes/talks/query', body: { query: '', filters: 'duration_range:2 AND tags:science', hitsPerPage: 3, page: 1 } },
  { method: 'GET', path: '/1/indexes/talks?query=future&hitsPerPage=2' },
  { method: 'POST', path: '/1/indexes/*/queries', body: { requests: [{ indexName: 'talks', query: 'love' }, { indexName: 'talks', params: 'query=brain&hitsPerPage=1' }] } },
  { method: 'POST', path: '/1/indexes/talks/facets/tags/query', body: { facetQuery: 'tech' } },
  { method: 'GET', path: '/1/indexes/talks/2652' },
  { method: 'GET', path: '/1/indexes/talks/2652?attributesToRetrieve=name,speakers' },
  { method: 'POST', path: '/1/indexes/*/objects', body: { requests: [{ indexName: 'talks', objectID: '2652' }, { indexName: 'talks', objectID: 'nope' }] } },
  { method: 'POST', path: '/1/indexes/talks/batch', body: { requests: [
    { action: 'updateObject', body: { objectID: 'w1', name: 'Lanterns in the worker', speakers: ['Ada Worker'], tags: ['threads'] } },
    { action: 'partialUpdateObject', body: { objectID: '2652', viewed_count: { _operation: 'Increment', value: 1000 } } },
    { action: 'deleteObject', body: { objectID: talks[3].objectID } },
  ] } },
  { method: 'PUT', path: '/1/indexes/talks/settings', body: { customRanking: ['desc(viewed_count)'], hitsPerPage: 4 } },
  'wait',
  { method: 'GET', path: '/1/indexes/talks/settings' },
  { method: 'POST', path: '/1/indexes/talks/query', body: { query: 'lantern' } },
  { method: 'GET', path: `/1/indexes/talks/${talks[3].objectID}` },
  { method: 'POST', path: '/1/indexes/talks/browse', body: { hitsPerPage: 50, attributesToRetrieve: ['name'] } },
  { method: 'POST', path: '/1/indexes/talks/query', body: { query: '', hitsPerPage: 1000, distinct: false } },
  { method: 'GET', path: '/1/indexes' },
  // an answer of another content type than JSON: 204, text/plain, an empty body
  { method: 'DELETE', path: '/1/usertokens/someone' },
  // errors
  { method: 'GET', path: '/1/indexes/talks/does-not-exist' },
  { method: 'POST', path: '/1/indexes/missing/query', body: { query: 'x' } },
  { method: 'GET', path: '/1/indexes/missing/settings' },
  { method: 'POST', path: '/1/indexes/talks/query', body: '{"query": "unterminated' },
  { method: 'PUT', path: '/1/indexes/talks/settings', body: { customRanking: ['bogus(x)'] } },
  { method: 'POST', path: '/1/indexes/talks/query', body: { hitsPerPage: 'many' } },
  { method: 'GET', path: '/1/indexes/talks/task/99999' },
  { method: 'GET', path: '/1/no/such/endpoint' },
  { method: 'DELETE', path: '/1/indexes/talks' },
  'wait',
  { method: 'POST', path: '/1/indexes/talks/query', body: { query: 'x' } },
];

async function run(engine: { request(r: ApiRequest): Promise<ApiResponse>; waitForTasks(): Promise<void> }) {
  const out: Array<ReturnType<typeof comparable> | 'waited'> = [];
  for (const step of STEPS) {
    if (step === 'wait') { await engine.waitForTasks(); out.push('waited'); continue; }
    out.push(comparable(await engine.request(step)));
  }
  return out;
}

describe('the same endpoint calls as in-thread', () => {
  let local: Lantern;
  beforeAll(async () => { local = await Lantern.open({}); });
  afterAll(async () => { await local.close(); });

  it('every response equals the in-thread engine\'s (status, headers, body; timings, dates, cursors, request ids and memory figures aside)', async () => {
    const { remote } = startEngineWorker();
    const expected = await run(local);
    const actual = await run(remote);
    // the scenario covers what it means to: successes, 400s and 404s
    const statuses = expected.flatMap((r) => (r === 'waited' ? [] : [r.status]));
    expect(statuses).toEqual(expect.arrayContaining([200, 400, 404]));
    const typo = STEPS.findIndex((s) => typeof s !== 'string' && (s.body as any)?.query === 'gvier');
    expect((expected[typo] as any).body.hits[0].objectID).toBe('2652');
    for (const [i, step] of STEPS.entries()) {
      expect(actual[i], typeof step === 'string' ? step : `${step.method} ${step.path}`).toEqual(expected[i]);
    }
  });
});

describe('the typed client through the worker', () => {
  it('saveObjects with waitForTasks, searchSingleIndex, getObject, setSettings, and ApiError statuses', async () => {
    const { remote } = startEngineWorker();
    const local = await Lantern.open({});
    try {
      for (const engine of [remote, local]) {
        const client = engine.client();
        await client.setSettings({ indexName: 'talks', indexSettings: talksSettings() });
        const responses = await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true, batchSize: 200 });
        expect(responses.length).toBe(3);
      }
      const [r, l] = [remote.client(), local.client()];
      const search = { indexName: 'talks', searchParams: { query: 'gvier', hitsPerPage: 3, facets: ['tags'] } };
      const remoteSearch = await r.searchSingleIndex(search);
      expect(remoteSearch.hits[0].objectID).toBe('2652');
      expect(normalized(remoteSearch)).toEqual(normalized(await l.searchSingleIndex(search)));
      expect(await r.getObject({ indexName: 'talks', objectID: '2652' })).toEqual(await l.getObject({ indexName: 'talks', objectID: '2652' }));
      expect(await r.getSettings({ indexName: 'talks' })).toEqual(await l.getSettings({ indexName: 'talks' }));
      for (const [call, status] of [
        [(c: typeof r) => c.getObject({ indexName: 'talks', objectID: 'missing' }), 404],
        [(c: typeof r) => c.searchSingleIndex({ indexName: 'nowhere', searchParams: { query: '' } }), 404],
        [(c: typeof r) => c.setSettings({ indexName: 'talks', indexSettings: { customRanking: ['nope'] } }), 400],
      ] as Array<[(c: typeof r) => Promise<unknown>, number]>) {
        const remoteError = await call(r).then(() => undefined, (e) => e);
        const localError = await call(l).then(() => undefined, (e) => e);
        expect(remoteError?.status).toBe(status);
        expect(remoteError?.message).toBe(localError?.message);
      }
    } finally {
      await local.close();
    }
  });

  it('a large response crosses intact (the body is transferred as bytes)', async () => {
    const { remote } = startEngineWorker();
    const all = readFixture<any[]>('talks.json');
    await remote.client().saveObjects({ indexName: 'all', objects: all, waitForTasks: true });
    const response = await remote.request({ method: 'POST', path: '/1/indexes/all/browse', body: { hitsPerPage: 1000 } });
    expect(response.status).toBe(200);
    const hits = (response.body as any).hits;
    expect(hits.length).toBe(1000);
    const byID = new Map(all.map((t) => [t.objectID, t]));
    for (const hit of hits) expect(hit).toEqual(byID.get(hit.objectID));
  });
});

describe('the official algoliasearch client through the worker', () => {
  it('setSettings, saveObjects (waitForTasks), searchSingleIndex with a typo, getObject, search, errors', async () => {
    const { remote } = startEngineWorker();
    const client = algoliasearch('WORKERAPP', 'any-key', { requester: lanternRequester(remote) });
    const { taskID } = await client.setSettings({ indexName: 'talks', indexSettings: talksSettings() as never });
    await client.waitForTask({ indexName: 'talks', taskID });
    await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
    const response = await client.searchSingleIndex({ indexName: 'talks', searchParams: { query: 'gvier', hitsPerPage: 5 } });
    expect(response.hits[0]).toMatchObject({ objectID: '2652', name: 'Are you a giver or a taker?' });
    expect(response.hits[0]._highlightResult?.name).toMatchObject({ value: 'Are you a <em>giver</em> or a taker?' });
    const object = await client.getObject({ indexName: 'talks', objectID: '2652' });
    expect(object).toEqual(talks.find((t) => t.objectID === '2652'));
    const multi = await client.search({ requests: [{ indexName: 'talks', query: 'love', hitsPerPage: 2 }] });
    expect((multi.results[0] as any).hits.length).toBe(2);
    const error = await client.getObject({ indexName: 'talks', objectID: 'missing' }).then(() => undefined, (e) => e);
    expect(error?.status).toBe(404);
  });
});

describe('fsStorage inside the worker', () => {
  it('what one worker wrote, the next one reads back', async () => {
    const dir = tempDir();
    const first = startEngineWorker({ fsDir: dir });
    await first.remote.client().saveObjects({ indexName: 'kept', objects: talks.slice(0, 50), waitForTasks: true });
    await first.remote.snapshot();
    await first.remote.request({ method: 'PUT', path: '/1/indexes/kept/after', body: { name: 'written after the snapshot' } });
    await first.remote.close();
    expect(await first.exited).toBeTypeOf('number');

    const second = startEngineWorker({ fsDir: dir });
    const search = await second.remote.request({ method: 'POST', path: '/1/indexes/kept/query', body: { query: '', hitsPerPage: 0, distinct: false } });
    expect((search.body as any).nbHits).toBe(51);
    expect((await second.remote.request({ method: 'GET', path: '/1/indexes/kept/after' })).body).toEqual({ objectID: 'after', name: 'written after the snapshot' });
  });
});

describe('close()', () => {
  it('terminates the worker', async () => {
    const { remote, exited } = startEngineWorker();
    await remote.request({ method: 'PUT', path: '/1/indexes/c/1', body: { v: 1 } });
    await remote.close();
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 5000))]);
    expect(code).toBeTypeOf('number');
  });

  it('leaves nothing that keeps a process alive: a process that closes its worker ends by itself', async () => {
    const child = spawn(process.execPath, [CLOSE_PROCESS], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const outcome = await Promise.race([
      new Promise<{ code: number | null }>((resolve) => child.once('exit', (code) => resolve({ code }))),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 10_000)),
    ]);
    if (outcome === 'hung') child.kill('SIGKILL');
    expect(outcome, `stdout: ${stdout} stderr: ${stderr}`).toEqual({ code: 0 });
    expect(JSON.parse(stdout.trim())).toEqual({ nbHits: 1, exitCode: expect.any(Number) });
  });
});
