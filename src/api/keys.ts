// API keys: global (/1/keys) and index-specific (/1/indexes/{i}/keys). Every
// change is logged durably (engine.changeKey; with named clusters on NATS,
// stored in the application's key bucket) before the answer; keys need no
// task: they are usable as soon as the call returns.
import { ApiError, notFound } from '../util/errors.js';
import { checkIndexName } from '../index/index-name.js';
import { describeKey, indexKeyIndexes, isExpired, keyFields, randomKey, type ApiKey } from '../auth/api-keys.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the keys, and the indexes an index key names. */
type Uses = Pick<Engine, 'adminKey' | 'deletedKeys' | 'index' | 'keys' | 'changeKey'>;

const iso = () => new Date().toISOString();
const keyNotFound = () => notFound('Key does not exist');

function liveKey(ctx: OperationContext<never, Uses>, value: string, indexName?: string): ApiKey {
  const key = ctx.engine.keys.get(value);
  if (!key || isExpired(key)) throw keyNotFound();
  if (indexName !== undefined && !indexKeyIndexes(key).includes(indexName)) throw keyNotFound();
  return key;
}

function expiry(validity: number, now: number): number {
  return validity > 0 ? now + validity * 1000 : 0;
}

async function create(ctx: OperationContext<never, Uses>, indexName?: string) {
  const fields = keyFields(ctx.body, { indexSpecific: indexName !== undefined, creating: true });
  const now = Date.now();
  let value = randomKey();
  while (ctx.engine.keys.has(value) || ctx.engine.deletedKeys.has(value) || value === ctx.engine.adminKey) value = randomKey();
  const key: ApiKey = { value, createdAt: Math.floor(now / 1000), ...fields, expiresAt: expiry(fields.validity, now) };
  if (indexName !== undefined) key.index = indexName;
  await ctx.engine.changeKey({ type: 'key', action: 'put', key });
  return { key: value, createdAt: iso() };
}

async function update(ctx: OperationContext<never, Uses>, previous: ApiKey | undefined, value: string, indexName?: string) {
  const fields = keyFields(ctx.body, { indexSpecific: indexName !== undefined || previous?.index !== undefined, previous });
  const now = Date.now();
  const key: ApiKey = {
    value,
    createdAt: previous?.createdAt ?? Math.floor(now / 1000),
    ...fields,
    expiresAt: fields.validity === previous?.validity ? previous.expiresAt : expiry(fields.validity, now),
  };
  const index = previous?.index ?? indexName;
  if (index !== undefined) key.index = index;
  if (previous?.copiedTo) key.copiedTo = previous.copiedTo;
  await ctx.engine.changeKey({ type: 'key', action: 'put', key });
  return { key: value, updatedAt: iso() };
}

function live(ctx: OperationContext<never, Uses>): ApiKey[] {
  const now = Date.now();
  return [...ctx.engine.keys.values()].filter((k) => !isExpired(k, now));
}

// ---- global keys ----------------------------------------------------------

export const addApiKey = (ctx: OperationContext<never, Uses>) => create(ctx);

export function updateApiKey(ctx: OperationContext<'key', Uses>) {
  return update(ctx, liveKey(ctx, ctx.params.key), ctx.params.key);
}

/** Any key may read itself (see the router), with its description replaced by `<redacted>`. */
export function getApiKey(ctx: OperationContext<'key', Uses>) {
  const described = describeKey(liveKey(ctx, ctx.params.key));
  return ctx.caller.isAdmin ? described : { ...described, description: '<redacted>' };
}

export function listApiKeys(ctx: OperationContext<never, Uses>) {
  return { keys: live(ctx).sort((a, b) => b.createdAt - a.createdAt).map((k) => describeKey(k)) };
}

export async function deleteApiKey(ctx: OperationContext<'key', Uses>) {
  liveKey(ctx, ctx.params.key);
  await ctx.engine.changeKey({ type: 'key', action: 'delete', value: ctx.params.key });
  return { deletedAt: iso() };
}

export async function restoreApiKey(ctx: OperationContext<'key', Uses>) {
  if (!ctx.engine.deletedKeys.has(ctx.params.key)) throw new ApiError('not_found', 'Key is not in the list of deleted keys');
  await ctx.engine.changeKey({ type: 'key', action: 'restore', value: ctx.params.key });
  return { key: ctx.params.key, createdAt: iso() };
}

// ---- index-specific keys --------------------------------------------------

function indexKeyShape(k: ApiKey, withIndex: boolean) {
  const { value, createdAt, acl, validity, description, maxHitsPerQuery, maxQueriesPerIPPerHour, queryParameters, referers } = describeKey(k) as Record<string, unknown>;
  const out: Record<string, unknown> = { value, createdAt, acl, validity, description, maxHitsPerQuery, maxQueriesPerIPPerHour, queryParameters, referers };
  if (withIndex) out.index = k.index;
  return out;
}

export function addIndexApiKey(ctx: OperationContext<'indexName', Uses>) {
  return create(ctx, checkIndexName(ctx.params.indexName));
}

/** Always succeeds: creates the key when it does not exist. */
export function updateIndexApiKey(ctx: OperationContext<'indexName' | 'key', Uses>) {
  const indexName = checkIndexName(ctx.params.indexName);
  const previous = ctx.engine.keys.get(ctx.params.key);
  if (previous && !indexKeyIndexes(previous).includes(indexName)) throw new ApiError('invalid_request', 'This key is not a key of this index');
  if (ctx.params.key === ctx.engine.adminKey) throw new ApiError('invalid_request', 'The admin key cannot be changed');
  return update(ctx, previous && !isExpired(previous) ? previous : undefined, ctx.params.key, indexName);
}

export function listIndexApiKeys(ctx: OperationContext<'indexName', Uses>) {
  const indexName = ctx.params.indexName;
  ctx.engine.index(indexName); // 404 when the index does not exist
  return { keys: live(ctx).filter((k) => indexKeyIndexes(k).includes(indexName)).map((k) => indexKeyShape(k, false)) };
}

export function listAllIndexApiKeys(ctx: OperationContext<never, Uses>) {
  return { keys: live(ctx).filter((k) => k.index !== undefined).map((k) => indexKeyShape(k, true)) };
}

export function getIndexApiKey(ctx: OperationContext<'indexName' | 'key', Uses>) {
  return indexKeyShape(liveKey(ctx, ctx.params.key, ctx.params.indexName), false);
}

export async function deleteIndexApiKey(ctx: OperationContext<'indexName' | 'key', Uses>) {
  liveKey(ctx, ctx.params.key, ctx.params.indexName);
  await ctx.engine.changeKey({ type: 'key', action: 'delete', value: ctx.params.key });
  return { deletedAt: iso() };
}
