// Checks the router runs after authentication and authorization, before the
// operation: the indexes a call reaches (every one of a multi-index call:
// one forbidden index refuses the whole call) and the per-hour rate limit.
import type { Caller } from '../api/types.js';
import type { RateLimiter } from './rate-limit.js';
import { checkIndex, indexesInRequests, mayReach } from './restrictions.js';

/** Operations whose body names the indexes (`requests[].indexName`). */
const MULTI_INDEX = new Set(['search', 'getObjects', 'multipleBatch', 'getRecommendations']);

/** `keyCalls`: the engine's per-hour counter of calls by key, address or vouched user token. */
export function enforce(keyCalls: RateLimiter, route: { op: string }, caller: Caller, params: Record<string, string>, body: unknown): void {
  if (caller.restrictions) {
    if (params.indexName !== undefined) checkIndex(caller, params.indexName);
    if (MULTI_INDEX.has(route.op)) for (const name of indexesInRequests(body)) checkIndex(caller, name);
    // copy/move: the destination must be reachable too
    const destination = (body as { destination?: unknown } | undefined)?.destination;
    if (route.op === 'operationIndex' && typeof destination === 'string') checkIndex(caller, destination);
  }
  if (caller.rateLimit) keyCalls.hit(caller.rateLimit.identity, caller.rateLimit.limit);
}

/** A restricted key lists only the indexes it may reach. */
export function restrictResult(route: { op: string }, caller: Caller, result: unknown): unknown {
  if (!caller.restrictions || route.op !== 'listIndices') return result;
  const r = result as { items?: Array<{ name: string }> };
  if (!r || !Array.isArray(r.items)) return result;
  return { ...r, items: r.items.filter((i) => mayReach(caller, i.name)) };
}
