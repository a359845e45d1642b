// The access matrix (every route × a key holding exactly one right, or none,
// × an allowed or forbidden index), checked against a hand-written reading of
// compatibility.md's "Rights", plus index restrictions inside multi-index
// calls, maxHitsPerQuery, queryParameters, referers and seeUnretrievableAttributes.
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '../../src/api/routes.js';
import { NOT_ENOUGH_RIGHTS } from '../../src/auth/authenticate.js';
import { KEY_RIGHTS } from '../../src/auth/caller.js';
import type { Lantern } from '../../src/lantern.js';
import { APP_ID, expectError, openEngine, sender, type Send } from '../api/helpers.js';

const as = (key: string, extra: Record<string, string> = {}) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, ...extra });

/** compatibility.md, "Rights", written out by hand (independent of the ROUTES table). */
function expectedRight(method: string, path: string): string {
  if (/^\/1\/(keys|clusters|security)(\/|$)/.test(path) || /^\/1\/indexes\/[^/]+\/keys(\/|$)/.test(path)) return 'admin';
  if (path === '/1/logs') return 'logs';
  if (path.startsWith('/1/lantern/follow/')) return 'follow'; // Lantern's own (src/follow/)
  // query suggestions: "the admin key of the application" (analytics-api.md, Authentication)
  if (/^\/1\/(configs(\/|$)|logs\/)/.test(path)) return 'admin';
  // analytics-api.md's Authentication, and the personalization strategy of search-api.md
  if (path === '/1/events') return 'search';
  if (path === '/2/abtests/estimate') return 'analytics'; // a read: the client's estimateABTest needs analytics
  if (path.startsWith('/2/abtests')) return method === 'GET' ? 'analytics' : 'editSettings';
  if (path === '/3/abtests/estimate') return 'analytics'; // abtesting-v3.yml's x-acl, as v2
  if (path.startsWith('/3/abtests')) return method === 'GET' ? 'analytics' : 'editSettings';
  // "settings/editSettings = read/write settings, synonyms, rules (dictionaries too)"
  if (path.startsWith('/1/dictionaries/')) return method === 'GET' || path.endsWith('/search') ? 'settings' : 'editSettings';
  if (path.startsWith('/2/') || path.startsWith('/3/patterns/')) return 'analytics';
  if (path === '/1/recommendation/personalization/strategy') return method === 'GET' ? 'settings' : 'editSettings';
  // recommend.yml's x-acl: recommendations are searches; rules are settings; a task's status needs editSettings
  if (path === '/1/indexes/*/recommendations') return 'search';
  if (path.includes('/{model}/recommend/rules')) return method === 'GET' || path.endsWith('/search') ? 'settings' : 'editSettings';
  if (path.includes('/{model}/task/')) return 'editSettings';
  if (/^\/1\/(strategies|profiles)\//.test(path)) return 'personalization';
  if (/^\/1\/(status|incidents|usage|inventory|latency|indexing|reachability|infrastructure)(\/|$)/.test(path)) return 'usage'; // monitoring
  if (path === '/1/indexes' && method === 'GET') return 'listIndexes';
  if (/\/(settings|synonyms|rules)(\/|$)/.test(path)) {
    return method === 'GET' || /\/(synonyms|rules)\/search$/.test(path) ? 'settings' : 'editSettings';
  }
  if (path.startsWith('/1/usertokens/')) return 'deleteObject'; // insights.yml's x-acl
  if (path === '/1/task/{taskID}') return 'editSettings'; // "/1/task/{id} needs editSettings"
  if (/\/task\//.test(path)) return 'addObject';
  if (/\/browse$/.test(path)) return 'browse';
  if (path === '/1/indexes/*/queries' || path === '/1/indexes/*/objects' || /\/query$/.test(path)) return 'search';
  if (/\/(deleteByQuery|clear)$/.test(path) || (method === 'DELETE' && path === '/1/indexes/{indexName}')) return 'deleteIndex';
  if (method === 'GET' && /^\/1\/indexes\/\{indexName\}(\/\{objectID\})?$/.test(path)) return 'search';
  if (method === 'DELETE' && path === '/1/indexes/{indexName}/{objectID}') return 'deleteObject';
  return 'addObject'; // object writes, batches, copy/move
}

function fill(route: Route, index: string): { path: string; body: unknown } {
  const path = route.path
    .replace('{indexName}', encodeURIComponent(index)).replace('{objectID}', '1').replace('{facetName}', 'genre')
    .replace('{taskID}', '1').replace('{key}', 'somekey').replace('{model}', 'related-products');
  const item = { indexName: index, objectID: '1', action: 'addObject', body: { objectID: '9', genre: 'x' } };
  const bodies: Record<string, unknown> = {
    search: { requests: [{ indexName: index }] },
    multipleBatch: { requests: [item] },
    getObjects: { requests: [{ indexName: index, objectID: '1' }] },
    batch: { requests: [{ action: 'addObject', body: { genre: 'y' } }] },
    operationIndex: { operation: 'copy', destination: `${index}_copy` },
    getRecommendations: { requests: [{ indexName: index, model: 'trending-items', threshold: 0 }] },
  };
  const body = bodies[route.op] ?? (route.method === 'POST' || route.method === 'PUT' ? { objectID: '1', genre: 'z' } : undefined);
  return { path, body };
}

describe('the access matrix', () => {
  let engine: Lantern;
  let send: Send;
  const keyFor = new Map<string, string>();

  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    for (const name of ['allowed_a', 'other']) {
      await send('PUT', `/1/indexes/${name}/settings`, { attributesForFaceting: ['searchable(genre)'] });
      await send('PUT', `/1/indexes/${name}/1`, { genre: 'drama' });
    }
    await engine.waitForTasks();
    for (const right of [...KEY_RIGHTS, 'none']) {
      const acl = right === 'none' ? [] : [right];
      keyFor.set(right, (await send('POST', '/1/keys', { acl, indexes: ['allowed*'] })).body.key);
    }
  });

  it('the ROUTES table agrees with the hand-written rights', () => {
    const wrong = ROUTES.filter((r) => r.right !== expectedRight(r.method, r.path)).map((r) => `${r.op}: ${r.right}`);
    expect(wrong).toEqual([]);
  });

  it('every route × every single-right key × allowed/forbidden index', async () => {
    const failures: string[] = [];
    for (const route of ROUTES) {
      const right = expectedRight(route.method, route.path);
      for (const [held, key] of keyFor) {
        for (const index of ['allowed_a', 'other']) {
          const { path, body } = fill(route, index);
          const res = await send(route.method, path, body, as(key));
          const touchesIndex = route.path.includes('{indexName}') || ['search', 'multipleBatch', 'getObjects', 'getRecommendations'].includes(route.op);
          const allowed = held === right && right !== 'admin' && (!touchesIndex || index === 'allowed_a');
          // the service's 400 for a key that may not change an index (records, settings, rules, synonyms, copy/move)
          const changesIndex = route.method !== 'GET' && route.path.startsWith('/1/indexes/') && ['addObject', 'editSettings'].includes(right);
          const refusal = held !== right && changesIndex ? 400 : 403;
          const refused = res.status === refusal && (refusal === 403 || res.body.message === NOT_ENOUGH_RIGHTS);
          if (allowed ? res.status === 403 || refused : !refused) {
            failures.push(`${route.op} ${route.method} ${path} with [${held}]: ${res.status} ${JSON.stringify(res.body).slice(0, 80)}`);
          }
          if (res.status >= 500) failures.push(`${route.op}: ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

describe('index restrictions', () => {
  let engine: Lantern;
  let send: Send;
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    for (const name of ['dev_movies', 'dev_books', 'prod_movies', 'movies_fr']) await send('PUT', `/1/indexes/${name}/1`, { title: name });
    await engine.waitForTasks();
  });

  it('leading and trailing wildcards', async () => {
    const lead = (await send('POST', '/1/keys', { acl: ['search'], indexes: ['*_movies'] })).body.key;
    const trail = (await send('POST', '/1/keys', { acl: ['search'], indexes: ['dev_*'] })).body.key;
    const both = (await send('POST', '/1/keys', { acl: ['search'], indexes: ['*movies*'] })).body.key;
    const exact = (await send('POST', '/1/keys', { acl: ['search'], indexes: ['dev_books'] })).body.key;
    const status = async (key: string, index: string) => (await send('POST', `/1/indexes/${index}/query`, {}, as(key))).status;
    expect([await status(lead, 'dev_movies'), await status(lead, 'prod_movies'), await status(lead, 'movies_fr')]).toEqual([200, 200, 403]);
    expect([await status(trail, 'dev_movies'), await status(trail, 'dev_books'), await status(trail, 'prod_movies')]).toEqual([200, 200, 403]);
    expect([await status(both, 'movies_fr'), await status(both, 'dev_books')]).toEqual([200, 403]);
    expect([await status(exact, 'dev_books'), await status(exact, 'dev_movies')]).toEqual([200, 403]);
  });

  it('one forbidden index refuses a whole multi-query, multi-get or multi-index batch, nothing applied', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search', 'addObject'], indexes: ['dev_*'] })).body.key;
    const queries = await send('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'dev_movies' }, { indexName: 'prod_movies' }] }, as(key));
    expectError(queries, 403, /^Index not allowed with this API key$/); // the service's words: no index named
    expect((await send('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'dev_movies' }, { indexName: 'dev_books' }] }, as(key))).status).toBe(200);
    expectError(await send('POST', '/1/indexes/*/objects', { requests: [{ indexName: 'dev_movies', objectID: '1' }, { indexName: 'prod_movies', objectID: '1' }] }, as(key)), 403);
    const batch = await send('POST', '/1/indexes/*/batch', { requests: [
      { action: 'addObject', indexName: 'dev_movies', body: { objectID: 'new', title: 'x' } },
      { action: 'addObject', indexName: 'prod_movies', body: { objectID: 'new', title: 'x' } },
    ] }, as(key));
    expectError(batch, 403);
    await engine.waitForTasks();
    expectError(await send('GET', '/1/indexes/dev_movies/new'), 404);
    expectError(await send('GET', '/1/indexes/prod_movies/new'), 404);
  });

  it('copy/move needs the destination too; a listing shows only reachable indexes', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['addObject', 'listIndexes'], indexes: ['dev_*'] })).body.key;
    expectError(await send('POST', '/1/indexes/dev_movies/operation', { operation: 'copy', destination: 'prod_x' }, as(key)), 403);
    const names = (await send('GET', '/1/indexes', undefined, as(key))).body.items.map((i: any) => i.name);
    expect(names.sort()).toEqual(['dev_books', 'dev_movies']);
  });
});

describe('query restrictions', () => {
  let engine: Lantern;
  let send: Send;
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/films/settings', { attributesForFaceting: ['genre'], unretrievableAttributes: ['secret'] });
    const records = Array.from({ length: 30 }, (_, i) => ({ objectID: String(i), title: `film ${i}`, genre: i % 2 ? 'drama' : 'comedy', secret: 's' }));
    await send('POST', '/1/indexes/films/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
  });

  it('maxHitsPerQuery caps hitsPerPage and length', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search', 'browse'], maxHitsPerQuery: 3 })).body.key;
    expect((await send('POST', '/1/indexes/films/query', { hitsPerPage: 100 }, as(key))).body.hits).toHaveLength(3);
    expect((await send('POST', '/1/indexes/films/query', {}, as(key))).body.hits).toHaveLength(3);
    expect((await send('POST', '/1/indexes/films/query', { offset: 0, length: 10 }, as(key))).body.hits).toHaveLength(3);
    expect((await send('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'films', params: 'hitsPerPage=50' }] }, as(key))).body.results[0].hits).toHaveLength(3);
    expect((await send('POST', '/1/indexes/films/browse', {}, as(key))).body.hits).toHaveLength(3);
    expect((await send('POST', '/1/indexes/films/query', { hitsPerPage: 2 }, as(key))).body.hits).toHaveLength(2);
  });

  it('queryParameters are forced and cannot be overridden; filters AND', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search'], queryParameters: 'filters=genre%3Adrama&hitsPerPage=100' })).body.key;
    const all = await send('POST', '/1/indexes/films/query', { hitsPerPage: 1 }, as(key));
    expect(all.body.nbHits).toBe(15);
    expect(all.body.hits).toHaveLength(15);
    expect(all.body.hits.every((h: any) => h.genre === 'drama')).toBe(true);
    const anded = await send('POST', '/1/indexes/films/query', { filters: 'genre:comedy' }, as(key));
    expect(anded.body.nbHits).toBe(0);
    const escape = await send('POST', '/1/indexes/films/query', { filters: 'genre:comedy) OR (genre:comedy' }, as(key));
    expect(escape.status).toBe(400);
    const viaParams = await send('POST', '/1/indexes/films/query', { params: 'filters=NOT%20genre%3Adrama' }, as(key));
    expect(viaParams.body.nbHits).toBe(0);
    const facetForm = await send('POST', '/1/indexes/films/query', { facetFilters: ['genre:comedy'] }, as(key));
    expect(facetForm.body.nbHits).toBe(0);
  });

  it('referers are checked against the Referer header', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search'], referers: ['*.example.com/*', 'https://shop.test/*'] })).body.key;
    const q = (referer?: string) => send('POST', '/1/indexes/films/query', {}, as(key, referer ? { Referer: referer } : {}));
    expect((await q('https://www.example.com/page')).status).toBe(200);
    expect((await q('https://shop.test/cart')).status).toBe(200);
    expectError(await q('https://evil.test/www.example.com'), 403);
    expectError(await q(), 403);
  });

  it('unretrievable attributes need seeUnretrievableAttributes', async () => {
    const plain = (await send('POST', '/1/keys', { acl: ['search'] })).body.key;
    const sees = (await send('POST', '/1/keys', { acl: ['search', 'seeUnretrievableAttributes'] })).body.key;
    expect((await send('GET', '/1/indexes/films/1', undefined, as(plain))).body.secret).toBeUndefined();
    expect((await send('GET', '/1/indexes/films/1', undefined, as(sees))).body.secret).toBe('s');
    expect((await send('POST', '/1/indexes/films/query', { filters: 'objectID:1' }, as(plain))).body.hits[0]?.secret).toBeUndefined();
  });

  it('an engine without an admin key stays open', async () => {
    const { Lantern } = await import('../../src/lantern.js');
    const open = await Lantern.open();
    expect((await open.request({ method: 'GET', path: '/1/keys' })).status).toBe(200);
    expect((await open.request({ method: 'POST', path: '/1/keys', body: { acl: ['search'] } })).status).toBe(200);
  });
});
