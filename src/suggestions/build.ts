// Building the records of a suggestions index from a configuration. Each
// candidate query of each source index must have enough letters, no special
// characters (unless allowed), match no exclusion and still find `minHits`
// hits in the source index; a kept query carries, per source index, its hit
// count and top facet values (in its results, and as filters its searchers
// used). With `languages`, of a singular and a plural only the more popular
// stays. Work is done a slice of queries per turn, so searches keep flowing.
import type { EventStore } from '../analytics/events.js';
import { topFilterValues, type Scope } from '../analytics/reports.js';
import type { Engine } from '../engine/engine.js';
import { facetAttributes } from '../index/facets.js';
import { parseSearchParams } from '../index/params.js';
import { pluralForms, pluralsEnabled } from '../text/plurals.js';
import type { SearchRecord } from '../index/records.js';
import { searchIndex } from '../query/search.js';
import type { SearchIndex } from '../index/search-index.js';
import { effectiveSetting } from '../index/settings.js';
import { yieldTurn } from '../util/turns.js';
import { generatedQueries, popularQueries, popularScope, POPULARITY_DAYS } from './candidates.js';
import type { SourceIndexConfig, SuggestionsConfig } from './config.js';
import { BuildLog } from './log.js';

/** Candidate queries checked per turn of the event loop. */
const SLICE = 20;
const SPECIAL_CHARACTERS = /[^\p{L}\p{N}\s'-]/u;

type FacetValue = { value: string; count: number };
type FacetFilterCount = { attribute: string; operator: string; value: string; count: number };

/** What a suggestion record holds for one source index. */
export interface SourceFigures {
  exact_nb_hits: number;
  facets: { exact_matches: Record<string, FacetValue[]>; analytics: Record<string, FacetFilterCount[]> };
}

interface Suggestion { query: string; popularity: number; sources: Record<string, SourceFigures> }

export interface Built {
  records: SearchRecord[];
  /** Settings of the suggestions index: the query searched as-you-type, most popular first. */
  settings: Record<string, unknown>;
  log: BuildLog;
}

interface SourceContext {
  source: SourceIndexConfig;
  index: SearchIndex;
  scope: Scope;
  config: SuggestionsConfig;
  log: BuildLog;
}

/** An exclusion matches the whole query or one of its words (a word, or a regular expression). */
function exclusionOf(query: string, exclude: string[] | null): string | undefined {
  const words = query.split(/\s+/);
  return exclude?.find((pattern) => {
    const whole = new RegExp(`^(?:${pattern})$`, 'iu');
    return whole.test(query) || words.some((w) => whole.test(w));
  });
}

/** Why a query is not a suggestion before any search: undefined when it may be one. */
function refusal(query: string, { source, config }: SourceContext): string | undefined {
  const letters = [...query].length;
  if (letters === 0) return 'empty query';
  if (letters < source.minLetters) return `not enough letters, got ${letters}, expected ${source.minLetters}`;
  if (!config.allowSpecialCharacters && SPECIAL_CHARACTERS.test(query)) return 'special characters are not allowed';
  const excluded = exclusionOf(query, config.exclude);
  if (excluded !== undefined) return `excluded by "${excluded}"`;
  return undefined;
}

function topValues(counts: Record<string, number> | undefined, amount: number): FacetValue[] {
  return Object.entries(counts ?? {})
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
    .slice(0, amount);
}

/** The query run on the source index now: its hit count and facets; undefined below minHits. */
function figuresOf(query: string, { source, index, scope, log }: SourceContext): SourceFigures | undefined {
  const facets = source.facets ?? [];
  const params = parseSearchParams({
    query, hitsPerPage: 0,
    ...(facets.length ? { facets: facets.map((f) => f.attribute), maxValuesPerFacet: Math.max(...facets.map((f) => f.amount)) } : {}),
  });
  const { nbHits, answer } = searchIndex(index, params, { seeUnretrievable: true });
  if (nbHits < source.minHits) {
    log.add('SKIP', 2, `skipping query "${query}": not enough search results, got ${nbHits}, expected ${source.minHits}`);
    return undefined;
  }
  const found = (answer.facets ?? {}) as Record<string, Record<string, number>>;
  const figures: SourceFigures = { exact_nb_hits: nbHits, facets: { exact_matches: {}, analytics: {} } };
  for (const { attribute, amount } of facets) {
    figures.facets.exact_matches[attribute] = topValues(found[attribute], amount);
    figures.facets.analytics[attribute] = topFilterValues(scope, { search: query, limit: amount, offset: 0 }, attribute).values;
  }
  return figures;
}

/** Facets the source index cannot count are an error of the configuration. */
function checkFacets({ source, index, log }: SourceContext): void {
  const faceted = new Set(facetAttributes(effectiveSetting(index.settings, 'attributesForFaceting')).filter((a) => !a.filterOnly).map((a) => a.name));
  for (const { attribute } of source.facets ?? []) {
    if (!faceted.has(attribute)) log.add('ERROR', 2, `facet "${attribute}" is not in the attributesForFaceting of "${source.indexName}"`);
  }
}

/** Candidate queries of one source index, most popular first, with their popularity. */
function candidatesOf(context: SourceContext, indexes: Map<string, SearchIndex>): Map<string, number> {
  const { source, index, scope, log } = context;
  const external = (source.external ?? []).flatMap((name) => {
    const found = indexes.get(name);
    if (!found) log.add('ERROR', 2, `external index "${name}" does not exist`);
    return found ? [found] : [];
  });
  const popularity = popularQueries(scope, external);
  log.add('INFO', 2, `${popularity.size} popular queries (searches of the last ${POPULARITY_DAYS} days${external.length ? ' and external indexes' : ''})`);
  for (const attributes of source.generate ?? []) {
    for (const query of generatedQueries(index, attributes, log)) if (!popularity.has(query)) popularity.set(query, 0);
  }
  return new Map([...popularity].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

async function addSource(suggestions: Map<string, Suggestion>, context: SourceContext, indexes: Map<string, SearchIndex>): Promise<void> {
  const { source, log } = context;
  checkFacets(context);
  const candidates = [...candidatesOf(context, indexes)];
  let kept = 0;
  for (let start = 0; start < candidates.length; start += SLICE) {
    if (start > 0) await yieldTurn();
    for (const [query, popularity] of candidates.slice(start, start + SLICE)) {
      const reason = refusal(query, context);
      if (reason !== undefined) {
        log.add('SKIP', 2, `skipping query "${query}": ${reason}`);
        continue;
      }
      const figures = figuresOf(query, context);
      if (!figures) continue;
      kept++;
      const suggestion = suggestions.get(query) ?? { query, popularity: 0, sources: {} };
      suggestion.popularity += popularity;
      suggestion.sources[source.indexName] = figures;
      suggestions.set(query, suggestion);
    }
  }
  log.add('INFO', 2, `kept ${kept} of ${candidates.length} queries`);
}

/** A query with each word in its shortest singular/plural form: equal for "talk" and "talks". */
function pluralKey(query: string): string {
  return query.split(/\s+/).map((w) => [w, ...pluralForms(w)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0]).join(' ');
}

/** Keeps the more popular of queries differing only by plurals. */
function dedupePlurals(suggestions: Map<string, Suggestion>, log: BuildLog): void {
  log.add('INFO', 0, 'removing singular and plural duplicates');
  const best = new Map<string, Suggestion>();
  const ordered = [...suggestions.values()].sort((a, b) => b.popularity - a.popularity || a.query.length - b.query.length);
  for (const suggestion of ordered) {
    const key = pluralKey(suggestion.query);
    const kept = best.get(key);
    if (!kept) {
      best.set(key, suggestion);
      continue;
    }
    suggestions.delete(suggestion.query);
    log.add('SKIP', 1, `skipping query "${suggestion.query}": plural variant of "${kept.query}", which is at least as popular`);
  }
}

function recordOf(s: Suggestion): SearchRecord {
  return { objectID: s.query, query: s.query, nb_words: s.query.split(/\s+/).length, popularity: s.popularity, ...s.sources } as SearchRecord;
}

function settingsFor(config: SuggestionsConfig): Record<string, unknown> {
  const facetPaths = config.sourceIndices.flatMap((s) => (s.facets ?? []).map((f) => `${s.indexName}.facets.exact_matches.${f.attribute}.value`));
  return { searchableAttributes: ['query'], customRanking: ['desc(popularity)'], attributesForFaceting: facetPaths };
}

export async function buildSuggestions(engine: Pick<Engine, 'indexes'>, config: SuggestionsConfig, store: EventStore, now = Date.now()): Promise<Built> {
  const log = new BuildLog();
  const sources = config.sourceIndices.length;
  log.add('INFO', 0, `building "${config.indexName}" from ${sources} source ${sources === 1 ? 'index' : 'indices'}`);
  const suggestions = new Map<string, Suggestion>();
  for (const source of config.sourceIndices) {
    log.add('INFO', 1, `source index "${source.indexName}"`);
    const index = engine.indexes.get(source.indexName);
    if (!index) {
      log.add('ERROR', 2, `source index "${source.indexName}" does not exist`);
      continue;
    }
    const scope = popularScope(store, engine.indexes, source, now);
    await addSource(suggestions, { source, index, scope, config, log }, engine.indexes);
  }
  if (pluralsEnabled(config.languages)) dedupePlurals(suggestions, log);
  const records = [...suggestions.values()].sort((a, b) => b.popularity - a.popularity).map(recordOf);
  log.add(log.failed ? 'ERROR' : 'INFO', 0, log.failed ? 'build failed; the suggestions index is left as it was' : `${records.length} suggestions built`);
  return { records, settings: settingsFor(config), log };
}
