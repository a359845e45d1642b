// Geo search: `_geoloc` points per record, filters (around a point with a
// radius, inside boxes, inside polygons) as bitmaps, and the distance
// buckets of the `geo` ranking criterion.
import { badRequest } from '../util/errors.js';
import { emptyBitmap, setBit, type Bitmap } from './bitmap.js';
import { isPlainObject, type SearchRecord } from './records.js';
import { kthSmallest } from '../util/kth-smallest.js';
import type { SearchParams } from './params.js';

const EARTH_RADIUS_M = 6371008.8;
/**
 * Without aroundRadius, the radius reaches the AUTOMATIC_RADIUS_HITS-th
 * closest record (the service sizes it by density), or the farthest one when
 * fewer have a point; at least minimumAroundRadius.
 */
const AUTOMATIC_RADIUS_HITS = 1000;

export interface Point { lat: number; lng: number }

/**
 * Points of every record (a record with several `_geoloc` points has
 * several entries), each also as its place on the unit sphere (x, y, z): a
 * search around a point compares the chords between places, with no
 * trigonometry per point (see planAround).
 */
export class GeoColumn {
  ids = new Uint32Array(16);
  lat = new Float64Array(16);
  lng = new Float64Array(16);
  x = new Float64Array(16);
  y = new Float64Array(16);
  z = new Float64Array(16);
  length = 0;

  add(id: number, record: SearchRecord): void {
    const geoloc = record._geoloc;
    for (const p of (Array.isArray(geoloc) ? geoloc : [geoloc]) as unknown[]) {
      if (!isPlainObject(p)) continue;
      const lat = Number(p.lat), lng = Number(p.lng);
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
      if (this.length === this.ids.length) this.grow();
      const [x, y, z] = onSphere(lat, lng);
      this.ids[this.length] = id;
      this.lat[this.length] = lat;
      this.lng[this.length] = lng;
      this.x[this.length] = x;
      this.y[this.length] = y;
      this.z[this.length++] = z;
    }
  }

  private grow(): void {
    const n = this.length * 2;
    const ids = new Uint32Array(n); ids.set(this.ids); this.ids = ids;
    const grown = (a: Float64Array) => { const b = new Float64Array(n); b.set(a); return b; };
    this.lat = grown(this.lat);
    this.lng = grown(this.lng);
    this.x = grown(this.x);
    this.y = grown(this.y);
    this.z = grown(this.z);
  }
}

/** A point's place on the unit sphere. */
function onSphere(lat: number, lng: number): [number, number, number] {
  const rad = Math.PI / 180;
  const cosLat = Math.cos(lat * rad);
  return [cosLat * Math.cos(lng * rad), cosLat * Math.sin(lng * rad), Math.sin(lat * rad)];
}

/**
 * The distance in metres along the Earth between two places whose chord on
 * the unit sphere has the square `chord`: the haversine formula's, whose
 * term h is chord / 4 (precise for near points too, unlike a dot product).
 */
const metresOfChord = (chord: number) => 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(chord) / 2));

/** The square chord of `metres` along the Earth: Infinity from half its circumference on (every place), -1 below 0 (none). */
function chordOfMetres(metres: number): number {
  if (metres < 0) return -1;
  if (metres >= Math.PI * EARTH_RADIUS_M) return Infinity;
  const chord = 2 * Math.sin(metres / (2 * EARTH_RADIUS_M));
  return chord * chord;
}

function numbers(name: string, value: unknown): number[] {
  const list = typeof value === 'string' ? value.split(',').map((x) => x.trim()) : value;
  if (!Array.isArray(list)) throw badRequest(`Invalid value for "${name}"`);
  const out = list.map(Number);
  if (out.some((n) => !Number.isFinite(n))) throw badRequest(`Invalid value for "${name}": expected numbers`);
  return out;
}

export function parseLatLng(value: string): Point {
  const [lat, lng, ...rest] = numbers('aroundLatLng', value);
  if (rest.length || lat === undefined || lng === undefined || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    throw badRequest(`Invalid value for "aroundLatLng": expected "lat,lng", got "${value}"`);
  }
  return { lat, lng };
}

/** Boxes or polygons: an array of flat coordinate arrays, or one flat list (string or array). */
function shapes(name: string, value: unknown, size: (n: number) => boolean): number[][] {
  const raw = typeof value === 'string' ? [numbers(name, value)]
    : Array.isArray(value) && value.every((v) => typeof v === 'number') ? [value as number[]]
    : Array.isArray(value) ? value.map((v) => numbers(name, v))
    : undefined;
  if (!raw || raw.some((s) => !size(s.length))) throw badRequest(`Invalid value for "${name}"`);
  return raw;
}

function insideBox(box: number[], lat: number, lng: number): boolean {
  const [lat1, lng1, lat2, lng2] = box;
  const inLat = lat >= Math.min(lat1, lat2) && lat <= Math.max(lat1, lat2);
  // a box whose first longitude exceeds the second crosses the antimeridian
  const inLng = lng1 <= lng2 ? lng >= lng1 && lng <= lng2 : lng >= lng1 || lng <= lng2;
  return inLat && inLng;
}

function insidePolygon(polygon: number[], lat: number, lng: number): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 2; i < polygon.length; j = i, i += 2) {
    const [yi, xi, yj, xj] = [polygon[i], polygon[i + 1], polygon[j], polygon[j + 1]];
    if ((yi > lat) !== (yj > lat) && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

interface PrecisionRange { from: number; value: number }

/** aroundPrecision below 10 metres counts as 10 (compatibility.md, geo). */
const MIN_PRECISION = 10;

function precisionOf(params: SearchParams): number | PrecisionRange[] {
  const p = params.aroundPrecision;
  if (p === undefined) return 10;
  if (typeof p === 'number' || (typeof p === 'string' && /^\d+$/.test(p))) return Math.max(MIN_PRECISION, Number(p));
  if (Array.isArray(p) && p.length > 0 && p.every((r) => isPlainObject(r) && Number.isFinite(r.from) && typeof r.value === 'number' && Number.isFinite(r.value) && r.value > 0)) {
    return (p as PrecisionRange[]).map((r) => ({ from: r.from, value: Math.max(MIN_PRECISION, r.value) })).sort((a, b) => a.from - b.from);
  }
  throw badRequest('Invalid value for "aroundPrecision": expected metres or a non-empty [{from, value}]');
}

/** The precision step of `distance`: with ranges, the last range starting at or before it (the first range's value before any). */
function stepAt(distance: number, precision: number | PrecisionRange[]): PrecisionRange {
  if (typeof precision === 'number') return { from: 0, value: precision };
  for (let i = precision.length - 1; i >= 0; i--) if (precision[i].from <= distance) return precision[i];
  return { from: 0, value: precision[0].value };
}

/** The distance rounded down to its precision step; with ranges, steps start at each range's `from`, so keys never decrease with distance. */
function rounded(distance: number, precision: number | PrecisionRange[]): number {
  if (typeof precision === 'number') return Math.floor(distance / precision) * precision;
  const step = stepAt(distance, precision);
  return step.from + Math.floor((distance - step.from) / step.value) * step.value;
}

/** What `_rankingInfo` tells of a hit found around a point: its distance, the precision step, its nearest point. */
export interface AroundInfo { distance: number; precision: number; point: Point }

/**
 * The around-a-point figures of the records within reach, made for the
 * hits asked (a page's): made for every record in reach, they cost more
 * than the search (`aroundRadius: "all"` over 135k cities).
 */
class AroundInfos {
  constructor(
    private readonly nearest: Float64Array,
    private readonly nearestPoint: Int32Array,
    private readonly reach: number,
    private readonly precision: number | PrecisionRange[],
    private readonly column: GeoColumn,
  ) {}

  get(id: number): AroundInfo | undefined {
    const chord = this.nearest[id];
    if (!within(chord, this.reach)) return undefined;
    const distance = metresOfChord(chord);
    const p = this.nearestPoint[id];
    return { distance: Math.round(distance), precision: stepAt(distance, this.precision).value, point: { lat: this.column.lat[p], lng: this.column.lng[p] } };
  }
}

export interface GeoPlan {
  filter: Bitmap;
  /** Per record id: rounded distance (the geo criterion), when searching around a point. */
  ranks?: Int32Array;
  around?: Point;
  info?: { get(id: number): AroundInfo | undefined };
  /** The radius computed without aroundRadius, in metres (the answer's `automaticRadius`). */
  automaticRadius?: number;
}

/**
 * The geo part of a query, or undefined when it has none. Boxes win over
 * polygons, both over aroundLatLng. `column` is asked for only when there is
 * one: building it reads every record.
 */
export function planGeo(params: SearchParams, column: () => GeoColumn, capacity: number, words: number, isLive: (id: number) => boolean): GeoPlan | undefined {
  if (params.insideBoundingBox !== undefined) {
    const boxes = shapes('insideBoundingBox', params.insideBoundingBox, (n) => n === 4);
    return { filter: pointsWhere(column(), words, (lat, lng) => boxes.some((b) => insideBox(b, lat, lng))) };
  }
  if (params.insidePolygon !== undefined) {
    const polygons = shapes('insidePolygon', params.insidePolygon, (n) => n >= 6 && n % 2 === 0);
    return { filter: pointsWhere(column(), words, (lat, lng) => polygons.some((p) => insidePolygon(p, lat, lng))) };
  }
  if (params.aroundLatLng === undefined) return undefined;
  return planAround(params, parseLatLng(params.aroundLatLng), column(), capacity, words, isLive);
}

function pointsWhere(column: GeoColumn, words: number, test: (lat: number, lng: number) => boolean): Bitmap {
  const out = emptyBitmap(words);
  for (let i = 0; i < column.length; i++) if (test(column.lat[i], column.lng[i])) setBit(out, column.ids[i]);
  return out;
}

/**
 * Around a point: per record, the square chord to its nearest point
 * (`nearest`, Infinity without one), the records within reach, and their
 * distances rounded to the precision as the `geo` criterion's ranks. Only
 * the records within reach have their distance computed: the chords order
 * the rest as the distances would (computing every point's distance took
 * most of an answer around a point among 135k cities).
 */
function planAround(params: SearchParams, around: Point, column: GeoColumn, capacity: number, words: number, isLive: (id: number) => boolean): GeoPlan {
  const [ax, ay, az] = onSphere(around.lat, around.lng);
  const nearest = new Float64Array(capacity).fill(Infinity);
  const nearestPoint = new Int32Array(capacity).fill(-1);
  const { x, y, z, ids } = column;
  for (let i = 0; i < column.length; i++) {
    const dx = x[i] - ax, dy = y[i] - ay, dz = z[i] - az;
    const chord = dx * dx + dy * dy + dz * dz;
    const id = ids[i];
    if (chord < nearest[id]) { nearest[id] = chord; nearestPoint[id] = i; }
  }
  const reach = reachOf(params, nearest, isLive);
  const precision = precisionOf(params);
  const filter = emptyBitmap(words);
  const ranks = new Int32Array(capacity).fill(0x7fffffff);
  for (let id = 0; id < capacity; id++) {
    const chord = nearest[id];
    if (!within(chord, reach.chord)) continue;
    setBit(filter, id);
    ranks[id] = Math.min(rounded(metresOfChord(chord), precision), 0x7ffffffe);
  }
  const info = new AroundInfos(nearest, nearestPoint, reach.chord, precision, column);
  return { filter, ranks, around, info, ...(params.aroundRadius === undefined ? { automaticRadius: reach.metres } : {}) };
}

/** Whether a record whose nearest point is at square chord `chord` is within `reach` (a record without _geoloc, at Infinity, never is: not even within "all"). */
const within = (chord: number, reach: number) => chord !== Infinity && chord <= reach;

/**
 * How far a search around a point reaches, in metres and as a square
 * chord: aroundRadius, or else the AUTOMATIC_RADIUS_HITS-th nearest live
 * record's distance (its chord exactly: that record is within), at least
 * minimumAroundRadius.
 */
function reachOf(params: SearchParams, nearest: Float64Array, isLive: (id: number) => boolean): { metres: number; chord: number } {
  if (params.aroundRadius === 'all') return { metres: Infinity, chord: Infinity };
  if (params.aroundRadius !== undefined) {
    const metres = Number(params.aroundRadius);
    return { metres, chord: chordOfMetres(metres) };
  }
  const chord = nearestLiveChord(nearest, AUTOMATIC_RADIUS_HITS, isLive);
  const minimum = params.minimumAroundRadius ?? 0;
  const metres = metresOfChord(chord);
  return minimum > metres ? { metres: minimum, chord: chordOfMetres(minimum) } : { metres, chord };
}

/**
 * The square chord of the `k`-th nearest live record (of the farthest
 * when fewer are; 0 when none). The column keeps the points of records
 * removed since it was made, so liveness is checked, but for the nearest
 * only (checking every record's doubled a search among 135k cities): the
 * k-th smallest chord of all, then of more while removed records are
 * among those below it.
 */
function nearestLiveChord(nearest: Float64Array, k: number, isLive: (id: number) => boolean): number {
  const all = new Float64Array(nearest.length);
  let count = 0;
  for (let id = 0; id < nearest.length; id++) if (nearest[id] !== Infinity) all[count++] = nearest[id];
  for (let take = Math.min(k, count); take > 0;) {
    const bound = kthSmallest(all.subarray(0, count), take);
    const live: number[] = [];
    for (let id = 0; id < nearest.length; id++) if (nearest[id] <= bound && isLive(id)) live.push(nearest[id]);
    if (live.length >= k) return kthSmallest(Float64Array.from(live), k);
    if (take === count) return live.reduce((a, b) => Math.max(a, b), 0);
    take = Math.min(count, take + k - live.length);
  }
  return 0;
}
