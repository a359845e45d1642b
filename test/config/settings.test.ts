// Settings: validation naming the setting, historical names, partial
// updates and resets, GET/PUT round trips, and re-indexing in the background
// while searches keep being answered.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { openWithClient, readFixture, type OfficialClient, type Send } from '../api/helpers.js';

const talks: Array<Record<string, any>> = readFixture('talks.json');

let client: OfficialClient;
let call: Send;
const settle = (indexName: string, r: { taskID: number }) => client.waitForTask({ indexName, taskID: r.taskID });

beforeAll(async () => {
  ({ client, send: call } = await openWithClient());
});

describe('validation', () => {
  const cases: Array<[string, unknown]> = [
    ['hitsPerPage', 'twenty'], ['hitsPerPage', 1001], ['minWordSizefor1Typo', 2.5], ['typoTolerance', 'sometimes'],
    ['queryType', 'prefixFirst'], ['removeWordsIfNoResults', 'some'], ['exactOnSingleWordQuery', 'phrase'],
    ['ranking', ['typo', 'popularity']], ['customRanking', ['views']], ['attributesForFaceting', ['filterOnly(tags']],
    ['searchableAttributes', [3]], ['searchableAttributes', ['unordered(name']], ['alternativesAsExact', ['sometimes']],
    ['advancedSyntaxFeatures', ['everything']], ['ignorePlurals', ['english!']], ['distinct', 7], ['renderingContent', 'plain'],
    ['attributesToSnippet', ['description:many']], ['replicas', ['virtual(x']], ['sortFacetValuesBy', 'random'],
    ['paginationLimitedTo', 20001], ['mode', 'fastSearch'], ['allowTyposOnNumericTokens', 'often'],
  ];

  it.each(cases)('%s = %j is 400 naming the setting, and nothing changes', async (name, value) => {
    await settle('valid', await client.setSettings({ indexName: 'valid', indexSettings: { hitsPerPage: 7 } }));
    // a valid change next to the wrong one is not applied either
    const r = await call('PUT', '/1/indexes/valid/settings', { hitsPerPage: 9, [name]: value });
    expect(r.status).toBe(400);
    expect((r.body as any).message).toContain(name);
    expect((await client.getSettings({ indexName: 'valid' })).hitsPerPage).toBe(7);
  });

  it('an unknown setting is 400 naming it', async () => {
    const r = await call('PUT', '/1/indexes/valid/settings', { hitsPerPag: 5 });
    expect(r.status).toBe(400);
    expect((r.body as any).message).toContain('hitsPerPag');
  });

  it('what a GET answers can be PUT back as is', async () => {
    const settings = (await call('GET', '/1/indexes/valid/settings')).body as Record<string, unknown>;
    expect(settings.synonyms).toBeDefined();
    const r = await call('PUT', '/1/indexes/valid/settings', settings);
    expect(r.status).toBe(200);
  });

  it('historical names are accepted and read back under today\'s names', async () => {
    const old = readFixture('talks_date_asc_settings.json'); // attributesToIndex, numericAttributesToIndex, master
    await settle('historical', await client.setSettings({ indexName: 'historical', indexSettings: { ...old, minWordSizeForApprox1: 5 } }));
    const now: any = await client.getSettings({ indexName: 'historical' });
    expect(now.searchableAttributes).toEqual(old.attributesToIndex);
    expect(now.minWordSizefor1Typo).toBe(5);
    expect(now.attributesToIndex).toBeUndefined();
    expect(now.primary).toBeUndefined(); // `master` is read-only: it made no replica
  });

  it('a PUT changes only what it names; null resets a setting to its default', async () => {
    await settle('partial', await client.setSettings({ indexName: 'partial', indexSettings: { hitsPerPage: 5, customRanking: ['desc(views)'] } }));
    await settle('partial', await client.setSettings({ indexName: 'partial', indexSettings: { queryType: 'prefixAll' } }));
    let s: any = await client.getSettings({ indexName: 'partial' });
    expect([s.hitsPerPage, s.customRanking, s.queryType]).toEqual([5, ['desc(views)'], 'prefixAll']);
    await settle('partial', await call('PUT', '/1/indexes/partial/settings', { hitsPerPage: null, queryType: null }).then((r) => r.body as any));
    s = await client.getSettings({ indexName: 'partial' });
    expect([s.hitsPerPage, s.customRanking, s.queryType]).toEqual([20, ['desc(views)'], 'prefixLast']);
  });
});

describe('re-indexing in the background', () => {
  // five copies of the talks: a rebuild several slices long
  const copies: Array<Record<string, any>> = [0, 1, 2, 3, 4].flatMap((c) => talks.map((t) => ({ ...t, objectID: `${t.objectID}-${c}` })));
  const bySpeaker = copies.filter((t) => t.speakers.includes('Ken Robinson')).length;

  it('searches are answered from the old index until the task is published, then from the new one', async () => {
    await settle('big', await client.setSettings({ indexName: 'big', indexSettings: { searchableAttributes: ['name', 'speakers'] } }));
    await client.saveObjects({ indexName: 'big', objects: copies, waitForTasks: true });
    const query = { query: 'ken robinson', typoTolerance: false, hitsPerPage: 0 };
    expect((await client.searchSingleIndex({ indexName: 'big', searchParams: query })).nbHits).toBeGreaterThanOrEqual(bySpeaker);
    const before = (await client.searchSingleIndex({ indexName: 'big', searchParams: query })).nbHits!;

    const { taskID } = await client.setSettings({ indexName: 'big', indexSettings: { searchableAttributes: ['name'] } });
    const during: number[] = [];
    while ((await client.getTask({ indexName: 'big', taskID })).status === 'notPublished') {
      during.push((await client.searchSingleIndex({ indexName: 'big', searchParams: query })).nbHits!);
      await nextTurn();
    }
    expect(during.length).toBeGreaterThan(1);
    expect(new Set(during)).toEqual(new Set([before]));
    const after = (await client.searchSingleIndex({ indexName: 'big', searchParams: query })).nbHits!;
    const inNames = copies.filter((t) => /\bken\b/i.test(t.name) && /\brobinson\b/i.test(t.name)).length;
    expect(after).toBe(inNames);
    expect(after).toBeLessThan(before);
  });

  it('writes sent during a rebuild are applied after it, on the new index', async () => {
    const { taskID } = await client.setSettings({ indexName: 'big', indexSettings: { searchableAttributes: ['speakers'] } });
    const saved = await client.saveObject({ indexName: 'big', body: { objectID: 'late', name: 'x', speakers: ['Zyxwv Qwerty'] } });
    await settle('big', saved);
    expect((await client.getTask({ indexName: 'big', taskID })).status).toBe('published');
    const r = await client.searchSingleIndex({ indexName: 'big', searchParams: { query: 'zyxwv', hitsPerPage: 1 } });
    expect(r.hits.map((h: any) => h.objectID)).toEqual(['late']);
    expect((await client.searchSingleIndex({ indexName: 'big', searchParams: { query: 'ken robinson', typoTolerance: false, hitsPerPage: 0 } })).nbHits).toBe(bySpeaker);
  });

  it('a new attributesForFaceting is built before the task is published', async () => {
    await settle('big', await client.setSettings({ indexName: 'big', indexSettings: { attributesForFaceting: ['event_name'] } }));
    const r: any = await client.searchSingleIndex({ indexName: 'big', searchParams: { query: '', facets: ['event_name'], hitsPerPage: 0, maxValuesPerFacet: 1000 } });
    const expected = new Map<string, number>();
    for (const t of copies) expected.set(t.event_name, (expected.get(t.event_name) ?? 0) + 1);
    expect(new Map(Object.entries(r.facets.event_name))).toEqual(expected);
  });
});
