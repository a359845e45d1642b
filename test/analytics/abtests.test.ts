// A/B tests through the official A/B testing client: the state machine, the
// creation rules, the deterministic per-user split with abTestID and
// abTestVariantID in responses, per-variant metrics from events, and the
// significance of a two-proportion test computed here independently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { clientsFor, INDEX, openWithTalks, statusOf } from './helpers.js';

const B_INDEX = 'talks_b';
let engine: Lantern;
let c: ReturnType<typeof clientsFor>;
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

beforeAll(async () => {
  engine = await openWithTalks({}, [B_INDEX]);
  c = clientsFor(engine);
});
afterAll(() => engine.close());

const variants = (a = INDEX, b = B_INDEX, share = 50) => [
  { index: a, trafficPercentage: share, description: 'current ranking' },
  { index: b, trafficPercentage: 100 - share },
];

/** Φ by numerical integration of the normal density (Simpson), independent of the engine's erf. */
function phi(z: number): number {
  const n = 2000;
  const h = z / n;
  const f = (x: number) => Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  let sum = f(0) + f(z);
  for (let i = 1; i < n; i++) sum += (i % 2 ? 4 : 2) * f(i * h);
  return 0.5 + (sum * h) / 3;
}

describe('lifecycle', () => {
  it('create, get, list, stop (A gets all traffic again), delete', async () => {
    const created = await c.abtesting.addABTests({ name: 'ranking', variants: variants(), endAt: tomorrow() });
    expect(created).toMatchObject({ index: INDEX, abTestID: expect.any(Number), taskID: expect.any(Number) });
    const test = await c.abtesting.getABTest({ id: created.abTestID });
    expect(test).toMatchObject({ name: 'ranking', status: 'active', clickSignificance: null, conversionSignificance: null });
    expect(test.variants.map((v) => [v.index, v.trafficPercentage, v.description, v.searchCount])).toEqual([
      [INDEX, 50, 'current ranking', null], [B_INDEX, 50, '', null],
    ]);
    expect((await c.abtesting.listABTests({})).abtests!.map((t) => t.abTestID)).toContain(created.abTestID);

    // a second test on either index is refused while this one runs
    expect(await statusOf(c.abtesting.addABTests({ name: 'again', variants: variants(B_INDEX, INDEX), endAt: tomorrow() }))).toBe(422);

    const searched = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'giver', userToken: 'someone' } });
    expect(searched.abTestID).toBe(created.abTestID);
    expect([1, 2]).toContain(searched.abTestVariantID);

    await c.abtesting.stopABTest({ id: created.abTestID });
    const stopped = await c.abtesting.getABTest({ id: created.abTestID });
    expect(stopped.status).toBe('stopped');
    expect(stopped.stoppedAt).toEqual(expect.any(String));
    expect(stopped.variants[0].searchCount).toBe(1); // metrics kept
    const after = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'giver', userToken: 'someone' } });
    expect(after.abTestID).toBeUndefined();

    await c.abtesting.deleteABTest({ id: created.abTestID });
    expect(await statusOf(c.abtesting.getABTest({ id: created.abTestID }))).toBe(404);
    expect(await statusOf(c.abtesting.stopABTest({ id: created.abTestID }))).toBe(404);
  });

  it('invalid payloads are 422, a missing index 404', async () => {
    const bad: Array<[string, unknown]> = [
      ['one variant', { name: 'x', variants: variants().slice(0, 1), endAt: tomorrow() }],
      ['three variants', { name: 'x', variants: [...variants(), variants()[0]], endAt: tomorrow() }],
      ['shares not adding to 100', { name: 'x', variants: [{ index: INDEX, trafficPercentage: 50 }, { index: B_INDEX, trafficPercentage: 60 }], endAt: tomorrow() }],
      ['same index without customSearchParameters', { name: 'x', variants: variants(INDEX, INDEX), endAt: tomorrow() }],
      ['no name', { variants: variants(), endAt: tomorrow() }],
      ['endAt in the past', { name: 'x', variants: variants(), endAt: '2001-01-01T00:00:00Z' }],
    ];
    const send = (body: unknown) => engine.request({ method: 'POST', path: '/2/abtests', headers: { 'x-algolia-application-id': 'TESTAPP', 'x-algolia-api-key': 'test-admin-key' }, body });
    for (const [what, body] of bad) expect((await send(body)).status, what).toBe(422);
    expect((await send({ name: 'x', variants: variants(INDEX, 'missing'), endAt: tomorrow() })).status).toBe(404);
    const get = await engine.request({ method: 'GET', path: '/2/abtests/abc', headers: { 'x-algolia-application-id': 'TESTAPP', 'x-algolia-api-key': 'test-admin-key' } });
    expect(get.status).toBe(400);
  });

  it('one index with different search parameters; expires at endAt', async () => {
    const { abTestID } = await c.abtesting.addABTests({
      name: 'typos', endAt: new Date(Date.now() + 1500).toISOString(),
      variants: [{ index: INDEX, trafficPercentage: 1 }, { index: INDEX, trafficPercentage: 99, customSearchParameters: { typoTolerance: false } }],
    });
    // find a user routed to B: 'gvier' (a typo) finds nothing there
    let routedToB = false;
    for (let i = 0; i < 20 && !routedToB; i++) {
      const r = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'gvier', userToken: `typo-${i}` } });
      if (r.abTestVariantID === 2) {
        routedToB = true;
        expect(r.nbHits).toBe(0);
      } else {
        expect(r.nbHits).toBeGreaterThan(0);
      }
    }
    expect(routedToB).toBe(true);
    await new Promise((r) => setTimeout(r, 1600));
    expect((await c.abtesting.getABTest({ id: abTestID })).status).toBe('expired');
    const r = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'gvier', userToken: 'typo-0' } });
    expect(r.abTestID).toBeUndefined();
  });

  it('list pages with offset and limit (default 10); count and total', async () => {
    const ids = [];
    for (let i = 0; i < 12; i++) {
      await loadTiny(`page-a-${i}`, `page-b-${i}`);
      ids.push((await c.abtesting.addABTests({ name: `t${i}`, variants: variants(`page-a-${i}`, `page-b-${i}`), endAt: tomorrow() })).abTestID);
    }
    const first = await c.abtesting.listABTests({ indexPrefix: 'page-a-' });
    expect(first).toMatchObject({ count: 10, total: 12 });
    const second = await c.abtesting.listABTests({ indexPrefix: 'page-a-', offset: 10, limit: 10 });
    expect(second.abtests!.map((t) => t.abTestID)).toEqual(ids.slice(10));
    for (const id of ids) await c.abtesting.deleteABTest({ id });
  });
});

async function loadTiny(...indexes: string[]): Promise<void> {
  for (const indexName of indexes) await c.client.saveObject({ indexName, body: { objectID: '1', name: indexName } });
  await engine.waitForTasks();
}

describe('split and metrics', () => {
  it('the split is deterministic per userToken and follows trafficPercentage', async () => {
    const { abTestID } = await c.abtesting.addABTests({ name: 'split', variants: variants(INDEX, B_INDEX, 30), endAt: tomorrow() });
    const variantOf = async (user: string) => (await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: '', hitsPerPage: 0, userToken: user, analytics: false } })).abTestVariantID;
    const users = Array.from({ length: 400 }, (_, i) => `user-${i}`);
    const first = [];
    for (const u of users) first.push(await variantOf(u));
    const again = [];
    for (const u of users) again.push(await variantOf(u));
    expect(again).toEqual(first);
    const shareA = first.filter((v) => v === 1).length / users.length;
    expect(shareA).toBeGreaterThan(0.22);
    expect(shareA).toBeLessThan(0.38);
    // searches on variant B's index are never redirected
    expect((await c.client.searchSingleIndex({ indexName: B_INDEX, searchParams: { query: '', userToken: 'user-1' } })).abTestID).toBeUndefined();
    await c.abtesting.stopABTest({ id: abTestID });
  });

  it('per-variant metrics from searches and events; significance from a two-proportion test', async () => {
    const { abTestID } = await c.abtesting.addABTests({ name: 'metrics', variants: variants(), endAt: tomorrow() });
    const byVariant: Record<number, { searches: number; users: Set<string>; tracked: number; clicked: number; converted: number; noResult: number; positions: number[] }> = {
      1: { searches: 0, users: new Set(), tracked: 0, clicked: 0, converted: 0, noResult: 0, positions: [] },
      2: { searches: 0, users: new Set(), tracked: 0, clicked: 0, converted: 0, noResult: 0, positions: [] },
    };
    const events: any[] = [];
    for (let i = 0; i < 120; i++) {
      const user = `m-${i}`;
      const query = i % 10 === 0 ? 'qqqzzzx' : 'love';
      const r = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query, userToken: user, clickAnalytics: true } });
      const v = byVariant[r.abTestVariantID!];
      v.searches++;
      v.users.add(user);
      v.tracked++;
      if (r.nbHits === 0) { v.noResult++; continue; }
      // variant B's users click more: a difference the test should find
      const clicks = r.abTestVariantID === 2 ? i % 3 !== 0 : i % 3 === 0;
      if (clicks) {
        events.push({ eventType: 'click', eventName: 'Clicked', index: INDEX, userToken: user, queryID: r.queryID, objectIDs: [r.hits[1].objectID], positions: [2] });
        v.clicked++;
        v.positions.push(2);
      }
      if (clicks && i % 2 === 0) {
        events.push({ eventType: 'conversion', eventName: 'Watched', index: INDEX, userToken: user, queryID: r.queryID, objectIDs: [r.hits[1].objectID] });
        v.converted++;
      }
    }
    await c.insights.pushEvents({ events });
    const test = await c.abtesting.getABTest({ id: abTestID });
    for (const [i, variant] of test.variants.entries()) {
      const e = byVariant[i + 1];
      expect(variant).toMatchObject({
        searchCount: e.searches, userCount: e.users.size, trackedSearchCount: e.tracked, noResultCount: e.noResult,
        clickCount: e.clicked, conversionCount: e.converted,
        clickThroughRate: e.clicked / e.tracked, conversionRate: e.converted / e.tracked,
        averageClickPosition: e.positions.length ? 2 : null,
      });
    }
    const expectedSignificance = (k: 'clicked' | 'converted') => {
      const [a, b] = [byVariant[1], byVariant[2]];
      const p = (a[k] + b[k]) / (a.tracked + b.tracked);
      const z = (a[k] / a.tracked - b[k] / b.tracked) / Math.sqrt(p * (1 - p) * (1 / a.tracked + 1 / b.tracked));
      return 2 * phi(Math.abs(z)) - 1;
    };
    expect(test.clickSignificance).toBeCloseTo(expectedSignificance('clicked'), 5);
    expect(test.conversionSignificance).toBeCloseTo(expectedSignificance('converted'), 5);
    expect(test.clickSignificance).toBeGreaterThan(0.95);
    await c.abtesting.stopABTest({ id: abTestID });
  });

  it('get is 403 for a key that cannot reach the test\'s index; list shows only reachable tests', async () => {
    const { abTestID } = await c.abtesting.addABTests({ name: 'private', variants: variants(), endAt: tomorrow() });
    const { key } = await c.client.addApiKey({ acl: ['analytics'], indexes: ['elsewhere'] });
    const limited = clientsFor(engine, '127.0.0.1', key).abtesting;
    expect(await statusOf(limited.getABTest({ id: abTestID }))).toBe(403);
    expect(await limited.listABTests({})).toEqual({ abtests: [], count: 0, total: 0 });
    const { key: analyticsOnly } = await c.client.addApiKey({ acl: ['analytics'] });
    expect(await statusOf(clientsFor(engine, '127.0.0.1', analyticsOnly).abtesting.stopABTest({ id: abTestID }))).toBe(403);
    await c.abtesting.deleteABTest({ id: abTestID });
  });
});

describe('estimate (today\'s client)', () => {
  let fresh: Lantern;
  let f: ReturnType<typeof clientsFor>;
  const SEARCHES = 20;
  const CLICKED = 5;

  beforeAll(async () => {
    fresh = await openWithTalks({}, [B_INDEX]);
    f = clientsFor(fresh);
    for (let i = 0; i < SEARCHES; i++) {
      const r = await f.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'ocean', clickAnalytics: true, userToken: `e${i}` } });
      if (i < CLICKED) {
        await f.insights.pushEvents({ events: [{ eventType: 'click', eventName: 'Clicked', index: INDEX, userToken: `e${i}`, queryID: r.queryID!, objectIDs: [r.hits[0].objectID], positions: [1] }] });
      }
    }
  });
  afterAll(() => fresh.close());

  const request = (share: number, size = 0.2, metric = 'clickThroughRate') => ({
    configuration: { minimumDetectableEffect: { size, metric } }, variants: variants(INDEX, B_INDEX, share),
  }) as never;

  it('sample sizes of a two-proportion test from the control index\'s rate, and days of its traffic', async () => {
    // textbook equal-groups formula: n = (zα√(2p̄q̄) + zβ√(p1q1 + p2q2))² / (p2 − p1)²
    const p1 = CLICKED / SEARCHES;
    const p2 = p1 * 1.2;
    const mean = (p1 + p2) / 2;
    const n = Math.ceil((1.959964 * Math.sqrt(2 * mean * (1 - mean)) + 0.841621 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p2 - p1) ** 2);
    const perDay = SEARCHES / 7; // the last seven days' tracked searches
    expect(await f.abtesting.estimateABTest(request(50))).toEqual({ sampleSizes: [n, n], durationDays: Math.ceil((2 * n) / perDay) });

    const uneven = await f.abtesting.estimateABTest(request(70));
    expect(uneven.sampleSizes![1] / uneven.sampleSizes![0]).toBeCloseTo(30 / 70, 2);
    expect(uneven.durationDays!).toBeGreaterThan(Math.ceil((2 * n) / perDay));
  });

  it('invalid requests are 422; no data to estimate from is 422; a missing index 404', async () => {
    expect(await statusOf(f.abtesting.estimateABTest(request(50, 0)))).toBe(422);
    expect(await statusOf(f.abtesting.estimateABTest(request(50, 0.2, 'bounceRate')))).toBe(422);
    // a name every object has (Object.prototype's) is not a metric either
    for (const name of ['toString', 'constructor', '__proto__']) {
      await expect(f.abtesting.estimateABTest(request(50, 0.2, name))).rejects.toThrow(/metric must be one of/);
    }
    expect(await statusOf(f.abtesting.estimateABTest(request(50, 0.2, 'conversionRate')))).toBe(422); // no conversions yet
    expect(await statusOf(f.abtesting.estimateABTest({ configuration: {}, variants: variants() } as never))).toBe(422);
    const missing = { configuration: { minimumDetectableEffect: { size: 0.2, metric: 'clickThroughRate' } }, variants: variants(INDEX, 'nowhere') };
    expect(await statusOf(f.abtesting.estimateABTest(missing as never))).toBe(404);
  });
});
