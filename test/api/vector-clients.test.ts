// Vector search through the clients: the official `algoliasearch` v5 client
// over HTTP against a `lantern serve` child, and Lantern's typed client
// (engine.client()). The official client sends parameters it does not know
// as they are; its types refuse `hybrid`, `vector`, `retrieveVectors` and
// `embedders` in an object literal, so users pass them in a variable (no
// excess property check: no cast needed), as below. Lantern's typed client
// types them (LanternVectorMethods, off the parameter table).
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import type { EmbedderSettings } from '../../src/vectors/embedder-settings.js';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';
import { startServe, type Served } from '../support/serve.js';

const APP = 'VECTORCLIENTS';
const ADMIN = 'vector-clients-admin';
const SECRET = 'sk-clients-0123456789abcdef';
const DIMENSIONS = 16;
const INDEX = 'talks';

type Talk = { objectID: string; title: string; _vectors?: Record<string, number[] | null> };
const TALKS: Talk[] = [
  { objectID: 't1', title: 'How whales sing to each other across the ocean', _vectors: { pos: [0.9, 0.1, 0.2] } },
  { objectID: 't2', title: 'The ocean is warming faster than we thought', _vectors: { pos: [0.8, -0.3, 0.1] } },
  { objectID: 't3', title: 'Why cities need more trees and parks', _vectors: { pos: [-0.2, 0.9, 0.4] } },
  { objectID: 't4', title: 'Trees talk to each other underground', _vectors: { pos: [0.1, 0.8, -0.5] } },
];

let embeddings: EmbeddingServer;
let served: Served;

const settings = () => ({
  searchableAttributes: ['title'],
  embedders: {
    meaning: { source: 'rest', url: embeddings.url, apiKey: SECRET, dimensions: DIMENSIONS, documentTemplate: '{{doc.title}}' },
    pos: { source: 'userProvided', dimensions: 3 },
  } satisfies Record<string, EmbedderSettings>,
});

beforeAll(async () => {
  embeddings = await EmbeddingServer.start({ dimensions: DIMENSIONS, apiKey: SECRET });
  served = await startServe(['--memory', '--admin-key', ADMIN, '--app-id', APP]);
});
afterAll(async () => {
  await served.stop();
  await embeddings.stop();
});

/** The answer of a POST straight to the server, for comparison. */
async function raw(path: string, body: unknown): Promise<any> {
  const response = await fetch(served.url + path, { method: 'POST', headers: { 'x-algolia-api-key': ADMIN, 'x-algolia-application-id': APP }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.json();
}

const stable = (body: any) => JSON.parse(JSON.stringify(body, (k, v) => (['processingTimeMS', 'serverTimeMS', 'processingTimingsMS', 'queryID'].includes(k) ? undefined : v)));

describe('the official algoliasearch client over HTTP', () => {
  it('sends embedders, hybrid, vector and retrieveVectors as they are', async () => {
    const port = Number(new URL(served.url).port);
    const client = algoliasearch(APP, ADMIN, { hosts: [{ url: '127.0.0.1', port, protocol: 'http', accept: 'readWrite' }] });
    // in variables: the official types have no such fields, and refuse them in an object literal only
    const indexSettings = settings();
    const { taskID } = await client.setSettings({ indexName: INDEX, indexSettings });
    await client.waitForTask({ indexName: INDEX, taskID });
    await client.saveObjects({ indexName: INDEX, objects: TALKS, waitForTasks: true });
    // the rest embedder embeds the records in the background
    await expect.poll(async () => (await raw(`/1/indexes/${INDEX}/query`, { query: '', retrieveVectors: true })).hits.filter((h: any) => h._vectors?.meaning).length, { timeout: 10_000 }).toBe(TALKS.length);

    const stored = await client.getSettings({ indexName: INDEX });
    expect((stored as Record<string, any>).embedders.meaning).toMatchObject({ source: 'rest', apiKey: SECRET });

    const hybrid = { query: 'ocean', hybrid: { embedder: 'meaning', semanticRatio: 0.7 }, retrieveVectors: true, getRankingInfo: true };
    const single = await client.searchSingleIndex<Talk>({ indexName: INDEX, searchParams: hybrid });
    expect(stable(single)).toEqual(stable(await raw(`/1/indexes/${INDEX}/query`, hybrid)));
    expect((single as Record<string, unknown>).semanticHitCount).toBeTypeOf('number');
    expect(single.hits[0]!._vectors!.meaning).toEqual(Array.from(localEmbedding(single.hits[0]!.title, DIMENSIONS)));
    expect(single.hits[0]!._vectors!.pos).toHaveLength(3);
    expect(single.hits[0]!._rankingInfo).toMatchObject({ keywordScore: expect.any(Number), semanticScore: expect.any(Number) });

    const byVector = { indexName: INDEX, vector: [0.1, 0.9, 0], hybrid: { embedder: 'pos' }, hitsPerPage: 2 };
    const { results } = await client.search<Talk>({ requests: [byVector, { indexName: INDEX, ...hybrid }] });
    expect((results[0] as any).hits.map((h: Talk) => h.objectID)).toEqual(['t3', 't4']);
    const multi = results[1] as typeof single;
    expect(stable({ hits: multi.hits, semanticHitCount: (multi as any).semanticHitCount })).toEqual(stable({ hits: single.hits, semanticHitCount: (single as any).semanticHitCount }));
  });
});

describe('Lantern\'s typed client', () => {
  it('types hybrid, vector, retrieveVectors and embedders, and answers as the official client', async () => {
    const engine = await Lantern.open({});
    try {
      const client = engine.client();
      // object literals: typed, no cast
      const { taskID } = await client.setSettings({
        indexName: INDEX,
        indexSettings: { searchableAttributes: ['title'], embedders: { pos: { source: 'userProvided', dimensions: 3 } } },
      });
      await client.waitForTask({ indexName: INDEX, taskID });
      await client.saveObjects({ indexName: INDEX, objects: TALKS, waitForTasks: true });
      const answer = await client.searchSingleIndex<Talk>({
        indexName: INDEX, searchParams: { query: 'trees', vector: [0.1, 0.9, 0], hybrid: { embedder: 'pos', semanticRatio: 0.5 }, retrieveVectors: true },
      });
      expect(answer.hits.map((h) => h.objectID)).toEqual(['t3', 't4', 't1', 't2']);
      expect(answer.semanticHitCount).toBe(2);
      expect(answer.hits[0]!._vectors).toEqual({ pos: [-0.2, 0.9, 0.4] });
      const { results } = await client.search<Talk>({ requests: [{ indexName: INDEX, vector: [0.9, 0, 0.1], hitsPerPage: 1 }] });
      expect((results[0] as { hits: Talk[] }).hits.map((h) => h.objectID)).toEqual(['t1']);
      const stored = await client.getSettings({ indexName: INDEX });
      expect(stored.embedders).toEqual({ pos: { source: 'userProvided', dimensions: 3 } });

      // checked by tsc (npm run typecheck); the function is never called
      const typed = async () => {
        expectTypeOf(answer.semanticError).toEqualTypeOf<string | undefined>();
        expectTypeOf(answer.semanticHitCount).toEqualTypeOf<number | undefined>();
        expectTypeOf(stored.embedders).toEqualTypeOf<Record<string, EmbedderSettings> | undefined>();
        // @ts-expect-error a ratio is a number
        await client.searchSingleIndex({ indexName: INDEX, searchParams: { hybrid: { semanticRatio: 'half' } } });
        // @ts-expect-error a vector is numbers
        await client.searchSingleIndex({ indexName: INDEX, searchParams: { vector: ['a'] } });
        // @ts-expect-error an embedder needs its source
        await client.setSettings({ indexName: INDEX, indexSettings: { embedders: { e: { dimensions: 3 } } } });
        // @ts-expect-error a misspelt parameter is still refused
        await client.searchSingleIndex({ indexName: INDEX, searchParams: { retrieveVector: true } });
        // removing every embedder
        await client.setSettings({ indexName: INDEX, indexSettings: { embedders: null } });
      };
      expect(typed).toBeTypeOf('function');
    } finally {
      await engine.close();
    }
  });
});
