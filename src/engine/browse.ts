// Browse: every matching record, up to 1000 a call, ordered by custom ranking
// only, with a cursor to continue; deleteByQuery reuses the matching.
import { CRITERION } from '../core/abi.js';
import { idsOf } from './bitmap.js';
import { badRequest } from './errors.js';
import { encodeParams, parseSearchParams, type SearchParams } from './params.js';
import { planQuery } from './query-plan.js';
import { project } from './records.js';
import { settingsOf } from './search.js';
import type { SearchIndex } from './search-index.js';

const BROWSE_PAGE = 1000;

interface Cursor { params: string; offset: number }

function encodeCursor(cursor: Cursor): string {
  return btoa(unescape(encodeURIComponent(JSON.stringify(cursor))));
}

function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(decodeURIComponent(escape(atob(text))));
    if (typeof cursor.params === 'string' && Number.isInteger(cursor.offset) && cursor.offset >= 0) return cursor;
  } catch { /* reported below */ }
  throw badRequest('Invalid value for "cursor"');
}

export function browseIndex(index: SearchIndex, body: Record<string, unknown>, seeUnretrievable: boolean) {
  const started = performance.now();
  const fromCursor = typeof body.cursor === 'string' ? decodeCursor(body.cursor) : undefined;
  const params: SearchParams = fromCursor ? parseSearchParams({ params: fromCursor.params }) : parseSearchParams(body);
  const offset = fromCursor?.offset ?? 0;
  const setting = settingsOf(index, params);
  const hitsPerPage = Math.min(params.hitsPerPage ?? BROWSE_PAGE, BROWSE_PAGE);
  const plan = planQuery(index, params, setting, offset, hitsPerPage);
  plan.core.criteria = [CRITERION.custom];
  plan.core.distinct = 0;
  index.prepareRanks();
  const result = index.coreIndex.search(plan.core);
  const hidden = seeUnretrievable ? [] : (setting('unretrievableAttributes') ?? []);
  const hits = result.hits.map((h) => project(index.record(h.id)!, setting('attributesToRetrieve'), hidden));
  const next = offset + hits.length;
  const response: Record<string, unknown> = {
    hits,
    nbHits: result.nbHits,
    page: hitsPerPage > 0 ? Math.floor(offset / hitsPerPage) : 0,
    nbPages: hitsPerPage > 0 ? Math.ceil(result.nbHits / hitsPerPage) : 0,
    hitsPerPage,
    query: params.query ?? '',
    params: encodeParams(params),
    processingTimeMS: Math.round(performance.now() - started),
  };
  if (next < result.nbHits && hits.length > 0) response.cursor = encodeCursor({ params: encodeParams(params), offset: next });
  return response;
}

const FILTER_PARAMETERS = ['filters', 'facetFilters', 'numericFilters', 'tagFilters', 'aroundLatLng', 'insideBoundingBox', 'insidePolygon'];

/** deleteByQuery's parameters: filters only (the query is ignored), at least one. */
export function deleteByQueryParams(body: unknown): SearchParams {
  const params = parseSearchParams(body as Record<string, unknown>);
  const kept = Object.fromEntries(Object.entries(params).filter(([k]) => FILTER_PARAMETERS.includes(k) || k === 'aroundRadius'));
  if (!FILTER_PARAMETERS.some((k) => kept[k] !== undefined && kept[k] !== '')) {
    throw badRequest('deleteByQuery needs filters (filters, facetFilters, numericFilters, tagFilters or a geo filter)');
  }
  return kept;
}

/** objectIDs of every record matching `params` (no pagination). */
export function matchingObjectIDs(index: SearchIndex, params: SearchParams): string[] {
  const setting = settingsOf(index, params);
  const plan = planQuery(index, params, setting, 0, 0);
  plan.core.distinct = 0;
  index.prepareRanks();
  index.coreIndex.search(plan.core);
  const out: string[] = [];
  for (const id of idsOf(index.coreIndex.candidates())) out.push(index.record(id)!.objectID);
  return out;
}
