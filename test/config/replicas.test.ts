// Replicas on the TED talks: virtual replicas reading their primary's records
// with their own ranking, standard replicas reading them too while their
// settings index as the primary's do and holding copies otherwise, detaching, durability;
// index-specific keys following copy and move.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fsStorage } from '../../src/node.js';
import type { Lantern } from '../../src/index.js';
import { SearchIndex } from '../../src/index/search-index.js';
import { ADMIN_KEY, APP_ID, openWithClient, readFixture, type OfficialClient } from '../api/helpers.js';

const talks: Array<Record<string, any>> = readFixture('talks.json');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

type Client = OfficialClient;
const open = (dir?: string) => openWithClient(dir ? { storage: fsStorage(dir) } : {});
const settle = (client: Client, indexName: string, r: { taskID: number }) => client.waitForTask({ indexName, taskID: r.taskID });
const ids = async (client: Client, indexName: string, searchParams: Record<string, unknown> = {}) =>
  ((await client.searchSingleIndex({ indexName, searchParams: { hitsPerPage: 10, attributesToRetrieve: ['objectID'], attributesToHighlight: [], ...searchParams } })).hits)
    .map((h: any) => h.objectID);

/** The talks' searchable text (the real settings: name, speakers, event_name, tags). */
const searchable = (t: Record<string, any>) => [t.name, ...[].concat(t.speakers), t.event_name, ...[].concat(t.tags)].join(' | ');
/** The talks matching a word, ordered by `key` descending (records without it last): an independent expectation. */
const topBy = (word: RegExp, key: string, n = 10) => {
  const value = (t: Record<string, any>) => (typeof t[key] === 'number' ? t[key] : -Infinity);
  const descending = (a: Record<string, any>, b: Record<string, any>) => (value(a) === value(b) ? 0 : value(b) > value(a) ? 1 : -1);
  return talks.filter((t) => word.test(searchable(t))).sort(descending).slice(0, n).map((t) => t.objectID);
};

describe('virtual replicas', () => {
  let engine: Lantern;
  let client: Client;
  beforeAll(async () => {
    ({ engine, client } = await open());
    const settings = { ...readFixture('talks_settings.json'), slaves: ['virtual(talks_by_views)', 'talks_by_funny'], distinct: false };
    await settle(client, 'talks', await client.setSettings({ indexName: 'talks', indexSettings: settings }));
    await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
    await settle(client, 'talks_by_views', await client.setSettings({ indexName: 'talks_by_views', indexSettings: { customRanking: ['desc(viewed_count)'], ranking: ['desc(viewed_count)', ...readFixture('talks_settings.json').ranking] } }));
    await settle(client, 'talks_by_funny', await client.setSettings({ indexName: 'talks_by_funny', indexSettings: { ranking: ['desc(funny_rating)', 'typo', 'words'] } }));
  });

  it('hold no data of their own, yet answer with every record', async () => {
    expect(engine.indexes.get('talks_by_views')!.sharesData).toBe(true);
    expect(engine.indexes.get('talks_by_views')!.isVirtual).toBe(true);
    expect(engine.indexes.get('talks_by_views')!.memoryBytes).toBe(0);
    // a standard replica whose settings index as its primary's reads the same data, yet stays standard
    expect(engine.indexes.get('talks_by_funny')!.isVirtual).toBe(false);
    expect(engine.indexes.get('talks_by_funny')!.memoryBytes).toBeGreaterThan(0);
    const listed = await client.listIndices();
    const entries = Object.fromEntries(listed.items.map((i: any) => [i.name, i.entries]));
    expect(entries.talks_by_views).toBe(talks.length);
  });

  it('rank by their own settings, the primary by its own, searched in turns', async () => {
    for (let round = 0; round < 3; round++) {
      expect(await ids(client, 'talks_by_views', { query: 'life', typoTolerance: false, queryType: 'prefixNone' })).toEqual(topBy(/\blife\b/i, 'viewed_count'));
      expect(await ids(client, 'talks_by_funny', { query: 'life', typoTolerance: false, queryType: 'prefixNone' })).toEqual(topBy(/\blife\b/i, 'funny_rating'));
      const primary = await ids(client, 'talks', { query: 'life', typoTolerance: false, queryType: 'prefixNone', hitsPerPage: 1000 });
      expect(primary.length).toBe(talks.filter((t) => /\blife\b/i.test(searchable(t))).length);
    }
  });

  it('see the primary\'s writes at once and refuse writes of their own', async () => {
    await settle(client, 'talks', await client.saveObject({ indexName: 'talks', body: { ...talks[0], objectID: 'most-viewed', name: 'life at the top', viewed_count: 1e12 } }));
    expect((await ids(client, 'talks_by_views', { query: 'life' }))[0]).toBe('most-viewed');
    const refused = await engine.request({ method: 'POST', path: '/1/indexes/talks_by_views', headers: { 'x-algolia-api-key': ADMIN_KEY, 'x-algolia-application-id': APP_ID }, body: { a: 1 } });
    expect(refused.status).toBe(400);
    await settle(client, 'talks', await client.deleteObject({ indexName: 'talks', objectID: 'most-viewed' }));
    expect(await ids(client, 'talks_by_views', { query: 'life' })).not.toContain('most-viewed');
  });

  it('removed from the list, a virtual replica keeps the records as a standalone index', async () => {
    await settle(client, 'talks', await client.setSettings({ indexName: 'talks', indexSettings: { replicas: ['talks_by_funny'] } }));
    const detached = engine.indexes.get('talks_by_views')!;
    expect(detached.sharesData).toBe(false);
    expect(detached.primary).toBeUndefined();
    expect(await ids(client, 'talks_by_views', { query: 'life', typoTolerance: false, queryType: 'prefixNone' })).toEqual(topBy(/\blife\b/i, 'viewed_count'));
    await settle(client, 'talks', await client.saveObject({ indexName: 'talks', body: { objectID: 'only-primary', name: 'zqxj' } }));
    expect((await client.searchSingleIndex({ indexName: 'talks_by_views', searchParams: { query: 'zqxj' } })).nbHits).toBe(0);
    await settle(client, 'talks_by_views', await client.saveObject({ indexName: 'talks_by_views', body: { objectID: 'mine', name: 'zqxj' } }));
    expect((await client.searchSingleIndex({ indexName: 'talks_by_views', searchParams: { query: 'zqxj' } })).nbHits).toBe(1);
  });
});

describe('standard replicas', () => {
  /** Whether a word of the talks' tags only (not in any name) is found: tells which searchable attributes indexed the data searched. */
  const tagOnly = talks.flatMap((t) => [].concat(t.tags ?? [])).map((tag: string) => tag.toLowerCase())
    .find((tag) => /^[a-z]{6,}$/.test(tag) && !talks.some((t) => String(t.name).toLowerCase().includes(tag)))!;
  const found = async (client: Client, indexName: string) =>
    (await client.searchSingleIndex({ indexName, searchParams: { query: tagOnly, typoTolerance: false, queryType: 'prefixNone' } })).nbHits;

  it('read their primary\'s data while their settings index as its do, and hold a copy indexed by their own otherwise', async () => {
    const { engine, client } = await open();
    await settle(client, 'talks', await client.setSettings({ indexName: 'talks', indexSettings: { ...readFixture('talks_settings.json'), replicas: ['talks_by_views'], distinct: false } }));
    await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
    await settle(client, 'talks_by_views', await client.setSettings({ indexName: 'talks_by_views', indexSettings: { ranking: ['desc(viewed_count)', ...readFixture('talks_settings.json').ranking] } }));
    const replica = () => engine.indexes.get('talks_by_views')!;
    expect([replica().sharesData, replica().isVirtual]).toEqual([true, false]);
    const byViews = topBy(/\blife\b/i, 'viewed_count');
    expect(await ids(client, 'talks_by_views', { query: 'life', typoTolerance: false, queryType: 'prefixNone' })).toEqual(byViews);
    const tagged = await found(client, 'talks');
    expect(tagged).toBeGreaterThan(0);

    // its own searchable attributes: a copy indexed by them, kept in sync by the primary's writes; built before
    // the change, a slice per turn (searches answered meanwhile): the settings task itself indexes no record
    const saves = vi.spyOn(SearchIndex.prototype, 'save');
    const sharing = replica();
    await settle(client, 'talks_by_views', await client.setSettings({ indexName: 'talks_by_views', indexSettings: { searchableAttributes: ['name'] } }));
    expect(replica().sharesData).toBe(false);
    expect(saves.mock.contexts.filter((index) => index === sharing)).toEqual([]);
    expect(saves.mock.contexts.filter((index) => index !== sharing && (index as SearchIndex).name === 'talks_by_views').length).toBeGreaterThan(0);
    expect(await found(client, 'talks_by_views')).toBe(0);
    expect(await found(client, 'talks')).toBe(tagged);
    await settle(client, 'talks', await client.saveObject({ indexName: 'talks', body: { ...talks[0], objectID: 'most-viewed', name: 'life at the top', viewed_count: 1e12 } }));
    expect((await ids(client, 'talks_by_views', { query: 'life' }))[0]).toBe('most-viewed');

    // the same settings as the primary's again: the primary's data, the same answers
    await settle(client, 'talks_by_views', await client.setSettings({ indexName: 'talks_by_views', indexSettings: { searchableAttributes: readFixture('talks_settings.json').attributesToIndex } }));
    expect(replica().sharesData).toBe(true);
    await settle(client, 'talks', await client.deleteObject({ indexName: 'talks', objectID: 'most-viewed' }));
    expect(await found(client, 'talks_by_views')).toBe(tagged);
    expect(await ids(client, 'talks_by_views', { query: 'life', typoTolerance: false, queryType: 'prefixNone' })).toEqual(byViews);

    // the primary's settings changed alone: the replica keeps its own, and a copy indexed by them (built beforehand too)
    saves.mockClear();
    await settle(client, 'talks', await client.setSettings({ indexName: 'talks', indexSettings: { searchableAttributes: ['name'] } }));
    expect(replica().sharesData).toBe(false);
    expect(saves.mock.contexts.filter((index) => index === replica())).toEqual([]);
    saves.mockRestore();
    expect(await found(client, 'talks')).toBe(0);
    expect(await found(client, 'talks_by_views')).toBe(tagged);
    // forwarded, the change reaches both, which index alike again
    await settle(client, 'talks', await client.setSettings({ indexName: 'talks', indexSettings: { searchableAttributes: ['name', 'tags'] }, forwardToReplicas: true }));
    expect(replica().sharesData).toBe(true);
    expect(await found(client, 'talks_by_views')).toBe(await found(client, 'talks'));
    await engine.close();
  });

  it('group by their own attributeForDistinct over the data they read, the primary by its own, across writes', async () => {
    const { engine, client } = await open();
    await settle(client, 'talks', await client.setSettings({ indexName: 'talks', indexSettings: { searchableAttributes: ['name', 'tags'], attributeForDistinct: 'event_name', distinct: true, replicas: ['by_speaker'] } }));
    await settle(client, 'by_speaker', await client.setSettings({ indexName: 'by_speaker', indexSettings: { attributeForDistinct: 'speakers', distinct: true } }));
    await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
    expect(engine.indexes.get('by_speaker')!.sharesData).toBe(true);
    const matching = (records: Array<Record<string, any>>) => records.filter((t) => /\blife\b/i.test(`${t.name} ${[].concat(t.tags ?? []).join(' ')}`));
    /** Groups among the matching records (a record without the attribute is a group of its own), as distinct counts them. */
    const groups = (records: Array<Record<string, any>>, attribute: string) => {
      const first = (t: Record<string, any>) => [].concat(t[attribute] ?? [])[0];
      return new Set(matching(records).map((t, i) => first(t) ?? `none ${i}`)).size;
    };
    const nbHits = async (indexName: string) => (await client.searchSingleIndex({ indexName, searchParams: { query: 'life', typoTolerance: false, queryType: 'prefixNone' } })).nbHits;
    let current = talks;
    for (let round = 0; round < 2; round++) {
      expect([await nbHits('talks'), await nbHits('by_speaker')], `round ${round}`).toEqual([groups(current, 'event_name'), groups(current, 'speakers')]);
      // every matching talk moved to one event, by one speaker: one group each
      const moved: Array<Record<string, any>> = matching(current).map((t) => ({ ...t, event_name: 'one event', speakers: ['one speaker'] }));
      await client.saveObjects({ indexName: 'talks', objects: moved, waitForTasks: true });
      current = current.map((t) => moved.find((m) => m.objectID === t.objectID) ?? t);
    }
    expect([await nbHits('talks'), await nbHits('by_speaker')]).toEqual([1, 1]);
    await engine.close();
  });
});

describe('replicas are created with the primary\'s settings', () => {
  it('a new replica copies them; an existing index keeps its own', async () => {
    const { client } = await open();
    await settle(client, 'own', await client.setSettings({ indexName: 'own', indexSettings: { hitsPerPage: 3 } }));
    await settle(client, 'p', await client.setSettings({ indexName: 'p', indexSettings: { hitsPerPage: 7, searchableAttributes: ['name'], replicas: ['fresh', 'virtual(fresh_virtual)', 'own'] } }));
    const fresh: any = await client.getSettings({ indexName: 'fresh' });
    expect([fresh.hitsPerPage, fresh.searchableAttributes, fresh.primary, fresh.replicas]).toEqual([7, ['name'], 'p', []]);
    expect((await client.getSettings({ indexName: 'fresh_virtual' })).hitsPerPage).toBe(7);
    expect((await client.getSettings({ indexName: 'own' })).hitsPerPage).toBe(3);
  });
});

describe('durability', () => {
  it.each([
    ['a virtual replica', 'virtual(talks_by_views)'],
    ['a standard replica indexing as its primary', 'talks_by_views'],
  ])('%s reads its primary\'s data again after a reopen, from the log and from a snapshot', async (kind, entry) => {
    const virtual = entry.startsWith('virtual(');
    const dir = mkdtempSync(join(tmpdir(), 'lantern-replica-'));
    dirs.push(dir);
    let { engine, client } = await open(dir);
    await settle(client, 'talks', await client.setSettings({ indexName: 'talks', indexSettings: { replicas: [entry], searchableAttributes: ['name'] } }));
    await client.saveObjects({ indexName: 'talks', objects: talks.slice(0, 300), waitForTasks: true });
    await settle(client, 'talks_by_views', await client.setSettings({ indexName: 'talks_by_views', indexSettings: { customRanking: ['desc(viewed_count)'] } }));
    const listed = async () => (await client.listIndices()).items.find((i: any) => i.name === 'talks_by_views')!;
    const updatedBefore = (await listed()).updatedAt;
    await new Promise((r) => setTimeout(r, 5));
    await settle(client, 'talks', await client.saveObject({ indexName: 'talks', body: { ...talks[300], objectID: 'late' } }));
    // a standard replica is written when its primary is (as the service's are); a virtual one holds no data of its own
    const updatedAfter = (await listed()).updatedAt;
    expect(Date.parse(updatedAfter) > Date.parse(updatedBefore), kind).toBe(!virtual);
    const expected = await ids(client, 'talks_by_views', { query: 'the' });
    for (const withSnapshot of [false, true]) {
      if (withSnapshot) await engine.snapshot();
      await engine.close();
      ({ engine, client } = await open(dir));
      expect([engine.indexes.get('talks_by_views')!.sharesData, engine.indexes.get('talks_by_views')!.isVirtual]).toEqual([true, virtual]);
      expect(await ids(client, 'talks_by_views', { query: 'the' })).toEqual(expected);
      expect(await listed()).toMatchObject({ updatedAt: updatedAfter, entries: 301, primary: 'talks' });
    }
    await engine.close();
  });
});

describe('index-specific keys follow copy and move', () => {
  it('a whole copy or a move adds the source\'s keys to the destination, which keeps its own; a partial copy does not', async () => {
    const { engine, client } = await open();
    for (const name of ['src', 'dst', 'partial']) {
      await settle(client, name, await client.saveObject({ indexName: name, body: { objectID: '1', name } }));
    }
    const call = (method: string, path: string, key = ADMIN_KEY, body?: unknown) =>
      engine.request({ method, path, headers: { 'x-algolia-api-key': key, 'x-algolia-application-id': APP_ID }, body });
    const srcKey = ((await call('POST', '/1/indexes/src/keys', ADMIN_KEY, { acl: ['search'] })).body as any).key;
    const dstKey = ((await call('POST', '/1/indexes/dst/keys', ADMIN_KEY, { acl: ['search'] })).body as any).key;
    expect((await call('GET', '/1/indexes/dst/query?query=', srcKey)).status).toBe(403);

    await settle(client, 'partial', await client.operationIndex({ indexName: 'src', operationIndexParams: { operation: 'copy', destination: 'partial', scope: ['settings'] } }));
    expect((await call('POST', '/1/indexes/partial/query', srcKey, {})).status).toBe(403);

    await settle(client, 'dst', await client.operationIndex({ indexName: 'src', operationIndexParams: { operation: 'copy', destination: 'dst' } }));
    expect((await call('POST', '/1/indexes/dst/query', srcKey, {})).status).toBe(200);
    expect((await call('POST', '/1/indexes/dst/query', dstKey, {})).status).toBe(200);
    const listed = ((await call('GET', '/1/indexes/dst/keys')).body as any).keys.map((k: any) => k.value).sort();
    expect(listed).toEqual([srcKey, dstKey].sort());

    await settle(client, 'moved', await client.operationIndex({ indexName: 'src', operationIndexParams: { operation: 'move', destination: 'moved' } }));
    expect((await call('POST', '/1/indexes/moved/query', srcKey, {})).status).toBe(200);
    expect((await call('POST', '/1/indexes/moved/query', dstKey, {})).status).toBe(403);
  });
});
