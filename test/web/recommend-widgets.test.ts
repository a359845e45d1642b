// InstantSearch.js's Recommend widgets (frequentlyBoughtTogether,
// relatedProducts, trendingItems, trendingFacets, lookingSimilar) in
// Chromium (playwright-core) against a `lantern serve` process, then against
// an engine in a web worker (lantern-search/worker): insight events in which
// known patterns hide among random noise are pushed, enough for the models'
// default minimums, and each widget must show the planted answer. The page
// (test/web/fixtures/recommend-app.ts) is served from another origin than
// the API, as on a real site.
import { fileURLToPath } from 'node:url';
import { algoliasearch } from 'algoliasearch';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFor } from '../support/chromium.js';
import { startServe, type Served } from '../support/serve.js';
import { expectNoFailure, openWebApp, type WebApp } from '../support/web-app.js';
import { BRANDS, click, conversion, dayTime, products, type PlantedEvent } from '../recommend/planted.js';
import { prng as random } from '../support/random.js';

const haveChromium = chromiumFor('recommend-widgets.test.ts');
const ENTRY = fileURLToPath(new URL('./fixtures/recommend-app.ts', import.meta.url));
const WORKER = fileURLToPath(new URL('./fixtures/recommend-worker.js', import.meta.url));
const APP_ID = 'WIDGETS';
const ADMIN_KEY = 'widgets-admin-key';
const SHOP = 'shop';
const SETTINGS = { attributesForFaceting: ['brand'], embedders: { look: { source: 'userProvided', dimensions: 3 } } };

const PAGE = `<!doctype html><meta charset="utf-8"><title>recommend</title>
<div id="bought-together"></div><div id="related"></div><div id="trending"></div>
<div id="trending-brands"></div><div id="similar"></div>
<script type="module" src="/app.js"></script>`;

const now = Date.now();

/**
 * The planted events, over the models' default minimums (1,000 conversions,
 * 10,000 clicks and conversions for related products): p1 and p2 bought
 * together, two taste groups (p0..p9, p20..p29), p7 rising; noise around them.
 */
function plantedEvents(): PlantedEvent[] {
  const rnd = random(11);
  const pick = () => `p${Math.floor(rnd() * 40)}`;
  const events: PlantedEvent[] = [];
  const at = (daysAgo: number) => dayTime(now, daysAgo, rnd());
  for (let u = 0; u < 300; u++) {
    events.push(conversion(SHOP, `buyer${u}`, ['p1', 'p2'], at(u % 3)));
    for (let k = 0; k < 3; k++) events.push(conversion(SHOP, `buyer${u}`, [pick()], at(1 + (k % 2))));
  }
  for (let u = 0; u < 1300; u++) {
    const taste = u % 2 === 0 ? 0 : 20;
    for (let k = 0; k < 6; k++) events.push(click(SHOP, `taster${u}`, [`p${taste + Math.floor(rnd() * 10)}`], at(k % 3)));
    events.push(click(SHOP, `taster${u}`, [pick()], at(2)));
  }
  // p7 rising: 10 a day before, 200 today
  for (let d = 1; d <= 3; d++) for (let k = 0; k < 10; k++) events.push(conversion(SHOP, `early${d}_${k}`, ['p7'], at(d)));
  for (let k = 0; k < 200; k++) events.push(conversion(SHOP, `fan${k}`, ['p7'], dayTime(now, 0, 1 - k / 200)));
  return events;
}

let serve: Served | undefined;
let app: WebApp | undefined;
let searchKey = '';
const ADMIN = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'application/json' };

async function post(path: string, body: unknown): Promise<any> {
  const response = await fetch(`${serve!.url}${path}`, { method: 'POST', headers: ADMIN, body: JSON.stringify(body) });
  const answer = await response.json();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const ids = (hits: Array<{ objectID?: string }>) => hits.map((h) => h.objectID);
/** The objectIDs a request of getRecommendations answers, asked over HTTP. */
const recommended = async (request: Record<string, unknown>) =>
  ids((await post('/1/indexes/*/recommendations', { requests: [{ indexName: SHOP, threshold: 0, ...request }] })).results[0].hits);

beforeAll(async () => {
  if (!haveChromium) return;
  serve = await startServe(['--memory', '--app-id', APP_ID, '--admin-key', ADMIN_KEY]);
  const api = new URL(serve.url);
  const admin = algoliasearch(APP_ID, ADMIN_KEY, { hosts: [{ url: api.hostname, port: Number(api.port), protocol: 'http', accept: 'readWrite' }] });
  await admin.setSettings({ indexName: SHOP, indexSettings: SETTINGS as never });
  await admin.saveObjects({ indexName: SHOP, objects: products(40) as never[], waitForTasks: true });
  ({ key: searchKey } = await admin.addApiKey({ acl: ['search'], description: 'the page' }));
  await admin.waitForApiKey({ key: searchKey, operation: 'add' });
  const events = plantedEvents();
  for (let i = 0; i < events.length; i += 1000) await post('/1/events', { events: events.slice(i, i + 1000) });
  app = await openWebApp({ origin: serve.url }, { entry: ENTRY, html: PAGE, files: { '/recommend-worker.js': WORKER } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await serve?.stop();
});

/** What a widget shows: its items' objectIDs (facet values for trending facets). */
const shown = (page: Page, container: string) => page.locator(`${container} .id`).allTextContents();

/** Each widget of the page shows the planted answer (all five come in one getRecommendations call). */
async function expectPlantedAnswers(page: Page, log: () => string): Promise<void> {
  await expect.poll(() => shown(page, '#bought-together'), { timeout: 10_000, message: log() }).not.toEqual([]);
  expect((await shown(page, '#bought-together'))[0]).toBe('p2');
  const related = await shown(page, '#related');
  expect(related, log()).toHaveLength(5);
  for (const id of related) expect(Number(id.slice(1))).toBeLessThan(10); // p3's taste group
  expect(related).not.toContain('p3');
  expect((await shown(page, '#trending'))[0]).toBe('p7');
  expect((await shown(page, '#trending-brands'))[0]).toBe(BRANDS[7 % 4]);
  expect((await shown(page, '#similar')).sort()).toEqual(['p11', 'p9']); // nearest on the circle
  expect(await page.evaluate(() => (window as any).errors), log()).toEqual([]);
}

describe('InstantSearch Recommend widgets in Chromium', () => {
  it.skipIf(!haveChromium)('against lantern serve: each widget renders the planted answer', async () => {
    const { page, siteOrigin, log } = app!;
    // the models follow new events within freshnessMs (5 s by default): the page opens once they have
    await expect.poll(() => recommended({ model: 'trending-items', maxRecommendations: 1 }), { timeout: 15_000, interval: 250 }).toEqual(['p7']);
    const query = new URLSearchParams({ api: serve!.url, appId: APP_ID, apiKey: searchKey, index: SHOP });
    await page.goto(`${siteOrigin}/?${query}`);
    await expectPlantedAnswers(page, log);
    expectNoFailure(app!);
  }, 30_000);

  it.skipIf(!haveChromium)('against an engine in a web worker: each widget renders the planted answer', async () => {
    const { page, siteOrigin, log } = app!;
    await page.goto(`${siteOrigin}/?worker=1&index=${SHOP}`);
    await page.waitForFunction(() => (window as any).engine !== undefined);
    const fill = { index: SHOP, settings: SETTINGS, objects: products(40), events: plantedEvents() };
    await page.evaluate(async ({ index, settings, objects, events }) => {
      const engine = (window as any).engine;
      const call = async (method: string, path: string, body: unknown) => {
        const response = await engine.request({ method, path, body });
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
      };
      await call('PUT', `/1/indexes/${index}/settings`, settings);
      await call('POST', `/1/indexes/${index}/batch`, { requests: objects.map((body) => ({ action: 'addObject', body })) });
      await engine.waitForTasks();
      for (let i = 0; i < events.length; i += 1000) await call('POST', '/1/events', { events: events.slice(i, i + 1000) });
    }, fill);
    const trending = () => page.evaluate(async (index) => (await (window as any).engine.request({
      method: 'POST', path: '/1/indexes/*/recommendations', body: { requests: [{ indexName: index, model: 'trending-items', threshold: 0, maxRecommendations: 1 }] },
    })).body.results[0].hits.map((h: { objectID: string }) => h.objectID), SHOP);
    await expect.poll(trending, { timeout: 15_000, interval: 250, message: log() }).toEqual(['p7']);
    await page.evaluate(() => (window as any).startWidgets());
    await expectPlantedAnswers(page, log);
    expectNoFailure(app!);
  }, 30_000);
});
