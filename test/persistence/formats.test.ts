// Stores of every snapshot format still read (test/fixtures/stores/<format>/,
// each written by the version that wrote that format: make-store.mjs) open
// with the current code holding exactly what was written, and stand on a
// snapshot of the current format from then on, which opens the same again. A
// snapshot, or a data directory's manifest, of a format newer than this code
// reads is refused, the store left as it was.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { Codec } from '../../src/durability/persistence.js';
import { SNAPSHOT_FORMAT, SnapshotFormatError } from '../../src/durability/snapshot-upgrade.js';
import { StoreFormatError } from '../../src/storage/errors.js';
import { MANIFEST, MANIFEST_FORMAT } from '../../src/storage/manifest.js';
import type { Lantern } from '../../src/lantern.js';
import {
  captureFailure, cleanup, closeEngine, directoryContents, openAt, rewriteSnapshot, snapshotFiles, tempDir,
} from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

const ADMIN = 'fixture-admin-key';

/** A copy of the fixture store of `format` to open (the fixture itself is never written to). */
function fixtureCopy(format: string): string {
  const dir = tempDir();
  cpSync(new URL(`../fixtures/stores/${format}`, import.meta.url), dir, { recursive: true });
  return dir;
}

function admin(engine: Lantern) {
  return async (method: string, path: string, body?: unknown, key = ADMIN) => {
    const answer = await engine.request({ method, path, body, headers: { 'x-algolia-api-key': key, 'x-algolia-application-id': 'FIXTURE' } });
    return answer as { status: number; body: any };
  };
}

/** Everything the fixture store holds, as the API (and, for analytics, the engine) answers it. */
async function contents(engine: Lantern) {
  const call = admin(engine);
  const indexes = (await call('GET', '/1/indexes')).body.items.map((i: { name: string; entries: number; primary?: string }) => [i.name, i.entries, i.primary]);
  const records: Record<string, unknown[]> = {};
  const settings: Record<string, unknown> = {};
  for (const [name] of indexes) {
    records[name] = (await call('POST', `/1/indexes/${name}/browse`, { hitsPerPage: 1000 })).body.hits;
    settings[name] = (await call('GET', `/1/indexes/${name}/settings`)).body;
  }
  return {
    indexes,
    records,
    settings,
    synonyms: (await call('POST', '/1/indexes/books/synonyms/search', {})).body.hits,
    rules: (await call('POST', '/1/indexes/books/rules/search', {})).body.hits,
    keys: (await call('GET', '/1/keys')).body.keys,
    deletedKeys: [...engine.deletedKeys.values()],
    searches: engine.analytics.store.searches,
    events: engine.analytics.store.events,
  };
}

const byObjectID = (hits: Array<{ objectID: string }>) => Object.fromEntries(hits.map((h) => [h.objectID, h]));
const withoutHighlights = (hits: Array<Record<string, unknown>>) => hits.map(({ _highlightResult, ...hit }) => hit);

describe('a store of snapshot format 1 (Lantern 0.1.0)', () => {
  it('opens holding exactly what 0.1.0 wrote, its log replayed on top', async () => {
    const engine = await openAt(fixtureCopy('v1'), { adminKey: ADMIN, appId: 'FIXTURE' });
    const held = await contents(engine);
    expect(held.indexes).toEqual([['books', 9, undefined], ['books_price_asc', 9, 'books'], ['cities', 40, undefined]]);

    const books = byObjectID(withoutHighlights(held.records.books as Array<Record<string, unknown> & { objectID: string }>) as Array<{ objectID: string }>);
    expect(Object.keys(books).sort()).toEqual(['b1', 'b10', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8']); // b9 deleted, b10 from the log
    expect(books.b4).toEqual({ objectID: 'b4', title: 'Dune', author: 'Frank Herbert', year: 1965, price: 14, genres: ['sf', 'classic'], details: { pages: 412, awards: ['Hugo', 'Nebula'] } });
    expect(books.b7).toEqual({ objectID: 'b7', title: 'Æsop’s Fables, ǽ edition', author: 'Æsop', year: -550, price: 5, genres: ['fable'], note: null });
    expect(books.b8).toEqual({ objectID: 'b8', title: 'Solaris', author: 'Stanisław Lem', year: 1961, price: 8, genres: ['sf', 'classic'], translated: true });
    expect(books.b10).toEqual({ objectID: 'b10', title: 'The Word for World Is Forest', author: 'Ursula K. Le Guin', year: 1972, price: 7, genres: ['sf'], series: 'Hainish' });
    const cities = byObjectID(withoutHighlights(held.records.cities as Array<Record<string, unknown> & { objectID: string }>) as Array<{ objectID: string }>);
    // as make-store.mjs computed them: the same doubles, bit for bit
    expect(cities.c3).toEqual({ objectID: 'c3', name: 'City 3', population: 999999, _geoloc: { lat: 40 + 3 / 10, lng: -3 + 3 / 10 } });
    expect(cities.c39).toEqual({ objectID: 'c39', name: 'City 39', population: 40000, _geoloc: { lat: 40 + 39 / 10, lng: -3 + 39 / 10 } });

    expect(held.settings.books).toMatchObject({
      searchableAttributes: ['title', 'author', 'unordered(genres)'],
      attributesForFaceting: ['searchable(author)', 'genres', 'filterOnly(year)'],
      customRanking: ['desc(year)'], attributeForDistinct: 'series', distinct: 1, replicas: ['books_price_asc'],
    });
    expect(held.settings.books_price_asc).toMatchObject({ ranking: ['asc(price)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'], primary: 'books' });
    expect(held.settings.cities).toMatchObject({ searchableAttributes: ['name'], customRanking: ['desc(population)'] });
    expect(held.synonyms).toEqual([
      { objectID: 'syn-scifi', type: 'synonym', synonyms: ['sf', 'scifi', 'science fiction'] },
      { objectID: 'syn-wizard', type: 'onewaysynonym', input: 'mage', synonyms: ['wizard'] },
    ]);
    expect(held.rules).toEqual([{
      objectID: 'promote-dune', conditions: [{ pattern: 'desert', anchoring: 'contains' }],
      consequence: { promote: [{ objectID: 'b4', position: 0 }], userData: { banner: 'spice' } }, description: 'Dune first for desert',
    }]);

    // the key updated by the log, and the deleted one still restorable
    expect(held.keys).toHaveLength(1);
    expect(held.keys[0]).toMatchObject({ acl: ['search', 'browse'], description: 'fixture search key, updated', indexes: ['books'] });
    expect(held.deletedKeys.map((k) => [k.acl, k.description])).toEqual([[['browse'], 'fixture deleted key']]);

    expect(held.searches.map((s) => [s.index, s.query, s.nbHits, s.hits, s.user, s.tracked])).toEqual([
      ['books', 'dune', 1, ['b4'], 'reader-1', false],
      ['books', 'le guin', 2, ['b2', 'b3'], 'reader-1', false],
      ['books', 'dune', 1, ['b4'], 'reader-1', false],
      ['books', 'nothing matches this', 0, [], 'reader-1', false],
      ['books', 'kindred', 1, ['b5'], 'reader-1', true],
    ]);
    expect(held.events).toEqual([expect.objectContaining({
      eventType: 'click', eventName: 'hit clicked', index: 'books', userToken: 'reader-1', queryID: held.searches[4].id, objectIDs: ['b5'], positions: [1],
    })]);
  });

  it('searches as it did: ranking, distinct, synonyms, rules, keys restricted to their index', async () => {
    const engine = await openAt(fixtureCopy('v1'), { adminKey: ADMIN, appId: 'FIXTURE' });
    const call = admin(engine);
    const ids = async (index: string, body: object, key?: string) => (await call('POST', `/1/indexes/${index}/query`, body, key)).body.hits.map((h: { objectID: string }) => h.objectID);
    expect(await ids('books', { query: 'le guin' })).toEqual(['b2', 'b3']); // one per series, the newest first
    expect(await ids('books', { query: 'mage' })).toEqual(['b3']);
    expect(await ids('books', { query: 'scifi', distinct: false, hitsPerPage: 3 })).toEqual(['b6', 'b5', 'b2']);
    const desert = (await call('POST', '/1/indexes/books/query', { query: 'desert' })).body;
    expect([desert.hits[0].objectID, desert.userData]).toEqual(['b4', [{ banner: 'spice' }]]);
    expect(await ids('books_price_asc', { query: '', distinct: false, hitsPerPage: 3 })).toEqual(['b7', 'b10', 'b8']);
    expect(await ids('cities', { query: 'city', hitsPerPage: 2 })).toEqual(['c3', 'c39']);
    const key = (await call('GET', '/1/keys')).body.keys[0].value;
    expect(await ids('books', { query: 'solaris' }, key)).toEqual(['b8']);
    expect((await call('POST', '/1/indexes/cities/query', { query: 'city' }, key)).status).toBe(403);
  });

  it('stands on a snapshot of the current format once opened, which opens the same again', async () => {
    const dir = fixtureCopy('v1');
    const first = await openAt(dir, { adminKey: ADMIN, appId: 'FIXTURE' });
    const held = await contents(first);
    await closeEngine(first);
    const [newest] = snapshotFiles(dir);
    expect(newest.taskID).toBeGreaterThan(9); // the fixture's snapshot is of task 9, its log goes further
    const bytes = new Uint8Array(readFileSync(newest.path));
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('LNT2');
    expect(((await (await Codec.create()).decodeSnapshot(bytes)) as { version: number }).version).toBe(SNAPSHOT_FORMAT);

    const again = await openAt(dir, { adminKey: ADMIN, appId: 'FIXTURE' });
    expect(await contents(again)).toEqual(held);
  });
});

describe('a snapshot of a newer format', () => {
  it('is refused naming both formats, and the store is left as it was', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    await engine.request({ method: 'PUT', path: '/1/indexes/x/r1', body: { text: 'kept' } });
    await engine.snapshot();
    await closeEngine(engine);
    await rewriteSnapshot(dir, (state: { version: number }) => { state.version = SNAPSHOT_FORMAT + 1; });
    const before = directoryContents(dir);

    for (const repair of [false, true]) {
      const { error } = await captureFailure(() => openAt(dir, { repair }));
      expect(error).toBeInstanceOf(SnapshotFormatError);
      expect(error!.message).toContain(`format ${SNAPSHOT_FORMAT + 1}`);
      expect(error!.message).toContain(`format ${SNAPSHOT_FORMAT} and older`);
      expect(directoryContents(dir)).toEqual(before);
    }
  });
});

describe('a data directory whose manifest is of a newer format', () => {
  it('is refused naming both formats, not taken for damage, even by a repair', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    await engine.request({ method: 'PUT', path: '/1/indexes/x/r1', body: { text: 'kept' } });
    await engine.snapshot();
    await closeEngine(engine);
    const path = join(dir, MANIFEST);
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    expect(manifest.format).toBe(MANIFEST_FORMAT);
    writeFileSync(path, JSON.stringify({ ...manifest, format: MANIFEST_FORMAT + 1 }));
    const before = directoryContents(dir);

    for (const repair of [false, true]) {
      const { error } = await captureFailure(() => openAt(dir, { repair }));
      expect(error).toBeInstanceOf(StoreFormatError);
      expect(error!.message).toBe(
        `${path} is of manifest format ${MANIFEST_FORMAT + 1}, newer than this Lantern reads (format ${MANIFEST_FORMAT}): open the store with the newer version that wrote it`,
      );
      expect(directoryContents(dir)).toEqual(before);
    }
  });
});

describe('docs/versioning.md', () => {
  const policy = readFileSync(new URL('../../docs/versioning.md', import.meta.url), 'utf8');

  it('states the store and manifest formats this code writes', () => {
    expect(Number(/The current store format is (\d+)/.exec(policy)?.[1])).toBe(SNAPSHOT_FORMAT);
    expect(Number(/manifest format (\d+)/.exec(policy)?.[1])).toBe(MANIFEST_FORMAT);
  });

  it('has a row for every store format read, the current one last', () => {
    const rows = [...policy.matchAll(/^\| (\d+) \|/gm)].map((row) => Number(row[1]));
    expect(rows).toEqual(Array.from({ length: SNAPSHOT_FORMAT }, (_, i) => i + 1));
  });
});
