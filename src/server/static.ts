// Static files next to the REST API (`lantern serve --demo` serves the web
// demo under /demo/): GET and HEAD only, files inside one directory only.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The file under `root` that `relativePath` names, or undefined when it would leave `root`. */
export function fileWithin(root: string, relativePath: string): string | undefined {
  if (relativePath.includes('\0')) return undefined;
  const file = resolve(root, `.${sep}${relativePath}`);
  return file.startsWith(root + sep) ? file : undefined;
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(text);
}

/** A refusal as the API words one: a JSON `message` and `status`. */
function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify({ message, status }));
}

/**
 * A request target's path and query, split at the first `?`. Not through
 * `new URL(target, base)`: a target starting `//` reads as a host there
 * (`//%2F` threw, a 500; `//x/demo/` became `/demo/`).
 */
function targetOf(req: IncomingMessage): { pathname: string; search: string } {
  const target = req.url ?? '/';
  const mark = target.indexOf('?');
  return mark < 0 ? { pathname: target, search: '' } : { pathname: target.slice(0, mark), search: target.slice(mark) };
}

async function sendFile(req: IncomingMessage, res: ServerResponse, file: string | undefined): Promise<void> {
  const info = file ? await stat(file).catch(() => undefined) : undefined;
  if (!file || !info?.isFile()) {
    sendError(res, 404, 'Not found');
    return;
  }
  res.writeHead(200, {
    'content-type': contentTypeOf(file),
    'content-length': String(info.size),
    // revalidate every time: the demo's service worker is what keeps files for offline use
    'cache-control': 'no-cache',
    'last-modified': info.mtime.toUTCString(),
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

/**
 * A `fallback` for `serve()`: answers requests under `prefix` (which ends with
 * "/") from the files in `directory`; a directory's file is its index.html.
 * Returns false for every other path, so the API answers those.
 */
export function staticFiles(directory: string, prefix: string) {
  const root = resolve(directory);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = targetOf(req);
    if (url.pathname === prefix.slice(0, -1)) {
      sendText(res, 301, 'Moved', { location: prefix + url.search });
      return true;
    }
    if (!url.pathname.startsWith(prefix)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
      return true;
    }
    let relativePath: string;
    try {
      relativePath = decodeURIComponent(url.pathname.slice(prefix.length));
    } catch {
      sendError(res, 400, 'Malformed percent-encoding in path');
      return true;
    }
    if (relativePath === '' || relativePath.endsWith('/')) relativePath += 'index.html';
    sendFile(req, res, fileWithin(root, relativePath)).catch(() => res.destroy());
    return true;
  };
}

/**
 * A `fallback` for `serve()` that answers `GET /`, the address `lantern
 * serve` prints first: to the web demo when there is one, else a JSON
 * description of the server (the API itself is under /1/ and /2/).
 */
export function rootPage(about: { name: string; version: string; demo?: string }) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (targetOf(req).pathname !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    if (about.demo) {
      sendText(res, 302, 'Found', { location: about.demo });
      return true;
    }
    // no documentation link: the package is not on a registry yet, and its README comes with it
    const body = JSON.stringify({ ...about, api: '/1/', indexes: '/1/indexes' });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
