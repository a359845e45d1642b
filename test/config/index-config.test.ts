// Index configuration on the TED talks and their real settings (the replica
// settings file too): replicas, copy/move, synonyms, rules, through the
// official client.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { Lantern, lanternRequester } from '../../src/index.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
const talks: Array<Record<string, any>> = fixture('talks.json');

let engine: Lantern;
let client: ReturnType<typeof algoliasearch>;

async function settle(response: { taskID: number }, indexName: string) {
  await client.waitForTask({ indexName, taskID: response.taskID });
}

const search = (indexName: string, searchParams: Record<string, unknown>): Promise<any> =>
  client.searchSingleIndex({ indexName, searchParams: { attributesToHighlight: [], distinct: false, ...searchParams } });
const HEADERS = { 'x-algolia-application-id': 'APP', 'x-algolia-api-key': 'ADMIN' };
const call = (method: string, path: string, body?: unknown) => engine.request({ method, path, headers: HEADERS, body });

beforeAll(async () => {
  engine = await Lantern.open({ appId: 'APP', adminKey: 'ADMIN' });
  client = algoliasearch('APP', 'ADMIN', { requester: lanternRequester(engine) });
  const settings = fixture('talks_settings.json');
  settings.slaves = ['talks_date_asc', 'virtual(talks_views_desc)'];
  await settle(await client.setSettings({ indexName: 'talks', indexSettings: settings }), 'talks');
  await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
  const replica = fixture('talks_date_asc_settings.json');
  delete replica.master;
  await settle(await client.setSettings({ indexName: 'talks_date_asc', indexSettings: replica }), 'talks_date_asc');
  await settle(await client.setSettings({ indexName: 'talks_views_desc', indexSettings: { customRanking: ['desc(viewed_count)'] } }), 'talks_views_desc');
});

describe('replicas', () => {
  it('hold the primary\'s records, ranked by their own settings', async () => {
    const asc = await search('talks_date_asc', { query: 'brain', hitsPerPage: 50, attributesToRetrieve: ['date'] });
    const dates = asc.hits.map((h: any) => h.date);
    expect(asc.nbHits).toBeGreaterThan(10);
    // the replica's settings: typo, ..., custom = asc(date) within equal text criteria; its first hits are the oldest exact matches
    const views = await search('talks_views_desc', { query: '', hitsPerPage: 5, attributesToRetrieve: ['viewed_count'] });
    const counts = views.hits.map((h: any) => h.viewed_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(counts[0]).toBe(Math.max(...talks.map((t) => t.viewed_count)));
    const oldestFirst = await search('talks_date_asc', { query: '', hitsPerPage: 3, attributesToRetrieve: ['date'] });
    expect(oldestFirst.hits.map((h: any) => h.date)).toEqual([...talks.map((t) => t.date)].sort((a, b) => a - b).slice(0, 3));
    expect(dates.length).toBe(50);
  });

  it('report their primary in getSettings and listIndices, and follow every write', async () => {
    expect((await client.getSettings({ indexName: 'talks_date_asc' })).primary).toBe('talks');
    const list = await client.listIndices();
    const primary = list.items.find((i: any) => i.name === 'talks')!;
    expect(primary.replicas).toEqual(['talks_date_asc', 'virtual(talks_views_desc)']);
    expect(list.items.find((i: any) => i.name === 'talks_date_asc')!.primary).toBe('talks');
    await settle(await client.saveObject({ indexName: 'talks', body: { objectID: 'new-talk', name: 'Zyzzyva nebula', date: 1 } }), 'talks');
    for (const replica of ['talks_date_asc', 'talks_views_desc']) {
      expect((await search(replica, { query: 'zyzzyva' })).nbHits).toBe(1);
    }
    await settle(await client.deleteObject({ indexName: 'talks', objectID: 'new-talk' }), 'talks');
    expect((await search('talks_date_asc', { query: 'zyzzyva' })).nbHits).toBe(0);
  });

  it('refuse writes (400)', async () => {
    const r = await call('POST', '/1/indexes/talks_date_asc', { name: 'x' });
    expect(r.status).toBe(400);
    expect((r.body as any).message).toMatch(/replica/);
  });

  it('get forwarded settings, synonyms and rules only with forwardToReplicas', async () => {
    await settle(await client.saveSynonym({ indexName: 'talks', objectID: 'fwd', synonymHit: { objectID: 'fwd', type: 'synonym', synonyms: ['cerebrum', 'brain'] } }), 'talks');
    await expect(client.getSynonym({ indexName: 'talks_date_asc', objectID: 'fwd' })).rejects.toThrow();
    await settle(await client.saveSynonym({ indexName: 'talks', objectID: 'fwd', synonymHit: { objectID: 'fwd', type: 'synonym', synonyms: ['cerebrum', 'brain'] }, forwardToReplicas: true }), 'talks');
    expect((await client.getSynonym({ indexName: 'talks_date_asc', objectID: 'fwd' })).type).toBe('synonym');
    await settle(await client.setSettings({ indexName: 'talks', indexSettings: { hitsPerPage: 7 }, forwardToReplicas: true }), 'talks');
    expect((await client.getSettings({ indexName: 'talks_date_asc' })).hitsPerPage).toBe(7);
  });

  it('removed from the list, a replica becomes a standalone index', async () => {
    await settle(await client.setSettings({ indexName: 'talks', indexSettings: { replicas: ['talks_date_asc'] } }), 'talks');
    expect((await client.getSettings({ indexName: 'talks_views_desc' })).primary).toBeUndefined();
    const r = await call('POST', '/1/indexes/talks_views_desc', { name: 'standalone now' });
    expect(r.status).toBe(201);
  });
});

describe('synonyms', () => {
  beforeAll(async () => {
    await settle(await client.saveSynonyms({
      indexName: 'talks',
      synonymHit: [
        { objectID: 'multi', type: 'synonym', synonyms: ['cerebrum', 'brain'] },
        { objectID: 'oneway', type: 'onewaysynonym', input: 'cosmos', synonyms: ['universe'] },
        { objectID: 'alt1', type: 'altcorrection1', word: 'braine', corrections: ['brain'] },
      ],
      replaceExistingSynonyms: true,
    }), 'talks');
  });

  it('a multi-way synonym finds the records of every word, highlighted', async () => {
    const exactly = { queryType: 'prefixNone', typoTolerance: false };
    const brain = await search('talks', { query: 'brain', hitsPerPage: 0, ...exactly });
    const cerebrum = await search('talks', { query: 'cerebrum', hitsPerPage: 3, attributesToHighlight: ['name'], ...exactly });
    expect(cerebrum.nbHits).toBe(brain.nbHits);
    // the real settings have replaceSynonymsInHighlight: the query's word is shown
    expect(cerebrum.hits[0]._highlightResult.name.value).toMatch(/<em>cerebrum<\/em>/i);
    const original = await search('talks', { query: 'cerebrum', hitsPerPage: 1, attributesToHighlight: ['name'], replaceSynonymsInHighlight: false, ...exactly });
    expect(original.hits[0]._highlightResult.name.value).toMatch(/<em>brain<\/em>/i);
    expect((await search('talks', { query: 'cerebrum', synonyms: false })).nbHits).toBe(0);
  });

  it('a one-way synonym works one way only', async () => {
    const universe = await search('talks', { query: 'universe', hitsPerPage: 0, typoTolerance: false });
    expect((await search('talks', { query: 'cosmos', hitsPerPage: 0, typoTolerance: false })).nbHits).toBeGreaterThanOrEqual(universe.nbHits);
    const reverse = await search('talks', { query: 'universe', getRankingInfo: true, typoTolerance: false, hitsPerPage: 100 });
    expect(reverse.nbHits).toBe(universe.nbHits);
  });

  it('an altcorrection counts as a typo', async () => {
    const r = await search('talks', { query: 'braine', typoTolerance: false, queryType: 'prefixNone', getRankingInfo: true, hitsPerPage: 1 });
    expect(r.nbHits).toBeGreaterThan(0);
    expect(r.hits[0]._rankingInfo.nbTypos).toBe(1);
  });

  it('search, get, delete, clear', async () => {
    const found = await client.searchSynonyms({ indexName: 'talks', searchSynonymsParams: { query: 'cosmos' } });
    expect(found.hits.map((h: any) => h.objectID)).toEqual(['oneway']);
    const typed = await client.searchSynonyms({ indexName: 'talks', searchSynonymsParams: { query: '', type: 'altcorrection1' } });
    expect(typed.nbHits).toBe(1);
    await settle(await client.deleteSynonym({ indexName: 'talks', objectID: 'alt1' }), 'talks');
    await expect(client.getSynonym({ indexName: 'talks', objectID: 'alt1' })).rejects.toThrow();
    const bad = await call('PUT', '/1/indexes/talks/synonyms/x', { type: 'nonsense' });
    expect(bad.status).toBe(400);
  });
});

describe('rules', () => {
  const giver = talks.find((t) => t.name === 'Are you a giver or a taker?')!;
  const promoted = talks.find((t) => t.name && !/giver/i.test(t.name))!;

  beforeAll(async () => {
    await settle(await client.saveRules({
      indexName: 'talks',
      clearExistingRules: true,
      rules: [
        { objectID: 'promote', conditions: [{ pattern: 'giver', anchoring: 'contains' }], consequence: { promote: [{ objectID: promoted.objectID, position: 0 }], userData: { banner: 'givers' } } },
        { objectID: 'hide', conditions: [{ pattern: 'taker', anchoring: 'is' }], consequence: { hide: [{ objectID: giver.objectID }] } },
        { objectID: 'context', conditions: [{ context: 'mobile' }], consequence: { params: { hitsPerPage: 2 } } },
        { objectID: 'rewrite', conditions: [{ pattern: 'please find', anchoring: 'startsWith' }], consequence: { params: { query: { remove: ['please', 'find'] } } } },
        { objectID: 'disabled', enabled: false, conditions: [{ pattern: 'giver', anchoring: 'contains' }], consequence: { userData: { never: true } } },
      ],
    }), 'talks');
  });

  it('promote puts a record at its position and userData / appliedRules come back', async () => {
    const r = await search('talks', { query: 'giver', attributesToRetrieve: ['name'] });
    expect(r.hits[0].objectID).toBe(promoted.objectID);
    expect(r.userData).toEqual([{ banner: 'givers' }]);
    expect(r.appliedRules).toEqual([{ objectID: 'promote' }]);
    const without = await search('talks', { query: 'giver', enableRules: false, hitsPerPage: 1000 });
    const alreadyMatched = without.hits.some((h: any) => h.objectID === promoted.objectID);
    expect(r.nbHits).toBe(without.nbHits + (alreadyMatched ? 0 : 1));
  });

  it('hide removes a record', async () => {
    const r = await search('talks', { query: 'taker', hitsPerPage: 100 });
    expect(r.hits.map((h: any) => h.objectID)).not.toContain(giver.objectID);
    expect((await search('talks', { query: 'takers', hitsPerPage: 100 })).appliedRules).toBeUndefined();
  });

  it('a context rule applies only with its ruleContexts', async () => {
    expect((await search('talks', { query: 'brain', ruleContexts: ['mobile'] })).hits.length).toBe(2);
    expect((await search('talks', { query: 'brain' })).hits.length).toBe(7);
  });

  it('query edits remove words', async () => {
    const edited = await search('talks', { query: 'please find brain', hitsPerPage: 0 });
    expect(edited.nbHits).toBe((await search('talks', { query: 'brain', hitsPerPage: 0 })).nbHits);
  });

  it('search, get, delete; invalid rules are 400', async () => {
    const found = await client.searchRules({ indexName: 'talks', searchRulesParams: { query: 'promote' } });
    expect(found.hits.map((h: any) => h.objectID)).toEqual(['promote']);
    expect((await client.getRule({ indexName: 'talks', objectID: 'hide' })).consequence.hide).toHaveLength(1);
    const bad = await call('PUT', '/1/indexes/talks/rules/bad', { conditions: [{ pattern: 'x', anchoring: 'sideways' }], consequence: {} });
    expect(bad.status).toBe(400);
  });
});

describe('copy, move, replaceAllObjects', () => {
  it('copy with scope replaces only those scopes; a full copy takes everything; move replaces the destination', async () => {
    await settle(await client.saveObject({ indexName: 'dest', body: { objectID: 'keep', name: 'kept record' } }), 'dest');
    await settle(await client.operationIndex({ indexName: 'talks', operationIndexParams: { operation: 'copy', destination: 'dest', scope: ['settings', 'synonyms'] } }), 'dest');
    expect((await search('dest', { hitsPerPage: 0 })).nbHits).toBe(1);
    expect((await client.getSettings({ indexName: 'dest' })).customRanking).toEqual(['desc(date)']);
    expect((await client.getSynonym({ indexName: 'dest', objectID: 'multi' })).type).toBe('synonym');
    await settle(await client.operationIndex({ indexName: 'talks', operationIndexParams: { operation: 'copy', destination: 'full' } }), 'full');
    expect((await search('full', { hitsPerPage: 0 })).nbHits).toBe((await search('talks', { hitsPerPage: 0 })).nbHits);
    await settle(await client.operationIndex({ indexName: 'full', operationIndexParams: { operation: 'move', destination: 'dest' } }), 'dest');
    expect((await search('dest', { hitsPerPage: 0 })).nbHits).toBe(talks.length);
    expect((await call('GET', '/1/indexes/full/settings')).status).toBe(404);
  });

  it("the official client's replaceAllObjects replaces the records and keeps settings and replicas in step", async () => {
    await client.replaceAllObjects({ indexName: 'talks', objects: talks.slice(0, 120), batchSize: 50 });
    expect((await search('talks', { hitsPerPage: 0 })).nbHits).toBe(120);
    expect((await search('talks_date_asc', { hitsPerPage: 0 })).nbHits).toBe(120);
    expect((await client.getSettings({ indexName: 'talks' })).customRanking).toEqual(['desc(date)']);
  });

  it('getVersion=2 leaves synonyms out of the settings', async () => {
    const v1 = (await call('GET', '/1/indexes/talks/settings')).body as any;
    const v2 = (await call('GET', '/1/indexes/talks/settings?getVersion=2')).body as any;
    expect(Array.isArray(v1.synonyms)).toBe(true);
    expect(v2.synonyms).toBeUndefined();
  });
});
