// Snapshots of indexes with vectors, proven and damaged. A snapshot is
// proven by loading it back (engine.proveSnapshot, as the engine does
// before a new snapshot replaces the previous one): an index's vector
// spaces are restored there, so a vectors part that does not match its
// records is refused. On disk, a flipped byte in a vectors part makes the
// newest snapshot unusable (the previous one and the log load, with a
// warning); a vectors part that checksums but does not match its records
// is never loaded silently wrong.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { Codec } from '../../src/durability/persistence.js';
import { wholeSnapshot } from '../support/snapshot-bytes.js';
import { localEmbedding } from '../support/embedding-server.js';
import { caller, captureFailure, captureWarnings, cleanup, closeEngine, openAt, rewriteSnapshot, snapshotFiles, tempDir, type Call } from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

const DIMENSIONS = 8;
const embedders = { hashed: async (texts: string[]) => texts.map((t) => localEmbedding(t, DIMENSIONS)) };
const SETTINGS = {
  searchableAttributes: ['title'],
  embedders: {
    pos: { source: 'userProvided', dimensions: 3 },
    meaning: { source: 'function', name: 'hashed', dimensions: DIMENSIONS, documentTemplate: '{{doc.title}}' },
  },
};
const WORDS = ['ocean', 'whale', 'tree', 'city', 'river', 'song', 'stone', 'light'];
const record = (i: number) => ({
  objectID: `r${i}`,
  title: `${WORDS[i % 8]} ${WORDS[(i * 3 + 1) % 8]} number${i}`,
  _vectors: { pos: [Math.cos(i), Math.sin(i), (i % 5) / 5 + 0.1] },
});

const SEARCHES = [
  { vector: [1, 0.2, 0.3], hybrid: { embedder: 'pos' }, hitsPerPage: 5 },
  { vector: Array.from(localEmbedding('ocean whale', DIMENSIONS)), hybrid: { embedder: 'meaning' }, hitsPerPage: 5 },
  { query: 'tree', hybrid: { embedder: 'meaning', semanticRatio: 0.5 }, vector: Array.from(localEmbedding('tree song', DIMENSIONS)), hitsPerPage: 5 },
];

async function answers(call: Call): Promise<unknown[]> {
  const out = [];
  for (const params of SEARCHES) {
    const { status, body } = await call('POST', '/1/indexes/v/query', { ...params, attributesToRetrieve: ['objectID'], attributesToHighlight: [] });
    expect(status, JSON.stringify(body)).toBe(200);
    out.push(body.hits.map((h: any) => h.objectID));
  }
  return out;
}

/** A store whose newest snapshot holds records 0..39 with their vectors, the previous one 0..19; records 40..44 in the log after it. */
async function twoSnapshots(dir: string): Promise<unknown[]> {
  const engine = await openAt(dir, { snapshotEvery: 0, embedders });
  const call = caller(engine);
  await call('PUT', '/1/indexes/v/settings', SETTINGS);
  const put = (from: number, to: number) => call('POST', '/1/indexes/v/batch', { requests: Array.from({ length: to - from }, (_, i) => ({ action: 'addObject', body: record(from + i) })) });
  await put(0, 20);
  await engine.waitForEmbeddings();
  await engine.snapshot();
  await put(20, 40);
  await engine.waitForEmbeddings();
  await engine.snapshot();
  await put(40, 45);
  await engine.waitForEmbeddings();
  const expected = await answers(call);
  await closeEngine(engine);
  return expected;
}

/** How an exported vector space begins (assembly/vectors/snapshot.ts: the magic "LNVS"), to find one in a file. */
const VECTOR_SPACE_MAGIC = Buffer.from('LNVS', 'latin1');

describe('an index with vectors in a snapshot', () => {
  it('is proven with its vector spaces, and comes back answering as before', async () => {
    const dir = tempDir();
    const expected = await twoSnapshots(dir);
    const engine = await openAt(dir, { embedders });
    expect(await answers(caller(engine))).toEqual(expected);
    const [newest] = snapshotFiles(dir);
    await engine.proveSnapshot(new Uint8Array(readFileSync(newest.path)), newest.taskID);
    await closeEngine(engine);
  });

  it('a byte flipped in a vector space: the previous snapshot and the log load, with a warning', async () => {
    const dir = tempDir();
    const expected = await twoSnapshots(dir);
    const [newest] = snapshotFiles(dir);
    const bytes = readFileSync(newest.path);
    const at = bytes.indexOf(VECTOR_SPACE_MAGIC);
    expect(at, 'the vectors part is stored as it is exported').toBeGreaterThan(0);
    bytes[at + 48] ^= 0x40;
    writeFileSync(newest.path, bytes);
    const { result: engine, warnings } = await captureWarnings(() => openAt(dir, { embedders }));
    expect(warnings.join('\n')).toMatch(/snapshot/i);
    expect(await answers(caller(engine))).toEqual(expected);
  });
});

describe('a vectors part that checksums but does not match its records', () => {
  /** The newest snapshot's state with `change` made to its index's vectors, encoded as a writer would have. */
  async function tampered(dir: string, change: (vectors: any, older: any) => void): Promise<{ bytes: Uint8Array; taskID: number; older: any }> {
    const codec = await Codec.create();
    const [newest, previous] = snapshotFiles(dir);
    const state: any = await codec.decodeSnapshot(new Uint8Array(readFileSync(newest.path)));
    const older: any = (await codec.decodeSnapshot(new Uint8Array(readFileSync(previous.path))) as any).indexes[0].vectors;
    change(state.indexes[0].vectors, older);
    return { bytes: await wholeSnapshot(await codec.encodeSnapshot(state)), taskID: newest.taskID, older };
  }

  const space = (vectors: any, name: string) => vectors.spaces.find(([n]: [string]) => n === name);
  const CHANGES: Array<[string, (vectors: any, older: any) => void]> = [
    ['the space of an older snapshot (vectors missing)', (vectors, older) => { space(vectors, 'pos')[1] = space(older, 'pos')[1]; }],
    ['the space of another embedder (other dimensions)', (vectors) => { space(vectors, 'meaning')[1] = space(vectors, 'pos')[1]; }],
    ['a space cut short', (vectors) => { const parts = space(vectors, 'pos')[1]; parts[0] = parts[0].subarray(0, parts[0].length >> 1); }],
  ];

  for (const [what, change] of CHANGES) {
    it(`${what}: the proof refuses it, and a store holding it does not answer from it`, async () => {
      const dir = tempDir();
      const expected = await twoSnapshots(dir);
      const { bytes, taskID, older } = await tampered(dir, change);
      const engine = await openAt(dir, { embedders });
      await expect(engine.proveSnapshot(bytes, taskID)).rejects.toThrow(/vector/i);
      await closeEngine(engine);

      // written so anyway: the index is not opened silently wrong (quarantined, or the store refuses)
      await rewriteSnapshot(dir, (state) => change(state.indexes[0].vectors, older));
      const { error, warnings, errors } = await captureFailure(async () => {
        const reopened = await openAt(dir, { embedders });
        const call = caller(reopened);
        const search = await call('POST', '/1/indexes/v/query', SEARCHES[0]);
        // quarantined: a 503 saying why; loaded: it must answer as before
        if (search.status === 200) expect(await answers(call)).toEqual(expected);
        else expect(search.status, JSON.stringify(search.body)).toBe(503);
        await closeEngine(reopened);
      });
      expect(error).toBeUndefined();
      expect([...warnings, ...errors].join('\n')).toMatch(/vector/i);
    });
  }
});
