// Calls for a user on another cluster: when each cluster is served by nodes
// of its own (cluster mode with `--clusters c1`), a call carrying the user
// ID of a user assigned to a cluster this node does not serve is sent over
// HTTP to a node that serves it, and its answer is relayed as it came. The
// router decides which calls (api/clusters.ts, `placeCall`); this module
// asks where the cluster's nodes are and sends. A forwarded call is marked,
// and is never forwarded again.
import { ApiError } from '../util/errors.js';

/** The header marking a forwarded call (its value: the cluster of the node that forwarded it). */
export const FORWARDED_HEADER = 'x-lantern-forwarded-from';

/** How long a node waits for the node it forwarded a call to. */
const FORWARD_TIMEOUT_MS = 30_000;

/** The nodes of an application's clusters, as one node sees them. */
export interface ClusterNodes {
  /** The cluster this node serves. */
  readonly served: string;
  /** The URL of a node serving `cluster` now (undefined when none does). */
  urlOf(cluster: string): Promise<string | undefined>;
  /** The node at `url` failed to answer: it is not sent calls again until a node says it is there. */
  forget(url: string): void;
}

/** A call as it is sent on. */
export interface ForwardedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The body as received (text), or as parsed. */
  body: unknown;
}

/** What the other node answered. */
export interface ForwardedAnswer { status: number; body: unknown; headers: Record<string, string> }

/** Headers not sent on: they describe this hop's connection and body, not the call. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'content-encoding', 'keep-alive', 'accept-encoding']);

/** The credentials a node's own calls to another cluster's node are made with (those of the call that led to them). */
export interface Credentials { appId?: string; key?: string }

/** Credentials as headers of a call. */
export function credentialHeaders({ appId, key }: Credentials): Record<string, string> {
  return { ...(appId ? { 'x-algolia-application-id': appId } : {}), ...(key ? { 'x-algolia-api-key': key } : {}) };
}

/** A call's user, on a cluster another node serves. */
export interface Elsewhere { userID: string; cluster: string }

/**
 * Sends `call` to a node serving the user's cluster and resolves with its
 * answer; a node that does not answer is forgotten and another asked for
 * once. No node serving it is a 503 saying so.
 */
export async function relay(nodes: ClusterNodes, { userID, cluster }: Elsewhere, call: ForwardedCall): Promise<ForwardedAnswer> {
  for (let attempt = 1; ; attempt++) {
    const url = await nodes.urlOf(cluster);
    if (url === undefined) throw new ApiError('unavailable', `User ID "${userID}" is on cluster "${cluster}", and no node serving it can be reached now: start one with --clusters ${cluster}, or try again`);
    try {
      return await forwardCall(url, nodes.served, call);
    } catch (e) {
      nodes.forget(url);
      if (attempt === 2) throw e;
    }
  }
}

/** Sends `call` to the node at `baseUrl`; a node that cannot be reached is a 503. */
async function forwardCall(baseUrl: string, from: string, call: ForwardedCall): Promise<ForwardedAnswer> {
  const url = new URL(call.path, baseUrl);
  for (const [k, v] of Object.entries(call.query)) url.searchParams.set(k, v);
  const headers: Record<string, string> = { [FORWARDED_HEADER]: from };
  for (const [k, v] of Object.entries(call.headers)) if (!HOP_HEADERS.has(k)) headers[k] = v;
  const body = bodyOf(call);
  let response: Response;
  try {
    response = await fetch(url, { method: call.method, headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
  } catch (e) {
    throw new ApiError('unavailable', `The node at ${baseUrl} serving this user's cluster did not answer (${(e as Error).message}); try again`);
  }
  const text = await response.text();
  const type = response.headers.get('content-type') ?? 'application/json';
  return { status: response.status, body: type.startsWith('application/json') && text ? JSON.parse(text) : text, headers: { 'content-type': type } };
}

/** The body as text: none for a GET or HEAD, or an empty one. */
function bodyOf({ method, body }: ForwardedCall): string | undefined {
  if (method === 'GET' || method === 'HEAD' || body === undefined || body === '') return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}
