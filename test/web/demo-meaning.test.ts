// The web demo searching by meaning: the talks' vectors computed by
// `lantern embed` against the deterministic embedding server
// (test/support/embedding-server.ts), `lantern serve --demo --demo-vectors`
// serving them with a rest embedder on that server, and the page in
// Chromium: its words/meaning slider at 0 searches the worker (keywords),
// above 0 the server (hybrid), whose first hit is the nearest talk by the
// server's embedding, computed here.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFor } from '../support/chromium.js';
import { runLantern } from '../support/cli.js';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';
import { ROOT, startServe, type Served } from '../support/serve.js';

const haveChromium = chromiumFor('demo-meaning.test.ts');
const DIMENSIONS = 32;
const ENV = { OPENAI_API_KEY: '', LANTERN_EMBEDDER_API_KEY: '' };

interface EmbeddedTalk { objectID: string; name: string; _vectors: { default: number[] } }

let dir: string;
let embeddings: EmbeddingServer;
let served: Served;
let browser: Browser;
let page: Page;
let talks: EmbeddedTalk[];
const pageLog: string[] = [];

beforeAll(async () => {
  if (!haveChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'lantern-demo-meaning-'));
  embeddings = await EmbeddingServer.start({ dimensions: DIMENSIONS });
  const out = join(dir, 'talks.vectors.ndjson');
  const embedded = await runLantern(['embed', join(ROOT, 'test', 'fixtures', 'talks.json'), '--url', embeddings.url, '--template', '{{doc.name}}. {{doc.description}}', '--out', out], { env: ENV, timeoutMs: 60_000 });
  expect(embedded.code, embedded.stderr).toBe(0);
  talks = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  served = await startServe(['--demo', '--memory', '--demo-vectors', out, '--embedder-url', embeddings.url], ENV, 60_000);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  page = await browser.newPage();
  page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.stop();
  await embeddings?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The talk whose vector is nearest the server's embedding of `query`. */
function nearestTalk(query: string): string {
  const q = localEmbedding(query, DIMENSIONS);
  const score = (t: EmbeddedTalk) => t._vectors.default.reduce((sum, x, d) => sum + x * q[d]!, 0);
  return talks.reduce((best, t) => (score(t) > score(best) ? t : best)).name;
}

const firstTitle = () => page.locator('#hits .talk h2').first().textContent();

describe('the web demo with the talks\' vectors', () => {
  it.skipIf(!haveChromium)('the slider: words search the worker; meaning, the server, by the embedder that computed the vectors', async () => {
    await page.goto(`${served.url}/demo/`);
    await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 60_000 });
    expect(await page.evaluate(() => document.body.dataset.state), pageLog.join('\n')).toBe('ready');
    await expect.poll(() => page.locator('#meaning').isVisible()).toBe(true);
    const hybridCalls: unknown[] = [];
    const hybridAnswers: Array<{ results: Array<{ semanticHitCount?: number; semanticError?: string }> }> = [];
    const toServer = (url: string, method: string) => url.startsWith(`${served.url}/1/indexes/`) && method === 'POST';
    page.on('request', (request) => { if (toServer(request.url(), request.method())) hybridCalls.push(request.postDataJSON()); });
    page.on('response', async (response) => { if (toServer(response.url(), response.request().method())) hybridAnswers.push(await response.json()); });

    const query = 'gvier';
    await page.locator('#searchbox input').fill(query);
    await expect.poll(firstTitle).toBe('Are you a giver or a taker?');
    expect(hybridCalls).toEqual([]);

    // the server embeds the query once and remembers it: on a busy machine the page's first
    // hybrid search could otherwise take longer than the 2 s a query waits for its vector
    const embeddedBefore = embeddings.textsEmbedded;
    await fetch(`${served.url}/1/indexes/talks/query`, { method: 'POST', body: JSON.stringify({ query, hybrid: { semanticRatio: 1 } }) });
    expect(embeddings.textsEmbedded).toBe(embeddedBefore + 1);

    await page.locator('#meaning-ratio').fill('1');
    const nearest = nearestTalk(query);
    expect(nearest).not.toBe('Are you a giver or a taker?'); // the feature-hashed "meaning" of a typo is elsewhere
    await expect.poll(firstTitle, { timeout: 10_000 }).toBe(nearest);
    expect(JSON.stringify(hybridCalls)).toContain('"hybrid":{"embedder":"default","semanticRatio":1}');
    await expect.poll(() => hybridAnswers.length).toBeGreaterThan(0);
    expect(hybridAnswers.at(-1)!.results[0]!.semanticError).toBeUndefined();
    expect(hybridAnswers.at(-1)!.results[0]!.semanticHitCount).toBeGreaterThan(0);

    const calls = hybridCalls.length;
    await page.locator('#meaning-ratio').fill('0');
    await expect.poll(firstTitle).toBe('Are you a giver or a taker?');
    expect(hybridCalls).toHaveLength(calls);
    expect(pageLog.filter((line) => line.startsWith('[pageerror]'))).toEqual([]);
  }, 120_000);
});
