// The official clients' helpers (the calls they chain on top of the REST
// API) against `lantern serve` processes, each checked on the state it
// leaves: v4's copyIndex, copySettings, copyRules, copySynonyms with
// waitTask, replaceAllObjects, replaceAllRules, replaceAllSynonyms and
// accountCopyIndex (between two applications, each its own process); v5's
// replaceAllObjects, waitForTask, waitForApiKey, saveObjects, deleteObjects
// and partialUpdateObjects.
import { createRequire } from 'node:module';
import { algoliasearch } from 'algoliasearch';
import algoliasearchV4 from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type Served } from '../support/serve.js';
import { PRODUCTS, SETTINGS } from './products.js';

// accountCopyIndex is its own package, on v4's client-search (v5's is another package of the same name)
const { accountCopyIndex } = createRequire(import.meta.url)('@algolia/client-account') as {
  accountCopyIndex: (source: V4Index, destination: V4Index) => Promise<void> & { wait: () => Promise<unknown> };
};

const ADMIN_KEY = 'helpers-admin-key';
const APPS = ['HELPERS_A', 'HELPERS_B'] as const;
type V4Index = ReturnType<ReturnType<typeof algoliasearchV4>['initIndex']>;

const RULES = [
  { objectID: 'r-phone', conditions: [{ pattern: 'phone', anchoring: 'contains' as const }], consequence: { params: { filters: 'category:phone' } } },
  { objectID: 'r-pin', conditions: [{ pattern: 'best', anchoring: 'is' as const }], consequence: { promote: [{ objectID: 'p3', position: 0 }] } },
];
const SYNONYMS = [
  { objectID: 's-laptop', type: 'synonym' as const, synonyms: ['laptop', 'notebook'] },
  { objectID: 's-size', type: 'placeholder' as const, placeholder: '<size>', replacements: ['13', '15'] },
];

const served = new Map<string, Served>();
const hostOf = (app: string) => new URL(served.get(app)!.url).host;
const v4 = (app: string, key = ADMIN_KEY) => algoliasearchV4(app, key, { hosts: [{ url: hostOf(app), protocol: 'http' }] });
const v5 = (app: string, key = ADMIN_KEY) => algoliasearch(app, key, { hosts: [{ url: hostOf(app), protocol: 'http', accept: 'readWrite' }] });

/** What an index holds: its records (by objectID), the settings SETTINGS names, its rules and synonyms. */
async function stateOf(app: string, indexName: string) {
  const client = v5(app);
  const records = (await client.browse({ indexName, browseParams: { hitsPerPage: 1000 } })).hits.map(withoutMeta).sort(byObjectID);
  const settings = await client.getSettings({ indexName });
  const rules = (await client.searchRules({ indexName, searchRulesParams: { query: '', hitsPerPage: 100 } })).hits.map(withoutMeta).sort(byObjectID);
  const synonyms = (await client.searchSynonyms({ indexName, searchSynonymsParams: { query: '', hitsPerPage: 100 } })).hits.map(withoutMeta).sort(byObjectID);
  const picked = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, (settings as Record<string, unknown>)[name]]));
  return { records, settings: picked, rules, synonyms };
}

const withoutMeta = (hit: object) => Object.fromEntries(Object.entries(hit).filter(([name]) => !name.startsWith('_')));
const byObjectID = (a: { objectID?: unknown }, b: { objectID?: unknown }) => String(a.objectID).localeCompare(String(b.objectID));

/** The expected state of an index filled by fill(): the same shapes stateOf reads. */
const FILLED = {
  records: [...PRODUCTS].sort(byObjectID),
  settings: SETTINGS,
  rules: [...RULES].sort(byObjectID),
  synonyms: [...SYNONYMS].sort(byObjectID),
};

/** Records, settings, rules and synonyms written to `indexName` of `app`, waited for. */
async function fill(app: string, indexName: string): Promise<void> {
  const index = v4(app).initIndex(indexName);
  await index.setSettings(SETTINGS).wait();
  await index.saveObjects(PRODUCTS).wait();
  await index.saveRules(RULES).wait();
  await index.saveSynonyms(SYNONYMS).wait();
}

async function indexNames(app: string): Promise<string[]> {
  return (await v5(app).listIndices()).items.map((i) => i.name).sort();
}

beforeAll(async () => {
  for (const app of APPS) served.set(app, await startServe(['--memory', '--app-id', app], { LANTERN_ADMIN_KEY: ADMIN_KEY }, 30_000));
  await fill(APPS[0], 'source');
}, 60_000);

afterAll(async () => {
  for (const server of served.values()) await server.stop();
});

describe('v4 helpers', () => {
  const app = APPS[0];

  it('copyIndex copies records, settings, rules and synonyms; waitTask waits for it', async () => {
    await v4(app).copyIndex('source', 'v4_copy').wait();
    expect(await stateOf(app, 'v4_copy')).toEqual(FILLED);
  });

  it('copySettings, copyRules and copySynonyms copy that part alone', async () => {
    const client = v4(app);
    await client.copySettings('source', 'v4_settings').wait();
    await client.copyRules('source', 'v4_rules').wait();
    await client.copySynonyms('source', 'v4_synonyms').wait();
    const empty = { records: [], settings: {}, rules: [], synonyms: [] };
    const unset = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, undefined]));
    expect(await stateOf(app, 'v4_settings')).toEqual({ ...empty, settings: SETTINGS });
    expect(await stateOf(app, 'v4_rules')).toEqual({ ...empty, settings: unset, rules: FILLED.rules });
    expect(await stateOf(app, 'v4_synonyms')).toEqual({ ...empty, settings: unset, synonyms: FILLED.synonyms });
  });

  it('replaceAllObjects (safe) swaps the records through a temporary index, keeping settings, rules and synonyms', async () => {
    await fill(app, 'v4_replaced');
    const replacement = PRODUCTS.slice(0, 3).map((p) => ({ ...p, name: `${p.name} (new)` }));
    const answer = await v4(app).initIndex('v4_replaced').replaceAllObjects(replacement, { safe: true });
    expect(answer.objectIDs).toEqual(['p1', 'p2', 'p3']);
    expect(await stateOf(app, 'v4_replaced')).toEqual({ ...FILLED, records: replacement });
    expect((await indexNames(app)).filter((name) => name.includes('_tmp_'))).toEqual([]);
    // without `safe` each step is sent without waiting for the one before; wait() waits for them all
    const again = PRODUCTS.slice(10, 12);
    await v4(app).initIndex('v4_replaced').replaceAllObjects(again).wait();
    expect(await stateOf(app, 'v4_replaced')).toEqual({ ...FILLED, records: again });
  });

  it('replaceAllRules and replaceAllSynonyms replace the whole set', async () => {
    await fill(app, 'v4_sets');
    const index = v4(app).initIndex('v4_sets');
    const rule = { objectID: 'r-only', conditions: [{ pattern: 'tablet', anchoring: 'is' as const }], consequence: { userData: { tablets: true } } };
    const synonym = { objectID: 's-only', type: 'synonym' as const, synonyms: ['cell', 'phone'] };
    await index.replaceAllRules([rule]).wait();
    await index.replaceAllSynonyms([synonym]).wait();
    expect(await stateOf(app, 'v4_sets')).toEqual({ ...FILLED, rules: [rule], synonyms: [synonym] });
  });

  it('accountCopyIndex copies an index to another application', async () => {
    const source = v4(APPS[0]).initIndex('source');
    const destination = v4(APPS[1]).initIndex('from_a');
    await accountCopyIndex(source, destination).wait();
    expect(await stateOf(APPS[1], 'from_a')).toEqual(FILLED);
    // a second copy to the same index is refused before anything is written
    await expect(accountCopyIndex(source, destination)).rejects.toMatchObject({ name: 'DestinationIndiceAlreadyExistsError' });
  });

  it('accountCopyIndex with a destination key without addObject: the service\'s 400, no record copied', async () => {
    // (a key without editSettings fails at once as well, but the helper leaves its three refused writes unhandled until the end)
    const { key } = await v5(APPS[1]).addApiKey({ acl: ['search', 'browse', 'settings', 'editSettings'] });
    await v5(APPS[1]).waitForApiKey({ key, operation: 'add' });
    const source = v4(APPS[0]).initIndex('source');
    const destination = v4(APPS[1], key).initIndex('refused');
    await expect(accountCopyIndex(source, destination)).rejects.toMatchObject({ status: 400, message: 'Not enough rights to update an object' });
    expect((await stateOf(APPS[1], 'refused')).records).toEqual([]);
  });
});

describe('v5 helpers', () => {
  const app = APPS[0];

  it('replaceAllObjects swaps the records through a temporary index, keeping settings, rules and synonyms', async () => {
    await fill(app, 'v5_replaced');
    const replacement = PRODUCTS.slice(5, 9).map((p) => ({ ...p, price: p.price + 1 }));
    const answer = await v5(app).replaceAllObjects({ indexName: 'v5_replaced', objects: replacement, batchSize: 3 });
    expect(answer.batchResponses.flatMap((b) => b.objectIDs)).toEqual(replacement.map((p) => p.objectID));
    expect(await stateOf(app, 'v5_replaced')).toEqual({ ...FILLED, records: [...replacement].sort(byObjectID) });
    expect((await indexNames(app)).filter((name) => name.includes('_tmp_'))).toEqual([]);
  });

  it('saveObjects, partialUpdateObjects and deleteObjects, each waiting for its tasks', async () => {
    const client = v5(app);
    const saved = await client.saveObjects({ indexName: 'v5_objects', objects: PRODUCTS.map((p) => ({ ...p })), batchSize: 7, waitForTasks: true });
    expect(saved.length).toBe(3);
    const updates = PRODUCTS.slice(0, 4).map((p) => ({ objectID: p.objectID, price: 1 }));
    await client.partialUpdateObjects({ indexName: 'v5_objects', objects: [...updates, { objectID: 'ghost', price: 2 }], createIfNotExists: false, waitForTasks: true });
    await client.deleteObjects({ indexName: 'v5_objects', objectIDs: ['p5', 'p6'], waitForTasks: true });
    const expected = PRODUCTS.filter((p) => !['p5', 'p6'].includes(p.objectID)).map((p) => (updates.some((u) => u.objectID === p.objectID) ? { ...p, price: 1 } : p));
    expect((await stateOf(app, 'v5_objects')).records).toEqual(expected.sort(byObjectID));
  });

  it('waitForTask waits for a write\'s task, waitForAppTask for an application task', async () => {
    const client = v5(app);
    const { taskID } = await client.setSettings({ indexName: 'v5_task', indexSettings: SETTINGS });
    expect(await client.waitForTask({ indexName: 'v5_task', taskID })).toMatchObject({ status: 'published' });
    expect((await stateOf(app, 'v5_task')).settings).toEqual(SETTINGS);
    const dictionary = await client.batchDictionaryEntries({
      dictionaryName: 'stopwords', batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'sw-x', language: 'en', word: 'zzz' } }] },
    });
    expect(await client.waitForAppTask({ taskID: dictionary.taskID })).toMatchObject({ status: 'published' });
  });

  it('waitForApiKey waits for a key to be added, updated and deleted', async () => {
    const client = v5(app);
    const { key } = await client.addApiKey({ acl: ['search'], description: 'helpers' });
    expect(await client.waitForApiKey({ key, operation: 'add' })).toMatchObject({ value: key, acl: ['search'] });
    const apiKey = { acl: ['search', 'browse'] as Array<'search' | 'browse'>, description: 'helpers, updated' };
    await client.updateApiKey({ key, apiKey });
    expect(await client.waitForApiKey({ key, operation: 'update', apiKey })).toMatchObject({ acl: ['search', 'browse'], description: 'helpers, updated' });
    await client.deleteApiKey({ key });
    await client.waitForApiKey({ key, operation: 'delete' });
    await expect(client.getApiKey({ key })).rejects.toMatchObject({ status: 404 });
  });
});
