// Index management, settings and task status.
import { mergeEmbedderSecrets, redactEmbedders, type EmbedderSettings } from '../vectors/embedder-settings.js';
import { ApiError, badRequest, notFound } from '../util/errors.js';
import { checkIndexName } from '../index/index-name.js';
import { parseSettings } from '../index/params.js';
import { isOneOf, isPlainObject } from '../index/records.js';
import { DEFAULT_SETTINGS, rankingPlan } from '../index/settings.js';
import type { SearchIndex } from '../index/search-index.js';
import { answeredSynonym } from '../index/synonyms.js';
import { replicaName } from '../index/index-config.js';
import { forwardToReplicas } from './query-flags.js';
import { checkWholeIndexAllowed } from '../auth/restrictions.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the index catalog, its write path and its tasks. */
type Uses = Pick<Engine, 'embeddersOf' | 'embeddings' | 'index' | 'indexKeysReaching' | 'indexes' | 'taskStatus' | 'tasks' | 'write'>;

const PAGE_SIZE = 100;

function describe(index: SearchIndex, pendingTasks: number) {
  const replicas = index.settings.replicas;
  return {
    ...(index.primary ? { primary: index.primary } : {}),
    ...(replicas?.length ? { replicas } : {}),
    name: index.name,
    createdAt: index.createdAt.toISOString(),
    updatedAt: index.updatedAt.toISOString(),
    entries: index.size,
    dataSize: index.memoryBytes,
    fileSize: index.memoryBytes,
    lastBuildTimeS: index.lastBuildTimeS,
    numberOfPendingTasks: pendingTasks,
    pendingTask: pendingTasks > 0,
  };
}

export function listIndices(ctx: OperationContext<never, Uses>) {
  const all = [...ctx.engine.indexes.values()].sort((a, b) => a.name.localeCompare(b.name));
  const items = all.map((i) => describe(i, ctx.engine.tasks.pendingFor(i.name)));
  if (ctx.query.page === undefined) return { items, nbPages: 1 };
  const page = Number(ctx.query.page);
  const size = ctx.query.hitsPerPage ? Number(ctx.query.hitsPerPage) : PAGE_SIZE;
  if (!Number.isInteger(page) || page < 0 || !Number.isInteger(size) || size < 1) throw badRequest('Invalid value for "page"');
  return { items: items.slice(page * size, (page + 1) * size), nbPages: Math.ceil(items.length / size) };
}

export async function deleteIndex(ctx: OperationContext<'indexName', Uses>) {
  checkWholeIndexAllowed(ctx.caller);
  const indexName = checkIndexName(ctx.params.indexName);
  const taskID = await ctx.engine.write({ type: 'deleteIndex', indexName });
  return { deletedAt: new Date().toISOString(), taskID };
}

export function getSettings(ctx: OperationContext<'indexName', Uses>) {
  const index = ctx.engine.index(ctx.params.indexName);
  // a setting unset and without a default is left out (the spec types them as arrays, never null)
  // each in the form it was given (typoTolerance "false" stays a string), as the service answers
  const settings: Record<string, unknown> = Object.fromEntries(
    Object.entries({ ...DEFAULT_SETTINGS, ...index.settings, ...index.givenForms }).filter(([, value]) => value !== null),
  );
  if (index.primary) settings.primary = index.primary;
  // an embedder's API key is the admin's: other keys see it masked
  if (!ctx.caller.isAdmin && isPlainObject(settings.embedders)) settings.embedders = redactEmbedders(settings.embedders as Record<string, EmbedderSettings>);
  // synonyms were part of settings once; getVersion=2 leaves them out
  if (ctx.query.getVersion !== '2') settings.synonyms = [...index.synonyms.values()].map(answeredSynonym);
  return settings;
}

export async function setSettings(ctx: OperationContext<'indexName', Uses>) {
  if (!isPlainObject(ctx.body)) throw badRequest('Invalid JSON: settings must be a JSON object');
  const { settings, given } = parseSettings(ctx.body);
  rankingPlan(settings); // rejects a bad ranking or customRanking before anything is logged
  const indexName = checkIndexName(ctx.params.indexName);
  if (settings.embedders !== undefined) {
    // an embedder calls the URL it names with the key it holds: only the admin points it anywhere
    if (!ctx.caller.isAdmin) throw new ApiError('not_allowed', 'Only the admin API key may change "embedders"');
    // a masked secret sent back (read from a redacted getSettings) keeps the one stored
    if (settings.embedders) settings.embedders = mergeEmbedderSecrets(settings.embedders, ctx.engine.embeddersOf(indexName) ?? {});
  }
  if (ctx.engine.indexes.get(indexName)?.primary && settings.replicas !== undefined) {
    throw badRequest('A replica cannot have replicas');
  }
  for (const replica of settings.replicas ?? []) {
    const name = checkIndexName(replicaName(replica), 'replica name');
    if (name === indexName) throw badRequest('An index cannot be its own replica');
    const other = ctx.engine.indexes.get(name);
    if (other?.primary && other.primary !== indexName) throw badRequest(`Index ${name} is already a replica of ${other.primary}`);
  }
  const taskID = await ctx.engine.write({ type: 'settings', indexName, settings, given, forwardToReplicas: forwardToReplicas(ctx) });
  return { updatedAt: new Date().toISOString(), taskID };
}

async function taskStatus(ctx: OperationContext<'taskID', Uses>) {
  const taskID = Number(ctx.params.taskID);
  if (!Number.isInteger(taskID) || taskID <= 0) throw badRequest(`Invalid taskID: ${ctx.params.taskID}`);
  const status = await ctx.engine.taskStatus(taskID);
  if (!status) throw notFound(`Task ${taskID} does not exist`);
  // the older documents' pendingTask was "deprecated, must not be used"; the spec allows status alone, and
  // Lantern says how many of the task's records still wait for an embedder (searchable by keywords meanwhile)
  const waiting = ctx.engine.embeddings.waitingOf(taskID);
  return waiting > 0 ? { status, pendingEmbeddings: waiting } : { status };
}

export function getTask(ctx: OperationContext<'indexName' | 'taskID', Uses>) {
  checkIndexName(ctx.params.indexName);
  return taskStatus(ctx);
}

export const getAppTask = taskStatus;

const SCOPES = ['settings', 'synonyms', 'rules'] as const;

/** copy / move: `operation`, `destination`, optional `scope`. */
export async function operationIndex(ctx: OperationContext<'indexName', Uses>) {
  const body = ctx.body;
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: expected {operation, destination}');
  const { operation, destination, scope } = body;
  if (operation !== 'copy' && operation !== 'move') throw badRequest('Invalid value for "operation": expected copy or move');
  const destinationName = checkIndexName(destination, 'destination');
  if (scope !== undefined && (!Array.isArray(scope) || scope.some((s) => !isOneOf(SCOPES, s)))) {
    throw badRequest(`Invalid value for "scope": expected a list of ${SCOPES.join(', ')}`);
  }
  if (!(operation === 'copy' && scope?.length)) checkWholeIndexAllowed(ctx.caller); // the records go too
  const source = ctx.engine.index(ctx.params.indexName);
  if (destinationName === source.name) throw badRequest('Source and destination are the same index');
  if (ctx.engine.indexes.get(destinationName)?.primary && !(scope?.length)) throw badRequest(`Cannot ${operation} onto replica ${destinationName}`);
  // the keys are the ones of now: key writes apply at once, this operation once the writes before it have
  const whole = !(operation === 'copy' && scope?.length);
  const keys = whole ? ctx.engine.indexKeysReaching(source.name) : undefined;
  const taskID = await ctx.engine.write({ type: 'operation', indexName: source.name, operation, destination: destinationName, scope, ...(keys ? { keys } : {}) });
  return { updatedAt: new Date().toISOString(), taskID };
}
