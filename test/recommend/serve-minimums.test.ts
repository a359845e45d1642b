// `lantern serve --recommend-min-events N`: a small shop behind a server
// gets recommendations from its few events (the service's minimums would
// wait for 1,000 purchases); a flag that is not a number is one line.
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type Served } from '../support/serve.js';
import { runLantern } from '../support/cli.js';
import { conversion } from './planted.js';

let served: Served | undefined;
afterEach(async () => { await served?.stop(); served = undefined; });

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(served!.url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** The objectIDs bought together with p1, once the models have caught up (they follow events within seconds). */
async function boughtWithP1(within = 12_000): Promise<string[]> {
  const until = Date.now() + within;
  for (;;) {
    const r = await call('POST', '/1/indexes/*/recommendations', { requests: [{ indexName: 'shop', model: 'bought-together', objectID: 'p1', threshold: 0 }] });
    expect(r.status).toBe(200);
    const ids = r.body.results[0].hits.map((h: { objectID: string }) => h.objectID);
    if (ids.length > 0 || Date.now() > until) return ids;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function plant(): Promise<void> {
  await call('POST', '/1/indexes/shop/batch', { requests: ['p1', 'p2', 'p3'].map((objectID) => ({ action: 'addObject', body: { objectID, name: objectID } })) });
  const now = Date.now();
  const events = ['u1', 'u2', 'u3'].map((user) => conversion('shop', user, ['p1', 'p2'], now - 60_000));
  expect((await call('POST', '/1/events', { events })).status).toBe(200);
}

describe('lantern serve --recommend-min-events', () => {
  it('recommends from a few events with the flag, and from none below the service\'s minimums without it', async () => {
    served = await startServe(['--memory', '--recommend-min-events', '2']);
    await plant();
    expect(await boughtWithP1()).toEqual(['p2']);
    await served.stop();

    served = await startServe(['--memory']);
    await plant();
    expect(await boughtWithP1(6000)).toEqual([]);
  }, 40_000);

  it('refuses a value that is not a whole number in one line', async () => {
    const run = await runLantern(['serve', '--memory', '--port', '0', '--recommend-min-events', 'few']);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--recommend-min-events needs a whole number/);
  });
});
