// Browse: every matching record, up to 1000 a call, in custom ranking order
// (objectID breaks ties), from the page asked for (`page` pages of
// `hitsPerPage` records passed over). The cursor carries the last record's sort key, so
// a record present throughout is returned exactly once even while writes
// happen; cursors are signed (HMAC-SHA256), a forged or stale one is a 400.
import { hasBit, idsOf, type Bitmap } from '../index/bitmap.js';
import { badRequest } from '../util/errors.js';
import { encodeParams, parseSearchParams, type SearchParams } from '../index/params.js';
import { planQuery } from './query-plan.js';
import { project, projection, valuesAt } from '../index/records.js';
import { renderingContentOf, settingsOf } from './search.js';
import type { SearchIndex } from '../index/search-index.js';
import type { Setting } from '../index/settings.js';
import type { QueryDictionaries } from '../text/dictionaries.js';
import { compareValues, sortValue, type SortValue } from '../index/sort-values.js';

const BROWSE_PAGE = 1000;
/** A cursor older than this is stale. */
const CURSOR_LIFETIME_MS = 24 * 3600 * 1000;

interface Cursor { index: string; params: string; key: SortValue[]; objectID: string; page: number; issuedAt: number }

/** Records in browse order for one version of the index. */
interface BrowseOrder { version: number; ids: number[]; keys: SortValue[][]; descending: boolean[] }

const orders = new WeakMap<SearchIndex, BrowseOrder>();

function browseOrder(index: SearchIndex): BrowseOrder {
  const cached = orders.get(index);
  if (cached?.version === index.version) return cached;
  const entries = index.ranking.custom;
  const keys: SortValue[][] = [];
  const ids: number[] = [];
  for (const [id, record] of index.liveEntries()) {
    ids.push(id);
    keys[id] = entries.map((e) => sortValue(valuesAt(record, e.path)));
  }
  const descending = entries.map((e) => e.descending);
  ids.sort((a, b) => compareKeys(keys[a], index.objectIDOf(a)!, keys[b], index.objectIDOf(b)!, descending));
  const order = { version: index.version, ids, keys, descending };
  orders.set(index, order);
  return order;
}

function compareKeys(a: SortValue[], aID: string, b: SortValue[], bID: string, descending: boolean[]): number {
  for (let i = 0; i < descending.length; i++) {
    const c = compareValues(a[i], b[i], descending[i]);
    if (c !== 0) return c;
  }
  return aID < bID ? -1 : aID > bID ? 1 : 0;
}

// --- signed cursors
const base64url = (bytes: Uint8Array) => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromBase64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

async function encodeCursor(key: CryptoKey, cursor: Cursor): Promise<string> {
  const payload = new TextEncoder().encode(JSON.stringify(cursor));
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, payload));
  return `${base64url(payload)}.${base64url(signature)}`;
}

async function decodeCursor(key: CryptoKey, text: string, index: string): Promise<Cursor> {
  const [payloadText, signatureText] = text.split('.');
  let payload: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>;
  try {
    payload = fromBase64url(payloadText) as Uint8Array<ArrayBuffer>;
    signature = fromBase64url(signatureText ?? '') as Uint8Array<ArrayBuffer>;
  } catch {
    throw badRequest('Invalid cursor');
  }
  if (!(await crypto.subtle.verify('HMAC', key, signature, payload))) throw badRequest('Invalid cursor');
  const cursor: Cursor = JSON.parse(new TextDecoder().decode(payload));
  if (cursor.index !== index || Date.now() - cursor.issuedAt > CURSOR_LIFETIME_MS) throw badRequest('Stale cursor');
  return cursor;
}

export function newCursorKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']) as Promise<CryptoKey>;
}

/** Index in `order` of the first record after the cursor's one. */
function positionAfter(order: BrowseOrder, index: SearchIndex, cursor: Cursor | undefined): number {
  if (!cursor) return 0;
  let lo = 0, hi = order.ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const id = order.ids[mid];
    const c = compareKeys(order.keys[id], index.objectIDOf(id)!, cursor.key, cursor.objectID, order.descending);
    if (c <= 0) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Index in `order` of the matching record that `skipped` matching records come before (the end when fewer match). */
function positionOfMatch(order: BrowseOrder, candidates: Bitmap, skipped: number): number {
  let seen = 0;
  for (let position = 0; position < order.ids.length; position++) {
    if (!hasBit(candidates, order.ids[position])) continue;
    if (seen++ === skipped) return position;
  }
  return order.ids.length;
}

/**
 * What browse forces (compatibility.md, browse): advancedSyntax, ignorePlurals,
 * enableRules and enablePersonalization off, no optionalFilters, and
 * typoTolerance min/strict read as true.
 */
function browseSetting(setting: Setting): Setting {
  const forced: Record<string, unknown> = { advancedSyntax: false, ignorePlurals: false, enableRules: false, enablePersonalization: false };
  return ((name: string) => {
    if (name in forced) return forced[name];
    const value = setting(name as never);
    return name === 'typoTolerance' && (value === 'min' || value === 'strict') ? true : value;
  }) as Setting;
}

function matchingBitmap(index: SearchIndex, requested: SearchParams, dictionaries?: QueryDictionaries) {
  const params: SearchParams = { ...requested, optionalFilters: undefined };
  const setting = browseSetting(settingsOf(index, params));
  const plan = planQuery(index, params, setting, 0, 0, dictionaries);
  plan.core.distinct = 0;
  index.prepareRanks();
  const result = index.coreIndex.search(plan.core);
  return { candidates: index.coreIndex.candidates().slice(), nbHits: result.nbHits, setting };
}

export interface BrowseOptions {
  cursorKey: CryptoKey;
  seeUnretrievable: boolean;
  /** The caller's restrictions, applied to every page: a cursor carries the parameters as requested, never as restricted. */
  restrict?: (params: SearchParams) => SearchParams;
  /** The application's stop words, plurals and compounds (the built-in ones when absent). */
  dictionaries?: QueryDictionaries;
}

export async function browseIndex(index: SearchIndex, body: Record<string, unknown>, options: BrowseOptions) {
  const started = performance.now();
  const { cursorKey, seeUnretrievable, restrict = (p: SearchParams) => p } = options;
  const cursor = typeof body.cursor === 'string' ? await decodeCursor(cursorKey, body.cursor, index.name) : undefined;
  const requested: SearchParams = cursor ? parseSearchParams({ params: cursor.params }) : parseSearchParams(body);
  const params = restrict(requested);
  const hitsPerPage = Math.min(params.hitsPerPage ?? BROWSE_PAGE, BROWSE_PAGE);
  const { candidates, nbHits, setting } = matchingBitmap(index, params, options.dictionaries);
  const order = browseOrder(index);
  const retrieved = projection(setting('attributesToRetrieve'), seeUnretrievable ? [] : (setting('unretrievableAttributes') ?? []));
  const hits = [];
  // a cursor continues after its record; else `page` pages of matching records are passed over, as search pages them
  const page = cursor ? cursor.page + 1 : Math.max(0, params.page ?? 0);
  let position = cursor ? positionAfter(order, index, cursor) : positionOfMatch(order, candidates, page * hitsPerPage);
  let lastId = -1;
  for (; position < order.ids.length && hits.length < hitsPerPage; position++) {
    const id = order.ids[position];
    if (!hasBit(candidates, id)) continue;
    hits.push(project(index.record(id)!, retrieved));
    lastId = id;
  }
  let more = false;
  for (let rest = position; rest < order.ids.length && !more; rest++) more = hasBit(candidates, order.ids[rest]);
  const response: Record<string, unknown> = {
    hits,
    nbHits,
    page,
    nbPages: hitsPerPage > 0 ? Math.ceil(nbHits / hitsPerPage) : 0,
    hitsPerPage,
    renderingContent: renderingContentOf(index, params),
    query: params.query ?? '',
    params: encodeParams(params),
    processingTimeMS: Math.round(performance.now() - started),
  };
  if (more && lastId >= 0) {
    response.cursor = await encodeCursor(cursorKey, {
      index: index.name, params: encodeParams(requested), key: order.keys[lastId], objectID: index.objectIDOf(lastId)!,
      page, issuedAt: Date.now(),
    });
  }
  return response;
}

const FILTER_PARAMETERS = ['filters', 'facetFilters', 'numericFilters', 'tagFilters', 'aroundLatLng', 'insideBoundingBox', 'insidePolygon'] as const satisfies ReadonlyArray<keyof SearchParams>;

/** The parameters of `params` that choose records (filters of every form, geo): no query, no paging. */
export function filterParams(params: SearchParams): SearchParams {
  const kept: ReadonlyArray<string> = [...FILTER_PARAMETERS, 'aroundRadius'];
  return Object.fromEntries(Object.entries(params).filter(([k]) => kept.includes(k)));
}

export function hasFilters(params: SearchParams): boolean {
  return FILTER_PARAMETERS.some((k) => params[k] !== undefined && params[k] !== '');
}

/** deleteByQuery's parameters: filters only (the query is ignored), at least one. */
export function deleteByQueryParams(body: unknown): SearchParams {
  const kept = filterParams(parseSearchParams(body as Record<string, unknown>));
  if (!hasFilters(kept)) {
    throw badRequest('deleteByQuery needs filters (filters, facetFilters, numericFilters, tagFilters or a geo filter)');
  }
  return kept;
}

/** objectIDs of every record matching `params` (no pagination). */
export function matchingObjectIDs(index: SearchIndex, params: SearchParams): string[] {
  const { candidates } = matchingBitmap(index, params);
  return [...idsOf(candidates)].map((id) => index.objectIDOf(id)!);
}

/**
 * Which records of the index pass the filters of `params`, as a test on
 * objectIDs (one bitmap for any number of records); undefined when
 * `params` filter nothing, so every record passes.
 */
export function recordFilter(index: SearchIndex, params: SearchParams): ((objectID: string) => boolean) | undefined {
  const filters = filterParams(params);
  if (!hasFilters(filters)) return undefined;
  const { candidates } = matchingBitmap(index, filters);
  return (objectID) => {
    const id = index.idOf(objectID);
    return id !== undefined && hasBit(candidates, id);
  };
}
