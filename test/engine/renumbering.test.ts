// Each version of a record written takes a new record id, and every
// search's bitmaps span every id issued: an index whose records are updated
// in place issues the live records' ids again once the unused ones outnumber
// them four times (SearchIndex.renumberIfSparse). Its answers stay those of an index
// built from the same records, before and after a restart, its replicas'
// too.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, closeEngine, normalized, openAt, tempDir } from '../persistence/helpers.js';
import { Lantern } from '../../src/lantern.js';

afterAll(cleanup);

const RECORDS = 600;
/** Rounds of writes: the last one issues the 10,200th unused id, and ends with a renumbering. */
const ROUNDS = 35;
const BRANDS = ['acme', 'globex', 'initech', 'umbrella', 'hooli'];
const WORDS = ['lamp', 'chair', 'table', 'desk', 'shelf', 'sofa', 'stool', 'bench', 'mirror', 'rug'];

/** Record `i` as round `round` writes it: its name, brand and price move with the round. */
function record(i: number, round: number) {
  return {
    objectID: `p${i}`,
    name: `${WORDS[(i + round) % WORDS.length]} ${WORDS[(i * 7 + round * 3) % WORDS.length]} model ${i % 37}`,
    brand: BRANDS[(i + round) % BRANDS.length],
    price: ((i * 31 + round * 17) % 500) + 1,
  };
}

const SETTINGS = {
  searchableAttributes: ['name', 'brand'],
  attributesForFaceting: ['brand'],
  customRanking: ['desc(price)'],
  attributeForDistinct: 'brand',
  replicas: ['virtual(shop_by_price)'],
};

async function write(engine: Lantern, path: string, body: unknown): Promise<void> {
  const response = await engine.request({ method: path.endsWith('/batch') ? 'POST' : 'PUT', path, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  await engine.waitForTasks();
}

async function configure(engine: Lantern): Promise<void> {
  await write(engine, '/1/indexes/shop/settings', SETTINGS);
  await write(engine, '/1/indexes/shop_by_price/settings', { customRanking: ['asc(price)'] });
}

/** Writes records `from` to `to` - 1 as round `round` does. */
const saveRound = (engine: Lantern, round: number, from = 0, to = RECORDS) =>
  write(engine, '/1/indexes/shop/batch', { requests: Array.from({ length: to - from }, (_, i) => ({ action: 'updateObject', body: record(from + i, round) })) });

/** What the indexes answer: searches with facets and distinct, the replica's order, and a browse of every record. */
async function answers(engine: Lantern): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of ['', 'lamp', 'chair model', 'tabel', 'acme sofa', 'mod']) {
    for (const [index, extra] of [['shop', { facets: ['brand'] }], ['shop', { distinct: 1 }], ['shop_by_price', {}]] as const) {
      const response = await engine.request({ method: 'POST', path: `/1/indexes/${index}/query`, body: { query, hitsPerPage: 30, getRankingInfo: true, ...extra } });
      expect(response.status).toBe(200);
      out.push(normalized(response.body));
    }
  }
  const browsed = await engine.request({ method: 'POST', path: '/1/indexes/shop/browse', body: { hitsPerPage: 1000 } });
  out.push((browsed.body as { hits: Array<{ objectID: string }> }).hits.map((h) => h.objectID).sort());
  return out;
}

describe('record ids issued again', () => {
  it('an index updated in place keeps its ids within five times its records, and answers as one built from them', async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    await configure(engine);
    // the first half of the records written every round, the second half once: after a renumbering those
    // take the ids the first half's early versions had (their sort values noted then must not be theirs)
    await saveRound(engine, 0);
    for (let round = 1; round < ROUNDS; round++) await saveRound(engine, round, 0, RECORDS / 2);
    expect(engine.index('shop').capacity).toBe(RECORDS);
    // a write after it folds the sort orders in again
    await saveRound(engine, 0, RECORDS - 1);
    const capacity = engine.index('shop').capacity;
    // ids issued since the last renumbering only: the rounds issued 10,800
    expect(capacity).toBeLessThan(RECORDS * 5);
    expect(engine.index('shop').size).toBe(RECORDS);

    const fresh = await Lantern.open({});
    await configure(fresh);
    await saveRound(fresh, 0, RECORDS / 2);
    await saveRound(fresh, ROUNDS - 1, 0, RECORDS / 2);
    const expected = await answers(fresh);
    expect(await answers(engine)).toEqual(expected);

    await engine.snapshot();
    await closeEngine(engine);
    const reopened = await openAt(dir);
    expect(reopened.index('shop').capacity).toBe(capacity);
    expect(await answers(reopened)).toEqual(expected);
    await closeEngine(reopened);
    await fresh.close();
  });
});
