// One real-browser test: Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) loads a page whose module worker runs the engine
// (dist/worker.js) on real IndexedDB. Write, reload, search: the data is
// there. A second tab on the same database gets the Web Locks error.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, talksSettings } from './helpers.js';
import { chromiumFor, launchChromium, originOf, servePages } from '../support/chromium.js';

const haveChromium = chromiumFor('browser.test.ts');

const PAGES = fileURLToPath(new URL('./fixtures/browser/', import.meta.url));

let server: Server | undefined;
let context: BrowserContext | undefined;
let userDataDir: string | undefined;
let origin = '';
const pageLog: string[] = [];

beforeAll(async () => {
  if (!haveChromium) return;
  server = await servePages({ '/': join(PAGES, 'index.html'), '/page.js': join(PAGES, 'page.js'), '/engine-worker.js': join(PAGES, 'engine-worker.js') });
  origin = originOf(server);
  userDataDir = mkdtempSync(join(tmpdir(), 'lantern-chromium-'));
  context = await launchChromium(userDataDir);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

async function openPage(): Promise<{ page: Page; ready: string }> {
  const page = await context!.newPage();
  page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));
  await page.goto(`${origin}/`);
  const ready = await page.evaluate(() => (window as any).lantern.ready as Promise<string>);
  return { page, ready };
}

async function reload(page: Page): Promise<string> {
  await page.reload();
  return page.evaluate(() => (window as any).lantern.ready as Promise<string>);
}

function request(page: Page, r: { method: string; path: string; body?: unknown }): Promise<{ status: number; body: any }> {
  return page.evaluate((req) => (window as any).lantern.request(req), r);
}

describe('Chromium: the engine in a module worker on IndexedDB', () => {
  it.skipIf(!haveChromium)('write, reload the page, search: the data comes back from IndexedDB; a second tab is refused', async () => {
    const talks = readFixture<any[]>('talks.json').slice(0, 300);
    const { page, ready } = await openPage();
    expect(ready, pageLog.join('\n')).toBe('ready');

    // write through the worker, wait, search
    expect((await request(page, { method: 'PUT', path: '/1/indexes/talks/settings', body: talksSettings() })).status).toBe(200);
    const batch = await request(page, { method: 'POST', path: '/1/indexes/talks/batch', body: { requests: talks.map((body) => ({ action: 'addObject', body })) } });
    expect(batch.status).toBe(200);
    const extra = await request(page, { method: 'PUT', path: '/1/indexes/talks/browser-1', body: { name: 'Written in Chromium', speakers: ['Headless Reader'] } });
    expect(extra.status).toBe(200);
    await page.evaluate(() => (window as any).lantern.waitForTasks());
    const query = { method: 'POST', path: '/1/indexes/talks/query', body: { query: 'gvier', hitsPerPage: 3 } };
    const before = await request(page, query);
    expect(before.status).toBe(200);
    expect(before.body.hits[0].objectID).toBe('2652');
    const countQuery = { method: 'POST', path: '/1/indexes/talks/query', body: { query: '', hitsPerPage: 0, distinct: false } };
    expect((await request(page, countQuery)).body.nbHits).toBe(301);

    // the data lives in the page's IndexedDB
    const databases = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
    expect(databases).toContain('lantern-search:e2e');

    // reload: a new worker, a new engine, nothing imported again
    expect(await reload(page), pageLog.join('\n')).toBe('ready');
    const after = await request(page, query);
    expect(after.status).toBe(200);
    expect(after.body.hits).toEqual(before.body.hits);
    expect((await request(page, countQuery)).body.nbHits).toBe(301);
    expect((await request(page, { method: 'GET', path: '/1/indexes/talks/browser-1' })).body).toEqual({ objectID: 'browser-1', name: 'Written in Chromium', speakers: ['Headless Reader'] });
    // taskIDs go on after the ones written before the reload
    const next = await request(page, { method: 'PUT', path: '/1/indexes/talks/browser-2', body: { name: 'after reload' } });
    expect(next.body.taskID).toBeGreaterThan(extra.body.taskID);

    // a snapshot in IndexedDB, then a reload that loads it
    await page.evaluate(() => (window as any).lantern.snapshot());
    expect(await reload(page), pageLog.join('\n')).toBe('ready');
    expect((await request(page, countQuery)).body.nbHits).toBe(302);

    // a second tab on the same database: refused with the Web Locks error, the first tab unaffected
    const second = await openPage();
    expect(second.ready).toMatch(/already open for writing/);
    expect((await request(page, query)).body.hits[0].objectID).toBe('2652');
    await second.page.close();

    // once the first tab is gone, another one opens the database, with everything in it
    await page.close();
    const third = await openPage();
    expect(third.ready, pageLog.join('\n')).toBe('ready');
    expect((await request(third.page, countQuery)).body.nbHits).toBe(302);
    await third.page.close();
  }, 90_000);
});
