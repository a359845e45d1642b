// The official `algoliasearch` v5 client against Lantern: in-process through
// lanternRequester, and over HTTP against serve() on a random port.
import { gzipSync } from 'node:zlib';
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { serveHere, type Served } from '../support/in-process-server.js';
import { ADMIN_KEY, APP_ID, GIVER_TALK, openEngine, readFixture, talksSettings } from './helpers.js';

type Client = ReturnType<typeof algoliasearch>;

let engine: Lantern;
let client: Client;
const talks = readFixture<any[]>('talks.json');
const INDEX = 'talks';

beforeAll(async () => {
  engine = await openEngine();
  client = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) });
  const { taskID } = await client.setSettings({ indexName: INDEX, indexSettings: talksSettings() as never });
  await client.waitForTask({ indexName: INDEX, taskID });
  const responses = await client.saveObjects({ indexName: INDEX, objects: talks, waitForTasks: true });
  expect(responses.length).toBe(Math.ceil(talks.length / 1000));
});

describe('in-process, through lanternRequester', () => {
  it('saveObjects with waitForTasks indexed every record', async () => {
    const response = await client.searchSingleIndex({ indexName: INDEX, searchParams: { query: '', hitsPerPage: 0, distinct: false } });
    expect(response.nbHits).toBe(talks.length);
  });

  it('saveObjects returns one batch response per chunk, each with taskID and objectIDs', async () => {
    const objects = Array.from({ length: 5 }, (_, i) => ({ objectID: `chunk-${i}`, name: `chunk ${i}` }));
    const responses = await client.saveObjects({ indexName: 'chunks', objects, batchSize: 2 });
    expect(responses.length).toBe(3);
    expect(responses.flatMap((r) => r.objectIDs)).toEqual(objects.map((o) => o.objectID));
    for (const r of responses) await client.waitForTask({ indexName: 'chunks', taskID: r.taskID });
    const { nbHits } = await client.searchSingleIndex({ indexName: 'chunks', searchParams: { query: 'chunk' } });
    expect(nbHits).toBe(5);
  });

  it('getSettings returns what setSettings stored (old names mapped)', async () => {
    const settings = await client.getSettings({ indexName: INDEX });
    expect(settings.searchableAttributes).toEqual(['unordered(name)', 'speakers', 'event_name', 'tags']);
    expect(settings.customRanking).toEqual(['desc(date)']);
    expect(settings.minWordSizefor1Typo).toBe(3);
  });

  it('searchSingleIndex with a typo', async () => {
    const response = await client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'gvier', hitsPerPage: 5 } });
    expect(response.hits[0]).toMatchObject(GIVER_TALK);
    expect(response.hits[0]._highlightResult?.name).toMatchObject({ value: 'Are you a <em>giver</em> or a taker?', matchLevel: 'full' });
    expect(response.query).toBe('gvier');
  });

  it('search (multi-index) with the client request shape', async () => {
    const response = await client.search({
      requests: [
        { indexName: INDEX, query: 'gvier' },
        { indexName: INDEX, query: 'ken robinson', hitsPerPage: 2, distinct: false },
      ],
    });
    const results = response.results as any[];
    expect(results.length).toBe(2);
    expect(results[0].hits[0].objectID).toBe(GIVER_TALK.objectID);
    expect(results[0].index).toBe(INDEX);
    expect(results[1].hits.length).toBe(2);
    expect(results[1].hits[0].speakers).toEqual(['Ken Robinson']);
  });

  it('search with InstantSearch parameters (custom tags, hitsPerPage 0)', async () => {
    const response = await client.search({
      requests: [
        { indexName: INDEX, query: 'gvier', highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__' },
        { indexName: INDEX, query: 'design', hitsPerPage: 0 },
      ],
    });
    const [hits, counts] = response.results as any[];
    expect(hits.hits[0]._highlightResult.name.value).toBe('Are you a __ais-highlight__giver__/ais-highlight__ or a taker?');
    expect(counts.hits).toEqual([]);
    expect(counts.nbHits).toBeGreaterThan(0);
  });

  it('getObject, with and without attributesToRetrieve', async () => {
    const full = await client.getObject({ indexName: INDEX, objectID: GIVER_TALK.objectID });
    expect(full).toEqual(talks.find((t) => t.objectID === GIVER_TALK.objectID));
    const some = await client.getObject({ indexName: INDEX, objectID: GIVER_TALK.objectID, attributesToRetrieve: ['name', 'date'] });
    expect(some).toEqual({ objectID: GIVER_TALK.objectID, name: GIVER_TALK.name, date: 1479164400 });
  });

  it('partialUpdateObject with an operation, then waitForTask', async () => {
    const before = (await client.getObject({ indexName: INDEX, objectID: GIVER_TALK.objectID })) as any;
    const response = await client.partialUpdateObject({
      indexName: INDEX,
      objectID: GIVER_TALK.objectID,
      attributesToUpdate: { viewed_count: { _operation: 'Increment', value: 10 }, tags: { _operation: 'AddUnique', value: 'generosity' } },
    });
    expect(response.objectID).toBe(GIVER_TALK.objectID);
    await client.waitForTask({ indexName: INDEX, taskID: response.taskID! });
    const after = (await client.getObject({ indexName: INDEX, objectID: GIVER_TALK.objectID })) as any;
    expect(after.viewed_count).toBe(before.viewed_count + 10);
    expect(after.tags).toEqual([...before.tags, 'generosity']);
    expect(after.name).toBe(before.name);
    const found = await client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'generosity' } });
    expect(found.hits.map((h) => h.objectID)).toContain(GIVER_TALK.objectID);
  });

  it('partialUpdateObject with createIfNotExists false does not create', async () => {
    const response = await client.partialUpdateObject({
      indexName: INDEX, objectID: 'no-such-talk', attributesToUpdate: { name: 'ghost' }, createIfNotExists: false,
    });
    await client.waitForTask({ indexName: INDEX, taskID: response.taskID! });
    await expect(client.getObject({ indexName: INDEX, objectID: 'no-such-talk' })).rejects.toMatchObject({ status: 404 });
  });

  it('saveObject, deleteObject, and the 404 afterwards', async () => {
    const saved = await client.saveObject({ indexName: INDEX, body: { objectID: 'temp-talk', name: 'A temporary talk about zorblaxian' } });
    await client.waitForTask({ indexName: INDEX, taskID: saved.taskID });
    expect((await client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'zorblaxian' } })).nbHits).toBe(1);
    const deleted = await client.deleteObject({ indexName: INDEX, objectID: 'temp-talk' });
    expect(deleted.taskID).toEqual(expect.any(Number));
    await client.waitForTask({ indexName: INDEX, taskID: deleted.taskID });
    await expect(client.getObject({ indexName: INDEX, objectID: 'temp-talk' })).rejects.toMatchObject({ status: 404 });
    expect((await client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'zorblaxian' } })).nbHits).toBe(0);
  });

  it('objectIDs and index names are percent-encoded by the client and decoded by Lantern', async () => {
    const indexName = 'odd index/é';
    const saved = await client.addOrUpdateObject({ indexName, objectID: 'a/b?c d', body: { v: 1 } });
    await client.waitForTask({ indexName, taskID: saved.taskID! });
    expect(await client.getObject({ indexName, objectID: 'a/b?c d' })).toEqual({ objectID: 'a/b?c d', v: 1 });
  });

  it('getObjects returns null for a missing object', async () => {
    const { results } = await client.getObjects({
      requests: [{ indexName: INDEX, objectID: GIVER_TALK.objectID, attributesToRetrieve: ['name'] }, { indexName: INDEX, objectID: 'missing' }],
    });
    expect(results).toEqual([{ objectID: GIVER_TALK.objectID, name: GIVER_TALK.name }, null]);
  });

  it('an error status becomes a rejected promise with the message', async () => {
    await expect(client.searchSingleIndex({ indexName: 'missing_index', searchParams: { query: 'x' } }))
      .rejects.toMatchObject({ status: 404, message: expect.stringMatching(/does not exist/) });
    const wrong = algoliasearch(APP_ID, 'wrong-key', { requester: lanternRequester(engine) });
    await expect(wrong.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'x' } }))
      .rejects.toMatchObject({ status: 403, message: expect.stringMatching(/^Invalid Application-ID or API key \(Correlation-ID: .+\)$/) });
  });

  it('the batch helpers (deleteObjects, partialUpdateObjects), clearObjects, indexExists, listIndices, deleteIndex', async () => {
    const indexName = 'helpers';
    const objects = Array.from({ length: 6 }, (_, i) => ({ objectID: `h${i}`, n: i, name: `helper ${i}` }));
    await client.saveObjects({ indexName, objects, waitForTasks: true });
    await client.deleteObjects({ indexName, objectIDs: ['h0', 'h1'], waitForTasks: true });
    await client.partialUpdateObjects({
      indexName, objects: [{ objectID: 'h2', n: 20 }, { objectID: 'new', n: 99 }], createIfNotExists: false, waitForTasks: true,
    });
    const { results } = await client.getObjects({
      requests: ['h0', 'h2', 'new', 'h5'].map((objectID) => ({ indexName, objectID, attributesToRetrieve: ['n'] })),
    });
    expect(results).toEqual([null, { objectID: 'h2', n: 20 }, null, { objectID: 'h5', n: 5 }]);

    expect(await client.indexExists({ indexName })).toBe(true);
    expect(await client.indexExists({ indexName: 'never_created' })).toBe(false);
    const listed = await client.listIndices();
    const item = listed.items.find((i) => i.name === indexName);
    expect(item?.entries).toBe(4);

    const cleared = await client.clearObjects({ indexName });
    await client.waitForTask({ indexName, taskID: cleared.taskID });
    expect((await client.searchSingleIndex({ indexName, searchParams: { query: '' } })).nbHits).toBe(0);

    const deleted = await client.deleteIndex({ indexName });
    await client.waitForTask({ indexName, taskID: deleted.taskID });
    expect(await client.indexExists({ indexName })).toBe(false);
  });

  it("compression: 'gzip' bodies are inflated", async () => {
    const gzipClient = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine), compression: 'gzip' } as never);
    const objects = Array.from({ length: 50 }, (_, i) => ({ objectID: `gz-${i}`, name: `compressed record number ${i} about hummingbirds` }));
    await gzipClient.saveObjects({ indexName: 'gzipped', objects, waitForTasks: true });
    const response = await gzipClient.searchSingleIndex({ indexName: 'gzipped', searchParams: { query: 'hummingbirds', hitsPerPage: 0 } });
    expect(response.nbHits).toBe(50);
  });
});

describe('over HTTP, against serve()', () => {
  let served: Served;
  let base: string;

  beforeAll(async () => {
    served = await serveHere(engine, { host: '127.0.0.1' });
    base = served.origin;
  });

  afterAll(() => served.close());

  const httpClient = (options: Record<string, unknown> = {}) => {
    return algoliasearch(APP_ID, ADMIN_KEY, {
      hosts: [{ url: '127.0.0.1', port: served.port, protocol: 'http', accept: 'readWrite' }],
      ...options,
    } as never);
  };

  it('the official client searches, writes and reads over HTTP', async () => {
    const remote = httpClient();
    const response = await remote.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'gvier' } });
    expect(response.hits[0]).toMatchObject(GIVER_TALK);
    const saved = await remote.saveObject({ indexName: 'over_http', body: { objectID: 'h1', name: 'sent over the wire' } });
    await remote.waitForTask({ indexName: 'over_http', taskID: saved.taskID });
    expect(await remote.getObject({ indexName: 'over_http', objectID: 'h1' })).toEqual({ objectID: 'h1', name: 'sent over the wire' });
    const multi = await remote.search({ requests: [{ indexName: INDEX, query: 'gvier' }, { indexName: 'over_http', query: 'wire' }] });
    expect((multi.results as any[]).map((r) => r.hits[0].objectID)).toEqual([GIVER_TALK.objectID, 'h1']);
  });

  it("the official client with compression: 'gzip' over HTTP", async () => {
    const remote = httpClient({ compression: 'gzip' });
    const objects = Array.from({ length: 40 }, (_, i) => ({ objectID: `hz-${i}`, text: `gzip over http record ${i} about kingfishers` }));
    await remote.saveObjects({ indexName: 'http_gzip', objects, waitForTasks: true });
    const response = await remote.searchSingleIndex({ indexName: 'http_gzip', searchParams: { query: 'kingfishers', hitsPerPage: 0 } });
    expect(response.nbHits).toBe(40);
  });

  it('the official client gets a rejected promise for an HTTP 4xx', async () => {
    await expect(httpClient().getObject({ indexName: INDEX, objectID: 'nope' })).rejects.toMatchObject({ status: 404 });
  });

  it('a raw fetch with a gzip-encoded body', async () => {
    const body = gzipSync(JSON.stringify({ params: 'query=gvier&hitsPerPage=2' }));
    const response = await fetch(`${base}/1/indexes/${INDEX}/query`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        'content-encoding': 'gzip',
        'X-Service-Application-Id': APP_ID,
        'X-Service-API-Key': ADMIN_KEY,
      },
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const json = await response.json();
    expect(json.hits[0]).toMatchObject(GIVER_TALK);
    expect(json.hitsPerPage).toBe(2);
  });

  it('a body announced as gzip that is not gzip is a 400 JSON error', async () => {
    const response = await fetch(`${base}/1/indexes/${INDEX}/query`, {
      method: 'POST',
      headers: { 'content-encoding': 'gzip', 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY },
      body: JSON.stringify({ params: 'query=gvier' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: expect.any(String), status: 400 });
  });

  it('a raw fetch with credentials in the query string (browser client form)', async () => {
    const qs = `x-algolia-agent=test&x-algolia-application-id=${APP_ID}&x-algolia-api-key=${ADMIN_KEY}`;
    const response = await fetch(`${base}/1/indexes/${INDEX}/query?${qs}`, {
      method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ params: 'query=gvier' }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).hits[0].objectID).toBe(GIVER_TALK.objectID);
  });

  it('errors over HTTP are JSON {message, status} with the status code', async () => {
    const response = await fetch(`${base}/1/indexes/${INDEX}/query`, {
      method: 'POST', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': 'bad' }, body: '{}',
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ message: 'Invalid Application-ID or API key', status: 403 });
  });

  it('an OPTIONS preflight is answered with the CORS headers', async () => {
    const response = await fetch(`${base}/1/indexes/${INDEX}/query`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://shop.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-algolia-api-key, x-algolia-application-id, content-type',
      },
    });
    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);
    const origin = response.headers.get('access-control-allow-origin');
    expect(origin === '*' || origin === 'https://shop.example').toBe(true);
    expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/);
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect(allowed === '*' || ['x-algolia-api-key', 'x-algolia-application-id', 'content-type'].every((h) => allowed.includes(h))).toBe(true);
  });
});
