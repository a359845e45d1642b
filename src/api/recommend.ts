// The Recommend API (recommend.yml): recommendations from the models
// (src/recommend/), and the recommend rules of each index and model.
import { badRequest, notFound } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import { restrictParams } from '../auth/restrictions.js';
import { effectiveSetting } from '../index/settings.js';
import { searchIndex } from '../query/search.js';
import { answerOf } from '../query/search-result.js';
import { observeSearch } from '../analytics/observe.js';
import { parseRequest, type RecommendRequest } from '../recommend/request.js';
import { recommend, type RecommendSearch } from '../recommend/recommendations.js';
import { checkRule, checkRuleModel, ruleMatches, type RecommendRule, type RuleModel } from '../recommend/rules.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the indexes, the models and rules, what observing a search records, the log. */
type Uses = Pick<Engine, 'analytics' | 'dictionaries' | 'index' | 'indexes' | 'recommend' | 'resolveCountry' | 'taskStatus' | 'writeKey'>;

/** The most requests one call may hold (InstantSearch sends one per viewed item). */
const MAX_REQUESTS = 50;

export function getRecommendations(ctx: OperationContext<never, Uses>) {
  const body = ctx.body;
  if (!isPlainObject(body) || !Array.isArray(body.requests)) throw badRequest('The body needs a "requests" array');
  const extra = Object.keys(body).find((k) => k !== 'requests');
  if (extra !== undefined) throw badRequest(`"${extra}" is not a getRecommendations field (the body holds "requests")`);
  if (body.requests.length > MAX_REQUESTS) throw badRequest(`At most ${MAX_REQUESTS} requests per call`);
  const requests = body.requests.map(parseRequest);
  return { results: requests.map((r) => answerOf(recommendationsOf(ctx, r))) };
}

/**
 * One request's answer, observed like a search: with clickAnalytics it is
 * recorded as a tracked search whose hits are the recommendations, so its
 * queryID attributes the clicks and conversions that follow.
 */
function recommendationsOf(ctx: OperationContext<never, Uses>, request: RecommendRequest) {
  const { engine } = ctx;
  const index = engine.index(request.indexName);
  const seeUnretrievable = ctx.caller.isAdmin || ctx.caller.rights.has('seeUnretrievableAttributes');
  const pageSize = effectiveSetting(index.settings, 'hitsPerPage') ?? 20;
  const search: RecommendSearch = (params, within) => searchIndex(index, restrictParams(ctx.caller, params, pageSize), {
    seeUnretrievable, dictionaries: engine.dictionaries.query, within,
  });
  const q = request.queryParameters;
  const observed = { ...q, enableABTest: false, enablePersonalization: false, analytics: q.clickAnalytics === true && q.analytics !== false };
  const rules = request.model === 'looking-similar' ? new Map() : engine.recommend.rulesOf(request.indexName, request.model);
  return observeSearch(ctx, request.indexName, observed, () => recommend(request, {
    index, models: engine.recommend.modelsOf(request.indexName), rules, settings: engine.recommend.settings, now: Date.now(), search,
  }));
}

/** The index (which must exist) and model of a rules call. */
function target(ctx: OperationContext<'indexName' | 'model', Uses>): { indexName: string; model: RuleModel } {
  const { indexName, model } = ctx.params;
  ctx.engine.index(indexName);
  return { indexName, model: checkRuleModel(model) };
}

function ruleOf(ctx: OperationContext<'indexName' | 'model' | 'objectID', Uses>): RecommendRule {
  const { indexName, model } = target(ctx);
  const rule = ctx.engine.recommend.rulesOf(indexName, model).get(ctx.params.objectID);
  if (!rule) throw notFound(`No ${model} rule ${ctx.params.objectID} on index ${indexName}`);
  return rule;
}

export async function batchRecommendRules(ctx: OperationContext<'indexName' | 'model', Uses>) {
  const { indexName, model } = target(ctx);
  const body = ctx.body ?? [];
  if (!Array.isArray(body)) throw badRequest('The body must be an array of recommend rules');
  const now = new Date();
  const rules = body.map((rule, i) => checkRule(rule, i, now));
  const clearExisting = ctx.query.clearExistingRules === 'true';
  const taskID = await ctx.engine.writeKey({ type: 'recommend', action: 'saveRules', indexName, model, rules, clearExisting });
  return { taskID, updatedAt: now.toISOString() };
}

export function getRecommendRule(ctx: OperationContext<'indexName' | 'model' | 'objectID', Uses>) {
  return ruleOf(ctx);
}

export async function deleteRecommendRule(ctx: OperationContext<'indexName' | 'model' | 'objectID', Uses>) {
  ruleOf(ctx);
  const { indexName, model } = target(ctx);
  const taskID = await ctx.engine.writeKey({ type: 'recommend', action: 'deleteRule', indexName, model, objectID: ctx.params.objectID });
  return { taskID, deletedAt: new Date().toISOString() };
}

/** Rules whose objectID, description, context or condition holds `query`; `context`, `enabled` and `filters: objectID:X` narrow them. */
export function searchRecommendRules(ctx: OperationContext<'indexName' | 'model', Uses>) {
  const { indexName, model } = target(ctx);
  const body = ctx.body ?? {};
  if (!isPlainObject(body)) throw badRequest('The body must be an object of search parameters');
  const { query = '', context, page = 0, hitsPerPage = 20, enabled, filters } = body;
  if (typeof query !== 'string') throw badRequest('query must be a string');
  if (context !== undefined && typeof context !== 'string') throw badRequest('context must be a string');
  if (enabled !== undefined && typeof enabled !== 'boolean') throw badRequest('enabled must be a boolean');
  if (!Number.isInteger(page) || (page as number) < 0) throw badRequest('page must be a non-negative integer');
  if (!Number.isInteger(hitsPerPage) || (hitsPerPage as number) < 1 || (hitsPerPage as number) > 1000) throw badRequest('hitsPerPage must be an integer from 1 to 1000');
  const onlyID = typeof filters === 'string' ? /^objectID:(.+)$/.exec(filters.trim())?.[1].replace(/^"(.*)"$/, '$1') : undefined;
  if (filters !== undefined && onlyID === undefined) throw badRequest('filters takes one form on recommend rules: objectID:<ruleID>');
  const found = [...ctx.engine.recommend.rulesOf(indexName, model).values()].filter((rule) => ruleMatches(rule, query)
    && (context === undefined || rule.condition?.context === context)
    && (enabled === undefined || (rule.enabled !== false) === enabled)
    && (onlyID === undefined || rule.objectID === onlyID));
  const size = hitsPerPage as number;
  const start = (page as number) * size;
  return { hits: found.slice(start, start + size), nbHits: found.length, page, nbPages: Math.ceil(found.length / size) };
}

export async function getRecommendStatus(ctx: OperationContext<'indexName' | 'model' | 'taskID', Uses>) {
  const { model } = ctx.params;
  if (model !== 'looking-similar') checkRuleModel(model);
  const taskID = Number(ctx.params.taskID);
  if (!Number.isInteger(taskID) || taskID <= 0) throw badRequest(`Invalid taskID: ${ctx.params.taskID}`);
  const status = await ctx.engine.taskStatus(taskID);
  if (!status) throw notFound(`Task ${taskID} does not exist`);
  return { status };
}
