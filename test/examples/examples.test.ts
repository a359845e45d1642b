// The examples (examples/), each copied into a new folder with the packed
// tarball installed as a user installs it, then run: the Node ones as
// processes, the browser ones built and driven in Chromium.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, relative } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFor } from '../support/chromium.js';
import { ROOT, installPacked } from '../support/packed.js';

const haveChromium = chromiumFor('examples.test.ts');
let dir: string;
let browser: Browser | undefined;
const servers: Server[] = [];

/** A copy of the example with the packed package and `dependencies` installed. */
function example(name: string, dependencies: string[]): string {
  const project = join(dir, name);
  cpSync(join(ROOT, 'examples', name), project, { recursive: true });
  installPacked(project, dependencies);
  return project;
}

const node = (project: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });

/** A temp directory of the example's own, as TMPDIR: where its data goes by default. */
function tmpFor(project: string): Record<string, string> {
  const tmp = `${project}-tmp`;
  mkdirSync(tmp);
  return { TMPDIR: tmp };
}

/** The files a run added to the copy of the example, as `git status` would list them: not its sources, not node_modules. */
function addedFiles(name: string, project: string): string[] {
  const files = (root: string) => readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !relative(root, entry.parentPath).split('/').includes('node_modules'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
  const sources = new Set(files(join(ROOT, 'examples', name)));
  return files(project).filter((file) => !sources.has(file));
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json' };

/** Serves a folder over HTTP (as `npx serve .` would); its origin. */
async function serveFolder(root: string): Promise<string> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = normalize(join(root, path === '/' ? 'index.html' : decodeURIComponent(path)));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-examples-'));
  if (haveChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the examples, against the packed tarball', () => {
  it('node-in-process: finds the giver talk for "gvier", then reopens its data', () => {
    const project = example('node-in-process', ['algoliasearch', '@algolia']);
    const env = tmpFor(project);
    const first = JSON.parse(node(project, ['search.mjs'], env));
    expect(first).toEqual({ firstRun: true, nbHits: 1, first: 'Are you a giver or a taker?', highlighted: 'Are you a <em>giver</em> or a taker?' });
    expect(JSON.parse(node(project, ['search.mjs'], env)).firstRun).toBe(false);
    // its data went to the temp directory: nothing left in the example's folder
    expect(readdirSync(env.TMPDIR!)).toEqual(['lantern-example-node-in-process']);
    expect(addedFiles('node-in-process', project)).toEqual([]);
  }, 60_000);

  it('official-client-http: the official client over HTTP, a wrong key refused', () => {
    const project = example('official-client-http', ['algoliasearch', '@algolia']);
    const [answered, refused] = node(project, ['server-and-client.mjs']).trim().split('\n').map((line) => JSON.parse(line));
    expect(answered.first).toBe('Berlin');
    expect(refused).toEqual({ refused: 403 });
    expect(addedFiles('official-client-http', project)).toEqual([]);
  }, 60_000);

  it('worker-threads: the typed client and the official one, answered by a worker thread', () => {
    const project = example('worker-threads', ['algoliasearch', '@algolia']);
    const env = tmpFor(project);
    expect(JSON.parse(node(project, ['main.mjs'], env))).toEqual({ typed: 'The Dispossessed', official: 'The Left Hand of Darkness' });
    expect(readdirSync(env.TMPDIR!)).toEqual(['lantern-example-worker-threads']);
    expect(addedFiles('worker-threads', project)).toEqual([]);
  }, 60_000);

  it('transformers-js: a function embedder, run with its stand-in (no model can be fetched here); the vectors reopen from its data', () => {
    const project = example('transformers-js', ['algoliasearch', '@algolia']);
    const env = tmpFor(project);
    const run = () => JSON.parse(node(project, ['search.mjs', join(project, 'no-models')], env));
    const first = run();
    expect(first).toMatchObject({ model: 'stand-in', firstRun: true, query: 'human connection', first: 'The power of vulnerability' });
    expect(first.semanticHitCount).toBe(1); // the second hit: brought by the vectors alone (no keyword match)
    expect(run()).toEqual({ ...first, firstRun: false });
    expect(readdirSync(env.TMPDIR!)).toEqual(['lantern-example-transformers-js']);
    expect(addedFiles('transformers-js', project)).toEqual([]);
  }, 60_000);

  it.skipIf(!haveChromium)('browser-instantsearch: bundles for browsers, searches as one types, reopens from IndexedDB', async () => {
    const project = example('browser-instantsearch', ['algoliasearch', '@algolia', 'instantsearch.js', 'esbuild']);
    const built = node(project, ['build.mjs']);
    // InstantSearch.js is most of the page; of Lantern, only the client is in it
    const meta = JSON.parse(readFileSync(join(project, 'dist', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };
    const lantern = Object.entries(meta.outputs['dist/app.js']!.inputs).filter(([input]) => input.includes('node_modules/lantern-search/'));
    const lanternKb = lantern.reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0) / 1024;
    expect(lanternKb).toBeGreaterThan(0);
    expect(lanternKb).toBeLessThan(60);
    console.log(`examples.test.ts: browser-instantsearch ${built.trim().replace(/\n/g, ', ')}; Lantern's part of the page ${lanternKb.toFixed(1)} KB`);
    const page = await browser!.newPage();
    await page.goto(`${await serveFolder(project)}/index.html`);
    await page.waitForSelector('#status[data-source="import"]', { timeout: 20_000 });
    await page.fill('#searchbox input', 'dispossesed');
    await expect.poll(() => page.locator('.hit').first().textContent(), { timeout: 10_000 }).toMatch(/^The Dispossessed/);
    expect(await page.locator('.hit').first().locator('.ais-Highlight-highlighted').allTextContents()).toEqual(['Dispossessed']);
    await page.reload();
    await page.waitForSelector('#status[data-source="indexeddb"]', { timeout: 20_000 });
    await page.close();
  }, 90_000);

  it.skipIf(!haveChromium)('vite-app: Vite builds the page and the worker; it searches and reopens from IndexedDB', async () => {
    const project = example('vite-app', ['vite']);
    node(project, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error']);
    const page = await browser!.newPage();
    await page.goto(`${await serveFolder(join(project, 'dist'))}/index.html`);
    await page.waitForSelector('#status[data-source="import"]', { timeout: 20_000 });
    await page.fill('#query', 'risoto');
    await expect.poll(() => page.locator('#hits li').first().innerHTML(), { timeout: 10_000 }).toBe('Lemon <em>risotto</em>');
    await page.reload();
    await page.waitForSelector('#status[data-source="indexeddb"]', { timeout: 20_000 });
    await page.close();
  }, 90_000);

  it.skipIf(!haveChromium)('script-module: a page with no bundler, through an import map', async () => {
    const project = example('script-module', []);
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${await serveFolder(project)}/index.html`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    await page.fill('#query', 'aple');
    await expect.poll(() => page.locator('#hits li').first().innerHTML(), { timeout: 10_000 }).toBe('<em>Apple</em>');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
