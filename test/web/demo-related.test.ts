// The web demo's Related talks, learnt from the visitor's own clicks, in
// Chromium: `lantern serve --demo` serves the page, whose engine (in a
// worker, on IndexedDB) records each click on a talk through InstantSearch's
// insights middleware and answers the relatedProducts widget of the talk
// opened. Talks B and C share no tag, speaker, event, date, duration or
// language with talk A, so content alone never relates them to A: once the
// visitor has clicked A, B and C, A's related talks are B and C first only
// if the engine learnt those clicks. Every expected talk is computed here
// from talks.json and the index's facets.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFor } from '../support/chromium.js';
import { ROOT, startServe, type Served } from '../support/serve.js';

const haveChromium = chromiumFor('demo-related.test.ts');
const OUTPUT = join(ROOT, 'test-output');

type Talk = Record<string, unknown> & { objectID: string; name: string; speakers: string[] };
const talks: Talk[] = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'talks.json'), 'utf8'));
const byID = new Map(talks.map((t) => [t.objectID, t]));
const { attributesForFaceting } = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'talks_settings.json'), 'utf8')) as { attributesForFaceting: string[] };
const FACETS = attributesForFaceting.map((a) => a.replace(/^searchable\((.*)\)$/, '$1'));

/** A talk's facet values (what relates talks by content), as `facet:value`. */
const facetValues = (talk: Talk) => new Set(FACETS.flatMap((f) => [talk[f] ?? []].flat().map((v) => `${f}:${String(v)}`)));
/** How many of `a`'s facet values `b` has. */
const shared = (a: Talk, b: Talk) => [...facetValues(a)].filter((v) => facetValues(b).has(v)).length;

const A = byID.get('2652')!; // "Are you a giver or a taker?"
const [B, C] = talks.filter((t) => shared(A, t) === 0)
  .filter((t, i, all) => all.findIndex((u) => u.speakers.join() === t.speakers.join()) === i) // a speaker each (the index is distinct by speaker)
  .slice(0, 2);

let served: Served | undefined;
let userDataDir: string | undefined;
let context: BrowserContext | undefined;
let page: Page;
const pageLog: string[] = [];
const eventsToServer: string[] = [];
const log = () => pageLog.join('\n');

beforeAll(async () => {
  if (!haveChromium) return;
  served = await startServe(['--demo', '--memory'], {}, 60_000);
  userDataDir = mkdtempSync(join(tmpdir(), 'lantern-demo-related-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));
  page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/1/events')) eventsToServer.push(r.url()); });
}, 90_000);

afterAll(async () => {
  await context?.close();
  await served?.stop();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

async function whenReady(): Promise<void> {
  await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 60_000 });
  expect(await page.evaluate(() => document.body.dataset.state), log()).toBe('ready');
}

/** Finds `talk` by its name and clicks its card (not its title, a link to ted.com). */
async function clickTalk(talk: Talk): Promise<void> {
  await page.locator('#searchbox input').fill(talk.name);
  const card = page.locator(`#hits .talk[data-object-id="${talk.objectID}"]`);
  await card.locator('.meta').click({ timeout: 10_000 });
  await expect.poll(() => card.evaluate((e) => e.classList.contains('opened'))).toBe(true);
}

/** The objectIDs the Related talks panel lists, in order, once it shows `talk`'s. */
async function relatedTo(talk: Talk): Promise<string[]> {
  await expect.poll(() => page.locator('#related .related-to').textContent()).toBe(talk.name);
  return page.locator('#related .related-talk').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.objectId!));
}

/** Content relates talks by their facet values: each listed talk shares more with `talk` than the next one does, or as many. */
function expectRelatedByContent(talk: Talk, ids: string[]): void {
  const counts = ids.map((id) => shared(talk, byID.get(id)!));
  expect(counts.every((n) => n > 0), `${counts}`).toBe(true);
  expect(counts).toEqual([...counts].sort((a, b) => b - a));
}

describe('the web demo\'s related talks in Chromium', () => {
  it.skipIf(!haveChromium)('lists the talks the visitor clicked along with the opened one first, then talks like it by content', async () => {
    expect(B && C && new Set([A.speakers.join(), B.speakers.join(), C.speakers.join()]).size).toBe(3);
    await page.goto(`${served!.url}/demo/`);
    await whenReady();
    // no talk opened: no panel
    expect(await page.locator('#related').isHidden()).toBe(true);

    // A, the first click: nothing clicked along with it yet, so content alone relates talks to it
    await clickTalk(A);
    await expect.poll(async () => (await relatedTo(A)).length, { message: log() }).toBe(5);
    const byContent = await relatedTo(A);
    expectRelatedByContent(A, byContent);
    expect(byContent).not.toContain(B.objectID);
    expect(byContent).not.toContain(C.objectID);

    // the same visitor clicks B, then C, then opens A again
    await clickTalk(B);
    await clickTalk(C);
    await clickTalk(A);
    const opened = Date.now();
    const firstTwo = async () => (await relatedTo(A)).slice(0, 2).sort();
    await expect.poll(firstTwo, { timeout: 5_000, message: log() }).toEqual([B.objectID, C.objectID].sort());
    console.log(`demo-related.test.ts: A's related talks listed B and C ${Date.now() - opened} ms after the click that opened A`);
    const related = await relatedTo(A);
    expect(related).toHaveLength(5);
    expectRelatedByContent(A, related.slice(2));
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'web-demo-related.png') });

    // a related talk opens with a click in the panel: B's related talks are A and C, the visitor's other clicks
    await page.locator(`#related .related-talk[data-object-id="${B.objectID}"]`).click();
    await expect.poll(async () => (await relatedTo(B)).slice(0, 2).sort(), { timeout: 5_000 }).toEqual([A.objectID, C.objectID].sort());

    // the visitor is an anonymous token the browser keeps; the clicks went to the engine in the page, not to the server
    expect(await page.evaluate(() => localStorage.getItem('lantern-demo-visitor'))).toMatch(/^anonymous-[0-9a-f-]{36}$/);
    expect(eventsToServer).toEqual([]);
    expect(pageLog.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
  }, 120_000);

  it.skipIf(!haveChromium)('after a reload, the same visitor\'s clicks still relate the talks (kept in IndexedDB)', async () => {
    const visitor = await page.evaluate(() => localStorage.getItem('lantern-demo-visitor'));
    await page.reload();
    await whenReady();
    expect(await page.evaluate(() => document.body.dataset.source)).toBe('indexeddb');
    expect(await page.evaluate(() => localStorage.getItem('lantern-demo-visitor'))).toBe(visitor);
    await clickTalk(C);
    await expect.poll(async () => (await relatedTo(C)).slice(0, 2).sort(), { timeout: 5_000, message: log() }).toEqual([A.objectID, B.objectID].sort());
  }, 90_000);
});
