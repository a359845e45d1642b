// InstantSearch.js with `insights: true` in Chromium (playwright-core) against
// Lantern over HTTP: the page (test/web/fixtures/insights-app.ts, bundled
// here with esbuild) is served from another origin than the API, so every
// call is cross-origin as on a real site. search-insights is the installed
// package with `host` on Lantern (no CDN script). A user types a query,
// refines a brand, clicks a hit, buys it, follows a brand and sorts by price
// (a virtual replica, relevantSort); every answer the page and the server saw
// must be a success, and the events the widgets sent must be recorded as
// sent, filters decoded.
import { fileURLToPath } from 'node:url';
import { algoliasearch } from 'algoliasearch';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { ADMIN_KEY, APP_ID, PRODUCTS, SETTINGS } from '../libraries/products.js';
import { chromiumFor } from '../support/chromium.js';
import { expectNoFailure, openWebApp, type Seen, type WebApp } from '../support/web-app.js';

const haveChromium = chromiumFor('instantsearch-insights.test.ts');
const ENTRY = fileURLToPath(new URL('./fixtures/insights-app.ts', import.meta.url));

const PAGE = `<!doctype html><meta charset="utf-8"><title>insights</title>
<div id="searchbox"></div><div id="sort"></div><div id="relevant-sort"></div><div id="brand"></div>
<button id="follow">Follow Apple</button><div id="hits"></div>
<script type="module" src="/app.js"></script>`;

let engine: Lantern;
let app: WebApp | undefined;
let searchKey = '';
// the app's parts, as the tests read them
let apiOrigin = '';
let siteOrigin = '';
let browser: Browser | undefined;
let page: Page;
let served: Seen[] = [];
let responses: WebApp['responses'] = [];
let pageLog: string[] = [];
let log = () => '';

beforeAll(async () => {
  if (!haveChromium) return;
  engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
  const admin = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) });
  await admin.setSettings({ indexName: 'products', indexSettings: { ...SETTINGS, replicas: ['virtual(products_price_desc)'] } as never });
  await admin.saveObjects({ indexName: 'products', objects: PRODUCTS as never[], waitForTasks: true });
  const { taskID } = await admin.setSettings({ indexName: 'products_price_desc', indexSettings: { customRanking: ['desc(price)'], relevancyStrictness: 100 } });
  await admin.waitForTask({ indexName: 'products_price_desc', taskID });
  ({ key: searchKey } = await admin.addApiKey({ acl: ['search'], description: 'the page' }));
  await admin.waitForApiKey({ key: searchKey, operation: 'add' });

  app = await openWebApp(engine, { entry: ENTRY, html: PAGE });
  ({ apiOrigin, siteOrigin, browser, page, served, responses, pageLog, log } = app);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await engine?.close();
});

const hitNames = () => page.locator('#hits .name').allTextContents();
const recorded = () => engine.analytics.store.events;
const pushes = () => served.filter((s) => s.method === 'POST' && s.path.startsWith('/1/events'));
/** The events pushed, as sent (a beacon's body reaches the handler as text). */
const pushedEvents = () => pushes().flatMap((s) => (typeof s.body === 'string' ? JSON.parse(s.body) : (s.body as any))?.events ?? []);

describe('InstantSearch with insights: true in Chromium', () => {
  it.skipIf(!haveChromium)('searches, refines, clicks and converts; every call succeeds and every event is recorded', async () => {
    const query = new URLSearchParams({ api: apiOrigin, appId: APP_ID, apiKey: searchKey });
    await page.goto(`${siteOrigin}/?${query}`);
    await expect.poll(hitNames, { timeout: 10_000 }).toHaveLength(Math.min(20, PRODUCTS.length)); // hitsPerPage 20

    // InstantSearch's telemetry at the first render: accepted
    await expect.poll(() => pushedEvents().some((e: any) => e.eventType === 'instantsearch' && e.eventName === '__start__'), { timeout: 10_000, message: log() }).toBe(true);

    // type a query, one search per keystroke
    await page.locator('#searchbox input').pressSequentially('phone', { delay: 20 });
    const phones = PRODUCTS.filter((p) => p.category === 'phone');
    await expect.poll(async () => (await hitNames()).sort(), { timeout: 10_000 }).toEqual(phones.map((p) => p.name).sort());

    // refine a brand: a click on a filter
    await page.locator('#brand .ais-RefinementList-item', { hasText: 'Apple' }).locator('input').check();
    const applePhones = phones.filter((p) => p.brand === 'Apple');
    await expect.poll(hitNames, { timeout: 10_000 }).toEqual(applePhones.map((p) => p.name));

    // click the second hit, then buy it
    await page.locator('#hits .name').nth(1).click();
    await page.locator('#hits .buy').nth(1).click();
    // a conversion on a filter, through search-insights itself
    await page.locator('#follow').click();

    // sort by price through the virtual replica: relevantSort offers every result
    await page.locator('#sort select').selectOption('products_price_desc');
    await expect.poll(hitNames, { timeout: 10_000 }).toEqual([...applePhones].sort((a, b) => b.price - a.price).map((p) => p.name));
    // the answer's appliedRelevancyStrictness shows the widget
    await expect.poll(() => page.locator('#relevant-sort button').textContent(), { timeout: 10_000 }).toBe('See all results');
    await page.locator('#relevant-sort button').click(); // a search with relevancyStrictness 0
    await expect.poll(() => page.locator('#relevant-sort button').textContent(), { timeout: 10_000 }).toBe('See relevant results');
    const asText = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body ?? ''));
    expect(served.some((s) => /relevancyStrictness(=|":)0\b/.test(asText(s.body))), log()).toBe(true);

    const want = (e: any) => recorded().some((r) => Object.entries(e).every(([k, v]) => JSON.stringify((r as any)[k]) === JSON.stringify(v)));
    await expect.poll(() => want({ eventName: 'Brand Followed' }), { timeout: 10_000, message: log() }).toBe(true);

    const errors = await page.evaluate(() => (window as any).errors);
    expect(errors, log()).toEqual([]);

    // no failure anywhere: what the page saw and what the server answered
    // search-insights is the bundled package: nothing fetched from a CDN, nothing but the site and Lantern
    expectNoFailure(app!);
    expect(pushes().length).toBeGreaterThanOrEqual(5);
    expect(pushes().every((s) => s.status === 200)).toBe(true);
    const pagePushes = responses.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/1/events');
    expect(pagePushes.every((r) => r.status === 200)).toBe(true);

    // what the widgets sent is what Lantern recorded
    const events = recorded();
    const userToken = events[0]?.userToken;
    expect(userToken).toMatch(/^anonymous-/);
    const views = events.filter((e) => e.eventType === 'view' && e.eventName === 'Hits Viewed');
    expect(views.flatMap((e) => e.objectIDs ?? [])).toEqual(expect.arrayContaining(phones.map((p) => p.objectID)));
    const filterClick = events.find((e) => e.eventType === 'click' && e.eventName === 'Filter Applied');
    expect(filterClick, log()).toMatchObject({ index: 'products', filters: ['brand:Apple'], userToken });
    // search-insights sent it URL-encoded
    expect(pushedEvents().find((e: any) => e.eventName === 'Filter Applied').filters).toEqual(['brand%3AApple']);
    const clicked = applePhones[1].objectID;
    const hitClick = events.find((e) => e.eventType === 'click' && e.eventName === 'Hit Clicked');
    expect(hitClick, log()).toMatchObject({ index: 'products', objectIDs: [clicked], positions: [2] });
    expect(hitClick!.queryID).toMatch(/^[0-9a-f]{32}$/);
    const bought = events.find((e) => e.eventType === 'conversion' && e.eventName === 'Product Bought');
    expect(bought, log()).toMatchObject({ index: 'products', objectIDs: [clicked], queryID: hitClick!.queryID });
    const followed = events.find((e) => e.eventName === 'Brand Followed');
    expect(followed).toMatchObject({ eventType: 'conversion', index: 'products', filters: ['brand:Apple'], userToken });
    expect(events.some((e) => (e.eventType as string) === 'instantsearch')).toBe(false); // telemetry: accepted, not recorded

    // and the analytics API counts the click and the conversion of the tracked search
    const day = new Date().toISOString().slice(0, 10);
    const analytics = async (path: string) => (await fetch(`${apiOrigin}${path}?index=products&startDate=${day}&endDate=${day}`, {
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY },
    })).json();
    expect(await analytics('/2/clicks/clickThroughRate')).toMatchObject({ clickCount: 1 });
    expect(await analytics('/2/conversions/conversionRate')).toMatchObject({ conversionCount: 1 });
  }, 60_000);

  it.skipIf(!haveChromium)('the same page on the v4 lite client: searches, refines and sends its events', async () => {
    const v4Page = await browser!.newPage();
    const seen: Array<{ url: string; status: number }> = [];
    v4Page.on('response', (r) => seen.push({ url: r.url(), status: r.status() }));
    v4Page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));
    const from = served.length;
    const query = new URLSearchParams({ api: apiOrigin, appId: APP_ID, apiKey: searchKey, client: 'v4' });
    await v4Page.goto(`${siteOrigin}/?${query}`);
    const names = () => v4Page.locator('#hits .name').allTextContents();
    await expect.poll(names, { timeout: 10_000 }).toHaveLength(Math.min(20, PRODUCTS.length));
    await v4Page.locator('#searchbox input').pressSequentially('galaxy', { delay: 20 });
    const galaxies = PRODUCTS.filter((p) => p.name.startsWith('Galaxy'));
    await expect.poll(names, { timeout: 10_000 }).toEqual(galaxies.map((p) => p.name));
    await v4Page.locator('#brand .ais-RefinementList-item', { hasText: 'Samsung' }).locator('input').check();
    await v4Page.locator('#hits .name').first().click();
    await expect.poll(() => recorded().some((e) => e.eventName === 'Filter Applied' && e.filters?.[0] === 'brand:Samsung'), { timeout: 10_000, message: log() }).toBe(true);
    await expect.poll(() => recorded().some((e) => e.eventName === 'Hit Clicked' && e.objectIDs?.[0] === galaxies[0].objectID), { timeout: 10_000, message: log() }).toBe(true);
    const mine = served.slice(from);
    expect(mine.some((s) => s.path.includes('Algolia%20for%20JavaScript%20(4.'))).toBe(true); // the v4 client's agent
    expect(seen.filter((r) => r.status >= 400), log()).toEqual([]);
    expect(mine.filter((s) => s.status >= 400).map((s) => `${s.status} ${s.method} ${s.path}`), log()).toEqual([]);
    expect(pageLog.filter((l) => l.startsWith('[pageerror]')), log()).toEqual([]);
    await v4Page.close();
  }, 60_000);
});
