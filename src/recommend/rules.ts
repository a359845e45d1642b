// Recommend rules: what a rule may hold (checked before it is logged) and
// which rules apply to a request. A rule's condition is about the viewed
// item (its `filters` must match it) and the request's `ruleContexts`; its
// consequence hides and promotes items, filters the recommendations
// (`filters`, and `automaticFacetFilters`: the viewed item's own values of
// a facet, or anything but them with `negative`) and boosts some of them
// (`optionalFilters`).
import { badRequest, shown } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import { parseFilters, parseOptionalFilters } from '../index/filters/parse.js';

/** The models rules exist for (every model but looking-similar). */
export const RULE_MODELS = ['related-products', 'bought-together', 'trending-facets', 'trending-items'] as const;
export type RuleModel = typeof RULE_MODELS[number];

export interface RecommendRule {
  objectID: string;
  condition?: { filters?: string; context?: string };
  consequence?: {
    hide?: Array<{ objectID: string }>;
    promote?: Array<{ objectID: string; position: number }>;
    params?: { automaticFacetFilters?: Array<{ facet: string; negative?: boolean }>; filters?: string; optionalFilters?: string[] };
  };
  description?: string;
  enabled?: boolean;
  validity?: Array<{ from?: number; until?: number }>;
  _metadata?: { lastUpdate: string };
}

export function checkRuleModel(model: string): RuleModel {
  if (!(RULE_MODELS as readonly string[]).includes(model)) throw badRequest(`Unknown model "${model}" for rules: expected one of ${RULE_MODELS.join(', ')}`);
  return model as RuleModel;
}

const CONTEXT = /^[A-Za-z0-9_-]+$/;

function checkFilters(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${where} must be a filter expression (a string)`);
  try {
    parseFilters(value);
  } catch (e) {
    throw badRequest(`${where}: ${(e as Error).message}`);
  }
  return value;
}

function objectIDs<T extends { objectID: string }>(value: unknown, where: string, extra?: (item: Record<string, unknown>, i: number) => Partial<T>): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) throw badRequest(`${where} must be a non-empty array`);
  return value.map((item, i) => {
    if (!isPlainObject(item) || typeof item.objectID !== 'string' || item.objectID === '') throw badRequest(`${where}[${i}] needs an objectID`);
    return { objectID: item.objectID, ...extra?.(item, i) } as T;
  });
}

function checkParams(value: unknown, where: string): NonNullable<RecommendRule['consequence']>['params'] {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw badRequest(`${where} must be an object`);
  const { automaticFacetFilters, filters, optionalFilters, ...rest } = value;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw badRequest(`${where}.${unknown} is not a recommend rule parameter (automaticFacetFilters, filters, optionalFilters)`);
  const out: NonNullable<NonNullable<RecommendRule['consequence']>['params']> = {};
  if (automaticFacetFilters !== undefined) {
    if (!Array.isArray(automaticFacetFilters)) throw badRequest(`${where}.automaticFacetFilters must be an array`);
    out.automaticFacetFilters = automaticFacetFilters.map((f, i) => {
      if (!isPlainObject(f) || typeof f.facet !== 'string' || f.facet === '') throw badRequest(`${where}.automaticFacetFilters[${i}] needs a facet`);
      if (f.negative !== undefined && typeof f.negative !== 'boolean') throw badRequest(`${where}.automaticFacetFilters[${i}].negative must be a boolean`);
      return f.negative === undefined ? { facet: f.facet } : { facet: f.facet, negative: f.negative };
    });
  }
  const checked = checkFilters(filters, `${where}.filters`);
  if (checked !== undefined) out.filters = checked;
  if (optionalFilters !== undefined) {
    if (!Array.isArray(optionalFilters) || !optionalFilters.every((f) => typeof f === 'string')) throw badRequest(`${where}.optionalFilters must be an array of strings`);
    try {
      parseOptionalFilters(optionalFilters);
    } catch (e) {
      throw badRequest(`${where}.optionalFilters: ${(e as Error).message}`);
    }
    out.optionalFilters = optionalFilters;
  }
  return out;
}

/** A rule as sent, checked (400 naming the field otherwise), stamped with `now`. */
export function checkRule(value: unknown, position: number, now: Date): RecommendRule {
  const at = `rules[${position}]`;
  if (!isPlainObject(value)) throw badRequest(`${at} must be an object, not ${shown(value)}`);
  const { objectID, condition, consequence, description, enabled, validity } = value;
  if (typeof objectID !== 'string' || objectID === '') throw badRequest(`${at} needs an objectID`);
  const rule: RecommendRule = { objectID, _metadata: { lastUpdate: now.toISOString().replace(/\.\d+Z$/, 'Z') } };
  if (condition !== undefined) {
    if (!isPlainObject(condition)) throw badRequest(`${at}.condition must be an object`);
    if ('pattern' in condition || 'anchoring' in condition) throw badRequest(`${at}.condition: recommend rules have no pattern nor anchoring (their condition is about the viewed item: filters, context)`);
    const filters = checkFilters(condition.filters, `${at}.condition.filters`);
    if (condition.context !== undefined && (typeof condition.context !== 'string' || !CONTEXT.test(condition.context))) {
      throw badRequest(`${at}.condition.context must be letters, digits, _ and -`);
    }
    rule.condition = { ...(filters !== undefined ? { filters } : {}), ...(condition.context !== undefined ? { context: condition.context as string } : {}) };
  }
  if (consequence !== undefined) {
    if (!isPlainObject(consequence)) throw badRequest(`${at}.consequence must be an object`);
    const hide = objectIDs<{ objectID: string }>(consequence.hide, `${at}.consequence.hide`);
    const promote = objectIDs<{ objectID: string; position: number }>(consequence.promote, `${at}.consequence.promote`, (item, i) => {
      if (typeof item.position !== 'number' || !Number.isInteger(item.position) || item.position < 0) {
        throw badRequest(`${at}.consequence.promote[${i}].position must be a non-negative integer`);
      }
      return { position: item.position };
    });
    const params = checkParams(consequence.params, `${at}.consequence.params`);
    rule.consequence = { ...(hide ? { hide } : {}), ...(promote ? { promote } : {}), ...(params ? { params } : {}) };
  }
  if (description !== undefined) {
    if (typeof description !== 'string') throw badRequest(`${at}.description must be a string`);
    rule.description = description;
  }
  if (enabled !== undefined) {
    if (typeof enabled !== 'boolean') throw badRequest(`${at}.enabled must be a boolean`);
    rule.enabled = enabled;
  }
  if (validity !== undefined) {
    const bound = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isInteger(v));
    if (!Array.isArray(validity) || !validity.every((r) => isPlainObject(r) && bound(r.from) && bound(r.until))) {
      throw badRequest(`${at}.validity must be an array of {from, until} (seconds since the epoch)`);
    }
    rule.validity = validity as RecommendRule['validity'];
  }
  return rule;
}

/** Whether a rule is on at `now` (ms) for a request with `contexts` (its ruleContexts). */
export function ruleIsOn(rule: RecommendRule, now: number, contexts: readonly string[]): boolean {
  if (rule.enabled === false) return false;
  const seconds = now / 1000;
  if (rule.validity?.length && !rule.validity.some((r) => (r.from ?? -Infinity) <= seconds && seconds <= (r.until ?? Infinity))) return false;
  const context = rule.condition?.context;
  return context === undefined || contexts.includes(context);
}

/** Whether a rule matches a searchRecommendRules query: in its objectID, description or condition's context. */
export function ruleMatches(rule: RecommendRule, query: string): boolean {
  const q = query.toLowerCase();
  return [rule.objectID, rule.description, rule.condition?.context, rule.condition?.filters]
    .some((text) => text !== undefined && text.toLowerCase().includes(q));
}
