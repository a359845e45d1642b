// What the first search after an import would do first is done once writes
// pause: the rank orders of the indexes written (IndexCatalog.readyRanks:
// customRanking's and the tie order, sorted whole after an import) and the
// walk's copy of the dictionary trie (assembly/trie-order.ts, made by a
// warming step even where no prefix is warmed). The core's side of the copy
// is in test/core/prefix-cache.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { SearchIndex } from '../../src/index/search-index.js';

afterEach(() => { vi.restoreAllMocks(); });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, 10 s at most; whether it does. */
async function eventually(done: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 10_000 && !done(); waited += 50) await pause(50);
  return done();
}

const records = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ objectID: `r${from + i}`, text: `record number ${from + i}`, views: (from + i) % 97 }));

/** Whether the index's own ranks, for its data as it is, are in its core. */
function ranksReady(engine: Lantern, indexName: string): boolean {
  const index = engine.catalog.index(indexName);
  return index.coreIndex.ranksOwner === index && index.coreIndex.ranksVersion === index.version;
}

describe('the first search after an import', () => {
  it('finds the ranks computed once writes paused, its own and those of a replica searched lately', async () => {
    const engine = await Lantern.open();
    const call = (method: string, path: string, body?: unknown) => engine.request({ method, path, body });
    await call('PUT', '/1/indexes/ranked/settings', { customRanking: ['desc(views)'], replicas: ['by_views_asc'] });
    await call('PUT', '/1/indexes/by_views_asc/settings', { customRanking: ['asc(views)'] });
    const first = async (indexName: string) => ((await call('POST', `/1/indexes/${indexName}/query`, { query: 'record', hitsPerPage: 1 })).body as { hits: Array<{ views: number }> }).hits[0].views;
    await call('POST', '/1/indexes/ranked/batch', { requests: records(200).map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    expect(await first('by_views_asc')).toBe(0);
    // the import, then no search: past a second without one, a write leaves the ranks to the next search (see
    // Engine.applyInSlices), so only the idle work readies them
    await pause(1100);
    await call('POST', '/1/indexes/ranked/batch', { requests: records(3000, 200).map((body) => ({ action: 'addObject', body: { ...body, views: body.views + 1000 } })) });
    await engine.waitForTasks();
    expect(await eventually(() => ranksReady(engine, 'ranked'))).toBe(true);

    const computed = vi.spyOn(SearchIndex.prototype as unknown as { computeRanks(): unknown }, 'computeRanks');
    expect(await first('ranked')).toBe(1096);
    // the replica shares the primary's core: it puts back its own ranks, computed while idle too
    expect(await first('by_views_asc')).toBe(0);
    expect(computed).not.toHaveBeenCalled();
    await engine.close();
  });

  it('has them readied an order a turn: no step sorts two', async () => {
    const engine = await Lantern.open();
    const call = (method: string, path: string, body?: unknown) => engine.request({ method, path, body });
    await call('PUT', '/1/indexes/ranked/settings', { customRanking: ['desc(views)'], attributeForDistinct: 'views', replicas: ['by_views_asc'] });
    await call('PUT', '/1/indexes/by_views_asc/settings', { customRanking: ['asc(views)'] });
    await call('POST', '/1/indexes/by_views_asc/query', { query: '' });
    await pause(1100);
    // turns counted by an immediate a turn
    let turn = 0;
    let counting = true;
    const count = () => { turn++; if (counting) setImmediate(count); };
    setImmediate(count);
    const turns: number[] = [];
    const computeRankSlot = SearchIndex.prototype.computeRankSlot;
    vi.spyOn(SearchIndex.prototype, 'computeRankSlot').mockImplementation(function (this: SearchIndex, k: number) {
      turns.push(turn);
      return computeRankSlot.call(this, k);
    });
    await call('POST', '/1/indexes/ranked/batch', { requests: records(2000).map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    expect(await eventually(() => ranksReady(engine, 'ranked'))).toBe(true);
    counting = false;
    // the primary's customRanking, ties and groups, the replica's customRanking (and a step past each one's last)
    expect(turns.length).toBeGreaterThanOrEqual(6);
    expect(new Set(turns).size).toBe(turns.length);
    await engine.close();
  });

  it('finds the ranks it would compute, not older ones, after writes that came while they were readied', async () => {
    const engine = await Lantern.open();
    const call = (method: string, path: string, body?: unknown) => engine.request({ method, path, body });
    await call('PUT', '/1/indexes/ranked/settings', { customRanking: ['desc(views)'] });
    for (const views of [5, 7]) {
      await call('POST', '/1/indexes/ranked/batch', { requests: records(500, views * 1000).map((body) => ({ action: 'addObject', body: { ...body, views } })) });
      await engine.waitForTasks();
      expect(await eventually(() => ranksReady(engine, 'ranked'))).toBe(true);
    }
    // a write, then a search before writes paused: it folds the write in itself
    await call('POST', '/1/indexes/ranked/batch', { requests: [{ action: 'addObject', body: { objectID: 'top', text: 'record', views: 9 } }] });
    await engine.waitForTasks();
    expect(await call('POST', '/1/indexes/ranked/query', { query: 'record', hitsPerPage: 2, attributesToRetrieve: ['views'] })).toMatchObject({ body: { hits: [{ views: 9 }, { views: 7 }] } });
    await engine.close();
  });

  it("finds the walk's copy of the trie made, in an index whose first search lays out its caches", async () => {
    const engine = await Lantern.open();
    const client = engine.client();
    // 65,536 records or more: no prefix is warmed before a search, as the caches' room is reserved then
    const objects = Array.from({ length: 70_000 }, (_, i) => ({ objectID: String(i), title: `w${i.toString(36)} common` }));
    await client.saveObjects({ indexName: 'large', objects, batchSize: 10_000 });
    await engine.waitForTasks();
    const core = engine.catalog.index('large').coreIndex;
    expect(core.walkCopyCurrent).toBe(false);
    expect(await eventually(() => core.walkCopyCurrent)).toBe(true);
    expect(core.prefixCacheEntries).toBe(0);
    const answer = await client.searchSingleIndex({ indexName: 'large', searchParams: { query: 'w1a' } });
    expect(answer.nbHits).toBe(objects.filter((o) => o.title.startsWith('w1a')).length);
    await engine.close();
  }, 60_000);
});
