// Columns of record values for filtering and faceting, built on first use
// from the live records and kept up to date on every save: per facet value
// the ids of its records, per numeric attribute parallel (id, value) arrays.
import { GeoColumn } from './geo.js';
import { isPlainObject, valuesAt, type SearchRecord } from './records.js';
import type { Bitmap } from './bitmap.js';
import { RecentValues } from '../util/recent.js';

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

  push(id: number): void {
    if (this.length > 0 && this.ids[this.length - 1] === id) return;
    if (this.length === this.ids.length) {
      const grown = new Uint32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
  }
}

/** Facet values of one attribute: exact value → ids; matching key (case and surrounding spaces ignored) → exact values. */
export class FacetColumn {
  readonly values = new Map<string, IdList>();
  readonly byLowerCase = new Map<string, string[]>();

  constructor(readonly path: string[]) {}

  add(id: number, record: SearchRecord): void {
    for (const leaf of facetLeaves(valuesAt(record, this.path))) {
      let list = this.values.get(leaf);
      if (!list) {
        list = new IdList();
        this.values.set(leaf, list);
        const key = matchingKey(leaf);
        this.byLowerCase.set(key, [...(this.byLowerCase.get(key) ?? []), leaf]);
      }
      list.push(id);
    }
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
  /** The same entries ordered by value, built on first range query after a change. */
  private sorted?: { ids: Uint32Array; numbers: Float64Array };

  constructor(readonly path: string[]) {}

  /** Entries [from, to) of the value-ordered view whose value lies in [low, high] (bounds optionally excluded). */
  range(low: number, high: number, lowIncluded = true, highIncluded = true): { ids: Uint32Array; from: number; to: number } {
    const view = this.byValue();
    const from = lowerBound(view.numbers, low, !lowIncluded);
    const to = lowerBound(view.numbers, high, highIncluded);
    return { ids: view.ids, from, to: Math.max(from, to) };
  }

  private byValue(): { ids: Uint32Array; numbers: Float64Array } {
    if (this.sorted) return this.sorted;
    const order = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) order[i] = i;
    order.sort((a, b) => this.numbers[a] - this.numbers[b]);
    const ids = new Uint32Array(this.length);
    const numbers = new Float64Array(this.length);
    order.forEach((entry, i) => { ids[i] = this.ids[entry]; numbers[i] = this.numbers[entry]; });
    this.sorted = { ids, numbers };
    return this.sorted;
  }

  add(id: number, record: SearchRecord): void {
    for (const v of valuesAt(record, this.path).flat(Infinity as 1)) {
      const n = typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : NaN;
      if (!Number.isFinite(n)) continue;
      if (this.length === this.ids.length) {
        const ids = new Uint32Array(this.length * 2);
        ids.set(this.ids);
        const numbers = new Float64Array(this.length * 2);
        numbers.set(this.numbers);
        this.ids = ids;
        this.numbers = numbers;
      }
      this.ids[this.length] = id;
      this.numbers[this.length++] = n;
      this.sorted = undefined;
    }
  }
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

/** String forms of facet leaves: strings, numbers and booleans, arrays flattened. */
function facetLeaves(values: unknown[]): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
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

  constructor(private readonly liveRecords: () => Iterable<[number, SearchRecord]>) {}

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
    return this.column(this.facetColumns, attribute, () => new FacetColumn(attribute.split('.')));
  }

  numeric(attribute: string): NumericColumn {
    return this.column(this.numericColumns, attribute, () => new NumericColumn(attribute.split('.')));
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
