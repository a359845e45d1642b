// The memory the first searches of a large index would take (the caches'
// room, reserved once an index has 65,536 records) is taken once the index
// is loaded: growing a WebAssembly memory makes V8 mark its whole heap, and
// that marking would fall on the searches.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import { prng } from '../support/random.js';

const WORDS = ['river', 'mountain', 'garden', 'silver', 'harbour', 'lantern', 'meadow', 'winter', 'orchard', 'canyon', 'forest', 'island'];

/** 70,000 records of three words from WORDS and a number: more than the 65,536 from which the room is reserved. */
function records(): Array<{ objectID: string; title: string }> {
  const next = prng(11);
  const word = () => WORDS[Math.floor(next() * WORDS.length)];
  return Array.from({ length: 70_000 }, (_, i) => ({ objectID: String(i), title: `${word()} ${word()} ${word()} ${i % 997}` }));
}

/** First searches of every kind the caches serve: typos, prefixes, two words. */
const QUERIES = ['rivr', 'mou', 'gardn silv', 'harbour lan', 'medow', 'winter orch', 'canyon', 'forest isl', 'lanter', 'silver gar'];

/** The index's WebAssembly memory after each query, and its hits. */
async function searched(engine: Lantern): Promise<{ sizes: number[]; hits: number[] }> {
  const index = engine.index('big');
  const sizes: number[] = [];
  const hits: number[] = [];
  for (const query of QUERIES) {
    const response = await engine.request({ method: 'POST', path: '/1/indexes/big/query', body: { query } });
    hits.push((response.body as { nbHits: number }).nbHits);
    sizes.push(index.memoryBytes);
  }
  return { sizes, hits };
}

describe('the memory of the first searches', () => {
  it('is taken once a snapshot is loaded: the first searches grow nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-search-memory-'));
    const engine = await Lantern.open({ storage: fsStorage(dir) });
    await engine.client().saveObjects({ indexName: 'big', objects: records(), batchSize: 10_000 });
    await engine.waitForTasks();
    const written = await searched(engine);
    expect(written.hits.every((n) => n > 0), String(written.hits)).toBe(true);
    await engine.snapshot();
    await engine.close();

    const reopened = await Lantern.open({ storage: fsStorage(dir) });
    const loaded = reopened.index('big').memoryBytes;
    const again = await searched(reopened);
    expect(again.hits).toEqual(written.hits);
    expect(again.sizes).toEqual(QUERIES.map(() => loaded));
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
