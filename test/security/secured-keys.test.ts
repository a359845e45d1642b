// Secured API keys: the official client's keys, the v4 encoding, every
// restriction, tampering (every byte position), expiry, forbidden parents,
// and what verifying one costs with many stored keys.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { generateSecuredKey, parseSecuredKey, readRestrictions } from '../../src/auth/secured-keys.js';
import { inAnyNetwork } from '../../src/auth/cidr.js';
import { RECENT_PARENTS, SCAN_BUDGET, SecuredKeyParents } from '../../src/auth/secured-parents.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_KEY, APP_ID, expectError, openEngine, sender, type Send } from '../api/helpers.js';

const as = (key: string, extra: Record<string, string> = {}) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, ...extra });
const official = algoliasearch('APP', 'ADMIN');
const secure = (parentApiKey: string, restrictions: Record<string, unknown>) =>
  (official as any).generateSecuredApiKey({ parentApiKey, restrictions: restrictions as never }) as unknown as string;

/** The v4 client's form: insertion order, arrays as JSON. */
function v4Key(parent: string, restrictions: Record<string, unknown>): string {
  const qs = new URLSearchParams(Object.entries(restrictions).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])).toString();
  return Buffer.from(createHmac('sha256', parent).update(qs).digest('hex') + qs).toString('base64');
}

describe('the test vector', () => {
  it('parses the official client output and matches our generator', async () => {
    const parent = '2640659426d5107b6e47d75db9cbaef8';
    const restrictions = { validUntil: 2524604400, restrictIndices: ['Movies'] };
    const key = secure(parent, restrictions);
    expect(await generateSecuredKey(parent, restrictions)).toBe(key);
    const parts = parseSecuredKey(key)!;
    expect(parts.qs).toBe('restrictIndices=Movies&validUntil=2524604400');
    expect(parts.mac).toBe(createHmac('sha256', parent).update(parts.qs).digest('hex'));
    expect(readRestrictions(parts.qs)).toEqual({ validUntil: 2524604400, restrictIndices: ['Movies'], searchParams: '' });
  });
});

describe('secured keys against the engine', () => {
  let engine: Lantern;
  let send: Send;
  let parent: string;
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/Movies/settings', { attributesForFaceting: ['owner', 'genre'] });
    await send('PUT', '/1/indexes/Books/1', { title: 'book' });
    const records = Array.from({ length: 10 }, (_, i) => ({ objectID: String(i), title: `movie ${i}`, owner: i < 4 ? 'alice' : 'bob', genre: i % 2 ? 'drama' : 'comedy' }));
    await send('POST', '/1/indexes/Movies/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    parent = (await send('POST', '/1/keys', { acl: ['search'] })).body.key;
  });
  const query = (key: string, body: unknown = {}, index = 'Movies', extra: Record<string, string> = {}) =>
    send('POST', `/1/indexes/${index}/query`, body, as(key, extra));

  it('the test vector works once its parent exists', async () => {
    const vectorParent = '2640659426d5107b6e47d75db9cbaef8';
    expect((await send('PUT', `/1/indexes/Movies/keys/${vectorParent}`, { acl: ['search'] })).status).toBe(200);
    const key = secure(vectorParent, { validUntil: 2524604400, restrictIndices: ['Movies'] });
    expect((await query(key)).status).toBe(200);
  });

  it('filters are enforced and ANDed with the request, never overridden', async () => {
    const key = secure(parent, { filters: 'owner:alice' });
    expect((await query(key)).body.nbHits).toBe(4);
    expect((await query(key, { filters: 'genre:drama' })).body.nbHits).toBe(2);
    expect((await query(key, { filters: 'owner:bob' })).body.nbHits).toBe(0);
    expect((await query(key, { params: 'filters=owner%3Abob' })).body.nbHits).toBe(0);
    const v4 = v4Key(parent, { filters: 'owner:alice' });
    expect((await query(v4)).body.nbHits).toBe(4);
    // search parameters in the key win over the request's
    const capped = secure(parent, { searchParams: { hitsPerPage: 2 } });
    expect((await query(capped, { hitsPerPage: 10 })).body.hits).toHaveLength(2);
    // multi-query too
    const multi = await send('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'Movies', params: 'filters=owner%3Abob' }] }, as(key));
    expect(multi.body.results[0].nbHits).toBe(0);
  });

  it('filters holding an AND combine with the request\'s without parentheses around an AND', async () => {
    const key = secure(parent, { filters: 'owner:alice AND genre:comedy' });
    expect((await query(key)).body.nbHits).toBe(2);
    expect((await query(key, { filters: 'genre:drama OR genre:comedy' })).body.nbHits).toBe(2);
    expect((await query(key, { filters: 'owner:alice AND genre:comedy' })).body.nbHits).toBe(2);
    expect((await query(key, { filters: 'owner:bob' })).body.nbHits).toBe(0);
    const either = secure(parent, { filters: 'owner:alice OR owner:bob' });
    expect((await query(either, { filters: 'genre:drama AND owner:bob' })).body.nbHits).toBe(3);
  });

  it('restrictIndices, both encodings', async () => {
    const v5 = secure(parent, { restrictIndices: ['Movies', 'Other'] });
    expect((await query(v5)).status).toBe(200);
    expectError(await query(v5, {}, 'Books'), 403);
    const v4 = v4Key(parent, { restrictIndices: ['Movies'] });
    expect((await query(v4)).status).toBe(200);
    expectError(await query(v4, {}, 'Books'), 403);
    expectError(await send('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'Movies' }, { indexName: 'Books' }] }, as(v5)), 403);
  });

  it('list restrictions holding JSON objects make the key unusable (403), never a 500', async () => {
    for (const name of ['restrictIndices', 'restrictSources', 'referers']) {
      expectError(await query(v4Key(parent, { [name]: [{ toString: {} }] })), 403);
      expectError(await query(v4Key(parent, { [name]: ['Movies', { valueOf: {} }] })), 403);
    }
  });

  it('validUntil: expired → 403', async () => {
    expect((await query(secure(parent, { validUntil: Math.floor(Date.now() / 1000) + 60 }))).status).toBe(200);
    expectError(await query(secure(parent, { validUntil: Math.floor(Date.now() / 1000) - 1 })), 403, /expired/);
  });

  it('restrictSources (CIDR) against the source address', async () => {
    const key = secure(parent, { restrictSources: '192.168.1.0/24' });
    const from = (ip: string) => engine.request({ method: 'POST', path: '/1/indexes/Movies/query', headers: as(key), body: {}, sourceIp: ip });
    expect((await from('192.168.1.77')).status).toBe(200);
    expect((await from('192.168.2.1')).status).toBe(403);
    expect(inAnyNetwork(['2001:db8::/32'], '2001:db8::1')).toBe(true);
    expect(inAnyNetwork(['2001:db8::/32'], '2001:db9::1')).toBe(false);
    expect(inAnyNetwork(['0.0.0.0/0'], '8.8.8.8')).toBe(true);
    expect(inAnyNetwork(['10.0.0.1'], '::ffff:10.0.0.1')).toBe(true);
  });

  it('referers', async () => {
    const key = secure(parent, { referers: ['https://shop.test/*'] });
    expect((await query(key, {}, 'Movies', { referer: 'https://shop.test/a' })).status).toBe(200);
    expectError(await query(key, {}, 'Movies', { referer: 'https://other.test/a' }), 403);
  });

  it('the parent key still limits: rights and indexes of the parent apply', async () => {
    const browseOnly = (await send('POST', '/1/keys', { acl: ['browse'], indexes: ['Books'] })).body.key;
    const key = secure(browseOnly, { filters: 'owner:alice' });
    expectError(await query(key, {}, 'Books'), 403);
    expectError(await send('POST', '/1/indexes/Movies/browse', {}, as(key)), 403);
    expect((await send('POST', '/1/indexes/Books/browse', {}, as(key))).status).toBe(200);
  });

  it('derived from the admin key, from a secured key, or from a deleted key → 403', async () => {
    expectError(await query(secure(ADMIN_KEY, { filters: 'owner:alice' })), 403);
    const securedParent = secure(parent, { filters: 'owner:alice' });
    expectError(await query(secure(securedParent, { filters: 'owner:bob' })), 403);
    const doomed = (await send('POST', '/1/keys', { acl: ['search'] })).body.key;
    const child = secure(doomed, {});
    expect((await query(child)).status).toBe(200);
    await send('DELETE', `/1/keys/${doomed}`);
    expectError(await query(child), 403);
  });

  it('tampering: every byte position flipped → 403', async () => {
    const key = secure(parent, { filters: 'owner:alice', validUntil: 2524604400 });
    const bytes = Buffer.from(key, 'base64');
    const statuses = new Set<number>();
    for (let i = 0; i < bytes.length; i++) {
      const copy = Buffer.from(bytes);
      copy[i] ^= 0x01;
      statuses.add((await query(copy.toString('base64'))).status);
    }
    expect([...statuses]).toEqual([403]);
    // dropping or appending restrictions breaks it too
    const text = bytes.toString('utf8');
    expectError(await query(Buffer.from(text.replace('&validUntil=2524604400', '')).toString('base64')), 403);
    expectError(await query(Buffer.from(`${text}&filters=`).toString('base64')), 403);
    expect((await query(key)).status).toBe(200);
  });
});

describe('verification cost, with 1,000 stored keys (HMACs counted, not timed)', () => {
  let engine: Lantern;
  let send: Send;
  let parent: string;
  let hmacs: MockInstance;
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/Movies/1', { title: 'movie' });
    await engine.waitForTasks();
    const values = [];
    for (let i = 0; i < 1000; i++) values.push((await send('POST', '/1/keys', { acl: ['search'] })).body.key as string);
    parent = values[700];
    hmacs = vi.spyOn(SecuredKeyParents.prototype, 'sign');
  });
  afterAll(() => hmacs.mockRestore());

  /** A call's status and the HMACs it computed. */
  async function cost(key: string, sourceIp: string): Promise<[number, number]> {
    hmacs.mockClear();
    const response = await engine.request({ method: 'POST', path: '/1/indexes/Movies/query', headers: as(key), body: {}, sourceIp });
    return [response.status, hmacs.mock.calls.length];
  }
  /** A key of the secured shape signed by no stored key. */
  const forged = (i: number) => Buffer.from(`${'ab'.repeat(32)}filters=owner%3Aalice&n=${i}`).toString('base64');

  it('forged keys from one address: at most the scan budget a minute in all, then no scan at all', async () => {
    const costs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const [status, count] = await cost(forged(i), '203.0.113.5');
      expect(status).toBe(403);
      costs.push(count);
    }
    expect(costs[0]).toBe(1000); // one HMAC per stored key: the first scan
    expect(costs.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(SCAN_BUDGET);
    expect(costs.slice(-10)).toEqual(Array(10).fill(0)); // budget spent, no parent known: nothing to try
  });

  it('a valid key: one scan the first time, none after; a new key of a known parent: one HMAC', async () => {
    const first = await generateSecuredKey(parent, { filters: 'owner:alice' });
    const [status, count] = await cost(first, '198.51.100.1');
    expect(status).toBe(200);
    expect(count).toBeLessThanOrEqual(1000);
    expect(await cost(first, '198.51.100.1')).toEqual([200, 0]);
    expect(await cost(await generateSecuredKey(parent, { filters: 'owner:bob' }), '198.51.100.1')).toEqual([200, 1]);
    // the address that spent its budget on forged keys still uses keys of a known parent
    expect(await cost(await generateSecuredKey(parent, { userToken: 'u' }), '203.0.113.5')).toEqual([200, 1]);
    // and a forged key from it now costs the known parents only, whatever the number of stored keys
    const [forgedStatus, forgedCount] = await cost(forged(99), '203.0.113.5');
    expect(forgedStatus).toBe(403);
    expect(forgedCount).toBeLessThanOrEqual(RECENT_PARENTS);
  });

  it('a deleted parent ends its keys at once, remembered or not', async () => {
    const doomed = (await send('POST', '/1/keys', { acl: ['search'] })).body.key as string;
    const child = await generateSecuredKey(doomed, {});
    expect((await cost(child, '198.51.100.3'))[0]).toBe(200);
    await send('DELETE', `/1/keys/${doomed}`);
    expect(await cost(child, '198.51.100.3')).toEqual([403, 0]);
  });
});
