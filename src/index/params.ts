// The one parser of search parameters and index settings. Values arrive as
// JSON (typed) or as strings from a URL-encoded `params` string or a query
// string; each known name has a kind that coerces and validates both forms.
import { badRequest } from '../util/errors.js';
import { splitCommaList } from './filters/parse.js';
import { CRITERION } from '../core/abi.js';
import { isPlainObject } from './records.js';
import { assignOwn, own } from '../util/own-keys.js';
import { parseEmbedders, type EmbedderSettings } from '../vectors/embedder-settings.js';

type Kind =
  | 'string' | 'int' | 'number' | 'bool' | 'stringList' | 'json' | 'object'
  | 'typoTolerance' | 'boolOrStringList' | 'distinct' | 'radius' | 'filterList' | 'facets'
  | 'embedders' | 'hybrid' | 'vector';

/**
 * What a parameter of each kind holds once parsed: the types of
 * `SearchParams` and `Settings` are read off the tables below through it,
 * so adding a parameter stays one row.
 */
interface KindValues {
  string: string;
  int: number;
  number: number;
  bool: boolean;
  stringList: string[];
  /** Any JSON value (its reader checks its shape). */
  json: unknown;
  object: Record<string, unknown>;
  typoTolerance: boolean | 'min' | 'strict';
  boolOrStringList: boolean | string[];
  /** How many hits per distinct value (true = 1, false = 0). */
  distinct: number;
  radius: number | 'all';
  /** A string (a comma-separated list in a URL) or an array of strings and OR-arrays, as sent. */
  filterList: string | unknown[];
  facets: string[];
  /** The index's embedders by name (vectors.md). */
  embedders: Record<string, EmbedderSettings>;
  /** Which embedder a hybrid search uses, and how much the vector side weighs (0 keyword only, 1 vectors only). */
  hybrid: { embedder?: string; semanticRatio?: number };
  /** A query's own vector (its length is checked against the embedder's). */
  vector: number[];
}

type Enum = readonly string[];
/** What each entry of a list must be. */
interface EntryRule { expected: string; test: (entry: string) => boolean }
/** `clamp`: a number above `max` becomes `max` instead of a 400. */
interface Spec { kind: Kind; values?: Enum; min?: number; max?: number; clamp?: boolean; entries?: EntryRule }

const s = <K extends Kind>(kind: K, extra: Omit<Spec, 'kind'> = {}) => ({ kind, ...extra });
const oneOf = <V extends string>(...values: V[]) => ({ kind: 'string' as const, values });
const listOf = (expected: string, pattern: RegExp) =>
  ({ kind: 'stringList' as const, entries: { expected, test: (e: string) => pattern.test(e) } });
const someOf = (...values: string[]) =>
  ({ kind: 'stringList' as const, entries: { expected: `one of ${values.join(', ')}`, test: (e: string) => values.includes(e) } });

const ATTRIBUTE = '[^()]+';
const SORT = `(asc|desc)\\(${ATTRIBUTE}\\)`;
/** A facet of attributesForFaceting, within afterDistinct() or not. */
const FACET = `((filterOnly|searchable)\\(${ATTRIBUTE}\\)|${ATTRIBUTE})`;
const LANGUAGES = { ...listOf('language codes such as "en"', /^[a-z]{2,3}(-[a-z]{2,4})?$/i), kind: 'boolOrStringList' as const };

/** Parameters valid both as search parameters and as settings. */
const SHARED = {
  hitsPerPage: s('int', { min: 0, max: 1000 }),
  attributesToRetrieve: s('stringList'),
  attributesToHighlight: s('stringList'),
  attributesToSnippet: listOf('attribute or attribute:words', /^[^:]+(:\d+)?$/),
  highlightPreTag: s('string'),
  highlightPostTag: s('string'),
  snippetEllipsisText: s('string'),
  restrictHighlightAndSnippetArrays: s('bool'),
  minWordSizefor1Typo: s('int', { min: 0 }),
  minWordSizefor2Typos: s('int', { min: 0 }),
  typoTolerance: s('typoTolerance'),
  allowTyposOnNumericTokens: s('bool'),
  disableTypoToleranceOnAttributes: s('stringList'),
  ignorePlurals: LANGUAGES,
  removeStopWords: LANGUAGES,
  queryLanguages: s('stringList'),
  naturalLanguages: s('stringList'),
  decompoundQuery: s('bool'),
  queryType: oneOf('prefixLast', 'prefixAll', 'prefixNone'),
  removeWordsIfNoResults: oneOf('none', 'lastWords', 'firstWords', 'allOptional'),
  advancedSyntax: s('bool'),
  advancedSyntaxFeatures: someOf('exactPhrase', 'excludeWords'),
  optionalWords: s('stringList'),
  disableExactOnAttributes: s('stringList'),
  exactOnSingleWordQuery: oneOf('attribute', 'none', 'word'),
  alternativesAsExact: someOf('ignorePlurals', 'singleWordSynonym', 'multiWordsSynonym', 'ignoreConjugations'),
  distinct: s('distinct'),
  replaceSynonymsInHighlight: s('bool'),
  minProximity: s('int', { min: 1, max: 7 }),
  responseFields: s('stringList'),
  maxValuesPerFacet: s('int', { min: 0, max: 1000, clamp: true }), // above 1000: clamped, not rejected (compatibility.md)
  maxFacetHits: s('int', { min: 1, max: 100 }),
  sortFacetValuesBy: oneOf('count', 'alpha'),
  attributeCriteriaComputedByMinProximity: s('bool'),
  renderingContent: s('object'),
  enableRules: s('bool'),
  enablePersonalization: s('bool'),
  enableReRanking: s('bool'),
  reRankingApplyFilter: s('json'),
  relevancyStrictness: s('int', { min: 0, max: 100 }),
  paginationLimitedTo: s('int', { min: 0, max: 20000 }),
  ranking: listOf(`${Object.keys(CRITERION).join(', ')}, asc(attribute) or desc(attribute)`, new RegExp(`^(${Object.keys(CRITERION).join('|')}|${SORT})$`)),
  customRanking: listOf('asc(attribute) or desc(attribute)', new RegExp(`^${SORT}$`)),
  semanticSearch: s('object'),
  mode: oneOf('neuralSearch', 'keywordSearch'),
  enableABTest: s('bool'),
  userData: s('json'),
  keepDiacriticsOnCharacters: s('string'),
  camelCaseAttributes: s('stringList'),
  decompoundedAttributes: s('object'),
  indexLanguages: s('stringList'),
  separatorsToIndex: s('string'),
  disablePrefixOnAttributes: s('stringList'),
  disableTypoToleranceOnWords: s('stringList'),
  attributesForFaceting: listOf(
    'attribute, filterOnly(attribute), searchable(attribute) or afterDistinct() of one of these',
    new RegExp(`^(afterDistinct\\(${FACET}\\)|${FACET})$`),
  ),
  unretrievableAttributes: s('stringList'),
  numericAttributesForFiltering: s('stringList'),
  allowCompressionOfIntegerArray: s('bool'),
  attributeForDistinct: s('string'),
  searchableAttributes: listOf('attribute, "a,b", ordered(attribute) or unordered(attribute)', new RegExp(`^((un)?ordered\\(${ATTRIBUTE}\\)|${ATTRIBUTE})$`)),
  replicas: listOf('index names or virtual(name)', new RegExp(`^(virtual\\(${ATTRIBUTE}\\)|${ATTRIBUTE})$`)),
  attributeCriteriaComputedBy: s('string'),
  maxFacetHitsPerQuery: s('int'),
} satisfies Record<string, Spec>;

const SEARCH_ONLY = {
  query: s('string'),
  similarQuery: s('string'),
  filters: s('string'),
  facetFilters: s('filterList'),
  optionalFilters: s('filterList'),
  numericFilters: s('filterList'),
  tagFilters: s('filterList'),
  sumOrFiltersScores: s('bool'),
  restrictSearchableAttributes: s('stringList'),
  facets: s('facets'),
  facetingAfterDistinct: s('bool'),
  page: s('int', { min: 0 }),
  offset: s('int', { min: 0 }),
  length: s('int', { min: 0, max: 1000 }),
  aroundLatLng: s('string'),
  aroundLatLngViaIP: s('bool'),
  aroundRadius: s('radius'),
  aroundPrecision: s('json'),
  minimumAroundRadius: s('int', { min: 1 }),
  insideBoundingBox: s('json'),
  insidePolygon: s('json'),
  getRankingInfo: s('bool'),
  clickAnalytics: s('bool'),
  analytics: s('bool'),
  analyticsTags: s('stringList'),
  percentileComputation: s('bool'),
  synonyms: s('bool'),
  ruleContexts: s('stringList'),
  personalizationImpact: s('int', { min: 0, max: 100 }),
  userToken: s('string'),
  explain: someOf('*', 'match.alternatives'),
  facetQuery: s('string'),
  cursor: s('string'),
  attributes: s('stringList'),
  hybrid: s('hybrid'),
  vector: s('vector'),
  retrieveVectors: s('bool'),
  /** AI features (query categorization) of a multi-query item: accepted, Lantern has none of them. */
  extensions: s('object'),
} satisfies Record<string, Spec>;

const SETTINGS_ONLY = {
  attributesToIndex: s('stringList'),
  slaves: s('stringList'),
  numericAttributesToIndex: s('stringList'),
  minWordSizeForApprox1: s('int', { min: 0 }),
  minWordSizeForApprox2: s('int', { min: 0 }),
  customNormalization: s('object'),
  attributesToTransliterate: s('stringList'),
  embedders: s('embedders'),
} satisfies Record<string, Spec>;

/** Old names and the names they stand for. */
export const ALIASES = {
  attributesToIndex: 'searchableAttributes',
  slaves: 'replicas',
  attributes: 'attributesToRetrieve',
  minWordSizeForApprox1: 'minWordSizefor1Typo',
  minWordSizeForApprox2: 'minWordSizefor2Typos',
  numericAttributesToIndex: 'numericAttributesForFiltering',
  forwardToSlaves: 'forwardToReplicas',
} as const satisfies Record<string, string>;

export const SEARCH_PARAMETERS: Record<string, Spec> = { ...SHARED, ...SEARCH_ONLY };
export const SETTINGS: Record<string, Spec> = { ...SHARED, ...SETTINGS_ONLY };

/** A row's parsed value: one of its `values`, or what its kind holds. */
type ValueOf<Row> = Row extends { values: readonly (infer V)[] } ? V
  : Row extends { kind: infer K extends Kind } ? KindValues[K] : never;
/** A table's parameters by their current names (old names are parsed into these). */
type Parsed<Table> = { [Name in Exclude<keyof Table, keyof typeof ALIASES>]?: ValueOf<Table[Name]> };

/** Search parameters as parsed: every row of the search tables, typed by its kind. */
export type SearchParams = Parsed<typeof SHARED & typeof SEARCH_ONLY> & {
  /** The `filters` of the rules a query triggered (rules.ts), ANDed with its own; never sent. */
  _ruleFilters?: string[];
};

/** An index's settings as parsed and stored: every row of the settings tables, typed by its kind. */
export type Settings = Parsed<typeof SHARED & typeof SETTINGS_ONLY>;

/** A settings change: a value sets a setting, null resets it to its default. */
export type SettingsChanges = { [Name in keyof Settings]?: Settings[Name] | null };

/**
 * The settings whose value was given in another form than the one they are
 * read in (`typoTolerance: "false"`, `distinct: true`, `"5"` for 5): the
 * form given, which getSettings answers, as the service does.
 */
export type GivenForms = { [Name in keyof Settings]?: unknown };

function invalid(name: string, expected: string): never {
  throw badRequest(`Invalid value for "${name}": expected ${expected}`);
}

function parseJsonText(name: string, text: string): unknown {
  try { return JSON.parse(text); } catch { return invalid(name, 'valid JSON'); }
}

function toBool(name: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 1 || v === '1') return true;
  if (v === 'false' || v === 0 || v === '0') return false;
  return invalid(name, 'a boolean');
}

function toNumber(name: string, v: unknown, spec: Spec, integer: boolean): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    return invalid(name, integer ? 'an integer' : 'a number');
  }
  if (spec.clamp && spec.max !== undefined && n > spec.max) return spec.max;
  if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
    return invalid(name, `a value between ${spec.min ?? '-∞'} and ${spec.max ?? '∞'}`);
  }
  return n;
}

function toStringList(name: string, v: unknown): string[] {
  if (typeof v === 'string') {
    const text = v.trim();
    if (text.startsWith('[')) return toStringList(name, parseJsonText(name, text));
    return text === '' ? [] : text.split(',').map((x) => x.trim());
  }
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return invalid(name, 'an array of strings');
}

function coerce(name: string, spec: Spec, v: unknown): unknown {
  switch (spec.kind) {
    case 'string': {
      if (typeof v !== 'string') return invalid(name, 'a string');
      if (spec.values && !spec.values.includes(v)) return invalid(name, `one of ${spec.values.join(', ')}`);
      return v;
    }
    case 'int': return toNumber(name, v, spec, true);
    case 'number': return toNumber(name, v, spec, false);
    case 'bool': return toBool(name, v);
    case 'stringList': return toStringList(name, v);
    case 'json': return typeof v === 'string' && /^\s*[[{]/.test(v) ? parseJsonText(name, v) : v;
    case 'object': {
      const value = typeof v === 'string' ? parseJsonText(name, v) : v;
      return isPlainObject(value) ? value : invalid(name, 'an object');
    }
    case 'typoTolerance':
      if (v === 'min' || v === 'strict') return v;
      return toBool(name, v);
    case 'boolOrStringList':
      if (typeof v === 'boolean' || v === 'true' || v === 'false') return toBool(name, v);
      return toStringList(name, v);
    case 'distinct':
      if (typeof v === 'boolean' || v === 'true' || v === 'false') return toBool(name, v) ? 1 : 0;
      return toNumber(name, v, { kind: 'int', min: 0, max: 4 }, true);
    case 'radius':
      if (v === 'all') return v;
      return toNumber(name, v, { kind: 'int', min: 1 }, true);
    case 'facets':
      return toStringList(name, v);
    case 'filterList':
      if (typeof v === 'string') return /^\s*\[/.test(v) ? parseJsonText(name, v) : v;
      if (Array.isArray(v)) return v;
      return invalid(name, 'a string or an array');
    case 'embedders':
      return parseEmbedders(coerce(name, { kind: 'object' }, v));
    case 'hybrid':
      return toHybrid(name, coerce(name, { kind: 'object' }, v) as Record<string, unknown>);
    case 'vector': {
      const value = typeof v === 'string' ? parseJsonText(name, v) : v;
      if (!Array.isArray(value) || value.length === 0 || !value.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        return invalid(name, 'an array of finite numbers');
      }
      return value;
    }
  }
}

/** `hybrid`: `{embedder?, semanticRatio?}`, the ratio between 0 and 1. */
function toHybrid(name: string, value: Record<string, unknown>): KindValues['hybrid'] {
  const { embedder, semanticRatio, ...unknown } = value;
  const extra = Object.keys(unknown);
  if (extra.length > 0) invalid(`${name}.${extra[0]}`, 'nothing: hybrid takes embedder and semanticRatio');
  if (embedder !== undefined && (typeof embedder !== 'string' || embedder === '')) invalid(`${name}.embedder`, 'an embedder name');
  const ratio = semanticRatio === undefined ? undefined : toNumber(`${name}.semanticRatio`, semanticRatio, { kind: 'number', min: 0, max: 1 }, false);
  return { ...(embedder !== undefined ? { embedder: embedder as string } : {}), ...(ratio !== undefined ? { semanticRatio: ratio } : {}) };
}

function checkEntries(name: string, spec: Spec, value: unknown): unknown {
  if (!spec.entries || !Array.isArray(value)) return value;
  const wrong = value.find((e) => !spec.entries!.test(e.trim()));
  if (wrong !== undefined) invalid(name, `${spec.entries.expected}, not "${wrong}"`);
  return value;
}

/** Reads a URL-encoded parameter string (`+` is a space) into raw string values. */
export function parseParamString(params: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(params)) out[k] = v;
  return out;
}

/** The kinds whose value may be a list of strings. */
const STRING_LIST_KINDS: ReadonlySet<Kind> = new Set(['stringList', 'boolOrStringList', 'facets']);

/** A string list without its empty entries (`[""]` in settings is ignored, as the service does); other values as they are. */
function withoutEmptyEntries(spec: Spec, value: unknown): unknown {
  return STRING_LIST_KINDS.has(spec.kind) && Array.isArray(value) ? value.filter((e) => e !== '') : value;
}

interface ParseOptions {
  /** The parameters read from a URL-encoded string (see splitCommaList). */
  fromUrl?: ReadonlySet<string>;
  /** Whether empty strings in string lists are dropped before their entries are checked (settings). */
  dropEmptyEntries?: boolean;
  /** Collects, by current name, each value given in another form than the one parsed (settings). */
  givenForms?: Record<string, unknown>;
}

/** Kinds whose values are kept only as parsed: embedders carry secrets merged in after parsing. */
const PARSED_ONLY_KINDS: ReadonlySet<Kind> = new Set(['embedders']);

function parseWith(
  table: Record<string, Spec>, raw: Record<string, unknown>, what: string, options: ParseOptions = {},
): Record<string, unknown> {
  const { fromUrl = new Set<string>(), dropEmptyEntries = false, givenForms } = options;
  const out: Record<string, unknown> = {};
  for (const given of Object.keys(raw)) {
    const value = raw[given];
    if (value === undefined) continue;
    const spec = own(table, given) as Spec | undefined; // "constructor", "__proto__": unknown like any other name
    if (!spec) throw badRequest(`Unknown ${what}: ${given}`);
    const name = (own(ALIASES, given) as string | undefined) ?? given;
    const coerced = value === null ? null : coerce(given, spec, value);
    out[name] = coerced === null ? null : checkEntries(given, spec, dropEmptyEntries ? withoutEmptyEntries(spec, coerced) : coerced);
    // in a URL an array is a comma-separated list (filter lists: `a,(b,c)`)
    if (spec.kind === 'filterList' && fromUrl.has(given) && typeof out[name] === 'string') {
      out[name] = splitCommaList(given, out[name] as string);
    }
    const clamped = spec.clamp === true && spec.max !== undefined && Number(value) > spec.max;
    if (givenForms && !PARSED_ONLY_KINDS.has(spec.kind) && !clamped) { // a clamped value reads back clamped (compatibility.md)
      const form = dropEmptyEntries ? withoutEmptyEntries(spec, value) : value;
      if (JSON.stringify(form) !== JSON.stringify(out[name])) givenForms[name] = form;
    }
  }
  return out;
}

/**
 * Search parameters from a request: an object, a `params` string, or both
 * (explicit fields win over the string, as the service does).
 */
export function parseSearchParams(body: Record<string, unknown> | undefined, ignore: readonly string[] = []): SearchParams {
  const raw: Record<string, unknown> = {};
  const fromUrl = new Set<string>();
  const { params, ...fields } = body ?? {};
  if (typeof params === 'string') {
    const decoded = parseParamString(params);
    assignOwn(raw, decoded);
    for (const k of Object.keys(decoded)) fromUrl.add(k);
  }
  else if (params !== undefined && params !== null && typeof params === 'object' && !Array.isArray(params)) assignOwn(raw, params);
  else if (params !== undefined) throw badRequest('Invalid value for "params": expected a URL-encoded string');
  assignOwn(raw, fields);
  for (const k of Object.keys(fields)) fromUrl.delete(k);
  for (const name of ignore) delete raw[name];
  // null asks for the default, as leaving the parameter out does (in settings it resets one)
  for (const name of Object.keys(raw)) if (raw[name] === null) delete raw[name];
  return parseWith(SEARCH_PARAMETERS, raw, 'parameter', { fromUrl }) as SearchParams;
}

/** What a GET of the settings answers that a PUT may send back unchanged: ignored. */
const READ_ONLY_SETTINGS = new Set(['primary', 'master', 'synonyms', 'version']);

/** A PUT of settings: the changes as the engine reads them, and the forms given where they differ. */
export interface SettingsWrite { settings: SettingsChanges; given: GivenForms }

/** Settings from a PUT body: old names mapped, null = reset to default, unknown names refused, empty list entries dropped. */
export function parseSettings(body: Record<string, unknown>): SettingsWrite {
  const writable = Object.fromEntries(Object.entries(body).filter(([k]) => !READ_ONLY_SETTINGS.has(k)));
  const given: Record<string, unknown> = {};
  const settings = parseWith(SETTINGS, writable, 'setting', { dropEmptyEntries: true, givenForms: given }) as SettingsChanges;
  return { settings, given };
}

/** Encodes parameters back to the `params` echo of a search response. */
export function encodeParams(params: SearchParams): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    q.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return q.toString().replace(/\+/g, '%20');
}
