// Records that tie on every ranking criterion: the service orders them by
// objectID, descending (docs/COMPATIBILITY.md, "Tie order"), whenever and in
// whatever order they were written.
//
// Properties:
// 1. the official v4 client's own integration test: "algolia" finds
//    nicolas-dessaigne before julien-lemoine, saved in the other order;
// 2. records tying on every criterion come by objectID descending, for a
//    query and for the empty query, on a page and across pages;
// 3. replacing a record (saveObject, partialUpdateObject) leaves it where it
//    was among its ties; so does writing the same records in another order;
// 4. the criteria still come first: a tie-break never overrides customRanking.
import { beforeAll, describe, expect, it } from 'vitest';
import { openWithClient, type OfficialClient } from './helpers.js';
import type { Lantern } from '../../src/lantern.js';

let engine: Lantern;
let client: OfficialClient;

beforeAll(async () => {
  ({ engine, client } = await openWithClient());
});

const descending = (ids: string[]) => [...ids].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));

async function save(indexName: string, objects: Array<Record<string, unknown> & { objectID: string }>) {
  await client.saveObjects({ indexName, objects });
  await engine.waitForTasks();
}

async function hitIDs(indexName: string, params: Record<string, unknown>): Promise<string[]> {
  const response = await client.searchSingleIndex({ indexName, searchParams: params });
  return response.hits.map((h) => h.objectID);
}

describe('tie order', () => {
  it('follows the v4 client integration test (saved julien first, nicolas comes first)', async () => {
    await save('founders', [
      { objectID: 'julien-lemoine', company: 'Algolia', name: 'Julien Lemoine' },
      { objectID: 'nicolas-dessaigne', company: 'Algolia', name: 'Nicolas Dessaigne' },
      { objectID: 'jeff', company: 'Amazon', name: 'Jeff Bezos' },
    ]);
    expect(await hitIDs('founders', { query: 'algolia' })).toEqual(['nicolas-dessaigne', 'julien-lemoine']);
  });

  it('orders ties by objectID descending, for a query and the empty query, across pages', async () => {
    // written in a shuffled order: neither insertion order nor its reverse is objectID order
    const ids = ['m', 'c', 'x', 'a', 'q', 'b', 'z', 'k', 'e', 'r', 'd10', 'd9'];
    await save('ties', ids.map((objectID) => ({ objectID, title: 'same words here' })));
    const expected = descending(ids);
    expect(await hitIDs('ties', { query: 'words', hitsPerPage: 100 })).toEqual(expected);
    expect(await hitIDs('ties', { query: '', hitsPerPage: 100 })).toEqual(expected);
    const paged: string[] = [];
    for (let page = 0; page < 3; page++) paged.push(...(await hitIDs('ties', { query: 'same', hitsPerPage: 5, page })));
    expect(paged).toEqual(expected);
  });

  it('keeps a replaced record where it was among its ties', async () => {
    const ids = ['r1', 'r5', 'r3', 'r2', 'r4'];
    await save('replaced', ids.map((objectID) => ({ objectID, title: 'tied record', version: 1 })));
    const before = await hitIDs('replaced', { query: 'tied' });
    expect(before).toEqual(descending(ids));
    await save('replaced', [{ objectID: 'r3', title: 'tied record', version: 2 }, { objectID: 'r5', title: 'tied record', version: 2 }]);
    await client.partialUpdateObject({ indexName: 'replaced', objectID: 'r1', attributesToUpdate: { version: 3 } });
    await engine.waitForTasks();
    expect(await hitIDs('replaced', { query: 'tied' })).toEqual(before);
    expect(await hitIDs('replaced', { query: '' })).toEqual(before);
  });

  it('gives the same order whatever order the same records were written in', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `item-${(i * 7919) % 1000}`);
    await save('forward', ids.map((objectID) => ({ objectID, title: 'common text' })));
    await save('backward', [...ids].reverse().map((objectID) => ({ objectID, title: 'common text' })));
    const forward = await hitIDs('forward', { query: 'common', hitsPerPage: 50, page: 2 });
    expect(forward).toEqual(descending(ids).slice(100, 150));
    expect(await hitIDs('backward', { query: 'common', hitsPerPage: 50, page: 2 })).toEqual(forward);
  });

  it('breaks ties only after customRanking', async () => {
    await client.setSettings({ indexName: 'ranked', indexSettings: { customRanking: ['desc(score)'] } });
    await save('ranked', [
      { objectID: 'a', title: 'thing', score: 1 },
      { objectID: 'b', title: 'thing', score: 2 },
      { objectID: 'c', title: 'thing', score: 1 },
      { objectID: 'd', title: 'thing', score: 2 },
    ]);
    expect(await hitIDs('ranked', { query: 'thing' })).toEqual(['d', 'b', 'c', 'a']);
  });
});
