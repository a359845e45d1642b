// A bounded last word's terms are decoded within the other words'
// candidates, jumping over the blocks of their posting lists that hold none
// (assembly/skip-entries.ts). The entries are derived: kept up as records
// are added, rebuilt when compaction rewrites a list and when a snapshot is
// read. Wherever they come from, every answer must be the one matching the
// last word over every record gives: the same hits, in the same order, with
// the same ranking figures (attribute keys and lead places included).
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex, type CoreQuery } from '../../src/core/core-index.js';
import { BROAD, RARE, build, compactAll, query, rareAndBroad, ready, segmentsOf } from './helpers.js';
import { prng } from '../support/random.js';

beforeAll(ready);

const ATTRIBUTES = [{ rank: 0 }, { rank: 1 }];
const QUERIES = RARE.flatMap(([rare]) => BROAD.flatMap(([broad]) => [`${rare} ${broad}`, `${rare} ${broad.slice(0, 4)}`]));

const answer = (core: CoreIndex, text: string, options: Partial<CoreQuery> = {}) => {
  const result = core.search(query(text, { length: 1000, ...options }));
  return { ...result, unmatched: core.unmatchedWords() };
};

/**
 * Each query asked of a fresh index (no prefix-cache entry an earlier answer
 * built is read instead of the postings), bounded, then over every record.
 */
function expectBoundedAlike(makeIndex: () => Promise<CoreIndex> | CoreIndex): Promise<void> {
  return (async () => {
    for (const text of QUERIES) {
      const core = await makeIndex();
      const bounded = answer(core, text);
      expect((bounded as { nbHits: number }).nbHits, text).toBeGreaterThan(0);
      expect(bounded, text).toEqual(answer(core, text, { boundLastWord: false }));
    }
  })();
}

/**
 * Each query's bounded word decodes and jumps over the same blocks in
 * `written` as in `loaded`, its snapshot read (skip entries rebuilt there
 * from the lists), and some are jumped over.
 */
function expectSameBlocks(written: CoreIndex, loaded: CoreIndex): void {
  for (const text of QUERIES) {
    const before = [written.boundedBlocks(), loaded.boundedBlocks()];
    answer(written, text);
    answer(loaded, text);
    const [fromWritten, fromLoaded] = [written.boundedBlocks(), loaded.boundedBlocks()].map((after, i) => ({
      decoded: after.decoded - before[i].decoded, skipped: after.skipped - before[i].skipped,
    }));
    expect(fromLoaded, text).toEqual(fromWritten);
  }
  expect(loaded.boundedBlocks().skipped).toBeGreaterThan(0);
}

describe('skip entries beside the posting lists', () => {
  const docs = rareAndBroad(5, 20000);

  it('decode a bounded word within its candidates as decoding every posting does', async () => {
    await expectBoundedAlike(() => build(docs, { attributes: ATTRIBUTES }));
  });

  it('are rebuilt where compaction rewrites the lists', async () => {
    const rnd = prng(9);
    const removed = docs.map(() => rnd() < 0.3);
    await expectBoundedAlike(() => {
      const core = build(docs, { attributes: ATTRIBUTES });
      removed.forEach((gone, id) => { if (gone) core.removeDocument(id); });
      compactAll(core);
      // appended after the rewrite: entries noted from where the rebuilt ones end
      core.addDocuments(docs.slice(0, 2000).map((doc, i) => ({ id: docs.length + i, segments: segmentsOf(doc) })));
      return core;
    });
  });

  const load = async (bytes: Buffer) => {
    const loaded = new CoreIndex();
    loaded.setAttributes(ATTRIBUTES.map((a) => ({ ...a, unordered: false })));
    expect(await loaded.importSnapshot([bytes])).toBe(true);
    return loaded;
  };

  it('are rebuilt when a snapshot is read', async () => {
    const written = build(docs, { attributes: ATTRIBUTES });
    const bytes = Buffer.concat(await written.exportSnapshot());
    await expectBoundedAlike(() => load(bytes));
  });

  // answers are the same without skip entries, only slower: the blocks jumped over show they are there
  it('let a loaded index jump over the blocks the written one jumps over', async () => {
    const written = build(docs, { attributes: ATTRIBUTES });
    expectSameBlocks(written, await load(Buffer.concat(await written.exportSnapshot())));
  });

  it('are noted anew after compaction rewrites the lists, as a snapshot read rebuilds them', async () => {
    const written = build(docs, { attributes: ATTRIBUTES });
    const rnd = prng(5);
    docs.forEach((_, id) => { if (rnd() < 0.3) written.removeDocument(id); });
    compactAll(written);
    written.addDocuments(docs.slice(0, 4000).map((doc, i) => ({ id: docs.length + i, segments: segmentsOf(doc) })));
    expectSameBlocks(written, await load(Buffer.concat(await written.exportSnapshot())));
  });

  // a filler word is in most records: its candidates leave no 128 records without one, so no block could be jumped over
  it('are not looked up where the candidates leave no block to jump over', () => {
    const core = build(docs, { attributes: ATTRIBUTES });
    const text = 'alpha sigma';
    const before = core.boundedBlocks();
    const bounded = answer(core, text, { typoMode: 'off' });
    const after = core.boundedBlocks();
    // sigma, in 3% of the records, has a list of many blocks, decoded straight through as one
    expect({ decoded: after.decoded - before.decoded, skipped: after.skipped - before.skipped }).toEqual({ decoded: 1, skipped: 0 });
    expect(bounded).toEqual(answer(core, text, { typoMode: 'off', boundLastWord: false }));
  });
});
