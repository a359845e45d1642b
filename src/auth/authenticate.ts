// Who is calling: the application id and API key from headers (either
// spelling, any case) or the query string, checked against the engine.
import { ApiError } from '../engine/errors.js';
import type { Caller, Right } from '../api/types.js';

const APP_ID_NAMES = ['x-algolia-application-id', 'x-service-application-id'];
const API_KEY_NAMES = ['x-algolia-api-key', 'x-service-api-key'];

function credential(names: string[], headers: Record<string, string>, query: Record<string, string>): string | undefined {
  for (const n of names) if (headers[n]) return headers[n];
  for (const [k, v] of Object.entries(query)) if (names.includes(k.toLowerCase())) return v;
  return undefined;
}

export const invalidCredentials = () => new ApiError(403, 'Invalid Application-ID or API key');

const ALL_RIGHTS = new Set<Right>([
  'search', 'browse', 'addObject', 'deleteObject', 'deleteIndex', 'listIndexes', 'settings', 'editSettings',
  'analytics', 'recommendation', 'personalization', 'usage', 'logs', 'seeUnretrievableAttributes', 'admin',
]);

/** An engine opened without an admin key is open: every caller is admin (embedded use). */
export function authenticate(
  engine: { appId?: string; adminKey?: string },
  headers: Record<string, string>,
  query: Record<string, string>,
): Caller {
  if (engine.adminKey === undefined) return { isAdmin: true, rights: ALL_RIGHTS };
  const appId = credential(APP_ID_NAMES, headers, query);
  const key = credential(API_KEY_NAMES, headers, query);
  if (engine.appId !== undefined && appId !== engine.appId) throw invalidCredentials();
  if (key === undefined || !constantTimeEqual(key, engine.adminKey)) throw invalidCredentials();
  return { isAdmin: true, rights: ALL_RIGHTS };
}

export function authorize(caller: Caller, right: Right): void {
  if (!caller.rights.has(right)) throw new ApiError(403, `Method not allowed with this API key (needs ${right})`);
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
