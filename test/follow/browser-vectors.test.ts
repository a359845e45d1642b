// Vectors reach a follower in Chromium (playwright-core): a page's module
// worker runs an engine on IndexedDB following a real `lantern serve`
// child. The server holds three indexes: records carrying their own vectors
// (userProvided), records the server embeds with a rest embedder (the test
// embedding server, behind an API key), and records for a function embedder
// the page's engine alone has. The follower receives the records with their
// `_vectors` and the computed vectors the server logged, never the
// embedder's API key or credential headers (neither in the image nor in the log); with the server
// gone and the page offline it answers vector searches as the server did,
// and embeds its own queries with its function embedder.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { readStreamFor } from '../support/api.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFor, launchChromium, originOf, servePages } from '../support/chromium.js';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';
import { startServe, type Served } from '../support/serve.js';

const haveChromium = chromiumFor('browser-vectors.test.ts');
const PAGES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const ADMIN = 'browser-vectors-admin';
const APP = 'BROWSERVECTORS';
const SECRET = 'sk-follow-0123456789SECRET';
const HEADER_SECRET = 'hdr-follow-0123456789SECRET';
const DIMENSIONS = 16;

let site: Server | undefined;
let context: BrowserContext | undefined;
let api: Served | undefined;
let embeddings: EmbeddingServer | undefined;
const dirs: string[] = [];
const pageLog: string[] = [];

async function call(method: string, path: string, body?: unknown, key = ADMIN): Promise<any> {
  const response = await fetch(api!.url + path, {
    method, headers: { 'x-algolia-api-key': key, 'x-algolia-application-id': APP }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

/** Reads `path` for `ms` milliseconds (a stream is cut then): its bytes as text. */
function readFor(path: string, key: string, ms: number): Promise<string> {
  return readStreamFor(api!.url + path, { 'x-algolia-api-key': key, 'x-algolia-application-id': APP }, ms);
}

const vectorOf = (text: string) => Array.from(localEmbedding(text, DIMENSIONS));

// vectors with digits a float32 would lose: they must come back as written
const OWN = [
  { objectID: 'o1', name: 'red shoe', _vectors: { own: [0.1234567890123, -0.5, 0.25, 1e-7] } },
  { objectID: 'o2', name: 'blue shoe', _vectors: { own: [-0.3333333333333333, 0.9, 0.1, 0.05] } },
  { objectID: 'o3', name: 'red hat', _vectors: { own: [0.7, 0.7, -0.1, 0.000123] } },
  { objectID: 'o4', name: 'green hat', _vectors: { own: [-0.9, 0.1, 0.4, -0.2] } },
  { objectID: 'o5', name: 'no vector', _vectors: { own: null } },
];
const TALKS = [
  { objectID: 't1', title: 'How whales sing to each other across the ocean' },
  { objectID: 't2', title: 'The ocean is warming faster than we thought' },
  { objectID: 't3', title: 'Why cities need more trees and parks' },
  { objectID: 't4', title: 'Trees talk to each other underground' },
  { objectID: 't5', title: 'A new way to teach children mathematics' },
];
// the server has no function "hashed": these records bring the vectors it would compute
const LOCAL = TALKS.map((t) => ({ ...t, _vectors: { local: vectorOf(t.title) } }));

const SEARCHES: Array<[index: string, params: Record<string, unknown>]> = [
  ['own', { vector: [0.1, -0.4, 0.3, 0], retrieveVectors: true }],
  ['own', { vector: [-1, 0.2, 0.5, -0.1], hitsPerPage: 2, page: 1 }],
  ['own', { query: 'shoe', vector: [0.7, 0.6, 0, 0], hybrid: { embedder: 'own', semanticRatio: 0.5 }, retrieveVectors: true }],
  ['computed', { vector: vectorOf('ocean whales'), retrieveVectors: true }],
  ['computed', { vector: vectorOf('trees in cities'), filters: 'NOT objectID:t3', hitsPerPage: 3 }],
  ['local', { vector: vectorOf('children mathematics'), retrieveVectors: true }],
];

/** What two engines must answer alike: the hits (ids, highlights, vectors) and the counts. */
const comparable = (body: any) => ({ hits: body.hits, nbHits: body.nbHits, semanticHitCount: body.semanticHitCount, semanticError: body.semanticError });

async function followerSearch(page: Page, index: string, params: Record<string, unknown>): Promise<any> {
  const response = await page.evaluate(([i, p]) => (window as any).lantern.request({ method: 'POST', path: `/1/indexes/${i}/query`, body: p }), [index, params] as const);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

beforeAll(async () => {
  if (!haveChromium) return;
  embeddings = await EmbeddingServer.start({ dimensions: DIMENSIONS, apiKey: SECRET });
  site = await servePages({ '/page.js': join(PAGES, 'page.js'), '/follower-worker.js': join(PAGES, 'vector-follower-worker.js') });
  const userDataDir = mkdtempSync(join(tmpdir(), 'lantern-chromium-vectors-'));
  dirs.push(userDataDir);
  context = await launchChromium(userDataDir);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await api?.stop();
  await embeddings?.stop();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!haveChromium)('vectors on a follower in a browser worker', () => {
  it('receives records, vectors and computed vectors but no API key, answers vector searches offline as the server, embeds queries with its own function', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lantern-follow-vectors-'));
    dirs.push(dataDir);
    api = await startServe(['--data', dataDir, '--admin-key', ADMIN, '--app-id', APP]);
    const { key } = await call('POST', '/1/keys', { acl: ['follow'] });
    // the log from now on, as a follower tails it
    const taken = Number((await fetch(`${api.url}/1/lantern/follow/snapshot`, { headers: { 'x-algolia-api-key': key, 'x-algolia-application-id': APP } })).headers.get('x-lantern-task-id'));
    const streamed = readFor(`/1/lantern/follow/log?after=${taken}`, key, 6_000);

    await call('PUT', '/1/indexes/own/settings', { embedders: { own: { source: 'userProvided', dimensions: 4 } } });
    await call('POST', '/1/indexes/own/batch', { requests: OWN.map((body) => ({ action: 'addObject', body })) });
    await call('PUT', '/1/indexes/computed/settings', {
      searchableAttributes: ['title'],
      embedders: {
        meaning: { source: 'rest', url: embeddings!.url, apiKey: SECRET, headers: { 'x-api-key': HEADER_SECRET, 'x-team': 'search' }, dimensions: DIMENSIONS, documentTemplate: '{{doc.title}}' },
      },
    });
    const { taskID: embedded } = await call('POST', '/1/indexes/computed/batch', { requests: TALKS.map((body) => ({ action: 'addObject', body })) });
    await call('PUT', '/1/indexes/local/settings', { searchableAttributes: ['title'], embedders: { local: { source: 'function', name: 'hashed', dimensions: DIMENSIONS } } });
    await call('POST', '/1/indexes/local/batch', { requests: LOCAL.map((body) => ({ action: 'addObject', body })) });
    await expect.poll(async () => (await call('GET', `/1/indexes/computed/task/${embedded}`)).pendingEmbeddings ?? 0, { timeout: 10_000 }).toBe(0);
    expect(embeddings!.textsEmbedded).toBe(TALKS.length);
    // a write after the computed vectors were logged: caught up with it, the follower has them
    const { taskID: last } = await call('PUT', '/1/indexes/own/o6', { name: 'late hat', _vectors: { own: [0.5, -0.5, 0.5, -0.5] } });

    // neither the image nor the log carries the embedder's key; the log carries the computed vectors
    const image = await readFor('/1/lantern/follow/snapshot', key, 5_000);
    const log = await streamed;
    expect(log).toContain('"type":"vectors"');
    expect(log).toContain('whales');
    for (const text of [image, log]) for (const secret of [SECRET, HEADER_SECRET, 'SECRET']) expect(text).not.toContain(secret);

    const page = await context!.newPage();
    page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));
    await page.goto(`${originOf(site!)}/?${new URLSearchParams({ url: api.url, key, app: APP, dimensions: String(DIMENSIONS) })}`);
    await page.evaluate(() => (window as any).lantern.ready).catch((e) => { throw new Error(`${e}\n${pageLog.join('\n')}`); });
    await page.evaluate((t) => (window as any).lantern.caughtUp(t), last);

    const request = (method: string, path: string) => page.evaluate(([m, p]) => (window as any).lantern.request({ method: m, path: p }), [method, path] as const);
    // the follower's settings hold the key masked
    expect((await request('GET', '/1/indexes/computed/settings')).body.embedders.meaning).toMatchObject({ apiKey: 'sk-...', headers: { 'x-api-key': 'hdr...', 'x-team': 'search' } });
    // records come with their vectors as written
    for (const record of OWN) expect((await request('GET', `/1/indexes/own/${record.objectID}`)).body).toEqual(record);

    const online = [];
    for (const [index, params] of SEARCHES) {
      const served = await call('POST', `/1/indexes/${index}/query`, params);
      expect(served.hits.length).toBeGreaterThan(0);
      online.push(comparable(served));
    }
    // the computed vectors the follower answers are the embedding server's
    const computedHit = online[3].hits[0];
    expect(computedHit._vectors.meaning).toEqual(Array.from(localEmbedding(TALKS.find((t) => t.objectID === computedHit.objectID)!.title, DIMENSIONS)));

    // the server goes away, the page goes offline: the follower answers as the server did
    await context!.setOffline(true);
    await api.kill();
    await expect.poll(async () => (await page.evaluate(() => (window as any).lantern.followState())).connected, { timeout: 20_000 }).toBe(false);
    for (const [i, [index, params]] of SEARCHES.entries()) {
      expect(comparable(await followerSearch(page, index, params)), `${index} ${JSON.stringify(params)}`).toEqual(online[i]);
    }

    // its function embedder embeds the query text in the browser: the answer of the query's vector
    const text = 'whales in the ocean';
    const byText = await followerSearch(page, 'local', { query: text, hybrid: { embedder: 'local', semanticRatio: 1 } });
    expect(byText.semanticError).toBeUndefined();
    const byVector = await followerSearch(page, 'local', { vector: vectorOf(text) });
    expect(byText.hits.map((h: any) => h.objectID)).toEqual(byVector.hits.map((h: any) => h.objectID));
    expect(byText.hits[0].objectID).toBe('t1');
    // the rest embedder's key stayed on the server: a query text is answered by keywords, and says why
    const restText = await followerSearch(page, 'computed', { query: 'ocean', hybrid: { embedder: 'meaning' } });
    expect(restText.semanticError).toMatch(/keyword results only/);
    expect(restText.hits.map((h: any) => h.objectID).sort()).toEqual(['t1', 't2']);
    await context!.setOffline(false);
  }, 90_000);
});
