// maxQueriesPerIPPerHour: the exact boundary, Retry-After, per address, per
// user token, and behind a proxy (admin key + X-Forwarded-API-Key).
import { beforeAll, describe, expect, it } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { RateLimiter } from '../../src/auth/rate-limit.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_KEY, APP_ID, openEngine, sender, type Send } from '../api/helpers.js';

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
    // user tokens separate users behind one address
    expect((await call(key, '10.0.0.1', { 'x-algolia-usertoken': 'u1' })).status).toBe(200);
    // the admin key is never limited
    expect((await call(ADMIN_KEY, '10.0.0.1')).status).toBe(200);
  });

  it('behind a proxy: admin key + X-Forwarded-API-Key + X-Forwarded-For', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 2 })).body.key;
    const proxied = (user: string) => call(ADMIN_KEY, '192.0.2.10', { 'x-forwarded-api-key': key, 'x-forwarded-for': `${user}, 192.0.2.10` });
    expect((await proxied('203.0.113.1')).status).toBe(200);
    expect((await proxied('203.0.113.1')).status).toBe(200);
    expect((await proxied('203.0.113.1')).status).toBe(429);
    expect((await proxied('203.0.113.2')).status).toBe(200);
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
