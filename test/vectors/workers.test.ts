// Vector and hybrid searches off the main thread answer as an engine in
// this thread does: the engine in a Comlink worker (lantern-search/worker,
// the built package in a worker_threads Worker), and the read workers of
// `lantern serve --workers 2`, which embed their queries' text with the rest
// embedder themselves. A function embedder stays in the process that was
// given it: a read worker answers its searches by keywords and says why.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { connectWorker } from '../../src/worker.js';
import type { ApiRequest, ApiResponse } from '../../src/api/types.js';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';
import { startServe, type Served } from '../support/serve.js';

const WORKER = fileURLToPath(new URL('../persistence/fixtures/engine-worker.mjs', import.meta.url));
const DIMENSIONS = 16;
const ADMIN = 'vector-workers-admin';
const SECRET = 'sk-workers-0123456789abcdef';

let embeddings: EmbeddingServer;
beforeAll(async () => { embeddings = await EmbeddingServer.start({ dimensions: DIMENSIONS, apiKey: SECRET }); });
afterAll(() => embeddings.stop());

const TALKS = [
  { objectID: 't1', title: 'How whales sing to each other across the ocean', tag: 'nature', pos: [0.9, 0.1, 0.2] },
  { objectID: 't2', title: 'The ocean is warming faster than we thought', tag: 'climate', pos: [0.8, -0.3, 0.1] },
  { objectID: 't3', title: 'Why cities need more trees and parks', tag: 'cities', pos: [-0.2, 0.9, 0.4] },
  { objectID: 't4', title: 'Trees talk to each other underground', tag: 'nature', pos: [0.1, 0.8, -0.5] },
  { objectID: 't5', title: 'A new way to teach children mathematics', tag: 'school', pos: [-0.7, -0.2, 0.6] },
  { objectID: 't6', title: 'Mathematics is the language of nature', tag: 'school', pos: [-0.5, 0.3, 0.8] },
];

const settings = (withFunction: boolean) => ({
  searchableAttributes: ['title'],
  attributesForFaceting: ['tag'],
  embedders: {
    meaning: { source: 'rest', url: embeddings.url, apiKey: SECRET, dimensions: DIMENSIONS, documentTemplate: '{{doc.title}}' },
    pos: { source: 'userProvided', dimensions: 3 },
    ...(withFunction ? { local: { source: 'function', name: 'hashed', dimensions: DIMENSIONS, documentTemplate: '{{doc.title}}' } } : {}),
  },
});
const records = TALKS.map(({ pos, ...talk }) => ({ ...talk, _vectors: { pos } }));

/** Hybrid and vector searches of every kind: text embedded by the rest embedder, given vectors, filters, facets, pages, vectors retrieved. */
const SEARCHES: Array<Record<string, unknown>> = [
  { query: 'ocean', hybrid: { embedder: 'meaning', semanticRatio: 0.5 }, getRankingInfo: true },
  { query: 'trees talking', hybrid: { embedder: 'meaning', semanticRatio: 0.8 }, facets: ['tag'], retrieveVectors: true },
  { query: 'mathematics', hybrid: { embedder: 'meaning', semanticRatio: 1 }, filters: 'tag:school OR tag:nature' },
  { vector: Array.from(localEmbedding('whales singing in the sea', DIMENSIONS)), hybrid: { embedder: 'meaning' }, hitsPerPage: 2, page: 1 },
  { vector: [0.5, 0.5, 0.1], hybrid: { embedder: 'pos' }, retrieveVectors: true },
  { query: 'nature', vector: [-0.6, 0.1, 0.7], hybrid: { embedder: 'pos', semanticRatio: 0.3 }, getRankingInfo: true },
];

/** What must be alike across engines: the hits (with ranking info but no timings) and what the answer says of them. */
function comparable(body: any) {
  const hits = body.hits.map((hit: any) => {
    const { _rankingInfo, ...rest } = hit;
    return _rankingInfo ? { ...rest, scores: [_rankingInfo.keywordScore, _rankingInfo.semanticScore, _rankingInfo.neuralScore] } : rest;
  });
  return { hits, nbHits: body.nbHits, facets: body.facets, semanticHitCount: body.semanticHitCount, semanticError: body.semanticError };
}

type Engine = { request(r: ApiRequest): Promise<ApiResponse>; waitForEmbeddings(): Promise<void> };

async function seed(engine: Engine): Promise<void> {
  await engine.request({ method: 'PUT', path: '/1/indexes/talks/settings', body: settings(false) });
  await engine.request({ method: 'POST', path: '/1/indexes/talks/batch', body: { requests: records.map((body) => ({ action: 'addObject', body })) } });
  await engine.waitForEmbeddings();
}

async function answers(engine: Engine): Promise<unknown[]> {
  const out = [];
  for (const params of SEARCHES) {
    const response = await engine.request({ method: 'POST', path: '/1/indexes/talks/query', body: params });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    out.push(comparable(response.body));
  }
  return out;
}

describe('the engine in a Comlink worker', () => {
  it('answers hybrid and vector searches as the engine in this thread', async () => {
    const local = await Lantern.open({});
    const worker = new Worker(WORKER);
    const remote = connectWorker(worker);
    try {
      await seed(local);
      await seed(remote);
      const expected = await answers(local);
      expect((expected[0] as any).hits.length).toBeGreaterThan(0);
      expect((expected[0] as any).semanticHitCount).toBeDefined();
      expect(await answers(remote)).toEqual(expected);
      // a function given to this thread's engine does not cross to the worker's: its search answers by keywords, and says why
      await remote.request({ method: 'PUT', path: '/1/indexes/talks/settings', body: settings(true) });
      await remote.waitForTasks(); // (its records wait for the function in vain: waitForEmbeddings would not resolve)
      const answer = await remote.request({ method: 'POST', path: '/1/indexes/talks/query', body: { query: 'ocean', hybrid: { embedder: 'local' } } });
      expect(answer.status).toBe(200);
      expect((answer.body as any).semanticError).toMatch(/no function "hashed" was given to this thread's Lantern.open/);
      expect((answer.body as any).hits.map((h: any) => h.objectID).sort()).toEqual(['t1', 't2']);
    } finally {
      await local.close();
      await remote.close();
    }
  });
});

describe('lantern serve --workers 2', () => {
  let served: Served;
  beforeAll(async () => { served = await startServe(['--memory', '--admin-key', ADMIN, '--workers', '2']); }, 30_000);
  afterAll(() => served.stop());

  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(served.url + path, { method, headers: { 'x-algolia-api-key': ADMIN }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, worker: response.headers.get('x-lantern-worker'), body: await response.json() as any };
  }

  it('its read workers embed query texts and answer as the engine in this thread; a function embedder\'s search says it has no vector', async () => {
    const local = await Lantern.open({ embedders: { hashed: async (texts) => texts.map((t) => localEmbedding(t, DIMENSIONS)) } });
    try {
      await seed(local);
      const expected = await answers(local);
      await call('PUT', '/1/indexes/talks/settings', settings(false));
      const { body: { taskID } } = await call('POST', '/1/indexes/talks/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
      await expect.poll(async () => (await call('GET', `/1/indexes/talks/task/${taskID}`)).body, { timeout: 10_000 }).toEqual({ status: 'published' });
      // every search asked twice: both workers answer each
      const workers = new Set<string | null>();
      for (const [i, params] of SEARCHES.entries()) {
        for (let round = 0; round < 2; round++) {
          const answer = await call('POST', '/1/indexes/talks/query', params);
          workers.add(answer.worker);
          expect(comparable(answer.body), JSON.stringify(params)).toEqual(expected[i]);
        }
      }
      expect(workers).toEqual(new Set(['1', '2']));
      // the query texts were embedded (by the workers: the main thread answers no search)
      expect(embeddings.embeddedTexts.get('trees talking')).toBeGreaterThanOrEqual(1);
      // an embedder that fails: each worker answers by keywords, and says why
      embeddings.setFailing('always');
      const workersFailing = new Set<string | null>();
      try {
        // texts asked for the first time (a worker remembers the vectors of texts it embedded)
        for (const [text, found] of [['whales', ['t1']], ['warming', ['t2']], ['oceans', ['t1', 't2']]]) {
          const answer = await call('POST', '/1/indexes/talks/query', { query: text, hybrid: { embedder: 'meaning' } });
          expect(answer.status).toBe(200);
          expect(answer.body.semanticError).toMatch(/^the query could not be embedded by the embedder "meaning", keyword results only: .*500/);
          expect(answer.body.hits.map((h: any) => h.objectID).sort()).toEqual(found);
          workersFailing.add(answer.worker);
        }
        expect(workersFailing).toEqual(new Set(['1', '2']));
      } finally {
        embeddings.setFailing(0);
      }

      // the function embedder the server was not given: keyword results, and why
      await call('PUT', '/1/indexes/talks/settings', settings(true));
      await local.request({ method: 'PUT', path: '/1/indexes/talks/settings', body: settings(true) });
      await local.waitForEmbeddings();
      const { body: { taskID: last } } = await call('PUT', '/1/indexes/talks/t7', { title: 'Ocean trees', _vectors: { local: Array.from(localEmbedding('Ocean trees', DIMENSIONS)) } });
      await expect.poll(async () => (await call('GET', `/1/indexes/talks/task/${last}`)).body.status, { timeout: 10_000 }).toBe('published');
      const hybrid = { query: 'ocean', hybrid: { embedder: 'local', semanticRatio: 0.5 } };
      for (let round = 0; round < 2; round++) {
        const answer = await call('POST', '/1/indexes/talks/query', hybrid);
        expect(answer.status).toBe(200);
        expect(answer.body.semanticError).toMatch(/^the query could not be embedded by the embedder "local", keyword results only: no function "hashed" was given to this thread's Lantern.open\(\{ embedders \}\) \(it has none; functions do not cross to worker threads\)$/);
        expect(answer.body.hits.map((h: any) => h.objectID).sort()).toEqual(['t1', 't2', 't7']);
      }
      // in the process that was given it, the same search has its vector side
      const inProcess = (await local.request({ method: 'POST', path: '/1/indexes/talks/query', body: hybrid })).body as any;
      expect(inProcess.semanticError).toBeUndefined();
      expect(inProcess.semanticHitCount).toBeGreaterThan(0);
    } finally {
      await local.close();
    }
  }, 60_000);
});
