// `lantern serve`: the REST API over node:http — CORS (with preflight),
// gzip request bodies, the caller's address for the router.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { RequestHandler } from '../requester.js';

export interface ServeOptions {
  port?: number;
  host?: string;
  /** Extra handler tried before the API (static files of a demo, for instance). */
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const gzip = req.headers['content-encoding'] === 'gzip';
  return (gzip ? gunzipSync(raw) : raw).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...CORS, 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
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
      body = await readBody(req);
    } catch {
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
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 7700, options.host ?? '127.0.0.1', () => resolve(server));
  });
}
