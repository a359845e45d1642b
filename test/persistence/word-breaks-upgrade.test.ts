// A store written before runs of Thai, Lao, Khmer and Burmese were broken
// into words (test/fixtures/stores/v2-unspaced: its snapshot's core holds
// each run as one term) opens with its index built again from its records:
// a word inside a run is found and highlighted, in the records of the
// snapshot and of the log replayed after it. The snapshot written then
// records the new text form, and opens without building anything again.
import { cpSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { cleanup, closeEngine, openAt, rewriteSnapshot, tempDir, type Lantern } from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

const OPTIONS = { adminKey: 'fixture-admin-key', appId: 'FIXTURE' };
const HEADERS = { 'x-algolia-api-key': OPTIONS.adminKey, 'x-algolia-application-id': OPTIONS.appId };

function fixtureCopy(): string {
  const dir = tempDir();
  cpSync(new URL('../fixtures/stores/v2-unspaced', import.meta.url), dir, { recursive: true });
  return dir;
}

/** The objectIDs and highlighted names `query` finds in the fixture's index. */
async function found(engine: Lantern, query: string) {
  const answer = await engine.request({ method: 'POST', path: '/1/indexes/countries/query', body: { query }, headers: HEADERS });
  expect(answer.status).toBe(200);
  return (answer.body as any).hits.map((h: any) => [h.objectID, h._highlightResult.name.value]);
}

describe('a store written before word breaks', () => {
  it('finds the words inside its runs once opened, and keeps finding them after its next snapshot', async () => {
    const dir = fixtureCopy();
    let engine = await openAt(dir, OPTIONS);
    const expected = [
      ['thai', 'สหราช<em>อาณาจักร</em>บริเตนใหญ่'],
      ['thai-2', 'ราช<em>อาณาจักร</em>ไทย'], // from the log
    ];
    expect(await found(engine, 'อาณาจักร')).toEqual(expect.arrayContaining(expected));
    expect((await found(engine, 'อาณาจักร')).length).toBe(2);
    // and the dictionary words inside the runs' words: จักร inside อาณาจักร
    expect((await found(engine, 'จักร')).map(([id]: [string]) => id).sort()).toEqual(['thai', 'thai-2']);
    expect(await found(engine, 'ປະຊາຊົນ')).toEqual([['lao', 'ສາທາລະນະລັດປະຊາທິປະໄຕ<em>ປະຊາຊົນ</em>ລາວ']]);
    expect(await found(engine, 'កម្ពុជា')).toEqual([['khmer', 'ព្រះរាជាណាចក្រ<em>កម្ពុជា</em>']]);
    expect(await found(engine, 'သမ္မတ')).toEqual([['burmese', 'ပြည်ထောင်စု<em>သမ္မတ</em>မြန်မာနိုင်ငံတော်']]);
    expect(await found(engine, 'kingdom')).toEqual([['english', 'United <em>Kingdom</em> of Great Britain']]);

    await engine.snapshot();
    await closeEngine(engine);
    engine = await openAt(dir, OPTIONS);
    expect((await found(engine, 'อาณาจักร')).length).toBe(2);
    expect(await found(engine, 'သမ္မတ')).toEqual([['burmese', 'ပြည်ထောင်စု<em>သမ္မတ</em>မြန်မာနိုင်ငံတော်']]);
    await closeEngine(engine);
  });

  it('records the text form in the snapshots it writes', async () => {
    const dir = fixtureCopy();
    const engine = await openAt(dir, OPTIONS);
    await engine.snapshot();
    await closeEngine(engine);
    let form: unknown;
    await rewriteSnapshot(dir, (state) => { form = state.indexes[0].textForm; });
    expect(form).toBe(2);
  });
});
