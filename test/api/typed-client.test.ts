// engine.client() is typed as the official client types its methods
// (client.ts), so it must also take the official client's arguments: every
// call below goes once through the official client (over lanternRequester)
// and once through engine.client(), and the answers must be the same. The
// type assertions are checked by `npm run typecheck` (tsc over test/).
import { algoliasearch } from 'algoliasearch';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import type { LanternClient } from '../../src/api/client.js';
import { lanternRequester } from '../../src/requester.js';
import { ADMIN_KEY, APP_ID, openEngine, readFixture, talksSettings, type OfficialClient } from './helpers.js';

type Talk = { objectID: string; name: string; speakers: string[]; tags: string[]; event_name: string };

let engine: Lantern;
let official: OfficialClient;
let client: LanternClient;
const talks = readFixture<Talk[]>('talks.json').slice(0, 300);
const INDEX = 'talks';

beforeAll(async () => {
  engine = await openEngine();
  official = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) });
  client = engine.client(ADMIN_KEY);
  const { taskID } = await client.setSettings({ indexName: INDEX, indexSettings: talksSettings() as never });
  await client.waitForTask({ indexName: INDEX, taskID });
  await client.saveObjects({ indexName: INDEX, objects: talks, waitForTasks: true });
  await client.saveRule({ indexName: INDEX, objectID: 'r1', rule: { objectID: 'r1', conditions: [{ pattern: 'brain', anchoring: 'contains' }], consequence: { params: { filters: 'tags:science' } } } });
  await client.saveSynonym({ indexName: INDEX, objectID: 's1', synonymHit: { objectID: 's1', type: 'synonym', synonyms: ['happy', 'joyful'] } });
  await engine.waitForTasks();
});

/** An answer without what differs from call to call. */
const stable = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (k, v) => (['processingTimeMS', 'serverTimeMS', 'processingTimingsMS', 'queryID', 'cursor'].includes(k) ? undefined : v)));

describe('engine.client() takes the official client arguments', () => {
  const calls: Array<[string, (c: Pick<LanternClient, 'searchSingleIndex' | 'search' | 'getObject' | 'getObjects' | 'browse' | 'searchForFacetValues' | 'getSettings' | 'listIndices' | 'searchRules' | 'searchSynonyms' | 'getRule' | 'getSynonym' | 'listApiKeys'>) => Promise<unknown>]> = [
    ['searchSingleIndex', (c) => c.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'brian', hitsPerPage: 3, facets: ['tags'] } })],
    ['search', (c) => c.search({ requests: [{ indexName: INDEX, query: 'design', hitsPerPage: 2 }, { indexName: INDEX, query: 'music', page: 1, hitsPerPage: 2 }] })],
    ['getObject', (c) => c.getObject({ indexName: INDEX, objectID: talks[5]!.objectID, attributesToRetrieve: ['name', 'tags'] })],
    ['getObjects', (c) => c.getObjects({ requests: [{ indexName: INDEX, objectID: talks[1]!.objectID }, { indexName: INDEX, objectID: talks[2]!.objectID, attributesToRetrieve: ['name'] }] })],
    ['browse', (c) => c.browse({ indexName: INDEX, browseParams: { query: 'the', hitsPerPage: 5 } })],
    ['searchForFacetValues', (c) => c.searchForFacetValues({ indexName: INDEX, facetName: 'tags', searchForFacetValuesRequest: { facetQuery: 'sci' } })],
    ['getSettings', (c) => c.getSettings({ indexName: INDEX })],
    ['listIndices', (c) => c.listIndices()],
    ['searchRules', (c) => c.searchRules({ indexName: INDEX, searchRulesParams: { query: 'brain' } })],
    ['searchSynonyms', (c) => c.searchSynonyms({ indexName: INDEX, searchSynonymsParams: { query: 'happy' } })],
    ['getRule', (c) => c.getRule({ indexName: INDEX, objectID: 'r1' })],
    ['getSynonym', (c) => c.getSynonym({ indexName: INDEX, objectID: 's1' })],
    ['listApiKeys', (c) => c.listApiKeys()],
  ];
  for (const [name, call] of calls) {
    it(`${name}: the same answer as the official client`, async () => {
      const want = stable(await call(official));
      expect(stable(await call(client))).toEqual(want);
      expect(want).toBeTruthy();
    });
  }

  it('writes with the official arguments: saveObject, partialUpdateObject, deleteObject', async () => {
    const { taskID } = await client.saveObject({ indexName: 'w', body: { objectID: 'a', name: 'first' } });
    await client.waitForTask({ indexName: 'w', taskID });
    const updated = await client.partialUpdateObject({ indexName: 'w', objectID: 'a', attributesToUpdate: { name: 'second' } });
    await client.waitForTask({ indexName: 'w', taskID: updated.taskID! });
    expect(await official.getObject({ indexName: 'w', objectID: 'a' })).toEqual({ objectID: 'a', name: 'second' });
    const deleted = await client.deleteObject({ indexName: 'w', objectID: 'a' });
    await client.waitForTask({ indexName: 'w', taskID: deleted.taskID });
    await expect(official.getObject({ indexName: 'w', objectID: 'a' })).rejects.toThrow();
  });
});

describe('types', () => {
  it('are the official ones: generic hits, no misspelt method or argument', () => {
    // checked by tsc (npm run typecheck); the function is never called
    const typed = async () => {
      const response = await client.searchSingleIndex<Talk>({ indexName: INDEX, searchParams: { query: 'x' } });
      expectTypeOf(response.hits[0]!.speakers).toEqualTypeOf<string[]>();
      expectTypeOf(response.nbHits).toEqualTypeOf<number | undefined>();
      expectTypeOf(client.getTask).parameter(0).toEqualTypeOf<Parameters<OfficialClient['getTask']>[0]>();
      // @ts-expect-error a misspelt method
      await client.searchSingleIndx({ indexName: INDEX });
      // @ts-expect-error a misspelt argument
      await client.searchSingleIndex({ indexNme: INDEX });
      // @ts-expect-error a search parameter of the wrong type
      await client.searchSingleIndex({ indexName: INDEX, searchParams: { hitsPerPage: '5' } });
      // Lantern's own operations are typed too
      const keys = await client.listIndexApiKeys({ indexName: INDEX });
      expectTypeOf(keys.keys).toBeArray();
    };
    expect(typed).toBeTypeOf('function');
  });
});
