// What a key's restrictions do to a call: the indexes it reaches, and the
// search parameters forced on it (a key's `queryParameters`, a secured key's
// embedded parameters) — merged over the request's, filters ANDed, never
// overridable — and `maxHitsPerQuery`.
import { ApiError, badRequest } from '../util/errors.js';
import { parseSearchParams, type SearchParams } from '../index/params.js';
import { parseFilters, splitCommaList } from '../index/filters/parse.js';
import type { Caller } from './caller.js';
import { indexAdmitted } from './api-keys.js';
import { filterParams, hasFilters } from '../query/browse.js';

export type { Restrictions } from './caller.js';

/** The service's message, word for word: clients match on it (so it names no index). */
export const forbiddenIndex = () => new ApiError('not_allowed', 'Index not allowed with this API key');

export function mayReach(caller: Caller, indexName: string): boolean {
  return (caller.restrictions?.indexes ?? []).every((patterns) => indexAdmitted(patterns, indexName));
}

export function checkIndex(caller: Caller, indexName: string): void {
  if (!mayReach(caller, indexName)) throw forbiddenIndex();
}

/** Forced parameters from a URL-encoded string (a key's queryParameters, a secured key's). */
export function forcedParams(qs: string): SearchParams {
  if (qs.trim() === '') return {};
  try {
    return parseSearchParams({ params: qs });
  } catch (e) {
    // a bad stored queryParameters must not open the key up: refuse the call
    throw new ApiError('not_allowed', `Invalid restrictions on this API key: ${(e as Error).message}`);
  }
}

const FILTER_LISTS = ['facetFilters', 'numericFilters', 'tagFilters'] as const;

/** A filter list as an AND array (a string is one atom for facetFilters, a comma list for the others). */
function asAndList(name: string, v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string' || v.trim() === '') return [];
  return name === 'facetFilters' ? [v] : splitCommaList(name, v);
}

/**
 * Both filter strings, ANDed; the request's is checked on its own first so it
 * cannot unbalance the forced one. A string that is one OR-group goes in
 * parentheses, an AND of groups as it is: parentheses cannot enclose an AND.
 */
function andFilters(forced: unknown, requested: unknown): string | undefined {
  const parts = [forced, requested].filter((f): f is string => typeof f === 'string' && f.trim() !== '');
  if (typeof requested === 'string' && requested.trim() !== '') parseFilters(requested);
  if (parts.length === 0) return typeof requested === 'string' ? requested : undefined;
  return parts.length === 1 ? parts[0] : parts.map((p) => (parseFilters(p).length > 1 ? p : `(${p})`)).join(' AND ');
}

/**
 * The parameters a restricted caller actually runs: forced ones override the
 * request's, filters of every form AND together, hits capped.
 */
export function restrictParams(caller: Caller, params: SearchParams, defaultHitsPerPage = 20): SearchParams {
  const r = caller.restrictions;
  if (!r) return params;
  let out: SearchParams = { ...params };
  for (const forced of r.forced) {
    const { filters, ...rest } = forced;
    const lists: Record<string, unknown[]> = {};
    for (const name of FILTER_LISTS) {
      if (rest[name] === undefined) continue;
      lists[name] = [...asAndList(name, rest[name]), ...asAndList(name, out[name])];
      delete rest[name];
    }
    out = { ...out, ...rest, ...lists };
    if (filters !== undefined) out.filters = andFilters(filters, out.filters);
  }
  if (r.maxHitsPerQuery > 0) {
    out.hitsPerPage = Math.min(out.hitsPerPage ?? defaultHitsPerPage, r.maxHitsPerQuery);
    if (out.length !== undefined) out.length = Math.min(out.length, r.maxHitsPerQuery);
  }
  return out;
}

/**
 * The filters a caller's key forces on every search (a secured key's, a
 * key's queryParameters), as restrictParams merges them; undefined when it
 * forces none. They bound every record the caller reads or deletes, not
 * only what it finds.
 */
export function forcedFilters(caller: Caller): SearchParams | undefined {
  if (!caller.restrictions) return undefined;
  const filters = filterParams(restrictParams(caller, {}));
  return hasFilters(filters) ? filters : undefined;
}

/** A key that forces filters works record by record: clearing, deleting, copying or moving a whole index is refused. */
export function checkWholeIndexAllowed(caller: Caller): void {
  if (forcedFilters(caller)) throw new ApiError('not_allowed', 'Not allowed with this API key: its filters bound the records it may reach, not whole indexes');
}

/** Index names a multi-index body reaches (`requests[].indexName`). */
export function indexesInRequests(body: unknown): string[] {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { requests?: unknown }).requests)) return [];
  const out: string[] = [];
  for (const item of (body as { requests: unknown[] }).requests) {
    if (typeof item !== 'object' || item === null) continue;
    const name = (item as Record<string, unknown>).indexName ?? (item as Record<string, unknown>).index_name;
    if (typeof name === 'string') out.push(name);
    else if (name !== undefined) throw badRequest('indexName must be a string');
  }
  return out;
}
