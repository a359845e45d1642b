// Multi-cluster user mapping through the official search client: assign,
// move, batch, get, top, list, search, remove, pending; records written
// with a user ID counted per user from what is stored; calls for an
// unassigned user rejected; the mapping survives reopening (log, snapshot).
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { ADMIN_KEY, APP_ID, readFixture } from '../api/helpers.js';
import { cleanup, closeEngine, openAt, tempDir } from '../persistence/helpers.js';

const CLUSTERS = ['c1-test', 'c2-test'];
const talks = readFixture<any[]>('talks.json');
const forAda = talks.slice(0, 120);
const forBob = talks.slice(120, 170);
const shared = talks.slice(170);

type Client = ReturnType<typeof algoliasearch>;
const as = (userID: string) => ({ headers: { 'X-Algolia-User-ID': userID } });
const bytes = (records: unknown[]) => records.reduce<number>((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);

function clientOf(engine: Lantern): Client {
  return algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) });
}

async function saveAs(client: Client, userID: string | undefined, objects: any[]): Promise<void> {
  await client.saveObjects({ indexName: 'talks', objects, waitForTasks: true }, userID ? as(userID) : undefined);
}

async function rejection(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error: any = await call.then(() => undefined, (e) => e);
  expect(error, 'the call should have been refused').toBeDefined();
  return { status: error.status, message: error.message };
}

describe('multi-cluster mapping, in-process', () => {
  let engine: Lantern;
  let client: Client;

  beforeAll(async () => {
    engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, clusters: CLUSTERS });
    client = clientOf(engine);
    await client.assignUserId({ xAlgoliaUserID: 'ada', assignUserIdParams: { cluster: 'c1-test' } });
    await client.assignUserId({ xAlgoliaUserID: 'bob', assignUserIdParams: { cluster: 'c2-test' } });
    await saveAs(client, 'ada', forAda);
    await saveAs(client, 'bob', forBob);
    await saveAs(client, undefined, shared);
  }, 60_000);

  it('a user\'s figures are the records stored under its ID and their JSON size', async () => {
    expect(await client.getUserId({ userID: 'ada' })).toEqual({ userID: 'ada', clusterName: 'c1-test', nbRecords: forAda.length, dataSize: bytes(forAda) });
    expect(await client.getUserId({ userID: 'bob' })).toEqual({ userID: 'bob', clusterName: 'c2-test', nbRecords: forBob.length, dataSize: bytes(forBob) });
    const { topUsers, clusters } = await client.listClusters() as any;
    expect(topUsers).toEqual(['c1-test', 'c2-test']);
    expect(clusters).toEqual([
      { clusterName: 'c1-test', nbRecords: forAda.length, nbUserIDs: 1, dataSize: bytes(forAda) },
      { clusterName: 'c2-test', nbRecords: forBob.length, nbUserIDs: 1, dataSize: bytes(forBob) },
    ]);
  });

  it('a record rewritten without a user is shared again; deleted ones stop counting', async () => {
    const [first, second] = forAda;
    await client.waitForTask({ indexName: 'talks', taskID: (await client.saveObject({ indexName: 'talks', body: first })).taskID });
    await client.waitForTask({ indexName: 'talks', taskID: (await client.deleteObject({ indexName: 'talks', objectID: second.objectID }, as('ada'))).taskID });
    const ada = await client.getUserId({ userID: 'ada' });
    expect(ada).toMatchObject({ nbRecords: forAda.length - 2, dataSize: bytes(forAda.slice(2)) });
    await saveAs(client, 'ada', [first, second]);
    expect(await client.getUserId({ userID: 'ada' })).toMatchObject({ nbRecords: forAda.length });
  });

  it('calls for a user no cluster holds are rejected, and write nothing', async () => {
    const search = await rejection(client.searchSingleIndex({ indexName: 'talks', searchParams: { query: 'ocean' } }, as('ghost')));
    expect(search).toMatchObject({ status: 404, message: expect.stringMatching(/ghost.*not assigned/) });
    const write = await rejection(client.saveObject({ indexName: 'talks', body: { objectID: 'ghost-1', name: 'x' } }, as('ghost')));
    expect(write.status).toBe(404);
    await engine.waitForTasks();
    expect(engine.indexes.get('talks')!.get('ghost-1')).toBeUndefined();
    expect((await rejection(client.getUserId({ userID: 'ghost' }))).status).toBe(404);
    // an assigned user's calls go through
    const ok = await client.searchSingleIndex({ indexName: 'talks', searchParams: { query: 'ocean', hitsPerPage: 0 } }, as('ada'));
    expect(ok.nbHits).toBeGreaterThan(0);
  });

  it('assignment checks the header, the cluster and the user ID form', async () => {
    expect((await rejection(client.assignUserId({ xAlgoliaUserID: 'carl', assignUserIdParams: { cluster: 'c9-nowhere' } }))).status).toBe(400);
    expect((await rejection(client.assignUserId({ xAlgoliaUserID: 'bad/id', assignUserIdParams: { cluster: 'c1-test' } }))).status).toBe(400);
    const noHeader = await engine.request({ method: 'POST', path: '/1/clusters/mapping', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY }, body: { cluster: 'c1-test' } });
    expect(noHeader).toMatchObject({ status: 400, body: { message: expect.stringMatching(/User-ID/) } });
    // the spec's header name works too
    const spec = await engine.request({ method: 'POST', path: '/1/clusters/mapping', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'x-service-user-id': 'dora' }, body: { cluster: 'c2-test' } });
    expect(spec.status).toBe(200);
    expect(await client.getUserId({ userID: 'dora' })).toMatchObject({ clusterName: 'c2-test', nbRecords: 0 });
  });

  it('moving a user moves its figures to the other cluster', async () => {
    await client.assignUserId({ xAlgoliaUserID: 'bob', assignUserIdParams: { cluster: 'c1-test' } });
    expect(await client.getUserId({ userID: 'bob' })).toMatchObject({ clusterName: 'c1-test', nbRecords: forBob.length });
    const { clusters } = await client.listClusters() as any;
    expect(clusters[0]).toMatchObject({ clusterName: 'c1-test', nbRecords: forAda.length + forBob.length, nbUserIDs: 2 });
    await client.assignUserId({ xAlgoliaUserID: 'bob', assignUserIdParams: { cluster: 'c2-test' } });
  });

  it('batch assignment adds users but does not move them', async () => {
    const users = Array.from({ length: 2500 }, (_, i) => `batch-${String(i).padStart(4, '0')}`);
    const answer = await client.batchAssignUserIds({ xAlgoliaUserID: 'ada', batchAssignUserIdsParams: { cluster: 'c2-test', users } });
    expect(typeof answer.createdAt).toBe('string');
    const moving = await rejection(client.batchAssignUserIds({ xAlgoliaUserID: 'ada', batchAssignUserIdsParams: { cluster: 'c2-test', users: ['ada'] } }));
    expect(moving).toMatchObject({ status: 400, message: expect.stringMatching(/ada/) });
    expect(await client.getUserId({ userID: 'ada' })).toMatchObject({ clusterName: 'c1-test' });
  });

  it('listing: 1000 user IDs per page, in user ID order', async () => {
    const everyone = ['ada', 'bob', 'dora', ...Array.from({ length: 2500 }, (_, i) => `batch-${String(i).padStart(4, '0')}`)].sort();
    const pages = [];
    for (let page = 0; page < 4; page++) pages.push((await client.listUserIds({ page })).userIDs.map((u) => u.userID));
    expect(pages.map((p) => p.length)).toEqual([1000, 1000, everyone.length - 2000, 0]);
    expect(pages.flat()).toEqual(everyone);
    expect((await client.listUserIds({ page: 1, hitsPerPage: 10 })).userIDs.map((u) => u.userID)).toEqual(everyone.slice(10, 20));
    expect((await rejection(client.listUserIds({ hitsPerPage: 1001 }))).status).toBe(400);
  });

  it('top users: at most 10 per cluster, most records first', async () => {
    const { topUsers } = await client.getTopUserIds();
    expect(topUsers.map((entry) => Object.keys(entry))).toEqual([['c1-test'], ['c2-test']]);
    expect(topUsers[0]['c1-test'].map((u) => u.userID)).toEqual(['ada']);
    const c2 = topUsers[1]['c2-test'];
    expect(c2.length).toBe(10);
    expect(c2[0]).toEqual({ userID: 'bob', clusterName: 'c2-test', nbRecords: forBob.length, dataSize: bytes(forBob) });
    expect(c2.slice(1).every((u) => u.nbRecords === 0)).toBe(true);
  });

  it('search over user IDs: highlighted, paginated, filtered by cluster', async () => {
    const found = await client.searchUserIds({ query: 'ada' });
    expect(found.nbHits).toBe(1);
    expect(found.hits[0]).toMatchObject({ objectID: 'ada', userID: 'ada', clusterName: 'c1-test', nbRecords: forAda.length });
    expect(found.hits[0]._highlightResult.userID).toMatchObject({ value: '<em>ada</em>', matchLevel: 'full' });
    expect(Number.isNaN(Date.parse(found.updatedAt as unknown as string))).toBe(false); // RFC 3339, as the spec says
    const batch = await client.searchUserIds({ query: 'batch', hitsPerPage: 100, page: 2 });
    expect(batch).toMatchObject({ nbHits: 2500, page: 2, hitsPerPage: 100 });
    expect(batch.hits.length).toBe(100);
    expect((await client.searchUserIds({ query: 'batch', clusterName: 'c1-test' })).nbHits).toBe(0);
    expect((await client.searchUserIds({ query: 'batch', clusterName: 'c2-test' })).nbHits).toBe(2500);
    // the spec's body names the filter `cluster`
    const spec = await engine.request({
      method: 'POST', path: '/1/clusters/mapping/search', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY },
      body: { query: '', cluster: 'c1-test', hitsPerPage: 1000 },
    });
    expect((spec.body as any).hits.map((h: { userID: string }) => h.userID)).toEqual(['ada']);
  });

  it('nothing is ever pending: moves apply at once', async () => {
    expect(await client.hasPendingMappings()).toEqual({ pending: false });
    expect(await client.hasPendingMappings({ getClusters: true })).toEqual({ pending: false, clusters: {} });
  });

  it('removing a user removes its records (and only them)', async () => {
    const before = (await client.searchSingleIndex({ indexName: 'talks', searchParams: { query: '', hitsPerPage: 0, distinct: false } })).nbHits;
    expect(before).toBe(talks.length);
    expect(typeof (await client.removeUserId({ userID: 'bob' })).deletedAt).toBe('string');
    await engine.waitForTasks();
    const after = (await client.searchSingleIndex({ indexName: 'talks', searchParams: { query: '', hitsPerPage: 0, distinct: false } })).nbHits;
    expect(after).toBe(talks.length - forBob.length);
    expect((await rejection(client.getUserId({ userID: 'bob' }))).status).toBe(404);
    expect((await rejection(client.removeUserId({ userID: 'bob' }))).status).toBe(404);
    expect(await client.getUserId({ userID: 'ada' })).toMatchObject({ nbRecords: forAda.length });
  });
});

describe('multi-cluster mapping persists (fsStorage in a temp dir)', () => {
  afterAll(cleanup);

  const figures = async (client: Client) => ({
    ada: await client.getUserId({ userID: 'ada' }),
    eve: await client.getUserId({ userID: 'eve' }),
    clusters: await client.listClusters(),
  });

  it('reopened from the log, then from a snapshot', async () => {
    const dir = tempDir('lantern-clusters-');
    let engine = await openAt(dir, { appId: APP_ID, adminKey: ADMIN_KEY, clusters: CLUSTERS, snapshotEvery: 0 });
    let client = clientOf(engine);
    await client.assignUserId({ xAlgoliaUserID: 'ada', assignUserIdParams: { cluster: 'c1-test' } });
    await client.batchAssignUserIds({ xAlgoliaUserID: 'ada', batchAssignUserIdsParams: { cluster: 'c2-test', users: ['eve', 'fay'] } });
    await saveAs(client, 'ada', forAda);
    await saveAs(client, 'eve', forBob);
    await client.removeUserId({ userID: 'fay' });
    const expected = await figures(client);
    expect(expected.ada).toEqual({ userID: 'ada', clusterName: 'c1-test', nbRecords: forAda.length, dataSize: bytes(forAda) });
    expect(expected.eve).toMatchObject({ clusterName: 'c2-test', nbRecords: forBob.length });
    await closeEngine(engine);

    engine = await openAt(dir, { appId: APP_ID, adminKey: ADMIN_KEY, clusters: CLUSTERS, snapshotEvery: 0 });
    client = clientOf(engine);
    expect(await figures(client)).toEqual(expected);
    expect((await rejection(client.getUserId({ userID: 'fay' }))).status).toBe(404);
    await engine.snapshot();
    await closeEngine(engine);

    engine = await openAt(dir, { appId: APP_ID, adminKey: ADMIN_KEY, clusters: CLUSTERS, snapshotEvery: 0 });
    client = clientOf(engine);
    expect(await figures(client)).toEqual(expected);
    expect((await client.listUserIds()).userIDs.map((u) => u.userID)).toEqual(['ada', 'eve']);
    await closeEngine(engine);
  }, 60_000);
});
