// Query rules: save, batch, get, delete, clear, search.
import { badRequest, notFound } from '../util/errors.js';
import { searchRules, toRule } from '../index/rules.js';
import { forwardToReplicas, now, queryFlag } from './query-flags.js';
import type { OperationContext } from './types.js';
import { checkIndexName } from '../index/index-name.js';
import { fieldsOf, onlyParams, integerParam, optionalBoolean, optionalString, stringParam } from './body-values.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: one index, and the write path. */
type Uses = Pick<Engine, 'index' | 'write'>;

/** The body parameters of a search (searchRulesParams: no others). */
const SEARCH_PARAMS = ['query', 'anchoring', 'context', 'page', 'hitsPerPage', 'enabled'];


export async function saveRule(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const indexName = checkIndexName(ctx.params.indexName); // a new index, as records and settings make one
  const rule = toRule(ctx.body, ctx.params.objectID);
  const taskID = await ctx.engine.write({ type: 'rules', indexName, save: [rule], forwardToReplicas: forwardToReplicas(ctx) });
  return { taskID, updatedAt: now() };
}

export async function saveRules(ctx: OperationContext<'indexName', Uses>) {
  const indexName = checkIndexName(ctx.params.indexName); // a new index, as records and settings make one
  if (!Array.isArray(ctx.body)) throw badRequest('Invalid JSON: expected an array of rules');
  const save = ctx.body.map((r) => toRule(r));
  const taskID = await ctx.engine.write({
    type: 'rules', indexName, save, clear: queryFlag(ctx, 'clearExistingRules'), forwardToReplicas: forwardToReplicas(ctx),
  });
  return { taskID, updatedAt: now() };
}

export function getRule(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const rule = ctx.engine.index(ctx.params.indexName).rules.get(ctx.params.objectID);
  if (!rule) throw notFound('ObjectID does not exist');
  return rule;
}

export async function deleteRule(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const index = ctx.engine.index(ctx.params.indexName);
  if (!index.rules.has(ctx.params.objectID)) throw notFound('ObjectID does not exist');
  const taskID = await ctx.engine.write({ type: 'rules', indexName: index.name, remove: [ctx.params.objectID], forwardToReplicas: forwardToReplicas(ctx) });
  return { taskID, updatedAt: now() };
}

export async function clearRules(ctx: OperationContext<'indexName', Uses>) {
  ctx.engine.index(ctx.params.indexName);
  const taskID = await ctx.engine.write({ type: 'rules', indexName: ctx.params.indexName, clear: true, forwardToReplicas: forwardToReplicas(ctx) });
  return { taskID, updatedAt: now() };
}

export function searchRulesOperation(ctx: OperationContext<'indexName', Uses>) {
  const index = ctx.engine.index(ctx.params.indexName);
  const body = onlyParams(fieldsOf(ctx.body), SEARCH_PARAMS);
  return searchRules([...index.rules.values()], {
    query: stringParam(body, 'query'),
    page: integerParam(body, 'page', 0),
    hitsPerPage: integerParam(body, 'hitsPerPage', 20, { min: 1, max: 1000 }),
    context: optionalString(body, 'context'),
    anchoring: optionalString(body, 'anchoring'),
    enabled: optionalBoolean(body, 'enabled'),
  });
}
