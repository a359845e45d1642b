// API keys as data: the stored record, validation of the key fields sent to
// the key endpoints, random key values, and the wildcard patterns of
// `indexes` and `referers`.
import { badRequest } from '../util/errors.js';
import { isOneOf, isPlainObject } from '../index/records.js';
import { parseSearchParams } from '../index/params.js';
import { parseFilters } from '../index/filters/parse.js';
import { checkIndexPattern, isBlank } from '../index/index-name.js';
import { KEY_RIGHTS } from './caller.js';

/** A stored key (global, or index-specific when `index` is set). */
export interface ApiKey {
  value: string;
  /** Unix seconds. */
  createdAt: number;
  acl: string[];
  description: string;
  indexes: string[];
  maxHitsPerQuery: number;
  maxQueriesPerIPPerHour: number;
  queryParameters: string;
  referers: string[];
  /** Seconds, as sent (0 = unlimited). */
  validity: number;
  /** Unix milliseconds after which the key is gone (0 = never). */
  expiresAt: number;
  /** Index-specific key: the index it was made for. */
  index?: string;
  /** Index-specific key: the indexes a copy or move of its index gave it too. */
  copiedTo?: string[];
}

/** The indexes an index-specific key reaches (none for a global key). */
export function indexKeyIndexes(key: ApiKey): string[] {
  return key.index === undefined ? [] : [key.index, ...(key.copiedTo ?? [])];
}

/** Whether a key reaches the index `name` (its `indexes`, and its index when index-specific). */
export function keyReaches(key: ApiKey, name: string): boolean {
  return indexAdmitted(key.indexes, name) && (key.index === undefined || indexAdmitted(indexKeyIndexes(key), name));
}

const FIELDS = ['acl', 'description', 'indexes', 'maxHitsPerQuery', 'maxQueriesPerIPPerHour', 'queryParameters', 'referers', 'validity'];

/** 128 random bits (WebCrypto) as 32 hex digits. */
export function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function stringList(name: string, v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badRequest(`Invalid value for "${name}": expected an array of strings`);
  return v as string[];
}

function count(name: string, v: unknown): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw badRequest(`Invalid value for "${name}": expected a non-negative integer`);
  return v;
}

/** Forced parameters are checked when the key is saved: a key must not be stored unusable. */
function checkQueryParameters(qs: string): void {
  try {
    const params = parseSearchParams({ params: qs });
    if (typeof params.filters === 'string' && params.filters.trim() !== '') parseFilters(params.filters);
  } catch (e) {
    throw badRequest(`Invalid value for "queryParameters": ${(e as Error).message}`);
  }
}

/**
 * The key fields of a request body checked and completed with defaults;
 * `previous` (an update) supplies the fields the body leaves out.
 */
export function keyFields(body: unknown, options: { indexSpecific?: boolean; previous?: ApiKey; creating?: boolean } = {}): Omit<ApiKey, 'value' | 'createdAt' | 'expiresAt'> {
  if (body === undefined) body = {};
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: the key must be a JSON object');
  // the spec's apiKey requires acl: a new key says what it may do (an update keeps the rights it had)
  if (options.creating && body.acl === undefined) throw badRequest('Missing "acl": the rights of the key, e.g. ["search"]');
  const given = (name: string) => (name in body ? body[name] : (options.previous as Record<string, unknown> | undefined)?.[name]);
  const acl = stringList('acl', given('acl'));
  const unknown = acl.filter((r) => !isOneOf(KEY_RIGHTS, r));
  if (unknown.length) throw badRequest(`Invalid value for "acl": unknown right ${unknown.map((r) => JSON.stringify(r)).join(', ')}`);
  const description = given('description') ?? '';
  if (typeof description !== 'string') throw badRequest('Invalid value for "description": expected a string');
  const queryParameters = given('queryParameters') ?? '';
  if (typeof queryParameters !== 'string') throw badRequest('Invalid value for "queryParameters": expected a URL-encoded string');
  checkQueryParameters(queryParameters);
  const indexes = options.indexSpecific ? [] : stringList('indexes', given('indexes'));
  for (const p of indexes) checkIndexPattern(p);
  const referers = stringList('referers', given('referers'));
  for (const p of referers) checkRefererPattern(p);
  return {
    acl: [...new Set(acl)],
    description,
    indexes,
    maxHitsPerQuery: count('maxHitsPerQuery', given('maxHitsPerQuery')),
    maxQueriesPerIPPerHour: count('maxQueriesPerIPPerHour', given('maxQueriesPerIPPerHour')),
    queryParameters,
    referers,
    validity: count('validity', given('validity')),
  };
}

function checkRefererPattern(pattern: string): void {
  if (pattern.slice(1, -1).includes('*')) {
    throw badRequest(`Invalid value for "referers": "${pattern}" may only have a wildcard at its start or end`);
  }
}

/** `*` at the start and/or end of a pattern matches any text. */
export function matchesPattern(pattern: string, value: string): boolean {
  if (pattern === '*' || pattern === '**') return true;
  const lead = pattern.startsWith('*');
  const trail = pattern.length > 1 && pattern.endsWith('*');
  const core = pattern.slice(lead ? 1 : 0, trail ? -1 : undefined);
  if (lead && trail) return value.includes(core);
  if (lead) return value.endsWith(core);
  if (trail) return value.startsWith(core);
  return value === core;
}

/**
 * Whether an index list (a key's `indexes`, an index key's indexes,
 * `restrictIndices`) admits the index `name`: an empty list admits every
 * index, a blank entry none (an entry that looks empty must not open the
 * key to every index, as a list that is empty does).
 */
export function indexAdmitted(patterns: readonly string[], name: string): boolean {
  return patterns.length === 0 || patterns.some((p) => !isBlank(p) && matchesPattern(p, name));
}

/** A referer matches with or without its scheme (`*.example.com/*` against `https://www.example.com/a`). */
export function refererAdmitted(patterns: readonly string[], referer: string | undefined): boolean {
  const real = patterns.filter((p) => p.trim() !== '');
  if (real.length === 0) return true;
  if (!referer) return false;
  const bare = referer.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  return real.some((p) => matchesPattern(p, referer) || matchesPattern(p, bare));
}

/** Whether a key has no expiry, referers nor indexes: every call its rights allow, from anywhere, admits it. */
export function isUnrestricted(key: ApiKey): boolean {
  return key.expiresAt === 0 && key.referers.length === 0 && key.indexes.length === 0 && key.index === undefined;
}

export function isExpired(key: ApiKey, now = Date.now()): boolean {
  return key.expiresAt > 0 && now >= key.expiresAt;
}

/** The listing shape: every field, `validity` as the seconds left. */
export function describeKey(key: ApiKey, now = Date.now()) {
  const out: Record<string, unknown> = {
    value: key.value,
    createdAt: key.createdAt,
    acl: key.acl,
    description: key.description,
    indexes: key.index !== undefined ? indexKeyIndexes(key) : key.indexes,
    maxHitsPerQuery: key.maxHitsPerQuery,
    maxQueriesPerIPPerHour: key.maxQueriesPerIPPerHour,
    queryParameters: key.queryParameters,
    referers: key.referers,
    validity: key.expiresAt > 0 ? Math.max(0, Math.ceil((key.expiresAt - now) / 1000)) : 0,
  };
  if (key.index !== undefined) out.index = key.index;
  return out;
}

export { FIELDS as KEY_FIELDS };
