// What a snapshot can hold exactly, checked when a write is accepted: a
// write the engine acknowledges must neither make every later snapshot fail
// (the log would never be compacted again) nor come back changed after a
// restart. Snapshots are MessagePack, which refuses values nested beyond 100
// levels and writes strings as UTF-8; a write is JSON, where 1e309 parses as
// Infinity (written back as null) and "\ud800" as a lone surrogate (not
// UTF-8: a snapshot would read it back as U+FFFD). Such writes get a 400.
import { badRequest } from '../util/errors.js';
import { assertJson, knownJson } from '../util/json-check.js';

/**
 * Levels of objects and arrays a written value may nest (a record is level 1).
 * A snapshot holds records at its root (each is packed on its own) and
 * settings, rules and synonyms 4 levels down, and MessagePack refuses more
 * than 100 levels: 64 leaves a margin.
 */
export const MAX_NESTING = 64;

/**
 * Levels an operation adds around what it writes, at most (a record sits in
 * operation → actions → action). The check of an operation counts from the
 * operation: settings, rules and synonyms, less deeply wrapped, may nest a
 * level or two more than records (a snapshot holds them with room to spare).
 */
const OPERATION_LEVELS = 3;

/**
 * What in a value (a record, a partial update) a snapshot could not hold, as
 * a sentence; undefined when it can hold all of it, or when the value is not
 * JSON at all (a cycle would read as too deep): the engine's JSON check
 * refuses that, as such. One walk answers for both checks: for most values
 * it finds nothing to doubt (see plainlyStorable); the others are walked by
 * each check on its own.
 */
export function unstorable(value: unknown): string | undefined {
  if (plainlyStorable(value, MAX_NESTING)) return undefined;
  if (!isJson(value)) {
    bodiesNotJson++;
    return undefined;
  }
  const found = problemIn(value, MAX_NESTING);
  return found && `${found.path.length > 0 ? `attribute ${pathText(found.path)}` : 'it'} ${found.problem}`;
}

/**
 * Whether `value` is surely storable (what problemIn looks for: `levels`
 * levels of objects and arrays at most, finite numbers, Unicode text) and
 * JSON (what assertJson looks for: no BigInt, and no cycle, which the depth
 * bounds), in one walk: a walk per check held a sixth of the main thread
 * while the TED talks were imported in memory from an in-process caller.
 * False when in doubt: where a toJSON would change what JSON holds, or
 * where a check would say what the problem is.
 */
function plainlyStorable(value: unknown, levels: number): boolean {
  if (typeof value === 'string') return isUnicode(value);
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return typeof value !== 'bigint';
  if (levels === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!plainlyStorable(value[i], levels - 1)) return false;
    return true;
  }
  // for-in over own names, not Object.keys and Object.values: two arrays a record made were a fifth
  // of what an import of small records allocated
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!isUnicode(key) || !plainlyStorable((value as Record<string, unknown>)[key], levels - 1)) return false;
  }
  return true;
}

function isJson(value: unknown): boolean {
  try {
    assertJson(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Bodies found not to be JSON so far, by any write (see withCheckedBodies):
 * a write whose bodies were read while it stayed the same holds none of them.
 */
let bodiesNotJson = 0;

/** A mark taken before a write's bodies are checked (see withCheckedBodies). */
export function bodyCheckMark(): number {
  return bodiesNotJson;
}

/**
 * Batches whose actions' bodies (records, partial updates) were each checked
 * by `unstorable` as the batch was read: the check of the operation skips
 * them instead of walking every record twice. Batches are marked, not
 * records: a WeakSet of every record checked cost more than the second walk
 * (~1.2 µs a record to add against ~0.3 to walk one of the 135k cities
 * again), and the collector traced it while the records lived.
 */
const batchesWithCheckedBodies = new WeakSet<object>();

/**
 * Marks `batch`, whose actions' bodies were each checked (asRecord,
 * checkPartial): assertStorable skips them. When no body checked since
 * `mark` (bodyCheckMark, taken before they were read) was found not to be
 * JSON, by this write or another, its actions are JSON (the API made all
 * but their bodies) and the JSON check skips them too.
 */
export function withCheckedBodies<T extends { actions: object[] }>(batch: T, mark?: number): T {
  batchesWithCheckedBodies.add(batch);
  if (mark === bodiesNotJson) knownJson(batch.actions);
  return batch;
}

/** Refuses a write operation (any kind) holding what a snapshot could not hold; records were checked, and named, before. */
export function assertStorable(operation: object): void {
  const levels = MAX_NESTING + OPERATION_LEVELS;
  const found = batchesWithCheckedBodies.has(operation) ? problemBesideBodies(operation as { actions: object[] }, levels) : problemIn(operation, levels);
  if (found) throw badRequest(`The write cannot be stored: ${pathText(found.path)} ${found.problem}`);
}

/** What problemIn finds in `batch` (at `levels`) outside its actions' bodies. */
function problemBesideBodies(batch: { actions: object[] }, levels: number): Problem | undefined {
  const outside = problemInObject(batch, levels - 1, 'actions');
  if (outside) return outside;
  // an action is two levels below the batch (its actions' array, then itself)
  for (let i = 0; i < batch.actions.length; i++) {
    const found = problemInObject(batch.actions[i], levels - 3, 'body');
    if (found) return within(within(found, i), 'actions');
  }
  return undefined;
}

interface Problem {
  /** Names and indexes from the culprit out to the value checked (innermost first: each level adds its own on the way out). */
  path: Array<string | number>;
  problem: string;
}

/** The first thing in `value` a snapshot cannot hold; `levels`: how many levels of objects and arrays it may still nest. */
function problemIn(value: unknown, levels: number): Problem | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path: [], problem: `is ${value}: only finite numbers can be stored` };
  if (typeof value === 'string') return isUnicode(value) ? undefined : { path: [], problem: `holds ${loneSurrogate(value)}` };
  if (typeof value !== 'object' || value === null) return undefined;
  if (levels === 0) return { path: [], problem: `is nested more than ${MAX_NESTING} levels deep (objects and arrays)` };
  const found = Array.isArray(value) ? problemInArray(value, levels - 1) : problemInObject(value, levels - 1);
  return found;
}

function problemInArray(array: unknown[], levels: number): Problem | undefined {
  for (let i = 0; i < array.length; i++) {
    const found = problemIn(array[i], levels);
    if (found) return within(found, i);
  }
  return undefined;
}

/** The first problem in `object`'s members (but the one named `skipped`, if any). */
function problemInObject(object: object, levels: number, skipped?: string): Problem | undefined {
  for (const key in object) {
    if (key === skipped || !Object.hasOwn(object, key)) continue;
    if (!isUnicode(key)) return { path: [key], problem: `has a name that holds ${loneSurrogate(key)}` };
    const found = problemIn((object as Record<string, unknown>)[key], levels);
    if (found) return within(found, key);
  }
  return undefined;
}

function within(found: Problem, step: string | number): Problem {
  found.path.push(step);
  return found;
}

/** A path (innermost first) as code would name it, quoted: names joined by dots, indexes in brackets; a long one cut. */
function pathText(path: Array<string | number>): string {
  const outermost = path.length - 1;
  const text = path.reduceRight<string>((out, step, i) => (typeof step === 'number' ? `${out}[${step}]` : i === outermost ? step : `${out}.${step}`), '');
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

const LONE_SURROGATE = /\p{Cs}/u;

/** Whether a string is Unicode text, without a lone surrogate (String.prototype.isWellFormed, ES2024, where there is one). */
const isUnicode: (text: string) => boolean = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
  ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
  : (text) => !LONE_SURROGATE.test(text);

/** The text with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, ES2024): what the log can hold. */
export function wellFormed(text: string): string {
  return isUnicode(text) ? text : text.replace(/\p{Cs}/gu, '\ufffd');
}

function loneSurrogate(text: string): string {
  const unit = LONE_SURROGATE.exec(text)![0].charCodeAt(0);
  return `a lone surrogate (U+${unit.toString(16).toUpperCase()}), which is not Unicode text`;
}
