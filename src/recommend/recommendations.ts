// Answering one recommend request: the model's candidates, then the rules
// of the index and model that apply (hide, promote, filters,
// automaticFacetFilters), the threshold, the request's queryParameters (a
// search restricted to the candidates: filters choose among them, and
// attributesToRetrieve, highlighting... shape the hits), maxRecommendations
// and the fallback search. The answer is search-shaped, each hit with its
// `_score`.
import { hasBit, setBit, emptyBitmap, wordsFor, type Bitmap } from '../index/bitmap.js';
import type { SearchIndex } from '../index/search-index.js';
import type { SearchRecord } from '../index/records.js';
import type { SearchParams } from '../index/params.js';
import { planFilters } from '../query/query-plan.js';
import { settingsOf } from '../query/search.js';
import type { Hit, SearchResult } from '../query/search-result.js';
import { valuesAt } from '../personalization/profile.js';
import {
  boughtTogether, lookingSimilar, relatedProducts, trendingFacets, trendingItems, type Scored,
} from './candidates.js';
import { facetFilter } from './filters.js';
import type { IndexModels } from './index-models.js';
import type { RecommendSettings } from './options.js';
import type { RecommendRequest } from './request.js';
import { ruleIsOn, type RecommendRule } from './rules.js';

/** A search of the index the request names, as the caller's key may run it; `within`: the records it may find. */
export type RecommendSearch = (params: SearchParams, within?: Bitmap) => SearchResult;

export interface RecommendContext {
  index: SearchIndex;
  models: IndexModels | undefined;
  rules: ReadonlyMap<string, RecommendRule>;
  settings: RecommendSettings;
  now: number;
  search: RecommendSearch;
}

/** What the rules that apply do: items hidden and promoted, filters on the recommendations, optional filters boosting some. */
interface RuleEffects { hidden: Set<string>; promoted: Array<{ objectID: string; position: number }>; filters: string[]; optionalFilters: string[] }

/** The answer to one request: a search result whose hits are the recommendations. */
export function recommend(request: RecommendRequest, ctx: RecommendContext): SearchResult {
  const { index, models, settings, now } = ctx;
  const record = request.objectID !== undefined ? index.get(request.objectID) : undefined;
  const base = ctx.search({ ...request.queryParameters, hitsPerPage: 0 }, emptyBitmap(wordsFor(index.capacity)));
  if (request.model === 'trending-facets') {
    const facets = trendingFacets(models, index, settings, now, request.facetName!)
      .filter((f) => f.score >= request.threshold).slice(0, request.maxRecommendations);
    return answered(base, facets.map(({ facetName, facetValue, score }) => ({ facetName, facetValue, _score: score }) as unknown as Hit), request);
  }
  if (request.objectID !== undefined && !record) return answered(base, [], request);
  const candidates = candidatesOf(request, ctx, record);
  const effects = request.model === 'looking-similar' ? noEffects() : ruleEffects(ctx, record, request.queryParameters.ruleContexts ?? []);
  const kept = boosted(index, candidates.filter((c) => c.score >= request.threshold && !effects.hidden.has(c.objectID)), effects.optionalFilters);
  const filters = [...request.queryParameters._ruleFilters ?? [], ...effects.filters];
  let hits = searched(ctx, kept, { ...request.queryParameters, _ruleFilters: filters }, request.maxRecommendations);
  hits = promote(ctx, hits, effects, request);
  if (request.maxRecommendations !== undefined && hits.length < request.maxRecommendations && request.fallbackParameters) {
    hits = hits.concat(fallback(ctx, request, hits, request.maxRecommendations - hits.length));
  }
  return answered(base, hits, request);
}

function candidatesOf(request: RecommendRequest, ctx: RecommendContext, record: SearchRecord | undefined): Scored[] {
  const { index, models, settings, now } = ctx;
  switch (request.model) {
    case 'bought-together': return boughtTogether(models, record!.objectID, settings);
    case 'related-products': return relatedProducts(models, index, record!, settings, (params) => ctx.search(params));
    case 'looking-similar': return lookingSimilar(index, record!);
    default: {
      const facet = request.facetName !== undefined ? { name: request.facetName, value: request.facetValue! } : undefined;
      return trendingItems(models, index, settings, now, facet);
    }
  }
}

const noEffects = (): RuleEffects => ({ hidden: new Set(), promoted: [], filters: [], optionalFilters: [] });

/** The effects of the rules on at `now` whose condition the viewed item (when there is one) matches. */
function ruleEffects(ctx: RecommendContext, record: SearchRecord | undefined, contexts: readonly string[]): RuleEffects {
  const effects = noEffects();
  for (const rule of ctx.rules.values()) {
    if (!ruleIsOn(rule, ctx.now, contexts)) continue;
    const condition = rule.condition?.filters;
    if (condition !== undefined && (!record || !matches(ctx.index, record, condition))) continue;
    const c = rule.consequence ?? {};
    for (const h of c.hide ?? []) effects.hidden.add(h.objectID);
    effects.promoted.push(...c.promote ?? []);
    if (c.params?.filters) effects.filters.push(c.params.filters);
    effects.optionalFilters.push(...c.params?.optionalFilters ?? []);
    for (const auto of c.params?.automaticFacetFilters ?? []) {
      const values = record ? valuesAt(record, auto.facet) : [];
      if (values.length) effects.filters.push(facetFilter(auto.facet, values, auto.negative === true));
    }
  }
  return effects;
}

/**
 * The candidates with those the optional filters score highest first (a
 * negative one, `facet:-value`, scores the records without the value), the
 * model's order kept among equals, as optional filters rank search results.
 */
function boosted(index: SearchIndex, candidates: Scored[], optionalFilters: string[]): Scored[] {
  if (optionalFilters.length === 0 || candidates.length < 2) return candidates;
  const params: SearchParams = { optionalFilters };
  const { scores } = planFilters(index, params, settingsOf(index, params));
  if (!scores) return candidates;
  const boost = (c: Scored) => scores.scores[index.idOf(c.objectID) ?? -1] ?? 0;
  return candidates.map((c, i) => ({ c, i, boost: boost(c) }))
    .sort((a, b) => b.boost - a.boost || a.i - b.i).map(({ c }) => c);
}

/** Whether a record matches a filter expression (a rule's condition). */
function matches(index: SearchIndex, record: SearchRecord, filters: string): boolean {
  const id = index.idOf(record.objectID);
  const params: SearchParams = { filters };
  const { filter } = planFilters(index, params, settingsOf(index, params));
  return id !== undefined && (filter === undefined || hasBit(filter, id));
}

/**
 * The candidates (best first) the parameters keep, as hits in their order, each with its
 * `_score`, the first `limit` of them. Which candidates the parameters keep
 * is found by a search answering objectIDs alone, over the best-scored
 * candidates first (a model has up to 1,000: when a few times `limit` of
 * the best hold `limit` that pass, the rest cannot change the answer);
 * only the first `limit` are then read as hits.
 */
function searched(ctx: RecommendContext, candidates: Scored[], params: SearchParams, limit = Infinity): Hit[] {
  if (candidates.length === 0 || limit <= 0) return [];
  const { page: _page, offset: _offset, length: _length, ...rest } = params;
  const first = Math.min(candidates.length, Math.max(FIRST_TRY, limit * 4));
  let kept = passing(ctx, candidates.slice(0, first), rest).slice(0, limit);
  if (kept.length < limit && first < candidates.length) kept = passing(ctx, candidates, rest).slice(0, limit);
  if (kept.length === 0) return [];
  const place = new Map(kept.map((c, i) => [c.objectID, i]));
  return ctx.search({ ...rest, hitsPerPage: kept.length }, recordsBitmap(ctx.index, place.keys())).answer.hits
    .map((hit) => ({ ...hit, _score: kept[place.get(hit.objectID)!].score }))
    .sort((a, b) => place.get(a.objectID)! - place.get(b.objectID)!);
}

/** Candidates tried first for a page of recommendations (see `searched`). */
const FIRST_TRY = 40;

/** The candidates (best first) the parameters keep, in their order. */
function passing(ctx: RecommendContext, candidates: Scored[], params: SearchParams): Scored[] {
  const found = ctx.search({
    ...params, hitsPerPage: candidates.length, attributesToRetrieve: ['objectID'], attributesToHighlight: [], attributesToSnippet: [], getRankingInfo: false, facets: [],
  }, recordsBitmap(ctx.index, candidates.map((c) => c.objectID)));
  const kept = new Set(found.answer.hits.map((hit) => hit.objectID));
  return candidates.filter((c) => kept.has(c.objectID));
}

/** The records of `objectIDs` the index holds, as a bitmap over its record ids. */
function recordsBitmap(index: SearchIndex, objectIDs: Iterable<string>): Bitmap {
  const bitmap = emptyBitmap(wordsFor(index.capacity));
  for (const objectID of objectIDs) {
    const id = index.idOf(objectID);
    if (id !== undefined) setBit(bitmap, id);
  }
  return bitmap;
}

/** Promoted items placed at their positions (scored 100: a merchandiser chose them), out of the list where they were. */
function promote(ctx: RecommendContext, hits: Hit[], effects: RuleEffects, request: RecommendRequest): Hit[] {
  if (effects.promoted.length === 0) return hits;
  const wanted = effects.promoted.filter((p) => p.objectID !== request.objectID && !effects.hidden.has(p.objectID));
  const found = new Map(searched(ctx, wanted.map((p) => ({ objectID: p.objectID, score: 100 })), request.queryParameters).map((h) => [h.objectID, h]));
  const out = hits.filter((h) => !found.has(h.objectID));
  for (const p of [...wanted].sort((a, b) => a.position - b.position)) {
    const hit = found.get(p.objectID);
    if (hit) out.splice(Math.min(p.position, out.length), 0, hit);
  }
  return out.slice(0, Math.max(request.maxRecommendations ?? out.length, wanted.length));
}

/** Records of the fallback search, none already recommended nor the viewed one. */
function fallback(ctx: RecommendContext, request: RecommendRequest, hits: Hit[], wanted: number): Hit[] {
  const present = new Set(hits.map((h) => h.objectID).concat(request.objectID ?? []));
  const result = ctx.search({ ...request.fallbackParameters, hitsPerPage: wanted + present.size, page: 0 });
  return result.answer.hits.filter((h) => !present.has(h.objectID)).slice(0, wanted);
}

/** `base` (the parameters' answer fields) with the recommendations as its only page. */
function answered(base: SearchResult, hits: Hit[], request: RecommendRequest): SearchResult {
  const hitsPerPage = request.maxRecommendations ?? Math.max(1, hits.length);
  const { facets: _facets, facets_stats: _stats, ...fields } = base.answer;
  const answer = { ...fields, hits, nbHits: hits.length, page: 0, nbPages: hits.length ? 1 : 0, hitsPerPage };
  return { ...base, answer, nbHits: hits.length, objectIDs: hits.map((h) => h.objectID ?? '') };
}
