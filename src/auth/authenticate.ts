// Who is calling: the application id and API key from headers (either
// spelling, any case) or the query string, checked against the engine.
import { ApiError } from '../util/errors.js';
import { KEY_RIGHTS, type Caller, type Right } from './caller.js';
import { indexKeyIndexes, isExpired, keyReaches, refererAdmitted } from './api-keys.js';
import { inAnyNetwork } from './cidr.js';
import { forcedParams } from './restrictions.js';
import { rateIdentity } from './rate-limit.js';
import { parseSecuredKey, readRestrictions, type SecuredRestrictions } from './secured-keys.js';
import type { ParentFilter, SecuredKeyParents } from './secured-parents.js';
import { constantTimeEqual } from './constant-time.js';
import type { KeyMap } from './key-map.js';

const APP_ID_NAMES = ['x-algolia-application-id', 'x-service-application-id'];
const API_KEY_NAMES = ['x-algolia-api-key', 'x-service-api-key'];

function credential(names: string[], headers: Record<string, string>, query: Record<string, string>): string | undefined {
  for (const n of names) if (headers[n]) return headers[n];
  for (const [k, v] of Object.entries(query)) if (names.includes(k.toLowerCase())) return v;
  return undefined;
}

/** The application id and API key a call was made with (to make calls of its own with them). */
export function credentialsOf(headers: Record<string, string>, query: Record<string, string>): { appId?: string; key?: string } {
  return { appId: credential(APP_ID_NAMES, headers, query), key: credential(API_KEY_NAMES, headers, query) };
}

export const invalidCredentials = () => new ApiError('invalid_credentials', 'Invalid Application-ID or API key');

/**
 * The admin key with another application id: its holder may learn the one
 * it goes with (so that `lantern import --url` needs no --app-id); anyone
 * else learns nothing.
 */
const otherApplicationId = (appId: string) =>
  new ApiError('invalid_credentials', `Invalid Application-ID or API key (the admin key is right: the application id is ${JSON.stringify(appId)})`);

/** The application id a refusal of the admin key names (see otherApplicationId), if it names one. */
export function applicationIdNamedIn(message: string): string | undefined {
  const named = /\(the admin key is right: the application id is ("(?:[^"\\]|\\.)*")\)$/.exec(message)?.[1];
  return named === undefined ? undefined : JSON.parse(named) as string;
}

const ALL_RIGHTS = new Set<Right>([...KEY_RIGHTS, 'admin']);

/** What authentication reads from the engine. */
export interface KeyHolder {
  appId?: string;
  adminKey?: string;
  keys?: KeyMap;
}

export interface CallInfo {
  /** The caller's address (the socket's, or the in-process `sourceIp`). */
  sourceIp: string;
  /** The end user's token when a trusted proxy vouches for it (ApiRequest.userToken). */
  userToken?: string;
}

/** What the call needs of its key, which bounds the keys that may be a secured key's parent. */
export interface CallNeeds {
  /** The right the call's route needs. */
  right: Right;
  /** The index the call names in its path. */
  indexName?: string;
  /** The key the call reads, when a key may read itself (getApiKey): a secured key's parent must be that key. */
  key?: string;
}

const ADMIN: Caller = { isAdmin: true, rights: ALL_RIGHTS };

/**
 * Who is calling and what they may do. An engine opened without an admin
 * key is open: every caller is admin (embedded use).
 */
export async function authenticate(
  engine: KeyHolder,
  parents: SecuredKeyParents,
  headers: Record<string, string>,
  query: Record<string, string>,
  info: CallInfo,
  needs: CallNeeds,
): Promise<Caller> {
  if (engine.adminKey === undefined) return ADMIN;
  const appId = credential(APP_ID_NAMES, headers, query);
  const key = credential(API_KEY_NAMES, headers, query);
  if (key === undefined || key === '') throw invalidCredentials();
  if (engine.appId !== undefined && appId !== engine.appId) throw constantTimeEqual(key, engine.adminKey) ? otherApplicationId(engine.appId) : invalidCredentials();
  if (constantTimeEqual(key, engine.adminKey)) {
    // a proxy: the admin key applies a rate-limited key's limits to the end user's address
    const forwarded = headers['x-forwarded-api-key'];
    if (forwarded === undefined) return ADMIN;
    // the admin key's holder is trusted: its user token counts like a trusted proxy's
    const ip = headers['x-forwarded-for']?.split(',')[0]?.trim() || info.sourceIp;
    return keyCaller(engine, parents, forwarded, headers, { sourceIp: ip, userToken: headers['x-algolia-usertoken'] ?? info.userToken }, needs);
  }
  return keyCaller(engine, parents, key, headers, info, needs);
}

async function keyCaller(
  engine: KeyHolder, parents: SecuredKeyParents, value: string, headers: Record<string, string>, info: CallInfo, needs: CallNeeds,
): Promise<Caller> {
  const { sourceIp } = info;
  const now = Date.now();
  const referer = headers.referer ?? headers.referrer ?? headers.origin;
  const stored = engine.keys?.find(value);
  let parent = stored && !isExpired(stored, now) ? stored : undefined;
  let secured: SecuredRestrictions | undefined;
  if (!parent) {
    const parts = parseSecuredKey(value);
    if (!parts || !engine.keys) throw invalidCredentials();
    // the key's own restrictions first: a key they refuse needs no parent
    secured = checkedRestrictions(parts.qs, sourceIp, referer, now);
    // candidates: the live stored keys that could serve this call (never the admin key, never a secured key)
    parent = await parents.find(value, parts, engine.keys.signers, parentFilter(needs, referer, now), sourceIp);
    if (!parent) throw invalidCredentials();
  }
  if (!refererAdmitted(parent.referers, referer)) throw new ApiError('not_allowed', 'Referer not allowed with this API key');
  const indexes: string[][] = [];
  if (parent.index !== undefined) indexes.push(indexKeyIndexes(parent));
  if (parent.indexes.length) indexes.push(parent.indexes);
  if (secured?.restrictIndices !== undefined) indexes.push(secured.restrictIndices.length ? secured.restrictIndices : ['\u0000none']);
  const forced = [forcedParams(parent.queryParameters)];
  if (secured) forced.push(forcedParams(secured.searchParams));
  return {
    isAdmin: false,
    rights: new Set(parent.acl as Right[]),
    key: parent.value,
    restrictions: { indexes, maxHitsPerQuery: parent.maxHitsPerQuery, forced },
    rateLimit: parent.maxQueriesPerIPPerHour > 0
      ? { limit: parent.maxQueriesPerIPPerHour, identity: rateIdentity(parent.value, sourceIp, secured?.userToken ?? info.userToken) }
      : undefined,
  };
}

/** A secured key's restrictions, checked against the call's address, referer and time. */
function checkedRestrictions(qs: string, sourceIp: string, referer: string | undefined, now: number): SecuredRestrictions {
  const secured = readRestrictions(qs);
  if (!secured) throw invalidCredentials();
  if (secured.validUntil !== undefined && now / 1000 > secured.validUntil) throw new ApiError('not_allowed', 'The secured API key has expired');
  if (secured.restrictSources !== undefined && !inAnyNetwork(secured.restrictSources, sourceIp)) {
    throw new ApiError('not_allowed', 'This secured API key is not allowed from this source address');
  }
  if (secured.referers !== undefined && !refererAdmitted(secured.referers, referer)) {
    throw new ApiError('not_allowed', 'Referer not allowed with this API key');
  }
  return secured;
}

/**
 * The stored keys that may be the parent of a secured key used on this
 * call: those whose own rights, expiry, indexes and referers let them
 * serve it (the secured key has no more than its parent's), since the
 * parent must pass each check anyway once found.
 */
function parentFilter(needs: CallNeeds, referer: string | undefined, now: number): ParentFilter {
  return {
    right: needs.right,
    named: needs.key,
    // cheapest first: most keys have no referers nor indexes, and this runs for every candidate
    admits: (key) => !isExpired(key, now) && (key.referers.length === 0 || refererAdmitted(key.referers, referer))
      && (needs.indexName === undefined || keyReaches(key, needs.indexName)),
  };
}

/**
 * The service's answer to a key without the right to change an index
 * (`addObject`, `editSettings`): a 400 in these words, which the official
 * clients' copy helpers meet on a destination application's key.
 */
export const NOT_ENOUGH_RIGHTS = 'Not enough rights to update an object';

/** Refuses a call whose key lacks `right`; `changesIndex`: the call writes an index's records, settings, rules or synonyms. */
export function authorize(caller: Caller, right: Right, { changesIndex = false } = {}): void {
  if (caller.rights.has(right)) return;
  if (changesIndex) throw new ApiError('not_enough_rights', NOT_ENOUGH_RIGHTS);
  throw new ApiError('not_allowed', `Method not allowed with this API key (needs ${right})`);
}
