// What each model recommends before rules and parameters: items (or facet
// values) with a score from 0 to 100, best first (callers rely on the
// order, and must not change the lists: trends are shared between requests). Event models answer once
// their window holds their minimum of events; related products are
// completed by content (records sharing the viewed one's facet values, or
// words of its first searchable attribute), scored at most CONTENT_SCORE so
// that what users did ranks first.
import { badRequest } from '../util/errors.js';
import { effectiveSetting } from '../index/settings.js';
import { facetAttributes } from '../index/facets.js';
import { valuesAt } from '../personalization/profile.js';
import type { SearchIndex } from '../index/search-index.js';
import type { SearchRecord } from '../index/records.js';
import type { SearchParams } from '../index/params.js';
import type { SearchResult } from '../query/search-result.js';
import type { IndexModels } from './index-models.js';
import type { RecommendSettings } from './options.js';
import { dayOf } from './options.js';

export interface Scored { objectID: string; score: number }
export interface ScoredFacet { facetName: string; facetValue: string; score: number }

/** Candidates a model considers at most (rules and filters then choose among them). */
export const MAX_CANDIDATES = 1000;
/** The highest score of a recommendation by content alone. */
const CONTENT_SCORE = 50;
/** Related products are completed by content when events give fewer than this (the most a request returns)... */
const CONTENT_WHEN_FEWER = 30;
/** ...with at most this many records. */
const CONTENT_CANDIDATES = 100;
/** Words of the viewed record's text a content search uses. */
const CONTENT_WORDS = 10;

const percent = (share: number) => Math.round(Math.min(1, Math.max(0, share)) * 10_000) / 100;

function ranked(neighbours: Array<[number, number]>, models: IndexModels, except: string): Scored[] {
  return neighbours.map(([item, share]) => ({ objectID: models.items[item], score: percent(share) }))
    .filter((c) => c.objectID !== except && c.score > 0);
}

export function boughtTogether(models: IndexModels | undefined, objectID: string, settings: RecommendSettings): Scored[] {
  const item = models?.known(objectID);
  if (!models || item === undefined || models.boughtTogether.events < settings.minBoughtTogetherEvents) return [];
  return ranked(models.boughtTogether.neighbours(item, MAX_CANDIDATES), models, objectID);
}

/** A search over the index's records for content completion (the caller restricts it as the request's key must). */
export type ContentSearch = (params: SearchParams) => SearchResult;

export function relatedProducts(
  models: IndexModels | undefined, index: SearchIndex, record: SearchRecord, settings: RecommendSettings, search: ContentSearch,
): Scored[] {
  const item = models?.known(record.objectID);
  const byEvents = models && item !== undefined && models.related.events >= settings.minRelatedEvents
    ? ranked(models.related.neighbours(item, MAX_CANDIDATES), models, record.objectID) : [];
  // content completes thin events only: a page's worth of recommendations (its search is the costly part)
  if (byEvents.length >= CONTENT_WHEN_FEWER) return byEvents;
  const seen = new Set(byEvents.map((c) => c.objectID).concat(record.objectID));
  // what users did ranks first: content scores stay under the lowest score from events
  const cap = Math.min(CONTENT_SCORE, (byEvents[byEvents.length - 1]?.score ?? Infinity) * 0.99);
  return byEvents.concat(byContent(index, record, search, cap).filter((c) => !seen.has(c.objectID)));
}

/** Records like `record` by its facet values (or, in an index without facets, its words), scored up to `cap`. */
function byContent(index: SearchIndex, record: SearchRecord, search: ContentSearch, cap: number): Scored[] {
  const facets = facetAttributes(effectiveSetting(index.settings, 'attributesForFaceting')).map((a) => a.name);
  const shared = facets.flatMap((facet) => valuesAt(record, facet).map((value) => `${facet}:${value}`));
  const text = shared.length ? '' : firstText(index, record);
  if (!shared.length && !text) return [];
  const words = text.split(/\s+/).filter(Boolean).length;
  const result = search({
    query: text, hitsPerPage: CONTENT_CANDIDATES, getRankingInfo: true, attributesToRetrieve: ['objectID'],
    attributesToHighlight: [], attributesToSnippet: [],
    ...(shared.length ? { optionalFilters: shared, sumOrFiltersScores: true } : { removeWordsIfNoResults: 'allOptional' as const, optionalWords: [text] }),
  });
  return result.answer.hits.map((hit) => {
    const info = hit._rankingInfo as { filters?: number; words?: number } | undefined;
    const share = shared.length ? (info?.filters ?? 0) / shared.length : (info?.words ?? 0) / Math.max(1, words);
    return { objectID: hit.objectID, score: percent(share * cap / 100) };
  }).filter((c) => c.objectID !== record.objectID && c.score > 0).sort((a, b) => b.score - a.score);
}

/** The first words of the record's first searchable attribute holding text. */
function firstText(index: SearchIndex, record: SearchRecord): string {
  const names = index.parsedSearchableAttributes()?.map((a) => a.name) ?? Object.keys(record).filter((k) => k !== 'objectID');
  for (const name of names) {
    const value = valuesAt(record, name).join(' ').trim();
    if (value) return value.split(/\s+/).slice(0, CONTENT_WORDS).join(' ');
  }
  return '';
}

/**
 * Scored trends by the trend list they were made from: ConversionDays
 * hands back the same list until a conversion is learnt, so each request
 * between two conversions reuses its thousand scored candidates.
 */
const scoredTrends = new WeakMap<object, unknown[]>();

/** Trends of the index's items, or of their values of `facetName`, scored by `score` (the top one's share is 1). */
function trends<G, S>(
  models: IndexModels | undefined, settings: RecommendSettings, now: number, groupsOf: (item: number) => Iterable<G>, key: string,
  score: (group: G, share: number) => S,
): S[] {
  if (!models || models.conversions.events < settings.minTrendingEvents) return [];
  const span = { today: dayOf(now), recentDays: Math.max(1, settings.trendingRecentDays), firstDay: dayOf(models.since) };
  const found = models.conversions.trends(span, groupsOf, key);
  let scored = scoredTrends.get(found) as S[] | undefined;
  if (!scored) {
    const top = found[0]?.[1] ?? 0;
    scored = found.slice(0, MAX_CANDIDATES).map(([g, trend]) => score(g, trend / top));
    scoredTrends.set(found, scored);
  }
  return scored;
}

export function trendingItems(
  models: IndexModels | undefined, index: SearchIndex, settings: RecommendSettings, now: number, facet?: { name: string; value: string },
): Scored[] {
  const within = facet
    ? (item: number) => { const r = index.get(models!.items[item]); return r && valuesAt(r, facet.name).includes(facet.value) ? [item] : []; }
    : (item: number) => [item];
  // items alone read no record: their trends stand until a conversion; a facet's read the records as they are now
  const key = facet ? JSON.stringify(['items', facet.name, facet.value, index.version]) : 'items';
  return trends(models, settings, now, within, key, (item, share): Scored => ({ objectID: models!.items[item], score: percent(share) }));
}

export function trendingFacets(models: IndexModels | undefined, index: SearchIndex, settings: RecommendSettings, now: number, facetName: string): ScoredFacet[] {
  const valuesOf = (item: number) => { const r = index.get(models!.items[item]); return r ? new Set(valuesAt(r, facetName)) : []; };
  const key = JSON.stringify(['facet', facetName, index.version]);
  return trends(models, settings, now, valuesOf, key, (facetValue, share): ScoredFacet => ({ facetName, facetValue, score: percent(share) }));
}

/** The records nearest the viewed one by an embedder's vectors (the first of the index's when `embedder` is not named). */
export function lookingSimilar(index: SearchIndex, record: SearchRecord, embedder?: string): Scored[] {
  const names = index.vectors.names();
  if (names.length === 0) {
    throw badRequest(`looking-similar compares records' vectors: index ${index.name} has no embedder (set one in its settings, "embedders")`);
  }
  const name = embedder ?? names[0];
  if (!names.includes(name)) throw badRequest(`Index ${index.name} has no embedder "${name}" (it has ${names.join(', ')})`);
  const vector = index.vectors.vectorOf(name, record);
  if (!vector) return [];
  const nearest = index.vectors.nearest(name, vector, MAX_CANDIDATES + 1);
  const out: Scored[] = [];
  nearest.labels.forEach((id, i) => {
    const objectID = index.objectIDOf(id);
    if (objectID !== undefined && objectID !== record.objectID) out.push({ objectID, score: percent(nearest.similarities[i]) });
  });
  return out.filter((c) => c.score > 0);
}
