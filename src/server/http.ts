// `lantern serve`: the REST API over node:http — CORS (with preflight),
// gzip request bodies, the caller's address for the router.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { RequestHandler } from '../requester.js';
import { contentOf } from '../api/types.js';

export interface ServeOptions {
  port?: number;
  host?: string;
  /** Extra handler tried before the API (static files of a demo, for instance). */
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Largest request body accepted, in bytes, before and after gunzip (default 16 MiB; larger → 413). */
  maxBodyBytes?: number;
}

const MAX_BODY = 16 * 1024 * 1024;

class TooLarge extends Error {}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
};

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new TooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new TooLarge();
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  const gzip = req.headers['content-encoding'] === 'gzip';
  if (!gzip) return raw.toString('utf8');
  try {
    return gunzipSync(raw, { maxOutputLength: limit }).toString('utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLarge();
    throw e;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...CORS, 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(contentOf({ status, body, headers }));
}

export function handler(engine: RequestHandler, options: ServeOptions = {}) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    if (options.fallback?.(req, res)) return;
    let body: string;
    try {
      body = await readBody(req, options.maxBodyBytes ?? MAX_BODY);
    } catch (e) {
      if (e instanceof TooLarge) {
        send(res, 413, { message: 'Request body too large', status: 413 }, { connection: 'close' });
        req.resume();
        return;
      }
      send(res, 400, { message: 'Invalid request body encoding', status: 400 });
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const response = await engine.request({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers,
      body,
      sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '',
    });
    send(res, response.status, response.body, response.headers);
  };
}

/** Serves `engine` on host:port; resolves with the listening server. */
export function serve(engine: RequestHandler, options: ServeOptions = {}): Promise<Server> {
  const server = createServer(handler(engine, options));
  // slow or idle clients do not hold sockets forever
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 7700, options.host ?? '127.0.0.1', () => resolve(server));
  });
}
