// Search endpoints: one index (POST or GET) and multi-index queries.
import { badRequest } from '../util/errors.js';
import { parseSearchParams, type SearchParams } from '../index/params.js';
import { searchIndex, settingsOf } from '../query/search.js';
import { queryToEmbed, type QueryVector } from '../query/hybrid.js';
import { answerOf, type SearchResult } from '../query/search-result.js';
import { browseIndex } from '../query/browse.js';
import { searchFacetValues } from '../query/facet-search.js';
import { isPlainObject } from '../index/records.js';
import { Reply, type OperationContext } from './types.js';
import { objectBody } from './body-values.js';
import { restrictParams } from '../auth/restrictions.js';
import { effectiveSetting } from '../index/settings.js';
import type { SearchIndex } from '../index/search-index.js';
import { observeSearch } from '../analytics/observe.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the indexes, the cursor key, the dictionaries, and what observing a search records. */
type Uses = Pick<Engine, 'analytics' | 'cursorKey' | 'dictionaries' | 'embeddings' | 'index' | 'indexes' | 'resolveCountry'>;

/** The parameters a restricted key runs: forced ones win, filters ANDed, hits capped. */
function restricted(ctx: OperationContext<never, Uses>, index: SearchIndex, params: SearchParams, pageSize?: number): SearchParams {
  return restrictParams(ctx.caller, params, pageSize ?? effectiveSetting(index.settings, 'hitsPerPage') ?? 20);
}

/**
 * The vector of a search's query, when its index's embedder has to embed it
 * first (see queryToEmbed): the only part of a search that waits. None,
 * and no promise, for an index without vectors.
 */
function queryVectorOf(ctx: OperationContext<never, Uses>, indexName: string, params: SearchParams): Promise<QueryVector> | undefined {
  const index = ctx.engine.indexes.get(indexName);
  if (!index?.vectors.any) return undefined;
  const restrictedParams = restricted(ctx, index, params);
  const wanted = queryToEmbed(index, restrictedParams, settingsOf(index, restrictedParams));
  return wanted && ctx.engine.embeddings.embedQuery(index, wanted.embedder, wanted.text);
}

/** Runs and observes one search: its result (answerOf gives what the caller gets). */
function run(ctx: OperationContext<never, Uses>, indexName: string, params: SearchParams, queryVector?: QueryVector): SearchResult {
  return observeSearch(ctx, indexName, params, (name, variantParams) => {
    const index = ctx.engine.index(name);
    return searchIndex(index, restricted(ctx, index, variantParams), {
      seeUnretrievable: seesUnretrievable(ctx), dictionaries: ctx.engine.dictionaries.query,
      // an A/B test's variant searching another index embeds nothing: its keyword results answer
      queryVector: name === indexName ? queryVector : undefined,
    });
  });
}

/**
 * A single-index search's answer: once its query is embedded where it must
 * be, else at once (a promise for every search cost each a few turns of
 * the microtask queue).
 */
function singleIndexSearch(ctx: OperationContext<never, Uses>, indexName: string, params: SearchParams): Reply | Promise<Reply> {
  const embedding = queryVectorOf(ctx, indexName, params);
  if (embedding === undefined) return singleIndexAnswer(run(ctx, indexName, params));
  return embedding.then((queryVector) => singleIndexAnswer(run(ctx, indexName, params, queryVector)));
}

export function searchSingleIndex(ctx: OperationContext<'indexName', Uses>) {
  return singleIndexSearch(ctx, ctx.params.indexName, parseSearchParams(objectBody(ctx.body, 'search parameters')));
}

/**
 * A single-index answer also names its query `parsed_query`, when the
 * caller's responseFields kept the query; the call log gets its nbHits.
 */
function singleIndexAnswer(result: SearchResult): Reply {
  const answer = answerOf(result);
  if (answer.query !== undefined) answer.parsed_query = answer.query;
  return new Reply(200, answer, undefined, result.nbHits);
}

/** The query string's search parameters, as a `params` string (credentials, agent and `cursor` left out). */
function queryStringParams(ctx: OperationContext<never, Uses>): { params: string } {
  const kept = Object.entries(ctx.query).filter(([k]) => !/^x-(algolia|service)-/i.test(k) && k !== 'cursor');
  return { params: new URLSearchParams(kept).toString() };
}

/** GET /1/indexes/{indexName}: parameters in the query string. */
export function searchWithQueryString(ctx: OperationContext<'indexName', Uses>) {
  return singleIndexSearch(ctx, ctx.params.indexName, parseSearchParams(queryStringParams(ctx)));
}

const REQUEST_FIELDS = ['indexName', 'type', 'facet'] as const;

function seesUnretrievable(ctx: OperationContext<never, Uses>): boolean {
  return ctx.caller.isAdmin || ctx.caller.rights.has('seeUnretrievableAttributes');
}

export function searchForFacetValues(ctx: OperationContext<'facetName' | 'indexName', Uses>) {
  const index = ctx.engine.index(ctx.params.indexName);
  const params = restricted(ctx, index, parseSearchParams(objectBody(ctx.body, 'search parameters')));
  return searchFacetValues(index, ctx.params.facetName, params, ctx.engine.dictionaries.query);
}

export function browse(ctx: OperationContext<'indexName', Uses>) {
  const index = ctx.engine.index(ctx.params.indexName);
  const body = ctx.body === undefined || ctx.body === null
    ? { ...queryStringParams(ctx), cursor: ctx.query.cursor }
    : objectBody(ctx.body, 'browse parameters');
  return browseIndex(index, body, {
    cursorKey: ctx.engine.cursorKey,
    seeUnretrievable: seesUnretrievable(ctx),
    restrict: (params) => restricted(ctx, index, params, 1000),
    dictionaries: ctx.engine.dictionaries.query,
  });
}

/** One query of a multi-index call: a search, or a facet search when `facet` is set. */
interface InnerQuery { indexName: string; facet?: string; params: SearchParams }

/** The most queries one multi-index call may hold (compatibility.md, multi-query). */
const MAX_QUERIES = 50;

/** Multi-index queries; `stopIfEnoughMatches` stops once one has found hitsPerPage hits (whatever its answer shows). */
export async function search(ctx: OperationContext<never, Uses>) {
  const body = ctx.body;
  if (!isPlainObject(body) || !Array.isArray(body.requests)) throw badRequest('Missing "requests" array');
  if (body.requests.length > MAX_QUERIES) throw badRequest('Too many queries in multi query request');
  const strategy = body.strategy ?? 'none';
  if (strategy !== 'none' && strategy !== 'stopIfEnoughMatches') {
    throw badRequest(`Invalid value for "strategy": expected none or stopIfEnoughMatches`);
  }
  const parsed = body.requests.map((item: unknown, i: number): InnerQuery => {
    if (!isPlainObject(item) || typeof item.indexName !== 'string') throw badRequest(`requests[${i}] needs an indexName`);
    const { indexName, type, facet } = item;
    if (type !== 'facet') return { indexName, params: parseSearchParams(item, REQUEST_FIELDS) };
    if (typeof facet !== 'string') throw badRequest(`requests[${i}]: a facet query needs "facet"`);
    return { indexName, facet, params: parseSearchParams(item, REQUEST_FIELDS) };
  });
  // the queries an embedder has to embed are embedded together, before any search runs
  const vectors = await Promise.all(parsed.map(({ indexName, facet, params }) => (facet === undefined ? queryVectorOf(ctx, indexName, params) : undefined)));
  let enough = false;
  const results = parsed.map(({ indexName, facet, params }, i) => {
    if (facet !== undefined) {
      const index = ctx.engine.index(indexName);
      return searchFacetValues(index, facet, restricted(ctx, index, params), ctx.engine.dictionaries.query);
    }
    if (enough) return { index: indexName, hits: [], nbHits: 0, processed: false };
    const result = run(ctx, indexName, params, vectors[i]);
    if (strategy === 'stopIfEnoughMatches' && result.nbHits >= result.page.hitsPerPage) enough = true;
    return Object.assign(answerOf(result), { index: indexName });
  });
  return { results };
}
