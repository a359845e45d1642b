// The `algoliasearch` v4 client (npm alias algoliasearch-v4), unmodified, over
// HTTP against serve() on a random port: the calls an application written
// for v4 makes, each checked on what comes back.
import { createRequire } from 'node:module';
import algoliasearch from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, count, PRODUCTS, SETTINGS, startLantern, type Product, type Running } from './products.js';

// v4's enums live in its own @algolia/client-search (v5's is another package of the same name)
const v4Require = createRequire(createRequire(import.meta.url).resolve('algoliasearch-v4'));
const { SynonymEnum } = v4Require('@algolia/client-search') as { SynonymEnum: Record<string, string> };

let lantern: Running;
let client: ReturnType<typeof algoliasearch>;
let index: ReturnType<ReturnType<typeof algoliasearch>['initIndex']>;

const clientWith = (key: string) => algoliasearch(APP_ID, key, { hosts: [{ url: `127.0.0.1:${lantern.port}`, protocol: 'http' }] });

beforeAll(async () => {
  lantern = await startLantern();
  client = clientWith(ADMIN_KEY);
  index = client.initIndex('products');
  await index.setSettings(SETTINGS).wait();
  const saved = await index.saveObjects(PRODUCTS).wait();
  expect(saved.objectIDs).toEqual(PRODUCTS.map((p) => p.objectID));
});

afterAll(() => lantern?.close());

describe('algoliasearch v4 over HTTP', () => {
  it('getSettings returns what setSettings stored', async () => {
    const settings = await index.getSettings();
    expect(settings.searchableAttributes).toEqual(SETTINGS.searchableAttributes);
    expect(settings.attributesForFaceting).toEqual(SETTINGS.attributesForFaceting);
    expect(settings.customRanking).toEqual(SETTINGS.customRanking);
  });

  it('search: typos, highlighting, facets and filters', async () => {
    const typo = await index.search<Product>('macbok', { attributesToRetrieve: ['name'] });
    expect(typo.hits.map((h) => h.name)).toEqual(['MacBook Air', 'MacBook Pro']);
    expect(typo.hits[0]._highlightResult?.name).toMatchObject({ value: '<em>MacBook</em> Air', matchLevel: 'full' });
    const faceted = await index.search<Product>('', { facets: ['brand', 'category'], filters: 'category:phone AND price < 900', hitsPerPage: 20 });
    expect(faceted.nbHits).toBe(count((p) => p.category === 'phone' && p.price < 900));
    expect(faceted.facets?.brand).toEqual({ Apple: 1, Samsung: 1, Google: 1 });
    expect(faceted.hits.map((h) => h.objectID)).toEqual(['p1', 'p7', 'p11']); // desc(popularity)
  });

  it('multipleQueries and client.search', async () => {
    const { results } = await client.multipleQueries<Product>([
      { indexName: 'products', query: 'pixel', params: { hitsPerPage: 1 } },
      { indexName: 'products', query: '', params: { facetFilters: [['brand:Sony']], hitsPerPage: 0 } },
    ]);
    expect((results[0] as any).hits.map((h: Product) => h.name)).toEqual(['Pixel 8']);
    expect((results[1] as any).nbHits).toBe(count((p) => p.brand === 'Sony'));
    const again = await client.search<Product>([{ indexName: 'products', query: 'galaxy', params: { attributesToRetrieve: ['brand'] } }]);
    expect((again.results[0] as any).hits.every((h: Product) => h.brand === 'Samsung')).toBe(true);
  });

  it('searchForFacetValues', async () => {
    const { facetHits } = await index.searchForFacetValues('brand', 'app');
    expect(facetHits).toEqual([{ value: 'Apple', highlighted: '<em>App</em>le', count: count((p) => p.brand === 'Apple') }]);
    const filtered = await index.searchForFacetValues('brand', 's', { filters: 'category:headphones' });
    expect(filtered.facetHits.map((f) => [f.value, f.count])).toEqual([['Sony', 2], ['Samsung', 1]]);
  });

  it('browseObjects reads every record, in batches', async () => {
    const seen: string[] = [];
    let batches = 0;
    await index.browseObjects<Product>({ query: '', hitsPerPage: 7, batch: (hits: Product[]) => { batches++; seen.push(...hits.map((h) => h.objectID)); } } as any);
    expect(seen.sort()).toEqual(PRODUCTS.map((p) => p.objectID).sort());
    expect(batches).toBe(3);
    const laptops: string[] = [];
    await index.browseObjects<Product>({ filters: 'category:laptop', batch: (hits) => laptops.push(...hits.map((h) => h.name)) });
    expect(laptops.sort()).toEqual(PRODUCTS.filter((p) => p.category === 'laptop').map((p) => p.name).sort());
  });

  it('getObject and getObjects', async () => {
    expect(await index.getObject<Product>('p3')).toEqual(PRODUCTS[2]);
    expect(await index.getObject('p3', { attributesToRetrieve: ['name'] })).toEqual({ objectID: 'p3', name: 'MacBook Air' });
    const { results } = await index.getObjects<Product>(['p1', 'missing', 'p2']);
    expect(results).toEqual([PRODUCTS[0], null, PRODUCTS[1]]);
  });

  it('partialUpdateObject, with and without an operation', async () => {
    await index.partialUpdateObject({ objectID: 'p5', price: 449, popularity: { _operation: 'Increment', value: 1000 } }).wait();
    expect(await index.getObject<Product>('p5')).toEqual({ ...PRODUCTS[4], price: 449, popularity: PRODUCTS[4].popularity + 1000 });
    const { hits } = await index.search<Product>('', { hitsPerPage: 1 });
    expect(hits[0].objectID).toBe('p5'); // the most popular now
    await index.partialUpdateObject({ objectID: 'p5', price: PRODUCTS[4].price, popularity: PRODUCTS[4].popularity }).wait();
  });

  it('deleteBy filters', async () => {
    const scratch = client.initIndex('scratch');
    await scratch.setSettings(SETTINGS).wait(); // category is filtered on: it must be a facet
    await scratch.saveObjects(PRODUCTS).wait();
    await scratch.deleteBy({ filters: 'category:laptop AND price > 1500' }).wait();
    const { nbHits } = await scratch.search('', { hitsPerPage: 0 });
    expect(nbHits).toBe(count((p) => !(p.category === 'laptop' && p.price > 1500)));
    expect((await scratch.getObjects(['p4', 'p3'])).results.map((r) => r?.objectID ?? null)).toEqual([null, 'p3']);
    await scratch.delete().wait();
    expect(await scratch.exists()).toBe(false);
  });

  it('synonyms: saveSynonyms (SynonymEnum), getSynonym, searchSynonyms, and a search they change', async () => {
    expect(SynonymEnum.OneWaySynonym).toBe('oneWaySynonym');
    await index.saveSynonyms([
      { objectID: 'earphones', type: SynonymEnum.OneWaySynonym as 'oneWaySynonym', input: 'earphones', synonyms: ['headphones', 'earbuds'] },
      { objectID: 'notebook', type: SynonymEnum.Synonym as 'synonym', synonyms: ['notebook', 'laptop'] },
    ]).wait();
    // stored and answered in lower case, as the service does (its spec lists both spellings)
    expect(await index.getSynonym('earphones')).toMatchObject({ type: 'onewaysynonym', input: 'earphones', synonyms: ['headphones', 'earbuds'] });
    const found = await index.searchSynonyms('', { type: 'onewaysynonym' } as any);
    expect(found.hits.map((s) => s.objectID)).toEqual(['earphones']);
    const { hits } = await index.search<Product>('earphones', { attributesToRetrieve: ['name'] });
    const heard = PRODUCTS.filter((p) => p.category === 'headphones' || /earbuds|headphones/.test(p.name));
    expect(hits.map((h) => h.name).sort()).toEqual(heard.map((p) => p.name).sort()); // no record says earphones
    expect((await index.search('notebook', { hitsPerPage: 0 })).nbHits).toBe(count((p) => p.category === 'laptop'));
    await index.deleteSynonym('notebook').wait();
    expect((await index.search('notebook', { hitsPerPage: 0 })).nbHits).toBe(0);
  });

  // BUG (Lantern): saveSynonyms takes SynonymEnum's camel case (`oneWaySynonym`, lower-cased when stored), but
  // POST /1/indexes/products/synonyms/search {"query":"","type":"oneWaySynonym"} answers 400
  // `Unknown synonym type "oneWaySynonym"` (src/api/synonyms.ts, searchSynonymsOperation compares without
  // lower-casing); expected: the same hits as with "onewaysynonym". Remove `.fails` once fixed.
  it.fails('searchSynonyms with the type as SynonymEnum spells it', async () => {
    const found = await index.searchSynonyms('', { type: SynonymEnum.OneWaySynonym } as any);
    expect(found.hits.map((s) => s.objectID)).toEqual(['earphones']);
  });

  it('rules: saveRule, getRule, searchRules, and a search they change', async () => {
    await index.saveRule({
      objectID: 'promote-pixel',
      conditions: [{ pattern: 'phone', anchoring: 'contains' }],
      consequence: { promote: [{ objectID: 'p11', position: 0 }], userData: { banner: 'pixel-week' } },
    }).wait();
    expect(await index.getRule('promote-pixel')).toMatchObject({ objectID: 'promote-pixel', consequence: { userData: { banner: 'pixel-week' } } });
    const rules = await index.searchRules('pixel');
    expect(rules.hits.map((r) => r.objectID)).toEqual(['promote-pixel']);
    const { hits, userData } = await index.search<Product>('phone', { filters: 'brand:Apple OR brand:Google' });
    expect(hits[0].objectID).toBe('p11');
    expect(userData).toEqual([{ banner: 'pixel-week' }]);
    await index.deleteRule('promote-pixel').wait();
    expect((await index.search('phone')).userData).toBeUndefined();
  });

  it('copyIndex (with its settings) and moveIndex', async () => {
    await client.copyIndex('products', 'products_copy').wait();
    const copy = client.initIndex('products_copy');
    expect((await copy.search('', { hitsPerPage: 0 })).nbHits).toBe(PRODUCTS.length);
    expect((await copy.getSettings()).customRanking).toEqual(SETTINGS.customRanking);
    await client.moveIndex('products_copy', 'products_moved').wait();
    expect(await copy.exists()).toBe(false);
    expect((await client.initIndex('products_moved').search('macbook')).nbHits).toBe(2);
    const { items } = await client.listIndices();
    expect(items.map((i) => i.name)).toContain('products_moved');
    await client.initIndex('products_moved').delete().wait();
  });

  it('API keys: addApiKey (waits for the key), getApiKey, searching with it, deleteApiKey', async () => {
    const { key } = await client.addApiKey(['search'], { indexes: ['products'], description: 'v4 test', maxHitsPerQuery: 3 }).wait();
    expect(await client.getApiKey(key)).toMatchObject({ value: key, acl: ['search'], indexes: ['products'], description: 'v4 test', maxHitsPerQuery: 3 });
    const limited = clientWith(key).initIndex('products');
    const { hits } = await limited.search('', { hitsPerPage: 10 });
    expect(hits.length).toBe(3);
    await expect(clientWith(key).initIndex('scratch').search('')).rejects.toMatchObject({ status: 403 });
    await expect(limited.saveObject({ objectID: 'x', name: 'x' })).rejects.toMatchObject({ status: 403 });
    await client.deleteApiKey(key).wait();
    await expect(client.getApiKey(key)).rejects.toMatchObject({ status: 404 });
  });

  it('generateSecuredApiKey: a search with it is restricted to its filters', async () => {
    const { key: parent } = await client.addApiKey(['search']).wait();
    const secured = client.generateSecuredApiKey(parent, { filters: 'brand:Apple', validUntil: Math.floor(Date.now() / 1000) + 3600 });
    expect(client.getSecuredApiKeyRemainingValidity(secured)).toBeGreaterThan(3500);
    const { hits, nbHits } = await clientWith(secured).initIndex('products').search<Product>('', { hitsPerPage: 50, filters: 'price > 500' });
    expect(nbHits).toBe(count((p) => p.brand === 'Apple' && p.price > 500));
    expect(hits.every((h) => h.brand === 'Apple')).toBe(true);
    const expired = client.generateSecuredApiKey(parent, { validUntil: Math.floor(Date.now() / 1000) - 10 });
    await expect(clientWith(expired).initIndex('products').search('')).rejects.toMatchObject({ status: 403 });
  });
});
