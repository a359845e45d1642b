// Seeded hostile HTTP requests for a Lantern server on loopback, and a sender
// that gets each one's answer: the HTTP fuzz test (test/server/hostile.test.ts)
// and the memory storm (bench/hostile-memory.mjs) share them. Requests aim
// at the routes with broken paths (empty and encoded-slash segments, `//`
// targets, bad percent-encoding), odd methods, hostile headers (unknown
// encodings, junk keys, forwarded-for and request ids of every shape) and
// bodies (invalid JSON and UTF-8, arrays and objects nested thousands deep,
// garbage compressed), plus a share of raw bytes no HTTP client would send
// (bad request lines, conflicting lengths, CONNECT, oversized headers).
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { mulberry32 } from '../corpus.mjs';

/**
 * One request: either parts a client can send (`method`, `target`, `headers`, `body`) or `raw` bytes.
 * @typedef {{ method: string, target: string, headers: Record<string, string>, body?: Buffer, raw?: Buffer }} HostileRequest
 */
/**
 * An answer: its status (0: none came), content type and text.
 * @typedef {{ status: number, contentType: string, text: string, retryAfter?: string }} HostileAnswer
 */

const ROUTE_PATHS = [
  '/1/indexes', '/1/indexes/*/queries', '/1/indexes/*/batch', '/1/indexes/*/objects', '/1/indexes/{i}/query', '/1/indexes/{i}',
  '/1/indexes/{i}/browse', '/1/indexes/{i}/facets/{f}/query', '/1/indexes/{i}/deleteByQuery', '/1/indexes/{i}/batch',
  '/1/indexes/{i}/clear', '/1/indexes/{i}/settings', '/1/indexes/{i}/task/{n}', '/1/indexes/{i}/operation',
  '/1/indexes/{i}/synonyms/{o}', '/1/indexes/{i}/synonyms/batch', '/1/indexes/{i}/rules/search', '/1/indexes/{i}/{o}',
  '/1/indexes/{i}/{o}/partial', '/1/keys', '/1/keys/{o}', '/1/logs', '/1/security/sources', '/1/events', '/2/searches',
  '/2/abtests', '/1/usertokens/{o}', '/1/configs/{i}', '/1/dictionaries/{i}/batch', '/1/clusters/mapping', '/1/lantern/follow/log',
];
const SEGMENTS = ['', '%2F', '%2f', '%2F%2F', '..', '.', '%', '%E0%A4%A', '%FF', '%00', '%C0%AF', '*', 'a%20b', '__proto__', 'constructor', '🔥', 'x'.repeat(700), '%7Bi%7D'];
const ODD_TARGETS = ['//%2F', '//', '///', '//x/1/indexes', '/%2F', '/1//indexes', '/1/indexes//query', '/1/indexes/%2F/query', '*', '/?', '/1/indexes?%', `/${'a/'.repeat(300)}`, '/demo/../..', '/1/indexes/i/query?params=%ZZ'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'get', 'FOO'];
const FIELDS = ['query', 'filters', 'facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters', 'insideBoundingBox', 'insidePolygon', 'userData', 'renderingContent', 'requests', 'params', 'objectID', 'body', 'acl', 'events', 'hitsPerPage', 'page', '__proto__', 'toString'];
const INVALID_JSON = ['{', '{"a":', '[1,2', 'NaN', '{"a":1}}', "{'a':1}", '"', '{"requests":[{]}', '-', 'nul'];

/**
 * Seeded hostile requests for an application (`appId`, `apiKey`: its admin key, sent half the time).
 * @param {number} seed
 * @param {{ appId: string, apiKey: string }} app
 * @returns {() => HostileRequest} the next request each call
 */
export function hostileRequests(seed, app) {
  const rng = mulberry32(seed);
  /** @type {(n: number) => number} */
  const int = (n) => Math.floor(rng() * n);
  /** @type {<T>(items: readonly T[]) => T} */
  const pick = (items) => items[int(items.length)];
  /** @type {(p: number) => boolean} */
  const chance = (p) => rng() < p;

  const text = () => {
    const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '/', '%', '*', ':', '[', ']', '{', '}', '&', '=', 'é', '🔥', '\u0000', '\n'];
    let s = '';
    for (let i = chance(0.05) ? 3000 : int(12); i > 0; i--) s += pick(alphabet);
    return s;
  };
  const segment = () => (chance(0.6) ? pick(SEGMENTS) : chance(0.5) ? 'films' : encodeURIComponent(text().replace(/[\ud800-\udfff]/g, '')));
  const target = () => {
    if (chance(0.15)) return pick(ODD_TARGETS);
    const path = pick(ROUTE_PATHS).replace(/\{\w\}/g, segment);
    return chance(0.3) ? `${path}?${encodeURIComponent(pick(FIELDS))}=${chance(0.2) ? '%E0%A4%A' : encodeURIComponent(text())}` : path;
  };
  /** @type {(depth: number) => string} */
  const nested = (depth) => (chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
  /** @returns {string} */
  const jsonValue = () => {
    switch (int(6)) {
      case 0: return nested(pick([5, 70, 1000, 10_000, 50_000]));
      case 1: return JSON.stringify(text());
      case 2: return String(pick([0, -1, 1e308, 2 ** 53 + 1, 1.5]));
      case 3: return `[${Array.from({ length: int(4) }, () => JSON.stringify(text())).join(',')}]`;
      case 4: return pick(['null', 'true', '{}', '[]']);
      default: return `{${JSON.stringify(pick(FIELDS))}:${JSON.stringify(text())}}`;
    }
  };
  const bodyText = () => {
    switch (int(5)) {
      case 0: return pick(INVALID_JSON);
      case 1: return nested(pick([100, 10_000, 100_000]));
      case 2: return `{"requests":[{"indexName":"films",${JSON.stringify(pick(FIELDS))}:${jsonValue()}}]}`;
      case 3: return `{${JSON.stringify(pick(FIELDS))}:${jsonValue()},${JSON.stringify(pick(FIELDS))}:${jsonValue()}}`;
      default: return jsonValue();
    }
  };
  /** @returns {{ headers: Record<string, string>, body?: Buffer }} */
  const headersAndBody = () => {
    /** @type {Record<string, string>} */
    const headers = chance(0.5) ? { 'x-algolia-application-id': app.appId, 'x-algolia-api-key': app.apiKey } : {};
    if (chance(0.1)) headers['x-algolia-api-key'] = pick(['', 'wrong', 'x'.repeat(5000), 'é']);
    if (chance(0.1)) headers['x-forwarded-for'] = pick(['1.2.3.4', 'junk', '::1, 10.0.0.1', text()]);
    if (chance(0.1)) headers['x-request-id'] = pick(['', 'x'.repeat(4000), text()]);
    if (chance(0.1)) headers['x-algolia-usertoken'] = text();
    if (chance(0.05)) headers['content-type'] = pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']);
    if (chance(0.4)) return { headers };
    let body = Buffer.from(bodyText());
    if (chance(0.05)) body = Buffer.concat([body, Buffer.from([0xff, 0xfe, 0xc0, 0xaf])]);
    if (chance(0.08)) {
      headers['content-encoding'] = pick(['gzip', 'br', 'deflate', 'compress', 'gzip, gzip', 'x-junk']);
      if (chance(0.5)) body = gzipSync(body);
    }
    return { headers, body };
  };
  const raw = () => {
    const line = pick([
      'GARBAGE\r\n\r\n', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 'GET /1/indexes HTTP/1.1\r\nNo colon here\r\n\r\n',
      'GET /1/ind\u0000exes HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n',
      'POST /1/indexes/films HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{}',
      'POST /1/indexes/films HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'POST /1/indexes/films HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      `GET /1/indexes HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET //%2F HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'PATCH //%2F HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'GET http://evil.example/1/indexes HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'GET /1/indexes HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
    ]);
    return { method: '', target: '', headers: {}, raw: Buffer.from(line) };
  };

  return () => {
    if (chance(0.04)) return raw();
    const method = chance(0.75) ? pick(['GET', 'POST', 'PUT', 'DELETE']) : pick(METHODS);
    return { method, target: target(), ...headersAndBody() };
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * Sends a request to the server at host:port and reads its answer; a socket
 * closed before any answer is status 0. Raw bytes go on a connection of their own.
 * @param {{ host: string, port: number }} server
 * @param {HostileRequest} hostile
 * @param {number} [timeoutMs] how long to wait for an answer before giving up (status 0)
 * @returns {Promise<HostileAnswer>}
 */
export function sendHostile(server, hostile, timeoutMs = 10_000) {
  return hostile.raw ? sendRaw(server, hostile.raw, timeoutMs) : sendParts(server, hostile, timeoutMs);
}

/**
 * @param {{ host: string, port: number }} server
 * @param {HostileRequest} hostile
 * @param {number} timeoutMs
 * @returns {Promise<HostileAnswer>}
 */
function sendParts(server, hostile, timeoutMs) {
  return new Promise((resolve) => {
    const headers = { ...hostile.headers, ...(hostile.body ? { 'content-length': String(hostile.body.length) } : {}) };
    /** @type {import('node:http').ClientRequest} */
    let req;
    try {
      req = request({ ...server, agent, method: hostile.method, path: hostile.target, headers, timeout: timeoutMs }, (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', () => resolve({ status: 0, contentType: '', text: 'answer cut short' }));
        res.on('end', () => resolve({
          status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString(),
          ...(res.headers['retry-after'] ? { retryAfter: String(res.headers['retry-after']) } : {}),
        }));
      });
    } catch {
      resolve(sendAsBytes(server, hostile, headers, timeoutMs));
      return;
    }
    req.on('timeout', () => req.destroy(new Error('no answer in time')));
    req.on('error', (e) => resolve(/** @type {{ code?: string }} */ (e).code === 'ERR_INVALID_CHAR'
      ? sendAsBytes(server, hostile, headers, timeoutMs)
      : { status: 0, contentType: '', text: e.message }));
    req.end(hostile.body);
  });
}

/**
 * A request node's client refuses to send (a character no request line or header may hold), sent as bytes.
 * @param {{ host: string, port: number }} server
 * @param {HostileRequest} hostile
 * @param {Record<string, string>} headers
 * @param {number} timeoutMs
 */
function sendAsBytes(server, hostile, headers, timeoutMs) {
  const head = `${hostile.method} ${hostile.target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n`
    + Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return sendRaw(server, Buffer.concat([Buffer.from(`${head}\r\n`), hostile.body ?? Buffer.alloc(0)]), timeoutMs);
}

/**
 * Writes bytes on a new connection and reads the first answer (up to the connection's end).
 * @param {{ host: string, port: number }} server
 * @param {Buffer} bytes
 * @param {number} timeoutMs
 * @returns {Promise<HostileAnswer>}
 */
function sendRaw(server, bytes, timeoutMs) {
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = [];
    const socket = connect(server.port, server.host, () => socket.end(bytes));
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'))));
  });
}

/**
 * The status, content type and body of the first answer in a connection's bytes.
 * @param {string} received
 * @returns {HostileAnswer}
 */
function parseAnswer(received) {
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(received);
  if (!status) return { status: 0, contentType: '', text: received.slice(0, 200) };
  const end = received.indexOf('\r\n\r\n');
  const head = received.slice(0, end);
  const contentType = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '';
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const rest = received.slice(end + 4);
  const body = length ? rest.slice(0, Number(length[1])) : /\r\ntransfer-encoding: *chunked/i.test(head) ? dechunked(rest) : rest;
  return { status: Number(status[1]), contentType, text: Buffer.from(body, 'latin1').toString() };
}

/**
 * A chunked body's bytes joined (up to its last chunk, or what came of it).
 * @param {string} chunked
 */
function dechunked(chunked) {
  let body = '';
  for (let at = 0; at < chunked.length;) {
    const lineEnd = chunked.indexOf('\r\n', at);
    const size = parseInt(chunked.slice(at, lineEnd), 16);
    if (lineEnd < 0 || !(size > 0)) break;
    body += chunked.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 4 + size;
  }
  return body;
}
