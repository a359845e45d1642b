// Where the browser tests find Chromium: CHROMIUM_PATH, else Debian's
// /usr/bin/chromium. Without it, a developer's run skips them with a warning
// and a CI run (CI set) fails, so a green CI always ran every browser test.
// Also what the tests of pages on the built package share: a server of
// their files and of dist/, and Chromium launched with a profile.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ROOT } from './serve.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether `file`'s browser tests can run; throws under CI when they cannot. */
export function chromiumFor(file: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  const missing = `${file}: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(`${missing}; CI runs every browser test`);
  console.warn(`${missing}; its real-browser tests are skipped`);
  return false;
}

/** The file a page server answers `path` with: one of `files` (URL path → file), or one of the built package's (dist/); undefined when none exists. */
export function pageFile(files: Record<string, string>, path: string): string | undefined {
  let file = files[path];
  if (!file && path.startsWith('/dist/')) {
    const candidate = normalize(join(ROOT, path));
    if (candidate.startsWith(join(ROOT, 'dist'))) file = candidate;
  }
  return file && existsSync(file) ? file : undefined;
}

/** Serves a test's page files (URL path → file) and the built package (dist/) on a free loopback port; `/` is `files['/']`, or a page loading `/page.js`. */
export function servePages(files: Record<string, string>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/' && !files['/']) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>');
      return;
    }
    const file = pageFile(files, path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = file.endsWith('.html') ? 'text/html; charset=utf-8' : file.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8';
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The origin a server of servePages answers on. */
export const originOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Headless Chromium with a profile in `userDataDir` (IndexedDB survives a page's reload). */
export function launchChromium(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
