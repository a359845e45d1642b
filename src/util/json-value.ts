// The JSON value of an in-process caller's data, as a copy of its own: what
// JSON.stringify then JSON.parse would give (toJSON applied; undefined,
// functions and symbols left out of objects and written as null in arrays;
// Number, String and Boolean objects of this realm as their values),
// without the text.
// A call made in process then crosses the same border as one over HTTP: the
// engine keeps nothing the caller still holds (a record's array the caller
// changed after the call changed the stored record and its index entries,
// not the log, so a restart answered otherwise) and hands out nothing it
// holds (a hit's array the caller changed was the stored record's).
//
// One departure from JSON, for a clearer refusal than JSON's silent
// rewriting: numbers that are not finite are kept (JSON writes null; the
// check of what a snapshot can hold refuses them and says why, see
// index/storable.ts). Lone surrogates are kept, as JSON keeps them. And a
// received value's symbol keys are left in its copy, unread (see
// dropSymbolKeys): an answer's copy, as JSON, leaves them out.
//
// Written out rather than JSON.parse(JSON.stringify(value)): the TED talks'
// 2,356 records took 41 ms that way, 4.5 ms copied value by value.
//
// An answer's copy (answerValueOf) hands over a page of hits the engine made
// for that answer alone and marked so (see madeForAnswer): each hit as
// itself, its members copied in place, its highlights and snippets as they
// are. A page of highlighted hits is mostly such values: copying the
// highlights of ten TED talks (their tags' leaves) was a sixth of an
// in-process search's time. The rest of the answer is copied.
import { setOwn } from './own-keys.js';

/** JSON.stringify's words for a BigInt. */
const NO_BIGINT = 'Do not know how to serialize a BigInt';

/**
 * Values (array items and object members) a copy takes at most: more than
 * a body the HTTP server accepts (16 MiB) can hold, and a bound on what a
 * sparse array (one item at index 2^32 - 2) would make JSON write.
 */
export const MAX_VALUES = 1 << 24;

/** The value cannot be written as JSON (a BigInt), holds too much, or nests past the levels allowed (a cycle does: see holdsItself). */
export class NotJsonError extends Error {
  constructor(message: string, readonly tooDeep = false) {
    super(message);
  }
}

/** Values the copy under way may still take (see MAX_VALUES). */
let room = 0;

/** Whether the copy under way hands over as they are the values made for an answer alone (see answerValueOf). */
let honoursMarks = false;

/**
 * Lists the engine made for one answer alone (a page of hits), with the
 * members made whole for it of each item: every item is an object made
 * for the answer alone too, but its members may be values the engine
 * holds (a hit: its record's arrays), except those named (a hit's
 * highlights and snippets), which the copy hands over as they are. One
 * mark a page, not one an object: adding to a weak collection cost
 * ~0.25 µs, three marks a hit a hundredth of an answer. Weak: an
 * answer's values go with it.
 */
const madeLists = new WeakMap<object, ReadonlyArray<ReadonlySet<string>>>();

/**
 * Marks `list` as made for one answer alone, `made[i]` naming the members
 * of its item i made whole for it (see madeLists): the copy for the caller
 * copies only the rest. Only for values that the engine keeps nowhere
 * but in that answer (which the call log reads once, on a later turn),
 * each placed once in it (the caller may change what it gets); the
 * members made whole must be JSON's own already (plain objects and
 * arrays, strings, finite numbers, booleans, null).
 */
export function madeForAnswer<T extends object[]>(list: T, made: ReadonlyArray<ReadonlySet<string>>): T {
  madeLists.set(list, made);
  return list;
}

/**
 * A copy of `value` holding its JSON value, nesting `levels` levels of
 * arrays and objects at most (past them, or in a cycle, a NotJsonError).
 */
export function jsonValueOf(value: unknown, levels: number): unknown {
  return copyOfRoot(value, levels, false);
}

/**
 * An answer as the caller gets it: jsonValueOf's copy, but for what the
 * engine made for the answer alone (see madeForAnswer), handed over.
 */
export function answerValueOf(value: unknown, levels: number): unknown {
  return copyOfRoot(value, levels, true);
}

/** A copy of `value` (see jsonValueOf), handing over the values made for an answer alone if `marks`. */
function copyOfRoot(value: unknown, levels: number, marks: boolean): unknown {
  room = MAX_VALUES;
  honoursMarks = marks;
  try {
    return copyOf(value, '', levels);
  } finally {
    honoursMarks = false;
  }
}

/** `key`: the value's name or index in its parent, what toJSON is given (JSON.stringify's rule). */
function copyOf(value: unknown, key: string | number, levels: number): unknown {
  // a primitive's toJSON is its prototype's: a BigInt's, where an application gives it one, as JSON honours it
  const toJSON = value === null || value === undefined ? undefined : (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON !== 'function') return copyOfResolved(value, levels);
  const resolved: unknown = toJSON.call(value, String(key));
  return leftOut(resolved) ? undefined : copyOfResolved(resolved, levels);
}

/** A value whose toJSON, if any, was called (JSON.stringify calls it once, not on what it returns). */
function copyOfResolved(value: unknown, levels: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'bigint') throw new NotJsonError(NO_BIGINT);
    return value === 0 ? 0 : value; // -0 as JSON writes it
  }
  const below = levelBelow(levels);
  if (Array.isArray(value)) return copyOfArray(value, below);
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  return copyOfObject(value as Record<string, unknown>, below);
}

/** The levels left inside an array or object met with `levels` left; none left: a NotJsonError. */
function levelBelow(levels: number): number {
  if (levels === 0) throw new NotJsonError('it nests arrays and objects too deeply', true);
  return levels - 1;
}

/**
 * Counts `values` against the copy's room. An array's length counts
 * before anything is made of it: its holes are written as null.
 */
function take(values: number): void {
  room -= values;
  if (room < 0) throw new NotJsonError(`it holds more than ${MAX_VALUES} values`);
}

/**
 * Item by item into a new array (not slice: it would make the array an
 * Array subclass's species gives); the items of a list made for the
 * answer (see madeLists) are handed over, copied in place.
 */
function copyOfArray(array: unknown[], levels: number): unknown[] {
  take(array.length);
  const made = honoursMarks ? madeLists.get(array) : undefined;
  const out: unknown[] = honoursMarks ? answerArray() : [];
  for (let i = 0; i < array.length; i++) {
    const value = array[i];
    const copied = made !== undefined ? copyOfMade(value as Record<string, unknown>, made[i], levels) : typeof value === 'object' && value !== null ? copyOf(value, i, levels) : leafOf(value, i, levels);
    out.push(copied === undefined ? null : copied);
  }
  return out;
}

/**
 * An empty array for an answer's copy, made where no allocation site is.
 * The copies of received values (jsonValueOf) fill the arrays of the
 * records a store keeps, and once V8 saw the arrays of that literal outlive
 * young collections it allocated its later arrays in the old generation
 * (allocation-site pretenuring), an answer's among them: dead once
 * answered, each kept its young values (a page's hits, their highlights)
 * alive through every young collection until the next full one. Over the
 * TED talks, 3,000 answers in a loop spent 64-84 ms in young collections
 * (the longest 6-14 ms); with this, 16-26 ms (3-6 ms), and answers ~10%
 * faster (bench/RESULTS.md). Array.of makes its array in a builtin, which
 * has no allocation site.
 */
const answerArray = (): unknown[] => Array.of();

/** An item of a list made for the answer (see madeLists): itself, its members copied as copyOfObject copies them, but for those made whole. */
function copyOfMade(item: Record<string, unknown>, made: ReadonlySet<string>, levels: number): Record<string, unknown> {
  return copyMembers(item, levelBelow(levels), made);
}

/**
 * A spread copy (it keeps the object's shape, where one built key by key
 * took a shape of its own, and reading the copies cost twice as much), its
 * containers then copied in turn, and what JSON leaves out deleted.
 */
function copyOfObject(object: Record<string, unknown>, levels: number): Record<string, unknown> {
  return copyMembers({ ...object }, levels);
}

/**
 * Copies `out`'s containers in place, and deletes what JSON leaves out;
 * the members named in `made` are left as they are (see madeLists).
 */
function copyMembers(out: Record<string, unknown>, levels: number, made?: ReadonlySet<string>): Record<string, unknown> {
  // for-in, not Object.keys: no array made an object (a tenth of the copy's time for the cities'
  // small records); it lists Object.prototype's enumerable keys too, which a caller's toJSON or
  // getter may give it while the copy runs
  for (const key in out) {
    if (!Object.hasOwn(out, key) || made?.has(key)) continue;
    take(1);
    const value = out[key];
    const copied = typeof value === 'object' && value !== null ? copyOf(value, key, levels) : leafOf(value, key, levels);
    if (copied === undefined) delete out[key];
    else if (!Object.is(copied, value)) setOwn(out, key, copied); // Object.is: -0 is written as 0
  }
  if (honoursMarks) dropSymbolKeys(out);
  return out;
}

/**
 * Deletes the symbol keys the spread copied, which JSON leaves out: from
 * an answer's values only. A received value keeps them, unread: nothing
 * in the engine lists an object's symbols, and whatever leaves it (an
 * answer, through this copy; a log, a snapshot or a packed record, as
 * JSON; a worker's message, by structured cloning) leaves them out. Asking
 * every received object for its symbols was a third of the copy's time
 * (a call into the runtime per object: 0.5 µs a record of the cities).
 */
function dropSymbolKeys(out: Record<string, unknown>): void {
  const symbols = Object.getOwnPropertySymbols(out);
  for (let i = 0; i < symbols.length; i++) delete out[symbols[i] as unknown as string];
}

/** A value that is not an object, as JSON writes it: undefined where JSON leaves it out, a BigInt through its toJSON (if any), -0 as 0. */
function leafOf(value: unknown, key: string | number, levels: number): unknown {
  if (leftOut(value)) return undefined;
  if (typeof value === 'bigint') return copyOf(value, key, levels);
  return value === 0 ? 0 : value;
}

/**
 * Whether `value` holds itself within `levels` levels (a cycle, which JSON
 * cannot write), looked for once a copy went too deep: each object is
 * looked into once, and no deeper than the copy went.
 */
export function holdsItself(value: unknown, levels: number): boolean {
  const done = new Set<object>();
  const onPath = new Set<object>();
  const visit = (v: unknown, left: number): boolean => {
    if (typeof v !== 'object' || v === null || done.has(v)) return false;
    if (onPath.has(v)) return true;
    if (left === 0) return false;
    onPath.add(v);
    for (const item of Object.values(v)) if (visit(item, left - 1)) return true;
    onPath.delete(v);
    done.add(v);
    return false;
  };
  return visit(value, levels + 1);
}

/** What JSON leaves out of an object (and writes as null in an array). */
const leftOut = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';
