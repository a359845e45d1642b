// `lantern serve`: the REST API over node:http — CORS (with preflight),
// request bodies (body.ts), the caller's address for the
// router (X-Forwarded-For only from a trusted proxy), timeouts for slow or
// idle clients, a limit of open connections per address, and a request id
// on every answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from '../requester.js';
import { requestIdHeaders, requestIdOf } from '../api/request-id.js';
import { parseAddress } from '../auth/cidr.js';
import { contentOf, type ApiResponse } from '../api/types.js';
import { BodyError, readBody } from './body.js';
import { CallTurns } from './call-turns.js';
import { isRefused, limitConnections } from './connection-limit.js';
import { rawAnswer } from './raw-answer.js';

/** Options of `serve(engine, options)`. */
export interface ServeOptions {
  /** The port to listen on (7700; 0 picks a free one). */
  port?: number;
  /** The address to listen on (127.0.0.1; 0.0.0.0 for every interface). */
  host?: string;
  /** Extra handler tried before the API (static files of a demo, for instance). */
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Largest request body accepted, in bytes, before and after decompression (default 16 MiB; larger → 413). */
  maxBodyBytes?: number;
  /**
   * Proxies in front whose `X-Forwarded-For` is believed (true = one). Each
   * appends the address it saw, so the caller is that many entries from the
   * end. Unset: the socket's address is the caller's — for the source
   * allow-list, per-IP rate limits and logs — whatever the header says. Set:
   * the proxy's X-Algolia-UserToken also names the user behind an address
   * for per-IP rate limits.
   */
  trustProxy?: boolean | number;
  /** Milliseconds: whole headers, whole request, idle keep-alive socket, idle socket mid-request. */
  timeouts?: Partial<Timeouts>;
  /** Open connections one remote address may hold (default 256; 0 = no limit); one more is answered 503 and closed. */
  maxConnectionsPerAddress?: number;
}

interface Timeouts { headers: number; request: number; keepAlive: number; idle: number }

const TIMEOUTS: Timeouts = { headers: 20_000, request: 60_000, keepAlive: 5_000, idle: 120_000 };
const MAX_BODY = 16 * 1024 * 1024;

/** The authentication headers a browser script sends (the preflight must allow them by name). */
const ALLOWED_HEADERS = [
  'Content-Type', 'Content-Encoding', 'X-Algolia-API-Key', 'X-Algolia-Application-Id', 'X-Algolia-UserToken',
  'X-Algolia-Agent', 'X-Service-API-Key', 'X-Service-Application-Id', 'X-Forwarded-API-Key', 'X-Request-Id', 'Request-Id',
  'Last-Event-ID',
];

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': ALLOWED_HEADERS.join(', '),
  'access-control-expose-headers': 'X-Request-Id, Correlation-ID, Retry-After, X-Lantern-Task-ID',
  'access-control-max-age': '86400',
};

const proxyHops = (trustProxy: boolean | number) => (trustProxy === true ? 1 : Number(trustProxy) || 0);

/** The caller's address: the socket's, or the one the trusted proxies forwarded. */
export function callerAddress(req: IncomingMessage, trustProxy: boolean | number = false): string {
  const socket = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const hops = proxyHops(trustProxy);
  if (hops <= 0) return socket;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const address = forwarded[Math.max(0, forwarded.length - hops)];
  return address !== undefined && parseAddress(address) ? address : socket;
}

/** The end user's token, believed only from a trusted proxy (for per-IP rate limits: ApiRequest.userToken). */
export function vouchedUserToken(req: IncomingMessage, trustProxy: boolean | number = false): string | undefined {
  const token = req.headers['x-algolia-usertoken'];
  return proxyHops(trustProxy) > 0 && typeof token === 'string' ? token : undefined;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  void sendResponse(res, { status, body, headers });
}

/** Sends an answer: its text (see contentOf), or its bytes as they are, or its stream as it comes. */
async function sendResponse(res: ServerResponse, response: ApiResponse): Promise<void> {
  res.writeHead(response.status, { ...CORS, 'content-type': 'application/json; charset=UTF-8', ...response.headers });
  const { body } = response;
  if (body instanceof ReadableStream) await sendStream(res, body as ReadableStream<Uint8Array>);
  else res.end(body instanceof Uint8Array ? body : contentOf(response));
}

/** Writes a stream's chunks as they come (at the pace the client reads them); a client gone cancels it. */
async function sendStream(res: ServerResponse, stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  res.flushHeaders();
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) break;
    if (!res.write(value)) await new Promise((resume) => res.once('drain', resume).once('close', resume));
  }
  res.end();
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
  return headers;
}

export function handler(engine: RequestHandler, options: ServeOptions, turns: CallTurns) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    if (isRefused(req.socket)) return; // answered 503 when it connected
    const headers = headersOf(req);
    // answers made here, before the router, name their call too
    const ownId = () => requestIdHeaders(requestIdOf(headers, {}));
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { ...CORS, ...ownId() });
        res.end();
        return;
      }
      if (options.fallback?.(req, res)) return;
      let body: string;
      try {
        body = await readBody(req, options.maxBodyBytes ?? MAX_BODY);
      } catch (e) {
        if (req.destroyed && !(e instanceof BodyError)) return; // the client went away mid-body: no one to answer
        if (!(e instanceof BodyError)) throw e;
        send(res, e.status, { message: e.message, status: e.status }, { ...ownId(), ...(e.status === 413 ? { connection: 'close' } : {}) });
        req.resume();
        return;
      }
      // calls are answered in the order they came, a few milliseconds' worth a turn, so that new connections are accepted between (see call-turns.ts)
      await turns.answer(async () => {
        const response = await engine.request({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers,
          body,
          sourceIp: callerAddress(req, options.trustProxy),
          userToken: vouchedUserToken(req, options.trustProxy),
          answerAsText: true,
        });
        await sendResponse(res, response);
      });
    } catch (e) {
      console.error('lantern: internal error', e);
      if (!res.headersSent) send(res, 500, { message: 'Internal error', status: 500 }, ownId());
      else res.destroy();
    }
  };
}

/**
 * The answer to a request node:http cannot hand over (bad framing, headers
 * too large, a timeout): JSON like every other refusal, where node writes a
 * bare status line. The connection is closed after it.
 */
function answerUnreadable(error: Error & { code?: string }, socket: Duplex): void {
  // an answer already started on the socket (node's own handler checks the same)
  const answering = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message = status === 431 ? 'Request headers too large' : status === 408 ? 'Request not received in time' : 'Malformed HTTP request';
  socket.end(rawAnswer(status, message));
}

/** Serves `engine` on host:port; resolves with the listening server. */
export function serve(engine: RequestHandler, options: ServeOptions = {}): Promise<Server> {
  const timeouts = { ...TIMEOUTS, ...options.timeouts };
  const turns = new CallTurns();
  const server = createServer({
    // slow or idle clients do not hold sockets forever
    headersTimeout: timeouts.headers,
    requestTimeout: timeouts.request,
    keepAliveTimeout: timeouts.keepAlive,
    // how often the header and request timeouts are checked
    connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(timeouts.headers / 4))),
  }, handler(engine, options, turns));
  server.on('connection', () => turns.noteConnection());
  server.timeout = timeouts.idle;
  server.on('clientError', answerUnreadable);
  // node:http hands CONNECT to this event alone (with no listener, the socket is closed unanswered)
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => socket.end(rawAnswer(405, 'Method CONNECT is not available')));
  limitConnections(server, options.maxConnectionsPerAddress);
  // a client may close its side once its request is sent (Connection: close, then end): by default node:http
  // then ends the socket at once, and a call answered on a later turn (in its turn, see call-turns.ts, or a
  // write waiting for its pause) had no socket left to answer on; half-open, the answer goes out, then it closes
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 7700, options.host ?? '127.0.0.1', () => resolve(server));
  });
}
