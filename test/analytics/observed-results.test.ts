// What observers of a search record (analytics, A/B test metrics, top hits
// and their clicks) comes from the search's result, whatever the caller
// cut from the answer with responseFields: an index answering only `hits`
// still has its searches without results counted as such (issue #46).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { ADMIN_KEY, APP_ID, sender, type Send } from '../api/helpers.js';
import { clientsFor, today } from './helpers.js';

const films = [
  { objectID: 'f1', title: 'Ocean voyage', genre: 'drama' },
  { objectID: 'f2', title: 'Desert voyage', genre: 'drama' },
  { objectID: 'f3', title: 'Mountain climb', genre: 'documentary' },
  { objectID: 'f4', title: 'City lights', genre: 'comedy' },
  { objectID: 'f5', title: 'Ocean depths', genre: 'documentary' },
];

let engine: Lantern;
let send: Send;
let c: ReturnType<typeof clientsFor>;

/** An index of the films whose own settings are `settings`. */
async function filmsIndex(indexName: string, settings: Record<string, unknown>): Promise<void> {
  await send('PUT', `/1/indexes/${indexName}/settings`, { searchableAttributes: ['title'], ...settings });
  await send('POST', `/1/indexes/${indexName}/batch`, { requests: films.map((body) => ({ action: 'addObject', body })) });
  await engine.waitForTasks();
}

async function search(indexName: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await engine.request({
    method: 'POST', path: `/1/indexes/${indexName}/query`, body: params,
    headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, ...headers },
  });
  expect(response.status).toBe(200);
  return response.body as Record<string, any>;
}

const range = (index: string) => ({ index, startDate: today(), endDate: today() });

beforeAll(async () => {
  engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
  send = sender(engine);
  c = clientsFor(engine);
});
afterAll(() => engine.close());

describe('an index whose responseFields leave out nbHits', () => {
  const WITH_HITS = ['ocean', 'voyage', 'mountain', 'city', 'depths', 'desert'];
  const WITHOUT_HITS = ['zzqxvw', 'qqqzzzx'];

  beforeAll(async () => {
    await filmsIndex('films_hits_only', { responseFields: ['hits'] });
    for (const query of [...WITH_HITS, ...WITHOUT_HITS]) {
      const answer = await search('films_hits_only', { query });
      // the caller gets what it asked for, and only that
      expect(Object.keys(answer)).toEqual(['hits']);
      expect(answer.hits.length > 0).toBe(WITH_HITS.includes(query));
    }
  });

  it('counts 2 searches of 8 without results: noResultRate 0.25', async () => {
    const rate = await c.analytics.getNoResultsRate(range('films_hits_only'));
    expect(rate).toMatchObject({ count: 8, noResultCount: 2, rate: 0.25 });
  });

  it('lists only the searches without results, and the hit counts of the others', async () => {
    const { searches } = await c.analytics.getSearchesNoResults(range('films_hits_only'));
    expect(searches.map((s) => s.search).sort()).toEqual([...WITHOUT_HITS].sort());
    const top = await c.analytics.getTopSearches({ ...range('films_hits_only'), limit: 100 });
    const nbHits = Object.fromEntries(top.searches.map((s) => [s.search, s.nbHits]));
    expect(nbHits).toMatchObject({ ocean: 2, voyage: 2, mountain: 1, city: 1, depths: 1, desert: 1, zzqxvw: 0, qqqzzzx: 0 });
  });
});

describe('a search whose responseFields leave out hits', () => {
  let queryID: string;

  beforeAll(async () => {
    await filmsIndex('films_count_only', {});
    const answer = await search('films_count_only', { query: 'ocean', clickAnalytics: true, userToken: 'u1', responseFields: ['nbHits'] });
    expect(answer).not.toHaveProperty('hits');
    expect(answer.nbHits).toBe(2);
    queryID = answer.queryID;
    expect(queryID).toMatch(/^[0-9a-f]{32}$/);
    await c.insights.pushEvents({
      events: [{ eventType: 'click', eventName: 'Film clicked', index: 'films_count_only', userToken: 'u1', queryID, objectIDs: ['f5'], positions: [2] }],
    });
  });

  it('still has its hits in the top hits, with the clicks on them', async () => {
    const { hits } = await c.analytics.getTopHits({ ...range('films_count_only'), clickAnalytics: true });
    // both seen once: their order is the search's tie order, not what this asserts
    expect([...hits].sort((a, b) => a.hit.localeCompare(b.hit))).toEqual([
      expect.objectContaining({ hit: 'f1', count: 1, clickCount: 0 }),
      expect.objectContaining({ hit: 'f5', count: 1, clickCount: 1 }),
    ]);
  });

  it('counts its click in the click-through rate and the click position', async () => {
    expect(await c.analytics.getClickThroughRate(range('films_count_only'))).toMatchObject({ rate: 1, trackedSearchCount: 1, clickCount: 1 });
    expect(await c.analytics.getAverageClickPosition(range('films_count_only'))).toMatchObject({ average: 2, clickCount: 1 });
  });
});

describe('an A/B test whose indexes answer only hits', () => {
  it('counts each variant\'s searches without results', async () => {
    await filmsIndex('films_a', { responseFields: ['hits'] });
    await filmsIndex('films_b', { responseFields: ['hits'] });
    const { abTestID } = await c.abtesting.addABTests({
      name: 'hits only', endAt: new Date(Date.now() + 86_400_000).toISOString(),
      variants: [{ index: 'films_a', trafficPercentage: 50 }, { index: 'films_b', trafficPercentage: 50 }],
    });
    const noResult: Record<number, number> = { 1: 0, 2: 0 };
    const searches: Record<number, number> = { 1: 0, 2: 0 };
    for (let i = 0; i < 40; i++) {
      const empty = i % 4 === 0;
      const answer = await search('films_a', { query: empty ? 'zzqxvw' : 'ocean', userToken: `user-${i}` });
      expect(answer).not.toHaveProperty('nbHits');
      searches[answer.abTestVariantID]++;
      if (empty) noResult[answer.abTestVariantID]++;
    }
    expect(searches[1]).toBeGreaterThan(0);
    expect(searches[2]).toBeGreaterThan(0);
    const test = await c.abtesting.getABTest({ id: abTestID });
    expect(test.variants.map((v) => [v.searchCount, v.noResultCount])).toEqual([[searches[1], noResult[1]], [searches[2], noResult[2]]]);
  });
});
