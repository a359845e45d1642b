// Objects: add, replace, get, delete, partial update, batch, multi-index
// batch, multi-get. Every write becomes a batch of actions (writes.ts).
import { checkBatchVectors } from '../vectors/record-vectors.js';
import { badRequest, notFound } from '../util/errors.js';
import { checkIndexName } from '../index/index-name.js';
import { asRecord, checkPartial, isPlainObject, project, projection } from '../index/records.js';
import { effectiveSetting } from '../index/settings.js';
import { reportedIDs, toAction, type Action } from '../engine/writes.js';
import { bodyCheckMark, withCheckedBodies } from '../index/storable.js';
import { deleteByQueryParams, filterParams, recordFilter } from '../query/browse.js';
import { checkWholeIndexAllowed, forcedFilters, restrictParams } from '../auth/restrictions.js';
import type { SearchIndex } from '../index/search-index.js';
import { planQuery } from '../query/query-plan.js';
import { parseSearchParams } from '../index/params.js';
import { settingsOf } from '../query/search.js';
import { now } from './query-flags.js';
import { writtenFor } from '../clusters/user-id.js';
import { Reply, type OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the indexes and their write path. */
type Uses = Pick<Engine, 'embeddersOf' | 'index' | 'indexes' | 'write'>;


/** Writes `actions`, whose bodies were each checked as they were read (toAction, asRecord, checkPartial), from `mark` on (see bodyCheckMark). */
async function writeActions(ctx: OperationContext<never, Uses>, indexName: string, actions: Action[], mark: number): Promise<number> {
  checkWritable(ctx, indexName);
  const reached = reachableDeletes(ctx, indexName, actions);
  checkBatchVectors(reached, ctx.engine.embeddersOf(indexName));
  const batch = { type: 'batch' as const, indexName: checkIndexName(indexName), actions: reached, ...writtenFor(ctx.headers, ctx.query) };
  return ctx.engine.write(withCheckedBodies(batch, mark));
}

/**
 * The records a caller may read or delete: those passing the filters its
 * key forces on searches (search's own restriction path); a record outside
 * them is treated as absent. Each index's test is built once a call.
 */
function reachTest(ctx: OperationContext<never, Uses>): (index: SearchIndex, objectID: string) => boolean {
  const filters = forcedFilters(ctx.caller);
  const tests = new Map<SearchIndex, ((objectID: string) => boolean) | undefined>();
  return (index, objectID) => {
    if (!filters) return true;
    if (!tests.has(index)) tests.set(index, recordFilter(index, filters));
    return tests.get(index)?.(objectID) ?? true;
  };
}

/** A caller's deletes of records outside its key's filters are dropped (as if those were absent). */
function reachableDeletes(ctx: OperationContext<never, Uses>, indexName: string, actions: Action[]): Action[] {
  if (actions.some((a) => a.action === 'clear' || a.action === 'delete')) checkWholeIndexAllowed(ctx.caller);
  const index = ctx.engine.indexes.get(indexName);
  if (!index || !actions.some((a) => a.action === 'deleteObject')) return actions;
  const reaches = reachTest(ctx);
  return actions.filter((a) => a.action !== 'deleteObject' || reaches(index, a.objectID));
}

/** Replicas follow their primary: writes go to the primary. */
function checkWritable(ctx: OperationContext<never, Uses>, indexName: string): void {
  const primary = ctx.engine.indexes.get(indexName)?.primary;
  if (primary) throw badRequest(`Index ${indexName} is a replica of ${primary}: write to the primary`);
}

export async function saveObject(ctx: OperationContext<'indexName', Uses>) {
  const mark = bodyCheckMark();
  const body = asRecord(ctx.body);
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action: 'addObject', body }], mark);
  return new Reply(201, { createdAt: now(), taskID, objectID: body.objectID });
}

export async function addOrUpdateObject(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const mark = bodyCheckMark();
  const body = asRecord(ctx.body, ctx.params.objectID);
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action: 'updateObject', body }], mark);
  return { updatedAt: now(), taskID, objectID: body.objectID };
}

export async function deleteObject(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action: 'deleteObject', objectID: ctx.params.objectID }], bodyCheckMark());
  return { deletedAt: now(), taskID };
}

export async function clearObjects(ctx: OperationContext<'indexName', Uses>) {
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action: 'clear' }], bodyCheckMark());
  return { updatedAt: now(), taskID };
}

export async function partialUpdateObject(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const mark = bodyCheckMark();
  checkPartial(ctx.body);
  const { createIfNotExists: inBody, ...attributes } = ctx.body as Record<string, unknown>;
  const flag: unknown = ctx.query.createIfNotExists ?? inBody;
  const create = flag === undefined ? true : flag === true || flag === 'true';
  const action = create ? 'partialUpdateObject' : 'partialUpdateObjectNoCreate';
  const taskID = await writeActions(ctx, ctx.params.indexName, [{ action, objectID: ctx.params.objectID, body: attributes as never }], mark);
  return { updatedAt: now(), taskID, objectID: ctx.params.objectID };
}

/** Items of a batch read between two steps (see OperationContext.step): a few milliseconds' worth. */
const ITEMS_PER_STEP = 200;

/** A batch's items read as actions, in steps when there are many: searches waiting run between steps. */
async function actionsOf(ctx: OperationContext<never, Uses>, items: unknown[], read: (item: unknown, position: number) => Action): Promise<Action[]> {
  const actions: Action[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % ITEMS_PER_STEP === 0) await ctx.step();
    actions.push(read(items[i], i));
  }
  if (items.length > ITEMS_PER_STEP) await ctx.step();
  return actions;
}

function requestsOf(body: unknown): unknown[] {
  if (!isPlainObject(body) || !Array.isArray(body.requests)) throw badRequest('Missing "requests" array');
  return body.requests;
}

export async function deleteBy(ctx: OperationContext<'indexName', Uses>) {
  const index = ctx.engine.index(ctx.params.indexName);
  checkWritable(ctx, index.name);
  // the key's forced filters AND the call's: only records both reach are deleted
  const params = filterParams(restrictParams(ctx.caller, deleteByQueryParams(ctx.body ?? {})));
  planQuery(index, params, settingsOf(index, params), 0, 0); // rejects invalid filters before anything is logged
  const taskID = await ctx.engine.write({ type: 'deleteByQuery', indexName: index.name, params });
  // the older documents answered `deletedAt`; the official spec requires `updatedAt` and allows nothing else
  return { taskID, updatedAt: now() };
}

export async function batch(ctx: OperationContext<'indexName', Uses>) {
  const mark = bodyCheckMark();
  const actions = await actionsOf(ctx, requestsOf(ctx.body), toAction);
  const taskID = await writeActions(ctx, ctx.params.indexName, actions, mark);
  return { taskID, objectIDs: reportedIDs(actions) };
}

/** One task per index; every item is checked before anything is logged. */
export async function multipleBatch(ctx: OperationContext<never, Uses>) {
  const byIndex = new Map<string, Action[]>();
  const objectIDs: string[] = [];
  const mark = bodyCheckMark();
  await actionsOf(ctx, requestsOf(ctx.body), (item, i) => {
    const indexName = checkIndexName((item as { indexName?: string })?.indexName as string);
    const action = toAction(item, i);
    objectIDs.push(...reportedIDs([action]));
    const actions = byIndex.get(indexName);
    if (actions) actions.push(action);
    else byIndex.set(indexName, [action]);
    return action;
  });
  const taskID: Record<string, number> = {};
  for (const indexName of byIndex.keys()) checkWritable(ctx, indexName);
  for (const [indexName, actions] of byIndex) taskID[indexName] = await writeActions(ctx, indexName, actions, mark);
  return { taskID, objectIDs };
}

function readable(ctx: OperationContext<never, Uses>, index: SearchIndex, objectID: string, attributes: unknown, reaches: ReturnType<typeof reachTest>) {
  const record = index.get(objectID);
  if (!record || !reaches(index, objectID)) return undefined;
  const hidden = ctx.caller.isAdmin || ctx.caller.rights.has('seeUnretrievableAttributes')
    ? [] : (effectiveSetting(index.settings, 'unretrievableAttributes') ?? []);
  // a list, a comma-separated string or a JSON array text: the one parser reads every form
  const toRetrieve = parseSearchParams({ attributesToRetrieve: attributes }).attributesToRetrieve;
  return project(record, projection(toRetrieve, hidden));
}

export function getObject(ctx: OperationContext<'indexName' | 'objectID', Uses>) {
  const attributes = ctx.query.attributesToRetrieve ?? ctx.query.attributes;
  const record = readable(ctx, ctx.engine.index(ctx.params.indexName), ctx.params.objectID, attributes, reachTest(ctx));
  if (!record) throw notFound('ObjectID does not exist');
  return record;
}

export function getObjects(ctx: OperationContext<never, Uses>) {
  const reaches = reachTest(ctx);
  const results = requestsOf(ctx.body).map((item, i) => {
    if (!isPlainObject(item)) throw badRequest(`requests[${i}] must be an object`);
    const indexName = item.indexName ?? item.index_name;
    const { objectID } = item;
    if (typeof indexName !== 'string' || (typeof objectID !== 'string' && typeof objectID !== 'number')) {
      throw badRequest(`requests[${i}] needs indexName and objectID (strings)`);
    }
    const index = ctx.engine.indexes.get(indexName);
    return (index && readable(ctx, index, String(objectID), item.attributesToRetrieve, reaches)) ?? null;
  });
  return { results };
}
