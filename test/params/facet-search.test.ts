// Facet value search (POST /1/indexes/{i}/facets/{facet}/query and
// multi-query `type: "facet"` items): prefix and typo matching, diacritics,
// highlighting, counts honouring the other parameters, ordering,
// maxFacetHits bounds and the searchable() requirement.
import { beforeAll, describe, expect, it } from 'vitest';
import { countFacet, expectError, fold, indexTalks, openEngine, type Send, type Talk } from './helpers.js';

let send: Send;
let talks: Talk[];

beforeAll(async () => {
  const opened = await openEngine();
  send = opened.send;
  talks = await indexTalks(opened.engine);
  const client = opened.engine.client();
  await client.setSettings({ indexName: 'colors', indexSettings: { attributesForFaceting: ['searchable(color)'], maxFacetHits: 2 } });
  await client.saveObjects({
    indexName: 'colors',
    objects: ['red', 'red', 'red', 'green', 'green', 'yellow', 'brown', 'blue', 'blue', 'blue', 'blue'].map((color, i) => ({ objectID: `c${i}`, color })),
  });
  await opened.engine.waitForTasks();
});

interface FacetHit { value: string; highlighted: string; count: number }

async function facetSearch(facet: string, body: Record<string, unknown>, index = 'talks'): Promise<FacetHit[]> {
  const response = await send('POST', `/1/indexes/${index}/facets/${encodeURIComponent(facet)}/query`, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body).toMatchObject({ facetHits: expect.any(Array), exhaustiveFacetsCount: expect.any(Boolean), processingTimeMS: expect.any(Number) });
  return response.body.facetHits;
}

const tagCounts = () => countFacet(talks, 'tags');
const values = (hits: FacetHit[]) => hits.map((h) => h.value);
const stripTags = (s: string, pre = '<em>', post = '</em>') => s.split(pre).join('').split(post).join('');

function expectSortedByCount(hits: FacetHit[]): void {
  for (let i = 1; i < hits.length; i++) expect(hits[i].count).toBeLessThanOrEqual(hits[i - 1].count);
}

describe('matching', () => {
  it('a prefix matches the start of a value, highlighted with <em>', async () => {
    const hits = await facetSearch('tags', { facetQuery: 'psych' });
    const psychology = hits.find((h) => h.value === 'psychology');
    expect(psychology).toEqual({ value: 'psychology', highlighted: '<em>psych</em>ology', count: tagCounts().psychology });
    expect(hits[0].value).toBe('psychology');
  });

  it('a prefix matches any word of a value', async () => {
    const hits = await facetSearch('tags', { facetQuery: 'bus' });
    const byValue = Object.fromEntries(hits.map((h) => [h.value, h]));
    expect(byValue.business).toMatchObject({ highlighted: '<em>bus</em>iness', count: tagCounts().business });
    expect(byValue['women in business']).toMatchObject({ highlighted: 'women in <em>bus</em>iness', count: tagCounts()['women in business'] });
    expect(hits[0].value).toBe('business');
  });

  it('several words: each must match, the last as a prefix', async () => {
    const hits = await facetSearch('tags', { facetQuery: 'global iss' });
    expect(hits[0]).toEqual({ value: 'global issues', highlighted: '<em>global</em> <em>iss</em>ues', count: tagCounts()['global issues'] });
    for (const hit of hits) expect(fold(hit.value)).toMatch(/glob/);
  });

  it('a typo: "psycology" finds psychology (minWordSizefor1Typo 3 on the fixture)', async () => {
    const hits = await facetSearch('tags', { facetQuery: 'psycology' });
    expect(hits[0].value).toBe('psychology');
    expect(hits[0].count).toBe(tagCounts().psychology);
    expect(hits[0].highlighted).toContain('<em>');
    expect(stripTags(hits[0].highlighted)).toBe('psychology');
  });

  it('no typo allowed when typoTolerance is false', async () => {
    expect(values(await facetSearch('tags', { facetQuery: 'psycology', typoTolerance: false }))).not.toContain('psychology');
  });

  it('case and diacritics are folded; the highlight keeps the original characters', async () => {
    const upper = await facetSearch('tags', { facetQuery: 'PSYCH' });
    expect(upper[0]).toMatchObject({ value: 'psychology', highlighted: '<em>psych</em>ology' });
    const halla = await facetSearch('speakers', { facetQuery: 'tomasdottir' });
    expect(halla).toEqual([{ value: 'Halla Tómasdóttir', highlighted: 'Halla <em>Tómasdóttir</em>', count: 2 }]);
    const brene = await facetSearch('speakers', { facetQuery: 'brené' });
    expect(brene.find((h) => h.value === 'Brené Brown')).toMatchObject({ highlighted: '<em>Brené</em> Brown', count: 2 });
    const plain = await facetSearch('speakers', { facetQuery: 'brene' });
    expect(plain.find((h) => h.value === 'Brené Brown')).toMatchObject({ highlighted: '<em>Brené</em> Brown', count: 2 });
  });

  it('highlighted is the value with the matched part wrapped, nothing else changed', async () => {
    for (const facetQuery of ['soc', 'tech', 'ted']) {
      const hits = await facetSearch('tags', { facetQuery });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(stripTags(hit.highlighted)).toBe(hit.value);
        expect(hit.highlighted).toMatch(/<em>[^<]+<\/em>/);
      }
    }
  });

  it('custom highlightPreTag / highlightPostTag', async () => {
    const hits = await facetSearch('tags', { facetQuery: 'psych', highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__' });
    expect(hits[0].highlighted).toBe('__ais-highlight__psych__/ais-highlight__ology');
  });

  it('no match, no hits', async () => {
    expect(await facetSearch('tags', { facetQuery: 'zzqqxxyy' })).toEqual([]);
  });

  it('an empty facetQuery lists the most frequent values, unhighlighted', async () => {
    const hits = await facetSearch('tags', {});
    expect(hits.length).toBe(10);
    const expected = Object.entries(tagCounts()).sort((a, b) => b[1] - a[1]).slice(0, 10);
    expect(hits.map((h) => h.count)).toEqual(expected.map(([, n]) => n));
    for (const hit of hits) {
      expect(hit.highlighted).toBe(hit.value);
      expect(hit.count).toBe(tagCounts()[hit.value]);
    }
  });
});

describe('counts and order', () => {
  it('sorted by decreasing count', async () => {
    for (const [facet, facetQuery] of [['tags', 'soc'], ['tags', 'e'], ['speakers', 'hans'], ['event_name', 'tedx']]) {
      const hits = await facetSearch(facet, { facetQuery, maxFacetHits: 100 });
      expect(hits.length).toBeGreaterThan(1);
      expectSortedByCount(hits);
    }
  });

  it('sortFacetValuesBy alpha sorts the facet hits alphabetically', async () => {
    const hits = await facetSearch('color', { facetQuery: '', maxFacetHits: 10, sortFacetValuesBy: 'alpha' }, 'colors');
    expect(values(hits)).toEqual(['blue', 'brown', 'green', 'red', 'yellow']);
    const byCount = await facetSearch('color', { facetQuery: 'b', maxFacetHits: 10 }, 'colors');
    expect(byCount.map((h) => [h.value, h.count])).toEqual([['blue', 4], ['brown', 1]]);
  });

  it('counts every matching record, before distinct', async () => {
    const hits = await facetSearch('speakers', { facetQuery: 'hans rosling' });
    expect(hits[0]).toMatchObject({ value: 'Hans Rosling', count: talks.filter((t) => t.speakers.includes('Hans Rosling')).length });
  });

  it('counts honour filters', async () => {
    const business = talks.filter((t) => t.tags.includes('business'));
    const expected = countFacet(business, 'tags');
    for (const body of [
      { facetQuery: 'soc', filters: 'tags:business', maxFacetHits: 100 },
      { facetQuery: 'soc', params: `filters=${encodeURIComponent('tags:business')}&maxFacetHits=100` },
      { facetQuery: 'soc', facetFilters: ['tags:business'], maxFacetHits: 100 },
    ]) {
      const hits = await facetSearch('tags', body);
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(hit.count).toBe(expected[hit.value]);
      expectSortedByCount(hits);
    }
  });

  it('counts honour the query', async () => {
    const search = await send('POST', '/1/indexes/talks/query', { query: 'leadership', distinct: false, hitsPerPage: 1000, attributesToRetrieve: ['tags'] });
    expect(search.status).toBe(200);
    expect(search.body.hits.length).toBe(search.body.nbHits);
    const expected = countFacet(search.body.hits, 'tags');
    const hits = await facetSearch('tags', { facetQuery: 'soc', query: 'leadership', maxFacetHits: 100 });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.count).toBe(expected[hit.value]);
    // a value absent from the query's records is not listed
    for (const hit of hits) expect(expected[hit.value]).toBeGreaterThan(0);
  });

  it('a value that no selected record has is left out', async () => {
    const hits = await facetSearch('tags', { facetQuery: 'business', filters: 'NOT tags:business AND NOT tags:"women in business"' });
    expect(values(hits)).not.toContain('business');
  });
});

describe('maxFacetHits', () => {
  it('defaults to 10', async () => {
    const hits = await facetSearch('tags', { facetQuery: 'e' });
    expect(hits.length).toBe(10);
  });

  it('1..100 limits the number of hits', async () => {
    expect((await facetSearch('tags', { facetQuery: 'e', maxFacetHits: 1 })).length).toBe(1);
    expect((await facetSearch('tags', { facetQuery: 'e', maxFacetHits: 3 })).length).toBe(3);
    const many = await facetSearch('tags', { facetQuery: 'e', maxFacetHits: 100 });
    expect(many.length).toBeGreaterThan(10);
    expect(many.length).toBeLessThanOrEqual(100);
    expect((await facetSearch('tags', { params: 'facetQuery=e&maxFacetHits=2' })).length).toBe(2);
  });

  it('the first N are the N most frequent matches', async () => {
    const all = await facetSearch('tags', { facetQuery: 'soc', maxFacetHits: 100 });
    const three = await facetSearch('tags', { facetQuery: 'soc', maxFacetHits: 3 });
    expect(three.map((h) => h.count)).toEqual(all.slice(0, 3).map((h) => h.count));
  });

  it('the index setting maxFacetHits applies by default', async () => {
    expect(await facetSearch('color', {}, 'colors')).toEqual([
      { value: 'blue', highlighted: 'blue', count: 4 }, { value: 'red', highlighted: 'red', count: 3 },
    ]);
    expect((await facetSearch('color', { maxFacetHits: 10 }, 'colors')).length).toBe(5);
  });

  it('0 or 101 is 400', async () => {
    for (const maxFacetHits of [0, 101, -1]) {
      expectError(await send('POST', '/1/indexes/talks/facets/tags/query', { facetQuery: 'e', maxFacetHits }), 400, /maxFacetHits/);
    }
    expectError(await send('POST', '/1/indexes/talks/facets/tags/query', { params: 'facetQuery=e&maxFacetHits=101' }), 400, /maxFacetHits/);
  });
});

describe('errors', () => {
  it('a facet not declared searchable() is 400', async () => {
    // date is declared for faceting, but not searchable()
    expectError(await send('POST', '/1/indexes/talks/facets/date/query', { facetQuery: '1' }), 400, /date/);
    expectError(await send('POST', '/1/indexes/talks/facets/duration_range/query', { facetQuery: '1' }), 400);
  });

  it('an attribute not declared for faceting at all is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/facets/description/query', { facetQuery: 'a' }), 400);
  });

  it('an index that does not exist is 404', async () => {
    expectError(await send('POST', '/1/indexes/nothing_here/facets/tags/query', { facetQuery: 'a' }), 404);
  });
});

describe('multi-query type: "facet" items', () => {
  it('params as an object (InstantSearch), as a URL string, or at the top level', async () => {
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [
        { indexName: 'talks', type: 'facet', facet: 'tags', params: { facetQuery: 'psych', maxFacetHits: 5 } },
        { indexName: 'talks', type: 'facet', facet: 'tags', params: 'facetQuery=soc&maxFacetHits=2' },
        { indexName: 'talks', type: 'facet', facet: 'tags', facetQuery: 'soc', maxFacetHits: 3 },
        { indexName: 'talks', params: 'query=psychology&hitsPerPage=1' },
      ],
    });
    expect(response.status).toBe(200);
    const [psych, two, three, regular] = response.body.results;
    expect(psych.facetHits[0]).toEqual({ value: 'psychology', highlighted: '<em>psych</em>ology', count: tagCounts().psychology });
    const direct = await facetSearch('tags', { facetQuery: 'soc', maxFacetHits: 3 });
    expect(two.facetHits).toEqual(direct.slice(0, 2));
    expect(three.facetHits).toEqual(direct);
    expect(regular.hits.length).toBe(1);
    expect(regular).not.toHaveProperty('facetHits');
  });

  it('InstantSearch sends the search state along: counts honour it', async () => {
    const business = countFacet(talks.filter((t) => t.tags.includes('business')), 'tags');
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [{
        indexName: 'talks', type: 'facet', facet: 'tags',
        params: { facetQuery: 'soc', maxFacetHits: 10, facetFilters: [['tags:business']], highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__', query: '' },
      }],
    });
    expect(response.status).toBe(200);
    const hits: FacetHit[] = response.body.results[0].facetHits;
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect(hit.count).toBe(business[hit.value]);
      expect(hit.highlighted).toContain('__ais-highlight__');
    }
  });

  it('a facet not declared searchable() is 400', async () => {
    expectError(await send('POST', '/1/indexes/*/queries', {
      requests: [{ indexName: 'talks', type: 'facet', facet: 'date', params: { facetQuery: '1' } }],
    }), 400);
  });

  it('maxFacetHits out of range is 400', async () => {
    expectError(await send('POST', '/1/indexes/*/queries', {
      requests: [{ indexName: 'talks', type: 'facet', facet: 'tags', params: { facetQuery: 'a', maxFacetHits: 0 } }],
    }), 400);
  });
});
