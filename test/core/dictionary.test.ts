// The term dictionary under many distinct words, as a list of place names
// brings (nearly every word new, sharing short prefixes).
//
// Properties:
// 1. every distinct folded word is one term, however many words share its
//    prefixes: a word indexed again, in any record, is the same term;
// 2. each word finds its records, exactly, as a prefix and with a typo;
// 3. records with sparse ids added after the dictionary grew (memory freed
//    by grown vectors reused) are the only live ones: a new record's slots
//    start empty.
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { prng } from '../support/random.js';
import { ids, ready } from './helpers.js';

beforeAll(ready);

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `count` distinct words of 5-9 letters over a few first letters, so their prefixes are shared. */
function words(count: number, seed: number): string[] {
  const random = prng(seed);
  const out = new Set<string>();
  while (out.size < count) {
    let word = LETTERS[Math.floor(random() * 4)];
    const length = 5 + Math.floor(random() * 5);
    while (word.length < length) word += LETTERS[Math.floor(random() * 26)];
    out.add(word);
  }
  return [...out];
}

function fresh(): CoreIndex {
  const core = new CoreIndex();
  core.setAttributes([{ rank: 0, unordered: false }]);
  return core;
}

describe('term dictionary', () => {
  const vocabulary = words(6000, 7);
  // each record two words: its own and the next one's, so every word is in two records
  const names = vocabulary.map((word, i) => `${word} ${vocabulary[(i + 1) % vocabulary.length]}`);
  let core: CoreIndex;
  beforeAll(() => {
    core = fresh();
    for (let at = 0; at < names.length; at += 250) {
      core.addDocuments(names.slice(at, at + 250).map((text, i) => ({ id: at + i, segments: [{ attribute: 0, text }] })));
    }
  });

  it('holds each distinct word once', () => {
    expect(core.termCount).toBe(vocabulary.length);
  });

  it('finds every word\'s records, whole, as a prefix and with a typo', () => {
    for (let i = 0; i < vocabulary.length; i += 7) {
      const word = vocabulary[i];
      const records = [(i + vocabulary.length - 1) % vocabulary.length, i].sort((a, b) => a - b);
      expect(ids(core, word, { queryType: 'prefixNone', typoMode: 'off' }).sort((a, b) => a - b), word).toEqual(records);
      expect(ids(core, word.slice(0, -1), { typoMode: 'off' }), word).toEqual(expect.arrayContaining(records));
      const typo = word.slice(0, 2) + word[3] + word[2] + word.slice(4);
      expect(ids(core, typo, { queryType: 'prefixNone' }), typo).toEqual(expect.arrayContaining(records));
    }
  });

  it('starts records with sparse ids empty in memory grown vectors left', () => {
    const sparse = [9000, 20000, 45000, 70001];
    core.addDocuments(sparse.map((id) => ({ id, segments: [{ attribute: 0, text: `zzsparse ${vocabulary[0]}` }] })));
    expect(ids(core, 'zzsparse', { typoMode: 'off' }).sort((a, b) => a - b)).toEqual(sparse);
    expect(ids(core, vocabulary[0], { queryType: 'prefixNone', typoMode: 'off' }).sort((a, b) => a - b))
      .toEqual([0, vocabulary.length - 1, ...sparse]);
  });
});
