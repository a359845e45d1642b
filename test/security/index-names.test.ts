// Index names: blank names (any Unicode whitespace or invisible character)
// and names over 512 characters are refused wherever a name is accepted
// (writes, index keys, replicas, copy/move destinations, insight events),
// and a key's `indexes` entries are names or `*`-prefix/suffix patterns,
// nothing else: a blank entry matches no index.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { APP_ID, expectError, openEngine, sender, type Send } from '../api/helpers.js';

const as = (key: string) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key });
const BLANKS = ['', ' ', '\u3000', '\u00a0', '\t', '\u2003 ', '\u200b', '\ufeff'];
const path = (name: string) => `/1/indexes/${encodeURIComponent(name)}`;

describe('index names', () => {
  let engine: Lantern;
  let send: Send;
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    for (const name of ['films', 'dev_films', 'films2', 'prod']) await send('PUT', `${path(name)}/1`, { title: name });
    await engine.waitForTasks();
  });
  const reaches = async (key: string, index: string) => (await send('POST', `${path(index)}/query`, {}, as(key))).status;

  it('an index key for a blank index is refused (it searched every index)', async () => {
    for (const name of BLANKS.filter((n) => n !== '')) {
      expectError(await send('POST', `${path(name)}/keys`, { acl: ['search'] }), 400, /index name.*blank/);
      expectError(await send('PUT', `${path(name)}/keys/some-key-value`, { acl: ['search'] }), 400, /blank/);
    }
  });

  it('blank and space-edged names are refused for writes, replicas and copy/move destinations', async () => {
    for (const name of BLANKS.filter((n) => n !== '')) {
      expectError(await send('PUT', `${path(name)}/1`, { a: 1 }), 400, /Invalid index name/);
      expectError(await send('PUT', `${path(name)}/settings`, { searchableAttributes: ['a'] }), 400);
    }
    for (const name of [...BLANKS, ' films', 'films\u3000']) {
      expectError(await send('POST', '/1/indexes/*/batch', { requests: [{ action: 'addObject', indexName: name, body: { a: 1 } }] }), 400);
      expectError(await send('POST', `${path('films')}/operation`, { operation: 'copy', destination: name }), 400, /destination/);
      // an empty entry is ignored, as the service does (no replica is named); any other blank one is refused
      if (name !== '') expectError(await send('PUT', `${path('films')}/settings`, { replicas: [name] }), 400, /replica/);
      expectError(await send('PUT', `${path('films')}/settings`, { replicas: [`virtual(${name})`] }), 400, /replica/);
    }
    expect((await send('PUT', `${path('films')}/settings`, { replicas: [''] })).status).toBe(200);
    await engine.waitForTasks();
    expect((await send('GET', '/1/indexes')).body.items.map((i: { name: string }) => i.name).sort()).toEqual(['dev_films', 'films', 'films2', 'prod']);
  });

  it('names over 512 characters are refused everywhere: replicas, destinations, insight events too', async () => {
    const long = 'r'.repeat(4080);
    const justOver = 'n'.repeat(513);
    for (const name of [long, justOver]) {
      expectError(await send('PUT', `${path('films')}/settings`, { replicas: [name] }), 400, /replica name.*512/);
      expectError(await send('PUT', `${path('films')}/settings`, { replicas: [`virtual(${name})`] }), 400, /512/);
      expectError(await send('POST', `${path('films')}/operation`, { operation: 'move', destination: name }), 400, /512/);
      expectError(await send('PUT', `${path(name)}/1`, { a: 1 }), 400, /512/);
    }
    const event = (index: string) => ({ events: [{ eventType: 'view', eventName: 'seen', index, userToken: 'u1', objectIDs: ['1'] }] });
    expect((await send('POST', '/1/events', event('films'))).status).toBe(200);
    for (const name of [long, justOver, ' ', '\u3000']) expectError(await send('POST', '/1/events', event(name)), 422, /index/);
    const longest = 'm'.repeat(512);
    expect((await send('PUT', `${path('films')}/settings`, { replicas: [`virtual(${longest})`] })).status).toBe(200);
    await engine.waitForTasks();
    expect(engine.indexes.has(longest)).toBe(true);
    await send('PUT', `${path('films')}/settings`, { replicas: [] });
    await send('DELETE', path(longest));
    await engine.waitForTasks();
  });

  it("a key's indexes: blank entries are refused; names are literal, `*` at an end is the only pattern", async () => {
    for (const entry of BLANKS) {
      expectError(await send('POST', '/1/keys', { acl: ['search'], indexes: [entry] }), 400, /indexes/);
      expectError(await send('POST', '/1/keys', { acl: ['search'], indexes: ['films', entry] }), 400, /indexes/);
    }
    expectError(await send('POST', '/1/keys', { acl: ['search'], indexes: ['f*s'] }), 400);
    const key = async (indexes: string[]) => (await send('POST', '/1/keys', { acl: ['search'], indexes })).body.key as string;
    const literal = await key(['films']);
    expect(await reaches(literal, 'films')).toBe(200);
    for (const other of ['films2', 'dev_films']) expect(await reaches(literal, other)).toBe(403);
    // regular-expression and glob characters are text, not patterns
    for (const entries of [['film.'], ['films?'], ['f%'], ['[f]ilms'], ['films|prod'], ['^films$']]) {
      const k = await key(entries);
      for (const index of ['films', 'films2', 'prod']) expect(await reaches(k, index)).toBe(403);
    }
    const prefix = await key(['films*']);
    expect([await reaches(prefix, 'films'), await reaches(prefix, 'films2'), await reaches(prefix, 'dev_films')]).toEqual([200, 200, 403]);
    const suffix = await key(['*_films']);
    expect([await reaches(suffix, 'dev_films'), await reaches(suffix, 'films')]).toEqual([200, 403]);
    const every = await key([]);
    expect(await reaches(every, 'prod')).toBe(200);
  });

  it('a stored key with a blank index (kept from before these checks) reaches no index', async () => {
    const base = { createdAt: 0, acl: ['search'], description: '', maxHitsPerQuery: 0, maxQueriesPerIPPerHour: 0, queryParameters: '', referers: [], validity: 0, expiresAt: 0 };
    await engine.writeKey({ type: 'key', action: 'put', key: { ...base, value: 'old-index-key', indexes: [], index: '\u3000' } });
    await engine.writeKey({ type: 'key', action: 'put', key: { ...base, value: 'old-global-key', indexes: [' '] } });
    for (const index of ['films', 'prod']) {
      expect(await reaches('old-index-key', index)).toBe(403);
      expect(await reaches('old-global-key', index)).toBe(403);
    }
  });
});
