// Search endpoints on the TED talks fixture (2,356 records) with the
// fixture's settings: parameter forms, multi-query, response shape,
// highlighting, pagination and ranking info.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { handlerFor } from '../../src/api/router.js';
import { Reply } from '../../src/api/types.js';
import { ADMIN_KEY, APP_ID, GIVER_TALK, expectError, openEngine, readFixture, sender, talksSettings, type Send } from './helpers.js';

let engine: Lantern;
let send: Send;
const TOTAL = 2356;

beforeAll(async () => {
  engine = await openEngine();
  send = sender(engine);
  const client = engine.client();
  await client.setSettings({ indexName: 'talks', indexSettings: talksSettings() });
  await client.saveObjects({ indexName: 'talks', objects: readFixture('talks.json') });
  await client.saveObjects({
    indexName: 'talks_small',
    objects: [{ objectID: 's1', name: 'A small giver index' }, { objectID: 's2', name: 'Another record' }],
  });
  await engine.waitForTasks();
});

const query = async (body: unknown) => {
  const response = await send('POST', '/1/indexes/talks/query', body);
  expect(response.status).toBe(200);
  return response.body;
};
const objectIDs = (response: { hits: Array<{ objectID: string }> }) => response.hits.map((h) => h.objectID);

describe('parameter forms', () => {
  it('POST /query with a URL-encoded params string', async () => {
    const response = await query({ params: 'query=gvier&hitsPerPage=3' });
    expect(response.hits[0].objectID).toBe(GIVER_TALK.objectID);
    expect(response.hitsPerPage).toBe(3);
    expect(response.query).toBe('gvier');
  });

  it('GET /1/indexes/{indexName} with the query string', async () => {
    const response = await send('GET', '/1/indexes/talks?query=gvier&hitsPerPage=3');
    expect(response.status).toBe(200);
    expect(response.body.hits[0].objectID).toBe(GIVER_TALK.objectID);
    expect(response.body.hitsPerPage).toBe(3);
    expect(response.body.query).toBe('gvier');
  });

  it('POST /query with the parameters as an object', async () => {
    const response = await query({ query: 'gvier', hitsPerPage: 3 });
    expect(response.hits[0].objectID).toBe(GIVER_TALK.objectID);
    expect(response.hitsPerPage).toBe(3);
  });

  it('POST /query with both a params string and fields', async () => {
    const response = await query({ params: 'query=gvier', hitsPerPage: 2 });
    expect(response.query).toBe('gvier');
    expect(response.hitsPerPage).toBe(2);
    expect(response.hits[0].objectID).toBe(GIVER_TALK.objectID);
  });

  it('every form gives the same hits', async () => {
    const forms = [
      await query({ params: 'query=design&hitsPerPage=15&page=1' }),
      (await send('GET', '/1/indexes/talks?query=design&hitsPerPage=15&page=1')).body,
      await query({ query: 'design', hitsPerPage: 15, page: 1 }),
      await query({ params: 'query=design&page=1', hitsPerPage: 15 }),
    ];
    const expected = objectIDs(forms[0]);
    expect(expected.length).toBe(15);
    for (const form of forms) expect(objectIDs(form)).toEqual(expected);
  });

  it('a params string decodes + as a space and percent-escapes', async () => {
    const plus = await query({ params: 'query=ken+robinson' });
    const percent = await query({ params: 'query=ken%20robinson' });
    expect(plus.query).toBe('ken robinson');
    expect(objectIDs(plus)).toEqual(objectIDs(percent));
    expect(plus.hits[0].speakers).toEqual(['Ken Robinson']);
  });

  it('the params echo is the form encoding of the parameters (spaces as %20), and decodes back to them', async () => {
    const strings = ['ken robinson', "!'()~*-._ a+b=c&d %20", 'é ü 中文 😀', 'x\ud800y', Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('')];
    for (const text of strings) {
      const sent = { query: text, hitsPerPage: 3, facets: ['tags', text], analyticsTags: [text] };
      const response = await query(sent);
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(sent)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      expect(response.params).toBe(form.toString().replace(/\+/g, '%20'));
      const decoded = Object.fromEntries(new URLSearchParams(response.params));
      expect(decoded.query).toBe(text.replace('\ud800', '\ufffd'));
      expect(JSON.parse(decoded.facets)).toEqual(['tags', text]); // JSON escapes a lone surrogate
    }
  });

  it('arrays in a params string: JSON or comma-separated', async () => {
    const json = await query({ params: `query=gvier&attributesToRetrieve=${encodeURIComponent('["name","speakers"]')}` });
    const comma = await query({ params: 'query=gvier&attributesToRetrieve=name,speakers' });
    for (const response of [json, comma]) {
      const { _highlightResult, _snippetResult, ...retrieved } = response.hits[0];
      expect(retrieved).toEqual({ objectID: GIVER_TALK.objectID, name: GIVER_TALK.name, speakers: ['Adam Grant'] });
    }
  });

  it('credentials and the agent in the query string are not search parameters', async () => {
    const qs = `x-algolia-agent=test&x-algolia-application-id=${APP_ID}&x-algolia-api-key=${ADMIN_KEY}`;
    const post = await send('POST', `/1/indexes/talks/query?${qs}`, { query: 'gvier' }, {});
    expect(post.status).toBe(200);
    expect(post.body.hits[0].objectID).toBe(GIVER_TALK.objectID);
    const get = await send('GET', `/1/indexes/talks?query=gvier&${qs}`, undefined, {});
    expect(get.status).toBe(200);
    expect(get.body.hits[0].objectID).toBe(GIVER_TALK.objectID);
  });

  it('an empty body searches for everything', async () => {
    const response = await send('POST', '/1/indexes/talks/query', undefined);
    expect(response.status).toBe(200);
    expect(response.body.query).toBe('');
    expect(response.body.hits.length).toBe(20);
  });

  it('bad parameter values are 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/query', { query: 'x', hitsPerPage: 'many' }), 400);
    expectError(await send('POST', '/1/indexes/talks/query', { query: 'x', hitsPerPage: 1001 }), 400);
    expectError(await send('POST', '/1/indexes/talks/query', { params: 'query=x&page=-1' }), 400);
    expectError(await send('POST', '/1/indexes/talks/query', { query: 'x', typoTolerance: 'sometimes' }), 400);
  });
});

describe('a search of an index without vectors', () => {
  // a promise per search cost each a few turns of the microtask queue; an embedder's query waits (test/vectors)
  it.each(['searchSingleIndex', 'searchWithQueryString'] as const)('is answered at once by %s, not as a promise', (op) => {
    const reply = handlerFor(op)({
      engine, services: engine.services, params: { indexName: 'talks' }, query: { query: 'gvier' }, body: { query: 'gvier' },
      headers: {}, sourceIp: '127.0.0.1', caller: { isAdmin: true, rights: new Set() }, step: () => Promise.resolve(),
    });
    expect(reply).toBeInstanceOf(Reply);
    expect(((reply as Reply).body as { hits: Array<{ objectID: string }> }).hits[0].objectID).toBe(GIVER_TALK.objectID);
  });
});

describe('multi-query POST /1/indexes/*/queries', () => {
  it('strategy none: one result per request, in order, with index', async () => {
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [
        { indexName: 'talks', params: 'query=gvier&hitsPerPage=3' },
        { indexName: 'talks_small', query: 'giver' },
        { indexName: 'talks', query: 'ken robinson', hitsPerPage: 2, distinct: false },
      ],
      strategy: 'none',
    });
    expect(response.status).toBe(200);
    const { results } = response.body;
    expect(results.length).toBe(3);
    expect(results.map((r: any) => r.index)).toEqual(['talks', 'talks_small', 'talks']);
    expect(results[0].hits[0].objectID).toBe(GIVER_TALK.objectID);
    expect(results[0].hitsPerPage).toBe(3);
    expect(objectIDs(results[1])).toEqual(['s1']);
    expect(results[2].query).toBe('ken robinson');
    expect(results[2].hits.length).toBe(2);
    for (const r of results) {
      expect(r.processed).not.toBe(false);
      expect(r).toMatchObject({ nbHits: expect.any(Number), page: 0, nbPages: expect.any(Number), processingTimeMS: expect.any(Number), params: expect.any(String) });
    }
  });

  it('strategy defaults to none', async () => {
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [{ indexName: 'talks', query: 'design', hitsPerPage: 1 }, { indexName: 'talks', query: 'gvier' }],
    });
    expect(response.body.results[1].hits[0].objectID).toBe(GIVER_TALK.objectID);
  });

  it('stopIfEnoughMatches: skips the rest once a query has hitsPerPage hits', async () => {
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [
        { indexName: 'talks', query: 'design', hitsPerPage: 5 },
        { indexName: 'talks', query: 'gvier' },
        { indexName: 'talks_small', query: '' },
      ],
      strategy: 'stopIfEnoughMatches',
    });
    expect(response.status).toBe(200);
    const { results } = response.body;
    expect(results.length).toBe(3);
    expect(results[0].hits.length).toBe(5);
    expect(results[0].processed).not.toBe(false);
    expect(results[1].processed).toBe(false);
    expect(results[2].processed).toBe(false);
  });

  it('stopIfEnoughMatches: goes on while queries return fewer than hitsPerPage hits', async () => {
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [
        { indexName: 'talks', query: 'gvier', hitsPerPage: 5 },
        { indexName: 'talks', query: 'design', hitsPerPage: 5 },
        { indexName: 'talks', query: 'ken robinson' },
      ],
      strategy: 'stopIfEnoughMatches',
    });
    const { results } = response.body;
    expect(results[0].processed).not.toBe(false);
    expect(results[0].nbHits).toBe(1);
    expect(results[1].processed).not.toBe(false);
    expect(results[1].hits.length).toBe(5);
    expect(results[2].processed).toBe(false);
  });

  it('stopIfEnoughMatches: stops on the hits found, even when responseFields leave nbHits and hitsPerPage out', async () => {
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [
        { indexName: 'talks', query: 'design', hitsPerPage: 5, responseFields: ['hits'] },
        { indexName: 'talks', query: 'gvier' },
      ],
      strategy: 'stopIfEnoughMatches',
    });
    const { results } = response.body;
    expect(results[0]).not.toHaveProperty('nbHits');
    expect(results[0].hits.length).toBe(5);
    expect(results[1].processed).toBe(false);
  });

  it('stopIfEnoughMatches: goes on after a query with too few hits, whatever its responseFields', async () => {
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [
        { indexName: 'talks', query: 'gvier', hitsPerPage: 5, responseFields: ['hits'] },
        { indexName: 'talks', query: 'design', hitsPerPage: 5 },
      ],
      strategy: 'stopIfEnoughMatches',
    });
    const { results } = response.body;
    expect(results[0].hits.length).toBe(1);
    expect(results[1].processed).not.toBe(false);
    expect(results[1].hits.length).toBe(5);
  });

  it('an unknown strategy or a missing requests array is 400', async () => {
    expectError(await send('POST', '/1/indexes/*/queries', { requests: [], strategy: 'sometimes' }), 400);
    expectError(await send('POST', '/1/indexes/*/queries', { strategy: 'none' }), 400);
  });

  it('at most 50 queries: 51 is 400 "Too many queries in multi query request"', async () => {
    const requests = (n: number) => Array.from({ length: n }, () => ({ indexName: 'talks_small', params: 'hitsPerPage=1' }));
    const fifty = await send('POST', '/1/indexes/*/queries', { requests: requests(50) });
    expect(fifty.status).toBe(200);
    expect(fifty.body.results).toHaveLength(50);
    expectError(await send('POST', '/1/indexes/*/queries', { requests: requests(51) }), 400, /^Too many queries in multi query request$/);
  });
});

describe('response fields', () => {
  it('hits, nbHits, page, nbPages, hitsPerPage, processingTimeMS, query, params', async () => {
    const response = await query({ query: 'design', hitsPerPage: 7 });
    expect(Array.isArray(response.hits)).toBe(true);
    expect(response.hits.length).toBe(7);
    expect(Number.isInteger(response.nbHits)).toBe(true);
    expect(response.nbHits).toBeGreaterThan(7);
    expect(response.page).toBe(0);
    expect(response.nbPages).toBe(Math.ceil(response.nbHits / 7));
    expect(response.hitsPerPage).toBe(7);
    expect(Number.isInteger(response.processingTimeMS)).toBe(true);
    expect(response.processingTimeMS).toBeGreaterThanOrEqual(0);
    expect(response.query).toBe('design');
    expect(typeof response.params).toBe('string');
    const echoed = new URLSearchParams(response.params);
    expect(echoed.get('query')).toBe('design');
    expect(echoed.get('hitsPerPage')).toBe('7');
    expect(response).not.toHaveProperty('index');
  });

  it('hitsPerPage defaults to the index setting', async () => {
    expect((await query({ query: 'design' })).hitsPerPage).toBe(20);
  });

  it('the response is plain JSON', async () => {
    const response = await query({ query: 'gvier', getRankingInfo: true });
    expect(JSON.parse(JSON.stringify(response))).toEqual(response);
  });

  it('hits carry the record', async () => {
    const response = await query({ query: 'gvier' });
    const record = readFixture<any[]>('talks.json').find((t) => t.objectID === GIVER_TALK.objectID);
    const { _highlightResult, _snippetResult, ...hit } = response.hits[0];
    expect(hit).toEqual(record);
  });

  it("a hit's members come in one order: the record's retrieved attributes as stored, then objectID, highlights, snippets, ranking info", async () => {
    const record = readFixture<Array<Record<string, unknown>>>('talks.json').find((t) => t.objectID === GIVER_TALK.objectID)!;
    const marks = { query: 'gvier', getRankingInfo: true, attributesToSnippet: ['description:5'] };
    const after = ['_highlightResult', '_snippetResult', '_rankingInfo'];
    const keysOf = async (params: Record<string, unknown>) => {
      const response = await send('POST', '/1/indexes/talks/query', { ...marks, ...params });
      expect(response.status).toBe(200);
      return Object.keys((response.body as { hits: Array<Record<string, unknown>> }).hits[0]);
    };
    // the whole record (objectID where the record has it), then what the search adds
    expect(await keysOf({})).toEqual([...Object.keys(record), ...after]);
    // attributes asked for, in the order asked, objectID after them
    expect(await keysOf({ attributesToRetrieve: ['speakers', 'name'] })).toEqual(['speakers', 'name', 'objectID', ...after]);
    // a whole record less an attribute: objectID after the rest
    expect(await keysOf({ attributesToRetrieve: ['*', '-slug'] })).toEqual([...Object.keys(record).filter((k) => k !== 'slug' && k !== 'objectID'), 'objectID', ...after]);
  });

  it('hits of objectID alone, not highlighted, are the objectIDs of the full hits, with ranking info', async () => {
    const full = await query({ query: 'the wor', hitsPerPage: 50, getRankingInfo: true });
    const bare = await query({
      query: 'the wor', hitsPerPage: 50, getRankingInfo: true, attributesToRetrieve: ['objectID'], attributesToHighlight: [], attributesToSnippet: [],
    });
    expect(bare.hits.length).toBe(50);
    expect(bare.hits.map((h: Record<string, unknown>) => Object.keys(h))).toEqual(bare.hits.map(() => ['objectID', '_rankingInfo']));
    expect(objectIDs(bare)).toEqual(objectIDs(full));
    expect(bare.hits.map((h: { _rankingInfo: unknown }) => h._rankingInfo)).toEqual(full.hits.map((h: { _rankingInfo: unknown }) => h._rankingInfo));
  });
});

describe('highlighting', () => {
  it('marks the matched words with <em>, matchLevel full and matchedWords', async () => {
    const [hit] = (await query({ query: 'gvier' })).hits;
    expect(hit._highlightResult.name).toMatchObject({
      value: 'Are you a <em>giver</em> or a taker?',
      matchLevel: 'full',
      matchedWords: ['gvier'],
    });
  });

  it('mirrors the record: arrays stay arrays, unmatched leaves have matchLevel none', async () => {
    const [hit] = (await query({ query: 'gvier' })).hits;
    const h = hit._highlightResult;
    expect(Array.isArray(h.speakers)).toBe(true);
    expect(h.speakers).toEqual([{ value: 'Adam Grant', matchLevel: 'none', matchedWords: [] }]);
    expect(h.event_name).toEqual({ value: 'TED@IBM', matchLevel: 'none', matchedWords: [] });
    expect(Array.isArray(h.tags)).toBe(true);
    expect(h.tags.length).toBe(hit.tags.length);
    expect(h.tags.map((t: any) => t.value)).toEqual(hit.tags);
  });

  it('highlights the searchable attributes by default, not the others', async () => {
    const [hit] = (await query({ query: 'gvier' })).hits;
    expect(Object.keys(hit._highlightResult).sort()).toEqual(['event_name', 'name', 'speakers', 'tags']);
  });

  it('matchLevel partial when only some query words match the attribute', async () => {
    const response = await query({ query: 'adam giver' });
    const hit = response.hits.find((h: any) => h.objectID === GIVER_TALK.objectID);
    expect(hit._highlightResult.name).toMatchObject({ value: 'Are you a <em>giver</em> or a taker?', matchLevel: 'partial', matchedWords: ['giver'] });
    expect(hit._highlightResult.speakers[0]).toMatchObject({ value: '<em>Adam</em> Grant', matchLevel: 'partial', matchedWords: ['adam'] });
  });

  it('keeps the original characters (diacritics, case) inside the markup', async () => {
    const response = await query({ query: 'brene brown' });
    expect(response.hits.length).toBeGreaterThan(0);
    for (const hit of response.hits) {
      expect(hit._highlightResult.speakers[0]).toMatchObject({
        value: '<em>Brené</em> <em>Brown</em>', matchLevel: 'full', matchedWords: ['brene', 'brown'],
      });
    }
  });

  it('custom highlightPreTag and highlightPostTag', async () => {
    const [hit] = (await query({
      query: 'gvier', highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__',
    })).hits;
    expect(hit._highlightResult.name.value).toBe('Are you a __ais-highlight__giver__/ais-highlight__ or a taker?');
    expect(JSON.stringify(hit._highlightResult)).not.toContain('<em>');
  });

  it('custom tags in a params string', async () => {
    const [hit] = (await query({ params: 'query=gvier&highlightPreTag=%3Cmark%3E&highlightPostTag=%3C%2Fmark%3E' })).hits;
    expect(hit._highlightResult.name.value).toBe('Are you a <mark>giver</mark> or a taker?');
  });

  it('a prefix is highlighted up to what was typed', async () => {
    const giver = await query({ query: 'are you a giv', attributesToHighlight: ['name'] });
    expect(giver.hits[0]._highlightResult.name.value).toBe('<em>Are</em> <em>you</em> <em>a</em> <em>giv</em>er or <em>a</em> taker?');
  });

  it('attributesToHighlight restricts the highlighted attributes', async () => {
    const [hit] = (await query({ query: 'gvier', attributesToHighlight: ['name'] })).hits;
    expect(Object.keys(hit._highlightResult)).toEqual(['name']);
  });
});

describe('pagination', () => {
  // distinct=false: the fixture's distinct setting is not what these tests are about
  const all = { query: '', distinct: false };

  it('page and hitsPerPage select a window of the ranked hits', async () => {
    const big = await query({ ...all, hitsPerPage: 100 });
    const page = await query({ ...all, hitsPerPage: 10, page: 2 });
    expect(page.page).toBe(2);
    expect(page.hitsPerPage).toBe(10);
    expect(page.nbHits).toBe(TOTAL);
    expect(page.nbPages).toBe(100); // 1000 reachable hits (paginationLimitedTo) / 10
    expect(objectIDs(page)).toEqual(objectIDs(big).slice(20, 30));
  });

  it('offset and length select the same window', async () => {
    const big = await query({ ...all, hitsPerPage: 100 });
    const window = await query({ ...all, offset: 20, length: 10 });
    expect(objectIDs(window)).toEqual(objectIDs(big).slice(20, 30));
    const odd = await query({ ...all, offset: 13, length: 7 });
    expect(objectIDs(odd)).toEqual(objectIDs(big).slice(13, 20));
  });

  it('pages of a text query are consistent with one big page', async () => {
    const big = await query({ query: 'design', distinct: false, hitsPerPage: 1000 });
    const stitched: string[] = [];
    for (let page = 0; page * 50 < big.nbHits; page++) stitched.push(...objectIDs(await query({ query: 'design', distinct: false, hitsPerPage: 50, page })));
    expect(stitched).toEqual(objectIDs(big));
    expect(new Set(stitched).size).toBe(stitched.length);
  });

  it('paginationLimitedTo caps the reachable hits, not nbHits', async () => {
    const limited = { ...all, paginationLimitedTo: 50, hitsPerPage: 20 };
    const p2 = await query({ ...limited, page: 2 });
    expect(p2.hits.length).toBe(10);
    expect(p2.nbPages).toBe(3);
    expect(p2.nbHits).toBe(TOTAL);
    expect((await query({ ...limited, page: 3 })).hits).toEqual([]);
  });

  it('the default paginationLimitedTo is 1000', async () => {
    expect((await query({ ...all, hitsPerPage: 20, page: 49 })).hits.length).toBe(20);
    const beyond = await query({ ...all, hitsPerPage: 20, page: 50 });
    expect(beyond.hits).toEqual([]);
    expect(beyond.nbHits).toBe(TOTAL);
  });

  it('hitsPerPage 0 returns no hits but the full nbHits', async () => {
    const counted = await query({ query: 'design', hitsPerPage: 0 });
    const listed = await query({ query: 'design', hitsPerPage: 20 });
    expect(counted.hits).toEqual([]);
    expect(counted.nbHits).toBe(listed.nbHits);
    expect(counted.nbHits).toBeGreaterThan(20);
    const everything = await query({ ...all, hitsPerPage: 0 });
    expect(everything.hits).toEqual([]);
    expect(everything.nbHits).toBe(TOTAL);
  });

  it('a page past the end is empty', async () => {
    const response = await query({ query: 'gvier', page: 3 });
    expect(response.hits).toEqual([]);
    expect(response.nbHits).toBe(1);
    expect(response.page).toBe(3);
  });
});

describe('ranking', () => {
  it('the typo query "gvier" finds "Are you a giver or a taker?" first', async () => {
    const response = await query({ query: 'gvier' });
    expect(response.hits[0]).toMatchObject(GIVER_TALK);
  });

  it('customRanking desc(date) orders an empty query', async () => {
    const response = await query({ query: '', distinct: false, hitsPerPage: 100 });
    const dates = response.hits.map((h: any) => h.date);
    for (let i = 1; i < dates.length; i++) expect(dates[i]).toBeLessThanOrEqual(dates[i - 1]);
    const newest = Math.max(...readFixture<any[]>('talks.json').map((t) => t.date));
    expect(dates[0]).toBe(newest);
  });

  it('a text query ranks exact matches before typo matches', async () => {
    const response = await query({ query: 'design', getRankingInfo: true, hitsPerPage: 1000 });
    const typos = response.hits.map((h: any) => h._rankingInfo.nbTypos);
    for (let i = 1; i < typos.length; i++) expect(typos[i]).toBeGreaterThanOrEqual(typos[i - 1]);
  });

  it('typoTolerance false as a search parameter finds nothing for "gvier"', async () => {
    expect((await query({ query: 'gvier', typoTolerance: false })).nbHits).toBe(0);
    expect((await query({ params: 'query=gvier&typoTolerance=false' })).nbHits).toBe(0);
  });
});

describe('getRankingInfo', () => {
  it('adds _rankingInfo with every documented field', async () => {
    const [hit] = (await query({ query: 'gvier', getRankingInfo: true })).hits;
    const info = hit._rankingInfo;
    for (const field of ['nbTypos', 'firstMatchedWord', 'proximityDistance', 'userScore', 'geoDistance', 'geoPrecision', 'nbExactWords', 'words', 'filters']) {
      expect(typeof info[field], field).toBe('number');
    }
    expect(info).toMatchObject({ nbTypos: 1, nbExactWords: 0, words: 1 });
  });

  it('reflects the criteria of a two-word query', async () => {
    const [hit] = (await query({ query: 'ken robinson', getRankingInfo: true })).hits;
    expect(hit.speakers).toEqual(['Ken Robinson']);
    expect(hit._rankingInfo).toMatchObject({ nbTypos: 0, proximityDistance: 1, nbExactWords: 2, words: 2 });
  });

  it('a better userScore for a newer talk (customRanking desc(date))', async () => {
    const hits = (await query({ query: '', distinct: false, getRankingInfo: true, hitsPerPage: 50 })).hits;
    for (let i = 1; i < hits.length; i++) {
      expect(hits[i]._rankingInfo.userScore).toBeLessThanOrEqual(hits[i - 1]._rankingInfo.userScore);
    }
    expect(hits[0]._rankingInfo.userScore).toBeGreaterThan(hits[49]._rankingInfo.userScore);
  });

  it('is absent unless asked for', async () => {
    const [hit] = (await query({ query: 'gvier' })).hits;
    expect(hit).not.toHaveProperty('_rankingInfo');
    const [withString] = (await query({ params: 'query=gvier&getRankingInfo=true' })).hits;
    expect(withString).toHaveProperty('_rankingInfo');
  });
});

describe('the fixture settings', () => {
  it('attributesToRetrieve as a search parameter', async () => {
    const [hit] = (await query({ query: 'gvier', attributesToRetrieve: ['name'] })).hits;
    const { _highlightResult, _snippetResult, ...retrieved } = hit;
    expect(retrieved).toEqual({ objectID: GIVER_TALK.objectID, name: GIVER_TALK.name });
  });

  it('distinct=true with attributeForDistinct=speakers keeps one talk per speaker', async () => {
    // Ken Robinson gave several talks; the fixture asks for one hit per speakers value.
    const response = await query({ query: 'ken robinson' });
    const speakers = response.hits.map((h: any) => JSON.stringify(h.speakers));
    expect(new Set(speakers).size).toBe(speakers.length);
    const undistinct = await query({ query: 'ken robinson', distinct: false });
    expect(undistinct.hits.length).toBeGreaterThan(response.hits.length);
  });
});
