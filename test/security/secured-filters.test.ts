// A key's forced filters (a secured key's `filters=owner:alice`, a key's
// queryParameters) bound every call that reads or deletes records, not only
// search: getObject(s) answer as if records outside them were absent, browse
// returns matching records only, deleteBy deletes what both its filters and
// the key's match, deleteObject leaves other records alone, and clearing,
// deleting, copying or moving the whole index is refused.
import { beforeEach, describe, expect, it } from 'vitest';
import { generateSecuredKey } from '../../src/auth/secured-keys.js';
import type { Lantern } from '../../src/lantern.js';
import { APP_ID, expectError, openEngine, sender, type Send } from '../api/helpers.js';

const as = (key: string) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key });
const ACL = ['search', 'browse', 'addObject', 'deleteObject', 'deleteIndex'];

describe("a key's filters bound reads and deletes", () => {
  let engine: Lantern;
  let send: Send;
  let alice: Record<string, string>;
  beforeEach(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/M/settings', { attributesForFaceting: ['owner'] });
    const records = Array.from({ length: 6 }, (_, i) => ({ objectID: String(i), owner: i < 3 ? 'alice' : 'bob' }));
    await send('POST', '/1/indexes/M/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
    await send('PUT', '/1/indexes/Other/1', { owner: 'bob' });
    await engine.waitForTasks();
    const parent = (await send('POST', '/1/keys', { acl: ACL })).body.key;
    alice = as(await generateSecuredKey(parent, { filters: 'owner:alice', restrictIndices: ['M', 'M2'] }));
  });
  const ids = (hits: Array<{ objectID: string }>) => hits.map((h) => h.objectID).sort();
  const remaining = async () => {
    await engine.waitForTasks();
    return ids((await send('POST', '/1/indexes/M/browse', {})).body.hits);
  };

  it('getObject: a record outside the filters is a 404, as if absent', async () => {
    expect((await send('GET', '/1/indexes/M/1', undefined, alice)).body).toEqual({ objectID: '1', owner: 'alice' });
    const outside = await send('GET', '/1/indexes/M/4', undefined, alice);
    const absent = await send('GET', '/1/indexes/M/404', undefined, alice);
    expectError(outside, 404);
    expect(outside.body).toEqual(absent.body);
  });

  it('getObjects: null for records outside the filters; restrictIndices still applies', async () => {
    const requests = [{ indexName: 'M', objectID: '4' }, { indexName: 'M', objectID: '1' }, { indexName: 'M', objectID: '404' }];
    expect((await send('POST', '/1/indexes/*/objects', { requests }, alice)).body).toEqual({ results: [null, { objectID: '1', owner: 'alice' }, null] });
    expectError(await send('POST', '/1/indexes/*/objects', { requests: [{ indexName: 'Other', objectID: '1' }] }, alice), 403);
  });

  it('the filters of a key\'s queryParameters bound getObject the same way', async () => {
    const key = (await send('POST', '/1/keys', { acl: ACL, queryParameters: 'filters=owner%3Aalice' })).body.key;
    expectError(await send('GET', '/1/indexes/M/4', undefined, as(key)), 404);
    expect((await send('GET', '/1/indexes/M/2', undefined, as(key))).status).toBe(200);
  });

  it('browse returns matching records only, every page, whatever the request filters', async () => {
    expect(ids((await send('POST', '/1/indexes/M/browse', {}, alice)).body.hits)).toEqual(['0', '1', '2']);
    expect(ids((await send('GET', '/1/indexes/M/browse', undefined, alice)).body.hits)).toEqual(['0', '1', '2']);
    expect((await send('POST', '/1/indexes/M/browse', { filters: 'owner:bob' }, alice)).body.hits).toEqual([]);
    const seen: string[] = [];
    let page = (await send('POST', '/1/indexes/M/browse', { hitsPerPage: 1 }, alice)).body;
    for (;;) {
      seen.push(...ids(page.hits));
      if (!page.cursor) break;
      page = (await send('POST', '/1/indexes/M/browse', { cursor: page.cursor }, alice)).body;
    }
    expect(seen.sort()).toEqual(['0', '1', '2']);
  });

  it("deleteBy deletes only what both its filters and the key's match", async () => {
    expect((await send('POST', '/1/indexes/M/deleteByQuery', { filters: 'owner:bob' }, alice)).status).toBe(200);
    expect(await remaining()).toEqual(['0', '1', '2', '3', '4', '5']);
    expect((await send('POST', '/1/indexes/M/deleteByQuery', { facetFilters: [['owner:alice', 'owner:bob']] }, alice)).status).toBe(200);
    expect(await remaining()).toEqual(['3', '4', '5']);
  });

  it('deleteObject and batch deletes leave records outside the filters', async () => {
    expect((await send('DELETE', '/1/indexes/M/4', undefined, alice)).status).toBe(200);
    const batch = { requests: [{ action: 'deleteObject', body: { objectID: '5' } }, { action: 'deleteObject', body: { objectID: '0' } }] };
    expect((await send('POST', '/1/indexes/M/batch', batch, alice)).status).toBe(200);
    expect(await remaining()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('clearing, deleting, copying or moving the whole index is refused', async () => {
    expectError(await send('POST', '/1/indexes/M/clear', undefined, alice), 403, /filters/);
    expectError(await send('POST', '/1/indexes/M/batch', { requests: [{ action: 'clear' }] }, alice), 403, /filters/);
    expectError(await send('DELETE', '/1/indexes/M', undefined, alice), 403, /filters/);
    expectError(await send('POST', '/1/indexes/M/operation', { operation: 'move', destination: 'M2' }, alice), 403, /filters/);
    expectError(await send('POST', '/1/indexes/M/operation', { operation: 'copy', destination: 'M2' }, alice), 403, /filters/);
    // settings, synonyms and rules alone may be copied
    expect((await send('POST', '/1/indexes/M/operation', { operation: 'copy', destination: 'M2', scope: ['settings'] }, alice)).status).toBe(200);
    expect(await remaining()).toEqual(['0', '1', '2', '3', '4', '5']);
  });
});
