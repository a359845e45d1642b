// Writes a snapshot could not hold exactly are refused when they arrive (400,
// the record named by objectID or by its place in the batch), in memory and
// on disk alike, and nothing of them is logged or applied: before, a record
// nested 101 levels was acknowledged and then failed every snapshot, and
// 1e309 (Infinity once parsed) came back as null. What is at the limits is
// accepted and survives a snapshot and a restart.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { MAX_NESTING } from '../../src/index/storable.js';
import { caller, cleanup, closeEngine, Lantern, logRecords, openAt, tempDir, type Call } from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

/** JSON text of `levels` levels of objects and arrays around "leaf" (a record is the outermost level). */
function nestedText(levels: number): string {
  let text = '"leaf"';
  for (let i = 1; i < levels; i++) text = i % 2 === 0 ? `{"a":${text}}` : `[${text}]`;
  return `{"objectID":"deep","v":${text}}`;
}

/** Each write the way an HTTP body brings it: JSON text (1e309 parses as Infinity, "\ud800" as a lone surrogate). */
const REFUSED: Array<{ method: string; path: string; body: string; message: string }> = [
  {
    method: 'POST', path: '/1/indexes/w/batch',
    body: '{"requests":[{"action":"addObject","body":{"objectID":"fine"}},{"action":"addObject","body":{"n":1e309}}]}',
    message: 'The record at requests[1] cannot be stored: attribute "n" is Infinity: only finite numbers can be stored',
  },
  {
    method: 'POST', path: '/1/indexes/*/batch',
    body: '{"requests":[{"indexName":"w","action":"addObject","body":{"objectID":"fine"}},{"indexName":"v","action":"updateObject","body":{"objectID":"neg","n":[-1e309]}}]}',
    message: 'Record "neg" cannot be stored: attribute "n[0]" is -Infinity: only finite numbers can be stored',
  },
  {
    method: 'PUT', path: '/1/indexes/w/deep', body: nestedText(MAX_NESTING + 1),
    message: `Record "deep" cannot be stored: attribute "v.a[0].a[0].a`,
  },
  {
    method: 'POST', path: '/1/indexes/w', body: '{"title":"a \\ud800 b"}',
    message: 'The record cannot be stored: attribute "title" holds a lone surrogate (U+D800), which is not Unicode text',
  },
  {
    // read in steps (200 items each, searches answered between): the refusal still comes before anything is logged
    method: 'POST', path: '/1/indexes/w/batch',
    body: `{"requests":[${Array.from({ length: 500 }, (_, i) => `{"action":"addObject","body":{"objectID":"s${i}","n":${i === 450 ? '1e309' : i}}}`).join(',')}]}`,
    message: 'Record "s450" cannot be stored: attribute "n" is Infinity: only finite numbers can be stored',
  },
  {
    // an objectID given beside the record's attributes is checked with them
    method: 'POST', path: '/1/indexes/w/batch', body: '{"requests":[{"action":"updateObject","objectID":"\\ud800","body":{"t":"x"}}]}',
    message: 'Record "\\ud800" cannot be stored: attribute "objectID" holds a lone surrogate (U+D800), which is not Unicode text',
  },
  {
    method: 'POST', path: '/1/indexes/w/batch', body: '{"requests":[{"action":"partialUpdateObject","objectID":"p","body":{"n":{"_operation":"Increment","value":1e309}}}]}',
    message: 'Record "p" cannot be stored: attribute "n.value" is Infinity: only finite numbers can be stored',
  },
  {
    // the check counts from the operation, whose wrapping is deepest around records: settings get two levels more
    method: 'PUT', path: '/1/indexes/w/settings', body: `{"userData":${nestedText(MAX_NESTING + 2)}}`,
    message: 'The write cannot be stored: "settings.userData.v[0].a[0].a',
  },
  {
    method: 'PUT', path: '/1/indexes/w/rules/r', body: '{"objectID":"r","consequence":{"userData":{"n":1e309}}}',
    message: 'The write cannot be stored: "save[0].consequence.userData.n" is Infinity: only finite numbers can be stored',
  },
  {
    method: 'PUT', path: '/1/indexes/w/synonyms/s', body: '{"objectID":"s","type":"synonym","synonyms":["a","\\udc00"]}',
    message: 'The write cannot be stored: "save[0].synonyms[1]" holds a lone surrogate (U+DC00), which is not Unicode text',
  },
];

/** Sends every REFUSED write to an engine whose index "w" exists (rules and synonyms need one). */
async function expectRefused(call: Call): Promise<void> {
  for (const { method, path, body, message } of REFUSED) {
    const r = await call(method, path, body);
    expect([r.status, String(r.body.message).slice(0, message.length)], body.slice(0, 80)).toEqual([400, message]);
  }
}

async function withIndex(engine: Lantern): Promise<Call> {
  const call = caller(engine);
  await call('PUT', '/1/indexes/w/kept', { title: 'kept' });
  await engine.waitForTasks();
  return call;
}

describe('writes a snapshot could not hold', () => {
  it('are refused with 400, saying which record and what, in memory and on disk; nothing is logged, snapshots keep working', async () => {
    const inMemory = await Lantern.open({});
    try {
      await expectRefused(await withIndex(inMemory));
    } finally {
      await inMemory.close();
    }

    const dir = tempDir();
    const engine = await openAt(dir);
    const call = await withIndex(engine);
    const logged = logRecords(dir).length;
    await expectRefused(call);
    await engine.waitForTasks();
    expect(logRecords(dir).length).toBe(logged);
    expect((await call('GET', '/1/indexes/w/fine')).status).toBe(404);
    await engine.snapshot();
    await closeEngine(engine);
    const reopened = caller(await openAt(dir));
    expect((await reopened('GET', '/1/indexes/w/kept')).body).toEqual({ objectID: 'kept', title: 'kept' });
  });

  it(`what is at the limits (${MAX_NESTING} levels, numbers at the edges, surrogate pairs) is accepted and survives a snapshot and a restart`, async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = await withIndex(engine);
    const records = [
      nestedText(MAX_NESTING),
      '{"objectID":"numbers","n":[-0,0,1.7976931348623157e308,-1.7976931348623157e308,5e-324,1e-320,9007199254740993,0.30000000000000004,1e-400]}',
      '{"objectID":"text","s":"\\ud83d\\ude00 \\u0000 \\u001f \\uffff 𠀀"}',
    ];
    for (const body of records) expect((await call('PUT', `/1/indexes/w/${JSON.parse(body).objectID}`, body)).status).toBe(200);
    const userData = nestedText(MAX_NESTING - 2); // the rule is 2 levels more: 64
    expect((await call('PUT', '/1/indexes/w/rules/r', `{"objectID":"r","consequence":{"userData":${userData}}}`)).status).toBe(200);
    await engine.waitForTasks();
    await engine.snapshot();
    await closeEngine(engine);
    const reopened = caller(await openAt(dir));
    const asJson = (text: string) => JSON.stringify(JSON.parse(text));
    for (const body of records) {
      expect(JSON.stringify((await reopened('GET', `/1/indexes/w/${JSON.parse(body).objectID}`)).body)).toBe(asJson(body));
    }
    expect(JSON.stringify((await reopened('GET', '/1/indexes/w/rules/r')).body.consequence.userData)).toBe(asJson(userData));
  });

  it('an Increment that would overflow to Infinity leaves the number as it was, before and after a restart', async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = caller(engine);
    await call('PUT', '/1/indexes/w/big', { n: Number.MAX_VALUE, m: -Number.MAX_VALUE });
    const overflow = { n: { _operation: 'Increment', value: Number.MAX_VALUE }, m: { _operation: 'Decrement', value: Number.MAX_VALUE } };
    expect((await call('POST', '/1/indexes/w/big/partial', overflow)).status).toBe(200);
    await engine.waitForTasks();
    const expected = { objectID: 'big', n: Number.MAX_VALUE, m: -Number.MAX_VALUE };
    expect((await call('GET', '/1/indexes/w/big')).body).toEqual(expected);
    await closeEngine(engine); // the partial update is replayed from the log
    const reopened = await openAt(dir);
    expect((await caller(reopened)('GET', '/1/indexes/w/big')).body).toEqual(expected);
    await reopened.snapshot();
  });

  it('an in-process record that is not JSON is refused as JSON refuses it, in memory and on disk, wherever it is in a batch', async () => {
    const cyclic: Record<string, unknown> = { objectID: 'cycle' };
    cyclic.self = { back: cyclic };
    const many = (bad: object) => Array.from({ length: 300 }, (_, i) => ({ action: 'addObject', body: i === 250 ? bad : { objectID: `m${i}`, i } }));
    const cases: Array<[unknown[], string]> = [
      [[{ action: 'addObject', body: cyclic }], 'Invalid JSON: the request body cannot be written as JSON (Converting circular structure to JSON)'],
      [many({ objectID: 'big', n: 1n }), 'Invalid JSON: the request body cannot be written as JSON (Do not know how to serialize a BigInt)'],
      // not JSON, and not storable either: JSON's refusal
      [[{ action: 'addObject', body: { objectID: 'both', t: 'a\ud800', n: [1n] } }], 'Invalid JSON: the request body cannot be written as JSON (Do not know how to serialize a BigInt)'],
      // the body is read as JSON when the call is made (as a client writes it), before any item is checked
      [[{ action: 'addObject', body: { n: 1n } }, { action: 'bogus' }], 'Invalid JSON: the request body cannot be written as JSON (Do not know how to serialize a BigInt)'],
      [[{ action: 'partialUpdateObject', objectID: 'p', body: { n: { _operation: 'Add', value: 2n } } }], 'Invalid JSON: the request body cannot be written as JSON (Do not know how to serialize a BigInt)'],
    ];
    for (const engine of [await Lantern.open({}), await openAt(tempDir())]) {
      const call = await withIndex(engine);
      for (const [requests, message] of cases) {
        const r = await call('POST', '/1/indexes/w/batch', { requests });
        expect([r.status, String(r.body.message).slice(0, message.length)]).toEqual([400, message]);
      }
      // a toJSON (a Date's) is accepted: JSON holds what it gives
      expect((await call('PUT', '/1/indexes/w/dated', { at: new Date(0) })).status).toBe(200);
      await engine.waitForTasks();
      expect(JSON.stringify((await call('GET', '/1/indexes/w/dated')).body)).toBe('{"at":"1970-01-01T00:00:00.000Z","objectID":"dated"}');
      expect((await call('GET', '/1/indexes/w/m0')).status).toBe(404);
      await closeEngine(engine);
    }
  });
});
