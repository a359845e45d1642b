// What several resources read from the query string the same way.
import type { OperationContext } from './types.js';

export const now = () => new Date().toISOString();

/** A boolean query parameter (`true` or `1`), under any of its names. */
export function queryFlag(ctx: Pick<OperationContext, 'query'>, ...names: string[]): boolean {
  return names.some((name) => ctx.query[name] === 'true' || ctx.query[name] === '1');
}

/** `forwardToReplicas`, or its old name `forwardToSlaves`. */
export const forwardToReplicas = (ctx: Pick<OperationContext, 'query'>) => queryFlag(ctx, 'forwardToReplicas', 'forwardToSlaves');
