// The dictionaries API through the official v5 client (answered in-process by
// lanternRequester) and engine.request: batches (add, delete, clear) with a
// task waitForAppTask waits on, searching entries (standard and custom,
// pages, languages), settings, languages, rights, and invalid bodies.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SupportedLanguage } from 'algoliasearch';
import type { Lantern } from '../../src/lantern.js';
import { expectError, openWithClient, type OfficialClient, type Send } from '../api/helpers.js';

let engine: Lantern;
let client: OfficialClient;
let send: Send;

beforeEach(async () => {
  ({ engine, client, send } = await openWithClient());
});
afterEach(async () => { await engine.close(); });

/** Every entry of a dictionary (the official client refuses an empty query: engine.request sends one). */
async function list(dictionary: string, params: Record<string, unknown> = {}): Promise<{ hits: any[]; nbHits: number; page: number; nbPages: number }> {
  const response = await send('POST', `/1/dictionaries/${dictionary}/search`, { query: '', ...params });
  expect(response.status).toBe(200);
  return response.body;
}

const stopword = (objectID: string, word: string, language: SupportedLanguage = 'en', state: 'enabled' | 'disabled' = 'enabled') =>
  ({ objectID, language, word, state });

describe('batchDictionaryEntries', () => {
  it('adds entries and answers a task that waitForAppTask sees published', async () => {
    const response = await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: stopword('s1', 'lantern') }] },
    });
    expect(response).toEqual({ taskID: expect.any(Number), updatedAt: expect.any(String) });
    expect(new Date(response.updatedAt).toISOString()).toBe(response.updatedAt);
    const task = await client.waitForAppTask({ taskID: response.taskID });
    expect(task.status).toBe('published');
    const found = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'lantern' } });
    expect(found).toEqual({
      hits: [{ objectID: 's1', language: 'en', word: 'lantern', state: 'enabled', type: 'custom' }], page: 0, nbHits: 1, nbPages: 1,
    });
  });

  it('replaces an entry of the same objectID, deletes by objectID, keeps fields of its own', async () => {
    await client.batchDictionaryEntries({
      dictionaryName: 'plurals',
      batchDictionaryEntriesParams: {
        requests: [
          { action: 'addEntry', body: { objectID: 'p1', language: 'fr', words: ['cheval', 'chevals'] } },
          { action: 'addEntry', body: { objectID: 'p2', language: 'fr', words: ['oeil', 'yeux'], note: 'irregular' } },
        ],
      },
    });
    await client.batchDictionaryEntries({
      dictionaryName: 'plurals',
      batchDictionaryEntriesParams: {
        requests: [
          { action: 'addEntry', body: { objectID: 'p1', language: 'fr', words: ['cheval', 'chevaux'] } },
          { action: 'deleteEntry', body: { objectID: 'p2' } },
        ],
      },
    });
    const { hits } = await list('plurals', { language: 'fr' });
    expect(hits).toEqual([{ objectID: 'p1', language: 'fr', words: ['cheval', 'chevaux'], state: 'enabled', type: 'custom' }]);
    await client.batchDictionaryEntries({
      dictionaryName: 'plurals',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'p3', language: 'fr', words: ['oeil', 'yeux'], note: 'irregular' } }] },
    });
    const again = await client.searchDictionaryEntries({ dictionaryName: 'plurals', searchDictionaryEntriesParams: { query: 'yeux' } });
    expect(again.hits).toEqual([{ objectID: 'p3', language: 'fr', words: ['oeil', 'yeux'], note: 'irregular', state: 'enabled', type: 'custom' }]);
  });

  it('clearExistingDictionaryEntries replaces every custom entry of that dictionary only', async () => {
    await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: stopword('a', 'alpha') }, { action: 'addEntry', body: stopword('b', 'beta') }] },
    });
    await client.batchDictionaryEntries({
      dictionaryName: 'compounds',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'c', language: 'de', word: 'kopfschmerz', decomposition: ['kopf', 'schmerz'] } }] },
    });
    await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { clearExistingDictionaryEntries: true, requests: [{ action: 'addEntry', body: stopword('g', 'gamma') }] },
    });
    const custom = await list('stopwords', { language: 'en', hitsPerPage: 1000 });
    expect(custom.hits.filter((h) => h.type === 'custom').map((h) => h.objectID)).toEqual(['g']);
    const compounds = await list('compounds');
    expect(compounds.hits.map((h) => h.objectID)).toEqual(['c']);
    // a clear with no requests empties it
    await client.batchDictionaryEntries({ dictionaryName: 'compounds', batchDictionaryEntriesParams: { clearExistingDictionaryEntries: true, requests: [] } });
    expect((await list('compounds')).nbHits).toBe(0);
  });

  it('answers with the taskID getAppTask reports published (engine.request)', async () => {
    const response = await send('POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: stopword('x', 'xyz') }] });
    expect(response.status).toBe(200);
    const task = await send('GET', `/1/task/${response.body.taskID}`);
    expect(task).toEqual({ status: 200, body: { status: 'published' } });
  });
});

describe('searchDictionaryEntries', () => {
  it('includes the standard entries, custom ones first, and filters by language', async () => {
    await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: stopword('fr-le', 'le', 'fr') }, { action: 'addEntry', body: stopword('en-th', 'thee') }] },
    });
    const the = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'the' } });
    expect(the.hits[0]).toEqual({ objectID: 'en-th', language: 'en', word: 'thee', state: 'enabled', type: 'custom' });
    expect(the.hits).toContainEqual({ objectID: 'standard-en-the', language: 'en', word: 'the', state: 'enabled', type: 'standard' });
    expect(the.hits.every((h) => (h.word as string).startsWith('the'))).toBe(true);
    const french = await list('stopwords', { language: 'fr' });
    expect(french).toEqual({ hits: [{ objectID: 'fr-le', language: 'fr', word: 'le', state: 'enabled', type: 'custom' }], page: 0, nbHits: 1, nbPages: 1 });
    const plurals = await client.searchDictionaryEntries({ dictionaryName: 'plurals', searchDictionaryEntriesParams: { query: 'mice' } });
    expect(plurals.hits).toEqual([{ objectID: 'standard-en-mouse', language: 'en', words: ['mouse', 'mice'], type: 'standard' }]);
  });

  it('pages with page and hitsPerPage', async () => {
    const requests = Array.from({ length: 25 }, (_, i) => ({ action: 'addEntry' as const, body: stopword(`w${i}`, `zzword${String(i).padStart(2, '0')}`) }));
    await client.batchDictionaryEntries({ dictionaryName: 'stopwords', batchDictionaryEntriesParams: { requests } });
    const first = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'zzword', hitsPerPage: 10 } });
    expect(first.nbHits).toBe(25);
    expect(first.nbPages).toBe(3);
    expect(first.hits.map((h) => h.objectID)).toEqual(Array.from({ length: 10 }, (_, i) => `w${i}`));
    const last = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'zzword', hitsPerPage: 10, page: 2 } });
    expect(last).toMatchObject({ page: 2, nbHits: 25, nbPages: 3 });
    expect(last.hits.map((h) => h.objectID)).toEqual(['w20', 'w21', 'w22', 'w23', 'w24']);
    const beyond = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'zzword', hitsPerPage: 10, page: 5 } });
    expect(beyond.hits).toEqual([]);
    // the default page size is 20
    expect((await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'zzword' } })).hits).toHaveLength(20);
  });
});

describe('settings and languages', () => {
  it('setDictionarySettings turns standard entries off per language; getDictionarySettings reads them back', async () => {
    expect(await client.getDictionarySettings()).toEqual({ disableStandardEntries: { stopwords: null, plurals: null, compounds: null } });
    const response = await client.setDictionarySettings({ disableStandardEntries: { stopwords: { en: true }, plurals: { fr: false } } });
    expect(response).toEqual({ taskID: expect.any(Number), updatedAt: expect.any(String) });
    expect((await client.waitForAppTask({ taskID: response.taskID })).status).toBe('published');
    expect(await client.getDictionarySettings()).toEqual({ disableStandardEntries: { stopwords: { en: true }, plurals: { fr: false }, compounds: null } });
    // the standard stop words are no longer listed
    const found = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'the' } });
    expect(found.hits.filter((h) => h.type === 'standard')).toEqual([]);
    // a dictionary left out keeps its setting, null resets one
    await client.setDictionarySettings({ disableStandardEntries: { plurals: null } });
    expect(await client.getDictionarySettings()).toEqual({ disableStandardEntries: { stopwords: { en: true }, plurals: null, compounds: null } });
  });

  it('getDictionaryLanguages counts the custom entries per language and dictionary', async () => {
    await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: stopword('a', 'alpha') }, { action: 'addEntry', body: stopword('b', 'le', 'fr') }] },
    });
    await client.batchDictionaryEntries({
      dictionaryName: 'compounds',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'c', language: 'de', word: 'kopfschmerz', decomposition: ['kopf', 'schmerz'] } }] },
    });
    const languages = await client.getDictionaryLanguages();
    expect(languages.en).toEqual({ plurals: { nbCustomEntries: 0 }, stopwords: { nbCustomEntries: 1 }, compounds: { nbCustomEntries: 0 } });
    expect(languages.fr.stopwords).toEqual({ nbCustomEntries: 1 });
    expect(languages.de.compounds).toEqual({ nbCustomEntries: 1 });
    expect(Object.keys(languages)).toContain('pt-br');
  });
});

describe('the typed client (engine.client())', () => {
  it('has the dictionaries operations, typed by the official client', async () => {
    const typed = engine.client();
    const { taskID } = await typed.batchDictionaryEntries({
      dictionaryName: 'compounds',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'c', language: 'nl', word: 'fietspad', decomposition: ['fiets', 'pad'] } }] },
    });
    expect((await typed.getAppTask({ taskID })).status).toBe('published');
    const found = await typed.searchDictionaryEntries({ dictionaryName: 'compounds', searchDictionaryEntriesParams: { query: 'fiets', language: 'nl' } });
    expect(found.hits.map((h) => h.objectID)).toEqual(['c']);
    await typed.setDictionarySettings({ disableStandardEntries: { compounds: { nl: true } } });
    expect((await typed.getDictionarySettings()).disableStandardEntries.compounds).toEqual({ nl: true });
    expect((await typed.getDictionaryLanguages()).nl.compounds).toEqual({ nbCustomEntries: 1 });
  });
});

describe('rights', () => {
  it('reads need settings, writes editSettings (the spec\'s x-acl)', async () => {
    const { body: reader } = await send('POST', '/1/keys', { acl: ['settings'] });
    const { body: writer } = await send('POST', '/1/keys', { acl: ['editSettings'] });
    const as = (key: string) => ({ 'x-algolia-application-id': 'TESTAPP', 'x-algolia-api-key': key });
    expect((await send('GET', '/1/dictionaries/*/settings', undefined, as(reader.key))).status).toBe(200);
    expect((await send('GET', '/1/dictionaries/*/languages', undefined, as(reader.key))).status).toBe(200);
    expect((await send('POST', '/1/dictionaries/stopwords/search', { query: '' }, as(reader.key))).status).toBe(200);
    expectError(await send('POST', '/1/dictionaries/stopwords/batch', { requests: [] }, as(reader.key)), 403);
    expectError(await send('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: {} }, as(reader.key)), 403);
    expect((await send('POST', '/1/dictionaries/stopwords/batch', { requests: [] }, as(writer.key))).status).toBe(200);
    expectError(await send('GET', '/1/dictionaries/*/settings', undefined, as(writer.key)), 403);
  });
});

describe('invalid bodies', () => {
  const cases: Array<[string, string, string, unknown, number, RegExp]> = [
    ['an unknown dictionary', 'POST', '/1/dictionaries/synonyms/batch', { requests: [] }, 404, /Dictionary "synonyms" does not exist/],
    ['no requests', 'POST', '/1/dictionaries/stopwords/batch', {}, 400, /requests/],
    ['an unknown field', 'POST', '/1/dictionaries/stopwords/batch', { requests: [], replace: true }, 400, /unknown field "replace"/],
    ['a clear that is not a boolean', 'POST', '/1/dictionaries/stopwords/batch', { requests: [], clearExistingDictionaryEntries: 'yes' }, 400, /clearExistingDictionaryEntries/],
    ['an unknown action', 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'upsert', body: { objectID: 'a' } }] }, 400, /requests\[0\]\.action/],
    ['an entry without objectID', 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { language: 'en', word: 'x' } }] }, 400, /requests\[0\]\.body\.objectID/],
    ['an entry without language', 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', word: 'x' } }] }, 400, /\.language/],
    ['an unsupported language', 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'xx', word: 'x' } }] }, 400, /supported language/],
    ['a stop word that is not a string', 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en', word: 5 } }] }, 400, /\.word/],
    ['a bad state', 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { ...stopword('a', 'x'), state: 'off' } }] }, 400, /\.state/],
    ['a standard entry added', 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { ...stopword('a', 'x'), type: 'standard' } }] }, 400, /\.type/],
    ['a plural of one word', 'POST', '/1/dictionaries/plurals/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en', words: ['x'] } }] }, 400, /\.words/],
    ['a plural with a word that is not a string', 'POST', '/1/dictionaries/plurals/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en', word: ['x'], words: ['x', 'xs'] } }] }, 400, /\.word/],
    ['a plural without words', 'POST', '/1/dictionaries/plurals/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en', word: 'x' } }] }, 400, /\.words/],
    ['a compound without decomposition', 'POST', '/1/dictionaries/compounds/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'de', word: 'x' } }] }, 400, /\.decomposition/],
    ['a compound part not a string', 'POST', '/1/dictionaries/compounds/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'de', word: 'x', decomposition: ['a', 3] } }] }, 400, /decomposition\[1\]/],
    ['a delete without objectID', 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'deleteEntry', body: {} }] }, 400, /objectID/],
    ['a search without query', 'POST', '/1/dictionaries/stopwords/search', { page: 0 }, 400, /query/],
    ['a search with a bad page size', 'POST', '/1/dictionaries/stopwords/search', { query: '', hitsPerPage: 0 }, 400, /hitsPerPage/],
    ['a search in a bad language', 'POST', '/1/dictionaries/stopwords/search', { query: '', language: 'english' }, 400, /language/],
    ['settings without disableStandardEntries', 'PUT', '/1/dictionaries/*/settings', {}, 400, /disableStandardEntries/],
    ['settings of an unknown dictionary', 'PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { synonyms: {} } }, 400, /unknown field "synonyms"/],
    ['settings with a non-boolean', 'PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: { en: 'yes' } } }, 400, /stopwords\.en/],
    ['settings with a bad language', 'PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: { english: true } } }, 400, /supported language/],
  ];
  it.each(cases)('refuses %s', async (_name, method, path, body, status, message) => {
    expectError(await send(method, path, body), status, message);
  });

  it('a refused batch changes nothing (checked whole before it is logged)', async () => {
    const response = await send('POST', '/1/dictionaries/stopwords/batch', {
      clearExistingDictionaryEntries: true,
      requests: [{ action: 'addEntry', body: stopword('ok', 'fine') }, { action: 'addEntry', body: { objectID: 'bad', language: 'en', word: '' } }],
    });
    expectError(response, 400);
    const found = await send('POST', '/1/dictionaries/stopwords/search', { query: 'fine' });
    expect(found.body.nbHits).toBe(0);
  });

  it('the official client rejects an invalid entry with the message', async () => {
    await expect(client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en', word: ' ' } }] },
    })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/word/) });
  });
});

describe('entries as the spec types them (only objectID required)', () => {
  async function add(dictionary: 'stopwords' | 'plurals', body: Record<string, unknown>): Promise<void> {
    const response = await send('POST', `/1/dictionaries/${dictionary}/batch`, { requests: [{ action: 'addEntry', body }] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }

  it('a stop word without a word is kept; disabled, it turns off the standard entry its objectID names', async () => {
    await add('stopwords', { objectID: 'standard-en-the', language: 'en', state: 'disabled' });
    await add('stopwords', { objectID: 'placeholder', language: 'en' });
    const found = await list('stopwords', { query: 'placeholder' });
    expect(found.hits).toEqual([{ objectID: 'placeholder', language: 'en', state: 'enabled', type: 'custom' }]);
    await client.saveObjects({ indexName: 'docs', objects: [{ objectID: 'g', title: 'guide' }], waitForTasks: true });
    const search = (query: string) => client.searchSingleIndex({ indexName: 'docs', searchParams: { query, removeStopWords: true } });
    expect((await search('the guide')).nbHits).toBe(0); // "the" is no stop word any more: it must match
    expect((await search('a guide')).nbHits).toBe(1); // other standard stop words still are
  });

  it('a plural with a word keeps it and is found by it', async () => {
    await add('plurals', { objectID: 'horse', language: 'fr', word: 'cheval', words: ['cheval', 'chevaux'] });
    const found = await list('plurals', { query: 'cheval', language: 'fr' });
    expect(found.hits).toEqual([{ objectID: 'horse', language: 'fr', word: 'cheval', words: ['cheval', 'chevaux'], state: 'enabled', type: 'custom' }]);
  });
});

describe('searchDictionaryEntries', () => {
  it('matches an entry by its objectID (custom and standard), from its beginning', async () => {
    await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: stopword('shop-words-1', 'lantern') }] },
    });
    expect((await list('stopwords', { query: 'shop-words' })).hits.map((h) => h.objectID)).toEqual(['shop-words-1']);
    const standard = (await list('stopwords', { query: 'standard-en-the' })).hits.map((h) => h.objectID);
    expect(standard).toContain('standard-en-the');
    expect(standard.every((id) => id.startsWith('standard-en-the'))).toBe(true);
    expect((await list('stopwords', { query: 'words-1' })).nbHits).toBe(0);
  });
});
