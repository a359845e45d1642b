// Browse cursors carry the parameters as requested; every page re-applies the
// caller's restrictions, so a restricted key cannot escape them by reusing a
// cursor issued to another key.
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSecuredKey } from '../../src/auth/secured-keys.js';
import type { Lantern } from '../../src/lantern.js';
import { APP_ID, openEngine, sender, type Send } from '../api/helpers.js';

const as = (key: string) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key });
const GENRES = ['drama', 'comedy', 'horror'];

describe('browse cursors under restrictions', () => {
  let engine: Lantern;
  let send: Send;
  const records = Array.from({ length: 45 }, (_, i) => ({ objectID: `f${i}`, title: `film ${i}`, genre: GENRES[i % 3] }));
  const idsOf = (genre: string) => records.filter((r) => r.genre === genre).map((r) => r.objectID).sort();

  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/films/settings', { attributesForFaceting: ['genre'] });
    await send('POST', '/1/indexes/films/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
  });

  /** A cursor issued to the admin key after its first page of `hitsPerPage`. */
  async function adminCursor(hitsPerPage: number): Promise<string> {
    const first = await send('POST', '/1/indexes/films/browse', { hitsPerPage });
    expect(first.status).toBe(200);
    expect(typeof first.body.cursor).toBe('string');
    return first.body.cursor;
  }

  /** Every page from `cursor` on, with `key`; the objectIDs seen. */
  async function walk(key: string, cursor: string | undefined, body: Record<string, unknown> = {}): Promise<string[]> {
    const seen: string[] = [];
    for (;;) {
      const page = await send('POST', '/1/indexes/films/browse', cursor ? { cursor } : body, as(key));
      expect(page.status).toBe(200);
      seen.push(...page.body.hits.map((h: any) => h.objectID));
      if (!page.body.cursor) return seen;
      cursor = page.body.cursor;
    }
  }

  it("a key's queryParameters filters apply to a cursor issued to the admin key", async () => {
    const key = (await send('POST', '/1/keys', { acl: ['browse'], queryParameters: 'filters=genre%3Adrama' })).body.key;
    const cursor = await adminCursor(4);
    const seen = await walk(key, cursor);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((id) => records.find((r) => r.objectID === id)!.genre === 'drama')).toBe(true);
  });

  it("a secured key's filters apply to a cursor issued to its unrestricted parent", async () => {
    const parent = (await send('POST', '/1/keys', { acl: ['browse'] })).body.key;
    const secured = await generateSecuredKey(parent, { filters: 'genre:comedy' });
    const first = await send('POST', '/1/indexes/films/browse', { hitsPerPage: 2 }, as(parent));
    const seen = await walk(secured, first.body.cursor);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((id) => records.find((r) => r.objectID === id)!.genre === 'comedy')).toBe(true);
  });

  it('maxHitsPerQuery caps the pages of a reused cursor', async () => {
    const key = (await send('POST', '/1/keys', { acl: ['browse'], maxHitsPerQuery: 3 })).body.key;
    const cursor = await adminCursor(10);
    const page = await send('POST', '/1/indexes/films/browse', { cursor }, as(key));
    expect(page.body.hits).toHaveLength(3);
  });

  it("a restricted key's own cursor walks its records exactly once", async () => {
    const key = (await send('POST', '/1/keys', { acl: ['browse'], queryParameters: 'filters=genre%3Ahorror' })).body.key;
    const seen = await walk(key, undefined, { hitsPerPage: 4 });
    expect([...seen].sort()).toEqual(idsOf('horror'));
    // the request's own filters AND with the forced ones on every page
    const none = await walk(key, undefined, { hitsPerPage: 4, filters: 'genre:drama' });
    expect(none).toEqual([]);
  });
});
