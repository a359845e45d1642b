// maxQueriesPerIPPerHour: the exact boundary, Retry-After, per address, per
// user token only when vouched for (a secured key's, a trusted proxy's; a
// bare X-Algolia-UserToken header gives no new allowance), and behind a
// proxy (admin key + X-Forwarded-API-Key, or `trustProxy` over HTTP).
import { beforeAll, describe, expect, it } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { RateLimiter } from '../../src/auth/rate-limit.js';
import type { ServeOptions } from '../../src/server/http.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_KEY, APP_ID, openEngine, sender, type Send } from '../api/helpers.js';
import { serveHere } from '../support/in-process-server.js';

const as = (key: string, extra: Record<string, string> = {}) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, ...extra });

describe('maxQueriesPerIPPerHour', () => {
  let engine: Lantern;
  let send: Send;
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/i/1', { a: 1 });
    await engine.waitForTasks();
  });
  const call = (key: string, ip: string, headers: Record<string, string> = {}) =>
    engine.request({ method: 'POST', path: '/1/indexes/i/query', headers: { ...as(key), ...headers }, body: {}, sourceIp: ip });

  it('the limit-th call passes, the next is 429 with Retry-After', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 5 })).body.key;
    for (let i = 0; i < 5; i++) expect((await call(key, '10.0.0.1')).status).toBe(200);
    const refused = await call(key, '10.0.0.1');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: expect.any(String), status: 429 });
    const retry = Number(refused.headers?.['retry-after']);
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
    // another address, another count
    expect((await call(key, '10.0.0.2')).status).toBe(200);
    // a user token vouched for (in-process: the caller is trusted) separates users behind one address
    expect((await engine.request({ method: 'POST', path: '/1/indexes/i/query', headers: as(key), body: {}, sourceIp: '10.0.0.1', userToken: 'u1' })).status).toBe(200);
    // the admin key is never limited
    expect((await call(ADMIN_KEY, '10.0.0.1')).status).toBe(200);
  });

  it('a new X-Algolia-UserToken on every call is no new allowance (3 of 12 calls answered, not 12)', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 3 })).body.key;
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await call(key, '10.9.9.9', { 'x-algolia-usertoken': `user-${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, ...Array(9).fill(429)]);
  });

  it('behind a proxy: admin key + X-Forwarded-API-Key + X-Forwarded-For', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 2 })).body.key;
    const proxied = (user: string) => call(ADMIN_KEY, '192.0.2.10', { 'x-forwarded-api-key': key, 'x-forwarded-for': `${user}, 192.0.2.10` });
    expect((await proxied('203.0.113.1')).status).toBe(200);
    expect((await proxied('203.0.113.1')).status).toBe(200);
    expect((await proxied('203.0.113.1')).status).toBe(429);
    expect((await proxied('203.0.113.2')).status).toBe(200);
    // the admin key vouches for the user token it forwards
    const user = (token: string) => call(ADMIN_KEY, '192.0.2.10', { 'x-forwarded-api-key': key, 'x-forwarded-for': '203.0.113.1', 'x-algolia-usertoken': token });
    expect((await user('alice')).status).toBe(200);
    expect((await user('alice')).status).toBe(200);
    expect((await user('alice')).status).toBe(429);
    expect((await user('bob')).status).toBe(200);
    // the forwarded key's rights apply, not the admin's
    const r = await engine.request({ method: 'GET', path: '/1/keys', headers: { ...as(ADMIN_KEY), 'x-forwarded-api-key': key }, sourceIp: '192.0.2.10' });
    expect(r.status).toBe(403);
  });

  it('secured keys count against their parent, per user token', async () => {
    const parent = (await send('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 1 })).body.key;
    const client = algoliasearch('APP', 'ADMIN');
    const k1 = (client as any).generateSecuredApiKey({ parentApiKey: parent, restrictions: { userToken: 'alice' } }) as unknown as string;
    const k2 = (client as any).generateSecuredApiKey({ parentApiKey: parent, restrictions: { userToken: 'bob' } }) as unknown as string;
    expect((await call(k1, '10.1.1.1')).status).toBe(200);
    expect((await call(k1, '10.1.1.1')).status).toBe(429);
    // the token in the key cannot be changed by a header
    expect((await call(k1, '10.1.1.1', { 'x-algolia-usertoken': 'mallory' })).status).toBe(429);
    expect((await call(k2, '10.1.1.1')).status).toBe(200);
  });

  it('over HTTP the user token counts only from a trusted proxy', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 2 })).body.key;
    const answered = async (options: ServeOptions) => {
      const served = await serveHere(engine, options);
      try {
        const url = `${served.origin}/1/indexes/i/query`;
        const statuses = [];
        for (let i = 0; i < 4; i++) {
          const headers = { ...as(key), 'x-algolia-usertoken': `user-${i}`, 'x-forwarded-for': '198.51.100.7' };
          statuses.push((await fetch(url, { method: 'POST', headers, body: '{}' })).status);
        }
        return statuses;
      } finally {
        await served.close();
      }
    };
    // the socket's address (127.0.0.1) is counted, whatever the tokens
    expect(await answered({})).toEqual([200, 200, 429, 429]);
    // behind the proxy: one allowance per user of the forwarded address
    expect(await answered({ trustProxy: true })).toEqual([200, 200, 200, 200]);
  });

  it('the window reopens after an hour', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    limiter.hit('a', 1);
    expect(() => limiter.hit('a', 1)).toThrow();
    now = 3_599_999;
    expect(() => limiter.hit('a', 1)).toThrow();
    now = 3_600_000;
    expect(() => limiter.hit('a', 1)).not.toThrow();
  });
});
