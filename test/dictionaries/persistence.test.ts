// Dictionaries survive restarts on fsStorage: from the log (replayed through
// the section's apply), from a snapshot (its part, byte for byte), from a
// snapshot with writes after it, and they keep changing searches after.
import { afterEach, describe, expect, it } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { lanternRequester } from '../../src/requester.js';
import { DictionariesState } from '../../src/dictionaries/state.js';
import { encode } from '@msgpack/msgpack';
import { cleanup, closeEngine, openAt, snapshotFiles, tempDir, type Lantern } from '../persistence/helpers.js';

afterEach(cleanup);

const APP = 'APP';
const KEY = 'ADMIN';
const clientOf = (engine: Lantern) => algoliasearch(APP, KEY, { requester: lanternRequester(engine) });
const open = (dir: string) => openAt(dir, { appId: APP, adminKey: KEY, snapshotEvery: 0 });

/** Writes entries in every dictionary, settings, and a record to search. */
async function customise(engine: Lantern): Promise<void> {
  const client = clientOf(engine);
  await client.saveObjects({ indexName: 'docs', objects: [{ objectID: 'g', title: 'guide' }, { objectID: 'k', title: 'kopf schmerz' }], waitForTasks: true });
  await client.batchDictionaryEntries({
    dictionaryName: 'stopwords',
    batchDictionaryEntriesParams: {
      requests: [
        { action: 'addEntry', body: { objectID: 'lantern', language: 'en', word: 'lantern', note: { kept: [1, 'two', null] } } },
        { action: 'addEntry', body: { objectID: 'gone', language: 'en', word: 'gone' } },
        { action: 'addEntry', body: { objectID: 'fr-le', language: 'fr', word: 'le', state: 'disabled' } },
        // without a word (the spec requires only objectID): turns the standard "the" off
        { action: 'addEntry', body: { objectID: 'standard-en-the', language: 'en', state: 'disabled' } },
      ],
    },
  });
  await client.batchDictionaryEntries({ dictionaryName: 'stopwords', batchDictionaryEntriesParams: { requests: [{ action: 'deleteEntry', body: { objectID: 'gone' } }] } });
  await client.batchDictionaryEntries({
    dictionaryName: 'plurals', batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'p', language: 'fr', word: 'cheval', words: ['cheval', 'chevaux'] } }] },
  });
  await client.batchDictionaryEntries({
    dictionaryName: 'compounds',
    batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'c', language: 'de', word: 'kopfschmerz', decomposition: ['kopf', 'schmerz'] } }] },
  });
  await client.setDictionarySettings({ disableStandardEntries: { stopwords: { en: true, fr: false }, compounds: { de: true } } });
}

/** What the API answers about the dictionaries, and what they do to searches. */
async function fingerprint(engine: Lantern) {
  const client = clientOf(engine);
  type Found = { hits: Array<{ objectID: string; type: string }>; nbHits: number };
  const list = async (dictionary: string) => (await engine.request({
    method: 'POST', path: `/1/dictionaries/${dictionary}/search`, headers: { 'x-algolia-application-id': APP, 'x-algolia-api-key': KEY },
    body: { query: '', hitsPerPage: 1000 },
  })).body as Found;
  const search = async (query: string) => (await client.searchSingleIndex({ indexName: 'docs', searchParams: { query, removeStopWords: true, typoTolerance: false } }))
    .hits.map((h) => h.objectID);
  return {
    stopwords: await list('stopwords'),
    plurals: await list('plurals'),
    compounds: await list('compounds'),
    settings: await client.getDictionarySettings(),
    languages: await client.getDictionaryLanguages(),
    searches: [await search('lantern guide'), await search('the guide'), await search('kopfschmerz')],
  };
}

const sectionBytes = (engine: Lantern) => encode(engine.dictionaries.snapshot());

describe('dictionaries across restarts', () => {
  it('are replayed from the log', async () => {
    const dir = tempDir();
    const first = await open(dir);
    await customise(first);
    const before = await fingerprint(first);
    expect(before.searches).toEqual([['g'], [], ['k']]);
    expect(before.stopwords.hits.map((h) => h.objectID)).toEqual(['lantern', 'fr-le', 'standard-en-the']);
    const bytes = sectionBytes(first);
    await closeEngine(first);
    const second = await open(dir);
    expect(await fingerprint(second)).toEqual(before);
    expect(sectionBytes(second)).toEqual(bytes);
  });

  it('are held by a snapshot, byte for byte, and later writes replay after it', async () => {
    const dir = tempDir();
    const first = await open(dir);
    await customise(first);
    await first.snapshot();
    expect(snapshotFiles(dir)).toHaveLength(1);
    const atSnapshot = await fingerprint(first);
    const bytes = sectionBytes(first);
    await closeEngine(first);

    const second = await open(dir);
    expect(await fingerprint(second)).toEqual(atSnapshot);
    expect(sectionBytes(second)).toEqual(bytes);
    // a change after the snapshot: in the log, replayed over the snapshot's part
    const client = clientOf(second);
    await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { clearExistingDictionaryEntries: true, requests: [{ action: 'addEntry', body: { objectID: 'g', language: 'en', word: 'guide' } }] },
    });
    await client.setDictionarySettings({ disableStandardEntries: { stopwords: null } });
    const after = await fingerprint(second);
    // "lantern" is no stop word any more; "guide" is, but a query keeps its last word (prefixLast)
    expect(after.searches).toEqual([[], ['g'], ['k']]);
    expect(after.stopwords.hits.filter((h) => h.type === 'custom').map((h) => h.objectID)).toEqual(['g']);
    const afterBytes = sectionBytes(second);
    await closeEngine(second);

    const third = await open(dir);
    expect(await fingerprint(third)).toEqual(after);
    expect(sectionBytes(third)).toEqual(afterBytes);
  });

  it('an empty store opens with the standard entries and no settings', async () => {
    const engine = await open(tempDir());
    await clientOf(engine).saveObjects({ indexName: 'docs', objects: [{ objectID: 'g', title: 'guide' }], waitForTasks: true });
    const { settings, stopwords, searches } = await fingerprint(engine);
    expect(searches).toEqual([[], ['g'], []]);
    expect(settings).toEqual({ disableStandardEntries: { stopwords: null, plurals: null, compounds: null } });
    expect(stopwords.hits.length).toBeGreaterThan(100);
  });
});

describe('the section', () => {
  it('replaying an operation a snapshot already holds changes nothing (idempotent)', () => {
    const state = new DictionariesState();
    const ops = [
      { type: 'dictionaries', action: 'batch', dictionary: 'stopwords', clear: false, changes: [{ add: { objectID: 'a', language: 'en', word: 'a1' } }, { add: { objectID: 'b', language: 'en', word: 'b1' } }] },
      { type: 'dictionaries', action: 'batch', dictionary: 'stopwords', clear: false, changes: [{ delete: 'a' }, { add: { objectID: 'a', language: 'en', word: 'a2' } }] },
      { type: 'dictionaries', action: 'settings', disableStandardEntries: { stopwords: { en: true } } },
      { type: 'dictionaries', action: 'batch', dictionary: 'plurals', clear: true, changes: [{ add: { objectID: 'p', language: 'en', words: ['x', 'y'] } }] },
    ];
    for (const op of ops) state.apply(op);
    const once = encode(state.snapshot());
    for (const op of ops) state.apply(op);
    expect(encode(state.snapshot())).toEqual(once);
    const restored = new DictionariesState();
    restored.restore(state.snapshot());
    expect(encode(restored.snapshot())).toEqual(once);
    restored.reset();
    expect(restored.snapshot()).toEqual(new DictionariesState().snapshot());
    // other sections' operations are ignored
    restored.apply({ type: 'key' });
    expect(restored.snapshot()).toEqual(new DictionariesState().snapshot());
  });
});
