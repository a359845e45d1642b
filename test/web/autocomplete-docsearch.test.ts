// Autocomplete (@algolia/autocomplete-js with the query suggestions plugin)
// and DocSearch (@docsearch/js, its client replaced through
// transformSearchClient) in Chromium (playwright-core) against Lantern over
// HTTP, the page (test/web/fixtures/autocomplete-docsearch-app.ts, bundled
// here with esbuild) served from another origin: the README recipes, typed
// into as a user does, with every answer a success.
import { fileURLToPath } from 'node:url';
import { algoliasearch } from 'algoliasearch';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { ADMIN_KEY, APP_ID } from '../libraries/products.js';
import { chromiumFor } from '../support/chromium.js';
import { expectNoFailure, openWebApp, type Seen, type WebApp } from '../support/web-app.js';

const haveChromium = chromiumFor('autocomplete-docsearch.test.ts');
const ENTRY = fileURLToPath(new URL('./fixtures/autocomplete-docsearch-app.ts', import.meta.url));

const PAGE = `<!doctype html><meta charset="utf-8"><title>autocomplete and docsearch</title>
<div id="autocomplete"></div><div id="docsearch"></div>
<script type="module" src="/app.js"></script>`;

/** A query suggestions index as the service builds it (query, popularity, nb_words). */
const SUGGESTIONS = ['iphone', 'iphone case', 'iphone charger', 'ipad', 'macbook pro', 'galaxy buds'].map((query, i) => ({
  objectID: query, query, popularity: 100 - i, nb_words: query.split(' ').length,
}));

/** Records in DocSearch's schema (the crawler's): a hierarchy, content, url and type. */
const DOCS = [
  { objectID: 'd1', type: 'lvl1', url: 'https://docs.example/install', hierarchy: { lvl0: 'Guide', lvl1: 'Installation', lvl2: null }, content: null },
  { objectID: 'd2', type: 'content', url: 'https://docs.example/install#npm', hierarchy: { lvl0: 'Guide', lvl1: 'Installation', lvl2: 'With npm' }, content: 'Install the package with npm install lantern-search.' },
  { objectID: 'd3', type: 'lvl1', url: 'https://docs.example/persistence', hierarchy: { lvl0: 'Guide', lvl1: 'Persistence', lvl2: null }, content: null },
  { objectID: 'd4', type: 'content', url: 'https://docs.example/persistence#snapshots', hierarchy: { lvl0: 'Guide', lvl1: 'Persistence', lvl2: 'Snapshots' }, content: 'Snapshots are taken every 2000 writes.' },
].map((r) => ({ ...r, hierarchy: { ...r.hierarchy, lvl3: null, lvl4: null, lvl5: null, lvl6: null } }));

let engine: Lantern;
let app: WebApp | undefined;
let searchKey = '';
// the app's parts, as the tests read them
let apiOrigin = '';
let siteOrigin = '';
let page: Page;
let served: Seen[] = [];
let log = () => '';

beforeAll(async () => {
  if (!haveChromium) return;
  engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
  const admin = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) });
  // ranked by popularity, as the service sets a query suggestions index (ties would come by objectID)
  await admin.waitForTask({ indexName: 'products_query_suggestions', taskID: (await admin.setSettings({ indexName: 'products_query_suggestions', indexSettings: { customRanking: ['desc(popularity)'] } })).taskID });
  await admin.saveObjects({ indexName: 'products_query_suggestions', objects: SUGGESTIONS, waitForTasks: true });
  const docsSettings = {
    searchableAttributes: ['unordered(hierarchy.lvl0)', 'unordered(hierarchy.lvl1)', 'unordered(hierarchy.lvl2)', 'content'],
    attributesForFaceting: ['type'],
    attributesToSnippet: ['content:10'],
  };
  await admin.waitForTask({ indexName: 'docs', taskID: (await admin.setSettings({ indexName: 'docs', indexSettings: docsSettings })).taskID });
  await admin.saveObjects({ indexName: 'docs', objects: DOCS, waitForTasks: true });
  ({ key: searchKey } = await admin.addApiKey({ acl: ['search'], description: 'the page' }));
  await admin.waitForApiKey({ key: searchKey, operation: 'add' });

  app = await openWebApp(engine, { entry: ENTRY, html: PAGE, jsx: 'automatic' });
  ({ apiOrigin, siteOrigin, page, served, log } = app);
  await page.goto(`${siteOrigin}/?${new URLSearchParams({ api: apiOrigin, appId: APP_ID, apiKey: searchKey })}`);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await engine?.close();
});


describe('Autocomplete and DocSearch in Chromium', () => {
  it.skipIf(!haveChromium)('autocomplete shows the query suggestions, highlighted', async () => {
    await page.locator('#autocomplete .aa-Input').pressSequentially('iph', { delay: 20 });
    const items = page.locator('.aa-Panel .aa-Item');
    await expect.poll(() => items.allTextContents(), { timeout: 10_000, message: log() }).toEqual(['iphone', 'iphone case', 'iphone charger']);
    // the plugin reverse-highlights: what the query did not match is marked
    expect(await page.locator('.aa-Panel .aa-Item mark').first().textContent()).toBe('one');
    expect(served.some((s) => s.path.startsWith('/1/indexes/*/queries'))).toBe(true);
    expectNoFailure(app!);
    await page.keyboard.press('Escape');
  });

  it.skipIf(!haveChromium)('DocSearch searches through the client transformSearchClient gives it', async () => {
    await page.locator('#docsearch button').click();
    await page.locator('.DocSearch-Input').pressSequentially('snapshot', { delay: 20 });
    const hits = page.locator('.DocSearch-Hit');
    await expect.poll(() => hits.count(), { timeout: 10_000, message: log() }).toBeGreaterThan(0);
    const text = (await page.locator('.DocSearch-Dropdown').textContent()) ?? '';
    expect(text).toContain('Persistence');
    expect(text).toContain('Snapshots');
    expect(await page.locator('.DocSearch-Hit a').first().getAttribute('href')).toMatch(/^https:\/\/docs\.example\/persistence/);
    expectNoFailure(app!);
  });
});
