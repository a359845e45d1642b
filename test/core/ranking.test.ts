// Ranking criteria of the core on hand-built records. In every test the
// record expected first has the higher id, so the id tie-break alone can't
// produce the expected order; a run without the criterion shows the tie.
//
// Properties:
// 1.  typo: fewer typos first, summed over the query words;
// 2.  words: every hit matches every query word; with optional words, more
//     matched words first, light words (stop words once relaxed) counted
//     after every other word;
// 3.  proximity: closer query words first, the distance capped at 8, words in
//     other attributes or array elements 8 apart, query order before reversed,
//     minProximity making closer distances equal; pairs are consecutive
//     *matched* words (an optional word a record lacks, or an excluded word,
//     does not break them), also when large ranges are ranked lazily;
// 4.  attribute: the best-ranked matching attribute first, then the earlier
//     first match (array elements counted), unordered attributes ignoring the
//     position, attributes sharing a rank equal;
// 5.  exact: a whole word before a prefix or a typo; exactOnSingleWordQuery's
//     three modes for single words, none of them for several;
// 6.  custom (rank slot 0): lower rank first, after the textual criteria by
//     default, new ranks replacing old ones;
// 7.  asc()/desc() slots: sorted by the slot, independent of slot 0;
// 8.  criteria order: the first listed criterion breaks ties first;
// 9.  top-k and nbHits: pages stitched give one big page's order, offsets
//     past the end and length 0 give the full count, nbHits exact through
//     removals and compaction;
// 10. on seeded random records, the default criteria give the order a direct
//     computation gives;
// 11. pages of large candidate sets listed in part;
// 12. a record's scan reads the same whatever its terms' ids take in bytes
//     (one to three: the ids follow the order terms were first met).
import { beforeAll, describe, expect, it } from 'vitest';
import { sortCriterion } from '../../src/core/abi.js';
import { CRITERION, DEFAULT_CRITERIA, build, compactAll, ids, ready, search, type Doc } from './helpers.js';
import { prng } from '../support/random.js';

beforeAll(ready);

const { typo, words, proximity, attribute, exact, custom } = CRITERION;

describe('typo', () => {
  it('fewer typos first', () => {
    const core = build(['horse', 'house']);
    expect(ids(core, 'house', { queryType: 'prefixNone', criteria: [typo] })).toEqual([1, 0]);
    expect(ids(core, 'house', { queryType: 'prefixNone', criteria: [] })).toEqual([0, 1]);
  });

  it('sums typos over the query words', () => {
    const core = build(['hoise moose', 'hoise mouse', 'house mouse']);
    const result = search(core, 'house mouse', { queryType: 'prefixNone', criteria: [typo] });
    expect(result.hits.map((h) => [h.id, h.typos])).toEqual([[2, 0], [1, 1], [0, 2]]);
  });
});

describe('words', () => {
  it('every hit matches every query word (no optional words yet)', () => {
    const core = build(['alpha beta gamma', 'alpha beta', 'gamma beta alpha']);
    const result = search(core, 'alpha beta', { criteria: [words] });
    expect(result.hits.map((h) => h.id)).toEqual([0, 1, 2]);
    for (const hit of result.hits) expect(hit.words).toBe(2);
  });
});

describe('words with light words (stop words once relaxed)', () => {
  const optional = { queryType: 'prefixNone' as const, optionalWords: 0b11, criteria: [words] };

  it('a light word counts after every other: the content word first', () => {
    // without light words both records match one word and tie (ids decide)
    const core = build(['skiathos island', 'the pas']);
    expect(ids(core, 'skiathos the', optional)).toEqual([0, 1]);
    expect(ids(core, 'the skiathos', optional)).toEqual([0, 1]);
    expect(ids(core, 'the skiathos', { ...optional, lightWords: 0b01 })).toEqual([0, 1]);
    const reversed = build(['the pas', 'skiathos island']);
    expect(ids(reversed, 'the skiathos', optional)).toEqual([0, 1]);
    expect(ids(reversed, 'the skiathos', { ...optional, lightWords: 0b01 })).toEqual([1, 0]);
  });

  it('light words still break ties between records matching the same content words', () => {
    const core = build(['skiathos', 'the skiathos airport', 'the pas']);
    const result = search(core, 'the skiathos', { ...optional, lightWords: 0b01 });
    expect(result.hits.map((h) => [h.id, h.words])).toEqual([[1, 2], [0, 1], [2, 1]]);
  });

  it('one more content word outweighs every light word', () => {
    const core = build(['of the and alpha', 'alpha beta']);
    const q = { queryType: 'prefixNone' as const, optionalWords: 0b11111, criteria: [words] };
    expect(ids(core, 'of the and alpha beta', q)).toEqual([0, 1]);
    expect(ids(core, 'of the and alpha beta', { ...q, lightWords: 0b00111 })).toEqual([1, 0]);
  });
});

describe('proximity', () => {
  it('closer query words first', () => {
    const core = build(['alpha one two three four beta', 'alpha one beta', 'alpha beta']);
    const result = search(core, 'alpha beta', { queryType: 'prefixNone', criteria: [proximity] });
    expect(result.hits.map((h) => [h.id, h.proximity])).toEqual([[2, 1], [1, 2], [0, 5]]);
  });

  it('the distance is capped at 8', () => {
    const far = `alpha ${'x '.repeat(20)}beta`;
    const farther = `alpha ${'x '.repeat(40)}beta`;
    const core = build([far, farther]);
    const result = search(core, 'alpha beta', { queryType: 'prefixNone', criteria: [proximity] });
    expect(result.hits.map((h) => h.proximity)).toEqual([8, 8]);
  });

  it('words in different attributes, or in different array elements, count as 8 apart', () => {
    const core = build([['alpha', 'beta'], [['alpha', 'beta']], ['alpha beta']]);
    const result = search(core, 'alpha beta', { queryType: 'prefixNone', criteria: [proximity] });
    expect(result.hits.map((h) => [h.id, h.proximity])).toEqual([[2, 1], [0, 8], [1, 8]]);
  });

  it('sums over consecutive query words', () => {
    const core = build(['a1 x a2 x x a3', 'a1 a2 a3']);
    const result = search(core, 'a1 a2 a3', { queryType: 'prefixNone', criteria: [proximity] });
    expect(result.hits.map((h) => [h.id, h.proximity])).toEqual([[1, 2], [0, 5]]);
  });

  it('words in query order rank before the same words reversed', () => {
    const core = build(['beta alpha', 'alpha beta']);
    const result = search(core, 'alpha beta', { queryType: 'prefixNone', criteria: [proximity] });
    expect(result.hits.map((h) => h.id)).toEqual([1, 0]);
    expect(result.hits[1].proximity).toBeGreaterThan(result.hits[0].proximity);
  });

  it('takes the closest occurrence of a pair', () => {
    const core = build(['alpha x x x beta x alpha beta']);
    expect(search(core, 'alpha beta', { queryType: 'prefixNone' }).hits[0].proximity).toBe(1);
  });

  it('minProximity makes closer distances equal', () => {
    const core = build(['alpha one two beta', 'alpha one beta', 'alpha beta']);
    const result = search(core, 'alpha beta', { queryType: 'prefixNone', criteria: [proximity], minProximity: 3 });
    expect(result.hits.map((h) => [h.id, h.proximity])).toEqual([[0, 3], [1, 3], [2, 3]]);
  });
});

describe('proximity over consecutive matched words', () => {
  const allOptional = (n: number) => (1 << n) - 1;

  it('an optional word the record lacks does not count: "barbara and block"', () => {
    // record 1 matches barbara, block side by side: one pair at 1; record 0 matches
    // and, block reversed two apart: one pair at 3 (before: 16 and 11, wrong way round)
    const core = build(['block party and more', 'barbara block']);
    const result = search(core, 'barbara and block', { queryType: 'prefixNone', optionalWords: allOptional(3) });
    expect(result.hits.map((h) => [h.id, h.words, h.proximity])).toEqual([[1, 2, 1], [0, 2, 3]]);
  });

  it('sums over the chain of matched words, skipping each missing one', () => {
    const core = build(['a1 a3 x x a5', 'a1 x a2 a3 a4 a5']);
    const result = search(core, 'a1 a2 a3 a4 a5', { queryType: 'prefixNone', optionalWords: allOptional(5), criteria: [proximity] });
    // record 0: a1-a3 1, a3-a5 3 = 4; record 1: 2 + 1 + 1 + 1 = 5
    expect(result.hits.map((h) => [h.id, h.proximity])).toEqual([[0, 4], [1, 5]]);
  });

  it('a record matching one word of several has no pair: proximity 0', () => {
    const core = build(['alpha', 'alpha x beta']);
    const result = search(core, 'alpha beta', { queryType: 'prefixNone', optionalWords: allOptional(2), criteria: [proximity] });
    expect(result.hits.map((h) => [h.id, h.proximity])).toEqual([[0, 0], [1, 2]]);
  });

  it('an excluded word between two words does not break their pair', () => {
    const core = build(['alpha x x x beta', 'alpha beta']);
    const result = search(core, 'alpha gamma beta', { queryType: 'prefixNone', excludedWords: 0b010, criteria: [proximity] });
    expect(result.hits.map((h) => [h.id, h.proximity])).toEqual([[1, 1], [0, 4]]);
  });

  it('with every word required, the same sums as consecutive query words', () => {
    const core = build(['a1 x a2 x x a3', 'a1 a2 a3']);
    const result = search(core, 'a1 a2 a3', { queryType: 'prefixNone', criteria: [proximity] });
    expect(result.hits.map((h) => [h.id, h.proximity])).toEqual([[1, 2], [0, 5]]);
  });

  it('large ranges ranked lazily give the order computed on every record', () => {
    // 3 query words, all optional: records match 1, 2 or 3 of them at various distances
    const rnd = prng(77);
    const pool = ['alpha', 'beta', 'gamma', 'x', 'y', 'z', 'w'];
    const docs = Array.from({ length: 2400 }, () => Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => pool[Math.floor(rnd() * pool.length)]).join(' '));
    const core = build(docs);
    for (const criteria of [[words, proximity], [proximity], [proximity, words]]) {
      const q = { queryType: 'prefixNone' as const, typoMode: 'off' as const, optionalWords: allOptional(3), criteria };
      const all = search(core, 'alpha beta gamma', { ...q, length: 3000 }).hits.map((h) => [h.id, h.words, h.proximity]);
      expect(all.length).toBeGreaterThan(1500);
      for (const [offset, length] of [[0, 10], [40, 20]]) {
        const page = search(core, 'alpha beta gamma', { ...q, offset, length }).hits.map((h) => [h.id, h.words, h.proximity]);
        expect(page, `${criteria} @${offset}`).toEqual(all.slice(offset, offset + length));
      }
    }
  });
});

describe('attribute', () => {
  it('the best-ranked matching attribute first', () => {
    const core = build([['zzz', 'target'], ['target', 'zzz']]);
    const result = search(core, 'target', { criteria: [attribute] });
    expect(result.hits.map((h) => [h.id, h.attributeRank])).toEqual([[1, 0], [0, 1]]);
    expect(ids(core, 'target', { criteria: [] })).toEqual([0, 1]);
  });

  it('within an attribute, an earlier first match first', () => {
    const core = build(['one two three target', 'one target', 'target']);
    const result = search(core, 'target', { criteria: [attribute] });
    expect(result.hits.map((h) => [h.id, h.attributePosition])).toEqual([[2, 0], [1, 1], [0, 3]]);
  });

  it('the position counts array elements', () => {
    const core = build([[['one', 'two target']], [['target', 'two']]]);
    const result = search(core, 'target', { criteria: [attribute] });
    expect(result.hits.map((h) => h.id)).toEqual([1, 0]);
    expect(result.hits[1].attributePosition).toBeGreaterThan(result.hits[0].attributePosition);
  });

  it('an unordered attribute ignores the position', () => {
    const docs = ['one two three target', 'target'];
    const ordered = build(docs, { attributes: [{ rank: 0, unordered: false }] });
    expect(ids(ordered, 'target', { criteria: [attribute] })).toEqual([1, 0]);
    const unordered = build(docs, { attributes: [{ rank: 0, unordered: true }] });
    const result = search(unordered, 'target', { criteria: [attribute] });
    expect(result.hits.map((h) => [h.id, h.attributePosition])).toEqual([[0, 0], [1, 0]]);
  });

  it('an unordered attribute still ranks by attribute', () => {
    const core = build([['zzz', 'target'], ['zzz zzz target', 'zzz']], {
      attributes: [{ rank: 0, unordered: true }, { rank: 1, unordered: false }],
    });
    expect(ids(core, 'target', { criteria: [attribute] })).toEqual([1, 0]);
  });

  it('"a,b": attributes sharing a rank are equal', () => {
    const docs: Array<Array<string>> = [['zzz', 'target', 'zzz'], ['target', 'zzz', 'zzz'], ['zzz', 'zzz', 'target']];
    const core = build(docs, { attributes: [{ rank: 0 }, { rank: 0 }, { rank: 1 }] });
    const result = search(core, 'target', { criteria: [attribute] });
    expect(result.hits.map((h) => [h.id, h.attributeRank])).toEqual([[0, 0], [1, 0], [2, 1]]);
  });

  it('the best attribute over all the query words', () => {
    const core = build([['alpha', 'beta'], ['beta', 'alpha']]);
    const result = search(core, 'alpha beta', { queryType: 'prefixNone', criteria: [attribute] });
    expect(result.hits.map((h) => h.attributeRank)).toEqual([0, 0]);
  });
});

describe('exact', () => {
  it('an exact word before a prefix match', () => {
    const core = build(['graphics theory', 'graph theory']);
    const result = search(core, 'theory graph', { criteria: [exact] });
    expect(result.hits.map((h) => [h.id, h.exactWords])).toEqual([[1, 2], [0, 1]]);
  });

  it('an exact word before a typo match', () => {
    const core = build(['grapf theory', 'graph theory']);
    const result = search(core, 'graph theory', { criteria: [exact] });
    expect(result.hits.map((h) => [h.id, h.exactWords])).toEqual([[1, 2], [0, 1]]);
  });

  it('exactOnSingleWordQuery=word: the word matched whole', () => {
    const core = build(['graphics', 'graph theory']);
    const result = search(core, 'graph', { criteria: [exact], exactOnSingleWordQuery: 'word' });
    expect(result.hits.map((h) => [h.id, h.exactWords])).toEqual([[1, 1], [0, 0]]);
  });

  it('exactOnSingleWordQuery=attribute: the whole attribute value is the word', () => {
    const core = build([['graph theory'], ['graphics'], ['zzz', 'Graph!']]);
    const result = search(core, 'graph', { criteria: [exact], exactOnSingleWordQuery: 'attribute' });
    expect(result.hits.map((h) => [h.id, h.exactWords])).toEqual([[2, 1], [0, 0], [1, 0]]);
  });

  it('exactOnSingleWordQuery=attribute: one array element is an attribute value', () => {
    const core = build([[['graph theory', 'zzz']], [['zzz', 'graph']]]);
    const result = search(core, 'graph', { criteria: [exact], exactOnSingleWordQuery: 'attribute' });
    expect(result.hits.map((h) => [h.id, h.exactWords])).toEqual([[1, 1], [0, 0]]);
  });

  it('exactOnSingleWordQuery=none: the criterion is off for single words', () => {
    const core = build(['graphics', 'graph']);
    const result = search(core, 'graph', { criteria: [exact], exactOnSingleWordQuery: 'none' });
    expect(result.hits.map((h) => [h.id, h.exactWords])).toEqual([[0, 0], [1, 0]]);
  });

  it('disableExactOnAttributes: a whole word there counts as no exact match', () => {
    const core = build([['graph theory', 'x'], ['x', 'graph theory'], ['graphics theory', 'x']]);
    expect(ids(core, 'theory graph', { criteria: [exact] })).toEqual([0, 1, 2]);
    const result = search(core, 'theory graph', { criteria: [exact], noExactAttributes: [0] });
    expect(result.hits.map((h) => [h.id, h.exactWords])).toEqual([[1, 2], [0, 0], [2, 0]]);
  });

  it('ties every candidate when none matches a word whole, and only then', () => {
    // typo'd and prefix words match nothing exactly: the order is the custom ranking's
    const core = build(['grape theorem', 'grape theorem x', 'grapf theories', 'grapf theorem']);
    core.setRanks(0, Int32Array.from([3, 1, 4, 2]));
    expect(ids(core, 'grapz theor', { criteria: [exact, custom] })).toEqual([1, 3, 0, 2]);
    // the first word whole in two records, the prefix in none
    const first = search(core, 'grape theor', { criteria: [exact, custom] });
    expect(first.hits.map((h) => [h.id, h.exactWords])).toEqual([[1, 1], [0, 1], [3, 0], [2, 0]]);
  });

  it('exactOnSingleWordQuery does not change multi-word queries', () => {
    const core = build(['graphics theory', 'graph theory']);
    for (const mode of ['none', 'attribute', 'word'] as const) {
      expect(ids(core, 'theory graph', { criteria: [exact], exactOnSingleWordQuery: mode })).toEqual([1, 0]);
    }
  });
});

describe('custom (rank slot 0)', () => {
  it('lower rank first', () => {
    const core = build(['apple', 'apple', 'apple']);
    core.setRanks(0, Int32Array.from([2, 0, 1]));
    const result = search(core, 'apple', { criteria: [custom] });
    expect(result.hits.map((h) => [h.id, h.customRank])).toEqual([[1, 0], [2, 1], [0, 2]]);
  });

  it('comes after the textual criteria in the default order', () => {
    const core = build(['apple', 'aple']);
    core.setRanks(0, Int32Array.from([5, 0]));
    expect(ids(core, 'apple', { queryType: 'prefixNone' })).toEqual([0, 1]);
    expect(ids(core, 'apple', { queryType: 'prefixNone', criteria: [custom, typo] })).toEqual([1, 0]);
  });

  it('new ranks replace the old ones', () => {
    const core = build(['apple', 'apple']);
    core.setRanks(0, Int32Array.from([1, 0]));
    expect(ids(core, 'apple', { criteria: [custom] })).toEqual([1, 0]);
    core.setRanks(0, Int32Array.from([0, 1]));
    expect(ids(core, 'apple', { criteria: [custom] })).toEqual([0, 1]);
  });
});

describe('asc()/desc() sort slots (code 16 + slot)', () => {
  it('sorts by the slot, ahead of relevance when listed first', () => {
    const core = build(['apple', 'aple', 'apple']);
    core.setRanks(1, Int32Array.from([2, 0, 1]));
    core.setRanks(2, Int32Array.from([0, 2, 1]));
    expect(ids(core, 'apple', { queryType: 'prefixNone', criteria: [sortCriterion(1), ...DEFAULT_CRITERIA] })).toEqual([1, 2, 0]);
    expect(ids(core, 'apple', { queryType: 'prefixNone', criteria: [sortCriterion(2), ...DEFAULT_CRITERIA] })).toEqual([0, 2, 1]);
    expect(ids(core, 'apple', { queryType: 'prefixNone', criteria: [...DEFAULT_CRITERIA, sortCriterion(1)] })).toEqual([2, 0, 1]);
  });

  it('slots are independent of the custom slot', () => {
    const core = build(['apple', 'apple', 'apple']);
    core.setRanks(0, Int32Array.from([0, 1, 2]));
    core.setRanks(7, Int32Array.from([2, 1, 0]));
    expect(ids(core, 'apple', { criteria: [custom] })).toEqual([0, 1, 2]);
    expect(ids(core, 'apple', { criteria: [sortCriterion(7)] })).toEqual([2, 1, 0]);
  });
});

describe('criteria order', () => {
  // record 0: exact words far apart; record 1: one typo, adjacent words
  const docs = ['alpha one two three four five beta', 'alpha bzta'];

  it('decides which criterion breaks the tie first', () => {
    const core = build(docs);
    const q = { queryType: 'prefixNone' as const };
    expect(ids(core, 'alpha beta', { ...q, criteria: [typo, proximity] })).toEqual([0, 1]);
    expect(ids(core, 'alpha beta', { ...q, criteria: [proximity, typo] })).toEqual([1, 0]);
  });

  it('attribute before exact, and exact before attribute', () => {
    const core = build([['zzz', 'graph'], ['graphics', 'zzz']]);
    const q = { exactOnSingleWordQuery: 'word' as const };
    expect(ids(core, 'graph', { ...q, criteria: [attribute, exact] })).toEqual([1, 0]);
    expect(ids(core, 'graph', { ...q, criteria: [exact, attribute] })).toEqual([0, 1]);
  });
});

describe('top-k selection and nbHits', () => {
  function bigIndex(n: number) {
    const docs = Array.from({ length: n }, (_, i) => `common w${i % 7} ${i % 3 === 0 ? 'near common' : 'x x x x'} item${i}`);
    const core = build(docs);
    // ranks with many ties, in a scrambled order
    core.setRanks(0, Int32Array.from({ length: n }, (_, i) => (i * 37) % 11));
    return core;
  }

  it('pages of any size, stitched together, give the order of one big page', () => {
    const core = bigIndex(500);
    const all = search(core, 'common', { length: 500 });
    expect(all.nbHits).toBe(500);
    expect(all.hits.length).toBe(500);
    for (const size of [1, 7, 20, 64]) {
      const stitched: number[] = [];
      for (let offset = 0; offset < 500; offset += size) {
        const page = search(core, 'common', { offset, length: size });
        expect(page.nbHits).toBe(500);
        stitched.push(...page.hits.map((h) => h.id));
      }
      expect(stitched).toEqual(all.hits.map((h) => h.id));
    }
  });

  it('the big page is sorted by the criteria (custom rank, then id)', () => {
    const core = bigIndex(200);
    const hits = search(core, 'common', { length: 200, criteria: [custom] }).hits;
    for (let i = 1; i < hits.length; i++) {
      const [a, b] = [hits[i - 1], hits[i]];
      expect(a.customRank < b.customRank || (a.customRank === b.customRank && a.id < b.id)).toBe(true);
    }
  });

  it('an offset past the end returns no hits but the full count', () => {
    const core = bigIndex(50);
    const result = search(core, 'common', { offset: 60, length: 10 });
    expect(result.hits).toEqual([]);
    expect(result.nbHits).toBe(50);
    const partial = search(core, 'common', { offset: 45, length: 10 });
    expect(partial.hits.length).toBe(5);
  });

  it('length 0 returns no hits but the full count', () => {
    const core = bigIndex(50);
    const result = search(core, 'common', { offset: 0, length: 0 });
    expect(result.hits).toEqual([]);
    expect(result.nbHits).toBe(50);
  });

  it('nbHits is exact when records are removed', () => {
    const core = build(Array.from({ length: 40 }, (_, i) => `apple ${i}`));
    for (const id of [0, 5, 17, 39]) core.removeDocument(id);
    core.removeDocument(5); // twice: no effect
    core.removeDocument(1000); // unknown: no effect
    const result = search(core, 'apple', { length: 100 });
    expect(result.nbHits).toBe(36);
    expect(core.liveCount).toBe(36);
    const found = result.hits.map((h) => h.id);
    for (const id of [0, 5, 17, 39]) expect(found).not.toContain(id);
    expect(search(core, '17', { typoMode: 'off', queryType: 'prefixNone' }).nbHits).toBe(0);
    expect(search(core, '', { length: 100 }).nbHits).toBe(36);
  });

  it('nbHits stays exact after compaction', () => {
    const core = build(Array.from({ length: 40 }, (_, i) => `apple ${i}`));
    for (let id = 0; id < 40; id += 2) core.removeDocument(id);
    compactAll(core, 16);
    const result = search(core, 'apple', { length: 100 });
    expect(result.nbHits).toBe(20);
    expect(result.hits.every((h) => h.id % 2 === 1)).toBe(true);
    core.addDocuments([{ id: 40, segments: [{ attribute: 0, text: 'apple forty' }] }]);
    expect(search(core, 'apple', { length: 100 }).nbHits).toBe(21);
    expect(search(core, 'forty').hits.map((h) => h.id)).toEqual([40]);
  });

  it('records added in several batches are all searchable', () => {
    const core = build(['apple 0']);
    core.addDocuments(Array.from({ length: 100 }, (_, i) => ({ id: i + 1, segments: [{ attribute: 0, text: `apple ${i + 1}` }] })));
    expect(search(core, 'apple', { length: 0 }).nbHits).toBe(101);
    expect(ids(core, '57', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([57]);
  });
});

describe('ranking agrees with a direct computation (seeded random records)', () => {
  let rnd = prng(77);
  const pick = <T,>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const VOCABULARY = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  const phrase = (max: number) => Array.from({ length: 1 + Math.floor(rnd() * max) }, () => pick(VOCABULARY)).join(' ');

  // attribute 0: a title (rank 0), 1: an array of short values (rank 1, unordered), 2: a body (rank 1)
  const ATTRIBUTES = [{ rank: 0, unordered: false }, { rank: 1, unordered: true }, { rank: 1, unordered: false }];
  type Rec = [string, string[], string];
  const makeRecords = (n: number): Rec[] => Array.from({ length: n }, () => [phrase(4), Array.from({ length: Math.floor(rnd() * 3) }, () => phrase(2)), phrase(12)]);
  const records = makeRecords(300);
  const customRanks = Int32Array.from(records, () => Math.floor(rnd() * 20));

  /** Tokens with their attribute and position, as the core lays them out (array elements 8 apart). */
  function layout(record: Rec): Array<{ word: string; attribute: number; position: number; segment: number }> {
    const out: Array<{ word: string; attribute: number; position: number; segment: number }> = [];
    let segment = 0;
    [[record[0]], record[1], [record[2]]].forEach((values, attribute) => {
      let last = -8; // the next element starts 8 positions after the previous element's last word
      values.forEach((value, i) => {
        const start = i === 0 ? 0 : last + 8;
        const words = value.split(' ');
        words.forEach((word, k) => out.push({ word, attribute, position: start + k, segment }));
        last = start + words.length - 1;
        segment++;
      });
    });
    return out;
  }

  interface Expected { id: number; proximity: number; attributeRank: number; attributePosition: number; exactWords: number; customRank: number }

  function expectedHits(queryWords: string[], minProximity: number, records: Rec[], customRanks: Int32Array): Expected[] {
    const hits: Expected[] = [];
    for (let id = 0; id < records.length; id++) {
      const tokens = layout(records[id]);
      if (!queryWords.every((w) => tokens.some((t) => t.word === w))) continue;
      let proximity = 0;
      for (let w = 0; w + 1 < queryWords.length; w++) {
        let best = 8;
        for (const a of tokens.filter((t) => t.word === queryWords[w])) {
          for (const b of tokens.filter((t) => t.word === queryWords[w + 1] && t.attribute === a.attribute)) {
            const d = b.position > a.position ? b.position - a.position : a.position - b.position + 1;
            best = Math.min(best, Math.min(8, Math.max(minProximity, d)));
          }
        }
        proximity += best;
      }
      let attributeRank = Infinity;
      let attributePosition = Infinity;
      for (const t of tokens.filter((x) => queryWords.includes(x.word))) {
        const rank = ATTRIBUTES[t.attribute].rank;
        const position = ATTRIBUTES[t.attribute].unordered ? 0 : t.position;
        if (rank < attributeRank || (rank === attributeRank && position < attributePosition)) [attributeRank, attributePosition] = [rank, position];
      }
      let exactWords = queryWords.length;
      if (queryWords.length === 1) {
        const segments = new Map<number, string[]>();
        for (const t of tokens) segments.set(t.segment, [...(segments.get(t.segment) ?? []), t.word]);
        exactWords = [...segments.values()].some((s) => s.length === 1 && s[0] === queryWords[0]) ? 1 : 0;
      }
      hits.push({ id, proximity: queryWords.length > 1 ? proximity : 0, attributeRank, attributePosition, exactWords, customRank: customRanks[id] });
    }
    const key = (h: Expected) => [h.proximity, h.attributeRank, h.attributePosition, queryWords.length - h.exactWords, h.customRank, h.id];
    return hits.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
      return 0;
    });
  }

  it('layout: array elements are 8 positions apart', () => {
    expect(layout(['a b', ['c d', 'e'], 'f']).map((t) => [t.word, t.attribute, t.position])).toEqual([
      ['a', 0, 0], ['b', 0, 1], ['c', 1, 0], ['d', 1, 1], ['e', 1, 9], ['f', 2, 0],
    ]);
  });

  for (const minProximity of [1, 3]) {
    it(`the default criteria order the hits as computed (minProximity ${minProximity})`, () => {
      const core = build(records, { attributes: ATTRIBUTES });
      core.setRanks(0, customRanks);
      const queries = [
        ...VOCABULARY.map((w) => [w]),
        ...Array.from({ length: 40 }, () => [pick(VOCABULARY), pick(VOCABULARY)]),
        ...Array.from({ length: 20 }, () => [pick(VOCABULARY), pick(VOCABULARY), pick(VOCABULARY)]),
      ].filter((q) => new Set(q).size === q.length);
      let compared = 0;
      for (const words of queries) {
        const result = search(core, words.join(' '), { queryType: 'prefixNone', typoMode: 'off', minProximity, length: 1000 });
        const want = expectedHits(words, minProximity, records, customRanks);
        expect(result.nbHits, words.join(' ')).toBe(want.length);
        expect(result.hits.map((h) => ({ id: h.id, proximity: h.proximity, attributeRank: h.attributeRank, attributePosition: h.attributePosition, exactWords: h.exactWords, customRank: h.customRank })), words.join(' ')).toEqual(want);
        compared += want.length;
      }
      expect(compared).toBeGreaterThan(1000);
    });
  }

  it('pages of large candidate sets (ranked lazily by proximity) are the pages of the computed order', () => {
    rnd = prng(2024);
    const many = makeRecords(3000);
    const ranks = Int32Array.from(many, () => Math.floor(rnd() * 1000));
    const core = build(many, { attributes: ATTRIBUTES });
    core.setRanks(0, ranks);
    const queries = Array.from({ length: 30 }, () => [pick(VOCABULARY), pick(VOCABULARY)]).filter((q) => q[0] !== q[1]);
    let largeSets = 0;
    for (const words of queries) {
      const want = expectedHits(words, 1, many, ranks);
      if (want.length >= 1000) largeSets++;
      for (const [offset, length] of [[0, 10], [20, 10], [0, 50]]) {
        const result = search(core, words.join(' '), { queryType: 'prefixNone', typoMode: 'off', offset, length });
        expect(result.nbHits).toBe(want.length);
        expect(result.hits.map((h) => ({ id: h.id, proximity: h.proximity, attributeRank: h.attributeRank, attributePosition: h.attributePosition, exactWords: h.exactWords, customRank: h.customRank })), `${words.join(' ')} @${offset}`)
          .toEqual(want.slice(offset, offset + length));
      }
    }
    expect(largeSets).toBeGreaterThan(10);
  });
});

describe('pages of large candidate sets listed in part', () => {
  // many records match each query with and without typos; a small page is
  // ranked from the typo-free candidates alone; a page as long as every hit
  // is ranked from all of them: both must agree
  let seed = 31;
  const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
  const WORDS = ['house', 'horse', 'mouse', 'hose', 'houses', 'housing', 'hour', 'hours', 'home', 'homes', 'garden', 'window'];
  const docs = Array.from({ length: 2500 }, () => Array.from({ length: 2 + Math.floor(rnd() * 6) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' '));
  const ranks = Int32Array.from(docs, () => Math.floor(rnd() * 1000));

  it('a page is the slice of the whole ranking', () => {
    const core = build(docs);
    core.setRanks(0, ranks);
    for (const text of ['hous', 'house', 'hose', 'horse', 'home hous', 'garden hose', 'hours']) {
      const all = search(core, text, { length: 5000 });
      expect(all.nbHits, text).toBeGreaterThan(100);
      expect(new Set(all.hits.map((h) => h.typos)).size, `${text}: typo and typo-free hits`).toBeGreaterThan(1);
      for (const [offset, length] of [[0, 10], [15, 10], [0, 40]]) {
        const page = search(core, text, { offset, length });
        expect(page.nbHits, text).toBe(all.nbHits);
        expect(page.hits, `${text} @${offset}`).toEqual(all.hits.slice(offset, offset + length));
      }
    }
  });

  it('a page ranked from the candidates with one typo at most is the slice of the whole ranking', () => {
    // "hoise" matches "hoise" with no typo (a few records, fewer than a page), "house", "horse"
    // and "hose" with one, "moise" with two (a first-letter typo counts two); "hoyse" matches
    // none with no typo, "moyse" with two: a small page lies among the records with one typo
    // at most, a page as long as every hit ranks them all
    const ONE_TYPO = ['house', 'horse', 'hose', 'garden', 'window', 'moise', 'moyse'];
    const docs = Array.from({ length: 3000 }, (_, i) => {
      const words = Array.from({ length: 2 + Math.floor(rnd() * 6) }, () => ONE_TYPO[Math.floor(rnd() * ONE_TYPO.length)]);
      if (i % 500 === 7) words.splice(Math.floor(rnd() * words.length), 0, 'hoise');
      return words.join(' ');
    });
    const core = build(docs);
    core.setRanks(0, Int32Array.from(docs, () => Math.floor(rnd() * 1000)));
    const cases = [
      { text: 'hoise', fewest: 0 }, { text: 'hoise garden', fewest: 0 }, { text: 'garden hoise', fewest: 0 },
      { text: 'hoyse', fewest: 1 }, { text: 'hoyse window', fewest: 1 }, { text: 'window hoyse', fewest: 1 },
    ];
    const slices = (text: string) => {
      const all = search(core, text, { length: 5000 });
      for (const [offset, length] of [[0, 10], [15, 10], [0, 40]]) {
        const page = search(core, text, { offset, length });
        expect(page.nbHits, text).toBe(all.nbHits);
        expect(page.hits, `${text} @${offset}`).toEqual(all.hits.slice(offset, offset + length));
      }
      return all.hits.map((h) => h.typos);
    };
    for (const { text, fewest } of cases) {
      const typos = slices(text);
      expect(typos.filter((t) => t === 0).length, `${text}: typo-free hits, fewer than a page`).toBeLessThan(10);
      expect(Math.min(...typos), text).toBe(fewest);
      expect(typos.filter((t) => t === 1).length, `${text}: one-typo hits`).toBeGreaterThan(40);
      expect(typos.filter((t) => t >= 2).length, `${text}: hits with two typos or more`).toBeGreaterThan(40);
    }
    // one typo in each of two words is two: the few records with one typo in all come first
    const twoWords = slices('hoise gardan');
    expect(twoWords.filter((t) => t === 0)).toEqual([]);
    expect(twoWords.filter((t) => t === 1).length).toBeLessThan(10);
    expect(twoWords.filter((t) => t === 2).length).toBeGreaterThan(40);
  });

  it('single words over 4096+ records: a page ranked from the best attribute keys alone is the slice of the whole ranking', () => {
    // the word at positions 0-7 in turn; a deep page needs keys past the best one
    const many = Array.from({ length: 10000 }, (_, i) => [...Array.from({ length: i % 8 }, (_, k) => WORDS[(i + k) % 4 + 8]), 'house', 'window'].join(' '));
    const core = build(many);
    core.setRanks(0, Int32Array.from(many, () => Math.floor(rnd() * 100000)));
    const all = search(core, 'house', { length: 10000 });
    expect(all.nbHits).toBe(10000);
    for (const [offset, length] of [[0, 10], [1240, 20], [2000, 10]]) {
      const page = search(core, 'house', { offset, length });
      expect(page.nbHits).toBe(10000);
      expect(page.hits, `@${offset}`).toEqual(all.hits.slice(offset, offset + length));
    }
    expect(all.hits[2000].attributePosition).toBe(1);
  });
});

describe('forward lists whose term ids take one, two or three bytes', () => {
  // the same records, indexed after 20,000 other terms among which the query
  // words first come at ids of one, two and three bytes (the fillers' take
  // one to three), and indexed before them (every query word's id one byte)
  const fillers = Array.from({ length: 20_000 }, (_, i) => `f${i.toString(36)}`);
  const rnd = prng(20261127);
  const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)];
  const words = ['alpha', 'beta', 'gamma', 'betamax'];
  const value = () => Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => (rnd() < 0.3 ? pick(words) : pick(fillers))).join(' ');
  const docs: Doc[] = Array.from({ length: 300 }, () => [value(), value()]);
  const firstMet = new Map([[100, 'alpha'], [10_000, 'beta'], [16_500, 'gamma'], [19_999, 'betamax']]);
  const fillerDoc: Doc = [fillers.map((f, i) => (firstMet.has(i) ? `${firstMet.get(i)} ${f}` : f)).join(' '), ''];

  it('proximity, attribute and exact read alike', () => {
    const after = build([fillerDoc, ...docs]);
    const before = build([...docs, fillerDoc]);
    for (const text of ['alpha beta', 'gamma alpha bet', 'alpah gamma']) {
      const keys = (core: typeof after, first: number) => search(core, text, { criteria: DEFAULT_CRITERIA })
        .hits.filter((h) => h.id >= first && h.id < first + docs.length)
        .map((h) => [h.id - first, h.typos, h.words, h.proximity, h.attributeRank, h.attributePosition, h.exactWords].join(' '))
        .sort();
      const read = keys(after, 1);
      expect(read.length).toBeGreaterThan(50);
      expect(read).toEqual(keys(before, 0));
    }
  });
});
