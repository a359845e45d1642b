// Query rules: conditions (pattern with anchoring and {facet:attr}
// placeholders, context, validity, enabled) and consequences (search
// parameters, query edits, promoted and hidden records, userData). Rules are
// checked on the way in; at search time the matching ones rewrite the query.
import { badRequest } from './errors.js';
import { facetAttributes } from './facets.js';
import { fold } from './fold.js';
import { parseSearchParams, type SearchParams } from './params.js';
import { isPlainObject } from './records.js';
import type { SearchIndex } from './search-index.js';

export interface Condition {
  pattern?: string;
  anchoring?: 'is' | 'startsWith' | 'endsWith' | 'contains';
  context?: string;
  alternatives?: boolean;
  filters?: string;
}

export interface Promotion { objectID?: string; objectIDs?: string[]; position: number }

export interface Consequence {
  params?: Record<string, any>;
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
  validity?: Array<{ from: number; until: number }>;
}

const ANCHORINGS = ['is', 'startsWith', 'endsWith', 'contains'];

function checkCondition(c: unknown, where: string): void {
  if (!isPlainObject(c)) throw badRequest(`${where}: a condition must be an object`);
  if (c.anchoring !== undefined && !ANCHORINGS.includes(c.anchoring)) {
    throw badRequest(`${where}: anchoring must be one of ${ANCHORINGS.join(', ')}`);
  }
  for (const name of ['pattern', 'context', 'filters'] as const) {
    if (c[name] !== undefined && typeof c[name] !== 'string') throw badRequest(`${where}: ${name} must be a string`);
  }
  if (c.alternatives !== undefined && typeof c.alternatives !== 'boolean') throw badRequest(`${where}: alternatives must be a boolean`);
  if ((c.pattern === undefined) !== (c.anchoring === undefined) && c.context === undefined && c.filters === undefined) {
    throw badRequest(`${where}: pattern and anchoring go together`);
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
    || consequence.promote.some((p: any) => !isPlainObject(p) || !Number.isInteger(p.position) || (typeof p.objectID !== 'string' && !Array.isArray(p.objectIDs))))) {
    throw badRequest(`${where}: promote must be [{objectID or objectIDs, position}]`);
  }
  if (consequence.hide !== undefined && (!Array.isArray(consequence.hide) || consequence.hide.some((h: any) => typeof h?.objectID !== 'string'))) {
    throw badRequest(`${where}: hide must be [{objectID}]`);
  }
  if (consequence.params !== undefined) consequenceParams(consequence.params, where);
  if (consequence.filterPromotes !== undefined && typeof consequence.filterPromotes !== 'boolean') {
    throw badRequest(`${where}: filterPromotes must be a boolean`);
  }
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') throw badRequest(`${where}: enabled must be a boolean`);
  if (body.description !== undefined && typeof body.description !== 'string') throw badRequest(`${where}: description must be a string`);
  if (body.validity !== undefined && !(Array.isArray(body.validity)
    && body.validity.every((v: unknown) => isPlainObject(v) && typeof v.from === 'number' && typeof v.until === 'number'))) {
    throw badRequest(`${where}: validity must be [{from, until}] (unix seconds)`);
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
  return rule.validity.some((v) => seconds >= v.from && seconds <= v.until);
}

interface PatternMatch { facetFilters: string[]; consumed: Set<number> }

/** Does `pattern` match the query words with this anchoring? {facet:attr} tokens match a facet value. */
function matchPattern(pattern: string[], query: string[], anchoring: string, facetValue: (attr: string, word: string) => boolean): PatternMatch | undefined {
  const tokenMatches = (p: string, w: string) => {
    const m = /^\{facet:(.+)\}$/.exec(p);
    return m ? facetValue(m[1], w) : p === w;
  };
  const at = (start: number): PatternMatch | undefined => {
    const facetFilters: string[] = [];
    const consumed = new Set<number>();
    for (let i = 0; i < pattern.length; i++) {
      const w = query[start + i];
      if (w === undefined || !tokenMatches(pattern[i], w)) return undefined;
      const m = /^\{facet:(.+)\}$/.exec(pattern[i]);
      if (m) { facetFilters.push(`${m[1]}:${w}`); consumed.add(start + i); }
    }
    return { facetFilters, consumed };
  };
  if (anchoring === 'is') return pattern.length === query.length ? at(0) : undefined;
  if (anchoring === 'startsWith') return at(0);
  if (anchoring === 'endsWith') return at(query.length - pattern.length);
  for (let s = 0; s + pattern.length <= query.length; s++) {
    const m = at(s);
    if (m) return m;
  }
  return undefined;
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
export function applyRules(index: SearchIndex, params: SearchParams, now = Date.now()): AppliedRules {
  const out: AppliedRules = { params, promoted: [], hidden: [], filterPromotes: false, userData: [], appliedRules: [] };
  if (params.enableRules === false || index.rules.size === 0) return out;
  const query = wordsOf(params.query ?? '');
  const contexts: string[] = params.ruleContexts ?? [];
  const declared = new Set(facetAttributes(index.settings.attributesForFaceting).map((a) => a.name));
  const facetValue = (attr: string, word: string) => declared.has(attr) && index.facets.facet(attr).matching(word).length > 0;
  let rewritten: SearchParams = { ...params };
  for (const rule of index.rules.values()) {
    if (!isActive(rule, now)) continue;
    const conditions = rule.conditions ?? (rule.condition ? [rule.condition] : []);
    let match: PatternMatch | undefined = conditions.length === 0 ? { facetFilters: [], consumed: new Set() } : undefined;
    for (const c of conditions) {
      if (c.context !== undefined && !contexts.includes(c.context)) continue;
      if (c.filters !== undefined && !(params.filters ?? '').includes(c.filters)) continue;
      const m = c.pattern === undefined ? { facetFilters: [], consumed: new Set<number>() }
        : matchPattern(wordsOf(c.pattern), query, c.anchoring ?? 'contains', facetValue);
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

/** Rule search: `query` in the objectID, description or patterns; `context`, `anchoring`, `enabled` filters. */
export function searchRules(all: Rule[], body: Record<string, any>) {
  const q = fold(String(body.query ?? ''));
  const page = Number(body.page ?? 0);
  const hitsPerPage = Number(body.hitsPerPage ?? 20);
  const hits = all.filter((r) => {
    const conditions = r.conditions ?? (r.condition ? [r.condition] : []);
    if (body.context !== undefined && !conditions.some((c) => c.context === body.context)) return false;
    if (body.anchoring !== undefined && !conditions.some((c) => c.anchoring === body.anchoring)) return false;
    if (body.enabled !== undefined && body.enabled !== null && (r.enabled !== false) !== body.enabled) return false;
    const text = fold([r.objectID, r.description ?? '', ...conditions.map((c) => c.pattern ?? '')].join(' '));
    return q === '' || text.includes(q);
  });
  return { hits: hits.slice(page * hitsPerPage, (page + 1) * hitsPerPage), nbHits: hits.length, page, nbPages: Math.ceil(hits.length / hitsPerPage) };
}
