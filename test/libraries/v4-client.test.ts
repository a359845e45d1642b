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
    // answered as given, as the service does (its spec lists both spellings); a search by either spelling finds it
    expect(await index.getSynonym('earphones')).toMatchObject({ type: 'oneWaySynonym', input: 'earphones', synonyms: ['headphones', 'earbuds'] });
    const found = await index.searchSynonyms('', { type: 'onewaysynonym' } as any);
    expect(found.hits.map((s) => s.objectID)).toEqual(['earphones']);
    expect(found.hits[0]!.type).toBe('oneWaySynonym');
    expect((await index.getSettings() as { synonyms?: Array<{ type: string }> }).synonyms).toBeUndefined();
    const { hits } = await index.search<Product>('earphones', { attributesToRetrieve: ['name'] });
    const heard = PRODUCTS.filter((p) => p.category === 'headphones' || /earbuds|headphones/.test(p.name));
    expect(hits.map((h) => h.name).sort()).toEqual(heard.map((p) => p.name).sort()); // no record says earphones
    expect((await index.search('notebook', { hitsPerPage: 0 })).nbHits).toBe(count((p) => p.category === 'laptop'));
    await index.deleteSynonym('notebook').wait();
    expect((await index.search('notebook', { hitsPerPage: 0 })).nbHits).toBe(0);
  });

  // SynonymEnum's camel case (`oneWaySynonym`) names the type read in lower case, in a search as in a save
  it('searchSynonyms with the type as SynonymEnum spells it', async () => {
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
    await expect(limited.saveObject({ objectID: 'x', name: 'x' })).rejects.toMatchObject({ status: 400, message: 'Not enough rights to update an object' });
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

describe('algoliasearch v4 over HTTP: the helpers built on several calls', () => {
  it('replaceAllObjects (safe): a temporary index moved over, settings, synonyms and rules kept', async () => {
    const target = client.initIndex('replace_v4');
    await target.setSettings(SETTINGS).wait();
    await target.saveObjects(PRODUCTS.slice(0, 5)).wait();
    await target.saveSynonym({ objectID: 'mobile', type: 'synonym', synonyms: ['mobile', 'phone'] }).wait();
    await target.saveRule({ objectID: 'r1', conditions: [{ pattern: 'sale', anchoring: 'contains' }], consequence: { userData: { on: 'sale' } } }).wait();
    await target.replaceAllObjects(PRODUCTS.slice(5, 12), { safe: true });
    const { hits } = await target.search<Product>('', { hitsPerPage: 50, attributesToRetrieve: ['objectID'] });
    expect(hits.map((h) => h.objectID).sort()).toEqual(PRODUCTS.slice(5, 12).map((p) => p.objectID).sort());
    expect((await target.getSettings()).customRanking).toEqual(SETTINGS.customRanking);
    expect((await target.search('mobile', { hitsPerPage: 0 })).nbHits).toBe(PRODUCTS.slice(5, 12).filter((p) => p.category === 'phone').length);
    expect((await target.search('sale')).userData).toEqual([{ on: 'sale' }]);
    const { items } = await client.listIndices();
    expect(items.map((i) => i.name).filter((n) => n.startsWith('replace_v4_tmp'))).toEqual([]);
  });

  it('replaceAllSynonyms, replaceAllRules, browseSynonyms and browseRules', async () => {
    const target = client.initIndex('replace_v4');
    await target.replaceAllSynonyms([{ objectID: 'cam', type: 'synonym', synonyms: ['cam', 'camera'] }, { objectID: 'pad', type: 'synonym', synonyms: ['pad', 'tablet'] }]).wait();
    const synonyms: string[] = [];
    await target.browseSynonyms({ batch: (batch) => synonyms.push(...batch.map((b) => b.objectID)) });
    expect(synonyms.sort()).toEqual(['cam', 'pad']);
    await target.replaceAllRules([{ objectID: 'r2', conditions: [{ pattern: 'deal', anchoring: 'is' }], consequence: { userData: { on: 'deal' } } }]).wait();
    const rules: string[] = [];
    await target.browseRules({ batch: (batch) => rules.push(...batch.map((b) => b.objectID)) });
    expect(rules).toEqual(['r2']);
  });

  it('copySettings, copySynonyms and copyRules copy one scope each', async () => {
    await client.copySettings('products', 'scopes_v4').wait();
    await client.copySynonyms('replace_v4', 'scopes_v4').wait();
    await client.copyRules('replace_v4', 'scopes_v4').wait();
    const scopes = client.initIndex('scopes_v4');
    expect((await scopes.getSettings()).attributesForFaceting).toEqual(SETTINGS.attributesForFaceting);
    expect((await scopes.searchSynonyms('')).hits.map((h) => h.objectID).sort()).toEqual(['cam', 'pad']);
    expect((await scopes.searchRules('')).hits.map((h) => h.objectID)).toEqual(['r2']);
    expect((await scopes.search('', { hitsPerPage: 0 })).nbHits).toBe(0); // no records copied
  });

  it('multipleBatch, multipleGetObjects, findObject, clearObjects', async () => {
    const { taskID, objectIDs } = await client.multipleBatch([
      { indexName: 'multi_a', action: 'addObject', body: { objectID: 'a1', name: 'first' } },
      { indexName: 'multi_b', action: 'addObject', body: { objectID: 'b1', name: 'second' } },
    ]).wait();
    expect(objectIDs).toEqual(['a1', 'b1']);
    expect(Object.keys(taskID).sort()).toEqual(['multi_a', 'multi_b']);
    const { results } = await client.multipleGetObjects([{ indexName: 'multi_a', objectID: 'a1' }, { indexName: 'multi_b', objectID: 'b1', attributesToRetrieve: ['objectID'] }]);
    expect(results).toEqual([{ objectID: 'a1', name: 'first' }, { objectID: 'b1' }]);
    const found = await index.findObject<Product>((p) => p.brand === 'Sony' && p.price > 1000);
    expect(found).toMatchObject({ object: { objectID: 'p16' }, position: expect.any(Number), page: 0 });
    await client.initIndex('multi_a').clearObjects().wait();
    expect((await client.initIndex('multi_a').search('')).nbHits).toBe(0);
  });

  it('updateApiKey, listApiKeys, deleteApiKey then restoreApiKey', async () => {
    const { key } = await client.addApiKey(['search'], { description: 'before' }).wait();
    await client.updateApiKey(key, { acl: ['search', 'browse'], description: 'after' }).wait();
    expect(await client.getApiKey(key)).toMatchObject({ acl: ['search', 'browse'], description: 'after' });
    expect((await client.listApiKeys()).keys.map((k) => k.value)).toContain(key);
    await client.deleteApiKey(key).wait();
    await client.restoreApiKey(key).wait();
    expect(await client.getApiKey(key)).toMatchObject({ value: key, description: 'after' });
  });

  it('getLogs lists the calls just made', async () => {
    await index.search('logged query');
    const { logs } = await client.getLogs({ length: 5 } as any);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.some((l) => l.url.includes('/1/indexes/products/query'))).toBe(true);
  });
});
