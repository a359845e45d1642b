// The source allow-list (firewall): /1/security/sources. Disabled until
// first set; then every request from outside it is refused (403). A change
// that would exclude the caller's own address is refused (400).
import { ApiError, badRequest } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import type { AllowedSource } from '../engine/writes.js';
import { inAnyNetwork, parseNetwork } from '../auth/cidr.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the source allow-list and its write path. */
type Uses = Pick<Engine, 'sources' | 'writeKey'>;

export const MAX_SOURCES = 1000;
const SUPPORT = 'SERVICE_SUPPORT';
const iso = () => new Date().toISOString();

function checkSource(item: unknown, where: string): AllowedSource {
  if (!isPlainObject(item) || typeof item.source !== 'string') throw badRequest(`${where}: expected {source, description?}`);
  if (item.description !== undefined && typeof item.description !== 'string') throw badRequest(`${where}: description must be a string`);
  const source = item.source.trim();
  if (source !== SUPPORT && !parseNetwork(source)) throw badRequest(`${where}: "${item.source}" is not an IP address or CIDR network`);
  return item.description === undefined ? { source } : { source, description: item.description };
}

/** Whether `ip` may call with this list (undefined = disabled = everyone). */
export function sourceAllowed(list: readonly AllowedSource[] | undefined, ip: string): boolean {
  if (list === undefined) return true;
  return inAnyNetwork(list.map((s) => s.source).filter((s) => s !== SUPPORT), ip);
}

async function save(ctx: OperationContext<never, Uses>, sources: AllowedSource[]): Promise<void> {
  if (sources.length > MAX_SOURCES) throw badRequest(`The allow-list holds at most ${MAX_SOURCES} sources`);
  if (!sourceAllowed(sources, ctx.sourceIp)) {
    throw badRequest(`This change would lock out the caller's own address (${ctx.sourceIp})`);
  }
  await ctx.engine.writeKey({ type: 'key', action: 'sources', sources });
}

export function getSources(ctx: OperationContext<never, Uses>) {
  return ctx.engine.sources ?? [];
}

export async function replaceSources(ctx: OperationContext<never, Uses>) {
  if (!Array.isArray(ctx.body)) throw badRequest('Invalid JSON: expected an array of {source, description?}');
  await save(ctx, ctx.body.map((item: unknown, i: number) => checkSource(item, `[${i}]`)));
  return { updatedAt: iso() };
}

export async function appendSource(ctx: OperationContext<never, Uses>) {
  const added = checkSource(ctx.body, 'body');
  const current = ctx.engine.sources ?? [];
  await save(ctx, [...current.filter((s) => s.source !== added.source), added]);
  return { createdAt: iso() };
}

export async function deleteSource(ctx: OperationContext<'source', Uses>) {
  const current = ctx.engine.sources ?? [];
  const wanted = ctx.params.source.trim();
  const rest = current.filter((s) => s.source !== wanted);
  if (rest.length === current.length) throw new ApiError('not_found', `Source ${wanted} is not in the allow-list`);
  await save(ctx, rest);
  return { deletedAt: iso() };
}
