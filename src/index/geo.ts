// Geo search: `_geoloc` points per record, filters (around a point with a
// radius, inside boxes, inside polygons) as bitmaps, and the distance
// buckets of the `geo` ranking criterion.
import { badRequest } from '../util/errors.js';
import { emptyBitmap, setBit, type Bitmap } from './bitmap.js';
import { isPlainObject, type SearchRecord } from './records.js';
import type { SearchParams } from './params.js';

const EARTH_RADIUS_M = 6371008.8;
/**
 * Without aroundRadius, the radius reaches the AUTOMATIC_RADIUS_HITS-th
 * closest record (the service sizes it by density), or the farthest one when
 * fewer have a point; at least minimumAroundRadius.
 */
const AUTOMATIC_RADIUS_HITS = 1000;

export interface Point { lat: number; lng: number }

/** Points of every record (a record with several `_geoloc` points has several entries). */
export class GeoColumn {
  ids = new Uint32Array(16);
  lat = new Float64Array(16);
  lng = new Float64Array(16);
  length = 0;

  add(id: number, record: SearchRecord): void {
    const geoloc = record._geoloc;
    for (const p of (Array.isArray(geoloc) ? geoloc : [geoloc]) as unknown[]) {
      if (!isPlainObject(p)) continue;
      const lat = Number(p.lat), lng = Number(p.lng);
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
      if (this.length === this.ids.length) this.grow();
      this.ids[this.length] = id;
      this.lat[this.length] = lat;
      this.lng[this.length++] = lng;
    }
  }

  private grow(): void {
    const n = this.length * 2;
    const ids = new Uint32Array(n); ids.set(this.ids); this.ids = ids;
    const lat = new Float64Array(n); lat.set(this.lat); this.lat = lat;
    const lng = new Float64Array(n); lng.set(this.lng); this.lng = lng;
  }
}

export function distanceMeters(a: Point, lat: number, lng: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat - a.lat) * rad;
  const dLng = (lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
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
  if (Array.isArray(p) && p.every((r) => isPlainObject(r) && Number.isFinite(r.from) && typeof r.value === 'number' && Number.isFinite(r.value) && r.value > 0)) {
    return (p as PrecisionRange[]).map((r) => ({ from: r.from, value: Math.max(MIN_PRECISION, r.value) })).sort((a, b) => a.from - b.from);
  }
  throw badRequest('Invalid value for "aroundPrecision": expected metres or [{from, value}]');
}

/** The distance rounded down to its precision step; with ranges, steps start at each range's `from`, so keys never decrease with distance. */
function bucket(distance: number, precision: number | PrecisionRange[]): { rounded: number; precision: number } {
  if (typeof precision === 'number') return { rounded: Math.floor(distance / precision) * precision, precision };
  const range = [...precision].reverse().find((r) => r.from <= distance) ?? { from: 0, value: precision[0].value };
  return { rounded: range.from + Math.floor((distance - range.from) / range.value) * range.value, precision: range.value };
}

export interface GeoPlan {
  filter: Bitmap;
  /** Per record id: rounded distance (the geo criterion), when searching around a point. */
  ranks?: Int32Array;
  around?: Point;
  info?: Map<number, { distance: number; precision: number; point: Point }>;
  /** The radius computed without aroundRadius, in metres (the answer's `automaticRadius`). */
  automaticRadius?: number;
}

/**
 * The geo part of a query, or undefined when it has none. Boxes win over
 * polygons, both over aroundLatLng. `column` is asked for only when there is
 * one: building it reads every record.
 */
export function planGeo(params: SearchParams, column: () => GeoColumn, capacity: number, words: number): GeoPlan | undefined {
  if (params.insideBoundingBox !== undefined) {
    const boxes = shapes('insideBoundingBox', params.insideBoundingBox, (n) => n === 4);
    return { filter: pointsWhere(column(), words, (lat, lng) => boxes.some((b) => insideBox(b, lat, lng))) };
  }
  if (params.insidePolygon !== undefined) {
    const polygons = shapes('insidePolygon', params.insidePolygon, (n) => n >= 6 && n % 2 === 0);
    return { filter: pointsWhere(column(), words, (lat, lng) => polygons.some((p) => insidePolygon(p, lat, lng))) };
  }
  if (params.aroundLatLng === undefined) return undefined;
  return planAround(params, parseLatLng(params.aroundLatLng), column(), capacity, words);
}

function pointsWhere(column: GeoColumn, words: number, test: (lat: number, lng: number) => boolean): Bitmap {
  const out = emptyBitmap(words);
  for (let i = 0; i < column.length; i++) if (test(column.lat[i], column.lng[i])) setBit(out, column.ids[i]);
  return out;
}

function planAround(params: SearchParams, around: Point, column: GeoColumn, capacity: number, words: number): GeoPlan {
  const nearest = new Float64Array(capacity).fill(Infinity);
  const nearestPoint = new Int32Array(capacity).fill(-1);
  for (let i = 0; i < column.length; i++) {
    const d = distanceMeters(around, column.lat[i], column.lng[i]);
    const id = column.ids[i];
    if (d < nearest[id]) { nearest[id] = d; nearestPoint[id] = i; }
  }
  const radius = radiusOf(params, nearest);
  const precision = precisionOf(params);
  const filter = emptyBitmap(words);
  const ranks = new Int32Array(capacity).fill(0x7fffffff);
  const info = new Map<number, { distance: number; precision: number; point: Point }>();
  for (let id = 0; id < capacity; id++) {
    const d = nearest[id];
    if (!Number.isFinite(d) || d > radius) continue; // records without _geoloc never match a geo query
    setBit(filter, id);
    const b = bucket(d, precision);
    ranks[id] = Math.min(b.rounded, 0x7ffffffe);
    const p = nearestPoint[id];
    info.set(id, { distance: Math.round(d), precision: b.precision, point: { lat: column.lat[p], lng: column.lng[p] } });
  }
  return { filter, ranks, around, info, ...(params.aroundRadius === undefined ? { automaticRadius: radius } : {}) };
}

function radiusOf(params: SearchParams, nearest: Float64Array): number {
  if (params.aroundRadius === 'all') return Infinity;
  const minimum = params.minimumAroundRadius ?? 0;
  if (params.aroundRadius !== undefined) return Number(params.aroundRadius);
  const finite = Array.from(nearest).filter(Number.isFinite).sort((a, b) => a - b);
  const automatic = finite.length > AUTOMATIC_RADIUS_HITS ? finite[AUTOMATIC_RADIUS_HITS - 1] : (finite.at(-1) ?? 0);
  return Math.max(minimum, automatic);
}
