// Typo tolerance of the core: Damerau-Levenshtein distance with a budget by
// word length, first-letter typos costing two, typo modes, numeric tokens and
// prefix matching.
//
// Properties:
// 1. a transposition, substitution, insertion or deletion is one typo; an
//    exact match none;
// 2. the budget follows the query word's folded length: none under 4
//    letters, one under 8, two from 8 (the thresholds are parameters);
// 3. a typo on the first letter counts two and raises the word's budget by
//    one: a word allowing one typo matches with its first letter wrong
//    (counted two), one allowing two with its first letter wrong and one
//    more typo (counted three);
// 4. typo modes: on (within the budget), off (exact only), min (the fewest
//    typos found), strict (the two lowest counts);
// 5. allowTyposOnNumericTokens: false keeps numbers exact, not words holding
//    digits, and still allows prefixes of numbers;
// 6. query types: prefixLast, prefixAll, prefixNone; a prefix match counts no
//    typo and is not exact, a prefix may carry a typo, a term reachable both
//    ways counts the fewest typos;
// 7. on seeded random words, the trie walk (and, for whole words under
//    another first letter, its lookup) finds what a direct computation
//    finds, for every mode;
// 8. an index that never held a record finds nothing, first and next time.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex, type CoreQuery } from '../../src/core/core-index.js';
import { CRITERION, build, ids, query, ready, search } from './helpers.js';
import { prng } from '../support/random.js';

beforeAll(ready);

const whole: Partial<CoreQuery> = { queryType: 'prefixNone' };

/** Typos of the single hit of `q` on a one-record index holding `word`, or null when it does not match. */
function typosFor(word: string, q: string, overrides: Partial<CoreQuery> = {}): number | null {
  const core = build([word]);
  const result = search(core, q, { ...whole, ...overrides });
  return result.hits.length ? result.hits[0].typos : null;
}

describe('Damerau-Levenshtein distance', () => {
  it('a transposition of two adjacent letters is one typo', () => {
    expect(typosFor('giver', 'gvier')).toBe(1);
    expect(typosFor('house', 'hosue')).toBe(1);
    expect(typosFor('elephant', 'elehpant')).toBe(1);
  });

  it('substitution, insertion and deletion are one typo each', () => {
    expect(typosFor('house', 'hoise')).toBe(1);
    expect(typosFor('house', 'houses')).toBe(1);
    expect(typosFor('house', 'hose')).toBe(1);
  });

  it('two edits on a word of 8+ letters count two typos', () => {
    expect(typosFor('elephant', 'elepbbnt')).toBe(2);
    expect(typosFor('elephant', 'eelphnat')).toBe(2); // two transpositions
  });

  it('no typo for an exact match', () => {
    expect(typosFor('giver', 'giver')).toBe(0);
  });

  // The walk finds a unit's columns in the word through a table indexed by
  // the unit below 128 and a hashed one above, where β and т, γ and у, δ
  // and ф share a slot.
  it('letters past the first 128 units, sharing the hashed table, count as Latin letters do', () => {
    const word = 'βγδεтуф';
    expect(typosFor(word, word)).toBe(0);
    expect(typosFor(word, 'βγδεтжф')).toBe(1);
    expect(typosFor(word, 'βγδтεуф')).toBe(1);
    expect(typosFor(word, 'βγδεуф')).toBe(1);
    expect(typosFor(word, 'βγфεтуф')).toBe(1);
    expect(typosFor(word, 'тγδεтуф')).toBe(2);
    expect(typosFor(word, 'βγδεтж')).toBeNull();
    expect(typosFor(word, 'βγдεтжф')).toBeNull();
    expect(typosFor(word, 'βγδεт', { queryType: 'prefixLast' })).toBe(0);
  });
});

describe('length thresholds (minWordSizefor1Typo 4, minWordSizefor2Typos 8)', () => {
  it('a word of 3 letters allows no typo', () => {
    expect(typosFor('cat', 'cat')).toBe(0);
    expect(typosFor('cat', 'cot')).toBeNull();
    expect(typosFor('cat', 'cta')).toBeNull();
  });

  it('words of 4 to 7 letters allow one typo, not two', () => {
    expect(typosFor('cart', 'cbrt')).toBe(1);
    expect(typosFor('cart', 'cbst')).toBeNull();
    expect(typosFor('example', 'exbmple')).toBe(1);
    expect(typosFor('example', 'exbmqle')).toBeNull();
  });

  it('words of 8+ letters allow two typos, not three', () => {
    expect(typosFor('elephant', 'elephbnt')).toBe(1);
    expect(typosFor('elephant', 'elepbbnt')).toBe(2);
    expect(typosFor('elephant', 'elbpbbnt')).toBeNull();
  });

  // A row is held as 64-bit sets of the word's columns: a word of 64
  // letters, the longest token, fills them (its whole-word column is the
  // last bit, shifted out of the next row), one of 63 leaves one bit free.
  it('the longest words match with two typos, the second near their end, not three', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    for (const n of [63, 64]) {
      const word = Array.from({ length: n }, (_, i) => letters[(i * 7) % 26]).join('');
      const substitute = (w: string, i: number) => w.slice(0, i) + (w[i] === 'z' ? 'y' : 'z') + w.slice(i + 1);
      const transpose = (w: string, i: number) => w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
      expect(typosFor(word, substitute(substitute(word, 5), n - 3)), `${n} letters`).toBe(2);
      expect(typosFor(word, transpose(substitute(word, 5), n - 2)), `${n} letters`).toBe(2);
      expect(typosFor(word, substitute(word, 5) + 'q'), `${n} letters`).toBe(n < 64 ? 2 : 1);
      expect(typosFor(word, substitute(substitute(substitute(word, 5), 30), n - 3)), `${n} letters`).toBeNull();
    }
  });

  it('the thresholds are parameters', () => {
    expect(typosFor('cat', 'cot', { minWordSizefor1Typo: 3 })).toBe(1);
    expect(typosFor('cart', 'cbst', { minWordSizefor2Typos: 4 })).toBe(2);
    expect(typosFor('example', 'exbmple', { minWordSizefor1Typo: 8, minWordSizefor2Typos: 9 })).toBeNull();
  });

  it('the budget follows the query word, measured after folding', () => {
    // "straße" folds to "strasse" (7 units): one typo allowed.
    expect(typosFor('strasse', 'straße')).toBe(0);
    expect(typosFor('strassa', 'straße')).toBe(1);
  });
});

// A whole word allowed a typo is walked under its own first letter only;
// the terms starting otherwise are looked up by their units after the first
// (assembly/first-letter-typos.ts), within one deletion: long words, runs
// of one letter, and each way a first letter goes wrong.
describe('whole words: their own first letter walked, the others looked up', () => {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const wordOf = (n: number) => Array.from({ length: n }, (_, i) => letters[(i * 7) % 26]).join('');
  const substitute = (w: string, i: number) => w.slice(0, i) + (w[i] === 'z' ? 'y' : 'z') + w.slice(i + 1);
  /** Each way a first letter goes wrong: substituted, a letter put before it, the first two swapped, deleted. */
  const wrongFirst = (w: string) => [substitute(w, 0), `q${w}`, w[1] + w[0] + w.slice(2), w.slice(1)];

  it('a word allowed two typos: each way its first letter goes wrong, and one more typo (three), not two more', () => {
    for (const n of [8, 13, 20]) {
      const typed = wordOf(n);
      for (const term of wrongFirst(typed)) {
        expect(typosFor(term, typed), `"${term}" for "${typed}"`).toBe(2);
        expect(typosFor(substitute(term, term.length - 2), typed), `"${term}" and one more`).toBe(3);
        expect(typosFor(substitute(substitute(term, term.length - 2), term.length - 5), typed), `"${term}" and two more`).toBeNull();
      }
      // its first two letters deleted
      expect(typosFor(typed.slice(2), typed)).toBe(3);
    }
  });

  it('a word allowed one typo: each way its first letter goes wrong (two), not with one more', () => {
    const typed = wordOf(6);
    for (const term of wrongFirst(typed)) {
      expect(typosFor(term, typed), `"${term}" for "${typed}"`).toBe(2);
      expect(typosFor(substitute(term, term.length - 2), typed), `"${term}" and one more`).toBeNull();
    }
  });

  // Terms are listed for the lookup in steps (idle time, 2,048 a step; a search lists them when
  // 32 or fewer are left, and walks otherwise): an index listed whole answers as one whose searches walked.
  it('a dictionary listed in steps answers as one whose searches walked', () => {
    const rnd = prng(7);
    const word = () => Array.from({ length: 5 + Math.floor(rnd() * 6) }, () => 'abcdefgh'[Math.floor(rnd() * 8)]).join('');
    const words = [...new Set(Array.from({ length: 6000 }, word))];
    const queries = Array.from({ length: 12 }, () => substitute(words[Math.floor(rnd() * words.length)], 0));
    const searched = build(words);
    const listed = build(words);
    let steps = 1;
    while (!listed.listNewTerms()) steps++;
    expect(steps).toBe(Math.ceil(words.length / 2048));
    for (const q of queries) {
      const hits = (core: typeof searched) => search(core, q, { ...whole, criteria: [], length: 10000 }).hits.map((h) => [h.id, h.typos]).sort((a, b) => a[0] - b[0]);
      expect(hits(listed), `"${q}"`).toEqual(hits(searched));
    }
    expect(searched.listNewTerms()).toBe(false); // its searches listed none, and walked
  });

  it('on the TED talks, typo\'d words find with their terms listed what their searches found walking', () => {
    const talks = JSON.parse(readFileSync(new URL('../fixtures/talks.json', import.meta.url), 'utf8')) as Array<{ name: string }>;
    const titles = talks.map((t) => t.name);
    const walked = build(titles);
    const listed = build(titles);
    while (!listed.listNewTerms());
    const rnd = prng(11);
    const words = titles.flatMap((t) => t.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length >= 4);
    // a letter substituted, deleted or put in, at the first letter a third of the time
    const typo = (w: string) => {
      const i = Math.floor(rnd() * 3) === 0 ? 0 : 1 + Math.floor(rnd() * (w.length - 1));
      const kind = Math.floor(rnd() * 3);
      return kind === 0 ? substitute(w, i) : kind === 1 ? w.slice(0, i) + w.slice(i + 1) : `${w.slice(0, i)}x${w.slice(i)}`;
    };
    let typoMatches = 0;
    for (let q = 0; q < 120; q++) {
      const pick = () => typo(words[Math.floor(rnd() * words.length)]);
      const query = q % 2 === 0 ? pick() : `${pick()} ${pick()}`;
      for (const queryType of ['prefixNone', 'prefixLast'] as const) {
        const hits = (core: typeof walked) => search(core, query, { queryType, criteria: [], length: 10000 }).hits.map((h) => [h.id, h.typos]).sort((a, b) => a[0] - b[0]);
        const found = hits(walked);
        expect(hits(listed), `"${query}", ${queryType}`).toEqual(found);
        typoMatches += found.filter(([, typos]) => typos > 0).length;
      }
    }
    expect(typoMatches).toBeGreaterThan(200); // the queries exercise typo matches
    expect(walked.listNewTerms()).toBe(false); // its searches listed none, and walked
  });

  it('letters deleted within runs of one letter, under the word\'s first letter and another', () => {
    expect(typosFor('llama', 'lama')).toBe(1);
    expect(typosFor('bookkeeper', 'bokeeper')).toBe(2);
    expect(typosFor('zookkeeper', 'bookeeper')).toBe(3);
    expect(typosFor('zookkeeper', 'bookeper')).toBeNull();
  });
});

describe('a typo on the first letter counts two and raises the budget by one', () => {
  it('a word allowing one typo matches with its first letter wrong, counted two ("Tichael" finds "Michael")', () => {
    expect(typosFor('michael', 'tichael')).toBe(2);
    expect(typosFor('house', 'mouse')).toBe(2);
    expect(typosFor('house', 'ouse')).toBe(2); // first letter deleted
    expect(typosFor('house', 'ohuse')).toBe(2); // transposition of the first two letters
    expect(typosFor('house', 'hoise')).toBe(1); // same edit elsewhere: one typo
  });

  it('but not with its first letter wrong and one more typo, nor with two typos elsewhere', () => {
    expect(typosFor('house', 'moise')).toBeNull();
    expect(typosFor('house', 'hoxsx')).toBeNull();
  });

  it('a word allowing no typo gains none', () => {
    expect(typosFor('cat', 'bat')).toBeNull();
    expect(typosFor('cart', 'dart', { minWordSizefor1Typo: 5 })).toBeNull();
  });

  it('a word allowing two typos: its first letter wrong and one more typo, counted three', () => {
    expect(typosFor('mountain', 'fountain')).toBe(2);
    expect(typosFor('mountain', 'omuntain')).toBe(2);
    expect(typosFor('mountain', 'fountbin')).toBe(3);
    expect(typosFor('mountain', 'founbbin')).toBeNull();
    expect(typosFor('mountain', 'mounatin')).toBe(1);
    expect(typosFor('mountain', 'mounbbin')).toBe(2);
    expect(typosFor('mountain', 'mouxbbin')).toBeNull();
  });

  // crafted words of every length around the thresholds (4 and 8, then 5 and 7):
  // the budget the length gives, and the counts a first-letter typo adds
  const word = (n: number) => 'mountainside'.slice(0, n);
  const substituted = (w: string, i: number) => w.slice(0, i) + (w[i] === 'q' ? 'z' : 'q') + w.slice(i + 1);
  for (const [one, two] of [[4, 8], [5, 7]]) {
    for (let n = one - 1; n <= two + 1; n++) {
      const budget = n >= two ? 2 : n >= one ? 1 : 0;
      const w = word(n);
      const first = substituted(w, 0);
      const thresholds = { minWordSizefor1Typo: one, minWordSizefor2Typos: two };
      it(`${n} letters (typo sizes ${one}/${two}): first letter wrong ${budget ? 'counts 2' : 'refused'}, plus one more typo ${budget === 2 ? 'counts 3' : 'refused'}`, () => {
        expect(typosFor(w, first, thresholds)).toBe(budget > 0 ? 2 : null);
        // first letter dropped: the budget follows the query word, one letter shorter
        expect(typosFor(w, w.slice(1), thresholds)).toBe(n - 1 >= one ? 2 : null);
        expect(typosFor(w, substituted(first, n - 1), thresholds)).toBe(budget === 2 ? 3 : null);
        expect(typosFor(w, substituted(substituted(first, n - 1), n - 3), thresholds)).toBeNull();
        // the same typos away from the first letter count one each, within the length's own budget
        expect(typosFor(w, substituted(w, n - 1), thresholds)).toBe(budget > 0 ? 1 : null);
        expect(typosFor(w, substituted(substituted(w, n - 1), 1), thresholds)).toBe(budget === 2 ? 2 : null);
      });
    }
  }

  it('ranks by the count: an exact match, then one typo, two, three', () => {
    const result = search(build(['fountbin', 'mounbbin', 'mountain', 'mountbin']), 'mountain', { ...whole, criteria: [CRITERION.typo] });
    expect(result.hits.map((h) => [h.id, h.typos])).toEqual([[2, 0], [3, 1], [1, 2], [0, 3]]);
  });

  it('typoTolerance min and strict count the three', () => {
    const core = build(['fountbin', 'founbbin']);
    expect(search(core, 'mountain', { ...whole, typoMode: 'min' }).hits.map((h) => [h.id, h.typos])).toEqual([[0, 3]]);
  });
});

describe('typo modes', () => {
  // record 0: exact, 1: one typo, 2: two typos (for the query "elephant")
  const docs = ['elephant', 'elephbnt', 'elepbbnt', 'unrelated'];

  it('on: every match within the budget', () => {
    const result = search(build(docs), 'elephant', whole);
    expect(result.hits.map((h) => [h.id, h.typos])).toEqual([[0, 0], [1, 1], [2, 2]]);
    expect(result.nbHits).toBe(3);
  });

  it('off: exact words only', () => {
    const result = search(build(docs), 'elephant', { ...whole, typoMode: 'off' });
    expect(result.hits.map((h) => h.id)).toEqual([0]);
    expect(result.nbHits).toBe(1);
    expect(ids(build(['giver']), 'gvier', { ...whole, typoMode: 'off' })).toEqual([]);
  });

  it('min: only the records with the fewest typos', () => {
    const result = search(build(docs), 'elephant', { ...whole, typoMode: 'min' });
    expect(result.hits.map((h) => h.id)).toEqual([0]);
    expect(result.nbHits).toBe(1);
    // without an exact match, the 1-typo records are the best
    const noExact = search(build(docs.slice(1)), 'elephant', { ...whole, typoMode: 'min' });
    expect(noExact.hits.map((h) => h.id)).toEqual([0]);
    expect(noExact.hits[0].typos).toBe(1);
  });

  it('strict: the two lowest typo counts', () => {
    const result = search(build(docs), 'elephant', { ...whole, typoMode: 'strict' });
    expect(result.hits.map((h) => h.id)).toEqual([0, 1]);
    expect(result.nbHits).toBe(2);
  });
});

describe('allowTyposOnNumericTokens', () => {
  it('true: a number may match with a typo', () => {
    expect(typosFor('2019', '2018')).toBe(1);
  });

  it('false: numbers must match exactly', () => {
    expect(typosFor('2019', '2018', { allowTyposOnNumericTokens: false })).toBeNull();
    expect(typosFor('2019', '2019', { allowTyposOnNumericTokens: false })).toBe(0);
  });

  it('false still allows typos on words holding letters and digits', () => {
    expect(typosFor('mp3player', 'mp3playr', { allowTyposOnNumericTokens: false })).toBe(1);
  });

  it('false still allows prefix matching of numbers', () => {
    const core = build(['20191231']);
    expect(ids(core, '2019', { allowTyposOnNumericTokens: false })).toEqual([0]);
  });
});

describe('query types', () => {
  const docs = ['television set', 'telephone', 'garden party'];

  it('prefixLast: only the last word matches as a prefix', () => {
    const core = build(docs);
    expect(ids(core, 'tele')).toEqual([0, 1]);
    expect(ids(core, 'set tele')).toEqual([0]);
    expect(ids(core, 'tele set')).toEqual([]);
    expect(ids(core, 'television se')).toEqual([0]);
  });

  it('prefixAll: every word matches as a prefix', () => {
    const core = build(docs);
    expect(ids(core, 'tele se', { queryType: 'prefixAll' })).toEqual([0]);
    expect(ids(core, 'tele set', { queryType: 'prefixAll' })).toEqual([0]);
    expect(ids(core, 'televi', { queryType: 'prefixAll' })).toEqual([0]);
  });

  it('prefixNone: whole words only', () => {
    const core = build(docs);
    expect(ids(core, 'tele', { queryType: 'prefixNone' })).toEqual([]);
    expect(ids(core, 'television', { queryType: 'prefixNone' })).toEqual([0]);
    expect(ids(core, 'television se', { queryType: 'prefixNone' })).toEqual([]);
  });

  it('a prefix match counts no typo and is not exact', () => {
    const core = build(['television']);
    const [hit] = search(core, 'telev').hits;
    expect(hit.typos).toBe(0);
    expect(hit.exactWords).toBe(0);
    const [full] = search(core, 'television').hits;
    expect(full.exactWords).toBe(1);
  });

  it('a prefix may carry a typo, counted as such', () => {
    const core = build(['television', 'telescope']);
    const result = search(core, 'tekevi');
    expect(result.hits.map((h) => [h.id, h.typos])).toEqual([[0, 1]]);
    expect(search(core, 'tekevi', { queryType: 'prefixNone' }).hits).toEqual([]);
  });

  it('a prefix ranks an exact prefix before a prefix with a typo', () => {
    const core = build(['tekevision', 'television']);
    const result = search(core, 'telev');
    expect(result.hits.map((h) => [h.id, h.typos])).toEqual([[1, 0], [0, 1]]);
  });

  it('a term reachable as a prefix and as a word with a typo counts the fewest typos', () => {
    // "giver" is "give" + 1 insertion as a whole word, but a 0-typo prefix match
    const core = build(['giver']);
    expect(search(core, 'give').hits[0].typos).toBe(0);
    expect(search(core, 'give', { queryType: 'prefixNone' }).hits[0]?.typos).toBe(1);
  });
});

// Over four letters nearly every node has a child for each; over thirty
// units (digits 0-3 share their bit of the walk's character masks with
// p-s) most have a few, and the walk passes over the children its masks
// rule out (see matcher.ts, nextCharsMask).
describe.each([
  { alphabet: 'four letters', letters: 'abcd' },
  { alphabet: 'thirty units', letters: 'abcdefghijklmnopqrstuvwxyz0123' },
])('the trie walk agrees with a direct computation (seeded random words, $alphabet)', ({ letters }) => {
  /**
   * Optimal-string-alignment distance where every edit touching the first query letter costs 2,
   * from q to every prefix of t: result[k] = distance(q, t.slice(0, k)).
   */
  function reference(q: string, t: string): number[] {
    const d: number[][] = Array.from({ length: q.length + 1 }, () => new Array(t.length + 1).fill(0));
    for (let j = 1; j <= t.length; j++) d[0][j] = 2 * j;
    for (let i = 1; i <= q.length; i++) {
      const cost = i === 1 ? 2 : 1;
      d[i][0] = d[i - 1][0] + cost;
      for (let j = 1; j <= t.length; j++) {
        let v = Math.min(
          d[i - 1][j - 1] + (q[i - 1] === t[j - 1] ? 0 : cost),
          d[i - 1][j] + cost,
          d[i][j - 1] + 1,
        );
        if (i >= 2 && j >= 2 && q[i - 1] === t[j - 2] && q[i - 2] === t[j - 1]) v = Math.min(v, d[i - 2][j - 2] + (i === 2 ? 2 : 1));
        d[i][j] = v;
      }
    }
    return d[q.length];
  }


  const rnd = prng(20240611);
  const word = (min: number, max: number) => {
    const n = min + Math.floor(rnd() * (max - min + 1));
    let w = '';
    for (let i = 0; i < n; i++) w += letters[Math.floor(rnd() * letters.length)];
    return w;
  };
  const mutate = (w: string) => {
    const chars = w.split('');
    const edits = 1 + Math.floor(rnd() * 2);
    for (let e = 0; e < edits && chars.length > 1; e++) {
      const i = Math.floor(rnd() * chars.length);
      const kind = Math.floor(rnd() * 4);
      if (kind === 0) chars[i] = letters[Math.floor(rnd() * letters.length)];
      else if (kind === 1) chars.splice(i, 1);
      else if (kind === 2) chars.splice(i, 0, letters[Math.floor(rnd() * letters.length)]);
      else if (i + 1 < chars.length) [chars[i], chars[i + 1]] = [chars[i + 1], chars[i]];
    }
    return chars.join('');
  };
  const words = [...new Set(Array.from({ length: 400 }, () => word(1, 10)))];
  const queries = [
    ...Array.from({ length: 60 }, () => word(1, 10)),
    ...Array.from({ length: 140 }, () => mutate(words[Math.floor(rnd() * words.length)])),
  ].filter((q) => q.length > 0);
  const budget = (q: string) => (q.length >= 8 ? 2 : q.length >= 4 ? 1 : 0);
  /** The budget under a word: one more when its first letter differs from the query's (and the query allows a typo). */
  const allowance = (q: string, w: string) => budget(q) + (budget(q) > 0 && w[0] !== q[0] ? 1 : 0);

  function expected(q: string, prefix: boolean): Map<number, number> {
    const out = new Map<number, number>();
    words.forEach((w, id) => {
      const row = reference(q, w);
      const typos = prefix ? Math.min(...row.slice(1)) : row[w.length];
      if (typos <= allowance(q, w)) out.set(id, typos);
    });
    return out;
  }

  // a whole word's other first letters are walked until the terms are listed, then looked up (first-letter-typos.ts)
  for (const [mode, prefix, listed] of [['prefixNone', false, false], ['prefixNone', false, true], ['prefixLast', true, true]] as const) {
    it(`${mode}${listed ? ', terms listed' : ''}: same records, same typo counts, same highlighted tokens`, () => {
      const core = build(words);
      if (listed) while (!core.listNewTerms());
      let typoMatched = 0;
      let unscreened = 0;
      for (const q of queries) {
        const result = search(core, q, { queryType: mode, criteria: [], length: 1000 });
        const got = new Map(result.hits.map((h) => [h.id, h.typos]));
        const want = expected(q, prefix);
        expect([...got.entries()].sort((a, b) => a[0] - b[0]), `query "${q}"`).toEqual([...want.entries()].sort((a, b) => a[0] - b[0]));
        expect(result.nbHits).toBe(want.size);
        typoMatched += [...want.values()].filter((typos) => typos > 0).length;
        // highlighting marks exactly the words the search matched
        const tokens = core.highlight(words.join(' '));
        const marked = new Set<number>();
        for (let i = 0; i < tokens.length; i += 4) if (tokens[i + 2] !== 0) marked.add(i / 4);
        expect([...marked].sort((a, b) => a - b), `highlight of "${q}"`).toEqual([...want.keys()].sort((a, b) => a - b));
        // and so does a short text, which the core highlights without its filter of marked terms when they
        // outnumber a quarter of the text's units (the list above is long enough to be screened by it)
        const around = Math.max(0, Math.min(words.length - 3, ([...want.keys()][0] ?? 0) - 1));
        const window = words.slice(around, around + 3);
        if (want.size * 4 > window.join(' ').length) unscreened++;
        for (const indexed of [false, true]) {
          const short = core.highlight(window.join(' '), indexed);
          const shortMarked = window.map((_, i) => short[i * 4 + 2] !== 0);
          expect(shortMarked, `highlight of "${q}" in "${window.join(' ')}"`).toEqual(window.map((_, i) => want.has(around + i)));
        }
        // a token no record holds matches by the words' rules, unless the text is said to be indexed (each of its tokens a term)
        if (!words.includes(q)) {
          const text = `${window.join(' ')} ${q}`;
          expect(core.highlight(text, false)[3 * 4 + 2], `"${q}" in "${text}"`).not.toBe(0);
          expect(core.highlight(text, true)[3 * 4 + 2], `"${q}" in "${text}", indexed`).toBe(0);
        }
      }
      expect(typoMatched).toBeGreaterThan(queries.length / 4); // the sample exercises typo matches
      if (prefix) expect(unscreened).toBeGreaterThan(queries.length / 10); // short prefixes mark many terms: highlights without the filter
    });
  }
});

describe('alternatives on an index that never held a record', () => {
  it('find nothing, on the first search and the next (the term table is allocated at the first lookup)', () => {
    const core = new CoreIndex();
    core.setAttributes([{ rank: 0, unordered: false }]);
    const alternatives = [{ word: 0, text: 'flim', exact: false, typos: 2 }];
    expect(core.search(query('film', { alternatives })).nbHits).toBe(0);
    expect(core.search(query('film', { alternatives })).nbHits).toBe(0);
  });
});

// A word found inside a longer word (unspaced scripts: src/text/word-breaks.ts)
// is indexed with INNER_MARK as its last unit, a child of its own in the
// trie: the walk matches it as the word, typos included, never as exact.
describe('a word found inside a longer word', () => {
  const INNER = '\uFDD0';

  it('matches as the word would, with a typo or as a prefix, ranked after the word itself', () => {
    const core = build([`football ball${INNER}`, 'ball', 'other', `bell${INNER}`]);
    const exactHits = search(core, 'ball', whole).hits.map((h) => ({ id: h.id, typos: h.typos, exact: h.exactWords }));
    expect(exactHits).toEqual([{ id: 1, typos: 0, exact: 1 }, { id: 0, typos: 0, exact: 0 }, { id: 3, typos: 1, exact: 0 }]);
    expect(search(core, 'bsll', whole).hits.map((h) => [h.id, h.typos]).sort()).toEqual([[0, 1], [1, 1], [3, 1]]);
    expect(ids(core, 'bal').sort()).toEqual([0, 1]);
  });

  it('matches under another first letter as the word would: the typo counted two', () => {
    const core = build([`football ball${INNER}`, 'ball', 'other', `bell${INNER}`]);
    expect(search(core, 'wall', whole).hits.map((h) => [h.id, h.typos]).sort()).toEqual([[0, 2], [1, 2]]);
    expect(search(core, 'xbell', whole).hits.map((h) => [h.id, h.typos])).toEqual([[3, 2]]);
    // two typos allowed: the first letter's and one more, at the word's end, beside the mark
    const long = build([`elephant${INNER}`, 'other']);
    expect(search(long, 'xlephanr', whole).hits.map((h) => [h.id, h.typos])).toEqual([[0, 3]]);
  });
});
