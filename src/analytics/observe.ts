// What happens around one search for analytics: the A/B test running on the
// index picks the variant (index and custom parameters), personalization
// re-ranks the hits for a known user, and the search is recorded (unless
// `analytics: false`) with a queryID returned when `clickAnalytics` is set.
// All of it reads the search's result, never the answer cut to the caller's
// responseFields (see search-result.ts).
import type { Engine } from '../engine/engine.js';
import type { SearchParams } from '../index/params.js';
import { replaceHits, type SearchResult } from '../query/search-result.js';
import { effectiveSetting } from '../index/settings.js';
import { wellFormed } from '../index/storable.js';
import type { FilterExpression } from '../index/filters/parse.js';
import { filterExpressions } from '../query/query-plan.js';
import { runningTestOn, variantOf } from '../abtest/tests.js';
import { personalScore, profileOf, rerank } from '../personalization/profile.js';
import type { SearchEvent, UsedFilter } from './events.js';
import { countedHexId } from '../util/counted-ids.js';

export interface SearchCall {
  /** What observing a search uses of the engine: the indexes, the analytics state, the country of an address. */
  engine: Pick<Engine, 'analytics' | 'indexes' | 'resolveCountry'>;
  headers: Record<string, string>;
  sourceIp: string;
}

export type RunSearch = (indexName: string, params: SearchParams) => SearchResult;

/** The tags and filters of the many searches that have none: one empty list they share (every event is kept). */
const NONE: never[] = [];
Object.freeze(NONE);

/** Personalization looks at most this far down the relevance order. */
const PERSONALIZATION_WINDOW = 1000;

function userTokenOf(call: SearchCall, params: SearchParams): string | undefined {
  return params.userToken ?? call.headers['x-algolia-usertoken'];
}

export function observeSearch(call: SearchCall, indexName: string, requested: SearchParams, run: RunSearch): SearchResult {
  const state = call.engine.analytics;
  const user = userTokenOf(call, requested) ?? call.sourceIp;
  const test = requested.enableABTest === false ? undefined : runningTestOn(state.abTests.values(), indexName);
  const variant = test ? variantOf(test, user) : undefined;
  const target = test ? test.variants[variant! - 1] : undefined;
  const searchedIndex = target?.index ?? indexName;
  // a copy only for a variant's own parameters: most searches are of no test
  const params = target?.customSearchParameters ? { ...requested, ...target.customSearchParameters } : requested;
  const result = personalized(call, searchedIndex, params, run) ?? run(searchedIndex, params);
  if (test) result.abTest = { id: test.abTestID, variant: variant! };
  if (params.analytics === false) return result;
  // the texts a search may carry as given (its query, filters, tags, userToken) with lone surrogates
  // replaced: one would make the whole batch of searches unloggable, and lose it at the next restart
  const event: SearchEvent = {
    id: countedHexId(),
    index: indexName,
    query: wellFormed(String(requested.query ?? '')),
    nbHits: result.nbHits,
    hits: result.objectIDs,
    filters: usedFilters(params).map((f) => ({ ...f, attribute: wellFormed(f.attribute), value: wellFormed(f.value) })),
    tags: params.analyticsTags ? params.analyticsTags.map(wellFormed) : NONE,
    user: wellFormed(user),
    at: Date.now(),
    tracked: params.clickAnalytics === true,
  };
  const country = call.engine.resolveCountry?.(call.sourceIp);
  if (country) event.country = country;
  if (result.abTest) event.abTest = result.abTest;
  state.recordSearch(event);
  if (event.tracked) result.queryID = event.id;
  return result;
}

/**
 * With enablePersonalization, a userToken, a strategy and a profile: the page
 * of hits re-ranked from the top of the relevance order; undefined otherwise.
 */
function personalized(call: SearchCall, indexName: string, params: SearchParams, run: RunSearch): SearchResult | undefined {
  const engine = call.engine;
  const index = engine.indexes.get(indexName);
  const userToken = userTokenOf(call, params);
  const enabled = params.enablePersonalization ?? (index && effectiveSetting(index.settings, 'enablePersonalization'));
  if (!index || !enabled || userToken === undefined || !engine.analytics.strategy) return undefined;
  const profile = profileOf(engine.analytics, userToken, (name, objectID) => engine.indexes.get(name)?.get(objectID));
  if (!profile) return undefined;
  const result = run(indexName, params);
  const limit = Math.min(PERSONALIZATION_WINDOW, effectiveSetting(index.settings, 'paginationLimitedTo') ?? PERSONALIZATION_WINDOW);
  const { page: _page, hitsPerPage: _size, offset: _offset, length: _length, ...rest } = params;
  const window = run(indexName, { ...rest, offset: 0, length: limit }).answer.hits;
  const impact = params.personalizationImpact ?? engine.analytics.strategy.personalizationImpact;
  const ranked = rerank(window, (hit) => personalScore(profile.scores, index.get(hit.objectID) ?? { objectID: hit.objectID }), impact);
  const { offset, length } = result.page;
  replaceHits(result, ranked.slice(offset, offset + length).map(({ item, filtersScore, rankingScore, score }) => (
    item._rankingInfo ? { ...item, _rankingInfo: { ...item._rankingInfo, personalization: { filtersScore, rankingScore, score } } } : item
  )));
  return result;
}

function atomsOf(expression: FilterExpression): UsedFilter[] {
  return expression.flat().map((atom) => {
    switch (atom.kind) {
      case 'facet': return { attribute: atom.attribute, operator: ':', value: atom.value };
      case 'numeric': return { attribute: atom.attribute, operator: atom.operator, value: String(atom.value) };
      case 'range': return { attribute: atom.attribute, operator: ':', value: `${atom.low} TO ${atom.high}` };
    }
  });
}

/** The filters a search used (filters, facetFilters, numericFilters, tagFilters), once each. */
function usedFilters(params: SearchParams): UsedFilter[] {
  const expressions = filterExpressions(params);
  if (expressions.length === 0) return NONE;
  const unique = new Map(expressions.flatMap(atomsOf).map((f) => [`${f.attribute}\u0000${f.operator}\u0000${f.value}`, f]));
  return [...unique.values()];
}
