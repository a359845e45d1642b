// Where suggestions come from, per source index: its popular searches (the
// recorded searches of the last 30 days, final queries only, optionally of
// its replicas and only those with given analytics tags), the {query, count}
// records of external indexes, and facet value combinations (`generate`).
import type { EventStore, SearchEvent } from '../analytics/events.js';
import { DAY_MS, matchesTags, parseTags } from '../analytics/params.js';
import { Scope, searchesByQuery } from '../analytics/reports.js';
import { fold } from '../text/fold.js';
import { withReplicas } from '../index/index-config.js';
import { parseSearchParams } from '../index/params.js';
import { searchIndex } from '../query/search.js';
import type { SearchIndex } from '../index/search-index.js';
import type { SourceIndexConfig } from './config.js';
import type { BuildLog } from './log.js';

/** Popular searches count over this many days before the build. */
export const POPULARITY_DAYS = 30;
/** At most this many queries are generated from one list of facets. */
export const MAX_GENERATED = 1000;

export const suggestionKey = (query: string) => fold(query.trim());

/** A source index's searches that count toward popularity (their Scope, for facets analytics too). */
export function popularScope(store: EventStore, indexes: Map<string, SearchIndex>, source: SourceIndexConfig, now: number): Scope {
  const names = new Set(withReplicas(indexes, source.indexName, source.replicas).map((i) => i.name));
  const tagFilters = (source.analyticsTags ?? []).map(parseTags);
  const tagged = (s: SearchEvent) => tagFilters.length === 0 || tagFilters.some((tags) => matchesTags(tags, s.tags));
  return new Scope(store, (s) => names.has(s.index) && s.at >= now - POPULARITY_DAYS * DAY_MS && s.at <= now && tagged(s));
}

/** Popularity per query: searches counted in the scope, plus the counts of external indexes. */
export function popularQueries(scope: Scope, external: SearchIndex[]): Map<string, number> {
  const popularity = new Map<string, number>();
  const add = (query: string, n: number) => popularity.set(query, (popularity.get(query) ?? 0) + n);
  for (const [query, searches] of searchesByQuery(scope)) add(query, searches.length);
  for (const index of external) {
    for (const [, record] of index.liveEntries()) {
      if (typeof record.query === 'string' && typeof record.count === 'number') add(suggestionKey(record.query), record.count);
    }
  }
  return popularity;
}

/** `attr:value` as a facet filter (a leading dash would mean "not"). */
const facetFilter = (attribute: string, value: string) => `${attribute}:${value.startsWith('-') ? `\\${value}` : value}`;

/** Values of `attribute` among the records matching `filters`. */
function facetValues(index: SearchIndex, attribute: string, filters: string[]): string[] {
  const params = parseSearchParams({ query: '', hitsPerPage: 0, facets: [attribute], maxValuesPerFacet: MAX_GENERATED, facetFilters: filters });
  const { answer } = searchIndex(index, params, { seeUnretrievable: true });
  const counts = (answer.facets as Record<string, Record<string, number>> | undefined)?.[attribute] ?? {};
  return Object.keys(counts);
}

/** Combinations of values of `attributes` that occur together in a record, as queries ("blue adidas"). */
export function generatedQueries(index: SearchIndex, attributes: string[], log: BuildLog): string[] {
  const queries: string[] = [];
  const walk = (depth: number, words: string[], filters: string[]) => {
    if (depth === attributes.length) {
      queries.push(suggestionKey(words.join(' ')));
      return;
    }
    for (const value of facetValues(index, attributes[depth], filters)) {
      if (queries.length >= MAX_GENERATED) return;
      walk(depth + 1, [...words, value], [...filters, facetFilter(attributes[depth], value)]);
    }
  };
  walk(0, [], []);
  log.add('INFO', 2, `generated ${queries.length} queries from the facets [${attributes.join(', ')}]`);
  return queries;
}
