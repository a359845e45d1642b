// Chromium: the browser bundle breaks Thai, Lao, Khmer and Burmese runs into
// words with the browser's own Intl.Segmenter, as Node does (the same ICU
// dictionaries): a word inside a run is found and highlighted in place.
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFor, originOf, servePages } from '../support/chromium.js';

const haveChromium = chromiumFor('word-breaks-browser.test.ts');
const PAGE = fileURLToPath(new URL('./fixtures/word-breaks.html', import.meta.url));

let server: Server | undefined;
let browser: Browser | undefined;
let origin = '';

beforeAll(async () => {
  if (!haveChromium) return;
  server = await servePages({ '/': PAGE });
  origin = originOf(server);
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
