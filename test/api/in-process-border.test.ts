// An in-process call (engine.request, engine.client()) crosses the border a
// call over HTTP crosses: the engine reads the JSON value of what it is
// given when the call is made, and keeps nothing the caller still holds;
// the caller gets an answer of its own, which it may change without
// changing the engine. Checked against what a restart on files reads back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';

const dirs: string[] = [];
const opened: Lantern[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((e) => e.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function openOn(dir: string): Promise<Lantern> {
  const engine = await Lantern.open({ storage: fsStorage(dir) });
  opened.push(engine);
  return engine;
}

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-border-'));
  dirs.push(dir);
  return dir;
}

async function restarted(engine: Lantern, dir: string): Promise<Lantern> {
  await engine.close();
  opened.splice(opened.indexOf(engine), 1);
  return openOn(dir);
}

const hitsFor = async (engine: Lantern, query: string) =>
  (await engine.client().searchSingleIndex({ indexName: 'items', searchParams: { query } })).hits.map((h) => h.objectID);

describe('an in-process call', () => {
  it('keeps what was sent when the caller changes its objects after the call, as a restart reads it', async () => {
    const dir = newDir();
    const engine = await openOn(dir);
    const record = { objectID: '1', title: 'lamp', tags: ['brass'], size: { height: 40 } };
    const sent = structuredClone(record);
    await engine.client().saveObjects({ indexName: 'items', objects: [record] });
    const settings = { searchableAttributes: ['title', 'tags'] };
    await engine.client().setSettings({ indexName: 'items', indexSettings: settings });
    // the caller reuses its objects before the tasks are applied
    record.tags.push('copper');
    record.title = 'table';
    record.size.height = 90;
    settings.searchableAttributes.push('size.height');
    await engine.waitForTasks();
    const read = async (e: Lantern) => [
      await e.client().getObject({ indexName: 'items', objectID: '1' }),
      (await e.client().getSettings({ indexName: 'items' })).searchableAttributes,
      await hitsFor(e, 'copper'),
      await hitsFor(e, 'brass'),
    ];
    const expected = [sent, ['title', 'tags'], [], ['1']];
    expect(await read(engine)).toEqual(expected);
    expect(await read(await restarted(engine, dir))).toEqual(expected);
  });

  it("answers with objects of the caller's own: changing them changes nothing in the engine", async () => {
    const engine = await Lantern.open({});
    opened.push(engine);
    const client = engine.client();
    await client.saveObjects({ indexName: 'items', objects: [{ objectID: '1', title: 'lamp', tags: ['brass'] }], waitForTasks: true });
    await client.setSettings({ indexName: 'items', indexSettings: { searchableAttributes: ['title', 'tags'], renderingContent: { facetOrdering: { facets: { order: ['tags'] } } } } });
    await client.saveRule({ indexName: 'items', objectID: 'r', rule: { objectID: 'r', conditions: [{ pattern: 'lamp', anchoring: 'contains' }], consequence: { userData: { banner: ['sale'] } } } });
    const { key } = await client.addApiKey({ acl: ['search'] });
    await engine.waitForTasks();
    const answers = async () => ({
      record: await client.getObject({ indexName: 'items', objectID: '1' }),
      settings: await client.getSettings({ indexName: 'items' }),
      search: await client.searchSingleIndex({ indexName: 'items', searchParams: { query: 'lamp' } }),
      rule: await client.getRule({ indexName: 'items', objectID: 'r' }),
      key: await client.getApiKey({ key }),
    });
    const first = await answers();
    const before = structuredClone(first);
    (first.record.tags as string[]).push('copper');
    first.settings.searchableAttributes!.push('other');
    (first.search.hits[0]!.tags as string[]).push('tin');
    (first.search.renderingContent!.facetOrdering!.facets!.order as string[]).push('size');
    ((first.search.userData as Array<{ banner: string[] }>)[0]!.banner).push('gone');
    ((first.rule.consequence.userData as { banner: string[] }).banner).push('gone');
    first.key.acl.push('addObject');
    const again = await answers();
    // what changes between two searches (their timing) aside
    for (const a of [again, before]) Object.assign(a.search, { processingTimeMS: 0, serverTimeMS: 0 });
    expect(again).toEqual(before);
    // bytes are made for each call, and handed over as bytes
    const image = await engine.request({ method: 'GET', path: '/1/lantern/follow/snapshot' });
    expect([image.status, image.body instanceof Uint8Array]).toEqual([200, true]);
  });

  it("answers a search whose every array and object is the caller's own, each met once, changed without changing the next answer", async () => {
    const engine = await Lantern.open({});
    opened.push(engine);
    const client = engine.client();
    const records = [
      { objectID: '1', title: 'brass lamp', tags: ['brass', 'lamp'], parts: { shade: 'brass shade', base: ['lamp base'] }, body: 'a lamp of brass for a desk, with a brass shade', inStock: true },
      { objectID: '2', title: 'brass bell', tags: ['brass'], parts: { shade: 'none', base: ['bell base'] }, body: 'a bell of brass' },
      // no body to snippet: its hit's _snippetResult is the record's own
      { objectID: '3', title: 'brass horn', tags: ['brass'], _snippetResult: { body: { value: 'stored', matchLevel: 'none' } } },
    ];
    await client.saveObjects({ indexName: 'items', objects: records, waitForTasks: true });
    await client.setSettings({ indexName: 'items', indexSettings: {
      searchableAttributes: ['title', 'tags', 'parts', 'body'], attributesForFaceting: ['tags'], attributesToSnippet: ['body:4', 'inStock'],
      attributesToHighlight: ['title', 'tags', 'parts', 'body', 'inStock'],
      renderingContent: { facetOrdering: { facets: { order: ['tags'] } } },
    } });
    await client.saveRule({ indexName: 'items', objectID: 'r', rule: { objectID: 'r', conditions: [{ pattern: 'brass', anchoring: 'contains' }], consequence: { userData: { banner: ['sale'] } } } });
    await engine.waitForTasks();
    const search = () => client.searchSingleIndex({ indexName: 'items', searchParams: { query: 'brass lamp', facets: ['tags'], getRankingInfo: true, optionalWords: ['lamp'] } });
    const first = await search();
    // JSON's own values, as over HTTP (toStrictEqual: no member left undefined, such as a boolean's highlight)
    expect(first).toStrictEqual(JSON.parse(JSON.stringify(first)));
    const before = structuredClone(first);
    expect(Object.fromEntries(first.hits.map((h) => [h.objectID, h._snippetResult?.body]))).toEqual({
      1: expect.objectContaining({ matchLevel: 'full' }), 2: expect.objectContaining({ matchLevel: 'partial' }), 3: records[2]._snippetResult!.body,
    });
    const met = new Set<object>();
    const vandalise = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      expect(met.has(value)).toBe(false); // as JSON hands it over: no object twice
      met.add(value);
      for (const member of Object.values(value)) vandalise(member);
      if (Array.isArray(value)) value.push('changed');
      else Object.assign(value, { value: 'changed', matchedWords: ['changed'], changed: true });
    };
    vandalise(first);
    const again = await search();
    for (const a of [again, before]) Object.assign(a, { processingTimeMS: 0, serverTimeMS: 0, processingTimingsMS: undefined });
    expect(again).toEqual(before);
    expect((await client.getObjects({ requests: records.map((r) => ({ indexName: 'items', objectID: r.objectID })) })).results).toEqual(records);
  });

  it('reads a value as JSON writes it (toJSON, left-out values), and a restart reads the same', async () => {
    const dir = newDir();
    const engine = await openOn(dir);
    const record = {
      objectID: '1', title: 'lamp', when: new Date(0), note: undefined, perhaps: [undefined, () => 1, 'kept'],
      price: { toJSON: () => 12 }, boxed: new String('box'), map: new Map([[1, 2]]), [Symbol('hidden')]: 'x', minus: -0,
      shade: { colour: 'red', [Symbol('nested')]: { unread: true } },
    };
    const status = (await engine.request({ method: 'POST', path: '/1/indexes/items/batch', body: { requests: [{ action: 'addObject', body: record }] } })).status;
    expect(status).toBe(200);
    await engine.waitForTasks();
    const asJson = JSON.parse(JSON.stringify(record));
    expect(asJson).toEqual({ objectID: '1', title: 'lamp', when: '1970-01-01T00:00:00.000Z', perhaps: [null, null, 'kept'], price: 12, boxed: 'box', map: {}, minus: 0, shade: { colour: 'red' } });
    // a hit made from the record as it was received (not packed yet) leaves its symbol keys out too
    const { hits } = (await engine.request({ method: 'POST', path: '/1/indexes/items/query', body: { query: 'lamp', attributesToHighlight: [] } })).body as { hits: Array<Record<string, unknown>> };
    expect(hits[0]).toStrictEqual(asJson);
    expect([Object.getOwnPropertySymbols(hits[0]), Object.getOwnPropertySymbols(hits[0]!.shade)]).toEqual([[], []]);
    const read = async (e: Lantern) => (await e.request({ method: 'GET', path: '/1/indexes/items/1' })).body;
    expect(await read(engine)).toStrictEqual(asJson);
    expect(Object.getOwnPropertySymbols((await read(engine) as { shade: object }).shade)).toEqual([]);
    expect(await read(await restarted(engine, dir))).toStrictEqual(asJson);
  });

  it('reads odd arrays and BigInts as JSON does: a subclass as an array, a BigInt by its toJSON', async () => {
    const engine = await Lantern.open({});
    opened.push(engine);
    const kept: string[] = [];
    class Tags extends Array<string> {
      static override get [Symbol.species](): ArrayConstructor { return function species() { return kept; } as unknown as ArrayConstructor; }
    }
    const tags = Tags.from(['red']);
    const proto = BigInt.prototype as unknown as { toJSON?: () => string };
    proto.toJSON = function toJSON(this: bigint) { return this.toString(); };
    try {
      await engine.client().saveObjects({ indexName: 'items', objects: [{ objectID: '1', tags, count: 10n } as unknown as Record<string, unknown>], waitForTasks: true });
    } finally {
      delete proto.toJSON;
    }
    kept.push('injected');
    tags.push('blue');
    const stored = (await engine.request({ method: 'GET', path: '/1/indexes/items/1' })).body as { tags: string[]; count: string };
    expect([stored.tags, Array.isArray(stored.tags) && stored.tags.constructor === Array, stored.count]).toEqual([['red'], true, '10']);
  });

  it("reads an object's own keys only, as JSON does, while Object.prototype has an enumerable one", async () => {
    const engine = await Lantern.open({});
    opened.push(engine);
    const proto = Object.prototype as Record<string, unknown>;
    proto.inherited = { from: 'the prototype' };
    try {
      const objects = [{ objectID: '1', title: 'lamp', shade: { colour: 'red' } }, { objectID: 2, title: 'desk' }];
      await engine.client().saveObjects({ indexName: 'items', objects: objects as Array<Record<string, unknown>>, waitForTasks: true });
    } finally {
      delete proto.inherited;
    }
    const read = async (id: string) => (await engine.request({ method: 'GET', path: `/1/indexes/items/${id}` })).body;
    expect([await read('1'), await read('2')]).toStrictEqual([{ objectID: '1', title: 'lamp', shade: { colour: 'red' } }, { objectID: '2', title: 'desk' }]);
  });

  it("reads own keys only while a caller's toJSON gives Object.prototype an enumerable key", async () => {
    const engine = await Lantern.open({});
    opened.push(engine);
    const proto = Object.prototype as Record<string, unknown>;
    const body = {
      objectID: '1', when: { toJSON: () => { proto.seen = { by: 'a library' }; return 'now'; } }, nested: { a: 1 },
    };
    try {
      expect((await engine.request({ method: 'POST', path: '/1/indexes/items/batch', body: { requests: [{ action: 'addObject', body }] } })).status).toBe(200);
    } finally {
      delete proto.seen;
    }
    await engine.waitForTasks();
    expect((await engine.request({ method: 'GET', path: '/1/indexes/items/1' })).body).toStrictEqual({ objectID: '1', when: 'now', nested: { a: 1 } });
  });

  it('logs a body as it was sent, not as the engine made it (no objectID given)', async () => {
    const engine = await Lantern.open({});
    opened.push(engine);
    for (const body of [{ title: 'lamp' }, JSON.stringify({ title: 'desk' })]) {
      expect((await engine.request({ method: 'POST', path: '/1/indexes/items', body })).status).toBe(201);
    }
    const { logs } = (await engine.request({ method: 'GET', path: '/1/logs?length=2' })).body as { logs: Array<{ query_body: string }> };
    expect(logs.map((l) => JSON.parse(l.query_body))).toEqual([{ title: 'desk' }, { title: 'lamp' }]);
  });

  it('answers as text with the text alone: no body of the engine reaches the caller', async () => {
    const engine = await Lantern.open({});
    opened.push(engine);
    await engine.client().saveObjects({ indexName: 'items', objects: [{ objectID: '1', tags: ['brass'] }], waitForTasks: true });
    const answer = await engine.request({ method: 'GET', path: '/1/indexes/items/1', answerAsText: true });
    expect([answer.body, JSON.parse(answer.text!)]).toEqual([undefined, { objectID: '1', tags: ['brass'] }]);
  });

  it('refuses what JSON cannot hold with a 400 that says why, and keeps what it held', async () => {
    const engine = await Lantern.open({});
    opened.push(engine);
    await engine.client().saveObjects({ indexName: 'items', objects: [{ objectID: '1', title: 'lamp' }], waitForTasks: true });
    const cyclic: Record<string, unknown> = { objectID: '2', title: 'loop' };
    cyclic.self = cyclic;
    const refusals = [];
    for (const body of [cyclic, { objectID: '3', count: 10n }]) {
      const { status, body: answer } = await engine.request({ method: 'POST', path: '/1/indexes/items/batch', body: { requests: [{ action: 'addObject', body }] } });
      refusals.push([status, (answer as { message: string }).message]);
    }
    // a sparse array JSON would write 2^32 - 1 values of; a body nested far deeper than any call; one that holds an
    // object twice at every level (2^80 paths, 80 objects)
    const sparse: unknown[] = [];
    sparse[2 ** 32 - 2] = { action: 'addObject', body: { objectID: 'far' } };
    let deep: unknown = { objectID: 'deep' };
    for (let i = 0; i < 200_000; i++) deep = [deep];
    let shared: unknown = { objectID: 'shared' };
    for (let i = 0; i < 80; i++) shared = [shared, shared];
    for (const body of [{ requests: sparse }, { requests: [{ action: 'addObject', body: { objectID: '4', deep } }] }, { requests: [{ action: 'addObject', body: { objectID: '5', shared } }] }]) {
      const { status, body: answer } = await engine.request({ method: 'POST', path: '/1/indexes/items/batch', body });
      refusals.push([status, (answer as { message: string }).message]);
    }
    const tooDeep = expect.stringMatching(/^Invalid JSON: the request body nests arrays and objects more than \d+ levels deep$/);
    expect(refusals).toEqual([
      [400, 'Invalid JSON: the request body cannot be written as JSON (Converting circular structure to JSON)'],
      [400, 'Invalid JSON: the request body cannot be written as JSON (Do not know how to serialize a BigInt)'],
      [400, 'Invalid JSON: the request body cannot be written as JSON (it holds more than 16777216 values)'],
      [400, tooDeep],
      [400, tooDeep],
    ]);
    await engine.waitForTasks();
    expect(await hitsFor(engine, '')).toEqual(['1']);
  });
});
