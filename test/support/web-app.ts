// A page of a front-end library in Chromium against Lantern over HTTP, as a
// real site has it: the API (every answer noted) and the site (the page and
// its esbuild bundle) on two origins, so every call is cross-origin. The
// browser tests of the libraries (test/web/) open one each. The API is an
// engine served here, or one already listening (`{ origin }`: a `lantern
// serve` process, whose answers only the page sees). Besides its bundle, the
// site may serve files (a worker's script) and the built package (dist/).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RequestHandler } from '../../src/requester.js';
import { CHROMIUM, pageFile } from './chromium.js';
import { closeServer, serveHere, type Served } from './in-process-server.js';

/** One call the API answered. */
export interface Seen { method: string; path: string; status: number; body?: unknown }

export interface WebApp {
  apiOrigin: string;
  siteOrigin: string;
  browser: Browser;
  /** The page, not yet opened (`page.goto(siteOrigin + ...)`), with its answers and errors recorded. */
  page: Page;
  /** What the API answered, every call (beacons included). */
  served: Seen[];
  /** What the page saw answered. */
  responses: Array<{ method: string; url: string; status: number }>;
  /** The page's console lines, failed requests and errors. */
  pageLog: string[];
  /** The page log and the API's answers, for assertion messages. */
  log(): string;
  /** Closes the browser and both servers (the engine is the caller's). */
  close(): Promise<void>;
}

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** Serves `engine`'s API and a site whose page is `html` and whose `/app.js` is `entry` bundled; opens a page in Chromium. */
export async function openWebApp(engine: RequestHandler | { origin: string }, site: { entry: string; html: string; jsx?: 'automatic'; files?: Record<string, string> }): Promise<WebApp> {
  const served: Seen[] = [];
  const api = 'origin' in engine ? undefined : await serveApi(engine, served);
  const apiOrigin = api ? api.origin : (engine as { origin: string }).origin;

  const bundle = await build({
    entryPoints: [site.entry], bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'silent',
    ...(site.jsx ? { jsx: site.jsx } : {}),
  });
  const js = bundle.outputFiles[0].text;
  const siteServer = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(site.html);
    else if (path === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    else if (path === '/favicon.ico') res.writeHead(204).end();
    else {
      const file = pageFile(site.files ?? {}, path);
      if (file) res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
      else res.writeHead(404).end();
    }
  });
  const siteOrigin = await listen(siteServer);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const page = await browser.newPage();
  const responses: WebApp['responses'] = [];
  const pageLog: string[] = [];
  page.on('response', (r) => responses.push({ method: r.request().method(), url: r.url(), status: r.status() }));
  page.on('requestfailed', (r) => pageLog.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
  page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));

  return {
    apiOrigin, siteOrigin, browser, page, served, responses, pageLog,
    log: () => `${pageLog.join('\n')}\n${served.map((s) => `${s.status} ${s.method} ${s.path}`).join('\n')}`,
    async close() {
      await browser.close();
      await closeServer(siteServer);
      await api?.close();
    },
  };
}

/** Serves `engine` on a free loopback port, noting every answer in `served`. */
function serveApi(engine: RequestHandler, served: Seen[]): Promise<Served> {
  return serveHere({
    request: async (request) => {
      const response = await engine.request(request);
      served.push({ method: request.method, path: request.path, status: response.status, body: request.body });
      return response;
    },
  }, { host: '127.0.0.1' });
}

/**
 * Nothing failed: every request the page made went to the site or the API
 * (nothing to a CDN or another host), nothing was answered 400 or more,
 * either as the page saw it or as the API answered, and the page logged no
 * error and no failed request.
 */
export function expectNoFailure(app: WebApp): void {
  const { responses, served, pageLog, siteOrigin, apiOrigin } = app;
  expect(responses.filter((r) => !r.url.startsWith(siteOrigin) && !r.url.startsWith(apiOrigin)), app.log()).toEqual([]);
  expect(responses.filter((r) => r.status >= 400), app.log()).toEqual([]);
  expect(served.filter((s) => s.status >= 400).map((s) => `${s.status} ${s.method} ${s.path}`), app.log()).toEqual([]);
  expect(pageLog.filter((l) => l.startsWith('[pageerror]') || l.startsWith('[requestfailed]')), app.log()).toEqual([]);
}
