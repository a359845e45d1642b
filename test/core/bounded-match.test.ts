// A query's last word is matched within the other words' candidates when
// its terms' postings outweigh those candidates' forward lists (see
// assembly/bounded-match.ts). Whatever the corpus, the query and the
// options, every answer must be the one matching it over every record
// gives: the same hits in the same order with the same ranking figures, and
// the same words reported unmatched.
import { beforeAll, describe, expect, it } from 'vitest';
import { build, query, ready, segmentsOf, tokensOf, type Doc } from './helpers.js';
import type { CoreIndex, CoreQuery } from '../../src/core/core-index.js';
import { prng } from '../support/random.js';

beforeAll(ready);

/** A vocabulary with a few very frequent words and many rare ones (Zipf-like), sharing prefixes. */
function vocabulary(rnd: () => number): string[] {
  const stems = ['the', 'thei', 'tra', 'sta', 'con', 'pro', 'desi', 'bare', 'scie', 'coll', 'wor', 'cha'];
  const endings = ['', 'r', 'rs', 'n', 'nce', 'ng', 'nged', 'gner', 'foot', 'nce', 'ided', 'ld', 'ms', 'ir', 'ttle'];
  const words = new Set<string>();
  for (const stem of stems) for (const ending of endings) if (rnd() < 0.6) words.add(stem + ending);
  return [...words];
}

function corpus(seed: number, count: number): { docs: Doc[]; words: string[]; rnd: () => number } {
  const rnd = prng(seed);
  const words = vocabulary(rnd);
  // frequent words first: index drawn as floor(n * r^3)
  const pick = () => words[Math.floor(words.length * rnd() ** 3)];
  const text = (length: number) => Array.from({ length }, pick).join(' ');
  const docs: Doc[] = Array.from({ length: count }, () => [text(2 + Math.floor(rnd() * 5)), text(5 + Math.floor(rnd() * 20))]);
  return { docs, words, rnd };
}

/** A word as typed: sometimes with a typo (an inner letter replaced), sometimes cut to a prefix. */
function typed(word: string, rnd: () => number, last: boolean): string {
  let out = word;
  if (out.length >= 5 && rnd() < 0.4) {
    const at = 1 + Math.floor(rnd() * (out.length - 2));
    out = `${out.slice(0, at)}${out[at] === 'x' ? 'y' : 'x'}${out.slice(at + 1)}`;
  }
  if (last && out.length > 3 && rnd() < 0.6) out = out.slice(0, 2 + Math.floor(rnd() * (out.length - 2)));
  return out;
}

/** The answer and the words reported unmatched after it. */
function answer(core: CoreIndex, q: CoreQuery): unknown {
  const result = core.search(q);
  return { ...result, unmatched: core.unmatchedWords() };
}

/** Compares `queries` random queries answered both ways; returns how many had hits. */
function compareAll(core: CoreIndex, words: string[], rnd: () => number, queries: number, extra: Partial<CoreQuery> = {}): number {
  let withHits = 0;
  for (let n = 0; n < queries; n++) {
    const length = 2 + Math.floor(rnd() * 2);
    const picked = Array.from({ length }, (_, i) => typed(words[Math.floor(rnd() * words.length)], rnd, i === length - 1));
    const text = picked.join(' ');
    const options: Partial<CoreQuery> = { length: 20, offset: rnd() < 0.2 ? 20 : 0, typoMode: (['on', 'min', 'strict'] as const)[Math.floor(rnd() * 3)], ...extra };
    const slow = answer(core, query(text, { ...options, boundLastWord: false }));
    const slowTokens = tokensOf(core, `${text} ${words.join(' ')}`);
    const fast = answer(core, query(text, options));
    expect(fast, text).toEqual(slow);
    // the terms marked for highlighting are the same
    expect(tokensOf(core, `${text} ${words.join(' ')}`), text).toEqual(slowTokens);
    if ((slow as { nbHits: number }).nbHits > 0) withHits++;
  }
  return withHits;
}

describe('the last word bounded by the other words\' candidates', () => {
  it('answers as matching it over every record does, ranking figures and unmatched words included', () => {
    for (const seed of [1, 2, 3]) {
      const { docs, words, rnd } = corpus(seed, 3000);
      const core = build(docs, { attributes: [{ rank: 0 }, { rank: 1 }] });
      core.setRanks(0, Int32Array.from({ length: docs.length }, () => Math.floor(rnd() * 1000)));
      expect(compareAll(core, words, rnd, 150)).toBeGreaterThan(20);
    }
  });

  it('answers alike after removals and with a filter', () => {
    const { docs, words, rnd } = corpus(7, 4000);
    const core = build(docs, { attributes: [{ rank: 0 }, { rank: 0, unordered: true }] });
    for (let id = 0; id < docs.length; id += 7) core.removeDocument(id);
    // records re-added under new ids: the old ids' postings stay as tombstones
    core.addDocuments(docs.slice(0, 300).map((doc, i) => ({ id: docs.length + i, segments: segmentsOf(doc) })));
    const filter = new Uint32Array(Math.ceil((docs.length + 300) / 32)).map(() => Math.floor(rnd() * 0xffffffff) >>> 0);
    compareAll(core, words, rnd, 150);
    compareAll(core, words, rnd, 150, { filter });
  });
});
