// Chromium: a page may use the worker's engine right after `new Worker()`.
// A browser drops the messages a worker has no listener for yet, so
// startWorker listens before its engine has opened; requests wait for it.
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFor, originOf, servePages } from '../support/chromium.js';

const haveChromium = chromiumFor('worker-startup.test.ts');
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

let server: Server | undefined;
let browser: Browser | undefined;
let origin = '';

beforeAll(async () => {
  if (!haveChromium) return;
  server = await servePages({ '/': `${FIXTURES}early-requests.html`, '/slow-worker.js': `${FIXTURES}slow-worker.js` });
  origin = originOf(server);
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
