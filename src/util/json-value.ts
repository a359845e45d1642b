// The JSON value of an in-process caller's data, as a copy of its own: what
// JSON.stringify then JSON.parse would give (toJSON applied; undefined,
// functions and symbols left out of objects and written as null in arrays;
// Number, String and Boolean objects as their values), without the text.
// A call made in process then crosses the same border as one over HTTP: the
// engine keeps nothing the caller still holds (a record's array the caller
// changed after the call changed the stored record and its index entries,
// not the log, so a restart answered otherwise) and hands out nothing it
// holds (a hit's array the caller changed was the stored record's).
//
// Two departures from JSON, both for a clearer refusal than JSON's silent
// rewriting: numbers that are not finite are kept (JSON writes null; the
// check of what a snapshot can hold refuses them and says why, see
// index/storable.ts), and so are lone surrogates (JSON keeps them too).
//
// Written out rather than JSON.parse(JSON.stringify(value)): the TED talks'
// 2,356 records took 41 ms that way, 4.5 ms copied value by value.
import { setOwn } from './own-keys.js';

/** JSON.stringify's words for a BigInt. */
const NO_BIGINT = 'Do not know how to serialize a BigInt';

/** The value cannot be written as JSON (a BigInt), or nests past the levels allowed (a cycle does: see holdsItself). */
export class NotJsonError extends Error {
  constructor(message: string, readonly tooDeep = false) {
    super(message);
  }
}

/**
 * A copy of `value` holding its JSON value, nesting `levels` levels of
 * arrays and objects at most (past them, or in a cycle, a NotJsonError).
 */
export function jsonValueOf(value: unknown, levels: number): unknown {
  return copyOf(value, '', levels);
}

/** `key`: the value's name or index in its parent, what toJSON is given (JSON.stringify's rule). */
function copyOf(value: unknown, key: string | number, levels: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'bigint') throw new NotJsonError(NO_BIGINT);
    return value;
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON !== 'function') return copyOfResolved(value, levels);
  const resolved: unknown = toJSON.call(value, String(key));
  return leftOut(resolved) ? undefined : copyOfResolved(resolved, levels);
}

/** A value whose toJSON, if any, was called (JSON.stringify calls it once, not on what it returns). */
function copyOfResolved(value: unknown, levels: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'bigint') throw new NotJsonError(NO_BIGINT);
    return value;
  }
  if (levels === 0) throw new NotJsonError('it nests arrays and objects too deeply', true);
  if (Array.isArray(value)) return copyOfArray(value, levels - 1);
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  return copyOfObject(value as Record<string, unknown>, levels - 1);
}

/** A native copy (slice), its containers then copied in turn and what JSON leaves out written as null (a hole too). */
function copyOfArray(array: unknown[], levels: number): unknown[] {
  const out = array.slice();
  for (let i = 0; i < out.length; i++) {
    const value = out[i];
    if (typeof value !== 'object' || value === null) {
      if (leftOut(value)) out[i] = null;
      else if (typeof value === 'bigint') throw new NotJsonError(NO_BIGINT);
      continue;
    }
    const copied = copyOf(value, i, levels);
    out[i] = copied === undefined ? null : copied;
  }
  return out;
}

/**
 * A spread copy (it keeps the object's shape, where one built key by key
 * took a shape of its own, and reading the copies cost twice as much), its
 * containers then copied in turn, and what JSON leaves out deleted.
 */
function copyOfObject(object: Record<string, unknown>, levels: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...object };
  const keys = Object.keys(out);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = out[key];
    if (typeof value !== 'object' || value === null) {
      if (leftOut(value)) delete out[key];
      else if (typeof value === 'bigint') throw new NotJsonError(NO_BIGINT);
      continue;
    }
    const copied = copyOf(value, key, levels);
    if (copied === undefined) delete out[key];
    else setOwn(out, key, copied);
  }
  // the spread copies symbol keys too, which JSON leaves out
  for (const symbol of Object.getOwnPropertySymbols(out)) delete out[symbol as unknown as string];
  return out;
}

/** Whether `value` holds itself (a cycle, which JSON cannot write), looked for once a copy went too deep. */
export function holdsItself(value: unknown, ancestors: object[] = []): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (ancestors.includes(value)) return true;
  ancestors.push(value);
  for (const item of Object.values(value)) if (holdsItself(item, ancestors)) return true;
  ancestors.pop();
  return false;
}

/** What JSON leaves out of an object (and writes as null in an array). */
const leftOut = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';
