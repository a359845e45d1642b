// Synonyms: save, batch, get, delete, clear, search.
import { badRequest, notFound } from '../util/errors.js';
import { answeredSynonym, searchSynonyms, synonymTypeOf, toSynonym } from '../index/synonyms.js';
import { forwardToReplicas, now, queryFlag } from './query-flags.js';
import type { OperationContext } from './types.js';
import { checkIndexName } from '../index/index-name.js';
import { fieldsOf, onlyParams, integerParam, stringParam } from './body-values.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: one index, and the write path. */
type Uses = Pick<Engine, 'index' | 'write'>;

/** The body parameters of a search (searchSynonymsParams: no others). */
const SEARCH_PARAMS = ['query', 'type', 'page', 'hitsPerPage'];


export async function saveSynonym(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const indexName = checkIndexName(ctx.params.indexName); // a new index, as records and settings make one
  const synonym = toSynonym(ctx.body, ctx.params.objectID);
  const taskID = await ctx.engine.write({ type: 'synonyms', indexName, save: [synonym], forwardToReplicas: forwardToReplicas(ctx) });
  return { taskID, updatedAt: now(), id: synonym.objectID };
}

export async function saveSynonyms(ctx: OperationContext<'indexName', Uses>) {
  const indexName = checkIndexName(ctx.params.indexName); // a new index, as records and settings make one
  if (!Array.isArray(ctx.body)) throw badRequest('Invalid JSON: expected an array of synonyms');
  const save = ctx.body.map((s) => toSynonym(s));
  const taskID = await ctx.engine.write({
    type: 'synonyms', indexName, save, clear: queryFlag(ctx, 'replaceExistingSynonyms'), forwardToReplicas: forwardToReplicas(ctx),
  });
  return { taskID, updatedAt: now() };
}

export function getSynonym(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const synonym = ctx.engine.index(ctx.params.indexName).synonyms.get(ctx.params.objectID);
  if (!synonym) throw notFound('Synonym set does not exist');
  return answeredSynonym(synonym);
}

export async function deleteSynonym(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const index = ctx.engine.index(ctx.params.indexName);
  if (!index.synonyms.has(ctx.params.objectID)) throw notFound('Synonym set does not exist');
  const taskID = await ctx.engine.write({ type: 'synonyms', indexName: index.name, remove: [ctx.params.objectID], forwardToReplicas: forwardToReplicas(ctx) });
  return { taskID, deletedAt: now() };
}

export async function clearSynonyms(ctx: OperationContext<'indexName', Uses>) {
  ctx.engine.index(ctx.params.indexName);
  const taskID = await ctx.engine.write({ type: 'synonyms', indexName: ctx.params.indexName, clear: true, forwardToReplicas: forwardToReplicas(ctx) });
  return { taskID, updatedAt: now() };
}

export function searchSynonymsOperation(ctx: OperationContext<'indexName', Uses>) {
  const index = ctx.engine.index(ctx.params.indexName);
  const body = onlyParams(fieldsOf(ctx.body), SEARCH_PARAMS);
  const type = stringParam(body, 'type');
  const types = type !== '' ? type.split(',').map((t: string) => {
    const known = synonymTypeOf(t.trim());
    if (known === undefined) throw badRequest(`Unknown synonym type "${t.trim()}"`);
    return known;
  }) : [];
  const page = integerParam(body, 'page', 0);
  const hitsPerPage = integerParam(body, 'hitsPerPage', 100, { min: 1, max: 1000 });
  return searchSynonyms([...index.synonyms.values()], stringParam(body, 'query'), types, page, hitsPerPage);
}
