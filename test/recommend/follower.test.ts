// Recommend on a follower: a server on loopback learns from planted events,
// an engine following it over HTTP answers getRecommendations with the same
// objectIDs and scores; the models it learns afterwards (an increment, a
// whole training after a user is forgotten) reach the follower within a few
// of the server's freshness intervals, and so do recommend rules; a
// follower restarted offline recommends from what its store kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import { APP_ID, ADMIN_HEADERS, ADMIN_KEY } from '../api/helpers.js';
import { serveHere, type Served } from '../support/in-process-server.js';
import { conversion, plantedEvents, products, pushEvents } from './planted.js';

const SHOP = 'shop';
const FRESHNESS_MS = 50;
const RECOMMEND = { minBoughtTogetherEvents: 10, minRelatedEvents: 10, minTrendingEvents: 10, freshnessMs: FRESHNESS_MS };
/** How long a follower may take to receive what its server learnt: a freshness interval and the trip, with room for a busy machine. */
const BOUND_MS = 10_000;

let server: Lantern;
let http: Served;
let url: string;
let follower: Lantern;
const dirs: string[] = [];
const now = Date.now();

const REQUESTS = [
  { model: 'bought-together', objectID: 'p1' },
  { model: 'related-products', objectID: 'p3' },
  { model: 'trending-items' },
];

type Hit = { objectID: string; _score?: number };

/** Each request's hits as [objectID, score] pairs. */
async function recommendations(engine: Lantern, requests: Array<Record<string, unknown>> = REQUESTS): Promise<Array<Array<[string, number | undefined]>>> {
  const response = await engine.request({
    method: 'POST', path: '/1/indexes/*/recommendations', headers: ADMIN_HEADERS,
    body: { requests: requests.map((r) => ({ indexName: SHOP, threshold: 0, ...r })) },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { results: Array<{ hits: Hit[] }> }).results.map((r) => r.hits.map((h) => [h.objectID, h._score]));
}

async function followServer(storageDir?: string): Promise<Lantern> {
  return Lantern.open({ ...(storageDir ? { storage: fsStorage(storageDir) } : {}), follow: { url, apiKey: ADMIN_KEY, appId: APP_ID, retryMs: 50, maxRetryMs: 200 } });
}

/** Resolves once the follower answers `requests` as the server does (the server's models fresh); fails after BOUND_MS. */
async function followerAgrees(requests?: Array<Record<string, unknown>>): Promise<Array<Array<[string, number | undefined]>>> {
  await server.recommend.whenFresh();
  const expected = await recommendations(server, requests);
  await expect.poll(() => recommendations(follower, requests), { timeout: BOUND_MS, interval: 20 }).toEqual(expected);
  return expected;
}

beforeAll(async () => {
  server = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, recommend: RECOMMEND });
  http = await serveHere(server);
  url = http.origin;
  const saved = await server.request({ method: 'POST', path: `/1/indexes/${SHOP}/batch`, headers: ADMIN_HEADERS, body: {
    requests: products(45).map(({ _vectors, ...body }) => ({ action: 'addObject', body })),
  } });
  expect(saved.status).toBe(200);
  await server.waitForTasks();
  await pushEvents(server, plantedEvents(SHOP, now), ADMIN_HEADERS);
  await server.recommend.whenFresh();
  follower = await followServer();
  await follower.follower!.caughtUp();
});

afterAll(async () => {
  await follower?.close();
  await server.close();
  await http.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a follower recommends', () => {
  it('with the models its server learnt: the same objectIDs and scores', async () => {
    const expected = await recommendations(server);
    expect(expected[0]![0]![0]).toBe('p2');
    expect(expected[2]![0]![0]).toBe('p7');
    for (const hits of expected) expect(hits.length).toBeGreaterThan(0);
    expect(await recommendations(follower)).toEqual(expected);
  });

  it('with what the server learns afterwards: an increment', async () => {
    // p40..p44 are in the catalogue, and in no planted event
    const pair = [{ model: 'bought-together', objectID: 'p40' }];
    expect((await recommendations(follower, pair))[0]).toEqual([]);
    await pushEvents(server, Array.from({ length: 12 }, (_, u) => conversion(SHOP, `pair${u}`, ['p40', 'p41'], Date.now() - u * 1000)), ADMIN_HEADERS);
    expect(await followerAgrees(pair)).toEqual([[['p41', 100]]]);
  });

  it('and a whole training anew (a user forgotten)', async () => {
    const lone = [{ model: 'bought-together', objectID: 'p43' }];
    await pushEvents(server, [conversion(SHOP, 'loner', ['p43', 'p44'], Date.now())], ADMIN_HEADERS);
    expect((await followerAgrees(lone))[0]!.map(([id]) => id)).toEqual(['p44']);
    expect((await server.request({ method: 'DELETE', path: '/1/usertokens/loner', headers: ADMIN_HEADERS })).status).toBe(204);
    expect((await followerAgrees(lone))[0]).toEqual([]);
    await followerAgrees();
  });

  it('with the recommend rules written on the server', async () => {
    const rule = { objectID: 'no-p2', consequence: { hide: [{ objectID: 'p2' }] } };
    const saved = await server.request({ method: 'POST', path: `/1/indexes/${SHOP}/bought-together/recommend/rules/batch`, headers: ADMIN_HEADERS, body: [rule] });
    expect(saved.status).toBe(200);
    await follower.follower!.caughtUp((saved.body as { taskID: number }).taskID);
    const ruled = await followerAgrees();
    expect(ruled[0]!.map(([id]) => id)).not.toContain('p2');
    const got = await follower.request({ method: 'GET', path: `/1/indexes/${SHOP}/bought-together/recommend/rules/no-p2`, headers: ADMIN_HEADERS });
    expect(got.body).toMatchObject(rule);
  });

  it('refuses recommend options of its own: it answers with its server\'s minimums', async () => {
    await expect(Lantern.open({ recommend: { minBoughtTogetherEvents: 1 }, follow: { url, apiKey: ADMIN_KEY, appId: APP_ID } }))
      .rejects.toThrow(/recommend options are not for a follower/);
  });

  it('restarted offline, from the models its store kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-recommend-follower-'));
    dirs.push(dir);
    const stored = await followServer(dir);
    await stored.follower!.caughtUp();
    const expected = await recommendations(server);
    await expect.poll(() => recommendations(stored), { timeout: BOUND_MS, interval: 20 }).toEqual(expected);
    await stored.snapshot();
    await stored.close();
    const offline = await Lantern.open({ storage: fsStorage(dir), follow: { url: 'http://127.0.0.1:9', apiKey: ADMIN_KEY, retryMs: 50, maxRetryMs: 200 } });
    try {
      expect(await recommendations(offline)).toEqual(expected);
    } finally {
      await offline.close();
    }
  });
});
