// Relevant sorting on virtual replicas (src/query/relevant-sort.ts): the
// hits relevant enough at relevancyStrictness, sorted by the replica's
// customRanking, with appliedRelevancyStrictness and nbSortedHits (what
// InstantSearch's relevantSort widget reads).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { openWithClient, type OfficialClient, type Send } from '../api/helpers.js';

let engine: Lantern;
let client: OfficialClient;
let send: Send;

// "red shoes": a, b, c match both words exactly; d has a typo; e matches one word only
const PRODUCTS = [
  { objectID: 'a', name: 'red shoes', price: 30 },
  { objectID: 'b', name: 'red running shoes', price: 90 },
  { objectID: 'c', name: 'shoes in red', price: 60 },
  { objectID: 'd', name: 'red shoos', price: 120 },
  { objectID: 'e', name: 'red hat', price: 200 },
  { objectID: 'f', name: 'blue hat', price: 10 },
];

beforeAll(async () => {
  ({ engine, client, send } = await openWithClient());
  await send('PUT', '/1/indexes/products/settings', {
    searchableAttributes: ['name'], replicas: ['virtual(products_price_desc)', 'products_price_standard'], removeWordsIfNoResults: 'none',
  });
  await engine.waitForTasks();
  await send('PUT', '/1/indexes/products_price_desc/settings', { customRanking: ['desc(price)'] });
  await send('PUT', '/1/indexes/products_price_standard/settings', { ranking: ['desc(price)', 'typo', 'words', 'proximity', 'attribute', 'exact'] });
  await send('POST', '/1/indexes/products/batch', { requests: PRODUCTS.map((body) => ({ action: 'addObject', body })) });
  await engine.waitForTasks();
});

afterAll(() => engine.close());

const search = (indexName: string, params: object) =>
  client.searchSingleIndex({ indexName, searchParams: { query: 'red shoes', optionalWords: ['red', 'shoes'], ...params } });
const ids = (r: { hits: Array<{ objectID: string }> }) => r.hits.map((h) => h.objectID);

describe('relevant sort on a virtual replica', () => {
  it('at the default strictness (100): only the hits as relevant as the best, by price', async () => {
    const r = await search('products_price_desc', {});
    expect(ids(r)).toEqual(['b', 'c', 'a']);
    expect(r).toMatchObject({ appliedRelevancyStrictness: 100, nbSortedHits: 3, nbHits: 5, nbPages: 1 });
  });

  it('a lower strictness lets less relevant hits in (a typo, a word missing), still by price', async () => {
    const r = await search('products_price_desc', { relevancyStrictness: 50 });
    expect(ids(r)).toEqual(['e', 'd', 'b', 'c', 'a']);
    expect(r).toMatchObject({ appliedRelevancyStrictness: 50, nbSortedHits: 5 });
  });

  it('strictness 0 sorts every hit; the setting is the default the parameter overrides', async () => {
    expect(ids(await search('products_price_desc', { relevancyStrictness: 0 }))).toEqual(['e', 'd', 'b', 'c', 'a']);
    await send('PUT', '/1/indexes/products_price_desc/settings', { relevancyStrictness: 0 });
    await engine.waitForTasks();
    expect((await search('products_price_desc', {})).nbSortedHits).toBe(5);
    expect((await search('products_price_desc', { relevancyStrictness: 100 })).nbSortedHits).toBe(3);
    await send('PUT', '/1/indexes/products_price_desc/settings', { relevancyStrictness: null });
    await engine.waitForTasks();
  });

  it('pages over the sorted hits', async () => {
    const first = await search('products_price_desc', { hitsPerPage: 2 });
    const second = await search('products_price_desc', { hitsPerPage: 2, page: 1 });
    expect([...ids(first), ...ids(second)]).toEqual(['b', 'c', 'a']);
    expect(first.nbPages).toBe(2);
  });

  it('the primary and a standard replica answer as before: no relevant sort', async () => {
    const primary = await search('products', {});
    expect(primary).not.toHaveProperty('appliedRelevancyStrictness');
    expect(primary.nbHits).toBe(5);
    const standard = await search('products_price_standard', {});
    expect(ids(standard)).toEqual(['e', 'd', 'b', 'c', 'a']);
    expect(standard).not.toHaveProperty('nbSortedHits');
  });
});
