// The Objects endpoints, index management and errors through engine.request,
// as the spec's tables describe them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import { ADMIN_KEY, APP_ID, expectError, openEngine, sender, type Send } from './helpers.js';

let engine: Lantern;
let send: Send;
const settled = () => engine.waitForTasks();

async function getObject(index: string, objectID: string, query = '') {
  return send('GET', `/1/indexes/${encodeURIComponent(index)}/${encodeURIComponent(objectID)}${query}`);
}

async function put(index: string, body: Record<string, unknown>) {
  const response = await send('PUT', `/1/indexes/${index}/${encodeURIComponent(String(body.objectID))}`, body);
  expect(response.status).toBe(200);
  return response;
}

beforeAll(async () => {
  engine = await openEngine();
  send = sender(engine);
});

describe('POST /1/indexes/{indexName} (add)', () => {
  it('answers 201 with createdAt, taskID and a generated objectID', async () => {
    const response = await send('POST', '/1/indexes/add_idx', { title: 'hello world' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ createdAt: expect.any(String), taskID: expect.any(Number), objectID: expect.any(String) });
    expect(Number.isNaN(Date.parse(response.body.createdAt))).toBe(false);
    expect(response.body.objectID.length).toBeGreaterThan(0);
    await settled();
    const stored = await getObject('add_idx', response.body.objectID);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ title: 'hello world', objectID: response.body.objectID });
  });

  it('generates a different objectID for every added object', async () => {
    const a = await send('POST', '/1/indexes/add_idx', { n: 1 });
    const b = await send('POST', '/1/indexes/add_idx', { n: 1 });
    expect(a.body.objectID).not.toBe(b.body.objectID);
    expect(b.body.taskID).toBeGreaterThan(a.body.taskID);
  });

  it('accepts the body as JSON text', async () => {
    const response = await send('POST', '/1/indexes/add_idx', JSON.stringify({ text: 'as text' }));
    expect(response.status).toBe(201);
    await settled();
    expect((await getObject('add_idx', response.body.objectID)).body.text).toBe('as text');
  });

  it('makes the new object searchable', async () => {
    await send('POST', '/1/indexes/add_search', { title: 'Unmistakable zebra' });
    await settled();
    const result = await send('POST', '/1/indexes/add_search/query', { query: 'zebra' });
    expect(result.status).toBe(200);
    expect(result.body.nbHits).toBe(1);
    expect(result.body.hits[0].title).toBe('Unmistakable zebra');
  });

  it('refuses an in-process record that is not JSON (a cycle, a BigInt) with 400, whatever the storage, and writes nothing', async () => {
    const cyclic: Record<string, unknown> = { objectID: 'loop', title: 'loop' };
    cyclic.self = cyclic;
    const dir = mkdtempSync(join(tmpdir(), 'lantern-json-'));
    const onDisk = await Lantern.open({ storage: fsStorage(dir) });
    try {
      for (const target of [engine, onDisk]) {
        const write = sender(target);
        for (const body of [cyclic, { objectID: 'big', n: 10n }, { objectID: 'odd', value: { toJSON() { throw 'not an Error'; } } }]) {
          const response = await write('POST', '/1/indexes/not_json/batch', { requests: [{ action: 'addObject', body }, { action: 'addObject', body: { objectID: 'fine' } }] });
          expect(response.status).toBe(400);
          expect(response.body.message).toMatch(/^Invalid JSON/);
        }
        await target.waitForTasks();
        expect((await write('GET', '/1/indexes/not_json/fine')).status).toBe(404);
      }
    } finally {
      await onDisk.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PUT /1/indexes/{indexName}/{objectID} (add or replace)', () => {
  it('creates the object under the given objectID', async () => {
    const response = await send('PUT', '/1/indexes/put_idx/o1', { a: 1, b: 2 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ updatedAt: expect.any(String), taskID: expect.any(Number), objectID: 'o1' });
    await settled();
    expect((await getObject('put_idx', 'o1')).body).toEqual({ a: 1, b: 2, objectID: 'o1' });
  });

  it('replaces the whole object: attributes not sent are deleted', async () => {
    await send('PUT', '/1/indexes/put_idx/o2', { a: 1, b: 2, nested: { x: 1 } });
    await send('PUT', '/1/indexes/put_idx/o2', { a: 3 });
    await settled();
    expect((await getObject('put_idx', 'o2')).body).toEqual({ a: 3, objectID: 'o2' });
  });

  it('a replaced object is searchable by its new content only', async () => {
    await send('PUT', '/1/indexes/put_search/o1', { title: 'old aardvark' });
    await settled();
    await send('PUT', '/1/indexes/put_search/o1', { title: 'new platypus' });
    await settled();
    expect((await send('POST', '/1/indexes/put_search/query', { query: 'aardvark' })).body.nbHits).toBe(0);
    expect((await send('POST', '/1/indexes/put_search/query', { query: 'platypus' })).body.nbHits).toBe(1);
    expect((await send('POST', '/1/indexes/put_search/query', { query: '' })).body.nbHits).toBe(1);
  });

  it('decodes percent-encoded objectIDs and index names', async () => {
    await send('PUT', `/1/indexes/${encodeURIComponent('my index/é')}/${encodeURIComponent('a/b c?é')}`, { v: 1 });
    await settled();
    const stored = await getObject('my index/é', 'a/b c?é');
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ v: 1, objectID: 'a/b c?é' });
  });
});

describe('GET /1/indexes/{indexName}/{objectID}', () => {
  beforeAll(async () => {
    await put('get_idx', { objectID: 'g1', a: 1, b: 'two', c: [3], nested: { x: 1, y: 2 } });
    await settled();
  });

  it('returns the whole object by default', async () => {
    const response = await getObject('get_idx', 'g1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ objectID: 'g1', a: 1, b: 'two', c: [3], nested: { x: 1, y: 2 } });
  });

  it('attributesToRetrieve as a comma-separated list', async () => {
    expect((await getObject('get_idx', 'g1', '?attributesToRetrieve=a,c')).body).toEqual({ objectID: 'g1', a: 1, c: [3] });
  });

  it('attributesToRetrieve as a URL-encoded JSON array', async () => {
    const list = encodeURIComponent(JSON.stringify(['b']));
    expect((await getObject('get_idx', 'g1', `?attributesToRetrieve=${list}`)).body).toEqual({ objectID: 'g1', b: 'two' });
  });

  it('accepts the old name `attributes`', async () => {
    expect((await getObject('get_idx', 'g1', '?attributes=b')).body).toEqual({ objectID: 'g1', b: 'two' });
  });

  it('attributesToRetrieve with * and a -attr exclusion', async () => {
    expect((await getObject('get_idx', 'g1', '?attributesToRetrieve=*,-b,-nested')).body).toEqual({ objectID: 'g1', a: 1, c: [3] });
  });

  it('always includes objectID, even when not asked for', async () => {
    expect((await getObject('get_idx', 'g1', '?attributesToRetrieve=nested')).body)
      .toEqual({ objectID: 'g1', nested: { x: 1, y: 2 } });
  });

  it('many distinct paths and attribute lists, each twice (more than the router and the projections keep): every answer is its own', async () => {
    const n = 300;
    const batch = await send('POST', '/1/indexes/get_many/batch', {
      requests: Array.from({ length: n }, (_, i) => ({ action: 'addObject', body: { objectID: `m/${i}`, i, [`f${i}`]: `v${i}`, other: 'x' } })),
    });
    expect(batch.status).toBe(200);
    await settled();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < n; i += 7) {
        const got = await getObject('get_many', `m/${i}`, `?attributesToRetrieve=f${i},i`);
        expect(got.body).toEqual({ objectID: `m/${i}`, i, [`f${i}`]: `v${i}` });
      }
      for (let i = 0; i < n; i++) expect((await getObject('get_many', `m/${i}`, '?attributesToRetrieve=i')).body).toEqual({ objectID: `m/${i}`, i });
    }
    expect((await send('PUT', '/1/indexes/get_many/m%2F1', undefined)).status).toBe(400);
    expect((await send('PATCH', '/1/indexes/get_many/m%2F1', {})).status).toBe(404);
  });

  it('the admin key sees unretrievableAttributes', async () => {
    await put('get_hidden', { objectID: 'h1', visible: 'yes', secret: 'classified' });
    const settings = await send('PUT', '/1/indexes/get_hidden/settings', { unretrievableAttributes: ['secret'] });
    expect(settings.status).toBe(200);
    await settled();
    expect((await getObject('get_hidden', 'h1')).body).toEqual({ objectID: 'h1', visible: 'yes', secret: 'classified' });
    const search = await send('POST', '/1/indexes/get_hidden/query', { query: 'yes' });
    expect(search.body.hits[0].secret).toBe('classified');
    const multi = await send('POST', '/1/indexes/*/objects', { requests: [{ indexName: 'get_hidden', objectID: 'h1' }] });
    expect(multi.body.results[0].secret).toBe('classified');
  });
});

describe('DELETE /1/indexes/{indexName}/{objectID}', () => {
  it('deletes the object: 200 with deletedAt and taskID, then 404', async () => {
    await put('del_idx', { objectID: 'd1', title: 'doomed wombat' });
    await put('del_idx', { objectID: 'd2', title: 'surviving wombat' });
    await settled();
    const response = await send('DELETE', '/1/indexes/del_idx/d1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deletedAt: expect.any(String), taskID: expect.any(Number) });
    await settled();
    expectError(await getObject('del_idx', 'd1'), 404, /ObjectID does not exist/);
    expect((await getObject('del_idx', 'd2')).status).toBe(200);
    const search = await send('POST', '/1/indexes/del_idx/query', { query: 'wombat' });
    expect(search.body.nbHits).toBe(1);
    expect(search.body.hits.map((h: any) => h.objectID)).toEqual(['d2']);
  });

  it('deleting a missing object is accepted and changes nothing', async () => {
    await put('del_idx2', { objectID: 'k' });
    const response = await send('DELETE', '/1/indexes/del_idx2/never-existed');
    expect(response.status).toBe(200);
    await settled();
    expect((await getObject('del_idx2', 'k')).status).toBe(200);
  });
});

describe('POST /1/indexes/{indexName}/clear', () => {
  it('removes every object but keeps the settings', async () => {
    const settings = { searchableAttributes: ['title'], customRanking: ['desc(n)'], hitsPerPage: 7 };
    expect((await send('PUT', '/1/indexes/clear_idx/settings', settings)).status).toBe(200);
    for (let i = 0; i < 5; i++) await put('clear_idx', { objectID: `c${i}`, title: `quokka ${i}`, n: i });
    await settled();
    const response = await send('POST', '/1/indexes/clear_idx/clear');
    expect(response.status).toBe(200);
    expect(response.body.taskID).toEqual(expect.any(Number));
    await settled();
    expect((await send('POST', '/1/indexes/clear_idx/query', { query: '' })).body.nbHits).toBe(0);
    expectError(await getObject('clear_idx', 'c1'), 404);
    const kept = await send('GET', '/1/indexes/clear_idx/settings');
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject(settings);
    // the kept settings still apply to new objects
    await put('clear_idx', { objectID: 'n1', title: 'quokka low', n: 1 });
    await put('clear_idx', { objectID: 'n2', title: 'quokka high', n: 2 });
    await put('clear_idx', { objectID: 'n3', other: 'quokka' });
    await settled();
    const after = await send('POST', '/1/indexes/clear_idx/query', { query: 'quokka' });
    expect(after.body.hits.map((h: any) => h.objectID)).toEqual(['n2', 'n1']);
    expect(after.body.hitsPerPage).toBe(7);
  });
});

describe('POST /1/indexes/{indexName}/{objectID}/partial', () => {
  const base = { objectID: 'p1', count: 10, tags: ['a', 'b', 'a'], name: 'x', keep: true };

  async function partial(objectID: string, body: Record<string, unknown>, query = '', index = 'partial_idx') {
    const response = await send('POST', `/1/indexes/${index}/${objectID}/partial${query}`, body);
    await settled();
    return response;
  }

  beforeAll(async () => {
    await put('partial_idx', base);
    await settled();
  });

  it('replaces the given first-level attributes only: 200 with updatedAt, taskID, objectID', async () => {
    const response = await partial('p1', { name: 'y' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ updatedAt: expect.any(String), taskID: expect.any(Number), objectID: 'p1' });
    expect((await getObject('partial_idx', 'p1')).body).toEqual({ ...base, name: 'y' });
  });

  it('a nested attribute replaces its first-level ancestor', async () => {
    await put('partial_idx', { objectID: 'p2', nested: { a: 1, b: 2 }, other: 1 });
    await settled();
    await partial('p2', { nested: { a: 5 } });
    expect((await getObject('partial_idx', 'p2')).body).toEqual({ objectID: 'p2', nested: { a: 5 }, other: 1 });
  });

  it('Increment and Decrement', async () => {
    await put('partial_idx', { objectID: 'num', count: 10 });
    await settled();
    await partial('num', { count: { _operation: 'Increment', value: 5 } });
    expect((await getObject('partial_idx', 'num')).body.count).toBe(15);
    await partial('num', { count: { _operation: 'Decrement', value: 3 } });
    expect((await getObject('partial_idx', 'num')).body.count).toBe(12);
    await partial('num', { fresh: { _operation: 'Increment', value: 2 }, below: { _operation: 'Decrement', value: 4 } });
    expect((await getObject('partial_idx', 'num')).body).toEqual({ objectID: 'num', count: 12, fresh: 2, below: -4 });
  });

  it('Add appends, Remove removes every match, AddUnique adds only when absent', async () => {
    await put('partial_idx', { objectID: 'arr', tags: ['a', 'b', 'a'], nums: [1, 2, 1] });
    await settled();
    await partial('arr', { tags: { _operation: 'Add', value: 'c' } });
    expect((await getObject('partial_idx', 'arr')).body.tags).toEqual(['a', 'b', 'a', 'c']);
    await partial('arr', { tags: { _operation: 'Remove', value: 'a' }, nums: { _operation: 'Remove', value: 1 } });
    let stored = (await getObject('partial_idx', 'arr')).body;
    expect(stored.tags).toEqual(['b', 'c']);
    expect(stored.nums).toEqual([2]);
    await partial('arr', { tags: { _operation: 'AddUnique', value: 'b' } });
    expect((await getObject('partial_idx', 'arr')).body.tags).toEqual(['b', 'c']);
    await partial('arr', { tags: { _operation: 'AddUnique', value: 'd' }, nums: { _operation: 'Add', value: 7 } });
    stored = (await getObject('partial_idx', 'arr')).body;
    expect(stored.tags).toEqual(['b', 'c', 'd']);
    expect(stored.nums).toEqual([2, 7]);
  });

  it('Add on a missing attribute creates the array', async () => {
    await put('partial_idx', { objectID: 'arr2' });
    await settled();
    await partial('arr2', { list: { _operation: 'Add', value: 'x' } });
    expect((await getObject('partial_idx', 'arr2')).body).toEqual({ objectID: 'arr2', list: ['x'] });
  });

  it('the updated object is searchable by its new content', async () => {
    await put('partial_search', { objectID: 's1', title: 'first narwhal', tags: [] });
    await settled();
    await partial('s1', { tags: { _operation: 'Add', value: 'axolotl' } }, '', 'partial_search');
    expect((await send('POST', '/1/indexes/partial_search/query', { query: 'axolotl' })).body.nbHits).toBe(1);
    expect((await send('POST', '/1/indexes/partial_search/query', { query: 'narwhal' })).body.nbHits).toBe(1);
  });

  it('createIfNotExists defaults to true: a missing object is created from an empty base', async () => {
    const response = await partial('created1', { title: 'new', count: { _operation: 'Increment', value: 1 } });
    expect(response.status).toBe(200);
    expect((await getObject('partial_idx', 'created1')).body).toEqual({ objectID: 'created1', title: 'new', count: 1 });
  });

  it('createIfNotExists false in the body: a missing object is not created', async () => {
    const response = await partial('absent1', { title: 'no', createIfNotExists: false });
    expect(response.status).toBe(200);
    expectError(await getObject('partial_idx', 'absent1'), 404);
  });

  it('createIfNotExists true in the body creates, and is not stored as an attribute', async () => {
    await partial('created2', { title: 'yes', createIfNotExists: true });
    expect((await getObject('partial_idx', 'created2')).body).toEqual({ objectID: 'created2', title: 'yes' });
  });

  it('createIfNotExists false in the body still updates an existing object', async () => {
    await partial('p1', { extra: 1, createIfNotExists: false });
    const stored = (await getObject('partial_idx', 'p1')).body;
    expect(stored.extra).toBe(1);
    expect(stored).not.toHaveProperty('createIfNotExists');
  });

  it('createIfNotExists as a query-string parameter (the current client form)', async () => {
    await partial('absent2', { title: 'no' }, '?createIfNotExists=false');
    expectError(await getObject('partial_idx', 'absent2'), 404);
    await partial('created3', { title: 'yes' }, '?createIfNotExists=true');
    expect((await getObject('partial_idx', 'created3')).body).toEqual({ objectID: 'created3', title: 'yes' });
  });

  it('createIfNotExists false on a missing index creates neither index nor object', async () => {
    await partial('x', { title: 'no' }, '?createIfNotExists=false', 'partial_ghost');
    expectError(await getObject('partial_ghost', 'x'), 404);
    const list = await send('GET', '/1/indexes');
    expect(list.body.items.map((i: any) => i.name)).not.toContain('partial_ghost');
  });

  it('an unknown _operation is rejected with 400 and changes nothing', async () => {
    const response = await send('POST', '/1/indexes/partial_idx/p1/partial', { count: { _operation: 'Multiply', value: 2 } });
    expectError(response, 400);
    await settled();
    expect((await getObject('partial_idx', 'p1')).body.count).toBe(10);
  });
});

describe('POST /1/indexes/{indexName}/batch', () => {
  it('applies the object actions in order', async () => {
    const response = await send('POST', '/1/indexes/batch_idx/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'a', v: 1 } },
        { action: 'addObject', body: { v: 'generated' } },
        { action: 'updateObject', objectID: 'b', body: { v: 2 } },
        { action: 'partialUpdateObject', objectID: 'c', body: { v: { _operation: 'Increment', value: 3 } } },
        { action: 'partialUpdateObjectNoCreate', objectID: 'd', body: { v: 4 } },
        { action: 'partialUpdateObject', objectID: 'a', body: { w: 1 } },
        { action: 'partialUpdateObjectNoCreate', objectID: 'b', body: { w: 2 } },
        { action: 'deleteObject', objectID: 'b' },
        { action: 'updateObject', objectID: 'e', body: { v: 5, gone: true } },
        { action: 'updateObject', objectID: 'e', body: { v: 6 } },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.taskID).toEqual(expect.any(Number));
    expect(Array.isArray(response.body.objectIDs)).toBe(true);
    expect(response.body.objectIDs[0]).toBe('a');
    expect(response.body.objectIDs[1]).toEqual(expect.any(String));
    expect(response.body.objectIDs[2]).toBe('b');
    await settled();
    expect((await getObject('batch_idx', 'a')).body).toEqual({ objectID: 'a', v: 1, w: 1 });
    expect((await getObject('batch_idx', response.body.objectIDs[1])).body).toMatchObject({ v: 'generated' });
    expectError(await getObject('batch_idx', 'b'), 404);
    expect((await getObject('batch_idx', 'c')).body).toEqual({ objectID: 'c', v: 3 });
    expectError(await getObject('batch_idx', 'd'), 404);
    expect((await getObject('batch_idx', 'e')).body).toEqual({ objectID: 'e', v: 6 });
    expect((await send('POST', '/1/indexes/batch_idx/query', { query: '' })).body.nbHits).toBe(4);
  });

  it('reports the objectIDs of added objects in request order', async () => {
    const response = await send('POST', '/1/indexes/batch_ids/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'x1' } },
        { action: 'addObject', body: { objectID: 'x2' } },
        { action: 'updateObject', objectID: 'x3', body: {} },
      ],
    });
    expect(response.body.objectIDs).toEqual(['x1', 'x2', 'x3']);
  });

  it('clear inside a batch empties the index at that point', async () => {
    await send('PUT', '/1/indexes/batch_clear/settings', { hitsPerPage: 3 });
    const response = await send('POST', '/1/indexes/batch_clear/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'before' } },
        { action: 'clear' },
        { action: 'addObject', body: { objectID: 'after' } },
      ],
    });
    expect(response.status).toBe(200);
    await settled();
    expectError(await getObject('batch_clear', 'before'), 404);
    expect((await getObject('batch_clear', 'after')).status).toBe(200);
    expect((await send('GET', '/1/indexes/batch_clear/settings')).body.hitsPerPage).toBe(3);
  });

  it('delete inside a batch deletes the index at that point', async () => {
    await send('PUT', '/1/indexes/batch_delete/settings', { hitsPerPage: 3 });
    await send('POST', '/1/indexes/batch_delete/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'z' } }, { action: 'delete' }],
    });
    await send('POST', '/1/indexes/batch_recreate/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'q' } }, { action: 'delete' }, { action: 'addObject', body: { objectID: 'r' } }],
    });
    await settled();
    expectError(await getObject('batch_delete', 'z'), 404);
    expectError(await send('POST', '/1/indexes/batch_delete/query', { query: '' }), 404);
    expectError(await getObject('batch_recreate', 'q'), 404);
    expect((await getObject('batch_recreate', 'r')).status).toBe(200);
  });

  it('accepts the client form (objectID inside body)', async () => {
    await put('batch_client', { objectID: 'k2', v: 0 });
    await settled();
    const response = await send('POST', '/1/indexes/batch_client/batch', {
      requests: [
        { action: 'updateObject', body: { objectID: 'k', v: 1 } },
        { action: 'partialUpdateObject', body: { objectID: 'k', w: 2 } },
        { action: 'partialUpdateObject', body: { objectID: 'k3', w: 3 } },
        { action: 'partialUpdateObjectNoCreate', body: { objectID: 'm', v: 1 } },
        { action: 'deleteObject', body: { objectID: 'k2' } },
      ],
    });
    expect(response.status).toBe(200);
    await settled();
    expect((await getObject('batch_client', 'k')).body).toEqual({ objectID: 'k', v: 1, w: 2 });
    expect((await getObject('batch_client', 'k3')).body).toEqual({ objectID: 'k3', w: 3 });
    expectError(await getObject('batch_client', 'm'), 404);
    expectError(await getObject('batch_client', 'k2'), 404);
  });

  it('an unknown action is rejected with 400 and nothing of the batch is applied', async () => {
    const response = await send('POST', '/1/indexes/batch_bad/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'ok' } }, { action: 'explode', body: {} }],
    });
    expectError(response, 400, /explode/);
    await settled();
    expectError(await getObject('batch_bad', 'ok'), 404);
  });

  it('an action that needs an objectID without one is rejected with 400', async () => {
    for (const action of ['updateObject', 'partialUpdateObject', 'partialUpdateObjectNoCreate', 'deleteObject']) {
      expectError(await send('POST', '/1/indexes/batch_bad/batch', { requests: [{ action, body: { v: 1 } }] }), 400);
    }
  });

  it('an update with an empty objectID is rejected with 400 and nothing is written (issue #49)', async () => {
    for (const action of ['updateObject', 'partialUpdateObject', 'partialUpdateObjectNoCreate']) {
      for (const request of [{ action, objectID: '', body: { v: 1 } }, { action, body: { objectID: '', v: 1 } }]) {
        const response = await send('POST', '/1/indexes/batch_empty_id/batch', { requests: [{ action: 'addObject', body: { objectID: 'ok' } }, request] });
        expectError(response, 400, /non-empty objectID/);
      }
    }
    await settled();
    expectError(await getObject('batch_empty_id', 'ok'), 404);
  });

  it('a body without requests is rejected with 400', async () => {
    expectError(await send('POST', '/1/indexes/batch_bad/batch', { nope: [] }), 400);
  });
});

describe('POST /1/indexes/*/batch (multi-index)', () => {
  it('returns one taskID per index and applies each index its own actions', async () => {
    const response = await send('POST', '/1/indexes/*/batch', {
      requests: [
        { indexName: 'multi_1', action: 'addObject', body: { objectID: '1', v: 'one' } },
        { indexName: 'multi_2', action: 'addObject', body: { objectID: '2', v: 'two' } },
        { indexName: 'multi_1', action: 'updateObject', body: { objectID: '3', v: 'three' } },
        { indexName: 'multi_2', action: 'partialUpdateObject', body: { objectID: '2', w: 'more' } },
      ],
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.taskID).sort()).toEqual(['multi_1', 'multi_2']);
    const [t1, t2] = [response.body.taskID.multi_1, response.body.taskID.multi_2];
    expect(t1).toEqual(expect.any(Number));
    expect(t2).toEqual(expect.any(Number));
    expect(t1).not.toBe(t2);
    expect(response.body.objectIDs.slice(0, 3)).toEqual(['1', '2', '3']);
    await settled();
    for (const [index, taskID] of [['multi_1', t1], ['multi_2', t2]]) {
      expect((await send('GET', `/1/indexes/${index}/task/${taskID}`)).body.status).toBe('published');
    }
    expect((await getObject('multi_1', '1')).body).toEqual({ objectID: '1', v: 'one' });
    expect((await getObject('multi_1', '3')).body).toEqual({ objectID: '3', v: 'three' });
    expectError(await getObject('multi_1', '2'), 404);
    expect((await getObject('multi_2', '2')).body).toEqual({ objectID: '2', v: 'two', w: 'more' });
  });

  it('rejects an item without an index name (400) before applying anything', async () => {
    const response = await send('POST', '/1/indexes/*/batch', {
      requests: [
        { indexName: 'multi_3', action: 'addObject', body: { objectID: '1' } },
        { action: 'addObject', body: { objectID: '2' } },
      ],
    });
    expectError(response, 400);
    await settled();
    expectError(await getObject('multi_3', '1'), 404);
  });

  it('rejects invalid JSON with 400', async () => {
    expectError(await send('POST', '/1/indexes/*/batch', '{"requests": ['), 400);
  });
});

describe('POST /1/indexes/*/objects (multi-get)', () => {
  beforeAll(async () => {
    await put('mget_1', { objectID: '1', a: 'x', b: 'y' });
    await put('mget_2', { objectID: '1', a: 'other index' });
    await settled();
  });

  it('returns the objects in request order, null for a missing object', async () => {
    const response = await send('POST', '/1/indexes/*/objects', {
      requests: [
        { indexName: 'mget_1', objectID: '1' },
        { indexName: 'mget_1', objectID: 'missing' },
        { indexName: 'mget_2', objectID: '1' },
        { indexName: 'mget_1', objectID: '1', attributesToRetrieve: ['b'] },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      results: [
        { objectID: '1', a: 'x', b: 'y' },
        null,
        { objectID: '1', a: 'other index' },
        { objectID: '1', b: 'y' },
      ],
    });
  });

  it('accepts index_name as the index field', async () => {
    const response = await send('POST', '/1/indexes/*/objects', { requests: [{ index_name: 'mget_2', objectID: '1' }] });
    expect(response.body.results).toEqual([{ objectID: '1', a: 'other index' }]);
  });
});

describe('task status', () => {
  it('notPublished until applied, then published', async () => {
    const write = await send('POST', '/1/indexes/task_idx', { v: 1 });
    const taskID = write.body.taskID;
    const pending = await send('GET', `/1/indexes/task_idx/task/${taskID}`);
    expect(pending.status).toBe(200);
    expect(pending.body.status).toBe('notPublished');
    await settled();
    const done = await send('GET', `/1/indexes/task_idx/task/${taskID}`);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('published');
    expect(done.body).toEqual({ status: 'published' }); // the spec's answer: status alone
  });

  it('every kind of write returns a task that gets published', async () => {
    const writes = [
      await send('PUT', '/1/indexes/task_all/o', { v: 1 }),
      await send('POST', '/1/indexes/task_all/o/partial', { w: 1 }),
      await send('PUT', '/1/indexes/task_all/settings', { hitsPerPage: 5 }),
      await send('POST', '/1/indexes/task_all/batch', { requests: [{ action: 'addObject', body: { v: 2 } }] }),
      await send('DELETE', '/1/indexes/task_all/o'),
      await send('POST', '/1/indexes/task_all/clear'),
      await send('DELETE', '/1/indexes/task_all'),
    ];
    const ids = writes.map((w) => w.body.taskID);
    for (const id of ids) expect(id).toEqual(expect.any(Number));
    expect(new Set(ids).size).toBe(ids.length);
    await settled();
    for (const id of ids) expect((await send('GET', `/1/indexes/task_all/task/${id}`)).body.status).toBe('published');
  });

  it('writes are applied in the order they were accepted', async () => {
    for (let i = 0; i < 20; i++) await send('PUT', '/1/indexes/task_order/o', { v: i });
    await settled();
    expect((await getObject('task_order', 'o')).body.v).toBe(19);
  });
});

describe('DELETE /1/indexes/{indexName}', () => {
  it('deletes the index, its objects and its settings', async () => {
    await send('PUT', '/1/indexes/gone_idx/settings', { hitsPerPage: 4 });
    await put('gone_idx', { objectID: 'o', title: 'ephemeral' });
    await settled();
    const response = await send('DELETE', '/1/indexes/gone_idx');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deletedAt: expect.any(String), taskID: expect.any(Number) });
    await settled();
    expectError(await getObject('gone_idx', 'o'), 404);
    expectError(await send('POST', '/1/indexes/gone_idx/query', { query: '' }), 404);
    expectError(await send('GET', '/1/indexes/gone_idx/settings'), 404);
    expect((await send('GET', '/1/indexes')).body.items.map((i: any) => i.name)).not.toContain('gone_idx');
    // a new index of the same name starts empty, with default settings
    await put('gone_idx', { objectID: 'p' });
    await settled();
    expect((await send('GET', '/1/indexes/gone_idx/settings')).body.hitsPerPage).toBe(20);
    expectError(await getObject('gone_idx', 'o'), 404);
  });
});

describe('GET /1/indexes (list)', () => {
  it('lists every index with its entries, without page', async () => {
    const own = await openEngine();
    const ownSend = sender(own);
    for (const [name, count] of [['list_b', 2], ['list_a', 3], ['list_c', 1]] as const) {
      for (let i = 0; i < count; i++) await ownSend('PUT', `/1/indexes/${name}/${i}`, { i });
    }
    await own.waitForTasks();
    const response = await ownSend('GET', '/1/indexes');
    expect(response.status).toBe(200);
    expect(response.body.nbPages).toBe(1);
    const items = response.body.items as any[];
    expect(items.map((i) => i.name).sort()).toEqual(['list_a', 'list_b', 'list_c']);
    const byName = Object.fromEntries(items.map((i) => [i.name, i]));
    expect(byName.list_a.entries).toBe(3);
    expect(byName.list_b.entries).toBe(2);
    expect(byName.list_c.entries).toBe(1);
    for (const item of items) {
      expect(item).toMatchObject({
        createdAt: expect.any(String), updatedAt: expect.any(String), dataSize: expect.any(Number),
        fileSize: expect.any(Number), lastBuildTimeS: expect.any(Number), numberOfPendingTasks: 0, pendingTask: false,
      });
    }
  });

  it('pages by 100 when page is given', async () => {
    const own = await openEngine();
    const ownSend = sender(own);
    const names = Array.from({ length: 105 }, (_, i) => `page_${String(i).padStart(3, '0')}`);
    const response = await ownSend('POST', '/1/indexes/*/batch', {
      requests: names.map((indexName) => ({ indexName, action: 'addObject', body: { objectID: '1' } })),
    });
    expect(response.status).toBe(200);
    await own.waitForTasks();
    const first = await ownSend('GET', '/1/indexes?page=0');
    const second = await ownSend('GET', '/1/indexes?page=1');
    expect(first.status).toBe(200);
    expect(first.body.items.length).toBe(100);
    expect(second.body.items.length).toBe(5);
    expect(first.body.nbPages).toBe(2);
    expect(second.body.nbPages).toBe(2);
    const seen = [...first.body.items, ...second.body.items].map((i: any) => i.name);
    expect(new Set(seen).size).toBe(105);
    expect(seen.sort()).toEqual(names);
    const third = await ownSend('GET', '/1/indexes?page=2');
    expect(third.body.items).toEqual([]);
    const all = await ownSend('GET', '/1/indexes');
    expect(all.body.items.length).toBe(105);
  });
});

describe('authentication', () => {
  it('accepts the X-Service-* spelling, in any case', async () => {
    await put('auth_idx', { objectID: 'o' });
    await settled();
    const spellings: Array<Record<string, string>> = [
      { 'X-Service-Application-Id': APP_ID, 'X-Service-API-Key': ADMIN_KEY },
      { 'X-ALGOLIA-APPLICATION-ID': APP_ID, 'X-Algolia-Api-Key': ADMIN_KEY },
      { 'x-service-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY },
    ];
    for (const headers of spellings) expect((await send('GET', '/1/indexes/auth_idx/o', undefined, headers)).status).toBe(200);
  });

  it('accepts the credentials as query-string parameters', async () => {
    const qs = `?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${ADMIN_KEY}`;
    expect((await send('GET', `/1/indexes/auth_idx/o${qs}`, undefined, {})).status).toBe(200);
    const service = `?X-Service-Application-Id=${APP_ID}&X-Service-API-Key=${ADMIN_KEY}`;
    expect((await send('GET', `/1/indexes/auth_idx/o${service}`, undefined, {})).status).toBe(200);
  });

  it('a wrong application id is 403', async () => {
    const response = await send('GET', '/1/indexes/auth_idx/o', undefined, { 'x-algolia-application-id': 'OTHER', 'x-algolia-api-key': ADMIN_KEY });
    expectError(response, 403, /Invalid Application-ID or API key/);
  });

  it('a wrong key is 403', async () => {
    const response = await send('GET', '/1/indexes/auth_idx/o', undefined, { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': 'nope' });
    expectError(response, 403, /Invalid Application-ID or API key/);
  });

  it('missing credentials are 403, and nothing is written', async () => {
    expectError(await send('GET', '/1/indexes/auth_idx/o', undefined, {}), 403);
    expectError(await send('PUT', '/1/indexes/auth_idx/intruder', { v: 1 }, {}), 403);
    await settled();
    expectError(await getObject('auth_idx', 'intruder'), 404);
  });
});

describe('errors', () => {
  it('an unknown route is 404', async () => {
    expectError(await send('GET', '/1/nothing/here'), 404);
    expectError(await send('POST', '/2/indexes/x/query', {}), 404);
    expectError(await send('GET', '/1/indexes/a/b/c/d/e'), 404);
  });

  it('a known path with a wrong method is a 4xx JSON error', async () => {
    const response = await send('PATCH', '/1/indexes/x/settings', {});
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expectError(response, response.status);
  });

  it('invalid JSON is 400 (add, add/update, partial, batch, settings, search)', async () => {
    const bad = '{"title": ';
    expectError(await send('POST', '/1/indexes/err_idx', bad), 400);
    expectError(await send('PUT', '/1/indexes/err_idx/o', bad), 400);
    expectError(await send('POST', '/1/indexes/err_idx/o/partial', bad), 400);
    expectError(await send('POST', '/1/indexes/err_idx/batch', bad), 400);
    expectError(await send('PUT', '/1/indexes/err_idx/settings', bad), 400);
    expectError(await send('POST', '/1/indexes/*/queries', bad), 400);
  });

  it('a record that is not a JSON object is 400', async () => {
    expectError(await send('POST', '/1/indexes/err_idx', [1, 2]), 400);
    expectError(await send('PUT', '/1/indexes/err_idx/o', '"text"'), 400);
    expectError(await send('POST', '/1/indexes/err_idx', 'null'), 400);
  });

  it('an invalid index name is 400 (add, add/update, partial, clear, batch)', async () => {
    const names = [encodeURIComponent('bad\u0001name'), 'x'.repeat(600)];
    for (const name of names) {
      expectError(await send('POST', `/1/indexes/${name}`, { v: 1 }), 400);
      expectError(await send('PUT', `/1/indexes/${name}/o`, { v: 1 }), 400);
      expectError(await send('POST', `/1/indexes/${name}/o/partial`, { v: 1 }), 400);
      expectError(await send('POST', `/1/indexes/${name}/clear`), 400);
      expectError(await send('POST', `/1/indexes/${name}/batch`, { requests: [] }), 400);
    }
  });

  it('a missing index is 404 (get object, search, settings)', async () => {
    expectError(await send('GET', '/1/indexes/no_such_index/o'), 404, /does not exist/);
    expectError(await send('POST', '/1/indexes/no_such_index/query', { query: '' }), 404, /does not exist/);
    expectError(await send('GET', '/1/indexes/no_such_index?query=x'), 404, /does not exist/);
    expectError(await send('GET', '/1/indexes/no_such_index/settings'), 404, /does not exist/);
    expectError(await send('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'no_such_index' }] }), 404);
  });

  it('a missing object is 404', async () => {
    await put('err_obj', { objectID: 'here' });
    await settled();
    expectError(await getObject('err_obj', 'not-here'), 404, /ObjectID does not exist/);
  });

  it('settings that cannot be applied are 400 and are not stored', async () => {
    await put('err_settings', { objectID: 'o', n: 1 });
    await settled();
    const bad = [
      { customRanking: ['bogus'] },
      { customRanking: ['desc(n)', 'sideways(n)'] },
      { ranking: ['typo', 'nonsense'] },
      { ranking: Array.from({ length: 8 }, (_, i) => `asc(a${i})`) },
      { hitsPerPage: 'twenty' },
    ];
    const error = console.error;
    console.error = () => {};
    try {
      for (const settings of bad) expectError(await send('PUT', '/1/indexes/err_settings/settings', settings), 400);
      await settled();
    } finally {
      console.error = error;
    }
    const stored = (await send('GET', '/1/indexes/err_settings/settings')).body;
    expect(stored.customRanking ?? null).toBeNull();
    expect(stored.hitsPerPage).toBe(20);
    expect((await send('POST', '/1/indexes/err_settings/query', { query: '' })).body.nbHits).toBe(1);
  });

  it('a malformed percent-encoding is 400', async () => {
    expectError(await send('GET', '/1/indexes/err_obj/%E0%A4%A'), 400);
  });
});
