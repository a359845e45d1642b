// kill -9 of a `lantern serve` child while records with vectors are written
// and their texts embedded (the test embedding server, slowed down so the
// embedder lags behind the writes; snapshots are taken meanwhile). After a
// restart on the same directory: every acknowledged record is there with its
// `_vectors` as written, vector searches answer what an exact search over the
// records computes, the records whose computed vectors were not logged before
// the kill are embedded then, and no text whose vector was logged is
// embedded again (the embedding server counts the texts it embeds).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';
import { prng } from '../persistence/helpers.js';
import { startServe, type Served } from '../support/serve.js';

const ADMIN = 'vector-crash-admin';
const DIMENSIONS = 16;
const OWN_DIMENSIONS = 4;
const WORDS = ['ocean', 'whale', 'tree', 'city', 'river', 'song', 'stone', 'light', 'storm', 'field', 'glass', 'paper'];

let embeddings: EmbeddingServer;
let serve: Served | undefined;
const dirs: string[] = [];

beforeAll(async () => { embeddings = await EmbeddingServer.start({ dimensions: DIMENSIONS }); });
afterAll(async () => {
  await serve?.kill();
  await embeddings.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Sent { objectID: string; title: string; _vectors: { own: number[] } }

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(serve!.url + path, { method, headers: { 'x-algolia-api-key': ADMIN }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return dot / Math.sqrt(na * nb);
};

/** The k best similarities an exact search over `records` finds for `query` (`vectorOf`: a record's vector). */
function oracle(records: Sent[], vectorOf: (r: Sent) => ArrayLike<number>, query: number[], k: number): Map<string, number> {
  const scored = records.map((r) => [r.objectID, cosine(vectorOf(r), query)] as const).sort((a, b) => b[1] - a[1]);
  return new Map(scored.slice(0, k));
}

/** Writes batches until the process dies; each batch is in `acked` once its write was answered. */
async function writeUntilKilled(random: () => number, acked: Sent[], sent: Sent[]): Promise<void> {
  for (let batch = 0; ; batch++) {
    const records = Array.from({ length: 10 }, (_, i): Sent => {
      const words = Array.from({ length: 3 }, () => WORDS[Math.floor(random() * WORDS.length)]);
      const own = Array.from({ length: OWN_DIMENSIONS }, () => Number((random() * 2 - 1).toPrecision(17)));
      return { objectID: `r${batch}-${i}`, title: `${words.join(' ')} n${batch}x${i}`, _vectors: { own } };
    });
    sent.push(...records);
    try {
      await call('POST', '/1/indexes/crash/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
    } catch {
      return; // killed: this batch was not acknowledged
    }
    acked.push(...records);
    await new Promise((resolve) => setTimeout(resolve, 40)); // a few hundred records in all: one search page holds them
  }
}

/** Every record of the index, with the vectors of every embedder (computed ones too). */
async function everyHit(): Promise<any[]> {
  const answer = await call('POST', '/1/indexes/crash/query', { query: '', hitsPerPage: 1000, retrieveVectors: true, attributesToHighlight: [] });
  expect(answer.nbHits).toBe(answer.hits.length);
  return answer.hits;
}

describe('kill -9 while records with vectors are written and embedded', () => {
  it('keeps every acknowledged record and its vectors, answers vector searches exactly, embeds the rest once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-vector-crash-'));
    dirs.push(dir);
    const args = ['--data', dir, '--admin-key', ADMIN, '--snapshot-every', '20'];
    serve = await startServe(args);
    await call('PUT', '/1/indexes/crash/settings', {
      searchableAttributes: ['title'],
      embedders: {
        own: { source: 'userProvided', dimensions: OWN_DIMENSIONS },
        meaning: { source: 'rest', url: embeddings.url, dimensions: DIMENSIONS, documentTemplate: '{{doc.title}}' },
      },
    });
    embeddings.setDelay(150);
    const random = prng(20260211);
    const acked: Sent[] = [];
    const sent: Sent[] = [];
    const writing = writeUntilKilled(random, acked, sent);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await serve.kill();
    await writing;
    expect(acked.length).toBeGreaterThan(50);
    // the requests the killed process left at the embedding server are answered before the restart
    await new Promise((resolve) => setTimeout(resolve, 400));

    // the restarted server's embedder waits: what it holds now was logged before the kill
    embeddings.setDelay(1_500);
    serve = await startServe(args);
    const before = new Map(embeddings.embeddedTexts);
    const restored = await everyHit();
    const logged = new Set(restored.filter((h) => h._vectors.meaning).map((h) => h.objectID));
    expect(logged.size).toBeLessThan(restored.length); // the kill left texts to embed
    embeddings.setDelay(0);

    // every acknowledged record, its vectors as written; nothing that was not sent
    const sentById = new Map(sent.map((r) => [r.objectID, r]));
    const present: Sent[] = restored.map((h) => sentById.get(h.objectID)!);
    expect(present.every(Boolean)).toBe(true);
    expect(present.length).toBeGreaterThanOrEqual(acked.length);
    const presentIds = new Set(present.map((r) => r.objectID));
    expect(acked.filter((r) => !presentIds.has(r.objectID))).toEqual([]);
    for (const record of acked.filter((_, i) => i % 7 === 0)) {
      const stored = await call('GET', `/1/indexes/crash/${record.objectID}`);
      expect(JSON.stringify(stored)).toBe(JSON.stringify(record));
    }

    // the texts left waiting are embedded now, each once; the logged ones are not embedded again
    await expect.poll(async () => (await everyHit()).filter((h) => !h._vectors.meaning).length, { timeout: 20_000 }).toBe(0);
    for (const record of present) {
      const times = embeddings.embeddedTexts.get(record.title) ?? 0;
      if (logged.has(record.objectID)) expect(times, record.objectID).toBe(before.get(record.title));
      else expect(times - (before.get(record.title) ?? 0), record.objectID).toBe(1);
    }

    // vector searches answer what an exact search over the records computes
    const queries = [0, 1, 2].map(() => Array.from({ length: OWN_DIMENSIONS }, () => random() * 2 - 1));
    for (const q of queries) {
      const expected = oracle(present, (r) => r._vectors.own, q, 10);
      const answer = await call('POST', '/1/indexes/crash/query', { vector: q, hybrid: { embedder: 'own', semanticRatio: 1 }, hitsPerPage: 10 });
      const found = answer.hits.map((h: any) => cosine(sentById.get(h.objectID)!._vectors.own, q));
      expect(found).toHaveLength(10);
      // the core keeps int8 codes: a near-tie may come in either order, each rank as near as the exact one's
      found.forEach((s: number, i: number) => expect(Math.abs(s - [...expected.values()][i])).toBeLessThan(0.02));
    }
    for (const text of ['ocean whale song', 'city light storm']) {
      const q = Array.from(localEmbedding(text, DIMENSIONS));
      const expected = [...oracle(present, (r) => localEmbedding(r.title, DIMENSIONS), q, 10).values()];
      const answer = await call('POST', '/1/indexes/crash/query', { vector: q, hybrid: { embedder: 'meaning', semanticRatio: 1 }, hitsPerPage: 10 });
      const found = answer.hits.map((h: any) => cosine(localEmbedding(sentById.get(h.objectID)!.title, DIMENSIONS), q));
      expect(found).toHaveLength(10);
      found.forEach((s: number, i: number) => expect(Math.abs(s - expected[i])).toBeLessThan(0.02));
    }
    await serve.stop();
  }, 60_000);
});
