// Followers (src/follow/): a real `lantern serve` child on loopback, and
// in-process engines following it over HTTP. Snapshot, then the log in
// order; a key limited to some indexes gives a follower those and nothing
// else (no other index, no key, no log, no analytics), in the snapshot and
// in the stream; writes to a follower are refused; the server killed and
// started again: the follower answers meanwhile and catches up; a follower
// away for longer than the server's backlog loads a snapshot again; one
// started offline answers from what its store kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import type { FollowOptions } from '../../src/follow/options.js';
import { startServe, type Served } from '../support/serve.js';
import { expectError, readStreamFor } from '../support/api.js';

const ADMIN = 'follow-admin-key';
const APP = 'FOLLOWAPP';
/** Records' worth of writes the server keeps for followers: small, so that a follower away for a while falls behind it. */
const BACKLOG = 40;

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `lantern-follow-${name}-`));
  dirs.push(dir);
  return dir;
};

let serverDir: string;
let server: Served;
let port: string;
let followKey: string;
let secretKey: string;
const followers: Lantern[] = [];

const startServer = async () => {
  server = await startServe(['--data', serverDir, '--admin-key', ADMIN, '--app-id', APP, '--follow-backlog', String(BACKLOG), ...(port ? ['--port', port] : [])]);
  port = new URL(server.url).port;
};

async function call(method: string, path: string, body?: unknown, key = ADMIN): Promise<{ status: number; body: any }> {
  const response = await fetch(server.url + path, {
    method, headers: { 'x-algolia-api-key': key, 'x-algolia-application-id': APP, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** A batch of records on the server; resolves with its taskID. */
async function write(indexName: string, records: Array<Record<string, unknown>>): Promise<number> {
  const { status, body } = await call('POST', `/1/indexes/${indexName}/batch`, { requests: records.map((body) => ({ action: 'updateObject', body })) });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.taskID;
}

async function follow(storageDir?: string, extra: Partial<FollowOptions> = {}): Promise<Lantern> {
  const engine = await Lantern.open({
    ...(storageDir ? { storage: fsStorage(storageDir) } : {}),
    follow: { url: server.url, apiKey: followKey, appId: APP, retryMs: 50, maxRetryMs: 400, ...extra },
  });
  followers.push(engine);
  return engine;
}

async function search(engine: Lantern, indexName: string, query = '', extra: Record<string, unknown> = {}) {
  const response = await engine.request({ method: 'POST', path: `/1/indexes/${indexName}/query`, body: { query, hitsPerPage: 100, ...extra } });
  return response;
}

const hitIDs = async (engine: Lantern, indexName: string, query = '') =>
  ((await search(engine, indexName, query)).body as { hits: Array<{ objectID: string }> }).hits.map((h) => h.objectID).sort();

/** Reads `path` of the follow API with `key` for `ms` milliseconds (a stream is cut then); the bytes as text. */
function readFor(path: string, key: string, ms: number): Promise<string> {
  return readStreamFor(server.url + path, { 'x-algolia-api-key': key, 'x-algolia-application-id': APP }, ms);
}

/** The last task of the snapshot a follower with `key` would load now. */
async function snapshotTask(key: string): Promise<number> {
  const response = await fetch(`${server.url}/1/lantern/follow/snapshot`, { headers: { 'x-algolia-api-key': key, 'x-algolia-application-id': APP } });
  await response.arrayBuffer();
  return Number(response.headers.get('x-lantern-task-id'));
}

beforeAll(async () => {
  serverDir = tempDir('server');
  await startServer();
  await call('PUT', '/1/indexes/products/settings', { searchableAttributes: ['name'], customRanking: ['desc(rank)'] });
  await call('PUT', '/1/indexes/products/synonyms/s1', { objectID: 's1', type: 'synonym', synonyms: ['tv', 'television'] });
  await write('products', [{ objectID: 'p1', name: 'television set', rank: 1 }, { objectID: 'p2', name: 'radio', rank: 2 }]);
  await write('secret_salaries', [{ objectID: 's1', name: 'television salary TOPSECRETRECORD', rank: 1 }]);
  secretKey = (await call('POST', '/1/keys', { acl: ['search'], description: 'SECRETKEYDESCRIPTION' })).body.key;
  followKey = (await call('POST', '/1/keys', { acl: ['follow'], indexes: ['products*'] })).body.key;
  // a search recorded in the server's analytics
  await call('POST', '/1/indexes/products/query', { query: 'ANALYTICSQUERY' });
}, 60_000);

afterAll(async () => {
  for (const engine of followers) await engine.close().catch(() => {});
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a follower of lantern serve', () => {
  it('the follow endpoints need the follow right, and refuse a bad position with a 400', async () => {
    expectError(await call('GET', '/1/lantern/follow/snapshot', undefined, secretKey), 403, /follow/);
    expectError(await call('GET', '/1/lantern/follow/log?after=x', undefined, followKey), 400, /after/);
  });

  it('loads the snapshot, then the log: the indexes its key reaches and nothing else', async () => {
    const follower = await follow();
    expect(follower.follower!.state).toMatchObject({ connected: true, caughtUp: true, snapshotsLoaded: 1 });
    expect(await hitIDs(follower, 'products', 'tv')).toEqual(['p1']);
    expect((await search(follower, 'secret_salaries')).status).toBe(404);
    expect([...follower.indexes.keys()]).toEqual(['products']);
    expect(follower.keys.size).toBe(0);
    const searches = await follower.request({ method: 'GET', path: '/2/searches?index=products' });
    expect(JSON.stringify(searches.body)).not.toContain('ANALYTICSQUERY');

    const taskID = await write('products', [{ objectID: 'p3', name: 'television stand', rank: 3 }]);
    await write('secret_salaries', [{ objectID: 's2', name: 'another TOPSECRETRECORD' }]);
    await follower.follower!.caughtUp(taskID);
    expect(await hitIDs(follower, 'products', 'television')).toEqual(['p1', 'p3']);
    expect([...follower.indexes.keys()]).toEqual(['products']);
  });

  it('never sends keys, logs, analytics or other indexes: neither in the snapshot nor in the log', async () => {
    const snapshot = await readFor('/1/lantern/follow/snapshot', followKey, 5_000);
    const log = readFor('/1/lantern/follow/log?after=0', followKey, 1_500).catch(() => '');
    // the log holds what came after a follower first asked (the snapshot above): it is tailed from there
    const tail = readFor(`/1/lantern/follow/log?after=${await snapshotTask(followKey)}`, followKey, 2_500);
    await call('POST', '/1/keys', { acl: ['search'], description: 'LATERKEYDESCRIPTION' });
    await write('secret_salaries', [{ objectID: 's3', name: 'TOPSECRETRECORD again' }]);
    await call('POST', '/1/indexes/products/query', { query: 'ANALYTICSQUERY' });
    await write('products', [{ objectID: 'p4', name: 'VISIBLERECORD' }]);
    const streamed = await tail;
    expect(snapshot).toContain('television');
    expect(streamed).toContain('VISIBLERECORD');
    for (const text of [snapshot, streamed, await log]) {
      for (const secret of ['TOPSECRETRECORD', 'secret_salaries', secretKey, followKey, ADMIN, 'SECRETKEYDESCRIPTION', 'LATERKEYDESCRIPTION', 'ANALYTICSQUERY']) {
        expect(text).not.toContain(secret);
      }
    }
    // the tasks it does not see move its place on, and nothing more
    expect(streamed).toMatch(/id: \d+\nevent: skip\ndata: \{\}/);
  });

  it('a copy between its indexes is applied; one from an index the key does not reach makes it load a new snapshot', async () => {
    const follower = await follow();
    const copied = await call('POST', '/1/indexes/products/operation', { operation: 'copy', destination: 'products_copy' });
    await follower.follower!.caughtUp(copied.body.taskID);
    expect(follower.follower!.state.snapshotsLoaded).toBe(1);
    expect(await hitIDs(follower, 'products_copy', 'television')).toEqual(await hitIDs(follower, 'products', 'television'));

    const pulled = await call('POST', '/1/indexes/secret_salaries/operation', { operation: 'copy', destination: 'products_from_secret' });
    await follower.follower!.caughtUp(pulled.body.taskID);
    expect(follower.follower!.state.snapshotsLoaded).toBe(2);
    // the destination is an index of the key's: what it holds now is the follower's to have
    expect((await search(follower, 'products_from_secret')).body).toMatchObject({ nbHits: 3 });
    expect([...follower.indexes.keys()].sort()).toEqual(['products', 'products_copy', 'products_from_secret']);
    for (const name of ['products_copy', 'products_from_secret']) expect((await call('DELETE', `/1/indexes/${name}`)).status).toBe(200);
  });

  it('receives the writes in the order the server applied them', async () => {
    const follower = await follow();
    let last = 0;
    for (let i = 1; i <= 30; i++) {
      const { body } = await call('PUT', '/1/indexes/products/counter', { objectID: 'counter', name: 'counter', value: i });
      last = body.taskID;
    }
    await follower.follower!.caughtUp(last);
    const counter = await follower.request({ method: 'GET', path: '/1/indexes/products/counter' });
    expect(counter.body).toMatchObject({ value: 30 });
    expect(follower.follower!.state.lastTaskID).toBeGreaterThanOrEqual(last);
  });

  it('refuses writes with a 405 saying it is a follower', async () => {
    const follower = followers[0];
    const refused = await follower.request({ method: 'POST', path: '/1/indexes/products', body: { name: 'local' } });
    expectError({ status: refused.status, body: refused.body as any }, 405, /follows .*send writes there/);
    const key = await follower.request({ method: 'POST', path: '/1/keys', body: { acl: ['search'] } });
    expect(key.status).toBe(405);
  });

  it('answers while the server is down, and catches up once it is back', async () => {
    const follower = await follow(tempDir('kept'));
    await server.kill();
    await until(() => !follower.follower!.state.connected);
    expect(await hitIDs(follower, 'products', 'television')).toEqual(['p1', 'p3']);
    await startServer();
    const taskID = await write('products', [{ objectID: 'p5', name: 'television after restart' }]);
    await follower.follower!.caughtUp(taskID);
    expect(await hitIDs(follower, 'products', 'television')).toEqual(['p1', 'p3', 'p5']);
  }, 60_000);

  it('loads a snapshot again when the server no longer keeps the writes it missed; started offline, it answers from its store', async () => {
    const dir = tempDir('behind');
    let follower = await follow(dir);
    const loaded = follower.follower!.state.snapshotsLoaded;
    await follower.close();
    let last = 0;
    for (let i = 0; i < 3; i++) last = await write('products', Array.from({ length: 10 }, (_, j) => ({ objectID: `bulk${i}-${j}`, name: `bulk item ${i}` })));
    follower = await follow(dir);
    await follower.follower!.caughtUp(last);
    // it went on from the last task its store kept
    expect(loaded).toBe(1);
    expect(follower.follower!.state.snapshotsLoaded).toBe(0);
    expect((await search(follower, 'products', 'bulk')).body).toMatchObject({ nbHits: 30 });
    expect(follower.follower!.state.lastError).toBeUndefined();

    // away while the server took more writes than it keeps
    await follower.close();
    for (let i = 0; i < 10; i++) last = await write('products', Array.from({ length: 10 }, (_, j) => ({ objectID: `more${i}-${j}`, name: `more item ${i}` })));
    follower = await follow(dir);
    await follower.follower!.caughtUp(last);
    expect(follower.follower!.state.snapshotsLoaded).toBe(1);
    expect((await search(follower, 'products', 'more')).body).toMatchObject({ nbHits: 100 });

    // started with the server down: what its store kept
    await follower.close();
    await server.kill();
    follower = await follow(dir);
    expect(follower.follower!.state.connected).toBe(false);
    expect(follower.follower!.state.lastError).toBeDefined();
    expect((await search(follower, 'products', 'more')).body).toMatchObject({ nbHits: 100 });
    await startServer();
    const taskID = await write('products', [{ objectID: 'p6', name: 'television back' }]);
    await follower.follower!.caughtUp(taskID);
    expect(await hitIDs(follower, 'products', 'back')).toEqual(['p6']);
  }, 90_000);
});

async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('an engine nobody follows', () => {
  it('keeps no writes for followers until one asks, then keeps those after the snapshot it was given', async () => {
    const engine = await Lantern.open({ adminKey: ADMIN });
    const admin = { 'x-algolia-api-key': ADMIN, 'x-algolia-application-id': engine.appId };
    const batch = (objectID: string) => engine.request({ method: 'POST', path: '/1/indexes/things/batch', headers: admin, body: { requests: [{ action: 'addObject', body: { objectID } }] } });
    await batch('before');
    await engine.waitForTasks();
    expect(engine.services.follow).toBeUndefined();
    const snapshot = await engine.request({ method: 'GET', path: '/1/lantern/follow/snapshot', headers: admin });
    expect(snapshot.status).toBe(200);
    expect(engine.services.follow).toBeDefined();
    const taken = Number(snapshot.headers!['x-lantern-task-id']);
    // the follower goes on after its snapshot; nothing before the first follower was kept
    expect((await engine.request({ method: 'GET', path: `/1/lantern/follow/log?after=${taken}`, headers: admin })).status).toBe(200);
    expect((await engine.request({ method: 'GET', path: '/1/lantern/follow/log?after=0', headers: admin })).status).toBe(410);
    await engine.close();
  });

  it('opened with followBacklog 0, refuses followers with a 503', async () => {
    const engine = await Lantern.open({ adminKey: ADMIN, followBacklog: 0 });
    const response = await engine.request({ method: 'GET', path: '/1/lantern/follow/snapshot', headers: { 'x-algolia-api-key': ADMIN, 'x-algolia-application-id': engine.appId } });
    expect(response.status).toBe(503);
    expect(engine.services.follow).toBeUndefined();
    await engine.close();
  });
});
