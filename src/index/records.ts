// Records as JSON objects: reading attribute paths, the partial-update
// operations, and the projection a reader is allowed to see.
import { badRequest } from '../util/errors.js';
import { assignOwn, own, setOwn } from '../util/own-keys.js';
import { RecentValues } from '../util/recent.js';
import { shallowCopy } from '../util/shallow-copy.js';
import { unstorable } from './storable.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A record of an index: a JSON object with its objectID. */
export type SearchRecord = { objectID: string; [key: string]: Json };

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `v` is one of `values` (a body's enumerated field, narrowed to the names it may hold). */
export function isOneOf<T extends string>(values: readonly T[], v: unknown): v is T {
  return (values as readonly unknown[]).includes(v);
}

/** Every value at `path`, flattening arrays met on the way (a.b over [{b:1},{b:2}] gives 1, 2). */
export function valuesAt(value: unknown, path: readonly string[], from = 0): unknown[] {
  if (from === path.length) return value === undefined ? [] : [value];
  if (Array.isArray(value)) return value.flatMap((v) => valuesAt(v, path, from));
  if (!isPlainObject(value)) return [];
  return valuesAt(own(value, path[from]), path, from + 1);
}

/** Top-level names that are not numeric attributes of their own: the record's id, tags, points and vectors. */
const NOT_NUMERIC_ATTRIBUTES: ReadonlySet<string> = new Set(['objectID', '_tags', '_geoloc', '_vectors']);

/**
 * Every number and boolean of a record, with the dotted path of names it
 * sits at (arrays add none), each path's in the order valuesAt meets them:
 * what a numeric column of that path holds. Names with a dot in them, or
 * empty, are not descended: a filter's name reaches none (it is split at
 * each dot). Nothing deeper than `maxNames` names is visited.
 */
export function numberLeaves(record: SearchRecord, visit: (path: string, value: number | boolean) => void, maxNames: number): void {
  const walk = (v: unknown, path: string, names: number): void => {
    if (typeof v === 'number' || typeof v === 'boolean') visit(path, v);
    else if (Array.isArray(v)) for (const item of v) walk(item, path, names);
    else if (isPlainObject(v) && names < maxNames) {
      for (const key of Object.keys(v)) if (key !== '' && !key.includes('.')) walk(v[key], `${path}.${key}`, names + 1);
    }
  };
  for (const key of Object.keys(record)) {
    if (key !== '' && !key.includes('.') && !NOT_NUMERIC_ATTRIBUTES.has(key)) walk(record[key], key, 1);
  }
}

/** Text leaves of a value: strings and numbers, in document order (arrays: one entry per element). */
export function textLeaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) textLeaves(v, out);
  else if (isPlainObject(value)) for (const v of Object.values(value)) textLeaves(v, out);
  return out;
}

/**
 * Every text leaf of a record (objectID and _vectors excluded) with the dotted path of
 * names it sits at (arrays add none), in document order. The leaves are met
 * where they are, not looked up by their path again: a name may hold dots,
 * or be empty.
 */
export function pathLeaves(record: Record<string, unknown>, visit: (path: string, text: string) => void): void {
  const walk = (v: unknown, path: string) => {
    if (typeof v === 'string') visit(path, v);
    else if (typeof v === 'number') visit(path, String(v));
    else if (Array.isArray(v)) for (const x of v) walk(x, path);
    else if (isPlainObject(v)) for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  for (const [k, v] of Object.entries(record)) if (k !== 'objectID' && k !== '_vectors') walk(v, k);
}

export function newObjectID(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Checks a record body and returns it with its objectID set: the body
 * itself when it holds that objectID as a string, else a copy (the call
 * log shows the body as it was sent); `position`: its place in a batch,
 * which names it in errors when it has no objectID.
 */
export function asRecord(body: unknown, objectID?: string, position?: number): SearchRecord {
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: a record must be a JSON object');
  const given = objectID ?? body.objectID ?? undefined; // null: none given
  if (given !== undefined && typeof given !== 'string' && typeof given !== 'number') throw badRequest('objectID must be a string');
  // a body already holding the objectID as a string is the record (the engine's own: a request's
  // body is read into a copy of its own); another is copied, so a log keeps the body as it came
  const record = (typeof given === 'string' && body.objectID === given ? body : { ...body, objectID: String(given ?? newObjectID()) }) as SearchRecord;
  checkStorable(record, given, position);
  return record;
}

/** Refuses a record (or a partial update of one) a snapshot could not hold exactly, naming it by objectID, else by position. */
function checkStorable(body: Record<string, unknown>, objectID: string | number | undefined, position: number | undefined): void {
  const problem = unstorable(body);
  if (problem === undefined) return;
  const name = objectID !== undefined ? `Record ${JSON.stringify(String(objectID))}` : position !== undefined ? `The record at requests[${position}]` : 'The record';
  throw badRequest(`${name} cannot be stored: ${problem}`);
}

const OPERATIONS = ['Increment', 'Decrement', 'Add', 'Remove', 'AddUnique', 'IncrementFrom', 'IncrementSet'];

function isOperation(v: unknown): v is { _operation: string; value: Json } {
  return isPlainObject(v) && typeof v._operation === 'string';
}

/** Validates a partial update body before it is queued (bad input never reaches the data). */
export function checkPartial(body: unknown, objectID?: string): asserts body is Record<string, Json> {
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: a partial update must be a JSON object');
  checkStorable(body, objectID, undefined);
  for (const [attr, v] of Object.entries(body)) {
    if (!isOperation(v)) continue;
    if (!OPERATIONS.includes(v._operation)) throw badRequest(`Unknown _operation "${v._operation}" on "${attr}"`);
    if (['Increment', 'Decrement', 'IncrementFrom', 'IncrementSet'].includes(v._operation) && typeof v.value !== 'number') {
      throw badRequest(`_operation ${v._operation} on "${attr}" needs a numeric value`);
    }
  }
}

function applyOperation(current: Json | undefined, op: string, value: Json): Json {
  const list = Array.isArray(current) ? current : current === undefined || current === null ? [] : [current];
  const num = typeof current === 'number' ? current : 0;
  switch (op) {
    case 'Increment': return finiteSum(num, value as number);
    case 'Decrement': return finiteSum(num, -(value as number));
    case 'IncrementFrom': return typeof current === 'number' && current === value ? num + 1 : (current ?? 0);
    case 'IncrementSet': return typeof current === 'number' ? current + 1 : (value as number);
    case 'Add': return [...list, value];
    case 'Remove': return list.filter((x) => x !== value);
    case 'AddUnique': return list.includes(value) ? list : [...list, value];
  }
  return value;
}

/**
 * `a + b`, or `a` where the sum overflows to ±Infinity: a snapshot could not
 * hold it, and the write was accepted already (the sum depends on the record
 * as it is when the write is applied).
 */
function finiteSum(a: number, b: number): number {
  const sum = a + b;
  return Number.isFinite(sum) ? sum : a;
}

/** The record after a partial update: first-level attributes replaced or operated on. */
export function applyPartial(base: SearchRecord, body: Record<string, Json>): SearchRecord {
  const next: SearchRecord = { ...base };
  for (const [attr, v] of Object.entries(body)) {
    if (attr === 'objectID') continue;
    setOwn(next, attr, isOperation(v) ? applyOperation(own(base, attr) as Json | undefined, v._operation, v.value) : v);
  }
  return next;
}

/** Which attributes of a record a reader gets, worked out once for many records (see project). */
export interface Projection {
  all: boolean;
  included: string[][];
  removed: string[][];
  /** Set when the projection is top-level names only, nothing removed: read by name, no paths walked. */
  names?: string[];
}

/**
 * `attributesToRetrieve` (`*`, names, nested paths, `-attr` exclusions) and
 * the attributes the reader may not see, as paths.
 */
export function projection(toRetrieve: string[] | null | undefined, hidden: string[] = []): Projection {
  if (!toRetrieve?.length && hidden.length === 0) return EVERY_ATTRIBUTE; // the default: no key to make nor look up
  return projections.get(JSON.stringify([toRetrieve ?? null, hidden]), () => deepFrozen(projectionOf(toRetrieve, hidden)));
}

/** Projections made lately (every search makes one, from the same few attribute lists), frozen: shared by their readers. */
const projections = new RecentValues<string, Projection>(256);

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFrozen(item);
    Object.freeze(value);
  }
  return value;
}

/** The projection of every attribute, nothing hidden. */
const EVERY_ATTRIBUTE = deepFrozen(projectionOf(null, []));

function projectionOf(toRetrieve: string[] | null | undefined, hidden: string[]): Projection {
  const wanted = toRetrieve && toRetrieve.length > 0 ? toRetrieve : ['*'];
  const included = wanted.filter((a) => !a.startsWith('-'));
  const excluded = new Set(wanted.filter((a) => a.startsWith('-')).map((a) => a.slice(1)));
  const all = included.includes('*');
  const paths = included.map((a) => a.split('.'));
  const removed = [...excluded, ...hidden].map((a) => a.split('.'));
  const names = !all && removed.length === 0 && paths.every((p) => p.length === 1) ? paths.map((p) => p[0]) : undefined;
  return { all, included: paths, removed, ...(names ? { names } : {}) };
}

/**
 * The attributes of a record a reader gets (see projection); objectID
 * always; then `added`'s (a hit's highlights): copied in with the record
 * when it is retrieved whole (see shallowCopy), stored to the projection
 * otherwise (attributes to retrieve, unretrievable ones, vectors hidden).
 */
export function project(record: SearchRecord, p: Projection, added?: object): SearchRecord {
  // the whole record: its copy holds objectID where the record does. Storing it again cost as much as the
  // copy: records with their keys in other orders have other shapes, and a store to one of thousands of
  // shapes misses V8's caches (TED's 2,356 talks have ~1,800 key orders)
  if (p.all && p.removed.length === 0) return shallowCopy(record, added);
  let out: Record<string, Json> = {};
  if (p.all) out = shallowCopy(record);
  else if (p.names) out = pick(record, p.names);
  else for (const path of p.included) copyPath(record, out, path, 0);
  for (const path of p.removed) removePath(out, path, 0);
  out.objectID = record.objectID;
  if (added !== undefined) assignOwn(out, added);
  return out as SearchRecord;
}

/** The named top-level attributes. */
function pick(record: SearchRecord, names: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const name of names) if (Object.hasOwn(record, name)) setOwn(out, name, record[name]);
  return out;
}

function copyPath(from: Record<string, Json>, to: Record<string, Json>, path: string[], at: number): void {
  const head = path[at];
  if (!Object.hasOwn(from, head)) return;
  const value = from[head];
  if (at === path.length - 1) { setOwn(to, head, value); return; }
  if (!isPlainObject(value)) return;
  const copied = own(to, head);
  const target = isPlainObject(copied) ? (copied as Record<string, Json>) : {};
  copyPath(value as Record<string, Json>, target, path, at + 1);
  if (Object.keys(target).length > 0) setOwn(to, head, target);
}

function removePath(obj: Record<string, Json>, path: string[], at: number): void {
  const head = path[at];
  if (at === path.length - 1) { delete obj[head]; return; }
  const inner = own(obj, head);
  if (isPlainObject(inner)) {
    const copy = { ...(inner as Record<string, Json>) };
    removePath(copy, path, at + 1);
    setOwn(obj, head, copy);
  }
}
