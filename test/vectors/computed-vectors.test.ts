// Vectors the engine computes itself: a rest embedder (an OpenAI-compatible
// server the test starts, deterministic) and an in-process function. Records
// are searchable by keywords at once and embedded in the background (their
// task says how many wait); the vectors are logged, so a restart computes
// none again; a text written again unchanged is not embedded again; an
// embedder that is down loses no write and answers queries by keywords, and
// the records are embedded once it is back; its API key stays the admin's.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { caller, cleanup, closeEngine, openAt, tempDir } from '../persistence/helpers.js';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';
import { Lantern } from '../../src/lantern.js';

const DIMENSIONS = 32;
const SECRET = 'sk-test-0123456789abcdef';
let server: EmbeddingServer;

beforeAll(async () => {
  await loadCore();
  server = await EmbeddingServer.start({ dimensions: DIMENSIONS, apiKey: SECRET });
});
afterAll(() => server.stop());
afterEach(async () => {
  server.setFailing(0);
  server.setDelay(0);
  await server.restart();
  await cleanup();
});

const RETRY = { retryDelayMs: 20, maxRetryDelayMs: 100 };

const TALKS = [
  { objectID: 't1', title: 'How whales sing to each other across the ocean', views: 10 },
  { objectID: 't2', title: 'The ocean is warming faster than we thought', views: 20 },
  { objectID: 't3', title: 'Why cities need more trees and parks', views: 30 },
  { objectID: 't4', title: 'Trees talk to each other underground', views: 40 },
  { objectID: 't5', title: 'A new way to teach children mathematics', views: 50 },
  { objectID: 't6', title: 'Mathematics is the language of nature', views: 60 },
];

const embedders = (url = server.url) => ({
  embedders: { meaning: { source: 'rest', url, apiKey: SECRET, model: 'hash-words', dimensions: DIMENSIONS, documentTemplate: '{{doc.title}}' } },
  searchableAttributes: ['title'],
});

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

/** The talks nearest to `query` by the server's embedding, best first. */
function nearest(query: string, k: number, talks = TALKS): string[] {
  const q = localEmbedding(query, DIMENSIONS);
  return talks.map((t) => ({ id: t.objectID, s: cosine(localEmbedding(t.title, DIMENSIONS), q) }))
    .sort((a, b) => b.s - a.s).slice(0, k).map((t) => t.id);
}

describe('a rest embedder', () => {
  it('embeds records in the background, searchable by keywords at once; its vectors survive a restart and are not computed again', async () => {
    const dir = tempDir();
    let engine = await openAt(dir, { embeddingQueue: RETRY });
    let call = caller(engine);
    expect((await call('PUT', '/1/indexes/talks/settings', embedders())).status).toBe(200);
    server.setDelay(300);
    const written = await call('POST', '/1/indexes/talks/batch', { requests: TALKS.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    // searchable by keywords before any vector exists; the task says its records wait
    expect((await call('POST', '/1/indexes/talks/query', { query: 'ocean' })).body.nbHits).toBe(2);
    const task = await call('GET', `/1/indexes/talks/task/${written.body.taskID}`);
    expect(task.body).toEqual({ status: 'published', pendingEmbeddings: TALKS.length });
    await engine.waitForEmbeddings();
    expect((await call('GET', `/1/indexes/talks/task/${written.body.taskID}`)).body).toEqual({ status: 'published' });
    server.setDelay(0);

    const query = 'whales singing in the ocean';
    const semantic = await call('POST', '/1/indexes/talks/query', { query, hybrid: { semanticRatio: 1 }, hitsPerPage: 3 });
    expect(semantic.status).toBe(200);
    expect(semantic.body.hits.map((h: any) => h.objectID)).toEqual(nearest(query, 3));
    const embeddedBefore = server.textsEmbedded;
    expect(embeddedBefore).toBe(TALKS.length + 1); // the records, and the query

    // a record written again with the same text is not embedded again; a changed text is
    await call('PUT', '/1/indexes/talks/t1', { ...TALKS[0], views: 11 });
    await call('POST', '/1/indexes/talks/t2/partial', { views: 21 });
    await call('PUT', '/1/indexes/talks/t3', { ...TALKS[2], title: 'Why cities need whales' });
    await engine.waitForEmbeddings();
    expect(server.textsEmbedded).toBe(embeddedBefore + 1);
    expect(server.embeddedTexts.get('Why cities need whales')).toBe(1);
    await closeEngine(engine);

    // a restart replays the logged vectors: nothing is embedded again
    engine = await openAt(dir, { embeddingQueue: RETRY });
    call = caller(engine);
    await engine.waitForEmbeddings();
    const again = await call('POST', '/1/indexes/talks/query', { query, hybrid: { semanticRatio: 1 }, hitsPerPage: 3 });
    const retitled = TALKS.map((t) => (t.objectID === 't3' ? { ...t, title: 'Why cities need whales' } : t));
    expect(again.body.hits.map((h: any) => h.objectID)).toEqual(nearest(query, 3, retitled));
    // the records' vectors came from the log: only the query was embedded (a new process remembers no query)
    expect(server.textsEmbedded).toBe(embeddedBefore + 2);
    expect(server.embeddedTexts.get(TALKS[3].title)).toBe(1);
  });
});

describe('replicas', () => {
  it('a standard replica with its primary\'s embedders searches by meaning; each text is embedded once for both', async () => {
    const engine = await openAt(tempDir(), { embeddingQueue: RETRY });
    const call = caller(engine);
    const before = server.textsEmbedded;
    await call('PUT', '/1/indexes/talks/settings?forwardToReplicas=true', { ...embedders(), replicas: ['talks_by_views'] });
    await engine.waitForTasks();
    await call('PUT', '/1/indexes/talks_by_views/settings', { customRanking: ['desc(views)'] });
    await call('POST', '/1/indexes/talks/batch', { requests: TALKS.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForEmbeddings();
    expect(server.textsEmbedded - before).toBe(TALKS.length);
    const query = 'trees and parks in cities';
    for (const indexName of ['talks', 'talks_by_views']) {
      const r = await call('POST', `/1/indexes/${indexName}/query`, { query, hybrid: { semanticRatio: 1 }, hitsPerPage: 2 });
      expect(r.body.hits.map((h: any) => h.objectID), indexName).toEqual(nearest(query, 2));
    }
  });
});

describe('an embedder that fails', () => {
  it('loses no write: records are kept and searchable by keywords, queries answer keyword results and say why, and all is embedded once it is back', async () => {
    const engine = await openAt(tempDir(), { embeddingQueue: RETRY, queryEmbeddingTimeoutMs: 500 });
    const call = caller(engine);
    await call('PUT', '/1/indexes/talks/settings', embedders());
    await server.stop();
    await call('POST', '/1/indexes/talks/batch', { requests: TALKS.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    expect((await call('POST', '/1/indexes/talks/query', { query: 'trees' })).body.nbHits).toBe(2);
    const down = await call('POST', '/1/indexes/talks/query', { query: 'trees', hybrid: { semanticRatio: 0.5 } });
    expect(down.status).toBe(200);
    expect(down.body.hits.map((h: any) => h.objectID).sort()).toEqual(['t3', 't4']);
    expect(down.body.semanticError).toMatch(/could not be embedded/);
    expect(down.body.semanticError).not.toContain(SECRET);

    await server.restart();
    await engine.waitForEmbeddings();
    const up = await call('POST', '/1/indexes/talks/query', { query: 'trees underground', hybrid: { semanticRatio: 1 }, hitsPerPage: 2 });
    expect(up.body.semanticError).toBeUndefined();
    expect(up.body.hits.map((h: any) => h.objectID)).toEqual(nearest('trees underground', 2));
  });
});

describe('texts that wait for an embedder and are no longer wanted', () => {
  it('stop counting as pending in their task: the embedder changed model, the index was deleted', async () => {
    const engine = await openAt(tempDir(), { embeddingQueue: RETRY });
    const call = caller(engine);
    await call('PUT', '/1/indexes/talks/settings', embedders());
    server.setFailing('always');
    const written = await call('POST', '/1/indexes/talks/batch', { requests: TALKS.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    const pending = async (taskID: number) => (await call('GET', `/1/indexes/talks/task/${taskID}`)).body.pendingEmbeddings ?? 0;
    expect(await pending(written.body.taskID)).toBe(TALKS.length);
    // a model of another vector space: the texts sent for the old one are dropped, every record's queued for the change
    const changed = await call('PUT', '/1/indexes/talks/settings', { embedders: { meaning: { ...embedders().embedders.meaning, model: 'hash-words-2' } } });
    await engine.waitForTasks();
    expect(await pending(written.body.taskID)).toBe(0);
    expect(await pending(changed.body.taskID)).toBe(TALKS.length);
    // the index deleted: its texts are dropped when they are next to be sent
    await call('DELETE', '/1/indexes/talks');
    await engine.waitForTasks();
    await expect.poll(() => pending(changed.body.taskID), { timeout: 5_000 }).toBe(0);
  });
});

describe('an embedder\'s API key', () => {
  it('is masked for keys other than the admin\'s, kept when sent back masked, refused to them, and never in the logs', async () => {
    const engine = await openAt(tempDir(), { adminKey: 'admin', embeddingQueue: RETRY });
    const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: { 'x-algolia-api-key': 'admin', 'x-algolia-application-id': 'A' } });
    await admin('PUT', '/1/indexes/talks/settings', embedders());
    await engine.waitForTasks();
    const key = ((await admin('POST', '/1/keys', { acl: ['settings', 'editSettings', 'logs'] })).body as { key: string }).key;
    const other = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: { 'x-algolia-api-key': key, 'x-algolia-application-id': 'A' } });
    await engine.waitForTasks();

    const seen = await other('GET', '/1/indexes/talks/settings');
    expect(seen.status).toBe(200);
    expect(JSON.stringify(seen.body)).not.toContain(SECRET);
    expect((seen.body as any).embedders.meaning.apiKey).toBe('sk-...');
    expect((await other('PUT', '/1/indexes/talks/settings', { embedders: (seen.body as any).embedders })).status).toBe(403);
    expect((await admin('GET', '/1/indexes/talks/settings')).body).toMatchObject({ embedders: { meaning: { apiKey: SECRET } } });

    // the admin sending the masked settings back keeps the key: records are still embedded
    const masked = (seen.body as any).embedders;
    await admin('PUT', '/1/indexes/talks/settings', { embedders: masked });
    await admin('POST', '/1/indexes/talks/batch', { requests: TALKS.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForEmbeddings();
    expect((await admin('GET', '/1/indexes/talks/settings')).body).toMatchObject({ embedders: { meaning: { apiKey: SECRET } } });
    expect(((await admin('POST', '/1/indexes/talks/query', { query: 'ocean', hybrid: { semanticRatio: 1 } })).body as any).semanticError).toBeUndefined();

    const logs = await admin('GET', '/1/logs?length=1000');
    expect(JSON.stringify(logs.body)).not.toContain(SECRET);
  });
});

describe('a function embedder', () => {
  it('embeds records and queries in-process', async () => {
    const calls: string[][] = [];
    const engine = await Lantern.open({
      embedders: { words: async (texts: string[]) => { calls.push(texts); return texts.map((t) => localEmbedding(t, DIMENSIONS)); } },
    });
    try {
      const call = caller(engine);
      await call('PUT', '/1/indexes/talks/settings', {
        embedders: { local: { source: 'function', name: 'words', dimensions: DIMENSIONS, documentTemplate: '{{doc.title}}' } },
      });
      await call('POST', '/1/indexes/talks/batch', { requests: TALKS.map((body) => ({ action: 'addObject', body })) });
      await engine.waitForEmbeddings();
      const query = 'teaching mathematics to children';
      const r = await call('POST', '/1/indexes/talks/query', { query, hybrid: { embedder: 'local', semanticRatio: 1 }, hitsPerPage: 2, getRankingInfo: true });
      expect(r.body.hits.map((h: any) => h.objectID)).toEqual(nearest(query, 2));
      expect(r.body.hits[0]._rankingInfo.semanticScore).toBeGreaterThan(0.5);
      expect(calls.flat()).toContain(query);
      expect(calls.flat().filter((t) => t === TALKS[4].title)).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });
});
