// Attribute names are data, whatever they are: "__proto__", "constructor",
// "toString" and the other names Object.prototype has, dotted and empty
// names. Records holding them read back the same before and after a snapshot
// and a restart (objects, browse, search hits and highlights, facets), partial
// updates to them apply, their text is searchable, records without them never
// show what Object.prototype has under those names, and settings or search
// parameters with those names are unknown ones.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { caller, cleanup, closeEngine, openAt, tempDir, type Call, type Lantern } from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

const NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** Records as JSON text (JSON.parse makes "__proto__" an own property, as an HTTP body does). */
const ALL = '{"objectID":"all","__proto__":{"inner":"alpha"},"constructor":"bravo","prototype":["charlie"],"toString":"delta","hasOwnProperty":{"__proto__":"echo"},"valueOf":1}';
const NONE = '{"objectID":"none","title":"alpha bravo charlie delta echo"}';
const SETTINGS = { attributesForFaceting: ['__proto__', '__proto__.inner', 'constructor', 'toString', 'hasOwnProperty.__proto__', 'constructor.name'] };

/** An engine on disk with ALL and NONE saved and snapshotted, then `later` written (to the log) and the engine reopened. */
async function reopenedAfter(later: (call: Call) => Promise<unknown>): Promise<{ dir: string; reopened: Lantern; call: Call }> {
  const dir = tempDir();
  const engine = await openAt(dir);
  const call = caller(engine);
  expect((await call('PUT', '/1/indexes/names/settings', SETTINGS)).status).toBe(200);
  for (const text of [ALL, NONE]) expect((await call('POST', '/1/indexes/names/batch', { requests: [{ action: 'addObject', body: JSON.parse(text) }] })).status).toBe(200);
  await engine.waitForTasks();
  await engine.snapshot();
  await later(call);
  await engine.waitForTasks();
  await closeEngine(engine);
  const reopened = await openAt(dir);
  return { dir, reopened, call: caller(reopened) };
}

async function record(call: Call, objectID: string): Promise<string> {
  const r = await call('GET', `/1/indexes/names/${objectID}`);
  expect(r.status).toBe(200);
  return JSON.stringify(r.body);
}

/** What every reader of the two records must answer (checked before the restart and after it). */
async function expectReadsOfBoth(call: Call): Promise<void> {
  expect(await record(call, 'all')).toBe(ALL);
  expect(await record(call, 'none')).toBe(NONE);
  const browse = await call('POST', '/1/indexes/names/browse', {});
  expect(browse.body.hits.map((h: unknown) => JSON.stringify(h)).sort()).toEqual([ALL, NONE]);
  const retrieved = await call('POST', '/1/indexes/*/objects', {
    requests: ['all', 'none'].map((objectID) => ({ indexName: 'names', objectID, attributesToRetrieve: [...NAMES, 'hasOwnProperty.__proto__'] })),
  });
  expect(retrieved.body.results.map((r: unknown) => JSON.stringify(r))).toEqual([
    '{"__proto__":{"inner":"alpha"},"constructor":"bravo","prototype":["charlie"],"toString":"delta","hasOwnProperty":{"__proto__":"echo"},"valueOf":1,"objectID":"all"}',
    '{"objectID":"none"}',
  ]);
}

describe('attribute names Object.prototype has', () => {
  it('read back the same before and after a snapshot and a restart: objects, browse, projections', async () => {
    const { call } = await reopenedAfter(expectReadsOfBoth);
    await expectReadsOfBoth(call);
  });

  it('are searched, highlighted and faceted as data; a record without them shows nothing inherited', async () => {
    const { call } = await reopenedAfter(async () => {});
    const r = await call('POST', '/1/indexes/names/query', {
      query: 'alpha', facets: ['*'], attributesToHighlight: [...NAMES, 'title'], hitsPerPage: 10,
    });
    expect(r.status).toBe(200);
    const byID = Object.fromEntries(r.body.hits.map((h: any) => [h.objectID, h]));
    expect(byID.all._highlightResult.__proto__.inner.value).toBe('<em>alpha</em>');
    expect(Object.keys(byID.all._highlightResult)).toEqual(NAMES);
    expect(Object.keys(byID.all._highlightResult.hasOwnProperty)).toEqual(['__proto__']);
    expect(Object.keys(byID.none).sort()).toEqual(['_highlightResult', 'objectID', 'title']);
    expect(Object.keys(byID.none._highlightResult)).toEqual(['title']);
    // a facet with no values among the matches is left out, as the service does ("__proto__" and "constructor.name" hold none)
    expect(JSON.stringify(r.body.facets)).toBe('{"__proto__.inner":{"alpha":1},"constructor":{"bravo":1},"toString":{"delta":1},'
      + '"hasOwnProperty.__proto__":{"echo":1}}');
    for (const word of ['bravo', 'charlie', 'delta', 'echo']) {
      const hits = (await call('POST', '/1/indexes/names/query', { query: word, restrictSearchableAttributes: NAMES })).body.hits;
      expect(hits.map((h: any) => h.objectID), word).toEqual(['all']);
    }
  });

  it('take partial updates (a value, every operation), applied from the log after a snapshot and again after the next one', async () => {
    const { dir, reopened, call } = await reopenedAfter(async (c) => {
      const partial = (objectID: string, text: string) => c('POST', `/1/indexes/names/${objectID}/partial`, JSON.parse(text));
      expect((await partial('all', '{"__proto__":{"inner":"foxtrot"},"constructor":{"_operation":"Add","value":"golf"},'
        + '"prototype":{"_operation":"Remove","value":"charlie"},"toString":{"_operation":"AddUnique","value":"delta"},'
        + '"valueOf":{"_operation":"Increment","value":2},"hasOwnProperty":{"_operation":"Decrement","value":1}}')).status).toBe(200);
      expect((await partial('none', '{"__proto__":{"_operation":"AddUnique","value":"y"},"constructor":{"_operation":"Add","value":"x"},'
        + '"toString":{"_operation":"Increment","value":2},"valueOf":{"_operation":"IncrementFrom","value":0},'
        + '"hasOwnProperty":{"_operation":"IncrementSet","value":5},"prototype":{"_operation":"Remove","value":"z"}}')).status).toBe(200);
    });
    const expected = {
      all: '{"objectID":"all","__proto__":{"inner":"foxtrot"},"constructor":["bravo","golf"],"prototype":[],"toString":["delta"],"hasOwnProperty":-1,"valueOf":3}',
      none: '{"objectID":"none","title":"alpha bravo charlie delta echo","__proto__":["y"],"constructor":["x"],"toString":2,"valueOf":0,"hasOwnProperty":5,"prototype":[]}',
    };
    for (const [objectID, text] of Object.entries(expected)) expect(await record(call, objectID)).toBe(text);
    const facets = (await call('POST', '/1/indexes/names/query', { query: '', facets: ['__proto__', '__proto__.inner', 'constructor'] })).body.facets;
    expect(JSON.stringify(facets)).toBe('{"__proto__":{"y":1},"__proto__.inner":{"foxtrot":1},"constructor":{"bravo":1,"golf":1,"x":1}}');

    // the updated records from a snapshot of their own
    await reopened.snapshot();
    await closeEngine(reopened);
    const again = caller(await openAt(dir));
    for (const [objectID, text] of Object.entries(expected)) expect(await record(again, objectID)).toBe(text);
  });

  it('are unknown as settings and as search parameters (400)', async () => {
    const { call } = await reopenedAfter(async () => {});
    for (const name of NAMES) {
      const body = JSON.parse(`{${JSON.stringify(name)}:{"hitsPerPage":1}}`);
      const settings = await call('PUT', '/1/indexes/names/settings', body);
      expect([settings.status, settings.body.message]).toEqual([400, `Unknown setting: ${name}`]);
      const search = await call('POST', '/1/indexes/names/query', body);
      expect([search.status, search.body.message]).toEqual([400, `Unknown parameter: ${name}`]);
    }
  });
});

describe('any attribute name', () => {
  it('dotted and empty names hold searchable text when every attribute is searchable, before and after a restart', async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = caller(engine);
    const text = '{"objectID":"d","a.b":"hotel","a":{"b":"kilo"},"":{"x":"india","":"lima"},"constructor":{"":"juliet"}}';
    await call('PUT', '/1/indexes/any/d', JSON.parse(text));
    await engine.waitForTasks();
    const found = async (c: Call) => {
      for (const word of ['hotel', 'kilo', 'india', 'lima', 'juliet']) {
        expect((await c('POST', '/1/indexes/any/query', { query: word })).body.hits.map((h: any) => h.objectID), word).toEqual(['d']);
      }
      expect(JSON.stringify((await c('GET', '/1/indexes/any/d')).body)).toBe(text);
    };
    await found(call);
    await engine.snapshot();
    await closeEngine(engine);
    await found(caller(await openAt(dir)));
  });
});
