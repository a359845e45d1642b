// Chromium: a page may use the worker's engine right after `new Worker()`.
// A browser drops the messages a worker has no listener for yet, so
// startWorker listens before its engine has opened; requests wait for it.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFor } from '../support/chromium.js';

const haveChromium = chromiumFor('worker-startup.test.ts');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

let server: Server | undefined;
let browser: Browser | undefined;
let origin = '';

function fileFor(path: string): string | undefined {
  if (path === '/') return join(FIXTURES, 'early-requests.html');
  if (path === '/slow-worker.js') return join(FIXTURES, 'slow-worker.js');
  const file = normalize(join(ROOT, path));
  return path.startsWith('/dist/') && file.startsWith(join(ROOT, 'dist')) ? file : undefined;
}

beforeAll(async () => {
  if (!haveChromium) return;
  server = createServer((req, res) => {
    const file = fileFor(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!file || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html' : 'text/javascript' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

describe('startWorker in Chromium', () => {
  it.skipIf(!haveChromium)('requests sent before the engine has opened are answered once it has', async () => {
    const page = await browser!.newPage();
    await page.goto(origin);
    expect(await page.evaluate(() => (window as any).outcome)).toEqual(['1']);
    await page.close();
  });
});
