// Faceting in search responses: which facets come back (`*`, a bare string,
// an array, filterOnly()), their counts against a JS computation,
// maxValuesPerFacet, sortFacetValuesBy, facets_stats, hitsPerPage 0 and
// renderingContent.
import { beforeAll, describe, expect, it } from 'vitest';
import { countFacet, expectError, indexTalks, openEngine, searcher, type Send, type Talk } from './helpers.js';

let send: Send;
let talks: Talk[];
let engine: Awaited<ReturnType<typeof openEngine>>['engine'];

const FRUITS = [
  { objectID: 'f1', name: 'one', fruit: 'cherry', size: 3, secret: 'a', color: 'red' },
  { objectID: 'f2', name: 'two', fruit: 'cherry', size: 5, secret: 'a', color: 'red' },
  { objectID: 'f3', name: 'three', fruit: 'banana', size: 1, secret: 'b', color: 'yellow' },
  { objectID: 'f4', name: 'four', fruit: 'apple', size: 2, secret: 'b', color: 'green' },
  { objectID: 'f5', name: 'five', fruit: 'apple', size: 8, secret: 'c', color: 'red' },
  { objectID: 'f6', name: 'six', fruit: 'apple', size: 4, secret: 'c', color: 'green' },
  { objectID: 'f7', name: 'seven', fruit: 'date', size: 6, secret: 'd', color: 'brown' },
];
const RENDERING = { facetOrdering: { facets: { order: ['fruit', 'color'] }, values: { fruit: { sortRemainingBy: 'alpha' as const } } } };

beforeAll(async () => {
  const opened = await openEngine();
  send = opened.send;
  engine = opened.engine;
  talks = await indexTalks(opened.engine);
  const client = opened.engine.client();
  await client.setSettings({
    indexName: 'fruits',
    indexSettings: {
      searchableAttributes: ['name'],
      attributesForFaceting: ['fruit', 'size', 'filterOnly(secret)', 'searchable(color)'],
      renderingContent: RENDERING,
    },
  });
  await client.saveObjects({ indexName: 'fruits', objects: FRUITS });
  await opened.engine.waitForTasks();
});

const search = (params: Record<string, unknown>, index?: string) => searcher(send, 'talks')(params, index);

const business = () => talks.filter((t) => t.tags.includes('business'));
const DECLARED = ['date', 'duration_range', 'tags', 'speakers', 'event_name', 'languages'];

describe('which facets are returned', () => {
  it('facets: ["*"] returns every declared facet', async () => {
    const response = await search({ query: '', facets: ['*'], hitsPerPage: 0 });
    expect(Object.keys(response.facets).sort()).toEqual([...DECLARED].sort());
  });

  it('facets: "*" as a bare string', async () => {
    const response = await search({ query: '', facets: '*', hitsPerPage: 0 });
    expect(Object.keys(response.facets).sort()).toEqual([...DECLARED].sort());
  });

  it('a bare attribute name and an array', async () => {
    expect(Object.keys((await search({ facets: 'tags', hitsPerPage: 0 })).facets)).toEqual(['tags']);
    expect(Object.keys((await search({ facets: ['tags', 'speakers'], hitsPerPage: 0 })).facets).sort()).toEqual(['speakers', 'tags']);
  });

  it('in a params string: comma-separated or JSON', async () => {
    const comma = await search({ params: 'facets=tags,speakers&hitsPerPage=0' });
    const json = await search({ params: `facets=${encodeURIComponent('["tags","speakers"]')}&hitsPerPage=0` });
    expect(Object.keys(comma.facets).sort()).toEqual(['speakers', 'tags']);
    expect(json.facets).toEqual(comma.facets);
  });

  it('no facets parameter, no facets in the response', async () => {
    const response = await search({ query: 'design' });
    expect(response).not.toHaveProperty('facets');
    expect(response).not.toHaveProperty('facets_stats');
  });

  it('a facet with no values among the matches is left out, and so are its stats (issue #49)', async () => {
    const client = engine.client();
    await client.setSettings({ indexName: 'shop', indexSettings: { attributesForFaceting: ['brand', 'kind', 'weight'] } });
    await client.saveObjects({ indexName: 'shop', objects: [{ objectID: 's1', name: 'kettle', kind: 'tool', weight: 3 }] });
    await engine.waitForTasks();
    const some = await search({ query: '', facets: ['brand', 'kind', 'weight'] }, 'shop');
    expect(some.facets).toEqual({ kind: { tool: 1 }, weight: { 3: 1 } });
    expect(Object.keys(some.facets_stats)).toEqual(['weight']);
    const none = await search({ query: 'nothing-matches-this', facets: ['brand', 'kind', 'weight'] }, 'shop');
    expect(none.nbHits).toBe(0);
    expect(none.facets).toEqual({});
    expect(none).not.toHaveProperty('facets_stats');
  });

  it('an attribute not declared in attributesForFaceting is not returned', async () => {
    const response = await search({ facets: ['tags', 'viewed_count'], hitsPerPage: 0 });
    expect(response.facets).toHaveProperty('tags');
    expect(response.facets).not.toHaveProperty('viewed_count');
  });

  it('filterOnly() facets are not returned, asked for by name or with *', async () => {
    const star = await search({ facets: '*', hitsPerPage: 0 }, 'fruits');
    expect(Object.keys(star.facets).sort()).toEqual(['color', 'fruit', 'size']);
    const named = await search({ facets: ['secret', 'fruit'], hitsPerPage: 0 }, 'fruits');
    expect(named.facets).not.toHaveProperty('secret');
    expect(named.facets).toHaveProperty('fruit');
  });

  it('filterOnly() facets still filter', async () => {
    const response = await search({ filters: 'secret:c', facets: ['fruit'] }, 'fruits');
    expect(response.nbHits).toBe(2);
    expect(response.facets.fruit).toEqual({ apple: 2 });
  });
});

describe('counts', () => {
  it('equal a JS computation for a filtered query (every value)', async () => {
    const response = await search({ query: '', filters: 'tags:business', facets: ['tags', 'duration_range', 'speakers'], maxValuesPerFacet: 1000, hitsPerPage: 0 });
    expect(response.facets.tags).toEqual(countFacet(business(), 'tags'));
    expect(response.facets.duration_range).toEqual(countFacet(business(), 'duration_range'));
    expect(response.facets.speakers).toEqual(countFacet(business(), 'speakers'));
    expect(response.exhaustiveFacetsCount).toBe(true);
  });

  it('equal a JS computation over the hits of a text query', async () => {
    const all = await search({ query: 'design', distinct: false, hitsPerPage: 1000, facets: ['tags', 'event_name'], maxValuesPerFacet: 1000 });
    expect(all.hits.length).toBe(all.nbHits);
    expect(all.facets.tags).toEqual(countFacet(all.hits, 'tags'));
    expect(all.facets.event_name).toEqual(countFacet(all.hits, 'event_name'));
  });

  it('with OR facetFilters (disjunctive refinement)', async () => {
    const selected = talks.filter((t) => t.tags.includes('business') || t.tags.includes('design'));
    const response = await search({ facetFilters: [['tags:business', 'tags:design']], facets: ['duration_range', 'tags'], maxValuesPerFacet: 1000, hitsPerPage: 0 });
    expect(response.facets.duration_range).toEqual(countFacet(selected, 'duration_range'));
    expect(response.facets.tags).toEqual(countFacet(selected, 'tags'));
  });

  it('count the records before distinct (facetingAfterDistinct false)', async () => {
    // the fixture has distinct: true on speakers; facet counts still count every matching talk
    const response = await search({ query: '', facets: ['tags'], maxValuesPerFacet: 1000, hitsPerPage: 0 });
    expect(response.facets.tags.business).toBe(333);
    expect(response.facets.tags).toEqual(countFacet(talks, 'tags'));
  });

  it('nested and numeric facet values are counted as strings', async () => {
    const response = await search({ facets: ['size', 'fruit'] }, 'fruits');
    expect(response.facets.fruit).toEqual({ apple: 3, cherry: 2, banana: 1, date: 1 });
    expect(response.facets.size).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 8: 1 });
  });
});

describe('maxValuesPerFacet and sortFacetValuesBy', () => {
  it('maxValuesPerFacet limits the values to the most frequent ones', async () => {
    const counts = countFacet(talks, 'tags');
    const response = await search({ facets: ['tags'], maxValuesPerFacet: 5, hitsPerPage: 0 });
    const returned = Object.entries(response.facets.tags as Record<string, number>);
    expect(returned.length).toBe(5);
    const fifth = Object.values(counts).sort((a, b) => b - a)[4];
    for (const [value, n] of returned) {
      expect(n).toBe(counts[value]);
      expect(n).toBeGreaterThanOrEqual(fifth);
    }
    expect(returned.map(([, n]) => n)).toEqual(Object.values(counts).sort((a, b) => b - a).slice(0, 5));
  });

  it('the index setting applies by default (100 on the fixture)', async () => {
    expect(Object.keys(countFacet(talks, 'tags')).length).toBeGreaterThan(100);
    const response = await search({ facets: ['tags'], hitsPerPage: 0 });
    expect(Object.keys(response.facets.tags).length).toBe(100);
  });

  it('maxValuesPerFacet above 1000 is clamped to 1000, not rejected (parameter and setting)', async () => {
    const tags = Object.keys(countFacet(talks, 'tags')).length;
    const at1000 = await search({ facets: ['tags'], hitsPerPage: 0, maxValuesPerFacet: 1000 });
    expect(Object.keys(at1000.facets.tags).length).toBe(Math.min(tags, 1000));
    for (const maxValuesPerFacet of [1001, 5000, '2000']) {
      const response = await search({ facets: ['tags'], hitsPerPage: 0, maxValuesPerFacet });
      expect(response.facets.tags).toEqual(at1000.facets.tags);
      expect(response.params).toContain('maxValuesPerFacet=1000');
    }
    expect((await send('PUT', '/1/indexes/clamped/settings', { maxValuesPerFacet: 5000 })).status).toBe(200);
    await engine.waitForTasks();
    expect((await send('GET', '/1/indexes/clamped/settings')).body.maxValuesPerFacet).toBe(1000);
    expectError(await send('POST', '/1/indexes/talks/query', { facets: ['tags'], maxValuesPerFacet: -1 }), 400);
  });

  it('sortFacetValuesBy count (default): decreasing counts', async () => {
    for (const params of [{}, { sortFacetValuesBy: 'count' }]) {
      const response = await search({ facets: ['tags', 'speakers'], hitsPerPage: 0, ...params });
      for (const facet of ['tags', 'speakers']) {
        const counts = Object.values(response.facets[facet] as Record<string, number>);
        for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThanOrEqual(counts[i - 1]);
      }
    }
  });

  it('sortFacetValuesBy alpha: values in alphabetical order, same counts', async () => {
    const alpha = await search({ facets: ['fruit'], sortFacetValuesBy: 'alpha' }, 'fruits');
    expect(Object.entries(alpha.facets.fruit)).toEqual([['apple', 3], ['banana', 1], ['cherry', 2], ['date', 1]]);
    const count = await search({ facets: ['fruit'] }, 'fruits');
    expect(Object.entries(count.facets.fruit)).toEqual([['apple', 3], ['cherry', 2], ['banana', 1], ['date', 1]]);
  });

  it('sortFacetValuesBy alpha on TED tags', async () => {
    const response = await search({ query: '', filters: 'tags:business', facets: ['tags'], maxValuesPerFacet: 1000, sortFacetValuesBy: 'alpha', hitsPerPage: 0 });
    const keys = Object.keys(response.facets.tags);
    expect(keys.length).toBe(Object.keys(countFacet(business(), 'tags')).length);
    const lower = keys.map((k) => k.toLowerCase());
    const inOrder = keys.every((k, i) => i === 0 || keys[i - 1] <= k) || lower.every((k, i) => i === 0 || lower[i - 1] <= k);
    expect(inOrder).toBe(true);
    expect(response.facets.tags).toEqual(countFacet(business(), 'tags'));
  });

  it('sortFacetValuesBy with an unknown value is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/query', { facets: ['tags'], sortFacetValuesBy: 'random' }), 400);
  });
});

describe('facets_stats', () => {
  const stats = (values: number[]) => ({
    min: Math.min(...values), max: Math.max(...values), sum: values.reduce((a, b) => a + b, 0),
    avg: values.reduce((a, b) => a + b, 0) / values.length,
  });

  it('min, max, avg, sum of numeric facets over the matching records', async () => {
    const response = await search({ query: '', filters: 'tags:business', facets: ['date', 'duration_range', 'tags'], hitsPerPage: 0 });
    for (const facet of ['date', 'duration_range'] as const) {
      const expected = stats(business().map((t) => t[facet]));
      const got = response.facets_stats[facet];
      expect(got.min).toBe(expected.min);
      expect(got.max).toBe(expected.max);
      expect(got.sum).toBe(expected.sum);
      expect(got.avg).toBeCloseTo(expected.avg, 3);
    }
    expect(response.facets_stats).not.toHaveProperty('tags');
  });

  it('only for the requested facets', async () => {
    const response = await search({ query: '', facets: ['duration_range'], hitsPerPage: 0 });
    expect(Object.keys(response.facets_stats)).toEqual(['duration_range']);
    expect(response.facets_stats.duration_range).toMatchObject({ min: 0, max: 4 });
  });

  it('on a small index', async () => {
    const response = await search({ filters: 'fruit:apple OR fruit:cherry', facets: ['size'] }, 'fruits');
    expect(response.facets_stats.size).toEqual({ min: 2, max: 8, avg: (3 + 5 + 2 + 8 + 4) / 5, sum: 22 });
  });
});

describe('InstantSearch patterns', () => {
  it('hitsPerPage 0 returns no hits but nbHits and facets', async () => {
    const response = await search({ query: '', filters: 'tags:business', facets: ['tags'], hitsPerPage: 0 });
    expect(response.hits).toEqual([]);
    expect(response.nbHits).toBeGreaterThan(0);
    expect(response.facets.tags.business).toBe(333);
  });

  it('a multi-query with params strings, facets and hitsPerPage 0', async () => {
    const tag = encodeURIComponent(JSON.stringify([['tags:business']]));
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [
        { indexName: 'talks', params: `query=&hitsPerPage=20&facets=${encodeURIComponent('["tags","duration_range"]')}&facetFilters=${tag}&highlightPreTag=__ais-highlight__&highlightPostTag=__%2Fais-highlight__&distinct=false` },
        { indexName: 'talks', params: 'query=&hitsPerPage=0&page=0&facets=tags&analytics=false&clickAnalytics=false' },
      ],
    });
    expect(response.status).toBe(200);
    const [main, disjunctive] = response.body.results;
    expect(main.nbHits).toBe(333);
    expect(main.hits.length).toBe(20);
    expect(main.facets.duration_range).toEqual(countFacet(business(), 'duration_range'));
    expect(disjunctive.hits).toEqual([]);
    expect(disjunctive.facets.tags.business).toBe(333);
    expect(disjunctive.facets.tags.design).toBe(countFacet(talks, 'tags').design);
  });
});

describe('renderingContent', () => {
  it('the index setting is echoed in the search response', async () => {
    const response = await search({ query: '', facets: ['fruit'] }, 'fruits');
    expect(response.renderingContent).toEqual(RENDERING);
  });

  it('a renderingContent search parameter overrides the setting', async () => {
    const override = { facetOrdering: { facets: { order: ['color'] } } };
    const response = await search({ query: '', renderingContent: override }, 'fruits');
    expect(response.renderingContent).toEqual(override);
  });

  it('{} when neither sets it, as the service answers', async () => {
    const response = await search({ query: 'design' });
    expect(response.renderingContent).toEqual({});
  });
});
