// Who is calling: the admin, or a key with its rights and restrictions. The
// authentication step (authenticate.ts) makes one per request; rights and
// restrictions are checked against it (rights.ts, restrictions.ts).
import type { SearchParams } from '../index/params.js';

/**
 * The rights a key may hold: the official spec's `acl` enum (compatibility.md,
 * "Rights"), and Lantern's own `follow` (a follower receives the indexes the
 * key reaches: src/follow/). `inference` and the `nlu*` rights guard products
 * Lantern does not have: a key may hold them, no operation asks for them.
 */
export const KEY_RIGHTS = [
  'search', 'browse', 'addObject', 'deleteObject', 'deleteIndex', 'listIndexes', 'settings', 'editSettings',
  'analytics', 'recommendation', 'personalization', 'usage', 'logs', 'seeUnretrievableAttributes', 'inference',
  'nluWriteProject', 'nluReadProject', 'nluWriteEntity', 'nluReadEntity', 'nluWriteIntent', 'nluReadIntent',
  'nluPrediction', 'nluReadAnswers', 'follow',
] as const;

/** What an operation needs: a key's right, or the admin key (`admin`, which no key holds). */
export type Right = (typeof KEY_RIGHTS)[number] | 'admin';

export interface Restrictions {
  /** Index patterns: an index must be admitted by every list (key `indexes`, index-specific key, `restrictIndices`). */
  indexes: string[][];
  /** 0 = unlimited. */
  maxHitsPerQuery: number;
  /** Search parameters forced on every query, parsed; later entries win over earlier ones. */
  forced: SearchParams[];
}

export interface Caller {
  isAdmin: boolean;
  rights: ReadonlySet<Right>;
  /** The stored key used (a secured key's parent); undefined for the admin key and open mode. */
  key?: string;
  /** Index patterns, forced search parameters, hits cap (restricted keys only). */
  restrictions?: Restrictions;
  /** Per-hour call limit and who it counts (key, address, and a user token only when vouched for). */
  rateLimit?: { limit: number; identity: string };
}
