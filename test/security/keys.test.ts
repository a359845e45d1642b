// API keys: CRUD, every field, validity, restore, persistence, the official client.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { algoliasearch } from 'algoliasearch';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { fsStorage } from '../../src/storage/fs.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID, expectError, openEngine, sender } from '../api/helpers.js';

const as = (key: string) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key });

describe('key management', () => {
  it('adds a key with every field and reads it back', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    const body = {
      acl: ['search', 'browse'], description: 'front end', indexes: ['dev_*', '*_products'], maxHitsPerQuery: 5,
      maxQueriesPerIPPerHour: 100, queryParameters: 'typoTolerance=false', referers: ['*.example.com/*'], validity: 0,
    };
    const added = await send('POST', '/1/keys', body);
    expect(added.status).toBe(200);
    expect(added.body.key).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(added.body.createdAt)).not.toBeNaN();
    const got = await send('GET', `/1/keys/${added.body.key}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ value: added.body.key, createdAt: expect.any(Number), ...body });
    const list = await send('GET', '/1/keys');
    expect(list.body.keys.map((k: any) => k.value)).toEqual([added.body.key]);
  });

  it('keys are random, 128 bits or more', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    const values = new Set<string>();
    for (let i = 0; i < 20; i++) values.add((await send('POST', '/1/keys', { acl: ['search'] })).body.key);
    expect(values.size).toBe(20);
    for (const v of values) expect(v.length * 4).toBeGreaterThanOrEqual(128);
  });

  it('defaults: all indexes, no limits; acl is required (an empty list is no rights)', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    expectError(await send('POST', '/1/keys', {}), 400, /Missing "acl"/);
    expectError(await send('POST', '/1/indexes/i/keys', { description: 'no rights said' }), 400, /Missing "acl"/);
    const { key } = (await send('POST', '/1/keys', { acl: [] })).body;
    expect((await send('GET', `/1/keys/${key}`)).body).toMatchObject({
      acl: [], description: '', indexes: [], maxHitsPerQuery: 0, maxQueriesPerIPPerHour: 0, queryParameters: '', referers: [], validity: 0,
    });
  });

  it('refuses unknown rights and malformed fields with 400', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    expectError(await send('POST', '/1/keys', { acl: ['search', 'fly'] }), 400, /fly/);
    expectError(await send('POST', '/1/keys', { acl: ['admin'] }), 400);
    expectError(await send('POST', '/1/keys', { acl: 'search' }), 400);
    expectError(await send('POST', '/1/keys', { acl: ['search'], maxHitsPerQuery: -1 }), 400);
    expectError(await send('POST', '/1/keys', { acl: ['search'], validity: 1.5 }), 400);
    expectError(await send('POST', '/1/keys', { acl: ['search'], indexes: ['a*b'] }), 400);
    expectError(await send('POST', '/1/keys', '{not json'), 400);
    expect((await send('GET', '/1/keys')).body.keys).toEqual([]);
    // every right of the spec's acl enum is accepted, those of products Lantern lacks too
    for (const acl of [['inference'], ['nluReadProject', 'nluWriteIntent', 'nluPrediction', 'nluReadAnswers']]) {
      expect((await send('POST', '/1/keys', { acl })).status).toBe(200);
    }
    expect((await send('GET', '/1/keys')).body.keys).toHaveLength(2);
  });

  it('updates keep what the body leaves out; unknown keys are 404', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    const { key } = (await send('POST', '/1/keys', { acl: ['search'], description: 'a' })).body;
    const updated = await send('PUT', `/1/keys/${key}`, { acl: ['browse'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ key, updatedAt: expect.any(String) });
    expect((await send('GET', `/1/keys/${key}`)).body).toMatchObject({ acl: ['browse'], description: 'a' });
    expectError(await send('PUT', '/1/keys/nope', { acl: ['search'] }), 404);
    expectError(await send('GET', '/1/keys/nope'), 404);
    expectError(await send('DELETE', '/1/keys/nope'), 404);
  });

  it('delete then restore; restoring a key never deleted is 404', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    const { key } = (await send('POST', '/1/keys', { acl: ['search'] })).body;
    await send('PUT', '/1/indexes/i/1', { a: 1 });
    await engine.waitForTasks();
    expect((await send('GET', '/1/indexes/i/1', undefined, as(key))).status).toBe(200);
    expect((await send('DELETE', `/1/keys/${key}`)).body).toEqual({ deletedAt: expect.any(String) });
    expectError(await send('GET', `/1/keys/${key}`), 404);
    expectError(await send('GET', '/1/indexes/i/1', undefined, as(key)), 403);
    expect((await send('POST', `/1/keys/${key}/restore`)).body).toEqual({ key, createdAt: expect.any(String) });
    expect((await send('GET', '/1/indexes/i/1', undefined, as(key))).status).toBe(200);
    expectError(await send('POST', `/1/keys/${key}/restore`), 404);
    expectError(await send('POST', '/1/keys/never/restore'), 404);
  });

  it('a key expires after its validity', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    const { key } = (await send('POST', '/1/keys', { acl: ['search'], validity: 1 })).body;
    const got = (await send('GET', `/1/keys/${key}`)).body;
    expect(got.validity).toBeGreaterThan(0);
    expect(got.validity).toBeLessThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 1100));
    expectError(await send('GET', `/1/keys/${key}`), 404);
    expectError(await send('GET', '/1/indexes', undefined, as(key)), 403);
    expect((await send('GET', '/1/keys')).body.keys).toEqual([]);
  });

  it('key management needs the admin key; a key may read itself', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    const { key } = (await send('POST', '/1/keys', { acl: [
      'search', 'browse', 'addObject', 'deleteObject', 'deleteIndex', 'listIndexes', 'settings', 'editSettings', 'logs', 'analytics',
    ] })).body;
    const other = (await send('POST', '/1/keys', { acl: ['search'] })).body.key;
    expectError(await send('POST', '/1/keys', { acl: ['search'] }, as(key)), 403);
    expectError(await send('GET', '/1/keys', undefined, as(key)), 403);
    expectError(await send('PUT', `/1/keys/${key}`, { acl: ['search'] }, as(key)), 403);
    expectError(await send('DELETE', `/1/keys/${other}`, undefined, as(key)), 403);
    expectError(await send('POST', `/1/keys/${other}/restore`, undefined, as(key)), 403);
    expectError(await send('GET', `/1/keys/${other}`, undefined, as(key)), 403);
    expectError(await send('POST', '/1/indexes/i/keys', { acl: ['search'] }, as(key)), 403);
    expectError(await send('GET', '/1/indexes/*/keys', undefined, as(key)), 403);
    expect((await send('GET', `/1/keys/${key}`, undefined, as(key))).status).toBe(200);
    expectError(await send('GET', '/1/keys', undefined, as('wrong')), 403);
  });

  it('a key reading itself gets its description as "<redacted>"; the admin key gets it', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    const { key } = (await send('POST', '/1/keys', { acl: ['search'], description: 'front end' })).body;
    const own = await send('GET', `/1/keys/${key}`, undefined, as(key));
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ value: key, acl: ['search'], description: '<redacted>' });
    expect((await send('GET', `/1/keys/${key}`)).body.description).toBe('front end');
  });
});

describe('index-specific keys', () => {
  it('add, list, get, update, delete; reach only their index', async () => {
    const engine = await openEngine();
    const send = sender(engine);
    await send('PUT', '/1/indexes/a/1', { x: 1 });
    await send('PUT', '/1/indexes/b/1', { x: 1 });
    await engine.waitForTasks();
    const { key } = (await send('POST', '/1/indexes/a/keys', { acl: ['search'], description: 'a only', indexes: ['b'] })).body;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect((await send('GET', '/1/indexes/a/keys')).body).toEqual({
      keys: [expect.objectContaining({ value: key, createdAt: expect.any(Number), acl: ['search'], validity: 0, description: 'a only' })],
    });
    expect((await send('GET', '/1/indexes/b/keys')).body).toEqual({ keys: [] });
    expectError(await send('GET', '/1/indexes/missing/keys'), 404);
    expect((await send('GET', '/1/indexes/*/keys')).body.keys).toEqual([expect.objectContaining({ value: key, index: 'a' })]);
    expect((await send('GET', `/1/indexes/a/keys/${key}`)).body).toMatchObject({ value: key, acl: ['search'], description: 'a only' });
    expectError(await send('GET', `/1/indexes/b/keys/${key}`), 404);

    expect((await send('POST', '/1/indexes/a/query', {}, as(key))).status).toBe(200);
    expectError(await send('POST', '/1/indexes/b/query', {}, as(key)), 403);

    expect((await send('PUT', `/1/indexes/a/keys/${key}`, { acl: ['browse'] })).body).toEqual({ key, updatedAt: expect.any(String) });
    expectError(await send('POST', '/1/indexes/a/query', {}, as(key)), 403);
    expect((await send('POST', '/1/indexes/a/browse', {}, as(key))).status).toBe(200);
    // PUT always succeeds, even for a key that does not exist yet
    expect((await send('PUT', '/1/indexes/a/keys/made-up-key-0123456789', { acl: ['search'] })).status).toBe(200);
    expect((await send('POST', '/1/indexes/a/query', {}, as('made-up-key-0123456789'))).status).toBe(200);

    expect((await send('DELETE', `/1/indexes/a/keys/${key}`)).body).toEqual({ deletedAt: expect.any(String) });
    expectError(await send('POST', '/1/indexes/a/browse', {}, as(key)), 403);
    expect((await send('POST', `/1/keys/${key}/restore`)).status).toBe(200);
    expect((await send('POST', '/1/indexes/a/browse', {}, as(key))).status).toBe(200);
  });
});

describe('keys are durable', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
  const open = (dir: string) => Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, storage: fsStorage(dir), snapshotEvery: 0 });

  it('keys, updates, deletions and restores survive a reopen, from the log and from a snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-keys-'));
    dirs.push(dir);
    let engine = await open(dir);
    let send = sender(engine);
    const a = (await send('POST', '/1/keys', { acl: ['search'], description: 'a' })).body.key;
    const b = (await send('POST', '/1/keys', { acl: ['search'] })).body.key;
    const c = (await send('POST', '/1/indexes/i/keys', { acl: ['browse'] })).body.key;
    await send('PUT', `/1/keys/${a}`, { acl: ['search', 'browse'] });
    await send('DELETE', `/1/keys/${b}`);
    await engine.close();

    engine = await open(dir);
    send = sender(engine);
    expect((await send('GET', `/1/keys/${a}`)).body).toMatchObject({ acl: ['search', 'browse'], description: 'a' });
    expectError(await send('GET', `/1/keys/${b}`), 404);
    expect((await send('GET', '/1/indexes/*/keys')).body.keys).toEqual([expect.objectContaining({ value: c, index: 'i' })]);
    await send('PUT', '/1/indexes/i/1', { x: 1 });
    await engine.snapshot();
    await engine.close();

    engine = await open(dir);
    send = sender(engine);
    expect((await send('GET', `/1/keys/${a}`)).status).toBe(200);
    expect((await send('POST', `/1/keys/${b}/restore`)).status).toBe(200); // deleted keys are in the snapshot too
    expect((await send('GET', `/1/keys/${b}`)).status).toBe(200);
    await engine.close();
  });
});

describe('the official client', () => {
  it('addApiKey, waitForApiKey, getApiKey, updateApiKey, deleteApiKey, restoreApiKey', async () => {
    const engine = await openEngine();
    const client = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) });
    const { key } = await client.addApiKey({ acl: ['search'], description: 'from the client', indexes: ['movies'] });
    await client.waitForApiKey({ key, operation: 'add' });
    expect(await client.getApiKey({ key })).toMatchObject({ value: key, acl: ['search'], description: 'from the client' });
    const apiKey = { acl: ['search', 'browse'] as any, description: 'changed' };
    await client.updateApiKey({ key, apiKey });
    await client.waitForApiKey({ key, operation: 'update', apiKey });
    expect((await client.listApiKeys()).keys.map((k) => k.value)).toContain(key);
    await client.deleteApiKey({ key });
    await client.waitForApiKey({ key, operation: 'delete' });
    await client.restoreApiKey({ key });
    await client.waitForApiKey({ key, operation: 'add' });
    expect((await client.getApiKey({ key })).description).toBe('changed');
    expect(ADMIN_HEADERS['x-algolia-api-key']).toBe(ADMIN_KEY);
  });

  it('getLogs with a logs key: the calls, newest first, each under the request id the client sent', async () => {
    const engine = await openEngine();
    const sentIds: string[] = [];
    const base = lanternRequester(engine, '198.51.100.4');
    const requester = { send: (r: Parameters<typeof base.send>[0]) => { sentIds.push(r.headers['request-id']); return base.send(r); } };
    const admin = algoliasearch(APP_ID, ADMIN_KEY, { requester });
    const { taskID } = await admin.saveObject({ indexName: 'movies', body: { objectID: 'm1', title: 'Alien' } });
    await admin.waitForTask({ indexName: 'movies', taskID });
    await admin.searchSingleIndex({ indexName: 'movies', searchParams: { query: 'alien' } });
    const { key } = await admin.addApiKey({ acl: ['logs'] });
    await admin.waitForApiKey({ key, operation: 'add' });
    const reader = algoliasearch(APP_ID, key, { requester: lanternRequester(engine) });
    const { logs } = await reader.getLogs({ length: 1000 });
    expect(logs.map((l) => l.cid)).toEqual([...sentIds].reverse());
    expect(sentIds.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    const search = logs.find((l) => l.url.startsWith('/1/indexes/movies/query?x-algolia-agent='))!;
    expect(search).toMatchObject({ method: 'POST', answer_code: '200', ip: '198.51.100.4', index: 'movies', query_nb_hits: '1' });
    expect((await reader.getLogs({ type: 'build', indexName: 'movies' })).logs.map((l) => `${l.method} ${l.url.split('?')[0]}`))
      .toEqual(['POST /1/indexes/movies']);
    await expect(algoliasearch(APP_ID, 'wrong', { requester: lanternRequester(engine) }).getLogs()).rejects.toMatchObject({ status: 403 });

    // a secured key derived from the logs key reads only the calls of its indexes
    await admin.saveObject({ indexName: 'books', body: { objectID: 'b1', title: 'Dune' } });
    const secured = (admin as any).generateSecuredApiKey({ parentApiKey: key, restrictions: { restrictIndices: ['movies'] } }) as string;
    const limited = algoliasearch(APP_ID, secured, { requester: lanternRequester(engine) });
    const seen = (await limited.getLogs({ length: 1000 })).logs;
    const everything = (await admin.getLogs({ length: 1000 })).logs;
    expect(everything.some((l) => l.index === 'books')).toBe(true);
    // the write, its task polls and the search on movies; not books, not the key calls
    expect(seen.map((l) => l.cid)).toEqual(everything.filter((l) => l.index === 'movies').map((l) => l.cid));
    expect(seen.length).toBeGreaterThanOrEqual(3);
    await expect(limited.getLogs({ indexName: 'books' })).rejects.toMatchObject({ status: 403 });
  });
});
