// What the dictionaries change in searches, on every index: custom stop words
// (removeStopWords), custom plurals (ignorePlurals), compounds (a compound
// query word matches its parts), standard entries turned off, and the
// languages a search applies them in (queryLanguages).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { openWithClient, type OfficialClient } from '../api/helpers.js';

let engine: Lantern;
let client: OfficialClient;

const RECORDS = [
  { objectID: 'guide', title: 'guide' },
  { objectID: 'lantern-guide', title: 'lantern guide' },
  { objectID: 'horse', title: 'un cheval blanc' },
  { objectID: 'pills', title: 'kopf schmerz tablette' },
  { objectID: 'talks', title: 'great talks' },
];

beforeEach(async () => {
  ({ engine, client } = await openWithClient());
  for (const indexName of ['books', 'films']) {
    await client.setSettings({ indexName, indexSettings: { searchableAttributes: ['title'] } });
    await client.saveObjects({ indexName, objects: RECORDS, waitForTasks: true });
  }
});
afterEach(async () => { await engine.close(); });

async function ids(query: string, params: Record<string, unknown> = {}, indexName = 'books'): Promise<string[]> {
  const { hits } = await client.searchSingleIndex({ indexName, searchParams: { query, ...params } });
  return hits.map((h) => h.objectID).sort();
}

async function add(dictionaryName: 'stopwords' | 'plurals' | 'compounds', body: Record<string, unknown>): Promise<void> {
  const { taskID } = await client.batchDictionaryEntries({
    dictionaryName, batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: body as never }] },
  });
  await client.waitForAppTask({ taskID });
}

describe('stop words', () => {
  it('a custom stop word makes a query match records without that word (every index)', async () => {
    expect(await ids('lantern guide', { removeStopWords: true })).toEqual(['lantern-guide']);
    await add('stopwords', { objectID: 'lantern', language: 'en', word: 'lantern' });
    expect(await ids('lantern guide', { removeStopWords: true })).toEqual(['guide', 'lantern-guide']);
    expect(await ids('lantern guide', { removeStopWords: ['en'] }, 'films')).toEqual(['guide', 'lantern-guide']);
    // only where removeStopWords asks for it, in the entry's language
    expect(await ids('lantern guide')).toEqual(['lantern-guide']);
    expect(await ids('lantern guide', { removeStopWords: ['fr'] })).toEqual(['lantern-guide']);
    // removeStopWords: true applies the queryLanguages' stop words when there are some
    expect(await ids('lantern guide', { removeStopWords: true, queryLanguages: ['fr'] })).toEqual(['lantern-guide']);
  });

  it('a custom stop word of another language applies in that language', async () => {
    await add('stopwords', { objectID: 'fr-lantern', language: 'fr', word: 'Lantern' });
    expect(await ids('lantern guide', { removeStopWords: ['fr'] })).toEqual(['guide', 'lantern-guide']);
    expect(await ids('lantern guide', { removeStopWords: ['en'] })).toEqual(['lantern-guide']);
  });

  it('disableStandardEntries turns a standard stop word off; a disabled custom entry removes one', async () => {
    expect(await ids('the guide', { removeStopWords: true })).toEqual(['guide', 'lantern-guide']);
    const { taskID } = await client.setDictionarySettings({ disableStandardEntries: { stopwords: { en: true } } });
    await client.waitForAppTask({ taskID });
    expect(await ids('the guide', { removeStopWords: true })).toEqual([]);
    // custom stop words still apply with the standard ones off
    await add('stopwords', { objectID: 'the', language: 'en', word: 'the' });
    expect(await ids('the guide', { removeStopWords: true })).toEqual(['guide', 'lantern-guide']);
    // standard ones back on, and "the" disabled by a custom entry
    await client.setDictionarySettings({ disableStandardEntries: { stopwords: null } });
    await add('stopwords', { objectID: 'the', language: 'en', word: 'the', state: 'disabled' });
    expect(await ids('the guide', { removeStopWords: true })).toEqual([]);
    expect(await ids('a guide', { removeStopWords: true })).toEqual(['guide', 'lantern-guide']);
  });
});

describe('plurals', () => {
  it("a rule's condition with alternatives matches the custom plural of its pattern word", async () => {
    await client.saveRule({
      indexName: 'books', objectID: 'blorp-banner',
      rule: { objectID: 'blorp-banner', conditions: [{ pattern: 'blorp', anchoring: 'is', alternatives: true }], consequence: { userData: { banner: 'blorp' } } },
    });
    await engine.waitForTasks();
    const banner = async (query: string) => (await client.searchSingleIndex({ indexName: 'books', searchParams: { query } })).userData;
    expect(await banner('blorp')).toEqual([{ banner: 'blorp' }]);
    expect(await banner('blorpen')).toBeUndefined();
    await add('plurals', { objectID: 'blorp', language: 'en', words: ['blorp', 'blorpen'] });
    expect(await banner('blorpen')).toEqual([{ banner: 'blorp' }]);
  });

  it('a custom plural pair matches the other form with ignorePlurals', async () => {
    const params = { ignorePlurals: ['fr'], typoTolerance: false };
    expect(await ids('chevaux', params)).toEqual([]);
    await add('plurals', { objectID: 'cheval', language: 'fr', words: ['cheval', 'chevaux'] });
    expect(await ids('chevaux', params)).toEqual(['horse']);
    expect(await ids('chevaux', { ignorePlurals: true, typoTolerance: false }, 'films')).toEqual(['horse']);
    // not without ignorePlurals, nor in another language
    expect(await ids('chevaux', { typoTolerance: false })).toEqual([]);
    expect(await ids('chevaux', { ignorePlurals: ['en'], typoTolerance: false })).toEqual([]);
    // a disabled entry does nothing
    await add('plurals', { objectID: 'cheval', language: 'fr', words: ['cheval', 'chevaux'], state: 'disabled' });
    expect(await ids('chevaux', params)).toEqual([]);
  });

  it('disableStandardEntries.plurals turns the English rules off', async () => {
    const params = { ignorePlurals: true, typoTolerance: false, queryType: 'prefixNone' as const };
    expect(await ids('talk', params)).toEqual(['talks']);
    await client.setDictionarySettings({ disableStandardEntries: { plurals: { en: true } } });
    expect(await ids('talk', params)).toEqual([]);
    await add('plurals', { objectID: 'talk', language: 'en', words: ['talk', 'talks'] });
    expect(await ids('talk', params)).toEqual(['talks']);
  });
});

describe('compounds', () => {
  it('a compound query word matches records holding its parts', async () => {
    const params = { typoTolerance: false };
    expect(await ids('kopfschmerztablette', params)).toEqual([]);
    await add('compounds', { objectID: 'k', language: 'de', word: 'Kopfschmerztablette', decomposition: ['kopf', 'schmerz', 'tablette'] });
    expect(await ids('kopfschmerztablette', params)).toEqual(['pills']);
    expect(await ids('kopfschmerztablette', params, 'films')).toEqual(['pills']);
    const { hits } = await client.searchSingleIndex({ indexName: 'books', searchParams: { query: 'kopfschmerztablette', ...params } });
    expect(hits[0]._highlightResult?.title).toMatchObject({ value: '<em>kopf</em> <em>schmerz</em> <em>tablette</em>' });
    // decompoundQuery: false, or queryLanguages without the entry's language, leave it out
    expect(await ids('kopfschmerztablette', { ...params, decompoundQuery: false })).toEqual([]);
    expect(await ids('kopfschmerztablette', { ...params, queryLanguages: ['en'] })).toEqual([]);
    expect(await ids('kopfschmerztablette', { ...params, queryLanguages: ['de'] })).toEqual(['pills']);
  });

  it('reaches multi-index queries and browse too', async () => {
    await add('compounds', { objectID: 'k', language: 'de', word: 'kopfschmerztablette', decomposition: ['kopf', 'schmerz', 'tablette'] });
    const { results } = await client.search({ requests: [{ indexName: 'films', query: 'kopfschmerztablette', typoTolerance: false }] });
    expect((results[0] as { hits: Array<{ objectID: string }> }).hits.map((h) => h.objectID)).toEqual(['pills']);
    const browsed = await client.browse({ indexName: 'books', browseParams: { query: 'kopfschmerztablette', typoTolerance: false } });
    expect(browsed.hits.map((h) => h.objectID)).toEqual(['pills']);
  });
});
