// Analytics state survives reopening from the log and from a snapshot
// (fsStorage in a temporary directory); and the official client's
// sub-clients work over HTTP against serve(), the server of `lantern serve`.
import { algoliasearch } from 'algoliasearch';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanup, closeEngine, logRecords, openAt, tempDir } from '../persistence/helpers.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_KEY, APP_ID, clientsFor, INDEX, loadTalks, openWithTalks, today } from './helpers.js';
import { serveHere } from '../support/in-process-server.js';

afterEach(cleanup);

const range = () => ({ index: INDEX, startDate: today(), endDate: today() });
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

/** Everything the analytics side shows, to compare before and after a reopen. */
async function fingerprint(engine: Lantern) {
  const c = clientsFor(engine);
  const abtests = await c.abtesting.listABTests({});
  return {
    searches: await c.analytics.getTopSearches({ ...range(), clickAnalytics: true, limit: 1000 }),
    users: await c.analytics.getUsersCount(range()),
    ctr: await c.analytics.getClickThroughRate(range()),
    abtests,
    strategy: await c.personalization.getPersonalizationStrategy(),
    profile: await c.personalization.getUserTokenProfile({ userToken: 'p0' }),
  };
}

async function activity(engine: Lantern, prefix: string): Promise<void> {
  const c = clientsFor(engine);
  for (let i = 0; i < 5; i++) {
    const r = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: `${prefix} giver`.trim(), clickAnalytics: true, userToken: `p${i}` } });
    if (i % 2 === 0) {
      await c.insights.pushEvents({ events: [{ eventType: 'click', eventName: 'Clicked', index: INDEX, userToken: `p${i}`, queryID: r.queryID!, objectIDs: [r.hits[0].objectID], positions: [1] }] });
    }
  }
}

describe('persistence', () => {
  it('searches, events, A/B tests, the strategy and profiles come back from the log, then from a snapshot', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { appId: APP_ID, adminKey: ADMIN_KEY, snapshotEvery: 0 });
    await loadTalks(first, [INDEX, 'talks_b']);
    const c = clientsFor(first);
    await c.personalization.setPersonalizationStrategy({ eventsScoring: [{ eventName: 'Clicked', eventType: 'click', score: 10 }], facetsScoring: [{ facetName: 'tags', score: 10 }], personalizationImpact: 80 });
    await c.abtesting.addABTests({ name: 'kept', variants: [{ index: INDEX, trafficPercentage: 50 }, { index: 'talks_b', trafficPercentage: 50 }], endAt: tomorrow() });
    await activity(first, '');
    const expected = await fingerprint(first);
    expect(expected.ctr).toMatchObject({ trackedSearchCount: 5, clickCount: 3 });
    await closeEngine(first);

    const fromLog = await openAt(dir, { appId: APP_ID, adminKey: ADMIN_KEY, snapshotEvery: 0 });
    expect(await fingerprint(fromLog)).toEqual(expected);
    // a search logged only at close, then a snapshot holding everything
    await clientsFor(fromLog).client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'ocean', userToken: 'late' } });
    const withLate = await fingerprint(fromLog);
    await fromLog.snapshot();
    await closeEngine(fromLog);
    expect(logRecords(dir)).toEqual([]);

    const fromSnapshot = await openAt(dir, { appId: APP_ID, adminKey: ADMIN_KEY });
    expect(await fingerprint(fromSnapshot)).toEqual(withLate);
    expect(withLate.users.count).toBe(expected.users.count + 1);
    // and replaying a log over the snapshot counts nothing twice
    await activity(fromSnapshot, 'more');
    const finalState = await fingerprint(fromSnapshot);
    await closeEngine(fromSnapshot);
    const again = await openAt(dir, { appId: APP_ID, adminKey: ADMIN_KEY });
    expect(await fingerprint(again)).toEqual(finalState);
    expect(finalState.ctr).toMatchObject({ trackedSearchCount: 10, clickCount: 6 });
  });

  it('searches reach the log in batches of 500, without waiting for a close', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { appId: APP_ID, adminKey: ADMIN_KEY, snapshotEvery: 0 });
    await loadTalks(engine);
    const { client } = clientsFor(engine);
    const logged = () => logRecords(dir).filter((r) => r.payload.includes('"action":"events"'));
    const search = (i: number) => client.searchSingleIndex({ indexName: INDEX, searchParams: { query: `giver ${i % 7}`, userToken: `u${i}` } });
    for (let i = 0; i < 499; i++) await search(i);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged()).toHaveLength(0);
    await search(499);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [record] = logged();
    expect(record.crcOk).toBe(true);
    expect(record.payload.toString().match(/"query":"giver \d"/g)).toHaveLength(500);
    await closeEngine(engine);
  });
});

describe('over HTTP (lantern serve)', () => {
  let engine: Lantern;
  afterAll(() => engine?.close());

  it('search, insights, analytics and A/B testing clients against the HTTP server', async () => {
    engine = await openWithTalks({}, ['talks_b']);
    const served = await serveHere(engine);
    try {
      const { port } = served;
      const hosts = [{ url: '127.0.0.1', port, protocol: 'http' as const, accept: 'readWrite' as const }];
      const client = algoliasearch(APP_ID, ADMIN_KEY, { hosts });
      const analytics = client.initAnalytics({ options: { hosts } });
      const insights = client.initInsights({ options: { hosts } });
      const abtesting = client.initAbtesting({ options: { hosts } });
      const { abTestID } = await abtesting.addABTests({ name: 'http', variants: [{ index: INDEX, trafficPercentage: 50 }, { index: 'talks_b', trafficPercentage: 50 }], endAt: tomorrow() });
      const responses = [];
      for (const query of ['love', 'love', 'science']) {
        responses.push(await client.searchSingleIndex({ indexName: INDEX, searchParams: { query, clickAnalytics: true } }));
      }
      // no userToken: the socket address is the user, so every search lands in one variant
      expect(new Set(responses.map((r) => r.abTestVariantID)).size).toBe(1);
      expect(responses.every((r) => r.abTestID === abTestID)).toBe(true);
      await insights.pushEvents({ events: [{ eventType: 'click', eventName: 'Clicked', index: INDEX, userToken: 'web', queryID: responses[0].queryID!, objectIDs: [responses[0].hits[3].objectID], positions: [4] }] });
      expect(await analytics.getTopSearches(range())).toEqual({ searches: [
        { search: 'love', count: 2, nbHits: responses[1].nbHits },
        { search: 'science', count: 1, nbHits: responses[2].nbHits },
      ] });
      expect(await analytics.getUsersCount(range())).toMatchObject({ count: 1 });
      expect(await analytics.getAverageClickPosition(range())).toMatchObject({ average: 4, clickCount: 1 });
      const test = await abtesting.getABTest({ id: abTestID });
      const routed = test.variants[responses[0].abTestVariantID! - 1];
      expect(routed).toMatchObject({ searchCount: 3, clickCount: 1, clickThroughRate: 1 / 3 });
    } finally {
      await served.close();
    }
  });

  it('query suggestions: the official client and plain HTTP (the build log in JSON Lines)', async () => {
    const served = await serveHere(engine);
    try {
      const { port } = served;
      const hosts = [{ url: '127.0.0.1', port, protocol: 'http' as const, accept: 'readWrite' as const }];
      const client = algoliasearch(APP_ID, ADMIN_KEY, { hosts });
      const querySuggestions = client.initQuerySuggestions({ region: 'us', options: { hosts } });
      await querySuggestions.createConfig({ indexName: 'http_suggestions', sourceIndices: [{ indexName: INDEX, minHits: 1 }] });
      await engine.buildQuerySuggestions('http_suggestions');
      const last = await querySuggestions.getLogFile({ indexName: 'http_suggestions' });
      const response = await fetch(`http://127.0.0.1:${port}/1/logs/http_suggestions`, { headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY } });
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = (await response.text()).trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(lines.length).toBeGreaterThan(2);
      expect(last).toEqual(lines.at(-1));
      const { hits } = await client.searchSingleIndex<{ query: string }>({ indexName: 'http_suggestions', searchParams: { query: 'lov' } });
      expect(hits[0].query).toBe('love');
    } finally {
      await served.close();
    }
  });
});
