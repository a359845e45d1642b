// Browse (POST and GET /1/indexes/{i}/browse): cursors over every record
// exactly once, filters and query, page size, response shape; and
// deleteByQuery (POST /1/indexes/{i}/deleteByQuery): exactly the matching
// records, filters required, invalid filters change nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/index.js';
import { expectError, ids, indexTalks, openEngine, sorted, type Send, type Talk } from './helpers.js';

let engine: Lantern;
let send: Send;
let talks: Talk[];

const PEOPLE = Array.from({ length: 60 }, (_, i) => ({
  objectID: `u${i}`,
  name: `person ${i}`,
  team: ['red', 'blue', 'green'][i % 3],
  age: 20 + i,
  active: i % 2 === 0,
  _tags: i % 5 === 0 ? ['vip'] : [],
  _geoloc: { lat: 48 + i / 100, lng: 2 },
}));

beforeAll(async () => {
  const opened = await openEngine();
  engine = opened.engine;
  send = opened.send;
  talks = await indexTalks(engine);
});

/** A fresh copy of PEOPLE in `indexName`. */
async function people(indexName: string): Promise<void> {
  const client = engine.client();
  await client.setSettings({ indexName, indexSettings: { attributesForFaceting: ['team', 'active'], searchableAttributes: ['name'], customRanking: ['asc(age)'] } });
  await client.saveObjects({ indexName, objects: PEOPLE });
  await engine.waitForTasks();
}

async function allIds(indexName: string): Promise<string[]> {
  const response = await send('POST', `/1/indexes/${indexName}/query`, { hitsPerPage: 1000, distinct: false, attributesToRetrieve: ['objectID'] });
  expect(response.status).toBe(200);
  return sorted(ids(response.body));
}

/** Follows the cursors; returns every page. */
async function browseAll(indexName: string, first: Record<string, unknown>, method: 'POST' | 'GET' = 'POST') {
  const pages: any[] = [];
  const call = async (params: Record<string, unknown>) => {
    if (method === 'POST') return send('POST', `/1/indexes/${indexName}/browse`, params);
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    return send('GET', `/1/indexes/${indexName}/browse?${qs}`);
  };
  let response = await call(first);
  for (let guard = 0; guard < 100; guard++) {
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    pages.push(response.body);
    if (response.body.cursor === undefined) break;
    expect(typeof response.body.cursor).toBe('string');
    response = await call({ cursor: response.body.cursor });
  }
  return pages;
}

describe('browse', () => {
  it('pages through every record exactly once; 1000 per page by default; no cursor at the end', async () => {
    const pages = await browseAll('talks', {});
    expect(pages.map((p) => p.hits.length)).toEqual([1000, 1000, 356]);
    expect(pages.slice(0, -1).every((p) => typeof p.cursor === 'string')).toBe(true);
    expect(pages[pages.length - 1]).not.toHaveProperty('cursor');
    const seen = pages.flatMap((p) => ids(p));
    expect(seen.length).toBe(talks.length);
    expect(new Set(seen).size).toBe(talks.length);
    expect(sorted(seen)).toEqual(sorted(talks.map((t) => t.objectID)));
    for (const page of pages) expect(page.nbHits).toBe(talks.length);
  });

  it('hits are the records, without highlighting', async () => {
    const [first] = await browseAll('talks', { hitsPerPage: 5 });
    const byId = new Map(talks.map((t) => [t.objectID, t]));
    for (const hit of first.hits) {
      expect(hit).toEqual(byId.get(hit.objectID));
      expect(hit).not.toHaveProperty('_highlightResult');
      expect(hit).not.toHaveProperty('_snippetResult');
    }
  });

  it('hitsPerPage sets the page size (at most 1000)', async () => {
    const pages = await browseAll('talks', { hitsPerPage: 500 });
    expect(pages.map((p) => p.hits.length)).toEqual([500, 500, 500, 500, 356]);
    expect(new Set(pages.flatMap((p) => ids(p))).size).toBe(talks.length);
    for (const page of pages) expect(page.hitsPerPage).toBe(500);
  });

  it('with filters: exactly the matching records', async () => {
    const pages = await browseAll('talks', { filters: 'tags:business', hitsPerPage: 100 });
    const expected = talks.filter((t) => t.tags.includes('business')).map((t) => t.objectID);
    expect(pages.length).toBe(4);
    expect(pages[0].nbHits).toBe(expected.length);
    const seen = pages.flatMap((p) => ids(p));
    expect(seen.length).toBe(expected.length);
    expect(sorted(seen)).toEqual(sorted(expected));
  });

  it('with facetFilters / numericFilters and a params string', async () => {
    const expected = talks.filter((t) => t.tags.includes('design') && t.viewed_count > 1000000).map((t) => t.objectID);
    const pages = await browseAll('talks', { params: `facetFilters=${encodeURIComponent('["tags:design"]')}&numericFilters=${encodeURIComponent('viewed_count>1000000')}&hitsPerPage=50` });
    expect(sorted(pages.flatMap((p) => ids(p)))).toEqual(sorted(expected));
  });

  it('with a query: the records a search (without distinct) matches', async () => {
    const search = await send('POST', '/1/indexes/talks/query', { query: 'design', distinct: false, hitsPerPage: 1000, attributesToRetrieve: ['objectID'] });
    const pages = await browseAll('talks', { query: 'design', hitsPerPage: 200 });
    const seen = pages.flatMap((p) => ids(p));
    expect(seen.length).toBe(search.body.nbHits);
    expect(sorted(seen)).toEqual(sorted(ids(search.body)));
  });

  it('distinct does not apply', async () => {
    const pages = await browseAll('talks', { query: 'design', distinct: true, hitsPerPage: 1000 });
    const distinct = await send('POST', '/1/indexes/talks/query', { query: 'design', distinct: true, hitsPerPage: 0 });
    const all = await send('POST', '/1/indexes/talks/query', { query: 'design', distinct: false, hitsPerPage: 0 });
    expect(distinct.body.nbHits).toBeLessThan(all.body.nbHits);
    expect(pages.flatMap((p) => ids(p)).length).toBe(all.body.nbHits);
  });

  it('forces advancedSyntax, ignorePlurals false, no optionalFilters; typoTolerance min/strict read as true', async () => {
    const indexName = 'browse_forced';
    const client = engine.client();
    await client.setSettings({ indexName, indexSettings: { searchableAttributes: ['name'], attributesForFaceting: ['name'] } });
    await client.saveObjects({ indexName, objects: [
      { objectID: 'a', name: 'elephant house' }, { objectID: 'b', name: 'elephbnt house' },
      { objectID: 'c', name: 'elephants' }, { objectID: 'd', name: 'house' }, { objectID: 'e', name: 'elepbbnt' },
    ] });
    await engine.waitForTasks();
    const browsed = async (params: Record<string, unknown>) => sorted((await browseAll(indexName, params)).flatMap((p) => ids(p)));
    const searched = async (params: Record<string, unknown>) =>
      sorted(ids((await send('POST', `/1/indexes/${indexName}/query`, { hitsPerPage: 100, ...params })).body));
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ query: 'elephant', typoTolerance: 'min' }, { typoTolerance: true }],
      [{ query: 'elephant', typoTolerance: 'strict' }, { typoTolerance: true }],
      [{ query: 'house -elephant', advancedSyntax: true }, { advancedSyntax: false }],
      [{ query: 'elephants', queryType: 'prefixNone', typoTolerance: false, ignorePlurals: true }, { ignorePlurals: false }],
    ];
    for (const [params, forced] of cases) {
      const expected = await searched({ ...params, ...forced });
      expect(await searched(params), JSON.stringify(params)).not.toEqual(expected);
      expect(await browsed(params), JSON.stringify(params)).toEqual(expected);
    }
    // optionalFilters neither filter nor order a browse
    expect(await browsed({ optionalFilters: ['name:house'] })).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('orders by custom ranking only', async () => {
    const pages = await browseAll('talks', { query: 'design', hitsPerPage: 1000 });
    const dates = pages.flatMap((p) => p.hits.map((h: Talk) => h.date));
    for (let i = 1; i < dates.length; i++) expect(dates[i]).toBeLessThanOrEqual(dates[i - 1]);
  });

  it('attributesToRetrieve applies', async () => {
    const [page] = await browseAll('talks', { filters: 'tags:business', attributesToRetrieve: ['name'], hitsPerPage: 1000 });
    for (const hit of page.hits) expect(Object.keys(hit).sort()).toEqual(['name', 'objectID']);
  });

  it('GET with the parameters in the query string', async () => {
    const pages = await browseAll('talks', { filters: 'tags:business', hitsPerPage: 100 }, 'GET');
    const expected = talks.filter((t) => t.tags.includes('business')).map((t) => t.objectID);
    expect(pages.length).toBe(4);
    expect(sorted(pages.flatMap((p) => ids(p)))).toEqual(sorted(expected));
    const all = await browseAll('talks', {}, 'GET');
    expect(all.flatMap((p) => ids(p)).length).toBe(talks.length);
  });

  it('a cursor from POST continues with GET and the other way round', async () => {
    const first = await send('POST', '/1/indexes/talks/browse', { hitsPerPage: 1000 });
    const second = await send('GET', `/1/indexes/talks/browse?cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(second.status).toBe(200);
    const third = await send('POST', '/1/indexes/talks/browse', { cursor: second.body.cursor });
    expect(third.status).toBe(200);
    const seen = [...ids(first.body), ...ids(second.body), ...ids(third.body)];
    expect(new Set(seen).size).toBe(talks.length);
    expect(third.body).not.toHaveProperty('cursor');
  });

  it('a small result fits one page, without cursor', async () => {
    const response = await send('POST', '/1/indexes/talks/browse', { filters: 'speakers:"Adam Grant"' });
    expect(response.status).toBe(200);
    expect(sorted(ids(response.body))).toEqual(sorted(talks.filter((t) => t.speakers.includes('Adam Grant')).map((t) => t.objectID)));
    expect(response.body).not.toHaveProperty('cursor');
  });

  it('response shape: hits, nbHits, page, nbPages, hitsPerPage, query, params, processingTimeMS', async () => {
    const response = await send('POST', '/1/indexes/talks/browse', { query: 'design', hitsPerPage: 10 });
    expect(response.body).toMatchObject({
      hits: expect.any(Array), nbHits: expect.any(Number), page: 0, nbPages: expect.any(Number), hitsPerPage: 10,
      query: 'design', params: expect.any(String), processingTimeMS: expect.any(Number), cursor: expect.any(String),
    });
    expect(response.body).not.toHaveProperty('facets');
  });

  it('a malformed cursor is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/browse', { cursor: 'not-a-cursor' }), 400);
    const good = await send('POST', '/1/indexes/talks/browse', {});
    expectError(await send('POST', '/1/indexes/talks/browse', { cursor: `${good.body.cursor}x` }), 400);
  });

  it('GET: a malformed cursor in the query string is 400', async () => {
    expectError(await send('GET', '/1/indexes/talks/browse?cursor=xyz'), 400);
  });

  it('an unknown index is 404', async () => {
    expectError(await send('POST', '/1/indexes/no_such_index/browse', {}), 404);
    expectError(await send('GET', '/1/indexes/no_such_index/browse'), 404);
  });

  it('an invalid filter is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/browse', { filters: '(tags:business' }), 400);
  });
});

describe('deleteByQuery', () => {
  const deleteBy = (index: string, body: unknown) => send('POST', `/1/indexes/${index}/deleteByQuery`, body);

  it('deletes exactly the records matching filters', async () => {
    await people('del_filters');
    const response = await deleteBy('del_filters', { filters: 'team:red AND age < 50' });
    expect(response.status).toBe(200);
    // the official spec's answer, and nothing else (the older documents said deletedAt)
    expect(response.body).toEqual({ taskID: expect.any(Number), updatedAt: expect.any(String) });
    expect(Number.isNaN(Date.parse(response.body.updatedAt))).toBe(false);
    await engine.waitForTasks();
    const expected = PEOPLE.filter((p) => !(p.team === 'red' && p.age < 50)).map((p) => p.objectID);
    expect(await allIds('del_filters')).toEqual(sorted(expected));
    const none = await send('POST', '/1/indexes/del_filters/query', { filters: 'team:red AND age < 50', hitsPerPage: 0 });
    expect(none.body.nbHits).toBe(0);
  });

  it('its task is published once done', async () => {
    await people('del_task');
    const response = await deleteBy('del_task', { filters: 'team:blue' });
    await engine.waitForTasks();
    const task = await send('GET', `/1/indexes/del_task/task/${response.body.taskID}`);
    expect(task.status).toBe(200);
    expect(task.body.status).toBe('published');
  });

  it('facetFilters, numericFilters, tagFilters and a params string', async () => {
    await people('del_forms');
    await deleteBy('del_forms', { facetFilters: [['team:red', 'team:blue']], numericFilters: ['age>=60'] });
    await engine.waitForTasks();
    let remaining = PEOPLE.filter((p) => !(['red', 'blue'].includes(p.team) && p.age >= 60));
    expect(await allIds('del_forms')).toEqual(sorted(remaining.map((p) => p.objectID)));

    await deleteBy('del_forms', { tagFilters: ['vip'] });
    await engine.waitForTasks();
    remaining = remaining.filter((p) => !p._tags.includes('vip'));
    expect(await allIds('del_forms')).toEqual(sorted(remaining.map((p) => p.objectID)));

    await deleteBy('del_forms', { params: `filters=${encodeURIComponent('active:false AND age < 40')}` });
    await engine.waitForTasks();
    remaining = remaining.filter((p) => !(p.active === false && p.age < 40));
    expect(await allIds('del_forms')).toEqual(sorted(remaining.map((p) => p.objectID)));
  });

  it('a geo filter (aroundLatLng + aroundRadius)', async () => {
    await people('del_geo');
    await deleteBy('del_geo', { aroundLatLng: '48,2', aroundRadius: 25000 });
    await engine.waitForTasks();
    // 0.01° of latitude ≈ 1.11 km: u0..u22 lie within 25 km
    const remaining = PEOPLE.filter((p) => (p._geoloc.lat - 48) * 111195 > 25000).map((p) => p.objectID);
    expect(await allIds('del_geo')).toEqual(sorted(remaining));
  });

  it('the query is not a filter: it is ignored, with the filters applying', async () => {
    await people('del_query');
    const response = await deleteBy('del_query', { query: 'person 1', filters: 'team:green' });
    expect(response.status).toBe(200);
    await engine.waitForTasks();
    expect(await allIds('del_query')).toEqual(sorted(PEOPLE.filter((p) => p.team !== 'green').map((p) => p.objectID)));
  });

  it('without filters is 400 and deletes nothing', async () => {
    await people('del_none');
    expectError(await deleteBy('del_none', {}), 400);
    expectError(await deleteBy('del_none', { query: 'person' }), 400);
    expectError(await deleteBy('del_none', { filters: '' }), 400);
    await engine.waitForTasks();
    expect((await allIds('del_none')).length).toBe(PEOPLE.length);
  });

  it('an invalid filter is 400 and deletes nothing', async () => {
    await people('del_bad');
    expectError(await deleteBy('del_bad', { filters: 'team:red AND (' }), 400);
    expectError(await deleteBy('del_bad', { filters: 'team:red OR age > 3' }), 400);
    expectError(await deleteBy('del_bad', { numericFilters: ['age>old'] }), 400);
    expectError(await deleteBy('del_bad', { facetFilters: [5] }), 400);
    await engine.waitForTasks();
    expect((await allIds('del_bad')).length).toBe(PEOPLE.length);
  });

  it('on TED: deletes the talks tagged business, nothing else', async () => {
    await indexTalks(engine, 'talks_del');
    const response = await deleteBy('talks_del', { filters: 'tags:business' });
    expect(response.status).toBe(200);
    await engine.waitForTasks();
    const left = await send('POST', '/1/indexes/talks_del/query', { distinct: false, hitsPerPage: 0 });
    expect(left.body.nbHits).toBe(talks.length - 333);
    const business = await send('POST', '/1/indexes/talks_del/query', { filters: 'tags:business', distinct: false, hitsPerPage: 0 });
    expect(business.body.nbHits).toBe(0);
    const pages = await browseAll('talks_del', {});
    expect(sorted(pages.flatMap((p) => ids(p)))).toEqual(sorted(talks.filter((t) => !t.tags.includes('business')).map((t) => t.objectID)));
  });

  it('through the typed client', async () => {
    await people('del_client');
    const client = engine.client();
    const response = await client.deleteBy({ indexName: 'del_client', deleteByParams: { filters: 'team:blue' } });
    await client.waitForTask({ indexName: 'del_client', taskID: response.taskID });
    expect(await allIds('del_client')).toEqual(sorted(PEOPLE.filter((p) => p.team !== 'blue').map((p) => p.objectID)));
  });
});

