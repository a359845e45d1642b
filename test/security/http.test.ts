// The HTTP server: body size limit (413), gzip bombs, keys over HTTP, timeouts set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import type { Server } from 'node:http';
import { serve } from '../../src/server/http.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, openEngine } from '../api/helpers.js';

describe('HTTP hardening', () => {
  let engine: Lantern;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    engine = await openEngine();
    server = await serve(engine, { port: 0, maxBodyBytes: 1024 });
    const address = server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a body over the limit is 413, gzip-inflated ones too', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(2000) });
    const r = await fetch(`${base}/1/indexes/i`, { method: 'POST', headers: ADMIN_HEADERS, body: big });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ message: 'Request body too large', status: 413 });
    const bomb = gzipSync(Buffer.from(JSON.stringify({ text: 'y'.repeat(100_000) })));
    expect(bomb.length).toBeLessThan(1024);
    const z = await fetch(`${base}/1/indexes/i`, { method: 'POST', headers: { ...ADMIN_HEADERS, 'content-encoding': 'gzip' }, body: bomb });
    expect(z.status).toBe(413);
    const ok = await fetch(`${base}/1/indexes/i`, { method: 'POST', headers: ADMIN_HEADERS, body: JSON.stringify({ a: 1 }) });
    expect(ok.status).toBe(201);
  });

  it('keys work over HTTP, with the socket address; 429 carries Retry-After', async () => {
    const add = await fetch(`${base}/1/keys`, { method: 'POST', headers: ADMIN_HEADERS, body: JSON.stringify({ acl: ['listIndexes'], maxQueriesPerIPPerHour: 1 }) });
    const { key } = await add.json() as { key: string };
    const headers = { 'x-algolia-application-id': ADMIN_HEADERS['x-algolia-application-id'], 'x-algolia-api-key': key };
    expect((await fetch(`${base}/1/indexes`, { headers })).status).toBe(200);
    const limited = await fetch(`${base}/1/indexes`, { headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fetch(`${base}/1/keys`, { headers })).status).toBe(403);
  });

  it('timeouts are set', () => {
    expect(server.headersTimeout).toBeGreaterThan(0);
    expect(server.requestTimeout).toBeGreaterThan(0);
  });
});
