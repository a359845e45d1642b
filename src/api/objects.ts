// Objects: add, replace, get, delete, partial update, batch, multi-index
// batch, multi-get. Every write becomes a batch of actions (writes.ts).
import { badRequest, notFound } from '../engine/errors.js';
import { checkIndexName } from '../engine/index-name.js';
import { asRecord, checkPartial, isPlainObject, project, projection } from '../engine/records.js';
import { effectiveSetting } from '../engine/settings.js';
import { reportedIDs, toAction, type Action } from '../engine/writes.js';
import { deleteByQueryParams } from '../engine/browse.js';
import { planQuery } from '../engine/query-plan.js';
import { parseSearchParams } from '../engine/params.js';
import { settingsOf } from '../engine/search.js';
import { now } from './query-flags.js';
import { writtenFor } from '../clusters/user-id.js';
import { Reply, type OperationContext } from './types.js';


async function writeActions(ctx: OperationContext, indexName: string, actions: Action[]): Promise<number> {
  checkWritable(ctx, indexName);
  return ctx.engine.write({ type: 'batch', indexName: checkIndexName(indexName), actions, ...writtenFor(ctx.headers) });
}

/** Replicas follow their primary: writes go to the primary. */
function checkWritable(ctx: OperationContext, indexName: string): void {
  const primary = ctx.engine.indexes.get(indexName)?.primary;
  if (primary) throw badRequest(`Index ${indexName} is a replica of ${primary}: write to the primary`);
}

export async function saveObject(ctx: OperationContext) {
  const body = asRecord(ctx.body);
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action: 'addObject', body }]);
  return new Reply(201, { createdAt: now(), taskID, objectID: body.objectID });
}

export async function addOrUpdateObject(ctx: OperationContext) {
  const body = asRecord(ctx.body, ctx.params.objectID);
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action: 'updateObject', body }]);
  return { updatedAt: now(), taskID, objectID: body.objectID };
}

export async function deleteObject(ctx: OperationContext) {
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action: 'deleteObject', objectID: ctx.params.objectID }]);
  return { deletedAt: now(), taskID };
}

export async function clearObjects(ctx: OperationContext) {
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action: 'clear' }]);
  return { updatedAt: now(), taskID };
}

export async function partialUpdateObject(ctx: OperationContext) {
  checkPartial(ctx.body);
  const { createIfNotExists: inBody, ...attributes } = ctx.body as Record<string, unknown>;
  const flag: unknown = ctx.query.createIfNotExists ?? inBody;
  const create = flag === undefined ? true : flag === true || flag === 'true';
  const action = create ? 'partialUpdateObject' : 'partialUpdateObjectNoCreate';
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action, objectID: ctx.params.objectID, body: attributes as never }]);
  return { updatedAt: now(), taskID, objectID: ctx.params.objectID };
}

function requestsOf(body: unknown): unknown[] {
  if (!isPlainObject(body) || !Array.isArray(body.requests)) throw badRequest('Missing "requests" array');
  return body.requests;
}

export async function deleteBy(ctx: OperationContext) {
  const index = ctx.engine.index(ctx.params.indexName);
  checkWritable(ctx, index.name);
  const params = deleteByQueryParams(ctx.body ?? {});
  planQuery(index, params, settingsOf(index, params), 0, 0); // rejects invalid filters before anything is logged
  const taskID = await ctx.engine.write({ type: 'deleteByQuery', indexName: index.name, params });
  return { deletedAt: now(), taskID };
}

export async function batch(ctx: OperationContext) {
  const actions = requestsOf(ctx.body).map(toAction);
  const taskID = await writeActions(ctx, ctx.params.indexName, actions);
  return { taskID, objectIDs: reportedIDs(actions) };
}

/** One task per index; every item is checked before anything is logged. */
export async function multipleBatch(ctx: OperationContext) {
  const items = requestsOf(ctx.body);
  const byIndex = new Map<string, Action[]>();
  const objectIDs: string[] = [];
  items.forEach((item, i) => {
    const indexName = checkIndexName((item as { indexName?: string })?.indexName as string);
    const action = toAction(item, i);
    objectIDs.push(...reportedIDs([action]));
    byIndex.set(indexName, [...(byIndex.get(indexName) ?? []), action]);
  });
  const taskID: Record<string, number> = {};
  for (const indexName of byIndex.keys()) checkWritable(ctx, indexName);
  for (const [indexName, actions] of byIndex) taskID[indexName] = await writeActions(ctx, indexName, actions);
  return { taskID, objectIDs };
}

function readable(ctx: OperationContext, indexName: string, objectID: string, attributes: unknown) {
  const index = ctx.engine.index(indexName);
  const record = index.get(objectID);
  if (!record) return undefined;
  const hidden = ctx.caller.isAdmin || ctx.caller.rights.has('seeUnretrievableAttributes')
    ? [] : (effectiveSetting(index.settings, 'unretrievableAttributes') ?? []);
  // a list, a comma-separated string or a JSON array text: the one parser reads every form
  const toRetrieve = parseSearchParams({ attributesToRetrieve: attributes }).attributesToRetrieve;
  return project(record, projection(toRetrieve, hidden));
}

export function getObject(ctx: OperationContext) {
  const attributes = ctx.query.attributesToRetrieve ?? ctx.query.attributes;
  const record = readable(ctx, ctx.params.indexName, ctx.params.objectID, attributes);
  if (!record) throw notFound('ObjectID does not exist');
  return record;
}

export function getObjects(ctx: OperationContext) {
  const results = requestsOf(ctx.body).map((item, i) => {
    if (!isPlainObject(item)) throw badRequest(`requests[${i}] must be an object`);
    const indexName = item.indexName ?? item.index_name;
    const { objectID } = item;
    if (typeof indexName !== 'string' || (typeof objectID !== 'string' && typeof objectID !== 'number')) {
      throw badRequest(`requests[${i}] needs indexName and objectID (strings)`);
    }
    if (!ctx.engine.indexes.has(indexName)) return null;
    return readable(ctx, indexName, String(objectID), item.attributesToRetrieve) ?? null;
  });
  return { results };
}
