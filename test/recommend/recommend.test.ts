// Recommend through the official v5 client's recommend methods, against a
// real engine: each model finds the signal planted among random events,
// rules and parameters shape the answer, bad requests get a clear 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { APP_ID, ADMIN_HEADERS, ADMIN_KEY, sender, expectError, type Send } from '../api/helpers.js';
import { BRANDS, plantedEvents, products, pushEvents } from './planted.js';

const SHOP = 'shop';
const PLAIN = 'plain';
const LOW_MINIMUMS = { minBoughtTogetherEvents: 10, minRelatedEvents: 10, minTrendingEvents: 10, freshnessMs: 20 };

let engine: Lantern;
let send: Send;
let recommend: ReturnType<ReturnType<typeof algoliasearch>['initRecommend']>;
const now = Date.now();

beforeAll(async () => {
  engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, recommend: LOW_MINIMUMS });
  send = sender(engine);
  const client = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) });
  recommend = client.initRecommend({ options: { requester: lanternRequester(engine) } });
  await client.setSettings({ indexName: SHOP, indexSettings: { attributesForFaceting: ['brand'], embedders: { look: { source: 'userProvided', dimensions: 3 } } } as never });
  const { taskID } = await client.saveObjects({ indexName: SHOP, objects: products(40), waitForTasks: true }).then((r) => r[r.length - 1]!);
  await client.waitForTask({ indexName: SHOP, taskID });
  await client.saveObjects({ indexName: PLAIN, objects: products(5).map(({ _vectors, ...p }) => p), waitForTasks: true });
  await pushEvents(engine, plantedEvents(SHOP, now), ADMIN_HEADERS);
  await engine.recommend.whenFresh();
});

afterAll(() => engine.close());

const ids = (hits: Array<{ objectID?: string }>) => hits.map((h) => h.objectID);

async function first(request: Record<string, unknown>) {
  const { results } = await recommend.getRecommendations({ requests: [{ indexName: SHOP, threshold: 0, ...request } as never] });
  return results[0]!.hits as Array<Record<string, any>>;
}

describe('models', () => {
  it('bought together: the pair bought by the same users on the same day comes first', async () => {
    const hits = await first({ model: 'bought-together', objectID: 'p1' });
    expect(hits[0]).toMatchObject({ objectID: 'p2', name: 'Product 2' });
    expect(hits[0]!._score).toBeGreaterThan(hits[1]?._score ?? 0);
    for (const h of hits) {
      expect(h._score).toBeGreaterThanOrEqual(0);
      expect(h._score).toBeLessThanOrEqual(100);
    }
  });

  it('related products: a taste group gives its own items, before any item related by content', async () => {
    const hits = await first({ model: 'related-products', objectID: 'p3', maxRecommendations: 5 });
    expect(hits).toHaveLength(5);
    for (const h of hits) expect(Number(h.objectID.slice(1))).toBeLessThan(10);
    const all = await first({ model: 'related-products', objectID: 'p3' });
    const firstByContent = all.findIndex((h) => Number(h.objectID.slice(1)) >= 10 && h.brand === BRANDS[3]);
    expect(firstByContent).toBeGreaterThanOrEqual(8);
    const other = await first({ model: 'related-products', objectID: 'p23', maxRecommendations: 5 });
    for (const h of other) expect(Number(h.objectID.slice(1))).toBeGreaterThanOrEqual(20);
  });

  it('related products: an item without events is completed by content (its brand), scored at most 50', async () => {
    const hits = await first({ model: 'related-products', objectID: 'p39', maxRecommendations: 10 });
    expect(hits.length).toBeGreaterThan(0);
    const brand = BRANDS[39 % 4];
    expect(hits.filter((h) => h.brand === brand).length).toBeGreaterThan(0);
    for (const h of hits) expect(h._score).toBeLessThanOrEqual(50);
  });

  it('trending items: the rising item tops the list; trending facets: its brand', async () => {
    const hits = await first({ model: 'trending-items' });
    expect(hits[0]).toMatchObject({ objectID: 'p7', _score: 100 });
    expect(ids(hits)).not.toContain('p20'); // steady: no growth
    const facets = await first({ model: 'trending-facets', facetName: 'brand' });
    expect(facets[0]).toEqual({ facetName: 'brand', facetValue: BRANDS[7 % 4], _score: 100 });
    const within = await first({ model: 'trending-items', facetName: 'brand', facetValue: BRANDS[1] });
    expect(ids(within)).not.toContain('p7');
  });

  it('looking similar: the nearest records by vector', async () => {
    const hits = await first({ model: 'looking-similar', objectID: 'p10', maxRecommendations: 2 });
    expect(ids(hits).sort()).toEqual(['p11', 'p9']);
    const response = await send('POST', '/1/indexes/*/recommendations', { requests: [{ indexName: PLAIN, model: 'looking-similar', objectID: 'p1', threshold: 0 }] });
    expectError(response, 400, /no embedder/);
  });
});

describe('parameters', () => {
  it('threshold drops lower scores; maxRecommendations caps; queryParameters filter and shape the hits', async () => {
    const all = await first({ model: 'related-products', objectID: 'p3' });
    const cut = all[3]!._score;
    const above = await first({ model: 'related-products', objectID: 'p3', threshold: cut });
    expect(above.every((h) => h._score >= cut)).toBe(true);
    expect(above.length).toBeLessThan(all.length);
    const filtered = await first({ model: 'related-products', objectID: 'p3', queryParameters: { filters: 'brand:acme', attributesToRetrieve: ['brand'] } });
    expect(filtered.length).toBeGreaterThan(0);
    for (const h of filtered) {
      expect(h).not.toHaveProperty('name');
      expect(h.brand).toBe('acme');
    }
  });

  it('fallbackParameters fill up to maxRecommendations; clickAnalytics gives a queryID', async () => {
    const { results } = await recommend.getRecommendations({ requests: [{
      indexName: SHOP, model: 'bought-together', objectID: 'p1', threshold: 99, maxRecommendations: 4,
      fallbackParameters: { filters: 'brand:initech' }, queryParameters: { clickAnalytics: true },
    } as never] });
    const hits = results[0]!.hits as Array<Record<string, any>>;
    expect(hits).toHaveLength(4);
    expect(hits.filter((h) => h._score === undefined).every((h) => h.brand === 'initech')).toBe(true);
    expect((results[0] as { queryID?: string }).queryID).toMatch(/^[0-9a-f]{32}$/);
  });

  it('bad requests: a 400 saying what is wrong', async () => {
    const call = (request: Record<string, unknown>) => send('POST', '/1/indexes/*/recommendations', { requests: [{ indexName: SHOP, ...request }] });
    expectError(await call({ model: 'bought-together', objectID: 'p1' }), 400, /threshold is required/);
    expectError(await call({ model: 'frequently', threshold: 0 }), 400, /model must be one of/);
    expectError(await call({ model: 'trending-facets', threshold: 0 }), 400, /needs a facetName/);
    expectError(await call({ model: 'related-products', threshold: 0 }), 400, /needs the objectID/);
    expectError(await call({ model: 'trending-items', threshold: 0, maxRecommendations: 31 }), 400, /maxRecommendations/);
    expectError(await send('POST', '/1/indexes/*/recommendations', { requests: [{ indexName: 'nowhere', model: 'trending-items', threshold: 0 }] }), 404);
  });
});

describe('rules', () => {
  it('hide, promote and filters change what bought-together answers; rules can be read, searched and deleted', async () => {
    const saved = await recommend.batchRecommendRules({ indexName: SHOP, model: 'bought-together', recommendRule: [
      { objectID: 'hide-p2', condition: { filters: 'brand:globex' }, consequence: { hide: [{ objectID: 'p2' }], promote: [{ objectID: 'p33', position: 0 }] }, description: 'no p2' },
    ] });
    await engine.waitForTasks();
    expect((await recommend.getRecommendStatus({ indexName: SHOP, model: 'bought-together', taskID: saved.taskID })).status).toBe('published');
    const hits = await first({ model: 'bought-together', objectID: 'p1' }); // p1 is globex
    expect(ids(hits)[0]).toBe('p33');
    expect(ids(hits)).not.toContain('p2');
    const unmatched = await first({ model: 'bought-together', objectID: 'p2' }); // p2 is initech: the rule's condition fails
    expect(ids(unmatched)[0]).toBe('p1');
    expect(await recommend.getRecommendRule({ indexName: SHOP, model: 'bought-together', objectID: 'hide-p2' })).toMatchObject({ objectID: 'hide-p2', description: 'no p2' });
    expect((await recommend.searchRecommendRules({ indexName: SHOP, model: 'bought-together', searchRecommendRulesParams: { query: 'no p2' } })).nbHits).toBe(1);
    await recommend.deleteRecommendRule({ indexName: SHOP, model: 'bought-together', objectID: 'hide-p2' });
    expect(ids(await first({ model: 'bought-together', objectID: 'p1' }))[0]).toBe('p2');
    expectError(await send('GET', `/1/indexes/${SHOP}/bought-together/recommend/rules/hide-p2`), 404);
  });

  it('automaticFacetFilters keep the viewed item\'s brand (or all others with negative); validity and enabled switch rules off', async () => {
    const same = { objectID: 'same-brand', consequence: { params: { automaticFacetFilters: [{ facet: 'brand' }] } } };
    await recommend.batchRecommendRules({ indexName: SHOP, model: 'related-products', recommendRule: [same] });
    const hits = await first({ model: 'related-products', objectID: 'p3' });
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(h.brand).toBe(BRANDS[3]);
    const past = { from: 0, until: Math.floor(now / 1000) - 60 };
    await recommend.batchRecommendRules({ indexName: SHOP, model: 'related-products', recommendRule: [
      { objectID: 'other-brands', consequence: { params: { automaticFacetFilters: [{ facet: 'brand', negative: true }] } } },
      { objectID: 'expired', validity: [past], consequence: { hide: [{ objectID: 'p1' }] } },
      { objectID: 'off', enabled: false, consequence: { hide: [{ objectID: 'p2' }] } },
    ] });
    // clearExistingRules: only the batch's rules remain (the expired and disabled ones hid nothing meanwhile)
    expect(await first({ model: 'related-products', objectID: 'p3' })).toEqual([]); // same brand and other brands: nothing passes both
    const response = await send('POST', `/1/indexes/${SHOP}/related-products/recommend/rules/batch?clearExistingRules=true`, [
      { objectID: 'other-brands', consequence: { params: { automaticFacetFilters: [{ facet: 'brand', negative: true }] } } },
    ]);
    expect(response.status).toBe(200);
    const others = await first({ model: 'related-products', objectID: 'p3' });
    expect(others.length).toBeGreaterThan(0);
    for (const h of others) expect(h.brand).not.toBe(BRANDS[3]);
  });

  it('optionalFilters put the recommendations they match first (a negative one last), the model\'s order kept among equals', async () => {
    const before = await first({ model: 'bought-together', objectID: 'p1' });
    const brand = before[before.length - 1]!.brand as string;
    expect(before[0]!.brand).not.toBe(brand);
    const matching = before.filter((h) => h.brand === brand).map((h) => h.objectID);
    const others = before.filter((h) => h.brand !== brand).map((h) => h.objectID);
    const boost = async (filter: string) => {
      await recommend.batchRecommendRules({ indexName: SHOP, model: 'bought-together', recommendRule: [
        { objectID: 'boost', consequence: { params: { optionalFilters: [filter] } } },
      ] });
      await engine.waitForTasks();
      return ids(await first({ model: 'bought-together', objectID: 'p1' }));
    };
    expect(await boost(`brand:${brand}`)).toEqual([...matching, ...others]);
    expect(await boost(`brand:-${brand}`)).toEqual([...others, ...matching]);
    await recommend.deleteRecommendRule({ indexName: SHOP, model: 'bought-together', objectID: 'boost' });
    expect(ids(await first({ model: 'bought-together', objectID: 'p1' }))).toEqual(ids(before));
    expectError(await send('POST', `/1/indexes/${SHOP}/bought-together/recommend/rules/batch`, [
      { objectID: 'bad', consequence: { params: { optionalFilters: ['brand:x<score=nope>'] } } },
    ]), 400, /optionalFilters/);
  });

  it('a bad rule is refused whole with a 400 naming the field', async () => {
    const response = await send('POST', `/1/indexes/${SHOP}/bought-together/recommend/rules/batch`, [
      { objectID: 'ok' }, { objectID: 'bad', consequence: { promote: [{ objectID: 'p1', position: -1 }] } },
    ]);
    expectError(response, 400, /rules\[1\]\.consequence\.promote\[0\]\.position/);
    expectError(await send('GET', `/1/indexes/${SHOP}/bought-together/recommend/rules/ok`), 404);
    expectError(await send('POST', `/1/indexes/${SHOP}/looking-similar/recommend/rules/batch`, []), 400, /Unknown model/);
  });
});
