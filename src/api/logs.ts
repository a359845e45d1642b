// GET /1/logs: the engine's last calls (src/api/call-log.ts), recorded by
// the router after each answer. Credentials never reach a log entry: API key
// headers and query parameters are masked, embedders' keys in settings too, key values in paths too (in
// key-management paths, and any segment that is or looks like a key), and
// the answers of key management (which hold key values) are left out. A
// restricted `logs` key reads only the entries of its indexes.
import { badRequest, shown } from '../util/errors.js';
import { LOG_CAPACITY } from './call-log.js';
import { isPlainObject } from '../index/records.js';
import { checkIndex, mayReach } from '../auth/restrictions.js';
import { parseSecuredKey } from '../auth/secured-keys.js';
import type { AnsweredCall, ApiResponse, Caller, InnerQuery, LogEntry as Entry, OperationContext, Right } from './types.js';
import { jsonStart } from '../util/json-start.js';
import { parseEmbedders, redactEmbedders } from '../vectors/embedder-settings.js';
import type { CallLog } from './call-log.js';
import { RecentValues } from '../util/recent.js';

/** How much of a body or an answer an entry keeps. */
const CUT = 1000;
const LOG_TYPES = ['all', 'query', 'build', 'error'] as const;
type LogType = (typeof LOG_TYPES)[number];


// --- masking

const SECRET_HEADER = /(^|-)api-key$|^authorization$|^proxy-authorization$|^cookie$/;
/** Key management paths (`/1/keys…`, `/1/indexes/{i}/keys…`), and the key value in them. */
const KEY_MANAGEMENT = /^\/1\/(indexes\/[^/]+\/)?keys(\/|$)/;
const KEY_IN_PATH = /^(\/1\/(?:indexes\/[^/]+\/)?keys\/)([^/]+)/;
/** The shape of the keys the engine makes (randomKey: 32 hex digits). */
const KEY_SHAPE = /^[0-9a-f]{32}$/i;

/** The key values the engine holds: a path segment equal to one is masked whatever its shape. */
interface KeyValues { adminKey?: string; keys?: ReadonlyMap<string, unknown>; deletedKeys?: ReadonlyMap<string, unknown> }

/** A key's first characters name it in a log; short keys are hidden whole. */
export function maskKey(value: string): string {
  return `${value.length >= 32 ? value.slice(0, 4) : ''}${'*'.repeat(16)}`;
}

/** Whether a (decoded) path segment is or looks like an API key: a held key's value, the engine's key shape, a secured key. */
function keyLike(segment: string, held: KeyValues): boolean {
  return keyShaped(segment) || heldKey(segment, held);
}

/** Whether a (decoded) path segment has the engine's key shape or is a secured key. */
function keyShaped(segment: string): boolean {
  return KEY_SHAPE.test(segment) || parseSecuredKey(segment) !== undefined;
}

/** Whether a (decoded) path segment is the value of a key the engine holds. */
function heldKey(segment: string, held: KeyValues): boolean {
  return segment === held.adminKey || held.keys?.has(segment) === true || held.deletedKeys?.has(segment) === true;
}

/**
 * A path's segments as masking reads them: each decoded, and whether it
 * is masked whatever keys the engine holds (see segmentsOf).
 */
interface PathSegments { segments: readonly string[]; decoded: readonly string[]; keyShaped: readonly boolean[] }

/**
 * The segments of the paths called lately that hold nothing key-shaped
 * (an app calls the same few paths; a key management path is not kept):
 * working them out cost every call a decoding, a regular expression and a
 * secured key's check per segment.
 */
const pathSegments = new RecentValues<string, PathSegments>(256);

/** The path's segments; masked whatever keys are held: the key of a key management path, and any key-shaped segment. */
function segmentsOf(path: string): PathSegments {
  const known = pathSegments.find(path);
  if (known) return known;
  const keyIndex = (KEY_IN_PATH.exec(path)?.[1].split('/').length ?? 0) - 1; // the segment after "keys/" (-1: none)
  const segments = path.split('/');
  const decoded = segments.map(decodeSafely);
  const worked = { segments, decoded, keyShaped: decoded.map((segment, i) => i === keyIndex || keyShaped(segment)) };
  if (!worked.keyShaped.includes(true)) pathSegments.set(path, worked);
  return worked;
}

/**
 * The path with its key values masked like headers: the key of a key
 * management path, and any segment that is or looks like a key, wherever
 * it is (a call to a mistyped path that names a key is logged too).
 */
function maskedPath(path: string, held: KeyValues): string {
  const { segments, decoded, keyShaped: shaped } = segmentsOf(path);
  let masked: string[] | undefined;
  for (let i = 0; i < segments.length; i++) {
    if (!shaped[i] && !heldKey(decoded[i], held)) continue;
    masked ??= segments.slice();
    masked[i] = maskKey(decoded[i]);
  }
  return masked ? masked.join('/') : path;
}

/** An answer that names the path (a 404's message) names it masked. */
function withMaskedPath(body: unknown, path: string, masked: string): unknown {
  if (path === masked || !isPlainObject(body) || typeof body.message !== 'string') return body;
  return { ...body, message: body.message.split(path).join(masked) };
}

function maskedQuery(query: Record<string, string>): string {
  const masked = Object.entries(query).map(([k, v]) => [k, SECRET_HEADER.test(k.toLowerCase()) ? maskKey(v) : v]);
  return new URLSearchParams(masked).toString();
}

function maskedHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${SECRET_HEADER.test(k) ? maskKey(v) : v}`)
    .join('\n');
}

// --- recording

/**
 * The first CUT characters, as a string of their own: a slice of a longer
 * string keeps the whole of it alive (V8 makes it a view), and a batch's body
 * or answer is kilobytes where the log keeps one thousand characters. A JSON
 * round trip copies it unit for unit (lone surrogates included).
 */
const cut = (text: string): string => (text.length > CUT ? JSON.parse(JSON.stringify(text.slice(0, CUT))) : text);

/** The first `CUT` characters of a value's JSON, serialising no more of it than that (see json-start.ts: a start cut there needs no cut here); a string as it is. */
function asText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return cut(value);
  try {
    return cut(jsonStart(value, CUT));
  } catch {
    return ''; // a value JSON cannot hold (in-process callers may send anything)
  }
}

/** Settings' paths: their answers (and bodies) may hold embedders' secrets. */
const SETTINGS_PATH = /\/settings\/?$/;

/** A body that sets embedders (settings) with their secrets masked. */
function withoutEmbedderSecrets(body: unknown): unknown {
  if (!isPlainObject(body) || !isPlainObject(body.embedders)) return body;
  try {
    return { ...body, embedders: redactEmbedders(parseEmbedders(body.embedders)) };
  } catch {
    return { ...body, embedders: '(not valid embedders: not logged)' };
  }
}

/** The start of the answer: of its text when the wire serialised it already (see ApiRequest.answerAsText). */
function answerText(response: ApiResponse, path: string, maskedPath: string): string {
  if (SETTINGS_PATH.test(path)) return asText(withoutEmbedderSecrets(response.body));
  if (response.text !== undefined && path === maskedPath) return cut(response.text);
  return asText(withMaskedPath(response.body, path, maskedPath));
}

const QUERY_RIGHTS: ReadonlySet<Right> = new Set(['search', 'browse']);
const BUILD_RIGHTS: ReadonlySet<Right> = new Set(['addObject', 'deleteObject', 'deleteIndex', 'editSettings']);

function kindOf(call: AnsweredCall): Entry['kind'] {
  if (!call.route) return 'other';
  if (QUERY_RIGHTS.has(call.route.right)) return 'query';
  return call.route.method !== 'GET' && BUILD_RIGHTS.has(call.route.right) ? 'build' : 'other';
}

/** The queries of a multi-query, with the query IDs its answer gave them. */
function innerQueries(call: AnsweredCall): InnerQuery[] | undefined {
  const requests = isPlainObject(call.body) && Array.isArray(call.body.requests) ? call.body.requests : undefined;
  if (call.route?.op !== 'search' || !requests) return undefined;
  const results = (call.response.body as { results?: unknown[] } | undefined)?.results ?? [];
  return requests.filter(isPlainObject).map((request, i) => {
    // the body as sent: any JSON (its indexName may be an object with a `toString` key)
    const inner: InnerQuery = { index_name: typeof request.indexName === 'string' ? request.indexName : shown(request.indexName) };
    const token = request.userToken ?? call.headers['x-algolia-usertoken'];
    if (typeof token === 'string') inner.user_token = token;
    const queryID = (results[i] as { queryID?: unknown } | undefined)?.queryID;
    if (typeof queryID === 'string') inner.query_id = queryID;
    return inner;
  });
}

/** A query's hits: as its handler found them, else as answered (a relayed call, a browse). */
function nbHitsOf(call: AnsweredCall, kind: Entry['kind']): string | undefined {
  if (kind !== 'query' || call.route?.op === 'search') return undefined;
  const nbHits = call.nbHits ?? (call.response.body as { nbHits?: unknown } | undefined)?.nbHits;
  return typeof nbHits === 'number' ? String(nbHits) : undefined;
}

/**
 * Records one answered call (the router calls this once per call, except
 * for the logs call itself). What the body holds is read at once (a caller
 * may send the same object again changed); the rest of the entry, the
 * answer's start and the masking, is made on a later turn, or at the next
 * call if none came (CallLog.recordLater): the engine changes no answer
 * after giving it. An in-process caller gets the hits of a search as the
 * engine made them (see madeForAnswer): one that changes them before then
 * sees its change logged.
 */
export function logCall(engine: KeyValues, log: CallLog<Entry>, call: AnsweredCall, now = Date.now()): void {
  const sent = { body: asText(withoutEmbedderSecrets(call.body)), inner: innerQueries(call) };
  log.recordLater(() => entryOf(engine, call, sent, now));
}

/** What the call sent, read when it was answered. */
interface Sent { body: string; inner: InnerQuery[] | undefined }

/** The log entry of an answered call, made at `now`. */
function entryOf(engine: KeyValues, call: AnsweredCall, { body, inner }: Sent, now: number): Entry {
  const { requestId, method, query, headers, sourceIp, processingTimeMs } = call;
  const path = maskedPath(call.path, engine);
  const index = call.params?.indexName;
  const innerIndexes = inner?.map((q) => q.index_name) ?? [];
  const kind = kindOf(call);
  const entry: Entry = {
    time: now,
    kind,
    indexes: index === undefined ? innerIndexes : [index, ...innerIndexes],
    call: { requestId, method, path, query, headers, sourceIp, processingTimeMs },
    status: call.response.status,
    index: index !== undefined && keyLike(index, engine) ? maskKey(index) : index,
    body,
    answer: KEY_MANAGEMENT.test(call.path) ? '' : answerText(call.response, call.path, path),
    inner,
    nbHits: nbHitsOf(call, kind),
  };
  return entry;
}

/** An entry's wire fields (credentials masked). */
function fieldsOf(entry: Entry): Record<string, unknown> {
  const { call, inner, index, nbHits } = entry;
  const query = maskedQuery(call.query);
  const fields: Record<string, unknown> = {
    cid: call.requestId,
    timestamp: new Date(entry.time).toISOString(),
    method: call.method,
    answer_code: String(entry.status),
    query_body: entry.body,
    answer: entry.answer,
    url: call.path + (query ? `?${query}` : ''),
    ip: call.sourceIp,
    query_headers: cut(maskedHeaders(call.headers)),
    nb_api_calls: String(inner?.length || 1),
    processing_time_ms: String(Math.round(call.processingTimeMs)),
  };
  if (index !== undefined) fields.index = index;
  if (query) fields.query_params = cut(query);
  if (nbHits !== undefined) fields.query_nb_hits = nbHits;
  if (inner) fields.inner_queries = inner;
  return fields;
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

// --- reading

function integer(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > max) throw badRequest(`Invalid value for "${name}": expected an integer from 0 to ${max}`);
  return n;
}

function logType(text: string | undefined): LogType {
  if (text === undefined || text === '') return 'all';
  if (!(LOG_TYPES as readonly string[]).includes(text)) throw badRequest(`Invalid value for "type": expected one of ${LOG_TYPES.join(', ')}`);
  return text as LogType;
}

function wanted(entry: Entry, type: LogType, indexName: string | undefined, caller: Caller): boolean {
  if (type === 'error' && entry.status < 400) return false;
  if ((type === 'query' || type === 'build') && entry.kind !== type) return false;
  if (indexName !== undefined && !entry.indexes.includes(indexName)) return false;
  // a key limited to some indexes sees the calls that reached only those
  const limited = (caller.restrictions?.indexes.length ?? 0) > 0;
  return !limited || (entry.indexes.length > 0 && entry.indexes.every((i) => mayReach(caller, i)));
}

async function sha1(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** GET /1/logs: `offset`, `length` (default 10, max 1000), `indexName`, `type` (all|query|build|error); newest first. */
export async function getLogs(ctx: OperationContext) {
  const offset = integer('offset', ctx.query.offset, 0, Number.MAX_SAFE_INTEGER);
  const length = integer('length', ctx.query.length, 10, LOG_CAPACITY);
  const type = logType(ctx.query.type);
  const indexName = ctx.query.indexName || undefined;
  if (indexName !== undefined && ctx.caller.restrictions) checkIndex(ctx.caller, indexName);
  const entries = ctx.services.callLog.newestFirst()
    .filter((e) => wanted(e, type, indexName, ctx.caller))
    .slice(offset, offset + length);
  return {
    logs: await Promise.all(entries.map(async (e) => {
      const fields = fieldsOf(e);
      return { ...fields, sha1: await sha1(JSON.stringify(fields)) };
    })),
  };
}
