// Requests the official OpenAPI documents declare valid, and what front-end
// libraries send, that earlier versions refused: each is accepted and does
// what the service does with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { expectError, openWithClient, type OfficialClient, type Send } from './helpers.js';

let engine: Lantern;
let client: OfficialClient;
let send: Send;

const FILMS = [
  { objectID: 'a', title: 'alpha', genre: 'drama', year: 1990 },
  { objectID: 'b', title: 'alpha beta', genre: 'comedy', year: 2000 },
  { objectID: 'c', title: 'gamma', genre: 'horror', year: 2010 },
];

beforeAll(async () => {
  ({ engine, client, send } = await openWithClient());
  await send('PUT', '/1/indexes/films/settings', { attributesForFaceting: ['genre', 'afterDistinct(searchable(title))'] });
  await send('POST', '/1/indexes/films/batch', { requests: FILMS.map((body) => ({ action: 'addObject', body })) });
  await engine.waitForTasks();
});

afterAll(() => engine.close());

const ids = (body: { hits: Array<{ objectID: string }> }) => body.hits.map((h) => h.objectID).sort();

describe('settings and parameters of the spec', () => {
  it('attributesForFaceting takes afterDistinct() around searchable() or filterOnly(); the facet is searchable', async () => {
    expect((await send('GET', '/1/indexes/films/settings')).body.attributesForFaceting).toEqual(['genre', 'afterDistinct(searchable(title))']);
    const found = await client.searchForFacetValues({ indexName: 'films', facetName: 'title', searchForFacetValuesRequest: { facetQuery: 'gam' } });
    expect(found.facetHits.map((h) => h.value)).toEqual(['gamma']);
    expect((await send('PUT', '/1/indexes/films/settings', { attributesForFaceting: ['afterDistinct(filterOnly(year))'] })).status).toBe(200);
    expectError(await send('PUT', '/1/indexes/other/settings', { attributesForFaceting: ['searchable(afterDistinct(x))'] }), 400, /afterDistinct/);
    await send('PUT', '/1/indexes/films/settings', { attributesForFaceting: ['genre', 'afterDistinct(searchable(title))'] });
    await engine.waitForTasks();
  });

  it('facetFilters nested deeper than two levels: the deeper strings join the OR-group', async () => {
    const nested = await send('POST', '/1/indexes/films/query', { facetFilters: [[['genre:drama'], 'genre:horror']] });
    expect(nested.status).toBe(200);
    expect(ids(nested.body)).toEqual(['a', 'c']);
    const flat = await send('POST', '/1/indexes/films/query', { facetFilters: [['genre:drama', 'genre:horror']] });
    expect(ids(flat.body)).toEqual(ids(nested.body));
    expectError(await send('POST', '/1/indexes/films/query', { facetFilters: [[[1]]] }), 400, /facetFilters\[0\]\[0\]\[0\]: expected a string/);
  });

  it('a multi-query item may carry `extensions` (AI features Lantern has none of): accepted', async () => {
    const { results } = await client.search({ requests: [{ indexName: 'films', query: 'alpha', extensions: { queryCategorization: {} } } as never] });
    expect((results[0] as { nbHits: number }).nbHits).toBe(2);
  });

  it('a rule valid from a time on, or until a time: either bound may be left out', async () => {
    const now = Math.floor(Date.now() / 1000);
    const rule = (id: string, validity: object[]) => send('PUT', `/1/indexes/films/rules/${id}`, {
      conditions: [{ pattern: 'gamma', anchoring: 'contains' }], consequence: { userData: { id } }, validity,
    });
    expect((await rule('started', [{ from: now - 60 }])).status).toBe(200);
    expect((await rule('ended', [{ until: now - 60 }])).status).toBe(200);
    expect((await rule('not-yet', [{ from: now + 3600 }])).status).toBe(200);
    expectError(await rule('empty', [{}]), 400, /validity/);
    await engine.waitForTasks();
    const answer = await send('POST', '/1/indexes/films/query', { query: 'gamma' });
    expect(answer.body.userData).toEqual([{ id: 'started' }]);
  });

  it('synonym types as the spec spells them in camel case (the v4 client\'s oneWaySynonym)', async () => {
    const saved = await send('POST', '/1/indexes/films/synonyms/batch', [
      { objectID: 'ow', type: 'oneWaySynonym', input: 'delta', synonyms: ['gamma'] },
      { objectID: 'alt', type: 'altCorrection1', word: 'beta', corrections: ['betta'] },
    ]);
    expect(saved.status).toBe(200);
    await engine.waitForTasks();
    expect(ids((await send('POST', '/1/indexes/films/query', { query: 'delta' })).body)).toEqual(['c']);
    expect((await send('GET', '/1/indexes/films/synonyms/ow')).body.type).toBe('oneWaySynonym'); // answered as given
  });
});

describe('what dynamic widgets read', () => {
  it("renderingContent: the index's, with a rule's redirect laid over it (facetOrdering kept)", async () => {
    const facetOrdering = { facets: { order: ['genre'] }, values: { genre: { order: ['horror'], sortRemainingBy: 'count' } } };
    await send('PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['genre'], renderingContent: { facetOrdering } });
    await send('PUT', '/1/indexes/shop/1', { title: 'boots', genre: 'horror' });
    await engine.waitForTasks();
    await send('PUT', '/1/indexes/shop/rules/to-help', {
      conditions: [{ pattern: 'help', anchoring: 'is' }], consequence: { params: { renderingContent: { redirect: { url: 'https://example.com/help' } } } },
    });
    await engine.waitForTasks();
    expect((await send('POST', '/1/indexes/shop/query', { query: 'boots' })).body.renderingContent).toEqual({ facetOrdering });
    const redirected = await client.searchSingleIndex({ indexName: 'shop', searchParams: { query: 'help' } });
    expect(redirected.renderingContent).toEqual({ facetOrdering, redirect: { url: 'https://example.com/help' } });
  });
});

describe('insight events as libraries send them', () => {
  const event = (extra: object) => ({ eventType: 'click', eventName: 'Clicked', index: 'films', userToken: 'user-1', ...extra });

  it('URL-encoded filters (search-insights, InstantSearch with insights: true) are decoded', async () => {
    const pushed = await send('POST', '/1/events', { events: [event({ filters: ['genre%3Adrama', 'title:100%'] })] });
    expect(pushed.status).toBe(200);
    const stored = engine.analytics.store.events.at(-1)!;
    expect(stored.filters).toEqual(['genre:drama', 'title:100%']);
  });

  it("InstantSearch's own __start__ event is accepted and not recorded", async () => {
    const before = engine.analytics.store.events.length;
    const pushed = await send('POST', '/1/events', { events: [{ eventType: 'instantsearch', eventName: '__start__' }] });
    expect(pushed.body).toEqual({ status: 200, message: 'OK' });
    expect(engine.analytics.store.events.length).toBe(before);
  });

  it('prices as strings, "8$" included; a negative number is still refused', async () => {
    const conversion = (objectData: object[]) => ({
      eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Bought', index: 'films', userToken: 'user-1',
      objectIDs: ['a', 'b'], objectData, currency: 'EUR',
    });
    expect((await send('POST', '/1/events', { events: [conversion([{ price: '8$' }, { price: 9.5, quantity: 2 }])] })).status).toBe(200);
    expect(engine.analytics.store.events.at(-1)!.objectData).toEqual([
      { price: 8, quantity: undefined, discount: undefined }, { price: 9.5, quantity: 2, discount: undefined },
    ]);
    expectError(await send('POST', '/1/events', { events: [conversion([{ price: -1 }, { price: 1 }])] }), 422, /price/);
  });
});
