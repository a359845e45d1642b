// Columns of record values for filtering and faceting, built in idle time
// or at first use from the live records and kept up to date on every save: per facet value
// the ids of its records, per numeric attribute parallel (id, value) arrays,
// and for both each record's own entries (see record-ranges.ts), which
// counts over a search's candidates read.
import { GeoColumn } from './geo.js';
import { isPlainObject, numberLeaves, valuesAt, type SearchRecord } from './records.js';
import { own } from '../util/own-keys.js';
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

  /** Whether a range filter finds the entries ordered by value, with a tail short enough to read beside them (see markRange). */
  isOrdered(): boolean {
    const sorted = this.sorted;
    if (sorted === undefined) return this.length === 0;
    return this.length - sorted.ids.length <= Math.max(TAIL_MIN, sorted.ids.length / TAIL_SHARE);
  }

  /** Orders every entry by value now (in idle time: the first range filter then finds it done, see FacetIndex.buildSome). */
  orderByValue(): void {
    this.sorted = orderedByValue(this.ids, this.numbers, this.length, this.sortByKeys);
  }

  private byValue(): { ids: Uint32Array; numbers: Float64Array } {
    if (!this.isOrdered() || this.sorted === undefined) this.orderByValue();
    return this.sorted!;
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

/**
 * The columns made in idle time (see FacetIndex.buildSome): the declared
 * facets', and those a filter may name with no declaration: `_tags`'s,
 * `_geoloc`'s and each numeric attribute's. Made at a search's first use,
 * each read every record then: 0.25-0.5 s at 100k records once they were
 * packed.
 */
export interface WantedColumns {
  /** The declared facets' attributes (attributesForFaceting). */
  facets: readonly string[];
  /** The attributes numeric filters may name (numericAttributesForFiltering); undefined: every one a record holds a number at. */
  numbers: ReadonlySet<string> | undefined;
}

/** What a pass is making: its columns, the records it reads from (`from`) and next, and the numeric attributes it wants none of. */
interface ColumnPass {
  key: string;
  from: number;
  next: number;
  facets: Map<string, FacetColumn>;
  numbers: Map<string, FoundNumbers>;
  skipped: Set<string>;
  geo: GeoColumn | undefined;
}

/** A numeric column a pass makes, and how many values the record it read last holds (see addFound). */
interface FoundNumbers { column: NumericColumn; record: number; inRecord: number }

/** The wants as a key: passes under other wants say nothing of what these find. */
const wantsKey = (wants: WantedColumns) => JSON.stringify([wants.facets, wants.numbers === undefined ? null : [...wants.numbers]]);

/**
 * Numeric attributes a pass finds a column for, at most: records holding
 * numbers under ever new names (a map of prices by SKU) make the others
 * at their first use, as before.
 */
const MAX_FOUND_NUMBERS = 32;
/** Names deep a pass looks for numbers (`a.b.c.d`): deeper ones are made at their first use. */
const MAX_NUMBER_NAMES = 4;
/** Numbers an attribute holds in one record, at most, for a pass to make its column (see addFound). */
const MAX_VALUES_IN_RECORD = 32;

/** Filter atom bitmaps kept between searches (capacity / 8 bytes each: 2 MB for 16 at 1M records). */
const ATOM_BITMAPS = 16;

/** Every column of an index, created on first use, then maintained by `add`. */
export class FacetIndex {
  private readonly facetColumns = new Map<string, FacetColumn>();
  private readonly numericColumns = new Map<string, NumericColumn>();
  private readonly geoColumns = new Map<string, GeoColumn>();

  /** Bitmaps of recent filter atoms; any added record drops them all. */
  private readonly atomBitmaps = new RecentValues<string, Bitmap>(ATOM_BITMAPS);

  /** The pass making columns in idle time, under way (see buildSome). */
  private pass?: ColumnPass;
  /** The wants (see wantsKey) under which complete passes have read every record below `upTo`. */
  private readThrough?: { key: string; upTo: number };
  /** Set once a pass found more numeric attributes than MAX_FOUND_NUMBERS: the others are made at first use. */
  private foundTooMany = false;
  /** Numeric attributes a pass met with more than MAX_VALUES_IN_RECORD numbers in a record: made at first use only. */
  private readonly tooManyValues = new Set<string>();

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

  /** Whether `attribute`'s numbers are a column made (its facet column's, or one of their own). */
  hasNumeric(attribute: string): boolean {
    return this.facetColumns.has(attribute) || this.numericColumns.has(attribute);
  }

  /** Whether the records' `_geoloc` points are a column made. */
  hasGeo(): boolean {
    return this.geoColumns.has('_geoloc');
  }

  /**
   * A step of making, in idle time, the columns a search may want that are
   * missing (see WantedColumns), `records` records read a step, and of
   * ordering their numbers by value, a column a step (before a pass
   * begins: writes between steps begin new ones); whether any step is
   * left. One pass over the records makes them all: a numeric attribute,
   * `_tags` or `_geoloc` first met at a record has a column from there (no
   * record before holds one). Once a pass has read every record, the next
   * reads only the records saved since, unless the wants changed. A
   * column is used once the pass has read every record: one saved
   * meanwhile has a larger id, which a later step reads. A search that
   * wants a column before makes it whole at once, and the pass's is left
   * unused. No column is made while there is no record: made empty, it
   * would be kept up by the import that follows, which costs an import more
   * than making it after (17% at 100k records).
   */
  buildSome(wants: WantedColumns, records: number): boolean {
    const unordered = this.pass === undefined ? this.needsOrder() : undefined;
    if (unordered !== undefined) {
      unordered.orderByValue();
      return true;
    }
    const pass = this.passFor(wants);
    if (pass === undefined) return false;
    let read = 0;
    for (const [id, record] of this.liveRecords(pass.next)) {
      if (read === records) {
        pass.next = id;
        this.pass = pass;
        return true;
      }
      this.readInto(pass, wants, id, record);
      pass.next = id + 1;
      read++;
    }
    if (pass.from === 0 && pass.next === 0) return false; // no record yet
    this.adopt(pass);
    return this.needsOrder() !== undefined;
  }

  /** The pass to go on with: the one under way while the wants are the same, else a new one where one is due. */
  private passFor(wants: WantedColumns): ColumnPass | undefined {
    const key = wantsKey(wants);
    const missing = wants.facets.filter((name) => !this.facetColumns.has(name));
    const underWay = this.pass;
    this.pass = undefined;
    if (underWay?.key === key && (underWay.from === 0 || missing.length === 0)) return underWay;
    const readThrough = this.readThrough?.key === key && missing.length === 0 ? this.readThrough.upTo : 0;
    const pass: ColumnPass = { key, from: readThrough, next: readThrough, facets: new Map(), numbers: new Map(), skipped: new Set(), geo: undefined };
    for (const name of missing) pass.facets.set(name, new FacetColumn(name.split('.'), this.sortByKeys));
    // a pass from where the last one ended finds what the records saved since hold; none when there are none
    return pass.from === 0 || this.liveRecords(pass.from)[Symbol.iterator]().next().done !== true ? pass : undefined;
  }

  /** Adds record `id` to the pass's columns, and makes those of what it holds first (see buildSome). */
  private readInto(pass: ColumnPass, wants: WantedColumns, id: number, record: SearchRecord): void {
    if (own(record, '_tags') !== undefined && !this.facetColumns.has('_tags') && !pass.facets.has('_tags')) {
      pass.facets.set('_tags', new FacetColumn(['_tags'], this.sortByKeys));
    }
    for (const column of pass.facets.values()) column.add(id, record);
    if (own(record, '_geoloc') !== undefined && !this.geoColumns.has('_geoloc')) (pass.geo ??= new GeoColumn()).add(id, record);
    if (!this.foundTooMany) numberLeaves(record, (path, value) => this.addFound(pass, wants, path, id, value), MAX_NUMBER_NAMES);
  }

  /**
   * Adds record `id`'s number `value` at `path` to the pass's column of it,
   * made at its first number where the wants want one. An attribute holding
   * more than MAX_VALUES_IN_RECORD numbers in a record (a vector, a series)
   * has none: its column would hold a value per number, and is made at its
   * first use only.
   */
  private addFound(pass: ColumnPass, wants: WantedColumns, path: string, id: number, value: number | boolean): void {
    const found = pass.numbers.get(path) ?? (pass.skipped.has(path) ? undefined : this.foundAt(pass, wants, path));
    if (found === undefined) return;
    if (found.record !== id) {
      found.record = id;
      found.inRecord = 0;
    }
    if (++found.inRecord > MAX_VALUES_IN_RECORD) {
      pass.numbers.delete(path);
      pass.skipped.add(path);
      this.tooManyValues.add(path);
      return;
    }
    found.column.addValue(id, value);
  }

  /** The pass's new column of numeric attribute `path`; undefined where it wants none. */
  private foundAt(pass: ColumnPass, wants: WantedColumns, path: string): FoundNumbers | undefined {
    if ((wants.numbers !== undefined && !wants.numbers.has(path)) || this.hasNumeric(path) || pass.facets.has(path) || this.tooManyValues.has(path)) {
      pass.skipped.add(path);
      return undefined;
    }
    if (this.numericColumns.size + pass.numbers.size >= MAX_FOUND_NUMBERS) {
      this.foundTooMany = true;
      pass.skipped.add(path);
      return undefined;
    }
    const found = { column: new NumericColumn(path.split('.'), this.sortByKeys), record: -1, inRecord: 0 };
    pass.numbers.set(path, found);
    return found;
  }

  /** Takes a finished pass's columns, where no search made them meanwhile. */
  private adopt(pass: ColumnPass): void {
    for (const [name, column] of pass.facets) if (!this.facetColumns.has(name)) this.facetColumns.set(name, column);
    for (const [name, { column }] of pass.numbers) if (!this.hasNumeric(name)) this.numericColumns.set(name, column);
    if (pass.geo !== undefined && !this.geoColumns.has('_geoloc')) this.geoColumns.set('_geoloc', pass.geo);
    // a pass over every record met no `_tags` or `_geoloc`: their columns are empty until a record brings some
    if (pass.from === 0 && !this.facetColumns.has('_tags')) this.facetColumns.set('_tags', new FacetColumn(['_tags'], this.sortByKeys));
    if (pass.from === 0 && !this.geoColumns.has('_geoloc')) this.geoColumns.set('_geoloc', new GeoColumn());
    this.readThrough = { key: pass.key, upTo: pass.next };
  }

  /** A column of numbers whose order by value is missing or stale (see NumericColumn.orderByValue). */
  private needsOrder(): NumericColumn | undefined {
    for (const column of this.facetColumns.values()) if (!column.numbers.isOrdered()) return column.numbers;
    for (const column of this.numericColumns.values()) if (!column.isOrdered()) return column;
    return undefined;
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
