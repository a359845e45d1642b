// The columns a filter may name without a declaration are made once writes
// pause too (FacetIndex.buildSome), in the one pass that makes the declared
// facets': each numeric attribute a record holds a number or boolean at
// (numericAttributesForFiltering's only, when it lists some), `_tags`'s
// and `_geoloc`'s, and every numeric column is ordered by value. Made at
// their first use, each read every record then (0.25-0.5 s at 100k records
// once packed). They hold what columns made at first use hold, with
// attributes first met late, nested ones, arrays of objects, booleans and
// writes between the pass's steps; names past the pass's reach, and an
// attribute holding more than 32 numbers in a record (a vector), are made
// at first use as before.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { SearchIndex } from '../../src/index/search-index.js';
import { FacetIndex, type WantedColumns } from '../../src/index/facets.js';
import { RecordStore } from '../../src/index/record-store.js';
import { andInto, emptyBitmap, setBit, type Bitmap } from '../../src/index/bitmap.js';
import type { SearchRecord } from '../../src/index/records.js';
import { loadCore } from '../../src/core/wasm.js';
import { CoreIndex } from '../../src/core/core-index.js';
import type { KeySorter } from '../../src/index/labelled-order.js';
import { readFixture, talksSettings } from '../support/fixtures.js';

let core: CoreIndex;
beforeAll(async () => {
  await loadCore();
  core = new CoreIndex();
});
/** The core's radix sort, counting its calls. */
function countingSorter(): { sort: KeySorter; calls: () => number } {
  let calls = 0;
  return { sort: (ids, high, low) => { calls++; return core.sortByKeys(ids, high, low); }, calls: () => calls };
}

/** A record of many shapes: numbers top-level, nested, in arrays of objects, booleans, some first met late. */
const shaped = (i: number, version = 0): SearchRecord => ({
  objectID: `r${i}`,
  price: (i * 37 + version) % 1000 - 200,
  ...(i >= 3_000 ? { stock: i % 17 } : {}),
  dims: { w: i % 11, h: i % 5 === 0 ? [1.5, i % 9] : 'tall' },
  variants: [{ cost: i % 23 }, { cost: (i * 3) % 29, label: 'x' }],
  flags: [i % 2 === 0, 3, [i % 4, { x: i % 6 }]],
  ...(i % 7 === 0 ? { on: i % 3 === 0 } : {}),
  'a.b': 7,
  deep: { d2: { d3: { d4: { d5: i % 3 } } } },
  ...(i >= 2_000 && i % 3 === 0 ? { _tags: [`t${i % 5}`, 'all'] } : {}),
  ...(i >= 1_000 && i % 2 === 0 ? { _geoloc: { lat: (i % 170) - 85, lng: (i % 350) - 175 } } : {}),
});

const FOUND = ['price', 'stock', 'dims.w', 'dims.h', 'variants.cost', 'flags', 'flags.x', 'on'];
const EVERY_NUMBER: WantedColumns = { facets: [], numbers: undefined };

/** An index of `count` shaped records and its record store, no column made; `readsFrom` gets where each read of the records begins. */
function indexOf(count: number, sort: KeySorter, readsFrom: number[] = []) {
  const store = new RecordStore();
  const facets = new FacetIndex((from) => {
    readsFrom.push(from ?? 0);
    return store.entries(from);
  }, sort);
  const save = (record: SearchRecord) => {
    if (store.idOf(record.objectID) !== undefined) store.remove(record.objectID);
    facets.add(store.push(record), record);
  };
  for (let i = 0; i < count; i++) save(shaped(i));
  return { store, facets, save };
}

/** Runs the idle steps to the end, with `between` after each; how many there were. */
function buildAll(facets: FacetIndex, wants: WantedColumns, between: (step: number) => void = () => {}): number {
  let steps = 0;
  while (facets.buildSome(wants, 700)) {
    between(++steps);
    expect(steps).toBeLessThan(200);
  }
  return steps;
}

const liveBitmap = (store: RecordStore): Bitmap => {
  const live = emptyBitmap((store.length + 31) >>> 5);
  for (const [id] of store.entries()) setBit(live, id);
  return live;
};
const bits = (bitmap: Bitmap) => Array.from(bitmap);

/** What `facets`' numbers of `path` answer, a column made at first use from the same records answers. */
function expectSameNumbers(facets: FacetIndex, madeAtOnce: FacetIndex, path: string, live: Bitmap): void {
  for (const [low, high] of [[-Infinity, Infinity], [0, 0], [1, 1], [-50, 3], [2.5, 400], [5, -5]]) {
    const ours = emptyBitmap(live.length), theirs = emptyBitmap(live.length);
    facets.numeric(path).markRange(ours, low, high);
    madeAtOnce.numeric(path).markRange(theirs, low, high);
    // a column keeps removed records' entries (searches read it with the live records'): one made now has none
    expect(bits(andInto(ours, live)), `${path} in [${low}, ${high}]`).toEqual(bits(theirs));
  }
  expect(facets.numeric(path).statsAmong(live), path).toEqual(madeAtOnce.numeric(path).statsAmong(live));
}

describe('the columns filters may name undeclared', () => {
  it('are found in one pass and hold what columns made at first use hold, writes between its steps', () => {
    const { store, facets, save } = indexOf(5_000, countingSorter().sort);
    buildAll(facets, EVERY_NUMBER, (step) => {
      save(shaped(5_000 + step));
      save(shaped(step * 10, 1));
      save(shaped(4_900 - step, 2));
      store.remove(`r${step * 10 + 3}`);
    });
    for (const path of FOUND) expect(facets.hasNumeric(path), path).toBe(true);
    // past the pass's reach: a name with a dot (no filter names it), five names deep, the record's id
    for (const path of ['a.b', 'a', 'deep.d2.d3.d4.d5', 'objectID', '_geoloc.lat']) expect(facets.hasNumeric(path), path).toBe(false);
    expect(facets.hasFacet('_tags')).toBe(true);
    expect(facets.hasGeo()).toBe(true);

    // saved once they were made: kept up like any column
    save({ ...shaped(9_999), price: 12_345, stock: 12_345 });
    const live = liveBitmap(store);
    const madeAtOnce = new FacetIndex(() => store.entries(), countingSorter().sort);
    for (const path of [...FOUND, 'deep.d2.d3.d4.d5']) expectSameNumbers(facets, madeAtOnce, path, live);
    const counts = (index: FacetIndex) => new Map(index.facet('_tags').countAmong(live).map((c) => [c.value, c.count]));
    expect(counts(facets)).toEqual(counts(madeAtOnce));
    expect(counts(facets).get('all')).toBeGreaterThan(0);
    // the live records' points (a column keeps removed records' entries, as above)
    const points = (index: FacetIndex) => {
      const geo = index.geo();
      const at = [...Array(geo.length).keys()].filter((e) => store.objectIDOf(geo.ids[e]) !== undefined);
      return at.map((e) => [geo.ids[e], geo.lat[e], geo.lng[e], geo.x[e]]);
    };
    expect(points(facets)).toEqual(points(madeAtOnce));
    expect(facets.geo().length).toBeGreaterThan(1_000);
  });

  it('are ordered by value in idle time: a range filter then sorts nothing', () => {
    const sorter = countingSorter();
    const { facets } = indexOf(3_000, sorter.sort);
    buildAll(facets, { facets: ['dims.w'], numbers: undefined });
    const sorts = sorter.calls();
    // every column of FOUND but stock's (no record holds it yet), dims.w's as the declared facet's numbers
    expect(sorts).toBe(FOUND.length - 1);
    for (const path of FOUND.filter((p) => p !== 'stock')) facets.numeric(path).markRange(emptyBitmap(100), 0, 10);
    expect(sorter.calls()).toBe(sorts);
  });

  it('read only the records saved since, once a pass has read every record, unless the wants change', () => {
    const readsFrom: number[] = [];
    const { store, facets, save } = indexOf(2_500, countingSorter().sort, readsFrom);
    buildAll(facets, EVERY_NUMBER);
    expect(readsFrom[0]).toBe(0);
    expect(facets.hasNumeric('stock')).toBe(false);
    for (let i = 2_500; i < 3_500; i++) save(shaped(i)); // `stock` is first met at 3,000
    save({ objectID: 'late', late: 5 });
    readsFrom.length = 0;
    buildAll(facets, EVERY_NUMBER);
    expect(readsFrom.length).toBeGreaterThan(0);
    expect(Math.min(...readsFrom)).toBe(2_500);
    expect(facets.hasNumeric('stock')).toBe(true);
    expect(facets.hasNumeric('late')).toBe(true);
    const live = liveBitmap(store);
    const madeAtOnce = new FacetIndex(() => store.entries(), countingSorter().sort);
    for (const path of ['stock', 'late', 'price']) expectSameNumbers(facets, madeAtOnce, path, live);

    // nothing saved since: no read; other wants: a pass over every record
    readsFrom.length = 0;
    expect(facets.buildSome(EVERY_NUMBER, 700)).toBe(false);
    expect(readsFrom.filter((from) => from < 3_501)).toEqual([]);
    readsFrom.length = 0;
    buildAll(facets, { facets: [], numbers: new Set(['price']) });
    expect(readsFrom[0]).toBe(0);
  });

  it('are numericAttributesForFiltering\'s only when it lists some, and at most 32 found', () => {
    const listed = indexOf(1_000, countingSorter().sort).facets;
    buildAll(listed, { facets: [], numbers: new Set(['price', 'dims.w']) });
    expect(FOUND.filter((path) => listed.hasNumeric(path))).toEqual(['price', 'dims.w']);

    const store = new RecordStore();
    const many = new FacetIndex((from) => store.entries(from), countingSorter().sort);
    for (let i = 0; i < 500; i++) {
      const record: SearchRecord = { objectID: `m${i}` };
      for (let k = 0; k < 40; k++) record[`n${k}`] = (i * (k + 1)) % 97;
      many.add(store.push(record), record);
    }
    buildAll(many, EVERY_NUMBER);
    const made = Array.from({ length: 40 }, (_, k) => `n${k}`).filter((name) => many.hasNumeric(name));
    expect(made.length).toBe(32);
    // the others are made at their first use, whole
    const live = liveBitmap(store);
    expectSameNumbers(many, new FacetIndex(() => store.entries(), countingSorter().sort), 'n39', live);
  });
  it('are not made for an attribute holding more than 32 numbers in a record (a vector): it is made at first use', () => {
    const store = new RecordStore();
    const facets = new FacetIndex((from) => store.entries(from), countingSorter().sort);
    for (let i = 0; i < 600; i++) {
      // the embeddings grow past 32 numbers from record 300 on
      const record: SearchRecord = { objectID: `v${i}`, price: i % 50, embedding: Array.from({ length: i < 300 ? 8 : 64 }, (_, k) => ((i + k) % 13) / 13) };
      facets.add(store.push(record), record);
    }
    buildAll(facets, EVERY_NUMBER);
    expect(facets.hasNumeric('price')).toBe(true);
    expect(facets.hasNumeric('embedding')).toBe(false);
    // records saved since with short ones: the next pass, reading those only, does not make it from them
    for (let i = 600; i < 700; i++) {
      const record: SearchRecord = { objectID: `v${i}`, price: 1, embedding: [i % 7, 1] };
      facets.add(store.push(record), record);
    }
    buildAll(facets, EVERY_NUMBER);
    expect(facets.hasNumeric('embedding')).toBe(false);
    const live = liveBitmap(store);
    expectSameNumbers(facets, new FacetIndex(() => store.entries(), countingSorter().sort), 'embedding', live);
    expect(facets.numeric('embedding').length).toBe(300 * 8 + 300 * 64 + 100 * 2);
  });
});

/** An engine holding `records` in index `index` with `settings`, imported in one batch. */
async function imported(index: string, settings: Record<string, unknown>, records: SearchRecord[]): Promise<Lantern> {
  const engine = await Lantern.open();
  await engine.request({ method: 'PUT', path: `/1/indexes/${index}/settings`, body: settings });
  await engine.request({ method: 'POST', path: `/1/indexes/${index}/batch`, body: { requests: records.map((body) => ({ action: 'addObject', body })) } });
  await engine.waitForTasks();
  return engine;
}

/** Each query's status, hit count and hits' objectIDs. */
async function answers(engine: Lantern, index: string, queries: Array<Record<string, unknown>>) {
  return Promise.all(queries.map(async (body) => {
    const { status, body: answer } = await engine.request({ method: 'POST', path: `/1/indexes/${index}/query`, body });
    const { nbHits, hits } = answer as { nbHits: number; hits: Array<{ objectID: string }> };
    return { status, nbHits, ids: hits.map((h) => h.objectID) };
  }));
}

/** Waits (10 s at most) for `ready`, as idle work makes what it asks for. */
async function waitFor(ready: () => boolean): Promise<void> {
  for (let waited = 0; waited < 10_000 && !ready(); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('a filter on an undeclared attribute, after an import and a pause', () => {
  const SETTINGS = { searchableAttributes: ['name'], attributesForFaceting: ['color'] };
  const record = (i: number) => ({ objectID: `i${i}`, name: `item ${i}`, color: i % 2 ? 'red' : 'blue', views: (i * 7919) % 10_007, rating: { stars: i % 5 } });
  const FILTERED = [
    { query: 'item', filters: 'views > 5000 AND rating.stars >= 3', hitsPerPage: 5 },
    { query: 'item', tagFilters: ['none'], hitsPerPage: 5 },
    { query: 'item', aroundLatLng: '10, 10', hitsPerPage: 5 },
  ];
  const importItems = () => imported('items', SETTINGS, Array.from({ length: 8_000 }, (_, i) => record(i)));

  it('reads no record and sorts nothing, and answers as columns made by it', async () => {
    const readied = await importItems();
    const facets = readied.catalog.index('items').facets;
    // made, then ordered by value a column a step
    const ready = () => ['views', 'rating.stars'].every((name) => facets.hasNumeric(name) && facets.numeric(name).isOrdered()) && facets.hasGeo();
    await waitFor(ready);
    expect(ready() && facets.hasFacet('_tags')).toBe(true);
    const scans = vi.spyOn(SearchIndex.prototype, 'liveEntries');
    const sorts = vi.spyOn(CoreIndex.prototype, 'sortByKeys');
    const answer = await answers(readied, 'items', FILTERED);
    expect(scans).not.toHaveBeenCalled();
    expect(sorts).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    const atFirstUse = await importItems();
    expect(atFirstUse.catalog.index('items').facets.hasNumeric('views')).toBe(false);
    expect(await answers(atFirstUse, 'items', FILTERED)).toEqual(answer);
    expect(answer[0].nbHits).toBeGreaterThan(0);
    expect(answer[1].nbHits).toBe(0);
    await readied.close();
    await atFirstUse.close();
  });
});

describe('on the TED talks (their own settings, none of their ratings declared)', () => {
  const FILTERED = [
    { query: 'life', filters: 'viewed_count > 1000000 AND fascinating_rating >= 100', hitsPerPage: 10 },
    { query: '', numericFilters: ['funny_rating<50', 'popularity_score>0'], hitsPerPage: 10 },
  ];
  const importTalks = () => imported('talks', talksSettings(), readFixture<SearchRecord[]>('talks.json'));

  it('readies a column per numeric attribute, read by the first filters as made at their first use', async () => {
    const readied = await importTalks();
    const facets = readied.catalog.index('talks').facets;
    const NUMERIC = ['viewed_count', 'fascinating_rating', 'funny_rating', 'popularity_score'];
    const ready = () => NUMERIC.every((name) => facets.hasNumeric(name) && facets.numeric(name).isOrdered());
    await waitFor(ready);
    expect(ready()).toBe(true);
    const scans = vi.spyOn(SearchIndex.prototype, 'liveEntries');
    const answer = await answers(readied, 'talks', FILTERED);
    expect(scans).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    const atFirstUse = await importTalks();
    expect(atFirstUse.catalog.index('talks').facets.hasNumeric('viewed_count')).toBe(false);
    expect(await answers(atFirstUse, 'talks', FILTERED)).toEqual(answer);
    expect(answer.every((a) => a.status === 200 && a.nbHits > 0)).toBe(true);
    await readied.close();
    await atFirstUse.close();
  });
});
