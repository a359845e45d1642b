// Vector and hybrid search with vectors the records and queries bring
// (a userProvided embedder), through the API of a real engine on real
// files: nearest records by cosine similarity (checked against a plain
// computation over the same vectors), filters applied before the page is
// cut, hybrid answers fusing both sides, semanticRatio 0 giving exactly the
// keyword answer, vectors answered only when asked, 400s that name the
// record or the parameter, and vectors surviving a snapshot and a restart.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { caller, cleanup, closeEngine, openAt, tempDir, type Call } from '../persistence/helpers.js';
import { prng } from '../support/random.js';

beforeAll(loadCore);
afterEach(cleanup);

const DIMENSIONS = 8;
const COLORS = ['red', 'green', 'blue'];
const WORDS = ['river', 'mountain', 'forest', 'desert', 'ocean', 'valley', 'city', 'island'];

interface Place { objectID: string; title: string; color: string; rank: number; _vectors: { default: number[] } }

function places(count: number, seed = 7): Place[] {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => ({
    objectID: `p${i}`,
    title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]} number ${i}`,
    color: COLORS[i % COLORS.length],
    rank: i,
    _vectors: { default: Array.from({ length: DIMENSIONS }, () => Math.round((random() * 2 - 1) * 1000) / 1000) },
  }));
}

function cosine(a: number[], b: number[]): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return dot / Math.sqrt(na * nb);
}

/** The objectIDs of `records` nearest to `query`, best first (ties by objectID order of the list). */
function nearestIDs(records: Place[], query: number[], k: number): string[] {
  return records.map((r) => ({ id: r.objectID, s: cosine(r._vectors.default, query) }))
    .sort((a, b) => b.s - a.s).slice(0, k).map((r) => r.id);
}

/**
 * The vector index keeps vectors as int8 codes: near-ties may come in either
 * order. Cosine similarities within this much of each other are a tie.
 */
const TIE = 0.02;

/**
 * Checks that `ids` are the nearest of `candidates` to `query` at ranks
 * [from, from + k), ties aside: best first, and each as near as the true
 * ones at those ranks.
 */
function expectNearest(ids: string[], candidates: Place[], query: number[], k: number, from = 0): void {
  const exact = candidates.map((r) => cosine(r._vectors.default, query)).sort((a, b) => b - a);
  const similarity = new Map(candidates.map((r) => [r.objectID, cosine(r._vectors.default, query)]));
  expect(ids).toHaveLength(Math.min(k, candidates.length - from));
  expect(new Set(ids).size).toBe(ids.length);
  ids.forEach((id, i) => {
    const s = similarity.get(id)!;
    expect(s, `${id} at ${from + i}`).toBeGreaterThanOrEqual(exact[Math.min(exact.length, from + k) - 1] - TIE);
    expect(s, `${id} at ${from + i}`).toBeLessThanOrEqual(exact[from] + TIE);
    if (i > 0) expect(similarity.get(ids[i - 1])!, `${ids[i - 1]} before ${id}`).toBeGreaterThanOrEqual(s - TIE);
  });
}

async function indexWith(call: Call, records: Place[]): Promise<void> {
  const settings = await call('PUT', '/1/indexes/places/settings', {
    embedders: { default: { source: 'userProvided', dimensions: DIMENSIONS } },
    attributesForFaceting: ['color'], searchableAttributes: ['title'], customRanking: ['asc(rank)'],
  });
  expect(settings.status).toBe(200);
  const batch = await call('POST', '/1/indexes/places/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
  expect(batch.status).toBe(200);
}

const QUERY = [0.3, -0.2, 0.9, 0.1, -0.5, 0.4, 0.0, 0.2];

describe('vectors a userProvided embedder holds', () => {
  it('a vector alone answers the nearest records by cosine similarity, filters restricting them first', async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = caller(engine);
    const records = places(300);
    await indexWith(call, records);
    await engine.waitForTasks();

    const r = await call('POST', '/1/indexes/places/query', { vector: QUERY, hitsPerPage: 10 });
    expect(r.status).toBe(200);
    expectNearest(r.body.hits.map((h: any) => h.objectID), records, QUERY, 10);
    expect(r.body.nbHits).toBe(300);

    // a filter allowing few records: still 10 of them, the nearest among them (not the nearest overall, filtered)
    const blue = await call('POST', '/1/indexes/places/query', { vector: QUERY, hitsPerPage: 10, filters: 'color:blue AND rank < 60' });
    const allowed = records.filter((p) => p.color === 'blue' && p.rank < 60);
    expectNearest(blue.body.hits.map((h: any) => h.objectID), allowed, QUERY, 10);
    expect(blue.body.hits.every((h: any) => h.color === 'blue' && h.rank < 60)).toBe(true);
    expect(blue.body.nbHits).toBe(allowed.length);

    // pages follow one another
    const second = await call('POST', '/1/indexes/places/query', { vector: QUERY, hitsPerPage: 10, page: 1 });
    expectNearest(second.body.hits.map((h: any) => h.objectID), records, QUERY, 10, 10);
    const first = r.body.hits.map((h: any) => h.objectID);
    expect(second.body.hits.some((h: any) => first.includes(h.objectID))).toBe(false);
  });

  it('semanticRatio 0 answers exactly the keyword answer; hybrid answers carry both scores', async () => {
    const engine = await openAt(tempDir());
    const call = caller(engine);
    await indexWith(call, places(200));
    await engine.waitForTasks();
    const keyword = await call('POST', '/1/indexes/places/query', { query: 'river', hitsPerPage: 15, facets: ['color'] });
    const zero = await call('POST', '/1/indexes/places/query', { query: 'river', hitsPerPage: 15, facets: ['color'], vector: QUERY, hybrid: { semanticRatio: 0 } });
    const strip = ({ processingTimeMS: _t, params: _p, ...rest }: any) => rest;
    expect(strip(zero.body)).toEqual(strip(keyword.body));

    const hybrid = await call('POST', '/1/indexes/places/query', {
      query: 'river', hitsPerPage: 20, vector: QUERY, hybrid: { embedder: 'default', semanticRatio: 0.5 }, getRankingInfo: true, facets: ['color'],
    });
    expect(hybrid.status).toBe(200);
    const infos = hybrid.body.hits.map((h: any) => h._rankingInfo);
    for (const info of infos) {
      expect(info.semanticScore).toBeGreaterThanOrEqual(0);
      expect(info.semanticScore).toBeLessThanOrEqual(1);
      expect(info.neuralScore).toBeCloseTo(0.5 * (info.keywordScore ?? 0) + 0.5 * (info.semanticScore ?? 0), 6);
    }
    // fused best first
    const fused = infos.map((i: any) => i.neuralScore);
    expect([...fused].sort((a, b) => b - a)).toEqual(fused);
    // both sides brought hits: some matched "river", some only the vector
    expect(hybrid.body.hits.some((h: any) => /river/.test(h.title))).toBe(true);
    expect(hybrid.body.semanticHitCount).toBeGreaterThan(0);
    expect(hybrid.body.nbHits).toBeGreaterThanOrEqual(keyword.body.nbHits);
    // facets count the hits of both sides
    const counted = Object.values(hybrid.body.facets.color as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(counted).toBe(hybrid.body.nbHits);
    // highlighting marks the query's words in keyword hits
    const matched = hybrid.body.hits.find((h: any) => /river/.test(h.title));
    expect(matched._highlightResult.title.value).toContain('<em>river</em>');
  });

  it('rules and distinct shape hybrid answers as keyword ones: promoted first, hidden absent, one hit per group', async () => {
    const engine = await openAt(tempDir());
    const call = caller(engine);
    const records = places(120);
    await indexWith(call, records);
    const nearestAll = nearestIDs(records, QUERY, 120);
    const [hidden, , , promoted] = nearestAll;
    const last = nearestAll[nearestAll.length - 1];
    await call('PUT', '/1/indexes/places/rules/r1', {
      objectID: 'r1', conditions: [{ pattern: 'river', anchoring: 'contains' }],
      consequence: { promote: [{ objectID: last, position: 0 }], hide: [{ objectID: hidden }] },
    });
    await engine.waitForTasks();
    const ruled = await call('POST', '/1/indexes/places/query', { query: 'river', vector: QUERY, hybrid: { semanticRatio: 0.9 }, hitsPerPage: 10 });
    const ids = ruled.body.hits.map((h: any) => h.objectID);
    expect(ids[0]).toBe(last);
    expect(ids).not.toContain(hidden);
    expect(ids).toContain(promoted);
    expect(new Set(ids).size).toBe(ids.length);

    await call('PUT', '/1/indexes/places/settings', { attributeForDistinct: 'color' });
    await engine.waitForTasks();
    const distinct = await call('POST', '/1/indexes/places/query', { vector: QUERY, distinct: 1, hitsPerPage: 10 });
    expect(distinct.body.hits.map((h: any) => h.color).sort()).toEqual([...COLORS].sort());
    // the nearest of each color, in order (ties aside)
    for (const hit of distinct.body.hits) expectNearest([hit.objectID], records.filter((r) => r.color === hit.color), QUERY, 1);
  });

  it('a record written again with the same vector keeps its place in the graph; a new vector takes a new one', async () => {
    const engine = await openAt(tempDir());
    const call = caller(engine);
    const records = places(4000, 5); // past the size where the space walks its graph rather than scanning
    await indexWith(call, records);
    await engine.waitForTasks();
    await engine.waitForVectorLinks();
    const index = engine.index('places');
    expect(index.vectors.pending).toBe(0);
    await call('POST', '/1/indexes/places/batch', {
      requests: records.slice(0, 500).map((r) => ({ action: 'partialUpdateObject', body: { objectID: r.objectID, rank: r.rank + 10_000 } })),
    });
    await call('PUT', '/1/indexes/places/p600', { ...records[600], title: 'renamed' });
    await engine.waitForTasks();
    expect(index.vectors.tombstones).toBe(0);
    const moved = { ...records[700], _vectors: { default: QUERY } };
    await call('PUT', '/1/indexes/places/p700', moved);
    await engine.waitForTasks();
    expect(index.vectors.tombstones).toBe(1);
    const r = await call('POST', '/1/indexes/places/query', { vector: QUERY, hitsPerPage: 10 });
    expect(r.body.hits[0].objectID).toBe('p700');
    const updated = records.map((p) => (p.objectID === 'p700' ? moved : p));
    expectNearest(r.body.hits.map((h: any) => h.objectID), updated, QUERY, 10);
  });

  it('a space whose deleted vectors outnumber its live ones is rebuilt in the background, answering throughout', async () => {
    const engine = await openAt(tempDir());
    const call = caller(engine);
    const records = places(4000, 9);
    await indexWith(call, records);
    await engine.waitForTasks();
    await engine.waitForVectorLinks();
    const index = engine.index('places');
    const gone = new Set(records.filter((r) => r.rank % 3 !== 0).map((r) => r.objectID));
    await call('POST', '/1/indexes/places/batch', { requests: [...gone].map((objectID) => ({ action: 'deleteObject', body: { objectID } })) });
    await engine.waitForTasks();
    const left = records.filter((r) => !gone.has(r.objectID));
    // searched before the rebuild is done, and after: the nearest of the records left
    expectNearest((await call('POST', '/1/indexes/places/query', { vector: QUERY, hitsPerPage: 10 })).body.hits.map((h: any) => h.objectID), left, QUERY, 10);
    await engine.waitForVectorLinks();
    expect(index.vectors.tombstones).toBe(0);
    expect(index.vectors.sizeOf('default')).toBe(left.length);
    expectNearest((await call('POST', '/1/indexes/places/query', { vector: QUERY, hitsPerPage: 10 })).body.hits.map((h: any) => h.objectID), left, QUERY, 10);
  });

  it('mode neuralSearch makes hybrid search the default: its first embedder, ratio 0.5; a query without a vector answers by keywords', async () => {
    const engine = await openAt(tempDir());
    const call = caller(engine);
    await indexWith(call, places(100));
    await call('PUT', '/1/indexes/places/settings', { mode: 'neuralSearch' });
    await engine.waitForTasks();
    const hybrid = await call('POST', '/1/indexes/places/query', { query: 'river', vector: QUERY, getRankingInfo: true });
    expect(hybrid.status).toBe(200);
    const info = hybrid.body.hits[0]._rankingInfo;
    expect(info.neuralScore).toBeCloseTo(0.5 * info.keywordScore + 0.5 * info.semanticScore, 6);
    expect(hybrid.body.semanticHitCount).toBeGreaterThanOrEqual(0);
    const words = await call('POST', '/1/indexes/places/query', { query: 'river' });
    expect(words.status).toBe(200);
    expect(words.body.hits.every((h: any) => /river/.test(h.title))).toBe(true);
    expect(words.body).not.toHaveProperty('semanticHitCount');
  });

  it('hits carry _vectors only with retrieveVectors; _vectors is never searched as text', async () => {
    const engine = await openAt(tempDir());
    const call = caller(engine);
    const records = places(20);
    await indexWith(call, records);
    await call('PUT', '/1/indexes/places/settings', { searchableAttributes: null });
    await engine.waitForTasks();
    const plain = await call('POST', '/1/indexes/places/query', { query: '' });
    expect(plain.body.hits[0]).not.toHaveProperty('_vectors');
    expect(plain.body.hits[0]._highlightResult).not.toHaveProperty('_vectors');
    const digits = String(records[0]._vectors.default[0]).replace('-', '');
    expect((await call('POST', '/1/indexes/places/query', { query: digits })).body.nbHits).toBe(0);
    const withVectors = await call('POST', '/1/indexes/places/query', { query: '', retrieveVectors: true, hitsPerPage: 50 });
    for (const hit of withVectors.body.hits) {
      expect(hit._vectors.default).toEqual(records.find((r) => r.objectID === hit.objectID)!._vectors.default);
    }
  });

  it('refuses vectors it cannot take with a 400 naming the record or the parameter', async () => {
    const engine = await openAt(tempDir());
    const call = caller(engine);
    await indexWith(call, places(5));
    await engine.waitForTasks();
    const write = (body: unknown) => call('POST', '/1/indexes/places/batch', { requests: [{ action: 'addObject', body }] });
    const cases: Array<[Promise<{ status: number; body: any }>, RegExp]> = [
      [write({ objectID: 'short', _vectors: { default: [1, 2] } }), /"short".*_vectors\.default.*2 dimensions/],
      [write({ objectID: 'words', _vectors: { default: Array(DIMENSIONS).fill('x') } }), /"words".*finite numbers/],
      [write({ objectID: 'zero', _vectors: { default: Array(DIMENSIONS).fill(0) } }), /"zero".*zeros/],
      [write({ objectID: 'other', _vectors: { openai: QUERY } }), /"other".*no embedder "?openai|"other".*_vectors\.openai/],
      [write({ objectID: 'list', _vectors: [QUERY] }), /"list".*_vectors/],
      [call('POST', '/1/indexes/places/query', { vector: [1, 2, 3] }), /"vector" has 3 dimensions/],
      [call('POST', '/1/indexes/places/query', { vector: ['a'] }), /"vector"/],
      [call('POST', '/1/indexes/places/query', { vector: QUERY, hybrid: { semanticRatio: 2 } }), /hybrid\.semanticRatio/],
      [call('POST', '/1/indexes/places/query', { vector: QUERY, hybrid: { embedder: 'nope' } }), /hybrid\.embedder.*nope/],
      [call('POST', '/1/indexes/places/query', { query: 'river', hybrid: { semanticRatio: 0.5 } }), /"vector" is required/],
      [call('PUT', '/1/indexes/places/settings', { embedders: { bad: { source: 'userProvided', dimensions: 0 } } }), /embedders\.bad\.dimensions/],
    ];
    for (const [response, message] of cases) {
      const r = await response;
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    // nothing refused reached the index
    expect((await call('POST', '/1/indexes/places/query', { query: '' })).body.nbHits).toBe(5);
  });

  it('vectors survive a snapshot and a restart byte for byte, and answer as before', async () => {
    const dir = tempDir();
    const records = places(250, 11);
    let engine = await openAt(dir);
    let call = caller(engine);
    await indexWith(call, records.slice(0, 200));
    await engine.waitForTasks();
    await engine.snapshot();
    // written after the snapshot: replayed from the log
    await call('POST', '/1/indexes/places/batch', { requests: records.slice(200).map((body) => ({ action: 'addObject', body })) });
    await call('DELETE', '/1/indexes/places/p3');
    await engine.waitForTasks();
    const before = await call('POST', '/1/indexes/places/query', { vector: QUERY, hitsPerPage: 30, filters: 'color:red' });
    const record = await call('GET', '/1/indexes/places/p210');
    await closeEngine(engine);

    engine = await openAt(dir);
    call = caller(engine);
    const after = await call('POST', '/1/indexes/places/query', { vector: QUERY, hitsPerPage: 30, filters: 'color:red' });
    expect(after.body.hits).toEqual(before.body.hits);
    expectNearest(after.body.hits.map((h: any) => h.objectID), records.filter((p) => p.color === 'red' && p.objectID !== 'p3'), QUERY, 30);
    const again = await call('GET', '/1/indexes/places/p210');
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(record.body));
    expect(again.body._vectors.default).toEqual(records[210]._vectors.default);
  });
});
