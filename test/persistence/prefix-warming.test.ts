// Once writes pause, an index's core caches its one-letter prefixes ahead of
// their first ask (src/index/prefix-warming.ts), lists its terms for
// typo'd words' other first letters, and its long records' tokens term by
// term: after an import through the API, and after the index is restored
// from its store. The core's own
// suite (test/core/prefix-cache.test.ts) holds that warmed pages are right.
import { afterEach, describe, expect, it } from 'vitest';
import { caller, cleanup, closeEngine, openAt, tempDir } from './helpers.js';
import { Lantern } from '../../src/lantern.js';
import { SEARCH_LISTING } from '../../src/index/prefix-warming.js';
import { prng } from '../support/random.js';

afterEach(cleanup);

/** `count` records of words under a dozen first letters, many distinct words under each. */
function records(count = 6000): Array<{ objectID: string; title: string }> {
  const rnd = prng(31);
  const word = () => `${'abcdefghijkl'[Math.floor(12 * rnd() * rnd())]}${Math.floor(rnd() * 500).toString(36)}q`;
  return Array.from({ length: count }, (_, i) => ({ objectID: String(i), title: Array.from({ length: 4 }, word).join(' ') }));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The entries the index's core caches once idle work is done: some, then none more for half a second (10 s at most). */
async function settledEntries(engine: Lantern, indexName: string): Promise<number> {
  const entries = () => engine.catalog.index(indexName)!.coreIndex.prefixCacheEntries;
  let last = -1;
  for (let waited = 0; waited < 10_000 && (entries() === 0 || entries() !== last); waited += 500) {
    last = entries();
    await pause(500);
  }
  return entries();
}

describe('prefix warming', () => {
  it('caches the one-letter prefixes after an import, with no search, and again after a restart', async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = caller(engine);
    expect((await call('POST', '/1/indexes/titles/batch', { requests: records().map((body) => ({ action: 'addObject', body })) })).status).toBe(200);
    await engine.waitForTasks();
    const warmed = await settledEntries(engine, 'titles');
    expect(warmed).toBeGreaterThanOrEqual(6);
    // and the dictionary's terms were listed for typo'd words' other first letters (assembly/first-letter-typos.ts)
    const termsListed = (e: Lantern) => e.catalog.index('titles')!.coreIndex.listNewTerms();
    expect(termsListed(engine)).toBe(true);
    // the costliest letter's first ask finds its entry
    const answer = await call('POST', '/1/indexes/titles/query', { query: 'a' });
    expect(answer.body.nbHits).toBeGreaterThan(1000);
    expect(engine.catalog.index('titles')!.coreIndex.prefixCacheEntries).toBe(warmed);
    await engine.snapshot();
    await closeEngine(engine);

    const reopened = await openAt(dir);
    expect(await settledEntries(reopened, 'titles')).toBe(warmed);
    expect(termsListed(reopened)).toBe(true);
    expect((await caller(reopened)('POST', '/1/indexes/titles/query', { query: 'a' })).body).toMatchObject({ nbHits: answer.body.nbHits });
  });

  it('lists the terms left before a search right after an import when few enough, and leaves more to idle steps', async () => {
    const engine = await Lantern.open({});
    const call = caller(engine);
    const batch = (objects: Array<{ objectID: string; title: string }>) => ({ requests: objects.map((body) => ({ action: 'addObject', body })) });
    expect((await call('POST', '/1/indexes/titles/batch', batch(records()))).status).toBe(200);
    const names = Array.from({ length: SEARCH_LISTING + 4000 }, (_, i) => ({ objectID: String(i), title: `w${i.toString(36)}z` }));
    expect((await call('POST', '/1/indexes/names/batch', batch(names))).status).toBe(200);
    await engine.waitForTasks();
    const core = (indexName: string) => engine.catalog.index(indexName)!.coreIndex;
    // no idle step has run yet: more than one step's terms are left in both
    expect(core('titles').termsToList).toBeGreaterThan(2048);
    expect(core('names').termsToList).toBeGreaterThan(SEARCH_LISTING);
    // a typo on the first letter: the word is looked up under the others once the terms are listed
    expect((await call('POST', '/1/indexes/titles/query', { query: 'zb1q' })).status).toBe(200);
    expect(core('titles').termsToList).toBe(0);
    const left = core('names').termsToList;
    expect((await call('POST', '/1/indexes/names/query', { query: 'xw1z' })).status).toBe(200);
    expect(core('names').termsToList).toBe(left);
    await engine.close();
  });

  it('does no more idle work once its engine is closed', async () => {
    const engine = await Lantern.open({});
    expect((await caller(engine)('POST', '/1/indexes/titles/batch', { requests: records().map((body) => ({ action: 'addObject', body })) })).status).toBe(200);
    await engine.waitForTasks();
    const core = engine.catalog.index('titles')!.coreIndex;
    await engine.close(); // in memory: well within the quiet time writes leave before idle work
    await pause(1000);
    expect(core.prefixCacheEntries).toBe(0);
    expect(core.listNewTerms()).toBe(false); // one step of its terms, not all of them
  });

  it('lists long records\' tokens term by term once writes pause, and after a restart', async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = caller(engine);
    const rnd = prng(5);
    const word = () => `w${Math.floor(rnd() * 2000).toString(36)}`;
    const documents = Array.from({ length: 300 }, (_, i) => ({ objectID: String(i), title: word(), body: Array.from({ length: 400 }, word).join(' ') }));
    expect((await call('POST', '/1/indexes/documents/batch', { requests: documents.map((body) => ({ action: 'addObject', body })) })).status).toBe(200);
    await engine.waitForTasks();
    const listed = (e: Lantern) => e.catalog.index('documents')!.coreIndex.positionLists.listed;
    // not as they are written: once the idle steps run
    expect(listed(engine)).toBe(0);
    const settled = async (e: Lantern) => {
      for (let waited = 0; waited < 10_000 && listed(e) < documents.length; waited += 100) await pause(100);
      return listed(e);
    };
    expect(await settled(engine)).toBe(documents.length);
    await engine.snapshot();
    await closeEngine(engine);
    const reopened = await openAt(dir);
    expect(await settled(reopened)).toBe(documents.length);
    await closeEngine(reopened);
  });

  it('waits for a search in an index of 65,536 records or more, whose caches reserve their room when first laid out', async () => {
    const engine = await openAt(tempDir());
    const call = caller(engine);
    const all = records(70000);
    for (let from = 0; from < all.length; from += 10000) {
      await call('POST', '/1/indexes/titles/batch', { requests: all.slice(from, from + 10000).map((body) => ({ action: 'addObject', body })) });
    }
    await engine.waitForTasks();
    await pause(1000);
    const core = () => engine.catalog.index('titles')!.coreIndex;
    expect(core().prefixCacheEntries).toBe(0);
    // a search of a whole word lays the caches out; the warming goes on after it
    expect((await call('POST', '/1/indexes/titles/query', { query: 'a1q' })).status).toBe(200);
    expect(await settledEntries(engine, 'titles')).toBeGreaterThanOrEqual(6);
  });
});
