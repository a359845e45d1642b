// GET /1/logs: the last 1000 calls, newest first, every field of the
// official client's Log type, credentials masked, filters, retention,
// restricted keys, and the logs call itself left out.
import { beforeEach, describe, expect, it } from 'vitest';
import { logCall } from '../../src/api/logs.js';
import { generateSecuredKey } from '../../src/auth/secured-keys.js';
import type { Lantern } from '../../src/lantern.js';
import { yieldTurn } from '../../src/util/turns.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID, expectError, openEngine } from '../api/helpers.js';

const as = (key: string, extra: Record<string, string> = {}) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, ...extra });

describe('GET /1/logs', () => {
  let engine: Lantern;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = ADMIN_HEADERS, sourceIp?: string) =>
    engine.request({ method, path, body, headers, sourceIp });
  const logs = async (query = '', headers: Record<string, string> = ADMIN_HEADERS) => {
    const response = await call('GET', `/1/logs${query}`, undefined, headers);
    expect(response.status).toBe(200);
    return (response.body as { logs: any[] }).logs;
  };

  beforeEach(async () => {
    engine = await openEngine();
    await call('POST', '/1/indexes/dev_films/batch', { requests: ['a', 'b', 'c'].map((t, i) => ({ action: 'addObject', body: { objectID: String(i), title: `film ${t}` } })) });
    await call('PUT', '/1/indexes/prod_films/1', { title: 'film prod' });
    await engine.waitForTasks();
  });

  it('an entry holds every field of the Log type, as strings', async () => {
    const sent = { query: 'film', hitsPerPage: 2 };
    const response = await call('POST', '/1/indexes/dev_films/query?x-algolia-agent=test', sent, { ...ADMIN_HEADERS, 'x-algolia-usertoken': 'u1' }, '203.0.113.9');
    const [entry] = await logs('?length=1');
    expect(entry).toEqual({
      cid: response.headers!['x-request-id'],
      timestamp: expect.any(String),
      method: 'POST',
      answer_code: '200',
      query_body: JSON.stringify(sent),
      answer: JSON.stringify(response.body).slice(0, 1000),
      url: '/1/indexes/dev_films/query?x-algolia-agent=test',
      ip: '203.0.113.9',
      query_headers: expect.any(String),
      sha1: expect.stringMatching(/^[0-9a-f]{40}$/),
      nb_api_calls: '1',
      processing_time_ms: expect.stringMatching(/^\d+$/),
      index: 'dev_films',
      query_params: 'x-algolia-agent=test',
      query_nb_hits: String((response.body as any).nbHits),
    });
    expect((response.body as any).nbHits).toBe(3);
    expect(Math.abs(Date.parse(entry.timestamp) - Date.now())).toBeLessThan(60_000);
    expect(entry.query_headers).toContain('x-algolia-usertoken: u1');
    expect(entry.query_headers).toContain('x-algolia-api-key: ****************');
    expect(JSON.stringify(entry)).not.toContain(ADMIN_KEY);
  });

  it('an entry is made after the answer, which it holds as given; a body sent again changed is logged as first sent', async () => {
    const sent = { query: 'film a' };
    const first = await call('POST', '/1/indexes/dev_films/query', sent);
    sent.query = 'changed by the caller'; // in the caller's turn, before the log's work
    const [atOnce] = await logs('?length=1'); // read before any turn of the event loop passed
    expect(atOnce.answer).toBe(JSON.stringify(first.body).slice(0, 1000));
    expect(atOnce.query_body).toBe(JSON.stringify({ query: 'film a' }));
    const multi = { requests: [{ indexName: 'dev_films', query: 'film' }] };
    await call('POST', '/1/indexes/*/queries', multi);
    multi.requests[0].indexName = 'prod_films';
    const [multiEntry] = await logs('?length=1');
    expect(multiEntry.inner_queries.map((q: { index_name: string }) => q.index_name)).toEqual(['dev_films']);
    const second = await call('POST', '/1/indexes/dev_films/query', { query: 'film b' });
    const given = JSON.stringify(second.body).slice(0, 1000);
    await yieldTurn();
    (second.body as { hits: Array<Record<string, unknown>> }).hits[0].title = 'changed by the caller';
    const [afterTurn] = await logs('?length=1');
    expect(afterTurn.answer).toBe(given);
  });

  it('a search whose responseFields leave nbHits out still logs the hits it found', async () => {
    const response = await call('POST', '/1/indexes/dev_films/query', { query: 'film', responseFields: ['hits'] });
    expect(response.body).not.toHaveProperty('nbHits');
    const [entry] = await logs('?length=1');
    expect(entry.query_nb_hits).toBe('3');
    await call('GET', '/1/indexes/dev_films?query=film&responseFields=hits');
    expect((await logs('?length=1'))[0].query_nb_hits).toBe('3');
  });

  it('bodies and answers are cut to 1000 characters', async () => {
    const long = { title: 'x'.repeat(3000) };
    const text = JSON.stringify(long);
    await call('PUT', '/1/indexes/dev_films/long', text);
    await engine.waitForTasks();
    await call('GET', '/1/indexes/dev_films/long');
    const [read, write] = await logs('?length=2');
    expect(write.query_body).toBe(text.slice(0, 1000));
    expect(read.answer).toHaveLength(1000);
    expect(read.answer).toBe(JSON.stringify({ title: long.title, objectID: 'long' }).slice(0, 1000));
  });

  it('a large answer of many small values is cut exactly where its whole JSON would be', async () => {
    const records = Array.from({ length: 200 }, (_, i) => ({ objectID: `r${i}`, n: i, tags: ['a', 'b'], nested: { on: i % 2 === 0, none: null } }));
    await call('POST', '/1/indexes/dev_films/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    const response = await call('POST', '/1/indexes/dev_films/browse', { hitsPerPage: 300, attributesToRetrieve: ['*'] });
    const whole = JSON.stringify(response.body);
    expect(whole.length).toBeGreaterThan(5000);
    const [entry] = await logs('?length=1');
    expect(entry.answer).toBe(whole.slice(0, 1000));
  });

  it('an in-process body of every JSON kind is logged as its JSON, whole or cut', async () => {
    const kinds = {
      text: 'quote " backslash \\ newline \n tab \t é 😀 \u2028', n: -1.5e-7, big: 1e21, nan: NaN, yes: true, no: false, none: null,
      skipped: undefined, fn: () => 1, when: new Date(Date.UTC(2026, 10, 24)), boxed: new Number(3),
      list: [1, undefined, null, () => 2, [[]], {}], nested: { deeper: { deepest: ['x'] } }, withJson: { toJSON: () => ({ replaced: 1 }) },
    };
    const long = { ...kinds, many: Array.from({ length: 300 }, (_, i) => ({ i, kinds })) };
    // long only below the levels looked at before serialising whole, or only in a list of many items
    const deep = { a: [{ b: { c: { d: 'x'.repeat(3000) } } }], kinds };
    const wide = { kinds, list: Array.from({ length: 65 }, (_, i) => i) };
    for (const body of [kinds, long, deep, wide, [kinds, 'a'], 42, 'plain text']) {
      await call('POST', '/1/indexes/dev_films/query', body);
      const [entry] = await logs('?length=1');
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      expect(entry.query_body).toBe(text.slice(0, 1000));
    }
  });

  it('a multi-query lists its inner queries and counts one call per query', async () => {
    const response = await call('POST', '/1/indexes/*/queries', { requests: [
      { indexName: 'dev_films', query: 'a', clickAnalytics: true, userToken: 'user-7' },
      { indexName: 'prod_films', query: 'b' },
    ] });
    expect(response.status).toBe(200);
    const [entry] = await logs('?length=1');
    const queryID = (response.body as any).results[0].queryID;
    expect(entry.nb_api_calls).toBe('2');
    expect(entry.index).toBeUndefined();
    expect(entry.inner_queries).toEqual([
      { index_name: 'dev_films', user_token: 'user-7', ...(queryID ? { query_id: queryID } : {}) },
      { index_name: 'prod_films' },
    ]);
  });

  it('newest first; offset and length page; the logs call itself is not logged', async () => {
    for (let i = 0; i < 15; i++) await call('GET', `/1/indexes/dev_films/${i % 3}?n=${i}`);
    const urls = (await logs('?length=15')).map((e) => e.url);
    expect(urls).toEqual(Array.from({ length: 15 }, (_, i) => `/1/indexes/dev_films/${(14 - i) % 3}?n=${14 - i}`));
    expect((await logs()).length).toBe(10); // default length
    expect((await logs('?offset=3&length=2')).map((e) => e.url)).toEqual(urls.slice(3, 5));
    expect((await logs('?length=15')).map((e) => e.url)).toEqual(urls); // no logs call in between
  });

  it('keeps the last 1000 calls', async () => {
    for (let i = 0; i < 1005; i++) await call('GET', `/1/indexes/dev_films/0?n=${i}`);
    const all = await logs('?length=1000');
    expect(all).toHaveLength(1000);
    expect(all[0].url).toBe('/1/indexes/dev_films/0?n=1004');
    expect(all[999].url).toBe('/1/indexes/dev_films/0?n=5');
    expect(await logs('?offset=1000&length=10')).toEqual([]);
  });

  it('drops entries older than 7 days', async () => {
    const old = Date.now() - 7 * 24 * 3600 * 1000 - 60_000;
    const base = { method: 'GET', query: {}, headers: {}, body: undefined, sourceIp: '10.0.0.1', processingTimeMs: 1 };
    logCall(engine, engine.services.callLog, { ...base, requestId: 'old', path: '/1/indexes/old', response: { status: 200, body: {} } }, old);
    logCall(engine, engine.services.callLog, { ...base, requestId: 'recent', path: '/1/indexes/recent', response: { status: 200, body: {} } }, Date.now() - 60_000);
    const cids = (await logs('?length=1000')).map((e) => e.cid);
    expect(cids).toContain('recent');
    expect(cids).not.toContain('old');
  });

  it('filters by type and by index', async () => {
    await call('POST', '/1/indexes/dev_films/query', { query: 'a' });
    await call('PUT', '/1/indexes/prod_films/2', { title: 'new' });
    await call('GET', '/1/indexes/missing_index/9');
    await call('GET', '/1/indexes/dev_films/settings');
    const all = await logs('?length=1000');
    const types = async (type: string) => (await logs(`?type=${type}&length=1000`)).map((e) => `${e.method} ${e.url}`);
    expect(await types('query')).toEqual([
      'GET /1/indexes/missing_index/9', 'POST /1/indexes/dev_films/query',
    ]);
    expect(await types('build')).toEqual([
      'PUT /1/indexes/prod_films/2', 'PUT /1/indexes/prod_films/1', 'POST /1/indexes/dev_films/batch',
    ]);
    expect(await types('error')).toEqual(['GET /1/indexes/missing_index/9']);
    expect(await types('all')).toEqual(all.map((e) => `${e.method} ${e.url}`));
    const prod = (await logs('?indexName=prod_films&length=1000')).map((e) => `${e.method} ${e.url}`);
    expect(prod).toEqual(['PUT /1/indexes/prod_films/2', 'PUT /1/indexes/prod_films/1']);
  });

  it('refuses bad parameters with 400', async () => {
    for (const q of ['?length=1001', '?length=-1', '?offset=1.5', '?offset=x', '?type=everything']) {
      expectError(await call('GET', `/1/logs${q}`), 400);
    }
  });

  it('needs the logs right; a restricted logs key reads only its indexes', async () => {
    const add = async (body: object) => (await call('POST', '/1/keys', body)).body as { key: string };
    const searchOnly = (await add({ acl: ['search'] })).key;
    expectError(await call('GET', '/1/logs', undefined, as(searchOnly)), 403);
    const devLogs = (await add({ acl: ['logs'], indexes: ['dev_*'] })).key;
    await call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'dev_films' }, { indexName: 'prod_films' }] });
    await call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'dev_films' }] });
    const seen = await logs('?length=1000', as(devLogs));
    expect(seen.length).toBeGreaterThan(0);
    for (const e of seen) {
      const indexes = [e.index, ...(e.inner_queries ?? []).map((q: any) => q.index_name)].filter(Boolean);
      expect(indexes.length).toBeGreaterThan(0);
      expect(indexes.every((i: string) => i.startsWith('dev_'))).toBe(true);
    }
    expect(seen.some((e) => e.url === '/1/indexes/*/queries')).toBe(true);
    expectError(await call('GET', '/1/logs?indexName=prod_films', undefined, as(devLogs)), 403);
    const allLogs = (await add({ acl: ['logs'] })).key;
    const everything = await logs('?length=1000', as(allLogs));
    expect(everything.some((e) => e.index === 'prod_films')).toBe(true);
    expect(everything.some((e) => e.url === '/1/keys')).toBe(true); // calls without an index too
  });

  it("every answer names its call; a proxy's well-formed X-Request-Id is kept", async () => {
    const own = await call('GET', '/1/indexes', undefined, { ...ADMIN_HEADERS, 'X-Request-Id': 'proxy-42.a:b' });
    expect(own.headers).toMatchObject({ 'x-request-id': 'proxy-42.a:b', 'correlation-id': 'proxy-42.a:b' });
    const forged = await call('GET', '/1/indexes', undefined, { ...ADMIN_HEADERS, 'x-request-id': 'bad id\nInjected: 1' });
    const failed = await call('GET', '/1/nowhere');
    const ids = [forged.headers!['x-request-id'], failed.headers!['x-request-id']];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(2);
    expect((await logs('?length=3')).map((e) => e.cid)).toEqual([...ids.reverse(), 'proxy-42.a:b']);
  });

  it('no credential or key value reaches a log entry', async () => {
    const { key } = (await call('POST', '/1/keys', { acl: ['search', 'logs'] })).body as { key: string };
    await call('GET', `/1/keys/${key}`);
    await call('GET', '/1/keys');
    await call('PUT', `/1/indexes/dev_films/keys/${key}`, { acl: ['search'] });
    await call('POST', `/1/indexes/dev_films/query?x-algolia-api-key=${key}&x-algolia-application-id=${APP_ID}`, {}, {});
    await call('POST', '/1/indexes/dev_films/query', {}, { ...as(ADMIN_KEY), 'x-forwarded-api-key': key });
    await call('GET', '/1/indexes', undefined, { ...as(key), authorization: 'Bearer secret-token', cookie: 'session=s3cr3t' });
    const text = JSON.stringify(await logs('?length=1000'));
    for (const secret of [key, ADMIN_KEY, 'secret-token', 's3cr3t']) expect(text).not.toContain(secret);
    const urls = (await logs('?length=1000')).map((e) => e.url);
    expect(urls).toContain(`/1/keys/${key.slice(0, 4)}****************`);
  });

  // the wire (HTTP, the official client's requester) has the router serialise the answer once, and the
  // log cuts that text: what it keeps must be masked alike
  it.each([['in process', false], ['answered as text', true]])('key-shaped path segments are masked wherever they are, in the url and in an answer naming the path (%s)', async (_, answerAsText) => {
    const get = (path: string) => engine.request({ method: 'GET', path, headers: ADMIN_HEADERS, answerAsText });
    const { key } = (await call('POST', '/1/keys', { acl: ['search'] })).body as { key: string };
    await call('PUT', '/1/indexes/dev_films/keys/custom-key-value-42', { acl: ['search'] });
    const secured = await generateSecuredKey(key, { filters: 'title:x' });
    const unknownKey = 'f'.repeat(32);
    const paths = [
      `/1/keys/${unknownKey}`, `//1/keys/${key}`, `/1/keyz/${key}`, `/1/indexes/dev_films/${key}`, `/1/indexes/dev_films/${encodeURIComponent(secured)}`,
      '/1/nowhere/custom-key-value-42', `/1/nowhere/${ADMIN_KEY}/x`, `/1/indexes/${key}/settings`,
    ];
    for (const path of paths) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.text !== undefined).toBe(answerAsText);
    }
    const entries = (await logs('?length=20')).slice(0, paths.length).reverse();
    const text = JSON.stringify(entries);
    for (const secret of [key, unknownKey, secured, encodeURIComponent(secured), 'custom-key-value-42', ADMIN_KEY]) expect(text).not.toContain(secret);
    const masked = (value: string) => `${value.length >= 32 ? value.slice(0, 4) : ''}****************`;
    expect(entries.map((e) => e.url)).toEqual([
      `/1/keys/${masked(unknownKey)}`, `//1/keys/${masked(key)}`, `/1/keyz/${masked(key)}`, `/1/indexes/dev_films/${masked(key)}`,
      `/1/indexes/dev_films/${masked(secured)}`, `/1/nowhere/${masked('custom-key-value-42')}`, `/1/nowhere/${masked(ADMIN_KEY)}/x`,
      `/1/indexes/${masked(key)}/settings`,
    ]);
    // the 404 of an unknown path names it, masked
    expect(entries[2].answer).toContain(`Path /1/keyz/${masked(key)} does not exist`);
    expect(entries[7].index).toBe(masked(key));
  });

  it('a path logged before a key of its value existed is masked once the key exists', async () => {
    const path = '/1/nowhere/custom-key-value-43';
    const url = async () => { await call('GET', path); return (await logs('?length=1'))[0].url; };
    expect(await url()).toBe(path);
    await call('PUT', '/1/indexes/dev_films/keys/custom-key-value-43', { acl: ['search'] });
    expect(await url()).toBe('/1/nowhere/****************');
    expect(await url()).toBe('/1/nowhere/****************');
  });
});
