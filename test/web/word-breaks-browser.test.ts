// Chromium: the browser bundle breaks Thai, Lao, Khmer and Burmese runs into
// words with the browser's own Intl.Segmenter, as Node does (the same ICU
// dictionaries): a word inside a run is found and highlighted in place.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFor } from '../support/chromium.js';

const haveChromium = chromiumFor('word-breaks-browser.test.ts');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = fileURLToPath(new URL('./fixtures/word-breaks.html', import.meta.url));

let server: Server | undefined;
let browser: Browser | undefined;
let origin = '';

function fileFor(path: string): string | undefined {
  if (path === '/') return PAGE;
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
    const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

describe('word breaks in Chromium', () => {
  it.skipIf(!haveChromium)('finds and highlights a word inside a run of each script', async () => {
    const page = await browser!.newPage();
    await page.goto(origin);
    expect(await page.evaluate(() => (window as any).outcome)).toEqual({
      'อาณาจักร': [['thai', 'สหราช<em>อาณาจักร</em>บริเตนใหญ่']],
      'ປະຊາຊົນ': [['lao', 'ສາທາລະນະລັດປະຊາທິປະໄຕ<em>ປະຊາຊົນ</em>ລາວ']],
      'កម្ពុជា': [['khmer', 'ព្រះរាជាណាចក្រ<em>កម្ពុជា</em>']],
      'သမ္မတ': [['burmese', 'ပြည်ထောင်စု<em>သမ္မတ</em>မြန်မာနိုင်ငံတော်']],
    });
    await page.close();
  });
});
