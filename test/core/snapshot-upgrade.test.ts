// A core snapshot of version 2 (attribute keys in postings stored as
// rank << 10 | position; test/fixtures/core-snapshot-v2.bin, written by that
// version from the records below) loads, its postings rebuilt in the current
// layout, and searches exactly like an index built from the same records.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { query, ready } from './helpers.js';

beforeAll(ready);

// attribute ids 0-2 with ranks 0, 1 (unordered) and 9 (a rank past the one-byte key layout)
const ATTRIBUTES = [{ rank: 0, unordered: false }, { rank: 1, unordered: true }, { rank: 9, unordered: false }];
const RECORDS: Array<Array<[number, string]>> = [
  [[0, 'Alpha beta gamma'], [1, 'delta alpha epsilon']],
  [[0, 'beta alpha'], [2, 'gamma']],
  [[1, 'alpha alpha beta'], [2, 'alphabet']],
  [[0, 'removed alpha']],
  [[0, 'gamma delta'], [1, 'beta'], [2, 'alpha']],
  [[0, 'epsilon'], [2, 'alpha beta']],
];
const REMOVED = 3;
const RANKS = Int32Array.from(RECORDS, (_, i) => (i * 7) % 5);

function fresh(): CoreIndex {
  const core = new CoreIndex();
  core.setAttributes(ATTRIBUTES);
  return core;
}

describe('core snapshot version 2', () => {
  it('loads and searches like the same records indexed now', async () => {
    const upgraded = fresh();
    expect(await upgraded.importSnapshot(readFileSync(new URL('../fixtures/core-snapshot-v2.bin', import.meta.url)))).toBe(true);
    const built = fresh();
    built.addDocuments(RECORDS.map((segments, id) => ({ id, segments: segments.map(([attribute, text]) => ({ attribute, text })) })));
    built.removeDocument(REMOVED);
    built.setRanks(0, RANKS);
    expect(upgraded.liveCount).toBe(RECORDS.length - 1);
    for (const text of ['alpha', 'alp', 'beta', 'gamma', 'alpha beta', 'beta alpha', 'gamma delta', 'epsilon alp', 'alphabet', 'removed']) {
      const got = upgraded.search(query(text));
      expect(got, text).toEqual(built.search(query(text)));
      expect(got.hits.every((h) => h.id !== REMOVED), text).toBe(true);
    }
    // the attribute ranks came through: 'gamma' is best in record 4's title, record 1's rank-9 attribute last
    expect(upgraded.search(query('gamma', { queryType: 'prefixNone' })).hits.map((h) => [h.id, h.attributeRank])).toEqual([[4, 0], [0, 0], [1, 9]]);
  });
});
