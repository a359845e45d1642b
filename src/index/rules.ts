// Query rules: conditions (pattern with anchoring and {facet:attr}
// placeholders, context, validity, enabled) and consequences (search
// parameters, query edits, promoted and hidden records, userData). Rules are
// checked on the way in; at search time the matching ones rewrite the query.
import { badRequest } from '../util/errors.js';
import { facetAttributes, type FacetIndex } from './facets.js';
import { parseFacetFilters, parseFilters, type FilterAtom, type FilterExpression } from './filters/parse.js';
import { STANDARD_DICTIONARIES, type QueryDictionaries } from '../text/dictionaries.js';
import { effectiveSetting, type Settings } from './settings.js';
import { synonymAlternatives, type Synonym } from './synonyms.js';
import { fold } from '../text/fold.js';
import { parseSearchParams, type SearchParams } from './params.js';
import { isOneOf, isPlainObject } from './records.js';
import { editDistance } from '../text/edit-distance.js';

/** What rules read of an index (a port: rules do not depend on the index itself). */
export interface RulesIndex {
  readonly settings: Settings;
  readonly rules: ReadonlyMap<string, Rule>;
  readonly synonyms: ReadonlyMap<string, Synonym>;
  readonly facets: FacetIndex;
}

export interface Condition {
  pattern?: string;
  anchoring?: 'is' | 'startsWith' | 'endsWith' | 'contains';
  context?: string;
  alternatives?: boolean;
  filters?: string;
}

export interface Promotion { objectID?: string; objectIDs?: string[]; position: number }

export interface Consequence {
  /** Search parameters as sent (checked when the rule is saved, parsed when it applies). */
  params?: Record<string, unknown>;
  promote?: Promotion[];
  hide?: Array<{ objectID: string }>;
  filterPromotes?: boolean;
  userData?: unknown;
}

export interface Rule {
  objectID: string;
  condition?: Condition;
  conditions?: Condition[];
  consequence: Consequence;
  description?: string;
  enabled?: boolean;
  /** Time ranges (unix seconds) the rule applies in; a range without `from` or `until` is open on that side. */
  validity?: Array<{ from?: number; until?: number }>;
}

const ANCHORINGS = ['is', 'startsWith', 'endsWith', 'contains'] as const;

/**
 * How a condition's pattern is anchored: as sent, else `contains`, the value
 * the service uses (spec: search-api.md, "Rule"). Kept as sent in storage.
 */
export const anchoringOf = (c: Condition): string => c.anchoring ?? 'contains';

function checkCondition(c: unknown, where: string): void {
  if (!isPlainObject(c)) throw badRequest(`${where}: a condition must be an object`);
  if (c.anchoring !== undefined && !isOneOf(ANCHORINGS, c.anchoring)) {
    throw badRequest(`${where}: anchoring must be one of ${ANCHORINGS.join(', ')}`);
  }
  const { pattern, context, filters } = c;
  for (const [name, value] of Object.entries({ pattern, context, filters })) {
    if (value !== undefined && typeof value !== 'string') throw badRequest(`${where}: ${name} must be a string`);
  }
  if (c.alternatives !== undefined && typeof c.alternatives !== 'boolean') throw badRequest(`${where}: alternatives must be a boolean`);
  if (typeof context === 'string' && !/^[\w-]+$/.test(context)) throw badRequest(`${where}: context must be letters, digits, "_" or "-"`);
  if (typeof filters === 'string') parseFilters(filters);
  if (c.anchoring !== undefined && c.pattern === undefined && c.context === undefined && c.filters === undefined) {
    throw badRequest(`${where}: anchoring needs a pattern`);
  }
}

/** A rule as sent, checked (objectID from the path when given); the condition form sent is kept. */
export function toRule(body: unknown, objectID?: string): Rule {
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: a rule must be an object');
  const id = objectID ?? body.objectID;
  if (typeof id !== 'string' || id === '') throw badRequest('A rule needs an objectID');
  const where = `Rule ${id}`;
  if (body.condition !== undefined) checkCondition(body.condition, where);
  if (body.conditions !== undefined) {
    if (!Array.isArray(body.conditions)) throw badRequest(`${where}: conditions must be an array`);
    body.conditions.forEach((c: unknown) => checkCondition(c, where));
  }
  const consequence = body.consequence;
  if (!isPlainObject(consequence)) throw badRequest(`${where}: a consequence is required`);
  if (consequence.promote !== undefined && (!Array.isArray(consequence.promote)
    || consequence.promote.some((p: unknown) => !isPlainObject(p) || !Number.isInteger(p.position) || (typeof p.objectID !== 'string' && !Array.isArray(p.objectIDs))))) {
    throw badRequest(`${where}: promote must be [{objectID or objectIDs, position}]`);
  }
  if (consequence.hide !== undefined && (!Array.isArray(consequence.hide) || consequence.hide.some((h: unknown) => !isPlainObject(h) || typeof h.objectID !== 'string'))) {
    throw badRequest(`${where}: hide must be [{objectID}]`);
  }
  if (consequence.params !== undefined) consequenceParams(consequence.params, where);
  if (consequence.filterPromotes !== undefined && typeof consequence.filterPromotes !== 'boolean') {
    throw badRequest(`${where}: filterPromotes must be a boolean`);
  }
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') throw badRequest(`${where}: enabled must be a boolean`);
  if (body.description !== undefined && typeof body.description !== 'string') throw badRequest(`${where}: description must be a string`);
  if (body.validity !== undefined && !(Array.isArray(body.validity)
    && body.validity.every((v: unknown) => isPlainObject(v) && (v.from !== undefined || v.until !== undefined)
      && (v.from === undefined || typeof v.from === 'number') && (v.until === undefined || typeof v.until === 'number')))) {
    throw badRequest(`${where}: validity must be [{from, until}] (unix seconds; one of the two may be left out)`);
  }
  return { ...body, objectID: id } as Rule;
}

function checkQueryEdit(edit: unknown, where: string): void {
  if (edit === undefined || typeof edit === 'string') return;
  const strings = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((w) => typeof w === 'string'));
  const validEdit = (e: unknown) => isPlainObject(e) && (e.type === 'remove' || e.type === 'replace')
    && typeof e.delete === 'string' && (e.insert === undefined || typeof e.insert === 'string');
  if (!isPlainObject(edit) || !strings(edit.remove) || !(edit.edits === undefined || (Array.isArray(edit.edits) && edit.edits.every(validEdit)))) {
    throw badRequest(`${where}: params.query must be a string or {remove: [words], edits: [{type, delete, insert?}]}`);
  }
}

/**
 * A consequence's parameters: the query edit and automatic facet filters,
 * which only rules have, and search parameters read by the one parser (so a
 * rule never feeds a search a value of the wrong type).
 */
function consequenceParams(params: unknown, where: string) {
  if (!isPlainObject(params)) throw badRequest(`${where}: params must be an object`);
  const { query, automaticFacetFilters, automaticOptionalFacetFilters, ...others } = params;
  checkQueryEdit(query, where);
  for (const [name, v] of Object.entries({ automaticFacetFilters, automaticOptionalFacetFilters })) {
    if (v !== undefined && !Array.isArray(v)) throw badRequest(`${where}: ${name} must be an array`);
  }
  try {
    return { query, automaticFacetFilters, automaticOptionalFacetFilters, others: parseSearchParams(others) };
  } catch (e) {
    throw badRequest(`${where}: ${(e as Error).message}`);
  }
}

const wordsOf = (s: string) => fold(s).split(/[^\p{L}\p{N}{}:._-]+/u).filter(Boolean);

function isActive(rule: Rule, now: number): boolean {
  if (rule.enabled === false) return false;
  if (!rule.validity || rule.validity.length === 0) return true;
  const seconds = now / 1000;
  return rule.validity.some((v) => seconds >= (v.from ?? -Infinity) && seconds <= (v.until ?? Infinity));
}

interface PatternMatch { facetFilters: string[]; consumed: Set<number> }

/** How a pattern word may match a query word. */
interface WordMatchers {
  facetValue: (attr: string, word: string) => boolean;
  /** condition.alternatives: plurals, synonyms and typos match too. */
  alike?: (patternWord: string, queryWord: string) => boolean;
}

const FACET_TOKEN = /^\{facet:(.+)\}$/;
/** The most query words a {facet:attr} token may cover (multi-word facet values). */
const MAX_FACET_WORDS = 6;

/**
 * Does `pattern` match the query words with this anchoring? A {facet:attr}
 * token matches the longest run of query words that is a value of the facet.
 */
function matchPattern(pattern: string[], query: string[], anchoring: string, matchers: WordMatchers): PatternMatch | undefined {
  // from pattern token i at query word q: the match of the rest, with the query word after it
  const from = (i: number, q: number): (PatternMatch & { end: number }) | undefined => {
    if (i === pattern.length) return { facetFilters: [], consumed: new Set(), end: q };
    const facet = FACET_TOKEN.exec(pattern[i]);
    if (!facet) {
      const w = query[q];
      if (w === undefined || !(pattern[i] === w || (matchers.alike?.(pattern[i], w) ?? false))) return undefined;
      return from(i + 1, q + 1);
    }
    for (let n = Math.min(MAX_FACET_WORDS, query.length - q); n >= 1; n--) {
      const value = query.slice(q, q + n).join(' ');
      if (!matchers.facetValue(facet[1], value)) continue;
      const rest = from(i + 1, q + n);
      if (!rest) continue;
      for (let k = q; k < q + n; k++) rest.consumed.add(k);
      rest.facetFilters.unshift(`${facet[1]}:${value}`);
      return rest;
    }
    return undefined;
  };
  const starts = anchoring === 'contains' || anchoring === 'endsWith' ? query.map((_, i) => i) : [0];
  for (const start of starts) {
    const m = from(0, start);
    if (!m) continue;
    if ((anchoring === 'is' || anchoring === 'endsWith') && m.end !== query.length) continue;
    return { facetFilters: m.facetFilters, consumed: m.consumed };
  }
  return undefined;
}

/**
 * condition.alternatives: a pattern word also matches its plural or singular
 * (the application's plurals dictionary, as searches read it), the index's
 * one-word synonyms, and the typos a search would forgive.
 */
function alikeWords(index: RulesIndex, pluralForms: (word: string) => string[]): (patternWord: string, queryWord: string) => boolean {
  const minFor1: number = effectiveSetting(index.settings, 'minWordSizefor1Typo');
  const minFor2: number = effectiveSetting(index.settings, 'minWordSizefor2Typos');
  return (p, w) => {
    if (pluralForms(w).includes(p)) return true;
    if (synonymAlternatives([w], index.synonyms.values(), { singleWord: false, multiWords: false }).some((a) => a.text === p)) return true;
    const allowed = w.length >= minFor2 ? 2 : w.length >= minFor1 ? 1 : 0;
    return allowed > 0 && editDistance(p, w, allowed) <= allowed;
  };
}

/** The facet values a search filters on (`attr:value`, folded), from `filters` and `facetFilters`. */
function filteredFacets(params: SearchParams): Set<string> {
  const expressions: FilterExpression[] = [];
  if (params.filters) expressions.push(parseFilters(params.filters));
  if (params.facetFilters !== undefined) expressions.push(parseFacetFilters(params.facetFilters));
  return new Set(expressions.flat(2).filter((a) => a.kind === 'facet' && !a.negated).map(facetKey));
}
const facetKey = (a: FilterAtom) => (a.kind === 'facet' ? `${a.attribute}:${fold(a.value)}` : '');

/** condition.filters: every facet filter of the condition is among the search's. */
function filtersMatch(condition: string, searched: Set<string>): boolean {
  const wanted = parseFilters(condition).flat().filter((a) => a.kind === 'facet');
  return wanted.length > 0 && wanted.every((a) => searched.has(facetKey(a)));
}

export interface AppliedRules {
  params: SearchParams;
  promoted: Array<{ objectID: string; position: number }>;
  hidden: string[];
  filterPromotes: boolean;
  userData: unknown[];
  appliedRules: Array<{ objectID: string }>;
}

function editQuery(query: string, edit: unknown, consumed: Set<number>): string {
  let words = query.split(/\s+/).filter(Boolean).filter((_, i) => !consumed.has(i));
  if (typeof edit === 'string') return edit;
  if (isPlainObject(edit)) {
    for (const word of (edit.remove ?? []) as string[]) words = words.filter((w) => fold(w) !== fold(word));
    for (const e of (edit.edits ?? []) as Array<{ type: string; delete: string; insert?: string }>) {
      words = words.flatMap((w) => (fold(w) !== fold(e.delete) ? [w] : e.type === 'replace' && e.insert ? [e.insert] : []));
    }
  }
  return words.join(' ');
}

/** The rules matching this search, and the search rewritten by their consequences. */
export function applyRules(
  index: RulesIndex, params: SearchParams, dictionaries: QueryDictionaries = STANDARD_DICTIONARIES, now = Date.now(),
): AppliedRules {
  const out: AppliedRules = { params, promoted: [], hidden: [], filterPromotes: false, userData: [], appliedRules: [] };
  if (params.enableRules === false || index.rules.size === 0) return out;
  const query = wordsOf(params.query ?? '');
  const contexts: string[] = params.ruleContexts ?? [];
  const declared = new Set(facetAttributes(index.settings.attributesForFaceting).map((a) => a.name));
  const facetValue = (attr: string, word: string) => declared.has(attr) && index.facets.facet(attr).matching(word).length > 0;
  const queryLanguages = params.queryLanguages?.length ? params.queryLanguages : undefined;
  const alike = alikeWords(index, (word) => dictionaries.pluralForms(word, queryLanguages));
  // parsed once, and only when a condition asks about the search's filters
  let searchedFacets: Set<string> | undefined;
  let rewritten: SearchParams = { ...params };
  for (const rule of index.rules.values()) {
    if (!isActive(rule, now)) continue;
    const conditions = rule.conditions ?? (rule.condition ? [rule.condition] : []);
    let match: PatternMatch | undefined = conditions.length === 0 ? { facetFilters: [], consumed: new Set() } : undefined;
    for (const c of conditions) {
      if (c.context !== undefined && !contexts.includes(c.context)) continue;
      if (c.filters !== undefined && !filtersMatch(c.filters, searchedFacets ??= filteredFacets(params))) continue;
      const m = c.pattern === undefined ? { facetFilters: [], consumed: new Set<number>() }
        : matchPattern(wordsOf(c.pattern), query, anchoringOf(c), { facetValue, alike: c.alternatives ? alike : undefined });
      if (m) { match = m; break; }
    }
    if (!match) continue;
    const { query: queryEdit, automaticFacetFilters, automaticOptionalFacetFilters, others } = consequenceParams(rule.consequence.params ?? {}, rule.objectID);
    rewritten = { ...rewritten, ...others };
    if (others.filters) {
      // a rule's filters AND with the request's, they never replace them
      rewritten.filters = params.filters;
      rewritten._ruleFilters = [...(rewritten._ruleFilters ?? []), others.filters];
    }
    const useFacets = automaticFacetFilters ?? automaticOptionalFacetFilters;
    if (useFacets && match.facetFilters.length) {
      const kind = automaticFacetFilters ? 'facetFilters' : 'optionalFilters';
      rewritten[kind] = [...((rewritten[kind] as unknown[]) ?? []), ...match.facetFilters];
    }
    if (queryEdit !== undefined || (useFacets && match.consumed.size)) {
      rewritten.query = editQuery(rewritten.query ?? '', queryEdit, useFacets ? match.consumed : new Set());
    }
    for (const p of rule.consequence.promote ?? []) {
      (p.objectIDs ?? [p.objectID!]).forEach((objectID, i) => out.promoted.push({ objectID, position: p.position + i }));
    }
    out.hidden.push(...(rule.consequence.hide ?? []).map((h) => h.objectID));
    out.filterPromotes ||= rule.consequence.filterPromotes === true;
    if (rule.consequence.userData !== undefined) out.userData.push(rule.consequence.userData);
    out.appliedRules.push({ objectID: rule.objectID });
  }
  out.params = rewritten;
  return out;
}

/** What a rule search asks for (api/rules.ts reads it from the body, types checked). */
export interface RuleSearch {
  query: string;
  page: number;
  hitsPerPage: number;
  context?: string;
  anchoring?: string;
  enabled?: boolean;
}

/** Rule search: `query` in the objectID, description or patterns; `context`, `anchoring`, `enabled` filters. */
export function searchRules(all: Rule[], search: RuleSearch) {
  const { page, hitsPerPage } = search;
  const q = fold(search.query);
  const hits = all.filter((r) => {
    const conditions = r.conditions ?? (r.condition ? [r.condition] : []);
    if (search.context !== undefined && !conditions.some((c) => c.context === search.context)) return false;
    if (search.anchoring !== undefined && !conditions.some((c) => (c.pattern ?? c.anchoring) !== undefined && anchoringOf(c) === search.anchoring)) return false;
    if (search.enabled !== undefined && (r.enabled !== false) !== search.enabled) return false;
    const text = fold([r.objectID, r.description ?? '', ...conditions.map((c) => c.pattern ?? '')].join(' '));
    return q === '' || text.includes(q);
  });
  return { hits: hits.slice(page * hitsPerPage, (page + 1) * hitsPerPage), nbHits: hits.length, page, nbPages: Math.ceil(hits.length / hitsPerPage) };
}
