// The `algoliasearch` v3 client (npm alias algoliasearch-v3; its Node build,
// the package's main entry), unmodified, over HTTP against serve() on a random
// port: the calls an application written for v3 makes (promises, taskIDs and
// waitTask), each checked on what comes back.
import algoliasearch from 'algoliasearch-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, count, PRODUCTS, SETTINGS, startLantern, type Product, type Running } from './products.js';

let lantern: Running;
let client: any;
let index: any;
const clients: any[] = [];

/** A v3 client on Lantern; the search cache is off so a search after a write sees it. */
function clientWith(key: string): any {
  const c = algoliasearch(APP_ID, key, { hosts: [`127.0.0.1:${lantern.port}`], protocol: 'http:', _useCache: false });
  clients.push(c);
  return c;
}

const wait = async (target: any, answer: Promise<{ taskID: number }>) => {
  const { taskID } = await answer;
  await target.waitTask(taskID);
};

beforeAll(async () => {
  lantern = await startLantern();
  client = clientWith(ADMIN_KEY);
  index = client.initIndex('products');
  await wait(index, index.setSettings(SETTINGS));
  const saved = index.saveObjects(PRODUCTS);
  expect((await saved).objectIDs).toEqual(PRODUCTS.map((p) => p.objectID));
  await wait(index, saved);
});

afterAll(async () => {
  for (const c of clients) c.destroy(); // the Node build's keep-alive agent
  await lantern?.close();
});

describe('algoliasearch v3 (Node build) over HTTP', () => {
  it('getSettings returns what setSettings stored', async () => {
    const settings = await index.getSettings();
    expect(settings).toMatchObject(SETTINGS);
  });

  it('search with a query string and parameters: typos, highlighting, facets, filters', async () => {
    const typo = await index.search('macbok', { attributesToRetrieve: ['name'] });
    expect(typo.hits.map((h: Product) => h.name)).toEqual(['MacBook Air', 'MacBook Pro']);
    expect(typo.hits[0]._highlightResult.name.value).toBe('<em>MacBook</em> Air');
    const faceted = await index.search({ query: '', facets: ['brand'], numericFilters: ['price<900'], facetFilters: ['category:phone'] });
    expect(faceted.nbHits).toBe(count((p) => p.category === 'phone' && p.price < 900));
    expect(faceted.facets.brand).toEqual({ Apple: 1, Samsung: 1, Google: 1 });
  });

  it('client.search: several queries in one request', async () => {
    const { results } = await client.search([
      { indexName: 'products', query: 'pixel', params: { hitsPerPage: 1 } },
      { indexName: 'products', query: '', params: { filters: 'brand:Sony', hitsPerPage: 0 } },
    ]);
    expect(results[0].hits.map((h: Product) => h.name)).toEqual(['Pixel 8']);
    expect(results[1].nbHits).toBe(count((p) => p.brand === 'Sony'));
  });

  it('searchForFacetValues', async () => {
    const { facetHits } = await index.searchForFacetValues({ facetName: 'brand', facetQuery: 'sam' });
    expect(facetHits).toEqual([{ value: 'Samsung', highlighted: '<em>Sam</em>sung', count: count((p) => p.brand === 'Samsung') }]);
  });

  it('browse, browseFrom and browseAll', async () => {
    const first = await index.browse('', { hitsPerPage: 8 });
    expect(first.hits.length).toBe(8);
    expect(typeof first.cursor).toBe('string');
    const second = await index.browseFrom(first.cursor);
    expect(second.hits.length).toBe(8);
    const all: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const browser = index.browseAll('', { hitsPerPage: 6 });
      browser.on('result', (r: any) => all.push(...r.hits.map((h: Product) => h.objectID)));
      browser.on('end', () => resolve());
      browser.on('error', reject);
    });
    expect(all.sort()).toEqual(PRODUCTS.map((p) => p.objectID).sort());
    expect([...first.hits, ...second.hits].map((h: Product) => h.objectID).every((id: string) => all.includes(id))).toBe(true);
  });

  it('getObject and getObjects', async () => {
    expect(await index.getObject('p7')).toEqual(PRODUCTS[6]);
    expect(await index.getObject('p7', ['brand'])).toEqual({ objectID: 'p7', brand: 'Samsung' });
    const { results } = await index.getObjects(['p2', 'p1']);
    expect(results).toEqual([PRODUCTS[1], PRODUCTS[0]]);
  });

  it('partialUpdateObject and saveObject', async () => {
    await wait(index, index.partialUpdateObject({ objectID: 'p20', name: 'Tab P12 Pro' }));
    expect(await index.getObject('p20')).toEqual({ ...PRODUCTS[19], name: 'Tab P12 Pro' });
    expect((await index.search('p12 pro')).hits.map((h: Product) => h.objectID)).toEqual(['p20']);
    await wait(index, index.saveObject(PRODUCTS[19]));
    expect(await index.getObject('p20')).toEqual(PRODUCTS[19]);
  });

  it('deleteBy, deleteObject and clearIndex', async () => {
    const scratch = client.initIndex('scratch_v3');
    await wait(scratch, scratch.setSettings(SETTINGS));
    await wait(scratch, scratch.addObjects(PRODUCTS));
    await wait(scratch, scratch.deleteBy({ filters: 'brand:Apple' }));
    expect((await scratch.search('', { hitsPerPage: 0 })).nbHits).toBe(count((p) => p.brand !== 'Apple'));
    await wait(scratch, scratch.deleteObject('p7'));
    await expect(scratch.getObject('p7')).rejects.toMatchObject({ statusCode: 404 });
    await wait(scratch, scratch.clearIndex());
    expect((await scratch.search('', { hitsPerPage: 0 })).nbHits).toBe(0);
    await wait(scratch, client.deleteIndex('scratch_v3'));
  });

  it('synonyms: saveSynonym, batchSynonyms, getSynonym, searchSynonyms, and a search they change', async () => {
    await wait(index, index.saveSynonym({ objectID: 'cellphone', type: 'oneWaySynonym', input: 'cellphone', synonyms: ['phone'] }));
    await wait(index, index.batchSynonyms([{ objectID: 'cam', type: 'synonym', synonyms: ['cam', 'camera'] }], { replaceExistingSynonyms: false }));
    expect(await index.getSynonym('cellphone')).toMatchObject({ objectID: 'cellphone', input: 'cellphone', synonyms: ['phone'] });
    const { hits } = await index.searchSynonyms({ query: '' });
    expect(hits.map((s: any) => s.objectID).sort()).toEqual(['cam', 'cellphone']);
    expect((await index.search('cellphone', { hitsPerPage: 0 })).nbHits).toBe(count((p) => p.category === 'phone'));
    expect((await index.search('cam', { hitsPerPage: 0 })).nbHits).toBe(count((p) => p.category === 'camera'));
    await wait(index, index.clearSynonyms());
    expect((await index.search('cellphone', { hitsPerPage: 0 })).nbHits).toBe(0);
  });

  it('rules: saveRule, getRule, searchRules, and a search they change', async () => {
    await wait(index, index.saveRule({
      objectID: 'laptops-by-price',
      condition: { pattern: 'cheap', anchoring: 'contains' },
      consequence: { params: { query: { remove: ['cheap'] }, filters: 'price < 1500' }, userData: { sort: 'price' } },
    }));
    expect(await index.getRule('laptops-by-price')).toMatchObject({ objectID: 'laptops-by-price' });
    expect((await index.searchRules({ query: 'cheap' })).hits.map((r: any) => r.objectID)).toEqual(['laptops-by-price']);
    const cheap = await index.search('cheap laptop');
    expect(cheap.hits.map((h: Product) => h.objectID).sort()).toEqual(PRODUCTS.filter((p) => p.category === 'laptop' && p.price < 1500).map((p) => p.objectID).sort());
    expect(cheap.userData).toEqual([{ sort: 'price' }]);
    await wait(index, index.deleteRule('laptops-by-price'));
  });

  it('copyIndex and moveIndex', async () => {
    await wait(client.initIndex('products_v3_copy'), client.copyIndex('products', 'products_v3_copy'));
    await wait(client.initIndex('products_v3_moved'), client.moveIndex('products_v3_copy', 'products_v3_moved'));
    const moved = client.initIndex('products_v3_moved');
    expect((await moved.search('galaxy', { hitsPerPage: 0 })).nbHits).toBe(count((p) => p.name.startsWith('Galaxy')));
    expect((await moved.getSettings()).attributesForFaceting).toEqual(SETTINGS.attributesForFaceting);
    const { items } = await client.listIndexes();
    expect(items.map((i: any) => i.name)).toEqual(expect.arrayContaining(['products', 'products_v3_moved']));
    expect(items.map((i: any) => i.name)).not.toContain('products_v3_copy');
    await wait(moved, client.deleteIndex('products_v3_moved'));
  });

  it('API keys: addApiKey, getApiKey (once the key exists), a search with it, deleteApiKey', async () => {
    const { key } = await client.addApiKey(['search'], { indexes: ['products'], description: 'v3 test', maxHitsPerQuery: 2 });
    // v3 has no waitForApiKey: poll getApiKey as its documentation does
    await expect.poll(() => client.getApiKey(key).then(() => true, () => false), { timeout: 5000 }).toBe(true);
    expect(await client.getApiKey(key)).toMatchObject({ value: key, acl: ['search'], indexes: ['products'], maxHitsPerQuery: 2 });
    const limited = clientWith(key).initIndex('products');
    expect((await limited.search('')).hits.length).toBe(2);
    await expect(limited.addObject({ name: 'nope' })).rejects.toMatchObject({ statusCode: 400, message: 'Not enough rights to update an object' });
    await client.deleteApiKey(key);
    await expect.poll(() => client.getApiKey(key).then(() => 'there', (e: any) => e.statusCode), { timeout: 5000 }).toBe(404);
  });

  it('generateSecuredApiKey (Node build): a search with it is restricted', async () => {
    const { key: parent } = await client.addApiKey(['search']);
    await expect.poll(() => client.getApiKey(parent).then(() => true, () => false), { timeout: 5000 }).toBe(true);
    const secured = client.generateSecuredApiKey(parent, { filters: 'category:tablet', restrictIndices: 'products' });
    const { hits, nbHits } = await clientWith(secured).initIndex('products').search('', { hitsPerPage: 50 });
    expect(nbHits).toBe(count((p) => p.category === 'tablet'));
    expect(hits.every((h: Product) => h.category === 'tablet')).toBe(true);
    await expect(clientWith(secured).initIndex('scratch_v3').search('')).rejects.toMatchObject({ statusCode: 403 });
  });
});

describe('algoliasearch v3 over HTTP: the helpers built on several calls', () => {
  it('exportSynonyms and exportRules read every one', async () => {
    const target = client.initIndex('export_v3');
    await wait(target, target.batchSynonyms(Array.from({ length: 12 }, (_, i) => ({ objectID: `s${i}`, type: 'synonym', synonyms: [`word${i}`, `other${i}`] }))));
    await wait(target, target.batchRules(Array.from({ length: 7 }, (_, i) => ({ objectID: `r${i}`, condition: { pattern: `p${i}`, anchoring: 'is' }, consequence: { userData: { i } } }))));
    const synonyms = await target.exportSynonyms(5);
    expect(synonyms.map((s: any) => s.objectID).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `s${i}`).sort());
    const rules = await target.exportRules(3);
    expect(rules.map((r: any) => r.objectID).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `r${i}`).sort());
  });

  it('client.batch across indexes, addObjects without objectIDs, findObject', async () => {
    const { taskID } = await client.batch([
      { indexName: 'batch_v3_a', action: 'addObject', body: { objectID: 'a1', name: 'alpha' } },
      { indexName: 'batch_v3_b', action: 'updateObject', objectID: 'b1', body: { name: 'beta' } },
    ]);
    await client.initIndex('batch_v3_a').waitTask(taskID.batch_v3_a);
    await client.initIndex('batch_v3_b').waitTask(taskID.batch_v3_b);
    expect(await client.initIndex('batch_v3_b').getObject('b1')).toEqual({ objectID: 'b1', name: 'beta' });
    const added = client.initIndex('batch_v3_a').addObjects([{ name: 'gamma' }]);
    const { objectIDs } = await added;
    await wait(client.initIndex('batch_v3_a'), added);
    expect(await client.initIndex('batch_v3_a').getObject(objectIDs[0])).toEqual({ objectID: objectIDs[0], name: 'gamma' });
    const found = await index.findObject((p: Product) => p.brand === 'Lenovo' && p.category === 'tablet', { query: 'tab' });
    expect(found).toMatchObject({ object: { objectID: 'p20' }, position: 0, page: 0 });
  });

  it('updateApiKey and listApiKeys', async () => {
    const { key } = await client.addApiKey(['search'], { description: 'v3 before' });
    await expect.poll(() => client.getApiKey(key).then(() => true, () => false), { timeout: 5000 }).toBe(true);
    await client.updateApiKey(key, ['search', 'browse'], { description: 'v3 after' });
    await expect.poll(() => client.getApiKey(key).then((k: any) => k.description), { timeout: 5000 }).toBe('v3 after');
    expect((await client.getApiKey(key)).acl.sort()).toEqual(['browse', 'search']);
    expect((await client.listApiKeys()).keys.map((k: any) => k.value)).toContain(key);
  });
});
