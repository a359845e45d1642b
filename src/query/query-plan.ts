// From search parameters to the core's query: word roles (advanced syntax,
// optional words, stop words), per-attribute rules, the filter bitmap (filters,
// facet/numeric/tag filters, geo), filter scores and distinct.
import type { Alternative, CoreQuery } from '../core/core-index.js';
import { CRITERION, MAX_CRITERIA } from '../core/abi.js';
import { andInto, wordsFor, type Bitmap } from '../index/bitmap.js';
import { badRequest } from '../util/errors.js';
import { facetAttributes } from '../index/facets.js';
import { evaluateFilters, filterScores, hasScores, numericFilterable, type FilterContext } from '../index/filters/evaluate.js';
import {
  parseFacetFilters, parseFilters, parseNumericFilters, parseOptionalFilters, parseTagFilters, type FilterExpression,
} from '../index/filters/parse.js';
import { planGeo, type GeoPlan } from '../index/geo.js';
import type { SearchParams } from '../index/params.js';
import type { Setting } from '../index/settings.js';
import type { SearchIndex } from '../index/search-index.js';
import { fold } from '../text/fold.js';
import { wordsOfQueryWord } from '../text/word-breaks.js';
import { STANDARD_DICTIONARIES, type Languages, type QueryDictionaries } from '../text/dictionaries.js';
import { synonymAlternatives } from '../index/synonyms.js';


export interface QueryPlan {
  core: CoreQuery;
  /** The query words as typed ([start, end) in `core.query`), and the ones that count. */
  words: Array<[number, number]>;
  geo?: GeoPlan;
  /** Per record id: the score of scored filters (for _rankingInfo.filters). */
  scores?: Int32Array;
  /** The alternatives synonyms gave the query words (replaceSynonymsInHighlight). */
  synonyms: Alternative[];
  /** The query words that weigh less once words are relaxed (see relaxedLightWords). */
  lightWords: number;
  /** removeStopWords's stop words: ranking-only words, not highlighted nor in parsedQuery (see stopWordsMask). */
  stopWords: number;
  /** Where core.alternatives came from, in their order (explain: see explain.ts). */
  alternativeSources: AlternativeSource[];
}

/** Alternatives of one kind, as explain's `types` names it. */
export interface AlternativeSource { type: 'plural' | 'compound' | 'synonym' | 'wordBreaks'; alternatives: Alternative[] }


const bit = (w: number) => (w < 32 ? 1 << w : 0);

function typoMode(value: unknown): CoreQuery['typoMode'] {
  if (value === false || value === 'false') return 'off';
  if (value === 'min' || value === 'strict') return value;
  return 'on';
}

/** typoTolerance min and strict put the typo criterion first (compatibility.md, typos). */
function criteriaFor(criteria: number[], mode: CoreQuery['typoMode']): number[] {
  if (mode !== 'min' && mode !== 'strict') return criteria;
  return [CRITERION.typo, ...criteria.filter((c) => c !== CRITERION.typo)].slice(0, MAX_CRITERIA);
}

/**
 * exactOnSingleWordQuery `word` counts a single query word only when it has
 * 3+ characters and is not a stop word (compatibility.md, exact): otherwise
 * the criterion ties every record, as with `none`.
 */
function exactOnSingleWord(
  mode: CoreQuery['exactOnSingleWordQuery'], folded: string[], setting: Setting, dictionaries: QueryDictionaries,
): CoreQuery['exactOnSingleWordQuery'] {
  if (mode !== 'word' || folded.length !== 1) return mode;
  const word = folded[0];
  const queryLanguages: string[] | undefined = setting('queryLanguages');
  return word.length < 3 || dictionaries.isStopWord(word, queryLanguages?.length ? queryLanguages : undefined) ? 'none' : mode;
}

/** The query words (`folded`: each folded) that `wanted` keeps. */
function maskOf(folded: string[], wanted: (word: string, w: number) => boolean): number {
  let mask = 0;
  folded.forEach((word, w) => { if (wanted(word, w)) mask |= bit(w); });
  return mask;
}

/** The query words a setting lists (each listed entry folded to words by `wordsOf`); none when it lists none. */
function listedWordsMask(folded: string[], listed: string[] | null | undefined, wordsOf: (entry: string) => string[]): number {
  if (!listed?.length) return 0;
  const wanted = new Set(listed.flatMap(wordsOf));
  return maskOf(folded, (word) => wanted.has(word));
}

/** advancedSyntax: `-word` excludes, `"a b"` is a phrase (no typo, no prefix, adjacent). */
function advancedSyntax(query: string, words: Array<[number, number]>, setting: Setting) {
  const features: string[] = setting('advancedSyntaxFeatures') ?? ['exactPhrase', 'excludeWords'];
  const spans: Array<[number, number]> = [];
  if (features.includes('exactPhrase')) {
    for (const m of query.matchAll(/"([^"]*)"/g)) spans.push([m.index!, m.index! + m[0].length]);
  }
  const inSpan = (w: number) => spans.findIndex(([a, b]) => words[w][0] > a && words[w][1] < b);
  let excluded = 0, phraseWords = 0, phrasePairs = 0;
  words.forEach(([start], w) => {
    const dash = start > 0 && query[start - 1] === '-' && (start === 1 || /\s/.test(query[start - 2]));
    const span = inSpan(w);
    if (features.includes('excludeWords') && dash && span < 0) excluded |= bit(w);
    if (span >= 0) {
      phraseWords |= bit(w);
      if (w + 1 < words.length && inSpan(w + 1) === span) phrasePairs |= bit(w);
    }
  });
  return { excluded, phraseWords, phrasePairs };
}

/**
 * The languages a language option (removeStopWords, ignorePlurals: true or
 * a list) applies in: the list, or with true the queryLanguages (every
 * language when there are none); null when it is off.
 */
function optionLanguages(option: unknown, setting: Setting): Languages | null {
  if (Array.isArray(option)) return option.length > 0 ? option as string[] : null;
  if (option !== true) return null;
  const queryLanguages: string[] | undefined = setting('queryLanguages');
  return queryLanguages?.length ? queryLanguages : undefined;
}

/**
 * removeStopWords: the stop words of the query that become ranking-only
 * words (docs/DESIGN.md, "Stop words"). The service removes them from the
 * query; Lantern keeps them as optional words (never required, no typo)
 * that a record matching them ranks higher for (the words criterion counts
 * them after every other word, proximity and exact as any word), and that
 * never make a record a hit on their own (the core's stopWords): the hits
 * are those of the query without them, their order the one with them.
 * As the service does, none is removed from a word read as a prefix (the
 * last word with prefixLast, every word with prefixAll), nor when the query
 * has nothing else. Phrase and excluded words (advancedSyntax) keep their role.
 */
function stopWordsMask(
  folded: string[], setting: Setting, queryType: string, fixed: number, dictionaries: QueryDictionaries,
): number {
  const languages = optionLanguages(setting('removeStopWords'), setting);
  if (languages === null || queryType === 'prefixAll') return 0;
  const last = folded.length - 1;
  const mask = maskOf(folded, (word, w) => (fixed & bit(w)) === 0 && !(queryType === 'prefixLast' && w === last)
    && dictionaries.isStopWord(word, languages));
  const ranked = ((1 << Math.min(folded.length, 31)) - 1) & ~fixed;
  return (ranked & ~mask) === 0 ? 0 : mask;
}

/**
 * The stop words among the query words, which weigh less than the other
 * words once removeWordsIfNoResults relaxes the query (the words criterion
 * counts them last: a record matching the one content word of "skiathos
 * the" ranks before records matching only "the"). The stop words are those
 * of removeStopWords's languages when it is on, else of the queryLanguages,
 * else of every language. Nothing without a strategy: a query that has
 * results as typed is never relaxed, so its order never changes.
 */
function relaxedLightWords(folded: string[], setting: Setting, dictionaries: QueryDictionaries): number {
  if (setting('removeWordsIfNoResults') === 'none' || folded.length < 2) return 0;
  const queryLanguages: string[] | undefined = setting('queryLanguages');
  const languages = optionLanguages(setting('removeStopWords'), setting) ?? (queryLanguages?.length ? queryLanguages : undefined);
  return maskOf(folded, (word) => dictionaries.isStopWord(word, languages));
}

/** Alternatives of each query word: its plural or singular forms with ignorePlurals. */
function wordAlternatives(folded: string[], setting: Setting, dictionaries: QueryDictionaries): Alternative[] {
  const languages = optionLanguages(setting('ignorePlurals'), setting);
  if (languages === null) return [];
  const exact = (setting('alternativesAsExact') ?? []).includes('ignorePlurals');
  return folded.flatMap((form, word) => dictionaries.pluralForms(form, languages).map((text) => ({ word, text, exact })));
}

/** Alternatives of each compound query word: its parts, as a phrase (decompoundQuery, on unless false). */
function compoundAlternatives(folded: string[], setting: Setting, dictionaries: QueryDictionaries): Alternative[] {
  if (setting('decompoundQuery') === false) return [];
  const queryLanguages: string[] | undefined = setting('queryLanguages');
  const languages = queryLanguages?.length ? queryLanguages : undefined;
  return folded.flatMap((form, word) => dictionaries.decompositions(form, languages)
    .map((parts) => ({ word, text: parts.join(' '), exact: true })));
}

/** Alternatives from the index's synonyms (the `synonyms` parameter turns them off). */
function synonymsOf(index: SearchIndex, query: string, words: Array<[number, number]>, setting: Setting): Alternative[] {
  if (setting('synonyms') === false || index.synonyms.size === 0) return [];
  const asExact: string[] = setting('alternativesAsExact') ?? [];
  return synonymAlternatives(words.map(([s, e]) => query.slice(s, e)), index.synonyms.values(), {
    singleWord: asExact.includes('singleWordSynonym'), multiWords: asExact.includes('multiWordsSynonym'),
  });
}

/**
 * Word splitting and concatenation (typoTolerance true, min and strict;
 * compatibility.md, typos): a query word of minWordSizefor1Typo+ characters
 * may match as two words (a first part of up to MAX_SPLIT_HEAD characters),
 * and two consecutive query words as one. The words that may: the core
 * makes the cuts and joins and keeps those whose words are terms of the
 * index (assembly/split-words.ts). Words without typo tolerance
 * (disableTypoToleranceOnWords, phrases) and excluded words take no part.
 */
function splitsAndConcatenations(folded: string[], core: CoreQuery): { splitWords: number; concatWords: number } {
  if (core.typoMode === 'off') return { splitWords: 0, concatWords: 0 };
  const fixed = (core.noTypoWords ?? 0) | (core.excludedWords ?? 0);
  let splitWords = 0, concatWords = 0;
  folded.forEach((word, w) => {
    if ((fixed & bit(w)) !== 0) return;
    if (word.length >= core.minWordSizefor1Typo) splitWords |= bit(w);
    if (w + 1 < folded.length && (fixed & bit(w + 1)) === 0) concatWords |= bit(w);
  });
  return { splitWords, concatWords };
}

/**
 * Scripts written without spaces (src/text/word-breaks.ts): the records'
 * runs are indexed whole and as the words Intl.Segmenter finds in them,
 * while the query reaches the core as typed, so that a query run keeps its
 * typos and its prefix against a record's run or word (a misspelt or
 * half-typed word does not break where the records' words do). A query
 * word whose run breaks into several words also matches them as a phrase,
 * an exact match: a run inside a record's longer run.
 */
function wordBreakAlternatives(query: string, words: Array<[number, number]>): Alternative[] {
  const out: Alternative[] = [];
  words.forEach(([s, e], word) => {
    const text = wordsOfQueryWord(query.slice(s, e));
    if (text !== undefined) out.push({ word, text, exact: true });
  });
  return out;
}

export function filterExpressions(params: SearchParams): FilterExpression[] {
  const out: FilterExpression[] = [];
  if (params.filters) out.push(parseFilters(params.filters));
  for (const ruleFilters of params._ruleFilters ?? []) out.push(parseFilters(ruleFilters));
  if (params.facetFilters !== undefined) out.push(parseFacetFilters(params.facetFilters));
  if (params.numericFilters !== undefined) out.push(parseNumericFilters(params.numericFilters));
  if (params.tagFilters !== undefined) out.push(parseTagFilters(params.tagFilters));
  return out;
}

export function filterContext(index: SearchIndex, setting: Setting): FilterContext {
  const facetable = new Set(facetAttributes(setting('attributesForFaceting')).map((a) => a.name));
  facetable.add('_tags');
  return { facets: index.facets, words: wordsFor(index.capacity), facetable, numeric: numericFilterable(setting('numericAttributesForFiltering')) };
}

/** The filter bitmap, geo plan and filter scores of a query. */
export function planFilters(index: SearchIndex, params: SearchParams, setting: Setting) {
  const expressions = filterExpressions(params);
  const geo = planGeo(params, () => index.facets.geo(), index.capacity, wordsFor(index.capacity), (id) => index.objectIDOf(id) !== undefined);
  if (expressions.length === 0 && params.optionalFilters === undefined) return { filter: geo?.filter, geo, scores: undefined };
  const ctx = filterContext(index, setting);
  let filter: Bitmap | undefined = evaluateFilters(expressions, ctx);
  if (geo) filter = filter ? andInto(filter, geo.filter) : geo.filter;
  const scored: FilterExpression = [];
  if (params.optionalFilters !== undefined) scored.push(...parseOptionalFilters(params.optionalFilters));
  for (const e of expressions) if (hasScores(e)) scored.push(...e);
  const scores = filterScores(scored, ctx, index.capacity, setting('sumOrFiltersScores') ?? false);
  return { filter, geo, scores };
}

function distinctOf(setting: Setting): number {
  if (!setting('attributeForDistinct')) return 0;
  return setting('distinct');
}

/** `dictionaries`: the application's stop words, plurals and compounds (the built-in ones when not given). */
export function planQuery(
  index: SearchIndex, params: SearchParams, setting: Setting, offset: number, length: number,
  dictionaries: QueryDictionaries = STANDARD_DICTIONARIES,
): QueryPlan {
  const query: string = params.query ?? '';
  if (typeof query !== 'string') throw badRequest('Invalid value for "query": expected a string');
  const queryType = setting('queryType');
  const mode = typoMode(setting('typoTolerance'));
  const core: CoreQuery = {
    query,
    queryType,
    typoMode: mode,
    minWordSizefor1Typo: setting('minWordSizefor1Typo'),
    minWordSizefor2Typos: setting('minWordSizefor2Typos'),
    allowTyposOnNumericTokens: setting('allowTyposOnNumericTokens'),
    exactOnSingleWordQuery: setting('exactOnSingleWordQuery'),
    minProximity: setting('minProximity'),
    criteria: criteriaFor(index.ranking.criteria, mode),
    offset,
    length,
  };
  const words = index.coreIndex.prepareQuery(core);
  // each word folded once: most steps below read the words folded
  const folded = words.map(([s, e]) => fold(query.slice(s, e)));
  core.exactOnSingleWordQuery = exactOnSingleWord(core.exactOnSingleWordQuery, folded, setting, dictionaries);
  if (setting('advancedSyntax')) {
    const { excluded, phraseWords, phrasePairs } = advancedSyntax(query, words, setting);
    Object.assign(core, { excludedWords: excluded, noTypoWords: phraseWords, noPrefixWords: phraseWords, phrasePairs });
  }
  core.optionalWords = listedWordsMask(folded, setting('optionalWords'), (w) => fold(w).split(/\s+/));
  core.noTypoWords = (core.noTypoWords ?? 0) | listedWordsMask(folded, setting('disableTypoToleranceOnWords'), (w) => [fold(w)]);
  const stopWords = stopWordsMask(folded, setting, queryType, (core.excludedWords ?? 0) | (core.noPrefixWords ?? 0), dictionaries);
  if (stopWords !== 0) {
    Object.assign(core, { stopWords, lightWords: stopWords });
    core.optionalWords |= stopWords;
    core.noTypoWords |= stopWords;
  }
  if (params.restrictSearchableAttributes) core.allowedAttributes = index.attributeIds(params.restrictSearchableAttributes);
  const noTypo = setting('disableTypoToleranceOnAttributes');
  const noPrefix = setting('disablePrefixOnAttributes');
  const noExact = setting('disableExactOnAttributes');
  if (noTypo) core.noTypoAttributes = index.attributeIds(noTypo);
  if (noPrefix) core.noPrefixAttributes = index.attributeIds(noPrefix);
  if (noExact) core.noExactAttributes = index.attributeIds(noExact);
  const synonyms = synonymsOf(index, query, words, setting);
  const alternativeSources: AlternativeSource[] = [
    { type: 'plural', alternatives: wordAlternatives(folded, setting, dictionaries) },
    { type: 'compound', alternatives: compoundAlternatives(folded, setting, dictionaries) },
    { type: 'synonym', alternatives: synonyms },
    { type: 'wordBreaks', alternatives: wordBreakAlternatives(query, words) },
  ];
  // a loop, not flatMap: V8's flatMap cost a tenth of the plan of a TED query
  core.alternatives = [];
  for (const source of alternativeSources) for (const alternative of source.alternatives) core.alternatives.push(alternative);
  Object.assign(core, splitsAndConcatenations(folded, core));
  const { filter, geo, scores } = planFilters(index, params, setting);
  core.filter = filter;
  if (geo?.ranks) core.geoRanks = geo.ranks;
  if (scores) core.filterRanks = scores.ranks;
  core.distinct = distinctOf(setting);
  return {
    core, words, geo, scores: scores?.scores, synonyms, lightWords: relaxedLightWords(folded, setting, dictionaries), stopWords, alternativeSources,
  };
}

/** lastWords / firstWords remove at most this many words (compatibility.md, query strategy). */
const MAX_REMOVED_WORDS = 5;

/**
 * removeWordsIfNoResults: the optional-word masks to try in turn after a
 * query with no hits (lastWords / firstWords: one more word each time, at
 * most MAX_REMOVED_WORDS), over the words other than `skipped` (the stop
 * words removeStopWords already made optional, which the service removes
 * before the strategy counts words).
 */
export function fallbackMasks(strategy: string, wordCount: number, skipped = 0): number[] {
  const kept: number[] = [];
  for (let w = 0; w < wordCount; w++) if ((skipped & bit(w)) === 0) kept.push(w);
  if (kept.length < 2) return [];
  if (strategy === 'allOptional') return [kept.reduce((mask, w) => mask | bit(w), 0)];
  if (strategy !== 'lastWords' && strategy !== 'firstWords') return [];
  const order = strategy === 'lastWords' ? kept.reverse() : kept;
  const masks: number[] = [];
  let mask = 0;
  for (let k = 0; k < kept.length - 1 && k < MAX_REMOVED_WORDS; k++) masks.push(mask |= bit(order[k]));
  return masks;
}
