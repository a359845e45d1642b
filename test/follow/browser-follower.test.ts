// A follower in Chromium (playwright-core): a page whose module worker runs
// an engine on IndexedDB following a real `lantern serve` child over HTTP
// (another origin: every call is cross-origin). The page searches what the
// server holds; the server goes away and the page goes offline, the server
// comes back and takes writes meanwhile; the follower keeps answering from
// what it holds, and once the page is online again its searches see the
// writes. Its Recommend models come along the log: it recommends what the
// server learnt from a few purchases, online and offline.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFor, launchChromium, originOf, servePages } from '../support/chromium.js';
import { startServe, type Served } from '../support/serve.js';
import { conversion } from '../recommend/planted.js';

const haveChromium = chromiumFor('browser-follower.test.ts');
const PAGES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const ADMIN = 'browser-follow-admin';
const APP = 'BROWSERFOLLOW';

let site: Server | undefined;
let context: BrowserContext | undefined;
let api: Served | undefined;
let apiPort = '';
const dirs: string[] = [];
const pageLog: string[] = [];

async function startApi(dataDir: string): Promise<Served> {
  api = await startServe(['--data', dataDir, '--admin-key', ADMIN, '--app-id', APP, '--recommend-min-events', '2', ...(apiPort ? ['--port', apiPort] : [])]);
  apiPort = new URL(api.url).port;
  return api;
}

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(api!.url + path, {
    method, headers: { 'x-algolia-api-key': ADMIN, 'x-algolia-application-id': APP }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** The objectIDs the page's follower finds for `query`. */
async function found(page: Page, query: string): Promise<string[]> {
  const body = await page.evaluate(async (q) => {
    const response = await (window as any).lantern.request({ method: 'POST', path: '/1/indexes/products/query', body: { query: q } });
    return response.body;
  }, query);
  return (body.hits as Array<{ objectID: string }>).map((h) => h.objectID).sort();
}

const BOUGHT_WITH_P1 = { requests: [{ indexName: 'products', model: 'bought-together', objectID: 'p1', threshold: 0 }] };
type Scored = Array<[objectID: string, score: number]>;
const scored = (body: any): Scored => body.results[0].hits.map((h: { objectID: string; _score: number }) => [h.objectID, h._score]);

/** What the page's follower recommends as bought together with p1: objectIDs and scores. */
async function recommended(page: Page): Promise<Scored> {
  const response = await page.evaluate((body) => (window as any).lantern.request({ method: 'POST', path: '/1/indexes/*/recommendations', body }), BOUGHT_WITH_P1);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return scored(response.body);
}

const followState = (page: Page) => page.evaluate(() => (window as any).lantern.followState());

beforeAll(async () => {
  if (!haveChromium) return;
  site = await servePages({ '/page.js': join(PAGES, 'page.js'), '/follower-worker.js': join(PAGES, 'follower-worker.js') });
  const userDataDir = mkdtempSync(join(tmpdir(), 'lantern-chromium-follow-'));
  dirs.push(userDataDir);
  context = await launchChromium(userDataDir);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await api?.stop();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!haveChromium)('a follower in a browser worker', () => {
  it('answers searches and recommendations while offline, and sees the server\'s writes once back online', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lantern-follow-served-'));
    dirs.push(dataDir);
    await startApi(dataDir);
    await call('POST', '/1/indexes/products/batch', { requests: [{ action: 'addObject', body: { objectID: 'p1', name: 'television' } }] });
    const { key } = await call('POST', '/1/keys', { acl: ['follow'], indexes: ['products'] });

    const page = await context!.newPage();
    page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));
    const search = new URLSearchParams({ url: api!.url, key, app: APP });
    await page.goto(`${originOf(site!)}/?${search}`);
    await page.evaluate(() => (window as any).lantern.ready);
    expect(await found(page, 'television'), pageLog.join('\n')).toEqual(['p1']);

    const { taskID: first } = await call('POST', '/1/indexes/products/batch', { requests: [{ action: 'addObject', body: { objectID: 'p2', name: 'television stand' } }] });
    await page.evaluate((t) => (window as any).lantern.caughtUp(t), first);
    expect(await found(page, 'television')).toEqual(['p1', 'p2']);

    // a few purchases of p1 with p2: the server learns they go together (within its 5 s freshness), its follower receives the models
    const purchases = ['u1', 'u2', 'u3'].map((user) => conversion('products', user, ['p1', 'p2'], Date.now() - 60_000));
    await call('POST', '/1/events', { events: purchases });
    const boughtWithP1 = [...new Set(purchases.flatMap((e) => (e.objectIDs.includes('p1') ? e.objectIDs.filter((id) => id !== 'p1') : [])))];
    const serverRecommends = async () => scored(await call('POST', '/1/indexes/*/recommendations', BOUGHT_WITH_P1));
    await expect.poll(async () => (await serverRecommends()).map(([id]) => id), { timeout: 15_000 }).toEqual(boughtWithP1);
    const served = await serverRecommends();
    await expect.poll(() => recommended(page), { timeout: 15_000 }).toEqual(served);

    // the page goes offline and the server goes away: the follower answers from what it holds
    await context!.setOffline(true);
    await api!.kill();
    await expect.poll(async () => (await followState(page)).connected, { timeout: 20_000 }).toBe(false);
    expect(await found(page, 'television')).toEqual(['p1', 'p2']);
    expect(await recommended(page)).toEqual(served);

    // the server is back and takes a write while the page is still offline
    await startApi(dataDir);
    const { taskID } = await call('POST', '/1/indexes/products/batch', { requests: [{ action: 'addObject', body: { objectID: 'p3', name: 'television remote' } }] });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await followState(page)).connected).toBe(false);
    expect(await found(page, 'television')).toEqual(['p1', 'p2']);
    expect(await recommended(page)).toEqual(served);

    // online again: it catches up
    await context!.setOffline(false);
    await page.evaluate((t) => (window as any).lantern.caughtUp(t), taskID);
    expect(await found(page, 'television')).toEqual(['p1', 'p2', 'p3']);
    // the restarted server learns again from its stored events (within its freshness), and its follower with it
    await expect.poll(() => recommended(page), { timeout: 15_000 }).toEqual(served);
    expect(await followState(page)).toMatchObject({ connected: true, caughtUp: true });
    // a write to the follower is refused
    const refused = await page.evaluate(() => (window as any).lantern.request({ method: 'POST', path: '/1/indexes/products', body: { name: 'x' } }));
    expect(refused.status).toBe(405);
  }, 90_000);
});
