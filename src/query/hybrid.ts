// Hybrid search: the keyword answer and the nearest records by an
// embedder's vectors, fused into one ranking (vectors.md). Both sides see
// the same candidates: the filters (and the rules' hidden and promoted
// records) restrict the vector side before its top k is cut, as they
// restrict the keyword side. Each hit gets a keyword score (its place in
// the ranking criteria's order, as a number in [0, 1]) and a semantic score
// (its cosine similarity mapped to [0, 1]); see FUSION for how they meet.
import { CRITERION, GROUP_SLOT } from '../core/abi.js';
import type { CoreHit, CoreResult } from '../core/core-index.js';
import { badRequest } from '../util/errors.js';
import { checkVector } from '../vectors/record-vectors.js';
import type { EmbedderSettings } from '../vectors/embedder-settings.js';
import type { SearchParams } from '../index/params.js';
import type { Setting } from '../index/settings.js';
import type { SearchIndex } from '../index/search-index.js';
import type { QueryPlan } from './query-plan.js';
import { emptyBitmap, forEachId, hasBit, orInto, setBit, wordsFor } from '../index/bitmap.js';

/** A hybrid search as asked: which embedder, how much its side weighs, and the query's vector when there is one. */
export interface HybridRequest {
  embedder: string;
  /** 0: the keyword answer alone; 1: the vector answer alone. */
  semanticRatio: number;
  /** The query's vector: given (`vector`) or embedded from the query text. */
  vector?: ArrayLike<number>;
  /** Why the query has no vector although its embedder computes them (the answer says so; the keyword side answers). */
  failure?: string;
}

/** How a query's vector was obtained before the search, by the caller that may wait for an embedder. */
export interface QueryVector { vector?: ArrayLike<number>; failure?: string }

/** The ratio a hybrid search weighs vectors by, unless it says (Meilisearch's default, and neuralSearch's). */
export const DEFAULT_SEMANTIC_RATIO = 0.5;

/** The embedder and ratio a search asks for, before its query's vector is known. */
interface HybridAsked { embedder: string; settings: EmbedderSettings; semanticRatio: number }

/**
 * The hybrid search `params` ask for on `index`: its `hybrid` parameter, or
 * the index's `mode: "neuralSearch"` (its first embedder); a `vector` alone
 * searches by vectors alone. Undefined for a keyword search. Refuses an
 * embedder the index does not have.
 */
function hybridAsked(index: SearchIndex, params: SearchParams, setting: Setting): HybridAsked | undefined {
  const names = index.vectors.names();
  const neural = setting('mode') === 'neuralSearch' && names.length > 0;
  if (params.hybrid === undefined && params.vector === undefined && !neural) return undefined;
  const embedder = params.hybrid?.embedder ?? names[0];
  const settings = embedder === undefined ? undefined : index.vectors.settingsOf(embedder);
  if (!settings) {
    throw badRequest(`Invalid value for "hybrid.embedder": ${embedder === undefined ? 'the index has no embedders' : `the index has no embedder "${embedder}" (it has ${names.join(', ') || 'none'})`}`);
  }
  const semanticRatio = params.hybrid?.semanticRatio ?? (params.hybrid === undefined && !neural ? 1 : DEFAULT_SEMANTIC_RATIO);
  return { embedder, settings, semanticRatio };
}

/**
 * The text a search's embedder has to embed before the search runs (its
 * query, when the vector side counts and the search brings no vector of
 * its own), and by which embedder; undefined when there is none to embed.
 */
export function queryToEmbed(index: SearchIndex, params: SearchParams, setting: Setting): { embedder: string; text: string } | undefined {
  const asked = hybridAsked(index, params, setting);
  const text = params.query ?? '';
  if (!asked || asked.semanticRatio === 0 || params.vector !== undefined || text === '' || asked.settings.source === 'userProvided') return undefined;
  return { embedder: asked.embedder, text };
}

/**
 * The hybrid search `params` ask for (see hybridAsked), with its query's
 * vector: given, or embedded by the caller (`queryVector`). Refuses a
 * vector of the wrong length, and a query text a userProvided embedder
 * cannot embed.
 */
export function hybridRequestOf(index: SearchIndex, params: SearchParams, setting: Setting, queryVector?: QueryVector): HybridRequest | undefined {
  const asked = hybridAsked(index, params, setting);
  if (!asked) return undefined;
  const { embedder, settings, semanticRatio } = asked;
  const vector = params.vector ?? queryVector?.vector;
  if (vector !== undefined) checkVector(Array.from(vector), settings.dimensions, '"vector"');
  // an index searching in neuralSearch mode answers a query without a vector by its keywords (the setting asked, not the query)
  if (vector === undefined && settings.source === 'userProvided' && semanticRatio > 0 && (params.query ?? '') !== '' && params.hybrid !== undefined) {
    throw badRequest(`"vector" is required: the embedder "${embedder}" is userProvided, so Lantern cannot embed the query`);
  }
  return { embedder, semanticRatio, ...(vector !== undefined ? { vector } : {}), ...(queryVector?.failure ? { failure: queryVector.failure } : {}) };
}

/** What a hybrid hit's `_rankingInfo` adds. */
export interface HybridScores { keywordScore?: number; semanticScore?: number; neuralScore: number }

/** A hybrid search's hits, with what the answer says of them. */
export interface HybridResult extends CoreResult {
  /** The records the answer counts and facets: the keyword candidates and the vector side's. */
  candidates: Uint32Array;
  scores: Map<number, HybridScores>;
  /** The hits the vector side brought that the keyword side did not (an answer's semanticHitCount counts those of its page). */
  vectorOnly: Set<number>;
}

/**
 * How the two sides meet: `score` weighs each hit's keyword and semantic
 * scores by the ratio (Meilisearch); `rank` weighs reciprocal ranks
 * (Typesense). bench/hybrid.mjs measures both.
 */
export type Fusion = 'score' | 'rank';
export const FUSION: Fusion = 'score';

/** Reciprocal rank fusion's constant (k = 60 in the literature and in Typesense). */
const RRF_K = 60;

/**
 * Runs a hybrid search whose keyword side is `plan` (filters applied, the
 * rules' exclusions in its filter), for the first `window` hits of the
 * fused ranking; `keyword` runs the plan's keyword search. The request has
 * a vector and a ratio above 0 (otherwise the keyword search answers alone).
 */
export function runHybrid(
  index: SearchIndex, plan: QueryPlan, request: HybridRequest & { vector: ArrayLike<number> }, window: number,
  keyword: () => CoreResult, distinct: number, fusion: Fusion = FUSION,
): HybridResult {
  const ratio = request.semanticRatio;
  plan.core.offset = 0;
  plan.core.length = window;
  const lexical: CoreResult = ratio < 1 ? keyword() : { nbHits: 0, words: index.coreIndex.prepareQuery(plan.core), hits: [] };
  const candidates = emptyBitmap(wordsFor(index.capacity));
  if (ratio < 1) orInto(candidates, index.coreIndex.candidates());
  const scores = new Map<number, HybridScores>();
  const ranked: CoreHit[] = [];
  const keywordRank = new Map<number, number>();
  lexical.hits.forEach((hit, rank) => {
    keywordRank.set(hit.id, rank);
    scores.set(hit.id, { keywordScore: keywordScoreOf(hit, plan, index), neuralScore: 0 });
    ranked.push(hit);
  });
  // a record past the keyword window that matched the words scores as the window's last hit, at most
  const floor = lexical.hits.length > 0 ? scores.get(lexical.hits[lexical.hits.length - 1].id)!.keywordScore! : 0;
  const nearest = index.vectors.nearest(request.embedder, request.vector, window, plan.core.filter);
  const semanticRank = new Map<number, number>();
  const vectorOnly = new Set<number>();
  let unmatched = 0;
  nearest.labels.forEach((id, rank) => {
    semanticRank.set(id, rank);
    const semanticScore = (1 + nearest.similarities[rank]) / 2;
    const known = scores.get(id);
    if (known) { known.semanticScore = semanticScore; return; }
    const matched = hasBit(candidates, id);
    if (!matched) { unmatched++; setBit(candidates, id); }
    scores.set(id, { ...(ratio < 1 ? { keywordScore: matched ? floor : 0 } : {}), semanticScore, neuralScore: 0 });
    vectorOnly.add(id);
    ranked.push(vectorHit(id));
  });
  // a keyword hit past the vector window scores as the window's last one, at most (0 without a vector)
  const semanticFloor = nearest.similarities.length > 0 ? (1 + nearest.similarities[nearest.similarities.length - 1]) / 2 : 0;
  for (const hit of ranked) {
    const s = scores.get(hit.id)!;
    s.semanticScore ??= index.vectors.has(request.embedder, hit.id) ? semanticFloor : 0;
    s.neuralScore = fusion === 'score'
      ? (1 - ratio) * (s.keywordScore ?? 0) + ratio * (s.semanticScore ?? 0)
      : rrf(keywordRank.get(hit.id), 1 - ratio) + rrf(semanticRank.get(hit.id), ratio);
  }
  // a stable sort: ties keep the keyword order, then the vector order
  ranked.sort((a, b) => scores.get(b.id)!.neuralScore - scores.get(a.id)!.neuralScore);
  const hits = distinctHits(index, ranked, distinct);
  const nbHits = ratio < 1 ? lexical.nbHits + unmatched : vectorsAllowed(index, request.embedder, plan.core.filter);
  return { nbHits: Math.max(nbHits, hits.length), words: lexical.words, hits, candidates, scores, vectorOnly };
}

/** How many records have a vector of `embedder` and pass `filter`: what a search by vectors alone finds. */
function vectorsAllowed(index: SearchIndex, embedder: string, filter: Uint32Array | undefined): number {
  if (!filter) return index.vectors.sizeOf(embedder);
  let count = 0;
  forEachId(filter, (id) => { if (index.vectors.has(embedder, id)) count++; });
  return count;
}

const rrf = (rank: number | undefined, weight: number) => (rank === undefined ? 0 : weight / (RRF_K + rank + 1));

/** A hit found by the vector side alone: it matched no query word. */
function vectorHit(id: number): CoreHit {
  return { id, typos: 0, words: 0, proximity: 0, attributeRank: 0, attributePosition: 0, exactWords: 0, customRank: 0 };
}

/** At most `distinct` hits per group of attributeForDistinct, in order (the keyword side's are already; the vector side's are not). */
function distinctHits(index: SearchIndex, hits: CoreHit[], distinct: number): CoreHit[] {
  if (distinct <= 0 || !index.settings.attributeForDistinct) return hits;
  const groups = index.computeRanksOnce().find(([slot]) => slot === GROUP_SLOT)?.[1].labels;
  if (!groups) return hits;
  const seen = new Map<number, number>();
  return hits.filter((hit) => {
    const group = groups[hit.id] ?? -1;
    if (group < 0) return true;
    const count = seen.get(group) ?? 0;
    seen.set(group, count + 1);
    return count < distinct;
  });
}

/**
 * A keyword hit's score in [0, 1]: its place in the order of the textual
 * ranking criteria (typo, words, proximity, attribute, exact) as they come
 * in the index's ranking, read as the digits of one number (each criterion
 * a digit of its own base), so a hit ranked before another by these
 * criteria never scores less. Every record matches an empty query fully.
 */
export function keywordScoreOf(hit: CoreHit, plan: QueryPlan, index: SearchIndex): number {
  const words = plan.words.length;
  if (words === 0) return 1;
  let score = 0;
  let best = 0;
  let weight = 1;
  for (const criterion of plan.core.criteria) {
    const digit = criterionDigit(criterion, hit, words, index);
    if (!digit) continue;
    const [value, base] = digit;
    weight /= base + 1;
    score += value * weight;
    best += base * weight;
  }
  return best === 0 ? 1 : score / best;
}

/** A criterion's [value, highest value] for a hit (higher is better); undefined for the criteria that are not textual. */
function criterionDigit(criterion: number, hit: CoreHit, words: number, index: SearchIndex): [number, number] | undefined {
  switch (criterion) {
    case CRITERION.words: return [hit.words, words];
    case CRITERION.typo: return [Math.max(0, 2 * words - hit.typos), 2 * words];
    case CRITERION.proximity: {
      const worst = 7 * Math.max(1, words - 1);
      return [Math.max(0, worst - Math.max(0, hit.proximity - (hit.words - 1))), worst];
    }
    case CRITERION.attribute: {
      const last = Math.max(1, (index.parsedSearchableAttributes()?.length ?? 1) - 1);
      return [last - Math.min(last, hit.attributeRank), last];
    }
    case CRITERION.exact: return [hit.exactWords, words];
    default: return undefined;
  }
}
