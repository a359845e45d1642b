// A bounded last word's terms are decoded within the other words'
// candidates, jumping over the blocks of their posting lists that hold none
// (assembly/skip-entries.ts). The entries are derived: kept up as records
// are added, rebuilt when compaction rewrites a list and when a snapshot is
// read. Wherever they come from, every answer must be the one matching the
// last word over every record gives: the same hits, in the same order, with
// the same ranking figures (attribute keys and lead places included).
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex, type CoreQuery } from '../../src/core/core-index.js';
import { build, compactAll, query, ready, segmentsOf, type Doc } from './helpers.js';
import { prng } from '../support/random.js';

beforeAll(ready);

const ATTRIBUTES = [{ rank: 0 }, { rank: 1 }];
const FILLER = ['alpha', 'bravo', 'delta', 'echo', 'golf', 'hotel', 'india', 'juliet'];
/** Last words, each in a share of the records: long lists (kilobytes, many skip entries), too light to defer or cache. */
const BROAD: Array<[string, number]> = [['kappa', 0.2], ['lambda', 0.08], ['sigma', 0.03]];
/** First words: few records (the candidates), spread over the whole index. */
const RARE: Array<[string, number]> = [['okapi', 0.01], ['quagga', 0.003], ['ibex', 0.03]];

/** Records whose broad words sit in the lead place, later in the title, or in the body. */
function corpus(seed: number, count: number): Doc[] {
  const rnd = prng(seed);
  const pick = () => FILLER[Math.floor(rnd() * FILLER.length)];
  const words = (n: number) => Array.from({ length: n }, pick);
  return Array.from({ length: count }, (): Doc => {
    const title = words(3);
    const body = words(8);
    for (const [word, share] of [...BROAD, ...RARE]) {
      if (rnd() >= share) continue;
      const place = Math.floor(rnd() * 3);
      if (place === 0) title.unshift(word);
      else if (place === 1) title.push(word);
      else body.splice(Math.floor(rnd() * body.length), 0, word);
    }
    return [title.join(' '), body.join(' ')];
  });
}

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

describe('skip entries beside the posting lists', () => {
  const docs = corpus(5, 20000);

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

  it('are rebuilt when a snapshot is read', async () => {
    const written = build(docs, { attributes: ATTRIBUTES });
    const bytes = Buffer.concat(await written.exportSnapshot());
    await expectBoundedAlike(async () => {
      const loaded = new CoreIndex();
      loaded.setAttributes(ATTRIBUTES.map((a) => ({ ...a, unordered: false })));
      expect(await loaded.importSnapshot([bytes])).toBe(true);
      return loaded;
    });
  });
});
