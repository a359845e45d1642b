// Index settings: defaults, and the structures derived from them that
// indexing and ranking use (searchable attributes with ranks, criteria).
import { CRITERION, MAX_CRITERIA, MAX_SORT_SLOTS, sortCriterion } from '../core/abi.js';
import { badRequest } from '../util/errors.js';
import type { SearchParams, Settings, SettingsChanges } from './params.js';

export type { Settings } from './params.js';

export const DEFAULT_RANKING = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];

/** Defaults of the settings a GET returns, as the service documents them. */
export const DEFAULT_SETTINGS = {
  minWordSizefor1Typo: 4,
  minWordSizefor2Typos: 8,
  hitsPerPage: 20,
  maxValuesPerFacet: 100,
  searchableAttributes: null,
  numericAttributesForFiltering: null,
  attributesToRetrieve: null,
  unretrievableAttributes: null,
  optionalWords: null,
  attributesForFaceting: null,
  attributesToSnippet: null,
  attributesToHighlight: null,
  paginationLimitedTo: 1000,
  attributeForDistinct: null,
  exactOnSingleWordQuery: 'attribute',
  ranking: DEFAULT_RANKING,
  customRanking: null,
  separatorsToIndex: '',
  removeWordsIfNoResults: 'none',
  queryType: 'prefixLast',
  highlightPreTag: '<em>',
  highlightPostTag: '</em>',
  snippetEllipsisText: '…',
  alternativesAsExact: ['ignorePlurals', 'singleWordSynonym'],
  typoTolerance: true,
  allowTyposOnNumericTokens: true,
  minProximity: 1,
  replicas: [],
  distinct: 0,
  relevancyStrictness: 100,
} satisfies { [Name in keyof Settings]: Settings[Name] | null };

type Defaults = typeof DEFAULT_SETTINGS;
/** Settings whose default is a value, and those whose default is null (a GET shows them as null). */
type Defaulted = { [Name in keyof Defaults]: Defaults[Name] extends null ? never : Name }[keyof Defaults];
type NullByDefault = Exclude<keyof Defaults, Defaulted>;

/** What a query reads: its own parameters, over its index's settings. */
type QueryValues = SearchParams & Settings;

/** A setting's value in effect: a defaulted one always has a value, one null by default is null when unset. */
export type Effective<Name extends keyof QueryValues> =
  Name extends Defaulted ? NonNullable<QueryValues[Name]>
    : Name extends NullByDefault ? NonNullable<QueryValues[Name]> | null
      : QueryValues[Name];

/** Reads what is in effect for one query: its parameter when given, else its index's setting, else the default. */
export type Setting = <Name extends keyof QueryValues>(name: Name) => Effective<Name>;

const DEFAULTS: Partial<Record<keyof Settings, unknown>> = DEFAULT_SETTINGS;

/** The setting in effect: the index's own value, or the default. */
export function effectiveSetting<Name extends keyof Settings>(settings: SettingsChanges, name: Name): Effective<Name> {
  return (settings[name] ?? DEFAULTS[name]) as Effective<Name>;
}

/** What one query reads: `params` over the index's `settings` (see Setting). */
export function settingsFor(settings: Settings, params: SearchParams): Setting {
  const given: Partial<Record<keyof QueryValues, unknown>> = params;
  return <Name extends keyof QueryValues>(name: Name) =>
    (given[name] ?? effectiveSetting(settings, name as keyof Settings)) as Effective<Name>;
}

/** One searchable attribute: its path, rank (priority) and whether position counts. */
export interface SearchableAttribute {
  name: string;
  path: string[];
  rank: number;
  unordered: boolean;
}

/** A modifier around an entry's attributes: `unordered(...)` or `ordered(...)` (the default, said explicitly). */
const MODIFIER = /^(unordered|ordered)\((.+)\)$/;

/**
 * `searchableAttributes` in order: each entry one rank; "a,b" shares a rank;
 * `unordered(attr)` ignores the position, `ordered(attr)` counts it as a bare
 * name does; a modifier around "a,b" applies to both. Null or empty = every attribute.
 */
export function searchableAttributes(settings: Settings): SearchableAttribute[] | null {
  const list = settings.searchableAttributes;
  if (!list || list.length === 0) return null;
  const out: SearchableAttribute[] = [];
  list.forEach((entry, rank) => {
    const m = MODIFIER.exec(entry.trim());
    const unordered = m?.[1] === 'unordered';
    for (const part of (m ? m[2] : entry).split(',')) {
      const name = part.trim();
      if (name) out.push({ name, path: name.split('.'), rank, unordered });
    }
  });
  return out;
}

export interface SortEntry { attribute: string; path: string[]; descending: boolean }

const SORT = /^(asc|desc)\((.+)\)$/;

export function parseSortEntry(entry: string, setting: string): SortEntry {
  const m = SORT.exec(entry.trim());
  if (!m) throw badRequest(`Invalid value for "${setting}": "${entry}" is not asc(attribute) or desc(attribute)`);
  return { attribute: m[2], path: m[2].split('.'), descending: m[1] === 'desc' };
}

export interface RankingPlan {
  /** Criterion codes for the core, in order. */
  criteria: number[];
  /** asc()/desc() entries of `ranking`, by sort slot (1-based index into this array + 1). */
  sorts: SortEntry[];
  custom: SortEntry[];
}

export function rankingPlan(settings: SettingsChanges): RankingPlan {
  const ranking: string[] = effectiveSetting(settings, 'ranking');
  const criteria: number[] = [];
  const sorts: SortEntry[] = [];
  for (const entry of ranking) {
    if (entry in CRITERION) {
      criteria.push(CRITERION[entry as keyof typeof CRITERION]);
      continue;
    }
    if (sorts.length >= MAX_SORT_SLOTS) throw badRequest('Invalid value for "ranking": too many asc()/desc() entries');
    sorts.push(parseSortEntry(entry, 'ranking'));
    criteria.push(sortCriterion(sorts.length));
  }
  if (criteria.length > MAX_CRITERIA) throw badRequest('Invalid value for "ranking": too many criteria');
  const custom = (settings.customRanking ?? []).map((e: string) => parseSortEntry(e, 'customRanking'));
  return { criteria, sorts, custom };
}
