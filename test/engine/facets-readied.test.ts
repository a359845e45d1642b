// The columns of the facets an index declares are made once writes pause
// (SearchIndex.buildFacetColumnsSome, FacetIndex.buildSome), a slice of
// records a step, so that the first faceted search reads no record to make
// them: they answer as columns made at that search would, a column made over
// several steps holds what was saved, replaced and deleted between them, and
// an index loaded from a snapshot has its columns made again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import { SearchIndex } from '../../src/index/search-index.js';
import { FacetIndex } from '../../src/index/facets.js';
import { RecordStore } from '../../src/index/record-store.js';
import { emptyBitmap, setBit } from '../../src/index/bitmap.js';
import type { SearchRecord } from '../../src/index/records.js';
import { loadCore } from '../../src/core/wasm.js';
import { CoreIndex } from '../../src/core/core-index.js';
import type { KeySorter } from '../../src/index/labelled-order.js';

/** The core's radix sort, as an index hands it to its facet index. */
let sortByKeys: KeySorter;
beforeAll(async () => {
  await loadCore();
  const core = new CoreIndex();
  sortByKeys = (ids, high, low) => core.sortByKeys(ids, high, low);
});

afterEach(() => { vi.restoreAllMocks(); });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, 10 s at most; whether it does. */
async function eventually(done: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 10_000 && !done(); waited += 50) await pause(50);
  return done();
}

const COLORS = ['red', 'green', 'blue', 'Red'];
const item = (i: number, version = 0): SearchRecord => ({
  objectID: `i${i}`,
  name: `item ${i}`,
  color: i % 7 === 0 ? [COLORS[i % 4], COLORS[(i + version) % 4], COLORS[i % 4]] : COLORS[(i + version) % 4],
  size: i % 5 === 0 ? [i % 13, true] : i % 13,
  secret: `s${i % 3}`,
});

const SETTINGS = { searchableAttributes: ['name'], attributesForFaceting: ['color', 'size', 'filterOnly(secret)'] };
const FACETED = { query: 'item', facets: ['color', 'size'], filters: 'secret:s1 AND size > 2', hitsPerPage: 0 };

async function importedEngine(count: number): Promise<Lantern> {
  const engine = await Lantern.open();
  await engine.request({ method: 'PUT', path: '/1/indexes/items/settings', body: SETTINGS });
  // past the quiet time: an empty index has no column made (the import would keep it up)
  await pause(300);
  expect(engine.catalog.index('items').facets.hasFacet('color')).toBe(false);
  await engine.request({ method: 'POST', path: '/1/indexes/items/batch', body: { requests: Array.from({ length: count }, (_, i) => ({ action: 'addObject', body: item(i) })) } });
  await engine.waitForTasks();
  return engine;
}

const facetsOf = async (engine: Lantern) => {
  const { body } = await engine.request({ method: 'POST', path: '/1/indexes/items/query', body: FACETED });
  const { facets, facets_stats: stats, nbHits } = body as Record<string, unknown>;
  return { facets, stats, nbHits };
};

describe('the declared facets\' columns', () => {
  it('are made once writes pause, so the first faceted search reads no record, and answer as columns made by it', async () => {
    const readied = await importedEngine(10_000);
    const index = readied.catalog.index('items');
    expect(await eventually(() => ['color', 'size', 'secret'].every((name) => index.facets.hasFacet(name)))).toBe(true);
    const scans = vi.spyOn(SearchIndex.prototype, 'liveEntries');
    const answer = await facetsOf(readied);
    expect(scans).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    // the same records, the columns made by the first faceted search (before writes have paused)
    const atFirstUse = await importedEngine(10_000);
    expect(atFirstUse.catalog.index('items').facets.hasFacet('color')).toBe(false);
    expect(await facetsOf(atFirstUse)).toEqual(answer);
    expect((answer.facets as Record<string, Record<string, number>>).color.red).toBeGreaterThan(0);
    await readied.close();
    await atFirstUse.close();
  });

  it('are made again once an index is loaded from a snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-facets-readied-'));
    const engine = await Lantern.open({ storage: fsStorage(dir) });
    await engine.request({ method: 'PUT', path: '/1/indexes/items/settings', body: SETTINGS });
    await engine.request({ method: 'POST', path: '/1/indexes/items/batch', body: { requests: Array.from({ length: 6_000 }, (_, i) => ({ action: 'addObject', body: item(i) })) } });
    await engine.waitForTasks();
    const before = await facetsOf(engine);
    await engine.snapshot();
    await engine.close();

    const reopened = await Lantern.open({ storage: fsStorage(dir) });
    const index = reopened.catalog.index('items');
    expect(await eventually(() => ['color', 'size', 'secret'].every((name) => index.facets.hasFacet(name)))).toBe(true);
    const scans = vi.spyOn(SearchIndex.prototype, 'liveEntries');
    expect(await facetsOf(reopened)).toEqual(before);
    expect(scans).not.toHaveBeenCalled();
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hold what was saved, replaced and deleted between the steps that made them', () => {
    const store = new RecordStore();
    const facets = new FacetIndex((from) => store.entries(from), sortByKeys);
    const save = (record: SearchRecord) => {
      if (store.idOf(record.objectID) !== undefined) store.remove(record.objectID);
      facets.add(store.push(record), record);
    };
    for (let i = 0; i < 5_000; i++) save(item(i));
    const names = ['color', 'size'];
    let steps = 0;
    while (facets.buildSome({ facets: names, numbers: undefined }, 700)) {
      steps++;
      // between steps: new records, new versions of records read already and of records not read yet, deletions
      save(item(5_000 + steps));
      save(item(steps * 10, 1));
      save(item(4_900 - steps, 2));
      store.remove(`i${steps * 10 + 3}`);
      expect(steps).toBeLessThan(100);
    }
    // one pass makes both columns, 700 records a step over 5,000 and more
    expect(steps).toBeGreaterThan(7);
    expect(names.every((name) => facets.hasFacet(name))).toBe(true);

    const live = [...store.entries()];
    const candidates = emptyBitmap((store.length + 31) >>> 5);
    for (const [id] of live) setBit(candidates, id);
    const madeAtOnce = new FacetIndex(() => store.entries(), sortByKeys);
    for (const name of names) {
      const counted = new Map(facets.facet(name).countAmong(candidates).map((c) => [c.value, c.count]));
      expect(counted).toEqual(new Map(madeAtOnce.facet(name).countAmong(candidates).map((c) => [c.value, c.count])));
      expect(facets.numeric(name).statsAmong(candidates)).toEqual(madeAtOnce.numeric(name).statsAmong(candidates));
    }
    // the records saved once the columns were made are counted too
    save({ objectID: 'late', name: 'late', color: 'violet', size: 99 });
    setBit(candidates, store.idOf('late')!);
    expect(facets.facet('color').countAmong(candidates).find((c) => c.value === 'violet')?.count).toBe(1);
  });

  it('give way to a search that wants one before they are made', () => {
    const store = new RecordStore();
    const facets = new FacetIndex((from) => store.entries(from), sortByKeys);
    for (let i = 0; i < 3_000; i++) facets.add(store.push(item(i)), item(i));
    const wants = { facets: ['color'], numbers: new Set<string>() };
    expect(facets.buildSome(wants, 1_000)).toBe(true);
    const made = facets.facet('color');
    // the pass goes on for what else it may find (here nothing), and keeps the column the search made
    let steps = 0;
    while (facets.buildSome(wants, 1_000)) expect(++steps).toBeLessThan(5);
    expect(facets.facet('color')).toBe(made);
  });
});
