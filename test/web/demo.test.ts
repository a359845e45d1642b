// The web demo end to end, as a user meets it: `lantern serve --demo` (what
// `npm start` runs) serves the page; Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core) opens it. The first visit imports the TED talks
// into IndexedDB with a progress bar; InstantSearch.js searches Lantern in a
// worker through the official lite client; a reload opens the data from
// IndexedDB; with the network gone (and then the server too) it still opens
// and searches. Every expected figure is computed here from talks.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFor } from '../support/chromium.js';

const haveChromium = chromiumFor('demo.test.ts');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const OUTPUT = join(ROOT, 'test-output');

interface Talk { objectID: string; name: string; speakers: string[]; tags: string[]; date: number }
const talks: Talk[] = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'talks.json'), 'utf8'));
const talksWithTag = (tag: string) => talks.filter((t) => t.tags.includes(tag)).length;
const tagCounts = new Map<string, number>();
for (const talk of talks) for (const tag of talk.tags) tagCounts.set(tag, talksWithTag(tag));

let server: ChildProcess | undefined;
let demoUrl = '';
let apiUrl = '';
let context: BrowserContext | undefined;
let userDataDir: string | undefined;
let page: Page;
const pageLog: string[] = [];

/** Starts `lantern serve --demo` on a free port; resolves with the two URLs it prints. */
function startServer(): Promise<{ api: string; demo: string }> {
  server = spawn(process.execPath, [CLI, 'serve', '--demo', '--memory', '--port', '0'], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  server.stderr!.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lantern serve --demo printed no URLs\n${stdout}\n${stderr}`)), 30_000);
    server!.stdout!.on('data', (d) => {
      stdout += d;
      const api = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      const demo = /web demo.*: (http:\/\/\S+)/.exec(stdout)?.[1];
      if (api && demo) {
        clearTimeout(timer);
        resolve({ api, demo });
      }
    });
    server!.once('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited with ${code}\n${stderr}`)); });
  });
}

function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

beforeAll(async () => {
  if (!haveChromium) return;
  expect(existsSync(join(ROOT, 'dist', 'demo', 'index.html')), 'dist/demo is missing: run `npm run build`').toBe(true);
  ({ api: apiUrl, demo: demoUrl } = await startServer());
  userDataDir = mkdtempSync(join(tmpdir(), 'lantern-demo-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));
}, 60_000);

afterAll(async () => {
  await context?.close();
  await stopServer();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

const log = () => pageLog.join('\n');

async function whenReady(): Promise<{ source: string | undefined; status: string }> {
  await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 40_000 });
  const state = await page.evaluate(() => ({ state: document.body.dataset.state, source: document.body.dataset.source, status: document.getElementById('status')!.textContent! }));
  expect(state.state, `${state.status}\n${log()}`).toBe('ready');
  return { source: state.source, status: state.status };
}

/** The number the stats widget shows. */
async function shownCount(): Promise<number> {
  return Number((await page.locator('#stats strong').textContent())!.replace(/,/g, ''));
}

async function waitForCount(expected: number): Promise<void> {
  await expect.poll(shownCount, { timeout: 10_000 }).toBe(expected);
}

async function typeQuery(query: string): Promise<void> {
  const box = page.locator('#searchbox input');
  await box.fill('');
  await box.pressSequentially(query, { delay: 15 }); // as you type: one search per keystroke
}

const firstTitle = () => page.locator('#hits .talk h2').first();

describe('the web demo in Chromium', () => {
  it.skipIf(!haveChromium)('serves the page with the REST API on one server', async () => {
    expect(demoUrl).toBe(`${apiUrl}/demo/`);
    const response = await fetch(`${apiUrl}/1/indexes/talks/query`, { method: 'POST', body: JSON.stringify({ query: 'gvier', hitsPerPage: 1 }) });
    expect((await response.json()).hits[0].objectID).toBe('2652');
  });

  it.skipIf(!haveChromium)('first visit: imports the dataset into IndexedDB with a progress bar', async () => {
    const started = Date.now();
    await page.goto(demoUrl);
    await page.waitForSelector('#import-bar', { state: 'visible', timeout: 20_000 });
    const { source } = await whenReady();
    console.log(`demo.test.ts: first visit (import of ${talks.length} talks into IndexedDB) ready in ${Date.now() - started} ms`);
    expect(source).toBe('import');
    expect(await page.locator('#import').isHidden()).toBe(true);
    // the bar ran to the end: every talk and one suggestion per distinct tag
    const bar = await page.locator('#import-bar').evaluate((p: HTMLProgressElement) => ({ value: p.value, max: p.max }));
    expect(bar).toEqual({ value: talks.length + tagCounts.size, max: talks.length + tagCounts.size });
    await waitForCount(talks.length);
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).toContain('lantern-search:ted-talks-demo');
  }, 45_000);

  it.skipIf(!haveChromium)('a typo\'d query as you type finds the right talk first, highlighted', async () => {
    await typeQuery('gvier');
    await expect.poll(() => firstTitle().textContent()).toBe('Are you a giver or a taker?');
    // an earlier keystroke ("gvie") ranks the same talk first with a shorter mark: wait for the last answer
    await expect.poll(() => firstTitle().locator('mark').allTextContents()).toEqual(['giver']);
    // the description is snippeted, with its match highlighted too
    expect(await page.locator('#hits .talk .description mark').first().textContent()).toMatch(/^givers?$/i);
  });

  it.skipIf(!haveChromium)('one talk found reads "1 talk found", without a Date heading over no years to choose from', async () => {
    const dateFacet = page.locator('.facet', { has: page.locator('#dates') });
    await typeQuery('giver taker adam grant');
    await waitForCount(1);
    expect(await page.locator('#stats').textContent()).toMatch(/^1 talk found in \d+ ms$/);
    expect(await dateFacet.isVisible()).toBe(false);
    await typeQuery('');
    await waitForCount(talks.length);
    expect(await page.locator('#stats').textContent()).toMatch(new RegExp(`^${talks.length.toLocaleString('en')} talks found in \\d+ ms$`));
    expect(await dateFacet.isVisible()).toBe(true);
  });

  it.skipIf(!haveChromium)('query suggestions come from the suggestions index', async () => {
    await typeQuery('neuro');
    const suggestions = page.locator('#suggestions .suggestion');
    await expect.poll(() => suggestions.allTextContents()).toContain('neuroscience');
    await suggestions.filter({ hasText: /^neuroscience$/ }).click();
    await expect.poll(() => page.locator('#searchbox input').inputValue()).toBe('neuroscience');
  });

  it.skipIf(!haveChromium)('facet search on speakers finds the speakers whose names start like the text, with their counts', async () => {
    await typeQuery('');
    await waitForCount(talks.length);
    const talksBy = new Map<string, number>();
    for (const talk of talks) for (const speaker of talk.speakers) talksBy.set(speaker, (talksBy.get(speaker) ?? 0) + 1);
    const startingWithGrant = [...talksBy.keys()].filter((speaker) => speaker.toLowerCase().split(/[\s-]+/).some((word) => word.startsWith('grant')));
    expect(startingWithGrant.length).toBeGreaterThan(1);
    await page.locator('#speakers input[type="search"]').fill('grant');
    const items = page.locator('#speakers .ais-RefinementList-item');
    const shown = async () => (await items.locator('.ais-RefinementList-labelText').allTextContents()).map((name) => name.trim());
    await expect.poll(shown).toEqual(expect.arrayContaining(startingWithGrant.map((name) => name.trim())));
    // (the facet search is typo-tolerant, so near spellings show up too) each value shown with its number of talks
    for (const item of await items.all()) {
      const name = (await item.locator('.ais-RefinementList-labelText').textContent())!;
      const speaker = [...talksBy.keys()].find((s) => s.trim() === name.trim())!;
      expect(await item.locator('.ais-RefinementList-count').textContent()).toBe(String(talksBy.get(speaker)));
    }
    await page.locator('#speakers input[type="search"]').fill('');
  });

  it.skipIf(!haveChromium)('refining by a tag shows the number of talks carrying it', async () => {
    const [tag, count] = [...tagCounts].sort((a, b) => b[1] - a[1])[0];
    const label = page.locator('#tags .ais-RefinementList-label').filter({ hasText: new RegExp(`^${tag}\\s*[\\d,]+$`) });
    await expect.poll(() => label.locator('.ais-RefinementList-count').textContent()).toBe(String(count));
    await label.click();
    await waitForCount(count);
    // a second tag is disjunctive: talks with either
    const second = [...tagCounts].sort((a, b) => b[1] - a[1])[1][0];
    await page.locator('#tags .ais-RefinementList-label').filter({ hasText: new RegExp(`^${second}\\s*[\\d,]+$`) }).click();
    await waitForCount(talks.filter((t) => t.tags.includes(tag) || t.tags.includes(second)).length);
    await page.locator('#clear button').click();
    await waitForCount(talks.length);
  });

  it.skipIf(!haveChromium)('a date range by year and a sort by date through a replica', async () => {
    const yearOf = (t: Talk) => new Date(t.date * 1000).getUTCFullYear();
    await page.locator('#dates select').first().selectOption('2010');
    await page.locator('#dates select').nth(1).selectOption('2010');
    await waitForCount(talks.filter((t) => yearOf(t) === 2010).length);
    await page.locator('#sort select').selectOption({ label: 'Oldest first' });
    const oldest = talks.filter((t) => yearOf(t) === 2010).sort((a, b) => a.date - b.date)[0];
    await expect.poll(() => firstTitle().textContent()).toBe(oldest.name);
    await page.locator('#sort select').selectOption({ label: 'Most relevant' });
    await page.locator('#clear button').click();
    await waitForCount(talks.length);
  });

  it.skipIf(!haveChromium)('its state is in the address: back and forward work, and the address opens the same search', async () => {
    await typeQuery('climate');
    await expect.poll(() => page.url()).toMatch(/query.?=climate|climate/);
    const [tag] = [...tagCounts].sort((a, b) => b[1] - a[1])[0];
    await page.locator('#tags .ais-RefinementList-label').filter({ hasText: new RegExp(`^${tag}\\s*[\\d,]+$`) }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain(tag);
    const refined = await shownCount();
    const shared = page.url();
    await page.goBack();
    await expect.poll(() => decodeURIComponent(page.url())).not.toContain(tag);
    await expect.poll(shownCount).toBeGreaterThan(refined);
    await page.goForward();
    await waitForCount(refined);
    // the address alone: a new load shows the same search
    await page.goto(shared);
    await whenReady();
    await waitForCount(refined);
    expect(await page.locator('#searchbox input').inputValue()).toBe('climate');
    await page.goto(demoUrl);
    await whenReady();
    await waitForCount(talks.length);
  });

  it.skipIf(!haveChromium)('events by number of talks; with nothing found, no facet panel and no pagination', async () => {
    const counts = await page.locator('#events .ais-Menu-count').allTextContents();
    const numbers = counts.map((c) => Number(c.replace(/,/g, '')));
    expect(numbers.length).toBeGreaterThan(3);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(await page.locator('.filters .facet').first().isVisible()).toBe(true);
    await typeQuery('qqqxxzzz');
    await waitForCount(0);
    await expect.poll(() => page.locator('.filters .facet').first().isVisible()).toBe(false);
    expect(await page.locator('#pagination').isVisible()).toBe(false);
    await typeQuery('');
    await waitForCount(talks.length);
  });

  it.skipIf(!haveChromium)('on a narrow screen the search box comes before the filters; the page has a favicon', async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    const box = await page.locator('#searchbox').boundingBox();
    const filters = await page.locator('.filters').boundingBox();
    expect(box!.y).toBeLessThan(filters!.y);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml/);
  });

  it.skipIf(!haveChromium)('a reload opens the data from IndexedDB without importing it again', async () => {
    const fetched: string[] = [];
    const track = (request: { url(): string }) => fetched.push(request.url());
    page.on('request', track);
    await page.reload();
    const { source, status } = await whenReady();
    page.off('request', track);
    expect(source).toBe('indexeddb');
    expect(status).toMatch(/Opened from IndexedDB/);
    expect(fetched.filter((url) => url.endsWith('/data/talks.json'))).toEqual([]);
    await waitForCount(talks.length);
    await typeQuery('gvier');
    await expect.poll(() => firstTitle().textContent()).toBe('Are you a giver or a taker?');
  });

  it.skipIf(!haveChromium)('a second tab gets a read-only view that searches what the database holds', async () => {
    const second = await context!.newPage();
    const errors: string[] = [];
    second.on('pageerror', (e) => errors.push(e.message));
    await second.goto(demoUrl);
    await second.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 40_000 });
    expect(await second.locator('#status').textContent()).toMatch(/^Read-only: the demo is open in another tab/);
    expect(await second.evaluate(() => document.body.dataset.readOnly)).toBe('true');
    const box = second.locator('#searchbox input');
    await box.pressSequentially('gvier', { delay: 15 });
    await expect.poll(() => second.locator('#hits .talk h2').first().textContent()).toBe('Are you a giver or a taker?');
    expect(errors).toEqual([]);
    await second.close();
    // the first tab still searches
    await typeQuery('brain');
    await expect.poll(shownCount).toBeGreaterThan(0);
    await typeQuery('');
    await waitForCount(talks.length);
  });

  it.skipIf(!haveChromium)('offline: it searches, and with the server gone it still opens from the service worker\'s cache', async () => {
    expect(await page.evaluate(async () => { await navigator.serviceWorker.ready; return navigator.serviceWorker.controller !== null; })).toBe(true);
    await context!.setOffline(true);
    await expect.poll(() => page.locator('#network').textContent()).toBe('offline');
    await typeQuery('clmate');
    await expect.poll(() => firstTitle().locator('mark').first().textContent()).toMatch(/^climate$/i);

    await stopServer();
    // the demo's address without a search in it (a reload would restore the one in the address)
    await page.goto(demoUrl);
    const { source } = await whenReady();
    expect(source).toBe('indexeddb');
    const tag = 'design';
    await page.locator('#tags input[type="search"]').fill('desig');
    await page.locator('#tags .ais-RefinementList-label').filter({ hasText: new RegExp(`^${tag}\\s*[\\d,]+$`) }).click();
    await waitForCount(talksWithTag(tag));
    await page.locator('#clear button').click();

    await typeQuery('ocean explration');
    await expect.poll(() => firstTitle().textContent()).toMatch(/ocean/i);
    await page.evaluate(() => scrollTo(0, 0));
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'web-demo.png') });
    expect(existsSync(join(OUTPUT, 'web-demo.png'))).toBe(true);
  });
});
