// Secured API keys: the official client's keys, the v4 encoding, every
// restriction, tampering (every byte position), expiry, forbidden parents,
// what verifying one costs with many stored keys, which keys are tried as
// parents (the HMAC screen itself: hmac-screen.test.ts).
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { generateSecuredKey, parseSecuredKey, readRestrictions } from '../../src/auth/secured-keys.js';
import { inAnyNetwork } from '../../src/auth/cidr.js';
import { RECENT_PARENTS, SCAN_BUDGET } from '../../src/auth/secured-parents.js';
import { ScreenedMessage } from '../../src/auth/hmac-screen.js';
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
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/Movies/1', { title: 'movie' });
    await engine.waitForTasks();
    const values = [];
    for (let i = 0; i < 1000; i++) values.push((await send('POST', '/1/keys', { acl: ['search'] })).body.key as string);
    parent = values[700];
  });

  /** A call's status and the HMACs it computed: candidates screened, parents confirmed with WebCrypto. */
  async function costs(key: string, sourceIp: string, path = '/1/indexes/Movies/query'): Promise<[number, number, number]> {
    const { hmacs } = engine.services.securedKeyParents;
    const [screened, confirmed] = [hmacs.screened, hmacs.confirmed];
    const response = await engine.request({ method: 'POST', path, headers: as(key), body: {}, sourceIp });
    return [response.status, hmacs.screened - screened, hmacs.confirmed - confirmed];
  }
  const cost = async (key: string, sourceIp: string): Promise<[number, number]> => (await costs(key, sourceIp)).slice(0, 2) as [number, number];

  it('forged keys from one address: at most the scan budget a minute in all, then no scan at all', async () => {
    const tries: number[] = [];
    for (let i = 0; i < 30; i++) {
      const [status, count, confirmed] = await costs(forged(i), '203.0.113.5');
      expect(status).toBe(403);
      expect(confirmed).toBe(0); // WebCrypto is asked only about a candidate the screen found
      tries.push(count);
    }
    expect(tries[0]).toBe(1000); // one try per stored key: the first scan
    const compressions = new ScreenedMessage(parseSecuredKey(forged(0))!.qs, 'ab'.repeat(32)).compressions;
    expect(tries.reduce((a, b) => a + b, 0) * compressions).toBeLessThanOrEqual(SCAN_BUDGET);
    expect(tries.slice(-10)).toEqual(Array(10).fill(0)); // budget spent, no parent known: nothing to try
  });

  it('a valid key: one scan and one confirmation the first time, none after; a new key of a known parent: one try', async () => {
    const first = await generateSecuredKey(parent, { filters: 'owner:alice' });
    const [status, count, confirmed] = await costs(first, '198.51.100.1');
    expect(status).toBe(200);
    expect(count).toBeLessThanOrEqual(1000);
    expect(confirmed).toBe(1);
    expect(await costs(first, '198.51.100.1')).toEqual([200, 0, 0]);
    expect(await costs(await generateSecuredKey(parent, { filters: 'owner:bob' }), '198.51.100.1')).toEqual([200, 1, 1]);
    // the address that spent its budget on forged keys still uses keys of a known parent
    expect(await cost(await generateSecuredKey(parent, { userToken: 'u' }), '203.0.113.5')).toEqual([200, 1]);
    // and a forged key from it now costs the known parents only, whatever the number of stored keys
    const [forgedStatus, forgedCount] = await cost(forged(99), '203.0.113.5');
    expect(forgedStatus).toBe(403);
    expect(forgedCount).toBeLessThanOrEqual(RECENT_PARENTS);
  });

  it('the official client\'s keys of a parent stored last, with a long restriction (several blocks)', async () => {
    const last = (await send('POST', '/1/keys', { acl: ['search'] })).body.key as string;
    const filters = Array.from({ length: 40 }, (_, i) => `owner:user${i}`).join(' OR ');
    expect(await cost(secure(last, { filters, validUntil: 2524604400 }), '198.51.100.9')).toEqual([200, 1001]);
  });

  it('a deleted parent ends its keys at once, remembered or not, and its HMAC state is dropped', async () => {
    const doomed = (await send('POST', '/1/keys', { acl: ['search'] })).body.key as string;
    const child = await generateSecuredKey(doomed, {});
    expect((await cost(child, '198.51.100.3'))[0]).toBe(200);
    expect(engine.keys.signers.get(doomed)).toBeDefined();
    await send('DELETE', `/1/keys/${doomed}`);
    expect(engine.keys.signers.get(doomed)).toBeUndefined();
    expect(await cost(child, '198.51.100.3')).toEqual([403, 0]);
    // a key not remembered is refused by a scan that no longer tries it
    const [status, count] = await cost(await generateSecuredKey(doomed, { userToken: 'v' }), '198.51.100.4');
    expect(status).toBe(403);
    expect(count).toBeGreaterThanOrEqual(1000);
    // restored, it signs again
    await send('POST', `/1/keys/${doomed}/restore`);
    expect((await cost(child, '198.51.100.3'))[0]).toBe(200);
  });
});

/** A key of the secured shape signed by no stored key. */
const forged = (i: number) => Buffer.from(`${'ab'.repeat(32)}filters=owner%3Aalice&n=${i}`).toString('base64');

describe('only keys that could serve the call are tried as parents', () => {
  let engine: Lantern;
  let send: Send;
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/Movies/1', { title: 'movie' });
    await send('PUT', '/1/indexes/Books/1', { title: 'book' });
    await engine.waitForTasks();
  });
  /** The status of a call with `key` from a fresh address (no scan budget spent) and the candidates it tried. */
  async function tried(key: string, method = 'POST', path = '/1/indexes/Movies/query', extra: Record<string, string> = {}): Promise<[number, number]> {
    const { hmacs } = engine.services.securedKeyParents;
    const before = hmacs.screened;
    const sourceIp = `198.18.0.${Math.floor(Math.random() * 250) + 1}`;
    const response = await engine.request({ method, path, headers: as(key, extra), body: method === 'POST' ? {} : undefined, sourceIp });
    return [response.status, hmacs.screened - before];
  }

  it('keys without the call\'s right, of other indexes, of other referers or expired are never tried', async () => {
    const make = (body: Record<string, unknown>) => send('POST', '/1/keys', body).then((r) => r.body.key as string);
    const browseOnly = [];
    for (let i = 0; i < 20; i++) browseOnly.push(await make({ acl: ['browse'] }));
    for (let i = 0; i < 5; i++) await make({ acl: ['search'], indexes: ['Books'] });
    for (let i = 0; i < 5; i++) await send('POST', '/1/indexes/Books/keys', { acl: ['search'] });
    for (let i = 0; i < 5; i++) await make({ acl: ['search'], referers: ['https://shop.test/*'] });
    const expiring = await make({ acl: ['search'], validity: 1 });
    await make({ acl: ['search'] });
    await make({ acl: ['search', 'browse'], indexes: ['Mov*'] });
    // of the 38 keys, the 3 that may search Movies from no referer
    expect((await tried(forged(1)))).toEqual([403, 3]);
    // the shop's referer lets the referer-bound keys in; the Books index, its keys but not Mov*'s
    expect((await tried(forged(2), 'POST', '/1/indexes/Movies/query', { referer: 'https://shop.test/a' }))).toEqual([403, 8]);
    expect((await tried(forged(3), 'POST', '/1/indexes/Books/query'))).toEqual([403, 12]);
    // browse: the browse keys and the one search key that may browse
    expect((await tried(forged(4), 'POST', '/1/indexes/Movies/browse'))).toEqual([403, 21]);
    // an admin-only call: no key may serve it, none is tried
    expect((await tried(forged(5), 'GET', '/1/keys'))).toEqual([403, 0]);
    // a key that expired is tried no more
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await tried(forged(6), 'POST', '/1/indexes/Movies/query', { referer: 'https://shop.test/a' }))).toEqual([403, 7]);
    expect(engine.keys.get(expiring)).toBeDefined();
    // a browse key's secured key cannot search (its parent is not tried: the 2 search keys are), and browses
    const child = secure(browseOnly[3], {});
    expect(await tried(child)).toEqual([403, 2]);
    expect((await tried(child, 'POST', '/1/indexes/Movies/browse'))[0]).toBe(200);
  });

  it('a key that loses the right stops signing keys for it, remembered or not', async () => {
    const parent = (await send('POST', '/1/keys', { acl: ['search', 'browse'] })).body.key as string;
    const child = secure(parent, { filters: 'title:movie' });
    expect((await tried(child))[0]).toBe(200);
    await send('PUT', `/1/keys/${parent}`, { acl: ['browse'] });
    expect(await tried(child)).toEqual([403, 0]);
    expect(await tried(secure(parent, { userToken: 'w' }))).toEqual([403, expect.any(Number)]);
    expect((await tried(child, 'POST', '/1/indexes/Movies/browse'))[0]).toBe(200);
  });

  it('a key reads itself through its secured keys (getApiKey), trying that key only', async () => {
    const parent = (await send('POST', '/1/keys', { acl: ['search'] })).body.key as string;
    const other = (await send('POST', '/1/keys', { acl: ['search'] })).body.key as string;
    const child = secure(parent, { userToken: 'x' });
    expect(await tried(child, 'GET', `/1/keys/${parent}`)).toEqual([200, 1]);
    expect(await tried(secure(parent, { userToken: 'y' }), 'GET', `/1/keys/${other}`)).toEqual([403, 1]);
  });
});
