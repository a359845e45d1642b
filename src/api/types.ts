import type { ClusterNodes } from '../clusters/forwarding.js';
import type { Caller, Right } from '../auth/caller.js';
import type { ErrorCode } from '../util/errors.js';
import type { CallLog } from './call-log.js';
import type { RateLimiter } from '../auth/rate-limit.js';
import type { SecuredKeyParents } from '../auth/secured-parents.js';
import type { FollowFeed } from '../follow/feed.js';

/** A call of the REST API as a plain object: what `engine.request` takes. */
export interface ApiRequest {
  /** The HTTP method: GET, POST, PUT or DELETE. */
  method: string;
  /** Path, optionally with a query string. */
  path: string;
  /** Query parameters (merged with the path's query string). */
  query?: Record<string, string | number | boolean | undefined>;
  /** The HTTP headers, names in any case: `X-Algolia-API-Key`, `X-Algolia-Application-Id`... */
  headers?: Record<string, string | undefined>;
  /** A parsed JSON value, or its text. */
  body?: unknown;
  /** Address of the caller, for the allow-list, per-IP limits and logs. */
  sourceIp?: string;
  /**
   * The end user's token as a trusted proxy vouches for it: per-IP rate
   * limits then count each user behind the address on their own. The
   * X-Algolia-UserToken header alone never does (any caller can change it
   * on every call); the HTTP server sets this from it only behind
   * `trustProxy`.
   */
  userToken?: string;
  /**
   * The caller sends the answer as text (the HTTP server, the official
   * client's requester): the router serialises it once, into
   * `ApiResponse.text`, and the call log keeps the start of that text
   * instead of serialising the answer again. The body is then left out
   * (but bytes and streams): the text is the answer.
   */
  answerAsText?: boolean;
}

/** An answer of the REST API as a plain object: what `engine.request` resolves with. */
export interface ApiResponse {
  /** The HTTP status: 200, or the error's (4xx, 5xx). */
  status: number;
  /** The answer's JSON value; an error's is `{ message, status }`. */
  body: unknown;
  /** Headers the answer carries (`X-Request-Id`, `Retry-After`...). */
  headers?: Record<string, string>;
  /** The body as sent (see contentOf), when the request asked for it (`answerAsText`). */
  text?: string;
  /** An error's code (see ERROR_STATUS); in-process only: the service's wire format has none, HTTP does not send it. */
  code?: ErrorCode;
}

export type { Caller, Right } from '../auth/caller.js';

/**
 * What the API keeps for an engine besides the engine's state (none of it
 * durable: a restart starts each afresh). Lantern makes one per engine
 * (api/services.ts); the router hands it to the checks and the handlers.
 */
export interface ApiServices {
  /** The last calls, for /1/logs. */
  readonly callLog: CallLog<LogEntry>;
  /** Calls per key, address or vouched user token per hour (maxQueriesPerIPPerHour). */
  readonly keyCalls: RateLimiter;
  /** Analytics calls per minute, for the whole application. */
  readonly analyticsCalls: RateLimiter;
  /** Finds the parent key of a secured key (and remembers recent ones). */
  readonly securedKeyParents: SecuredKeyParents;
  /** The task of the last personalization strategy change (the spec's read form reports it; 0 after a restart). */
  strategyTaskID: number;
  /** Where read operations are answered when not here (replicas in worker threads: src/replication/); undefined = here. */
  reads?: ReadForwarder;
  /**
   * What followers tail (src/follow/feed.ts): attached when the first
   * follower asks (an engine nobody follows keeps no writes for them).
   */
  follow?: FollowFeed;
  /** Records' worth of recent writes the feed keeps (EngineOptions.followBacklog); 0: this engine serves no followers. */
  followBacklog: number;
  /** The nodes of the application's other clusters, when each cluster has nodes of its own (calls for their users are sent there). */
  clusterNodes?: ClusterNodes;
}

/**
 * Answers some operations elsewhere than in this thread: the router has
 * authenticated, authorized and rate-limited the call; `run` answers it
 * (its side effects recorded here), or calls `here` for the ones it does
 * not take.
 */
export interface ReadForwarder {
  run(op: string, ctx: OperationContext<string, unknown>, here: () => unknown): unknown;
}

export interface InnerQuery { index_name: string; user_token?: string; query_id?: string }

/**
 * What the log keeps of a call: the texts of its body and answer (cut when
 * recorded: the caller may change or drop the objects) and the facts its
 * wire fields are rendered from when the log is read (most entries never are).
 */
export interface LogEntry {
  time: number;
  kind: 'query' | 'build' | 'other';
  /** Every index the call reached (its own and its inner queries'). */
  indexes: string[];
  call: Pick<AnsweredCall, 'requestId' | 'method' | 'path' | 'query' | 'headers' | 'sourceIp' | 'processingTimeMs'>;
  status: number;
  index?: string;
  body: string;
  answer: string;
  inner?: InnerQuery[];
  nbHits?: string;
}

/** What the router knows of one answered call. */
export interface AnsweredCall {
  requestId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  sourceIp: string;
  response: ApiResponse;
  processingTimeMs: number;
  /** The matched operation, when the path matched one. */
  route?: { op: string; method: string; right: Right };
  params?: Record<string, string>;
  /** The hits a search found, whether or not its answer shows them (see Reply). */
  nbHits?: number;
}


/** Path parameters by name; `name?` for one that only some of a handler's routes have. */
type PathParams<Names extends string> =
  { readonly [Name in Names as Name extends `${string}?` ? never : Name]: string }
  & { readonly [Name in Names as Name extends `${infer Bare}?` ? Bare : never]?: string };

/**
 * What a handler receives. `Params` names the path parameters it reads
 * (`OperationContext<'indexName'>`): the router's table only accepts a
 * handler for routes whose paths have them. `Uses` is the part of the
 * engine it may use: each handler module declares its own (its port,
 * `Pick<Engine, ...>`), so what a module reaches is written at its top and
 * checked; a handler that declares none reaches nothing of the engine.
 */
export interface OperationContext<Params extends string = never, Uses = unknown> {
  engine: Uses;
  services: ApiServices;
  /** Path parameters, decoded. */
  params: PathParams<Params>;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
  sourceIp: string;
  caller: Caller;
  /**
   * Ends a step of a write's work: searches waiting are answered before the
   * next (a large batch's records are read in steps). Resolves at once for
   * a read.
   */
  step: () => Promise<void>;
}

/**
 * A reply other than 200, or with headers of its own (a content type other
 * than JSON, for one), or with what the call log records of it that its
 * body may not show (`nbHits`: a search's hits, which responseFields may
 * leave out of the answer).
 */
export class Reply {
  constructor(readonly status: number, readonly body: unknown, readonly headers?: Record<string, string>, readonly nbHits?: number) {}
}

/**
 * A body sent as it is rather than as text: bytes (a follower's snapshot),
 * or a stream of them (a follower's log, server-sent events). The HTTP
 * server writes them out; `contentOf` only names them (the call log).
 */
export type RawBody = Uint8Array | ReadableStream<Uint8Array>;

export function isRawBody(body: unknown): body is RawBody {
  return body instanceof Uint8Array || (typeof ReadableStream === 'function' && body instanceof ReadableStream);
}

/** Whether the body is sent as JSON (the default) rather than as text of another content type. */
const sentAsJson = (response: ApiResponse): boolean => {
  const type = response.headers?.['content-type'];
  return type === undefined || type.startsWith('application/json');
};

/**
 * The body's JSON, from an answer asked as text (ApiRequest.answerAsText):
 * the text itself where the body was sent as JSON, that text as a JSON
 * string where it was sent as text of another type; a raw body (kept
 * beside the text) as JSON writes it.
 */
export function bodyJsonOf(response: ApiResponse): string | undefined {
  if (isRawBody(response.body)) return JSON.stringify(response.body);
  return sentAsJson(response) ? response.text : JSON.stringify(response.text);
}

/** The body as sent: JSON, unless the response declares another content type (its body is then text; raw bodies are named). */
export function contentOf(response: ApiResponse): string {
  if (response.text !== undefined) return response.text;
  const { body } = response;
  if (isRawBody(body)) return body instanceof Uint8Array ? `(${body.length} bytes)` : '(a stream)';
  return sentAsJson(response) ? JSON.stringify(body) : String(body);
}

export type Handler<Params extends string = never, Uses = unknown> = (ctx: OperationContext<Params, Uses>) => unknown | Promise<unknown>;
