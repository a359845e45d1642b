// The HTTP server: body limits (413, compression bombs), body encodings
// (gzip, deflate, br; anything else, broken compression and invalid UTF-8 →
// 400), no internals in any answer, CORS on every answer and the preflight,
// request ids, the trusted proxy, timeouts, connections per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { connect } from 'node:net';
import type { ServeOptions } from '../../src/server/http.js';
import { textOf } from '../../src/server/body.js';
import type { RequestHandler } from '../../src/requester.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, APP_ID, openEngine } from '../api/helpers.js';
import { prng } from '../support/random.js';
import { serveHere, type Served } from '../support/in-process-server.js';

const servers: Served[] = [];

async function start(engine: RequestHandler, options: ServeOptions = {}): Promise<string> {
  const served = await serveHere(engine, options);
  servers.push(served);
  return served.origin;
}

afterAll(async () => {
  for (const served of servers) await served.close();
});

/** No stack frame, source path or error class name in an answer. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d|\.js:\d|TypeError|RangeError|SyntaxError|ReferenceError/);
}

async function expectJsonError(response: Response, status: number, message?: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('x-request-id')).toMatch(/\S/);
  const text = await response.text();
  expectNoInternals(text);
  const body = JSON.parse(text);
  expect(body).toEqual({ message: expect.any(String), status });
  if (message) expect(body.message).toMatch(message);
}

describe('HTTP hardening', () => {
  let engine: Lantern;
  let base: string;
  beforeAll(async () => {
    engine = await openEngine();
    base = await start(engine, { maxBodyBytes: 1024 });
  });
  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { ...ADMIN_HEADERS, ...headers }, body });

  it('a body over the limit is 413, decompressed ones too', async () => {
    await expectJsonError(await post('/1/indexes/i', JSON.stringify({ text: 'x'.repeat(2000) })), 413, /too large/);
    const record = JSON.stringify({ text: 'y'.repeat(100_000) });
    for (const [encoding, bytes] of [['gzip', gzipSync(record)], ['deflate', deflateSync(record)], ['br', brotliCompressSync(record)]] as const) {
      expect(bytes.length).toBeLessThan(1024);
      await expectJsonError(await post('/1/indexes/i', bytes, { 'content-encoding': encoding }), 413);
    }
    expect((await post('/1/indexes/i', JSON.stringify({ a: 1 }))).status).toBe(201);
  });

  it('gzip, deflate and br bodies are read; other encodings, broken ones and invalid UTF-8 are 400', async () => {
    const record = JSON.stringify({ objectID: 'zipped', city: 'Zürich' });
    for (const [encoding, bytes] of [['gzip', gzipSync(record)], ['deflate', deflateSync(record)], ['br', brotliCompressSync(record)], ['identity', Buffer.from(record)]] as const) {
      const r = await post('/1/indexes/enc', bytes, { 'content-encoding': encoding });
      expect(r.status, encoding).toBe(201);
    }
    await engine.waitForTasks();
    expect((await (await fetch(`${base}/1/indexes/enc/zipped`, { headers: ADMIN_HEADERS })).json()).city).toBe('Zürich');
    await expectJsonError(await post('/1/indexes/enc', record, { 'content-encoding': 'compress' }), 400, /Content-Encoding/);
    await expectJsonError(await post('/1/indexes/enc', record, { 'content-encoding': 'br' }), 400);
    await expectJsonError(await post('/1/indexes/enc', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400, /UTF-8/);
    // an overlong encoding of "/" is not UTF-8 either
    await expectJsonError(await post('/1/indexes/enc', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d])), 400, /UTF-8/);
  });

  it('a body is read as TextDecoder reads it: astral characters, a byte-order mark dropped', async () => {
    const record = { objectID: 'astral', title: '“Ça va” 🚀 — 東京 𝒳' };
    for (const bytes of [Buffer.from(JSON.stringify(record)), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(record))])]) {
      expect((await post('/1/indexes/astral', bytes)).status).toBe(201);
      await engine.waitForTasks();
      expect(await (await fetch(`${base}/1/indexes/astral/astral`, { headers: ADMIN_HEADERS })).json()).toEqual(record);
    }
  });

  it('malformed JSON and bad percent-encoding are 400; no answer shows internals', async () => {
    await expectJsonError(await post('/1/indexes/i/query', '{"query": "a",'), 400, /JSON/);
    await expectJsonError(await post('/1/indexes/i/query', '[1, 2'), 400, /JSON/);
    await expectJsonError(await fetch(`${base}/1/indexes/%E0%A4%A/1`, { headers: ADMIN_HEADERS }), 400, /percent-encoding/);
    await expectJsonError(await fetch(`${base}/1/indexes/i/%FF`, { headers: ADMIN_HEADERS }), 400);
    await expectJsonError(await fetch(`${base}/1/nowhere/../../etc/passwd`, { headers: ADMIN_HEADERS }), 404);
    await expectJsonError(await fetch(`${base}/1/indexes/i/query?params=%ZZ`, { method: 'PATCH', headers: ADMIN_HEADERS }), 404);
  });

  it('an engine failure is a bare 500: no message, stack or path of the failure', async () => {
    const failing: RequestHandler = { request: async () => { throw new TypeError('boom in /work/secret/engine.ts:12'); } };
    const url = await start(failing);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => { errors.push(args); };
    try {
      const r = await fetch(`${url}/1/indexes`, { headers: ADMIN_HEADERS });
      await expectJsonError(r, 500);
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1); // the operator's log keeps it
  });

  it('CORS: the preflight allows the authentication headers by name; every answer carries the CORS headers', async () => {
    const preflight = await fetch(`${base}/1/indexes/i/query`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-algolia-api-key' },
    });
    expect(preflight.status).toBe(204);
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    for (const h of ['x-algolia-api-key', 'x-algolia-application-id', 'x-algolia-usertoken', 'content-type', 'x-request-id']) expect(allowed).toContain(h);
    expect(preflight.headers.get('access-control-allow-methods')!.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']));
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('x-request-id')).toMatch(/\S/);
    for (const response of [
      await fetch(`${base}/1/indexes`, { headers: ADMIN_HEADERS }),
      await fetch(`${base}/1/indexes`, { headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': 'wrong' } }),
      await post('/1/indexes/i', 'x'.repeat(2000)),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')!.toLowerCase()).toContain('x-request-id');
      expect(response.headers.get('x-request-id')).toMatch(/\S/);
    }
  });

  it("the request id of an answer is its log entry's cid", async () => {
    const r = await fetch(`${base}/1/indexes/i/query`, { method: 'POST', headers: ADMIN_HEADERS, body: '{"query":"x"}' });
    const id = r.headers.get('x-request-id');
    expect(r.headers.get('correlation-id')).toBe(id);
    const { logs } = await (await fetch(`${base}/1/logs?length=1`, { headers: ADMIN_HEADERS })).json() as { logs: any[] };
    expect(logs[0]).toMatchObject({ cid: id, url: '/1/indexes/i/query', ip: '127.0.0.1' });
  });

  it('a request id made here is a UUID (version 8, the RFC variant), a new one each call', async () => {
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push((await fetch(`${base}/1/indexes/i/query`, { method: 'POST', headers: ADMIN_HEADERS, body: '{}' })).headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keys work over HTTP, with the socket address; 429 carries Retry-After', async () => {
    const add = await post('/1/keys', JSON.stringify({ acl: ['listIndexes'], maxQueriesPerIPPerHour: 1 }));
    const { key } = await add.json() as { key: string };
    const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key };
    expect((await fetch(`${base}/1/indexes`, { headers })).status).toBe(200);
    const limited = await fetch(`${base}/1/indexes`, { headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fetch(`${base}/1/keys`, { headers })).status).toBe(403);
  });
});

describe('X-Forwarded-For and the trusted proxy', () => {
  const FORWARDED = '198.51.100.7';

  async function setUp(options: ServeOptions) {
    const engine = await openEngine();
    const base = await start(engine, options);
    const limited = (await (await fetch(`${base}/1/keys`, {
      method: 'POST', headers: ADMIN_HEADERS, body: JSON.stringify({ acl: ['listIndexes'], maxQueriesPerIPPerHour: 1 }),
    })).json() as { key: string }).key;
    const get = (path: string, key: string, forwardedFor?: string) => fetch(`${base}${path}`, {
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    });
    const lastIp = async () => (await (await get('/1/logs?length=1', ADMIN_HEADERS['x-algolia-api-key'])).json() as { logs: any[] }).logs[0].ip;
    return { engine, get, limited, lastIp };
  }

  it('not trusted: the socket address counts for logs, rate limits and the allow-list, whatever the header says', async () => {
    const { engine, get, limited, lastIp } = await setUp({});
    expect((await get('/1/indexes', limited, FORWARDED)).status).toBe(200);
    expect(await lastIp()).toBe('127.0.0.1');
    expect((await get('/1/indexes', limited, '203.0.113.1')).status).toBe(429); // the same socket address
    expect((await engine.request({ method: 'PUT', path: '/1/security/sources', headers: ADMIN_HEADERS, body: [{ source: '127.0.0.1' }] })).status).toBe(200);
    expect((await get('/1/indexes', ADMIN_HEADERS['x-algolia-api-key'], FORWARDED)).status).toBe(200);
  });

  it('trusted (one proxy): the last X-Forwarded-For entry is the caller', async () => {
    const { engine, get, limited, lastIp } = await setUp({ trustProxy: true });
    expect((await get('/1/indexes', limited, `10.9.9.9, ${FORWARDED}`)).status).toBe(200);
    expect(await lastIp()).toBe(FORWARDED);
    expect((await get('/1/indexes', limited, '203.0.113.1')).status).toBe(200); // another caller, another count
    expect((await get('/1/indexes', limited, FORWARDED)).status).toBe(429);
    expect((await get('/1/indexes', limited)).status).toBe(200); // no header: the proxy itself
    const put = await engine.request({ method: 'PUT', path: '/1/security/sources', headers: ADMIN_HEADERS, body: [{ source: '203.0.113.0/24' }], sourceIp: '203.0.113.9' });
    expect(put.status).toBe(200);
    const admin = ADMIN_HEADERS['x-algolia-api-key'];
    expect((await get('/1/indexes', admin, FORWARDED)).status).toBe(403);
    expect((await get('/1/indexes', admin, `${FORWARDED}, 203.0.113.5`)).status).toBe(200);
  });

  it('trusted (two proxies): the second entry from the end; an unreadable entry falls back to the socket', async () => {
    const { get, lastIp } = await setUp({ trustProxy: 2 });
    const admin = ADMIN_HEADERS['x-algolia-api-key'];
    await get('/1/indexes', admin, `1.2.3.4, ${FORWARDED}, 10.0.0.2`);
    expect(await lastIp()).toBe(FORWARDED);
    await get('/1/indexes', admin, 'not-an-address, 10.0.0.2');
    expect(await lastIp()).toBe('127.0.0.1');
  });
});

describe('body text', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const decoded = (bytes: Buffer): string | 'refused' => { try { return fatal.decode(bytes); } catch { return 'refused'; } };
  const read = (bytes: Buffer): string | 'refused' => { try { return textOf(bytes); } catch { return 'refused'; } };
  /** Bytes likely to break a decoder: marks, surrogates encoded (ED A0 80), overlong (C0), past U+10FFFF (F4 90). */
  const TRICKY = [0xef, 0xbb, 0xbf, 0xed, 0xa0, 0x80, 0xc0, 0xaf, 0xf4, 0x90, 0x80, 0xe2, 0x80, 0x9c];

  it('is what TextDecoder makes of the bytes, or refused where it refuses them (seeded fuzz)', () => {
    const random = prng(29);
    const codePoint = () => {
      const kind = random();
      if (kind < 0.3) return Math.floor(random() * 0x80);
      if (kind < 0.55) return 0x80 + Math.floor(random() * 0x780);
      if (kind < 0.8) return 0x800 + Math.floor(random() * 0xd000);
      if (kind < 0.9) return 0xfeff;
      return 0x10000 + Math.floor(random() * 0xfffff);
    };
    let refused = 0;
    for (let n = 0; n < 20_000; n++) {
      // most short; some past the 64-byte blocks the native checks read at a time
      const length = Math.floor(random() * (random() < 0.2 ? 400 : 12));
      const bytes = random() < 0.5
        ? Buffer.from((random() < 0.2 ? '\ufeff' : '') + String.fromCodePoint(...Array.from({ length }, codePoint)))
        : Buffer.from(Array.from({ length }, () => (random() < 0.5 ? Math.floor(random() * 256) : TRICKY[Math.floor(random() * TRICKY.length)])));
      const expected = decoded(bytes);
      if (expected === 'refused') refused++;
      expect(read(bytes), bytes.toString('hex')).toBe(expected);
    }
    expect(refused).toBeGreaterThan(1000);
  });

  it('is what TextDecoder makes of a 2 MB body (a string the runtime keeps outside its heap)', () => {
    const random = prng(30);
    const pieces = ['talk ', 'é', '“', '”', '東京', '🚀', '{"a":', '"\\n"', ' '];
    let text = '\ufeff';
    while (text.length < 1_400_000) text += pieces[Math.floor(random() * pieces.length)];
    const bytes = Buffer.from(text);
    expect(bytes.length).toBeGreaterThan(2_000_000);
    expect(read(bytes)).toBe(decoded(bytes));
    expect(read(Buffer.concat([bytes, Buffer.from([0xc0, 0xaf])]))).toBe('refused');
  });
});

describe('timeouts', () => {
  it('the defaults are set', async () => {
    const engine = await openEngine();
    const base = await start(engine);
    const { server } = servers.at(-1)!;
    expect(base).toMatch(/^http:/);
    expect(server.headersTimeout).toBe(20_000);
    expect(server.requestTimeout).toBe(60_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    expect(server.timeout).toBeGreaterThan(0);
  });

  it('a client that never finishes its headers is answered 408 and disconnected', async () => {
    const engine = await openEngine();
    const base = await start(engine, { timeouts: { headers: 300, request: 600 } });
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /1/indexes HTTP/1.1\r\nHost: x\r\nX-Slow: '));
      let received = '';
      socket.on('data', (d) => { received += d; });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 15_000);
});

describe('connections per address', () => {
  /** A raw connection: what it received, and a promise of everything once it closes. */
  function open(port: number, request?: string) {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => { received += d; });
    const connected = new Promise<void>((resolve, reject) => {
      socket.once('connect', () => { if (request) socket.write(request); resolve(); });
      socket.once('error', reject);
    });
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
    return { socket, connected, closed, received: () => received };
  }
  const request = (method: string, path: string, body = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: x\r\nx-algolia-application-id: ${APP_ID}\r\nx-algolia-api-key: ${ADMIN_HEADERS['x-algolia-api-key']}\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

  it('one past the limit is answered 503 with a JSON message and closed; its request is not served', async () => {
    const engine = await openEngine();
    const base = await start(engine, { maxConnectionsPerAddress: 3 });
    const port = Number(new URL(base).port);
    const held = [open(port), open(port), open(port)];
    await Promise.all(held.map((c) => c.connected));
    const extra = open(port, request('PUT', '/1/indexes/refused/1', '{"a":1}'));
    const answer = await extra.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toMatch(/connection: close/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.stringMatching(/connections/), status: 503 });
    // the held connections work
    held[0].socket.write(request('GET', '/1/indexes'));
    await expect.poll(() => held[0].received()).toMatch(/^HTTP\/1\.1 200/);
    await engine.waitForTasks();
    expect(engine.indexes.has('refused')).toBe(false);
    // a closed one frees its place
    held[1].socket.destroy();
    await held[1].closed;
    await expect.poll(async () => (await fetch(`${base}/1/indexes`, { headers: ADMIN_HEADERS }).catch(() => undefined))?.status).toBe(200);
    for (const c of held) c.socket.destroy();
  });

  it('the default is 256 connections per address', async () => {
    const engine = await openEngine();
    const port = Number(new URL(await start(engine)).port);
    const held = Array.from({ length: 256 }, () => open(port));
    await Promise.all(held.map((c) => c.connected));
    held[0].socket.write(request('GET', '/1/indexes'));
    await expect.poll(() => held[0].received()).toMatch(/^HTTP\/1\.1 200/);
    expect(await open(port).closed).toMatch(/^HTTP\/1\.1 503/);
    for (const c of held) c.socket.destroy();
  });
});
