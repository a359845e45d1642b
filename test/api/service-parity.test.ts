// Behaviours of the hosted service the official clients rely on: a rule or
// synonym written to a new index makes it, unknown parameters of the rule and
// synonym searches are refused, the user ID may come as a query parameter,
// empty strings in list settings are ignored, settings are read back in the
// form given (through a restart too), ordered() searchable attributes, and
// the error messages clients match on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { caller, cleanup, closeEngine, openAt, tempDir } from '../persistence/helpers.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID, expectError, openWithClient, sender, type OfficialClient, type Send } from './helpers.js';

let engine: Lantern;
let client: OfficialClient;
let send: Send;

beforeEach(async () => {
  ({ engine, client, send } = await openWithClient());
});

describe('rules and synonyms written to an index that does not exist', () => {
  const rule = { objectID: 'r1', conditions: [{ pattern: 'red', anchoring: 'is' as const }], consequence: { userData: { r: 1 } } };
  const synonym = { objectID: 's1', type: 'synonym', synonyms: ['red', 'crimson'] };

  it('saveRule and saveRules make the index and keep the rules', async () => {
    await client.waitForTask({ indexName: 'one', taskID: (await client.saveRule({ indexName: 'one', objectID: 'r1', rule })).taskID });
    await client.waitForTask({ indexName: 'many', taskID: (await client.saveRules({ indexName: 'many', rules: [rule] })).taskID });
    expect(await client.getRule({ indexName: 'one', objectID: 'r1' })).toMatchObject({ objectID: 'r1' });
    expect(await client.getRule({ indexName: 'many', objectID: 'r1' })).toMatchObject({ objectID: 'r1' });
    const names = (await client.listIndices()).items.map((i) => i.name).sort();
    expect(names).toEqual(['many', 'one']);
  });

  it('saveSynonym and saveSynonyms make the index and keep the synonyms', async () => {
    const one = await client.saveSynonym({ indexName: 'one', objectID: 's1', synonymHit: synonym as any });
    await client.waitForTask({ indexName: 'one', taskID: one.taskID });
    const many = await client.saveSynonyms({ indexName: 'many', synonymHit: [synonym as any] });
    await client.waitForTask({ indexName: 'many', taskID: many.taskID });
    expect(await client.getSynonym({ indexName: 'one', objectID: 's1' })).toMatchObject({ synonyms: ['red', 'crimson'] });
    expect(await client.getSynonym({ indexName: 'many', objectID: 's1' })).toMatchObject({ synonyms: ['red', 'crimson'] });
  });

  it('the index they made is back after reopening the store', async () => {
    const dir = tempDir();
    const first = await openAt(dir);
    await caller(first)('PUT', '/1/indexes/fresh/rules/r1', rule);
    await caller(first)('PUT', '/1/indexes/fresh/synonyms/s1', synonym);
    await closeEngine(first);
    const call = caller(await openAt(dir));
    expect((await call('GET', '/1/indexes/fresh/rules/r1')).body).toMatchObject({ objectID: 'r1' });
    expect((await call('GET', '/1/indexes/fresh/synonyms/s1')).body).toMatchObject({ objectID: 's1' });
    await cleanup();
  });

  it('a bad rule still makes nothing', async () => {
    expectError(await send('PUT', '/1/indexes/none/rules/r1', { conditions: 5, consequence: {} }), 400);
    expectError(await send('GET', '/1/indexes/none/settings'), 404);
  });
});

describe('searchRules and searchSynonyms take only their own parameters', () => {
  beforeEach(async () => {
    await client.waitForTask({ indexName: 'shop', taskID: (await client.setSettings({ indexName: 'shop', indexSettings: {} })).taskID });
  });

  it('an unknown parameter is a 400 that names it', async () => {
    expectError(await send('POST', '/1/indexes/shop/rules/search', { query: '', filters: 'a:b' }), 400, /filters/);
    expectError(await send('POST', '/1/indexes/shop/synonyms/search', { query: '', anchoring: 'is' }), 400, /anchoring/);
  });

  it('their own parameters are answered', async () => {
    const rules = await send('POST', '/1/indexes/shop/rules/search', { query: '', anchoring: 'is', context: 'c', page: 0, hitsPerPage: 5, enabled: true });
    expect(rules).toMatchObject({ status: 200, body: { hits: [], nbHits: 0 } });
    const synonyms = await send('POST', '/1/indexes/shop/synonyms/search', { query: '', type: 'synonym', page: 0, hitsPerPage: 5 });
    expect(synonyms).toMatchObject({ status: 200, body: { hits: [], nbHits: 0 } });
  });
});

describe('the user ID as a query parameter', () => {
  it('assignUserId takes X-Algolia-User-ID from the query string, as from the header', async () => {
    const engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, clusters: ['c1-test', 'c2-test'] });
    const call = sender(engine);
    expect(await call('POST', '/1/clusters/mapping?X-Algolia-User-ID=u1', { cluster: 'c2-test' })).toMatchObject({ status: 200 });
    expect(await call('POST', '/1/clusters/mapping', { cluster: 'c1-test' }, { ...ADMIN_HEADERS, 'X-Algolia-User-ID': 'u2' })).toMatchObject({ status: 200 });
    expect((await call('GET', '/1/clusters/mapping/u1')).body).toMatchObject({ userID: 'u1', clusterName: 'c2-test' });
    expect((await call('GET', '/1/clusters/mapping/u2')).body).toMatchObject({ userID: 'u2', clusterName: 'c1-test' });
    expectError(await call('POST', '/1/clusters/mapping', { cluster: 'c1-test' }), 400, /X-Algolia-User-ID/);
    await engine.close();
  });
});

describe('searchUserIds', () => {
  // user IDs as the official clients' tests make them: a date, numbers, then the user's number
  const base = 'javascript-2026-11-29-08-30-00-123-lantern-mcm';
  const users = [`${base}-0`, `${base}-1`, `${base}-2`, `${base}-10`];

  it('a full user ID answers that user alone; a shorter query, the users it begins, that one first', async () => {
    const engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, clusters: ['c1-test', 'c2-test'] });
    const call = sender(engine);
    expect(await call('POST', '/1/clusters/mapping/batch?X-Algolia-User-ID=x', { cluster: 'c1-test', users })).toMatchObject({ status: 200 });
    const search = async (query: string, more: object = {}) => (await call('POST', '/1/clusters/mapping/search', { query, ...more })).body;
    for (const userID of [`${base}-0`, `${base}-2`]) {
      const found = await search(userID, { clusterName: 'c1-test' });
      expect(found).toMatchObject({ nbHits: 1, page: 0, hits: [{ userID, objectID: userID, clusterName: 'c1-test' }] });
      expect(found.hits[0]._highlightResult.userID).toMatchObject({ value: `<em>${userID}</em>`, matchLevel: 'full' });
    }
    expect((await search(`${base}-1`)).hits.map((h: { userID: string }) => h.userID)).toEqual([`${base}-1`, `${base}-10`]);
    expect((await search(base.toUpperCase())).nbHits).toBe(4);
    expect((await search('lantern')).nbHits).toBe(0);
    expect((await search(`${base}-0`, { clusterName: 'c2-test' })).nbHits).toBe(0);
    await engine.close();
  });
});

describe('empty strings in list settings', () => {
  it('are ignored, the other entries kept and still checked', async () => {
    const indexSettings = { attributesToSnippet: ['', 'title:10'], replicas: [''], searchableAttributes: ['', 'title'], ignorePlurals: ['', 'en'] };
    const put = await send('PUT', '/1/indexes/shop/settings', indexSettings);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await client.waitForTask({ indexName: 'shop', taskID: put.body.taskID });
    const settings = await client.getSettings({ indexName: 'shop' });
    expect(settings).toMatchObject({ attributesToSnippet: ['title:10'], searchableAttributes: ['title'], ignorePlurals: ['en'] });
    expect(settings.replicas ?? []).toEqual([]);
    expect((await client.listIndices()).items.map((i) => i.name)).toEqual(['shop']);
    expectError(await send('PUT', '/1/indexes/shop/settings', { attributesToSnippet: ['', 'title:x'] }), 400, /title:x/);
  });
});

describe('renderingContent in search answers', () => {
  it('is the index\'s when its settings have one, else {} as the service answers, in single and multi-index searches and browse', async () => {
    const facetOrdering = { facets: { order: ['brand'] }, values: { brand: { order: ['Sony'], sortRemainingBy: 'count' as const } } };
    await client.waitForTask({ indexName: 'plain', taskID: (await client.saveObject({ indexName: 'plain', body: { objectID: '1', brand: 'Sony' } })).taskID });
    await client.waitForTask({ indexName: 'shop', taskID: (await client.setSettings({ indexName: 'shop', indexSettings: { renderingContent: { facetOrdering } } })).taskID });
    expect((await client.searchSingleIndex({ indexName: 'plain', searchParams: { query: '' } })).renderingContent).toEqual({});
    expect((await client.searchSingleIndex({ indexName: 'shop', searchParams: { query: '' } })).renderingContent).toEqual({ facetOrdering });
    const { results } = await client.search({ requests: [{ indexName: 'plain' }, { indexName: 'shop' }] });
    expect(results.map((r) => (r as { renderingContent?: unknown }).renderingContent)).toEqual([{}, { facetOrdering }]);
    expect((await client.browse({ indexName: 'plain' })).renderingContent).toEqual({});
    expect((await client.browse({ indexName: 'shop' })).renderingContent).toEqual({ facetOrdering });
  });
});

describe('the error messages clients match on', () => {
  it('a missing A/B test is "ABTestID not found", in v2 and v3', async () => {
    for (const path of ['/2/abtests/4242', '/3/abtests/4242']) {
      const response = await send('GET', path);
      expectError(response, 404);
      expect(response.body.message).toBe('ABTestID not found');
    }
  });

  it('a key that may not change an index reads the service\'s 400 "Not enough rights to update an object"', async () => {
    // what a copy to another application meets with a key of that application that reads but may not write
    await client.waitForTask({ indexName: 'shop', taskID: (await client.setSettings({ indexName: 'shop', indexSettings: {} })).taskID });
    const created = await send('POST', '/1/keys', { acl: ['search', 'browse', 'settings'] });
    const headers = { ...ADMIN_HEADERS, 'x-algolia-api-key': created.body.key };
    await expect.poll(async () => (await send('GET', '/1/indexes/shop/settings', undefined, headers)).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['PUT', '/1/indexes/shop/settings', { searchableAttributes: ['title'] }],
      ['POST', '/1/indexes/shop/batch', { requests: [{ action: 'addObject', body: { objectID: '1' } }] }],
      ['POST', '/1/indexes/shop/rules/batch', [{ objectID: 'r', consequence: { userData: {} } }]],
      ['POST', '/1/indexes/shop/synonyms/batch', [{ objectID: 's', type: 'synonym', synonyms: ['a', 'b'] }]],
      ['POST', '/1/indexes/shop/operation', { operation: 'copy', destination: 'shop_copy' }],
    ];
    for (const [method, path, body] of writes) {
      const refused = await send(method, path, body, headers);
      expect(refused, `${method} ${path}`).toMatchObject({ status: 400, body: { message: 'Not enough rights to update an object', status: 400 } });
    }
    expectError(await send('GET', '/1/keys', undefined, headers), 403, /Method not allowed with this API key/);
    expect(await client.getSettings({ indexName: 'shop' })).not.toHaveProperty('searchableAttributes');
  });

  it('a key restricted to other indexes reads "Index not allowed with this API key", nothing more', async () => {
    const created = await send('POST', '/1/keys', { acl: ['search'], indexes: ['other'] });
    expect(created.status).toBe(200);
    const headers = { ...ADMIN_HEADERS, 'x-algolia-api-key': created.body.key };
    await expect.poll(async () => (await send('POST', '/1/indexes/other/query', {}, headers)).status).not.toBe(403);
    const refused = await send('POST', '/1/indexes/shop/query', {}, headers);
    expectError(refused, 403);
    expect(refused.body.message).toBe('Index not allowed with this API key');
  });
});

describe('settings are read back in the form given', () => {
  afterEach(cleanup);

  /** Settings in another form than the one the engine reads (a string for a boolean, true for 1...). */
  const GIVEN = {
    typoTolerance: 'false', distinct: true, attributeForDistinct: 'brand', ignorePlurals: 'true',
    hitsPerPage: '5', advancedSyntax: 1, attributesToRetrieve: 'name,brand', removeStopWords: ['', 'en'],
  };
  /** What getSettings answers for them: each as given (empty list entries dropped, as the service does). */
  const ANSWERED = { ...GIVEN, removeStopWords: ['en'] };

  const records = [
    { objectID: '1', name: 'phone case', brand: 'acme' },
    { objectID: '2', name: 'phone charger', brand: 'acme' },
    { objectID: '3', name: 'phone stand', brand: 'zeta' },
  ];

  async function write(engine: Lantern, indexName: string, body: Record<string, unknown>): Promise<void> {
    const admin = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) });
    const { taskID } = await admin.setSettings({ indexName, indexSettings: body as any });
    await admin.waitForTask({ indexName, taskID });
  }

  it('getSettings answers each as given; searches read them as the engine parses them', async () => {
    await client.waitForTask({ indexName: 'shop', taskID: (await client.saveObjects({ indexName: 'shop', objects: records }))[0].taskID });
    await write(engine, 'shop', GIVEN);
    expect(await client.getSettings({ indexName: 'shop' })).toMatchObject(ANSWERED);
    // typoTolerance "false": no typo allowed; distinct true: one hit per brand; hitsPerPage "5"
    const typo = await client.searchSingleIndex({ indexName: 'shop', searchParams: { query: 'phome' } });
    expect(typo.nbHits).toBe(0);
    const grouped = await client.searchSingleIndex({ indexName: 'shop', searchParams: { query: 'phone' } });
    expect({ nbHits: grouped.nbHits, hitsPerPage: grouped.hitsPerPage }).toEqual({ nbHits: 2, hitsPerPage: 5 });
    expect(Object.keys(grouped.hits[0]).sort()).toEqual(['_highlightResult', 'brand', 'name', 'objectID']);
  });

  it('a setting given again in the engine\'s form, or reset, loses the form given before', async () => {
    await write(engine, 'shop', GIVEN);
    await write(engine, 'shop', { typoTolerance: false, distinct: null });
    const settings = await client.getSettings({ indexName: 'shop' });
    expect(settings.typoTolerance).toBe(false);
    expect(settings.distinct).toBe(0);
  });

  it('replicas and copies take the forms given', async () => {
    await write(engine, 'shop', { ...GIVEN, replicas: ['shop_by_price'] });
    await client.waitForTask({ indexName: 'shop', taskID: (await client.operationIndex({ indexName: 'shop', operationIndexParams: { operation: 'copy', destination: 'copied', scope: ['settings'] } })).taskID });
    await write(engine, 'shop', { typoTolerance: 'min' });
    const forwarded = await send('PUT', '/1/indexes/shop/settings?forwardToReplicas=true', { distinct: 'false' });
    await client.waitForTask({ indexName: 'shop', taskID: forwarded.body.taskID });
    expect(await client.getSettings({ indexName: 'copied' })).toMatchObject(ANSWERED);
    expect(await client.getSettings({ indexName: 'shop_by_price' })).toMatchObject({ ...ANSWERED, distinct: 'false' });
  });

  it('survive a snapshot and a restart byte for byte, and writes logged after it (synonym types as given too)', async () => {
    const dir = tempDir();
    const options = { appId: APP_ID, adminKey: ADMIN_KEY, snapshotEvery: 0 };
    const first = await openAt(dir, options);
    const synonym = (engine: Lantern, indexName: string, body: Record<string, unknown>) => sender(engine)('PUT', `/1/indexes/${indexName}/synonyms/s1`, { objectID: 's1', ...body });
    await write(first, 'snapshotted', GIVEN);
    expect((await synonym(first, 'snapshotted', { type: 'oneWaySynonym', input: 'cell', synonyms: ['phone'] })).status).toBe(200);
    await first.waitForTasks();
    await first.snapshot();
    await write(first, 'logged', { ...GIVEN, typoTolerance: 'true', distinct: '2' });
    expect((await synonym(first, 'logged', { type: 'altCorrection1', word: 'phone', corrections: ['fone'] })).status).toBe(200);
    await first.waitForTasks();
    const read = async (engine: Lantern, indexName: string) => JSON.stringify([
      (await sender(engine)('GET', `/1/indexes/${indexName}/settings?getVersion=2`)).body,
      (await sender(engine)('GET', `/1/indexes/${indexName}/synonyms/s1`)).body,
    ]);
    const before = [await read(first, 'snapshotted'), await read(first, 'logged')];
    expect(JSON.parse(before[0])).toMatchObject([ANSWERED, { type: 'oneWaySynonym' }]);
    expect(JSON.parse(before[1])).toMatchObject([{ typoTolerance: 'true', distinct: '2' }, { type: 'altCorrection1' }]);
    await closeEngine(first);
    const second = await openAt(dir, options);
    expect([await read(second, 'snapshotted'), await read(second, 'logged')]).toEqual(before);
    await second.snapshot(); // the log's write now in a snapshot too
    await closeEngine(second);
    const third = await openAt(dir, options);
    expect([await read(third, 'snapshotted'), await read(third, 'logged')]).toEqual(before);
  });
});

describe('ordered() searchable attributes', () => {
  const records = [
    { objectID: 'late', title: 'a big red phone', author: 'ann' },
    { objectID: 'early', title: 'phone', author: 'bob' },
    { objectID: 'byAuthor', title: 'a lamp', author: 'phone maker' },
  ];

  async function ranked(searchableAttributes: string[]): Promise<string[]> {
    const { taskID } = await client.setSettings({ indexName: 'books', indexSettings: { searchableAttributes, ranking: ['attribute'] } });
    await client.waitForTask({ indexName: 'books', taskID });
    const { hits } = await client.searchSingleIndex({ indexName: 'books', searchParams: { query: 'phone' } });
    return hits.map((h) => h.objectID);
  }

  beforeEach(async () => {
    await client.waitForTask({ indexName: 'books', taskID: (await client.saveObjects({ indexName: 'books', objects: records }))[0].taskID });
  });

  it('ordered(attr) is accepted and counts the position, as the bare name does; unordered(attr) does not', async () => {
    expect(await ranked(['ordered(title)'])).toEqual(['early', 'late']);
    expect(await ranked(['title'])).toEqual(['early', 'late']);
    expect(await ranked(['unordered(title)'])).toEqual(['late', 'early']);
    expect((await client.getSettings({ indexName: 'books' })).searchableAttributes).toEqual(['unordered(title)']);
  });

  it('a modifier around "a,b" applies to both attributes, at one rank', async () => {
    expect((await ranked(['ordered(title,author)'])).sort()).toEqual(['byAuthor', 'early', 'late']);
    expect(await ranked(['unordered(title,author)', 'ordered(nothing)'])).toEqual(['late', 'early', 'byAuthor']);
  });

  it('other modifiers are still refused', async () => {
    expectError(await send('PUT', '/1/indexes/books/settings', { searchableAttributes: ['sorted(title)'] }), 400, /ordered\(attribute\)/);
  });
});

describe('an index made by copying only rules or synonyms', () => {
  afterEach(cleanup);

  it('answers getSettings as an index made by a record does, through a restart too', async () => {
    const dir = tempDir();
    const options = { appId: APP_ID, adminKey: ADMIN_KEY, snapshotEvery: 0 };
    const first = await openAt(dir, options);
    const admin = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(first) });
    const done = async (indexName: string, task: Promise<{ taskID: number }>) => admin.waitForTask({ indexName, taskID: (await task).taskID });
    await done('source', admin.setSettings({ indexName: 'source', indexSettings: { typoTolerance: 'min', searchableAttributes: ['title'] } }));
    await done('source', admin.saveRule({ indexName: 'source', objectID: 'r1', rule: { objectID: 'r1', conditions: [{ pattern: 'x', anchoring: 'is' }], consequence: { userData: {} } } }));
    await done('source', admin.saveSynonym({ indexName: 'source', objectID: 's1', synonymHit: { objectID: 's1', type: 'synonym', synonyms: ['a', 'b'] } }));
    for (const scope of ['rules', 'synonyms'] as const) {
      await done('source', admin.operationIndex({ indexName: 'source', operationIndexParams: { operation: 'copy', destination: `only_${scope}`, scope: [scope] } }));
    }
    await done('fresh', admin.saveObject({ indexName: 'fresh', body: { objectID: '1' } }));
    const read = async (engine: Lantern, indexName: string) => (await sender(engine)('GET', `/1/indexes/${indexName}/settings?getVersion=2`)).body;
    const fresh = await read(first, 'fresh');
    expect(fresh).not.toHaveProperty('typoTolerance', 'min');
    expect(await read(first, 'only_rules')).toEqual(fresh);
    expect(await read(first, 'only_synonyms')).toEqual(fresh);
    await first.snapshot();
    await closeEngine(first);
    const second = await openAt(dir, options);
    expect(await read(second, 'only_rules')).toEqual(fresh);
    expect(await read(second, 'only_synonyms')).toEqual(fresh);
  });
});
