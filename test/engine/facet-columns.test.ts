// Facet counts and numeric stats over a search's candidates
// (src/index/facets.ts), read from each candidate's own entries, against the
// same figures computed straight from the records; the first values by count
// against the whole list's head: values repeated within a
// record, nested arrays, booleans, objects, records with no value and gaps
// between ids, candidates past the last record and none at all. A column's
// records come in id order; one out of order is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { FacetColumn, NumericColumn, type FacetCount } from '../../src/index/facets.js';
import { emptyBitmap, setBit, type Bitmap } from '../../src/index/bitmap.js';
import type { SearchRecord } from '../../src/index/records.js';
import { prng } from '../support/random.js';
import { loadCore } from '../../src/core/wasm.js';
import { CoreIndex } from '../../src/core/core-index.js';
import type { KeySorter } from '../../src/index/labelled-order.js';

/** The core's radix sort, as an index hands it to its columns. */
let sortByKeys: KeySorter;
beforeAll(async () => {
  await loadCore();
  const core = new CoreIndex();
  sortByKeys = (ids, high, low) => core.sortByKeys(ids, high, low);
});

const LEAVES = ['red', 'green', 'Red', ' red ', 'blue', 3, 7.5, -2, true, false, { nested: 'no' }];

/** Records with ids 0..count-1, a third of them absent (the gaps a replaced or deleted record leaves). */
function records(count: number, random: () => number): Array<[number, SearchRecord]> {
  const out: Array<[number, SearchRecord]> = [];
  const leaf = () => LEAVES[Math.floor(random() * LEAVES.length)];
  for (let id = 0; id < count; id++) {
    if (random() < 0.33) continue;
    const roll = random();
    const color = roll < 0.15 ? undefined : roll < 0.5 ? leaf() : [leaf(), leaf(), [leaf(), leaf()], leaf()];
    out.push([id, { objectID: `r${id}`, ...(color === undefined ? {} : { color }) }]);
  }
  return out;
}

/** The JSON leaves of a record's value the way a facet reads them: arrays flattened, objects left out. */
function leavesOf(value: unknown): Array<string | number | boolean> {
  if (Array.isArray(value)) return value.flatMap(leavesOf);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? [value] : [];
}

const byCountThenValue = (a: FacetCount, b: FacetCount) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

function candidatesOf(ids: number[], words: number): Bitmap {
  const bitmap = emptyBitmap(words);
  for (const id of ids) setBit(bitmap, id);
  return bitmap;
}

describe('facet counts over candidates', () => {
  it('count, per value, the candidates holding it, each record once', () => {
    const random = prng(11);
    const all = records(3_000, random);
    const column = new FacetColumn(['color'], sortByKeys);
    for (const [id, record] of all) column.add(id, record);
    for (let round = 0; round < 40; round++) {
      const share = [0, 0.001, 0.05, 0.5, 1][round % 5];
      // some candidates past the last record: a bitmap spans every id the core has issued
      const ids = [...all.map(([id]) => id), 3_001, 3_100].filter(() => random() < share);
      const expected = new Map<string, number>();
      for (const [id, record] of all) {
        if (!ids.includes(id)) continue;
        for (const value of new Set(leavesOf(record.color).map(String))) expected.set(value, (expected.get(value) ?? 0) + 1);
      }
      const counted = column.countAmong(candidatesOf(ids, 100));
      expect(new Map(counted.map((c) => [c.value, c.count]))).toEqual(expected);
      expect(counted.length).toBe(expected.size);
      expect(counted).toEqual([...counted].sort(byCountThenValue));
    }
  });

  it('keep the first values by count, ties by value, when asked for fewer than they hold', () => {
    const random = prng(13);
    const column = new FacetColumn(['tag'], sortByKeys);
    // 300 values, their counts from 1 to 12: many values share a count, the cut falls among ties
    for (let id = 0; id < 2_000; id++) {
      const tags = Array.from({ length: 3 }, () => `t${Math.floor(random() * 300)}`);
      column.add(id, { objectID: String(id), tag: tags });
    }
    // 0.01: fewer entries than values, which are listed as met; past that, every value's count read
    for (const share of [0.01, 0.05, 0.5, 1]) {
      const candidates = candidatesOf(Array.from({ length: 2_000 }, (_, id) => id).filter(() => random() < share), 63);
      const all = column.countAmong(candidates);
      for (const max of [1, 7, 10, 100, 299, 300, 1_000]) expect(column.countAmong(candidates, max)).toEqual(all.slice(0, max));
    }
  });

  it('give the min, max, sum and count of the candidates\' numbers, added in record order', () => {
    const random = prng(12);
    const all = records(3_000, random);
    const facet = new FacetColumn(['color'], sortByKeys);
    const numeric = new NumericColumn(['color'], sortByKeys);
    for (const [id, record] of all) {
      facet.add(id, record);
      numeric.add(id, record);
    }
    for (let round = 0; round < 20; round++) {
      const ids = all.map(([id]) => id).filter(() => random() < [0.01, 0.3, 1][round % 3]);
      const numbers = all.filter(([id]) => ids.includes(id)).flatMap(([, record]) => leavesOf(record.color))
        .filter((v) => typeof v !== 'string').map(Number);
      const expected = numbers.length === 0 ? undefined : {
        min: Math.min(...numbers), max: Math.max(...numbers), sum: numbers.reduce((s, n) => s + n, 0), count: numbers.length,
      };
      const candidates = candidatesOf(ids, 100);
      // a facet's own numbers are those a numeric column of the attribute holds
      expect(facet.numbers.statsAmong(candidates)).toEqual(expected);
      expect(numeric.statsAmong(candidates)).toEqual(expected);
    }
  });

  it('mark the records whose values lie in a range, values added after the ordered view included', () => {
    const random = prng(14);
    const column = new NumericColumn(['n'], sortByKeys);
    const held: Array<[number, number]> = [];
    const add = (id: number) => {
      const values = Array.from({ length: Math.floor(random() * 3) }, () => [-0, 0, 1.5, -3, 7, 7, 1e9, -1e-9][Math.floor(random() * 8)] + Math.floor(random() * 20));
      column.add(id, { objectID: String(id), n: values });
      for (const v of values) held.push([id, v]);
    };
    const check = () => {
      for (const [low, high, lowIncluded, highIncluded] of [[-Infinity, 5, true, false], [7, 7, true, true], [0, 0, true, true], [1.5, 12, false, true], [3, Infinity, false, true], [-Infinity, Infinity, true, true], [30, 10, true, true]] as const) {
        const out = emptyBitmap(200);
        column.markRange(out, low, high, lowIncluded, highIncluded);
        const expected = new Set(held.filter(([, v]) => (v > low || (lowIncluded && v === low)) && (v < high || (highIncluded && v === high))).map(([id]) => id));
        const marked = new Set(Array.from({ length: 6_400 }, (_, id) => id).filter((id) => (out[id >>> 5] & (1 << (id & 31))) !== 0));
        expect(marked).toEqual(expected);
      }
    };
    let id = 0;
    for (; id < 3_000; id++) add(id);
    check();
    // a few writes after the view was made: read beside it; then many: the view made again
    for (const burst of [5, 50, 2_000]) {
      for (const end = id + burst; id < end; id++) add(id);
      check();
    }
  });

  it('are empty for no candidates, and for a column with no records', () => {
    const column = new FacetColumn(['color'], sortByKeys);
    expect(column.countAmong(candidatesOf([0, 5, 40], 2))).toEqual([]);
    column.add(3, { objectID: 'a', color: ['x', 'x', 2] });
    expect(column.countAmong(emptyBitmap(2))).toEqual([]);
    expect(new Map(column.countAmong(candidatesOf([3], 2)).map((c) => [c.value, c.count]))).toEqual(new Map([['x', 1], ['2', 1]]));
    expect(column.numbers.statsAmong(candidatesOf([2, 4], 2))).toBeUndefined();
  });

  it('refuse a record added before the last one (its entries would not be a run)', () => {
    const column = new FacetColumn(['color'], sortByKeys);
    column.add(8, { objectID: 'a', color: 'x' });
    column.add(8, { objectID: 'a', color: 'y' });
    expect(() => column.add(7, { objectID: 'b', color: 'z' })).toThrow(/record 7 noted after record 8/);
  });
});
