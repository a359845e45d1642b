// Columns of record values for filtering and faceting, built on first use
// from the live records and kept up to date on every save: per facet value
// the ids of its records, per numeric attribute parallel (id, value) arrays,
// and for both each record's own entries (see record-ranges.ts), which
// counts over a search's candidates read.
import { GeoColumn } from './geo.js';
import { isPlainObject, valuesAt, type SearchRecord } from './records.js';
import { setBit, type Bitmap } from './bitmap.js';
import { RecordRanges } from './record-ranges.js';
import { RecentValues } from '../util/recent.js';
import type { KeySorter } from './labelled-order.js';
import { putSortableKeys } from './number-keys.js';
import { kthSmallest } from '../util/kth-smallest.js';

/** A facet value and how many candidates hold it. */
export interface FacetCount { value: string; count: number }

export interface FacetAttribute {
  name: string;
  path: string[];
  searchable: boolean;
  filterOnly: boolean;
  afterDistinct: boolean;
}

const MODIFIER = /^(searchable|filterOnly|afterDistinct)\((.+)\)$/;

/** Parsed lists by the settings array they came from, with its text (a list changed in place is parsed again). */
const parsedLists = new WeakMap<readonly string[], { text: string; attributes: readonly FacetAttribute[] }>();

/**
 * attributesForFaceting entries: `attr`, `searchable(attr)`, `filterOnly(attr)`, `afterDistinct(...)` (nestable).
 * Every search reads them, so a settings list is parsed once (the result is shared: read-only).
 */
export function facetAttributes(list: readonly string[] | null | undefined): readonly FacetAttribute[] {
  if (!list) return [];
  const text = list.join('\u0000');
  const known = parsedLists.get(list);
  if (known?.text === text) return known.attributes;
  const attributes = Object.freeze(list.map(parseFacetAttribute));
  parsedLists.set(list, { text, attributes });
  return attributes;
}

function parseFacetAttribute(entry: string): FacetAttribute {
  const attribute: FacetAttribute = { name: '', path: [], searchable: false, filterOnly: false, afterDistinct: false };
  let rest = entry.trim();
  for (let m = MODIFIER.exec(rest); m; m = MODIFIER.exec(rest)) {
    attribute[m[1] as 'searchable' | 'filterOnly' | 'afterDistinct'] = true;
    rest = m[2].trim();
  }
  attribute.name = rest;
  attribute.path = rest.split('.');
  return Object.freeze(attribute);
}

const matchingKey = (value: string) => value.trim().toLowerCase();

/** A growable list of record ids (ascending: ids only grow). */
export class IdList {
  ids = new Uint32Array(4);
  length = 0;

  /** `value`: the value's number in its column (see FacetColumn). */
  constructor(readonly value = 0) {}

  /** Appends `id`; false when it is the last id already (a record holding the value twice). */
  push(id: number): boolean {
    if (this.length > 0 && this.ids[this.length - 1] === id) return false;
    if (this.length === this.ids.length) {
      const grown = new Uint32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
    return true;
  }
}

/**
 * Facet values of one attribute: exact value → ids; matching key (case and
 * surrounding spaces ignored) → exact values; per record, the numbers of
 * the values it holds (see countAmong).
 */
export class FacetColumn {
  readonly values = new Map<string, IdList>();
  readonly byLowerCase = new Map<string, string[]>();
  /** The values in the order they were first met: an IdList's `value` is its place here. */
  private readonly names: string[] = [];
  /** Per entry, a value's number: each record's values are a run of entries (see ranges), each value once. */
  private valueNumbers = new Uint32Array(16);
  private entries = 0;
  private readonly ranges = new RecordRanges();

  /** The column's numbers (and booleans, as 1 and 0), for numeric filters and stats on this attribute (see FacetIndex.numeric). */
  readonly numbers: NumericColumn;

  /** `sortByKeys`: the core's radix sort, which orders the numbers for range filters. */
  constructor(readonly path: string[], sortByKeys: KeySorter) {
    this.numbers = new NumericColumn(path, sortByKeys);
  }

  add(id: number, record: SearchRecord): void {
    for (const leaf of facetLeaves(valuesAt(record, this.path), id, this.numbers)) {
      let list = this.values.get(leaf);
      if (!list) {
        list = new IdList(this.names.length);
        this.names.push(leaf);
        this.values.set(leaf, list);
        const key = matchingKey(leaf);
        this.byLowerCase.set(key, [...(this.byLowerCase.get(key) ?? []), leaf]);
      }
      if (list.push(id)) this.appendEntry(id, list.value);
    }
  }

  /**
   * The `max` values most held among `candidates`, with how many of them
   * hold each, most frequent first (ties by value). The candidates' own
   * entries are read, a run of consecutive records at a time, and a
   * FacetCount made for the values that can be among the first `max` only:
   * made for all of a speaker facet's thousands, they cost more than the
   * counting.
   */
  countAmong(candidates: Bitmap, max = Infinity): FacetCount[] {
    const { counts, held } = countScratch(this.names.length);
    const { bounds, length } = this.ranges.runsAmong(candidates);
    const met = entriesIn(bounds, length) < this.names.length
      ? this.countListing(bounds, length, counts, held)
      : this.countThenList(bounds, length, counts, held);
    const least = leastCountAmongFirst(counts, held, met, max);
    const out: FacetCount[] = [];
    for (let i = 0; i < met; i++) {
      const value = held[i];
      const count = counts[value];
      if (count >= least) out.push({ value: this.names[value], count });
      counts[value] = 0;
    }
    return out.sort(byCountThenValue).slice(0, max);
  }

  /**
   * Counts the values of the entries of `runs` in `counts`, listing each
   * in `held` as it is first met; how many. For fewer entries than values
   * (a narrow query over a facet of many values, such as a SKU): reading
   * every value's count would cost more than the counting.
   */
  private countListing(bounds: Uint32Array, runs: number, counts: Uint32Array, held: Uint32Array): number {
    const valueNumbers = this.valueNumbers;
    let met = 0;
    for (let run = 0; run < runs; run++) {
      for (let e = bounds[2 * run], end = bounds[2 * run + 1]; e < end; e++) {
        const value = valueNumbers[e];
        if (counts[value]++ === 0) held[met++] = value;
      }
    }
    return met;
  }

  /** countListing for more entries than values: the entries counted with no test each (a fifth faster), then every value's count read. */
  private countThenList(bounds: Uint32Array, runs: number, counts: Uint32Array, held: Uint32Array): number {
    const valueNumbers = this.valueNumbers;
    for (let run = 0; run < runs; run++) {
      for (let e = bounds[2 * run], end = bounds[2 * run + 1]; e < end; e++) counts[valueNumbers[e]]++;
    }
    let met = 0;
    for (let value = 0; value < this.names.length; value++) if (counts[value] !== 0) held[met++] = value;
    return met;
  }

  private appendEntry(id: number, value: number): void {
    if (this.entries === this.valueNumbers.length) {
      const grown = new Uint32Array(this.entries * 2);
      grown.set(this.valueNumbers);
      this.valueNumbers = grown;
    }
    this.ranges.append(id);
    this.valueNumbers[this.entries++] = value;
  }

  /** Lists of the values equal to `value`, ignoring case and surrounding spaces. */
  matching(value: string): IdList[] {
    return (this.byLowerCase.get(matchingKey(value)) ?? []).map((v) => this.values.get(v)!);
  }
}

/** Numeric values of one attribute as parallel arrays (a record with an array has several entries). */
export class NumericColumn {
  ids = new Uint32Array(16);
  numbers = new Float64Array(16);
  length = 0;
  /**
   * The first entries ordered by value, made at a range query. Entries
   * added since are read in turn beside it until they pass a share of it
   * (see TAIL_SHARE): made again after every write, it cost each filtered
   * search after a write 26-32 ms at 100k records.
   */
  private sorted?: { ids: Uint32Array; numbers: Float64Array };
  /** Each record's entries (a run: records are added in id order). */
  private readonly ranges = new RecordRanges();

  /** `sortByKeys`: the core's radix sort, which orders the values (see number-keys.ts). */
  constructor(readonly path: string[], private readonly sortByKeys: KeySorter) {}

  /** Sets in `out` the bit of each record with a value in [low, high] (bounds optionally excluded). */
  markRange(out: Bitmap, low: number, high: number, lowIncluded = true, highIncluded = true): void {
    const view = this.byValue();
    const from = lowerBound(view.numbers, low, !lowIncluded);
    const to = lowerBound(view.numbers, high, highIncluded);
    for (let i = from; i < to; i++) setBit(out, view.ids[i]);
    for (let e = view.ids.length; e < this.length; e++) {
      const n = this.numbers[e];
      if ((n > low || (lowIncluded && n === low)) && (n < high || (highIncluded && n === high))) setBit(out, this.ids[e]);
    }
  }

  private byValue(): { ids: Uint32Array; numbers: Float64Array } {
    const sorted = this.sorted;
    if (sorted && this.length - sorted.ids.length <= Math.max(TAIL_MIN, sorted.ids.length / TAIL_SHARE)) return sorted;
    this.sorted = orderedByValue(this.ids, this.numbers, this.length, this.sortByKeys);
    return this.sorted;
  }

  add(id: number, record: SearchRecord): void {
    for (const v of valuesAt(record, this.path).flat(Infinity as 1)) {
      if (typeof v === 'number' || typeof v === 'boolean') this.addValue(id, v);
    }
  }

  /** Adds record `id`'s value `v` (a boolean as 1 or 0; a number that is not finite is left out). */
  addValue(id: number, v: number | boolean): void {
    const n = Number(v);
    if (!Number.isFinite(n)) return;
    if (this.length === this.ids.length) this.grow();
    this.ranges.append(id);
    this.ids[this.length] = id;
    this.numbers[this.length++] = n;
  }

  private grow(): void {
    const ids = new Uint32Array(this.length * 2);
    ids.set(this.ids);
    const numbers = new Float64Array(this.length * 2);
    numbers.set(this.numbers);
    this.ids = ids;
    this.numbers = numbers;
  }

  /**
   * min, max, sum and count of the values of the records of `candidates`
   * (each entry once), added in record order as the column holds them;
   * undefined when none has a value.
   */
  statsAmong(candidates: Bitmap): NumericFigures | undefined {
    const numbers = this.numbers;
    let min = Infinity, max = -Infinity, sum = 0, count = 0;
    const { bounds, length } = this.ranges.runsAmong(candidates);
    for (let run = 0; run < length; run++) {
      for (let e = bounds[2 * run], end = bounds[2 * run + 1]; e < end; e++) {
        const n = numbers[e];
        if (n < min) min = n;
        if (n > max) max = n;
        sum += n;
      }
      count += bounds[2 * run + 1] - bounds[2 * run];
    }
    return count === 0 ? undefined : { min, max, sum, count };
  }
}

/** min, max, sum and count of some numbers. */
export interface NumericFigures { min: number; max: number; sum: number; count: number }

/**
 * Counts by value number, all 0 between counts, and the values counted
 * (see FacetColumn.countAmong): one pair for every column, grown to the
 * largest.
 */
let scratch = { counts: new Uint32Array(0), held: new Uint32Array(0) };

function countScratch(values: number): typeof scratch {
  if (scratch.counts.length < values) {
    const size = Math.max(values, scratch.counts.length * 2, 64);
    scratch = { counts: new Uint32Array(size), held: new Uint32Array(size) };
  }
  return scratch;
}

/** The number of entries `runs` runs hold. */
function entriesIn(bounds: Uint32Array, runs: number): number {
  let entries = 0;
  for (let run = 0; run < runs; run++) entries += bounds[2 * run + 1] - bounds[2 * run];
  return entries;
}

/** The `max`-th largest count of the `met` values of `held`, by a selection; 1 when there are `max` or fewer. */
function leastCountAmongFirst(counts: Uint32Array, held: Uint32Array, met: number, max: number): number {
  if (met <= max) return 1;
  const sizes = new Float64Array(met);
  for (let i = 0; i < met; i++) sizes[i] = counts[held[i]];
  return kthSmallest(sizes, met - max + 1);
}

/** Facet values in code-unit order (`sortFacetValuesBy: alpha`, and ties of counts). */
export const byValue = (a: { value: string }, b: { value: string }) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

const byCountThenValue = (a: FacetCount, b: FacetCount) => b.count - a.count || byValue(a, b);

/** Entries added after a numeric column's ordered view that are read in turn beside it: up to an eighth of it, and at least TAIL_MIN. */
const TAIL_SHARE = 8;
const TAIL_MIN = 1024;

/**
 * Entries [0, length) of (ids, numbers) ordered by value, equal values in
 * entry order, by the core's radix sort (`sortByKeys`).
 */
function orderedByValue(ids: Uint32Array, numbers: Float64Array, length: number, sortByKeys: KeySorter): { ids: Uint32Array; numbers: Float64Array } {
  const entries = new Int32Array(length);
  for (let e = 0; e < length; e++) entries[e] = e;
  const high = new Int32Array(length);
  const low = new Int32Array(length);
  putSortableKeys(numbers, length, false, high, low);
  const { order } = sortByKeys(entries, high, low);
  const sorted = { ids: new Uint32Array(length), numbers: new Float64Array(length) };
  for (let i = 0; i < length; i++) {
    sorted.ids[i] = ids[order[i]];
    sorted.numbers[i] = numbers[order[i]];
  }
  return sorted;
}

/** First index whose value is >= x (or > x when `after`). */
function lowerBound(values: Float64Array, x: number, after: boolean): number {
  let lo = 0, hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < x || (after && values[mid] === x)) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * String forms of facet leaves: strings, numbers and booleans, arrays
 * flattened; the numbers and booleans also go to `numbers` as record `id`'s.
 */
function facetLeaves(values: unknown[], id: number, numbers: NumericColumn): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') {
      out.push(String(v));
      numbers.addValue(id, v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (isPlainObject(v)) return;
  };
  values.forEach(walk);
  return out;
}

interface Column { add(id: number, record: SearchRecord): void }

/** Filter atom bitmaps kept between searches (capacity / 8 bytes each: 2 MB for 16 at 1M records). */
const ATOM_BITMAPS = 16;

/** Every column of an index, created on first use, then maintained by `add`. */
export class FacetIndex {
  private readonly facetColumns = new Map<string, FacetColumn>();
  private readonly numericColumns = new Map<string, NumericColumn>();
  private readonly geoColumns = new Map<string, GeoColumn>();

  /** Bitmaps of recent filter atoms; any added record drops them all. */
  private readonly atomBitmaps = new RecentValues<string, Bitmap>(ATOM_BITMAPS);

  /** A declared column being made in idle time, and the record id it reads from next (see buildSome). */
  private building?: { name: string; column: FacetColumn; next: number };

  /**
   * `liveRecords(from)`: the live records from id `from` on, in id order;
   * `sortByKeys`: the core's radix sort, which orders numeric columns.
   */
  constructor(
    private readonly liveRecords: (from?: number) => Iterable<[number, SearchRecord]>,
    private readonly sortByKeys: KeySorter,
  ) {}

  /** Whether the facet column of `attribute` is made (a search reading it reads no record to make it). */
  hasFacet(attribute: string): boolean {
    return this.facetColumns.has(attribute);
  }

  /**
   * A step of making the facet columns of `names` that are missing, `records`
   * records read a step; whether any step is left. A column is used once it
   * has read every record: one saved meanwhile has a larger id, which a later
   * step reads. A search that wants the column before makes it whole at once,
   * and the one under way here is dropped. No column is made while there is
   * no record: made empty, it would be kept up by the import that follows,
   * which costs an import more than making it after (17% at 100k records).
   */
  buildSome(names: readonly string[], records: number): boolean {
    let building = this.building;
    this.building = undefined;
    if (!building || this.facetColumns.has(building.name)) {
      const name = names.find((n) => !this.facetColumns.has(n));
      if (name === undefined) return false;
      building = { name, column: new FacetColumn(name.split('.'), this.sortByKeys), next: 0 };
    }
    let read = 0;
    for (const [id, record] of this.liveRecords(building.next)) {
      if (read === records) {
        building.next = id;
        this.building = building;
        return true;
      }
      building.column.add(id, record);
      read++;
    }
    if (building.next === 0 && read === 0) return false;
    this.facetColumns.set(building.name, building.column);
    return names.some((n) => !this.facetColumns.has(n));
  }

  /**
   * The bitmap of the filter atom `key`, built by `build` unless a recent
   * search built it since the last write: an app refining by a facet value
   * or a range sends the same atoms with every keystroke, and setting the
   * bits of a broad one (a common country, most of a numeric range) took
   * longer than the search itself. Read-only for the caller.
   */
  atomBitmap(key: string, build: () => Bitmap): Bitmap {
    return this.atomBitmaps.get(key, build);
  }

  facet(attribute: string): FacetColumn {
    return this.column(this.facetColumns, attribute, () => new FacetColumn(attribute.split('.'), this.sortByKeys));
  }

  /** The numbers of `attribute`: its facet column's where it has one (kept up by the same walk of each record), else a column of their own. */
  numeric(attribute: string): NumericColumn {
    return this.facetColumns.get(attribute)?.numbers ?? this.column(this.numericColumns, attribute, () => new NumericColumn(attribute.split('.'), this.sortByKeys));
  }

  /** Every record's `_geoloc` points. */
  geo(): GeoColumn {
    return this.column(this.geoColumns, '_geoloc', () => new GeoColumn());
  }

  add(id: number, record: SearchRecord): void {
    this.atomBitmaps.clear();
    for (const c of this.facetColumns.values()) c.add(id, record);
    for (const c of this.numericColumns.values()) c.add(id, record);
    for (const c of this.geoColumns.values()) c.add(id, record);
  }

  private column<C extends Column>(columns: Map<string, C>, attribute: string, create: () => C): C {
    let column = columns.get(attribute);
    if (!column) {
      column = create();
      for (const [id, record] of this.liveRecords()) column.add(id, record);
      columns.set(attribute, column);
    }
    return column;
  }
}
