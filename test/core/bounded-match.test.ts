// A query's last word is matched within the other words' candidates when
// its terms' postings outweigh those candidates' forward lists (see
// assembly/bounded-match.ts). Whatever the corpus, the query and the
// options, every answer must be the one matching it over every record
// gives: the same hits in the same order with the same ranking figures, and
// the same words reported unmatched.
import { beforeAll, describe, expect, it } from 'vitest';
import { CRITERION, build, query, ready, segmentsOf, tokensOf, type Doc } from './helpers.js';
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
    // bounded first: the other way builds prefix-cache entries, which bounding then reads instead
    const fast = answer(core, query(text, options));
    const fastTokens = tokensOf(core, `${text} ${words.join(' ')}`);
    const slow = answer(core, query(text, { ...options, boundLastWord: false }));
    expect(fast, text).toEqual(slow);
    // the terms marked for highlighting are the same
    expect(fastTokens, text).toEqual(tokensOf(core, `${text} ${words.join(' ')}`));
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

  // A rare first word and a broad last one: the case bounding is for. The
  // rare words' few records hold "the..." words first in the title (the lead
  // place), later in it, in the body, or not at all ("okapi": no hit, and
  // the last word must still be reported as matching live records).
  it('answers alike where the rare word leaves few candidates, lead place and no hit included', () => {
    const rnd = prng(41);
    const broad = ['the', 'their', 'there', 'theory', 'thermal', 'these'];
    const filler = ['alpha', 'bravo', 'delta', 'echo', 'golf', 'hotel'];
    const pick = (from: string[]) => from[Math.floor(rnd() * from.length)];
    const text = (length: number, from: string[]) => Array.from({ length }, () => pick(from)).join(' ');
    const docs: Doc[] = Array.from({ length: 6000 }, () => [`${pick(broad)} ${text(3, [...broad, ...filler])}`, text(12, [...broad, ...filler])]);
    const rare = (word: string, i: number): Doc => {
      const place = i % 4;
      if (place === 0) return [`${pick(broad)} ${word} ${text(2, filler)}`, text(6, filler)];
      if (place === 1) return [`${word} ${text(2, filler)} ${pick(broad)}`, text(6, filler)];
      if (place === 2) return [`${word} ${text(3, filler)}`, `${text(4, filler)} ${pick(broad)}`];
      return [`${word} ${text(3, filler)}`, text(6, filler)];
    };
    for (let i = 0; i < 24; i++) docs.push(rare('zebra', i));
    for (let i = 0; i < 6; i++) docs.push([`okapi ${text(3, filler)}`, text(6, filler)]);
    const ranks = Int32Array.from({ length: docs.length }, () => Math.floor(rnd() * 1000));
    // a core of its own per query, bounded first: no prefix-cache entry an earlier answer built is read instead
    const fresh = () => {
      const core = build(docs, { attributes: [{ rank: 0 }, { rank: 1 }] });
      core.setRanks(0, ranks);
      return core;
    };
    for (const text of ['zebra t', 'zebra th', 'zebra the', 'zebra thei', 'zebrx ther', 'zebra theory', 'okapi th', 'okapi the']) {
      const core = fresh();
      const fast = answer(core, query(text, { length: 20 }));
      const slow = answer(core, query(text, { length: 20, boundLastWord: false }));
      expect(fast, text).toEqual(slow);
    }
    // the no-hit queries report no word unmatched: "the" matches records beyond okapi's
    expect(answer(fresh(), query('okapi th', { length: 20 }))).toMatchObject({ nbHits: 0, unmatched: 0 });
  });

  // "zebra" is light (24 records): decoded, not deferred, but within okapi's
  // 6 candidates, none of which holds it; the records beyond them must still
  // count for the words reported unmatched.
  it('reports a decoded last word as matching when its records are all beyond the candidates', () => {
    const rnd = prng(43);
    const filler = ['alpha', 'bravo', 'delta', 'echo', 'golf', 'hotel'];
    const text = (length: number) => Array.from({ length }, () => filler[Math.floor(rnd() * filler.length)]).join(' ');
    const docs: Doc[] = Array.from({ length: 3000 }, () => [text(4), text(12)]);
    for (let i = 0; i < 24; i++) docs.push([`zebra ${text(3)}`, text(6)]);
    for (let i = 0; i < 6; i++) docs.push([`okapi ${text(3)}`, text(6)]);
    for (const text of ['okapi zeb', 'okapi zebra', 'okapi zebrx']) {
      const core = build(docs, { attributes: [{ rank: 0 }, { rank: 1 }] });
      const fast = answer(core, query(text, { length: 20 }));
      expect(fast, text).toMatchObject({ nbHits: 0, unmatched: 0 });
      expect(fast, text).toEqual(answer(core, query(text, { length: 20, boundLastWord: false })));
    }
  });
  // The bound's pass leaves the other words' typo-free and one-typo records
  // for the candidates' typo buckets: "colour" matches "color" (one typo) and
  // "colur" (one, two with "colr"), and a page of typo-free candidates is
  // listed from the typo-free bucket alone, the typo criterion tied in it
  // (ranked by typo and custom rank only: no other criterion tells the
  // spellings apart).
  it('lists the typo buckets the other words\' typos leave', () => {
    const rnd = prng(47);
    const filler = ['bravo', 'delta', 'echo', 'golf', 'hotel'];
    const text = (length: number) => Array.from({ length }, () => filler[Math.floor(rnd() * filler.length)]).join(' ');
    const spellings = ['colour', 'color', 'colur', 'colr'];
    const docs: Doc[] = Array.from({ length: 4000 }, (_, i) => [`${spellings[i % 4]} ${text(2)} alpha${i % 3 === 0 ? 'bet' : ''}`, text(8)]);
    // the typo'd spellings rank first: a bucket holding them ranks them first too
    const ranks = Int32Array.from({ length: docs.length }, (_, i) => (i % 4 === 0 ? 0 : 1000 + (i % 97)));
    const criteria = [CRITERION.typo, CRITERION.custom];
    for (const text of ['colour alp', 'colour alphab', 'colr alp', 'colur alpha', 'color alph']) {
      for (const length of [20, 400, 1200]) {
        const core = build(docs, { attributes: [{ rank: 0 }, { rank: 1 }] });
        core.setRanks(0, ranks);
        const fast = answer(core, query(text, { length, criteria }));
        expect(fast, text).toEqual(answer(core, query(text, { length, criteria, boundLastWord: false })));
      }
    }
  });
});
