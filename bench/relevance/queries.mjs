// Held-out queries for the relevance benchmark, drawn deterministically
// (seeded PRNG) from each corpus's titles: a record's title altered the way
// people mistype or half-remember it. The record it was built from (and any
// record with the same title) is what the query looks for. Nothing here is
// tuned to a library: the classes say what they alter, the seed picks the
// records, the words and the letters.
//
//   exact        the title as typed (lower case, punctuation dropped)
//   typo1        one word of 5+ letters with one typo (not on its first letter)
//   typo2        one word of 8+ letters with two typos (not on its first letter)
//   firstLetter  one word of 4+ letters with its first letter wrong
//   reordered    the title's words in another order (2+ words)
//   missing      one word left out (3+ words)
//   diacritics   the title's diacritics dropped, or one added where it has none
//   stopWord     a stop word inserted somewhere
// and, apart, titles typed keystroke by keystroke.
import { mulberry32, tokens } from '../corpus.mjs';

/**
 * @typedef {import('./corpora.mjs').RelevanceCorpus} RelevanceCorpus
 * @typedef {import('../corpus.mjs').Rng} Rng
 * @typedef {{ query: string, relevant: Set<string>, target: string }} RelevanceQuery
 * @typedef {(words: string[], rng: Rng, title: string) => string | null} Alteration
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const STOP_WORDS = ['the', 'a', 'of', 'and', 'in', 'for', 'with', 'to', 'on', 'at'];
const ACCENTED = /** @type {Record<string, string>} */ ({ a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü', c: 'ç', n: 'ñ' });

/** Lower case, diacritics removed. @type {(s: string) => string} */
export const fold = (s) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
/** @type {(rng: Rng, n: number) => number} */
const below = (rng, n) => Math.floor(rng() * n);

/**
 * Optimal-string-alignment distance (a transposition is one edit), to keep
 * only the typos that are the count a class says.
 * @param {string} a
 * @param {string} b
 */
export function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * One typo at `i`: a substitution, a transposition with the next letter, a deletion or an insertion.
 * @param {string} word
 * @param {number} i
 * @param {Rng} rng
 */
function typoAt(word, i, rng) {
  const letter = () => LETTERS[below(rng, LETTERS.length)];
  const kind = below(rng, 4);
  if (kind === 0) return word.slice(0, i) + letter() + word.slice(i + 1);
  if (kind === 1 && i + 1 < word.length) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  if (kind === 2) return word.slice(0, i) + word.slice(i + 1);
  return word.slice(0, i) + letter() + word.slice(i);
}

/**
 * `word` with `count` typos, none on its first letter; null when the draw
 * came out at another distance (two typos undoing each other).
 * @param {string} word
 * @param {number} count
 * @param {Rng} rng
 */
function typos(word, count, rng) {
  let out = word;
  for (let k = 0; k < count; k++) out = typoAt(out, 1 + below(rng, out.length - 1), rng);
  return out[0] === word[0] && editDistance(word, out) === count ? out : null;
}

/**
 * The title with one of its words (of plain letters, `eligible`) replaced by `alter(word)`.
 * @param {string[]} words
 * @param {Rng} rng
 * @param {(w: string) => boolean} eligible
 * @param {(w: string) => string | null} alter
 */
function alterOneWord(words, rng, eligible, alter) {
  const candidates = words.map((w, i) => i).filter((i) => /^[a-z]+$/.test(words[i]) && eligible(words[i]));
  if (candidates.length === 0) return null;
  const i = candidates[below(rng, candidates.length)];
  const altered = alter(words[i]);
  return altered === null ? null : [...words.slice(0, i), altered, ...words.slice(i + 1)].join(' ');
}

/** @type {(rng: Rng, word: string) => string} */
function otherFirstLetter(rng, word) {
  let c;
  do c = LETTERS[below(rng, LETTERS.length)]; while (c === word[0]);
  return c + word.slice(1);
}

/** @type {Record<string, Alteration>} */
export const CLASSES = {
  exact: (words) => words.join(' '),
  typo1: (words, rng) => alterOneWord(words, rng, (w) => w.length >= 5, (w) => typos(w, 1, rng)),
  typo2: (words, rng) => alterOneWord(words, rng, (w) => w.length >= 8, (w) => typos(w, 2, rng)),
  firstLetter: (words, rng) => alterOneWord(words, rng, (w) => w.length >= 4, (w) => otherFirstLetter(rng, w)),
  reordered(words, rng) {
    if (words.length < 2) return null;
    const shuffled = words.slice();
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = below(rng, i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    const query = shuffled.join(' ');
    return query === words.join(' ') ? [...words.slice(1), words[0]].join(' ') : query;
  },
  missing(words, rng) {
    if (words.length < 3) return null;
    const i = below(rng, words.length);
    return [...words.slice(0, i), ...words.slice(i + 1)].join(' ');
  },
  diacritics(words, rng) {
    const typed = words.join(' ');
    if (fold(typed) !== typed) return fold(typed);
    const places = [...typed].flatMap((c, i) => (ACCENTED[c] ? [i] : []));
    if (places.length === 0) return null;
    const i = places[below(rng, places.length)];
    return typed.slice(0, i) + ACCENTED[typed[i]] + typed.slice(i + 1);
  },
  stopWord(words, rng) {
    const i = below(rng, words.length + 1);
    return [...words.slice(0, i), STOP_WORDS[below(rng, STOP_WORDS.length)], ...words.slice(i)].join(' ');
  },
};

/** A seed per corpus and class, so that adding one leaves the others' queries as they were. @type {(seed: number, name: string) => number} */
function seedFor(seed, name) {
  let h = seed >>> 0;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x9e3779b1) >>> 0;
  return h;
}

/** Records of a corpus with a usable title, in a seeded order, and the records sharing each title. */
function titledRecords(/** @type {RelevanceCorpus} */ corpus, /** @type {Rng} */ rng) {
  /** @type {Map<string, Set<string>>} */
  const byTitle = new Map();
  const titled = corpus.records.flatMap((r) => {
    const words = tokens(corpus.title(r) ?? '');
    if (words.length === 0) return [];
    const key = fold(words.join(' '));
    byTitle.set(key, (byTitle.get(key) ?? new Set()).add(r.objectID));
    return [{ record: r, words, key }];
  });
  for (let i = titled.length - 1; i > 0; i--) {
    const j = below(rng, i + 1);
    [titled[i], titled[j]] = [titled[j], titled[i]];
  }
  return { titled, byTitle };
}

/**
 * `perClass` queries of each class from `corpus`, and `keystrokes` titles to type.
 * @param {RelevanceCorpus} corpus
 * @param {{ seed: number, perClass: number, keystrokes: number }} options
 */
export function relevanceQueries(corpus, { seed, perClass, keystrokes }) {
  /** @type {Record<string, RelevanceQuery[]>} */
  const classes = {};
  for (const [name, alter] of Object.entries(CLASSES)) {
    const rng = mulberry32(seedFor(seed, `${corpus.name}/${name}`));
    const { titled, byTitle } = titledRecords(corpus, rng);
    /** @type {RelevanceQuery[]} */
    const out = [];
    const seen = new Set();
    for (const { record, words, key } of titled) {
      if (out.length >= perClass) break;
      const query = alter(words, rng, corpus.title(record));
      if (query === null || seen.has(query)) continue;
      seen.add(query);
      out.push({ query, relevant: /** @type {Set<string>} */ (byTitle.get(key)), target: record.objectID });
    }
    classes[name] = out;
  }
  const rng = mulberry32(seedFor(seed, `${corpus.name}/keystrokes`));
  const { titled, byTitle } = titledRecords(corpus, rng);
  const typed = titled.slice(0, keystrokes).map(({ record, words, key }) => ({
    query: words.join(' '), relevant: /** @type {Set<string>} */ (byTitle.get(key)), target: record.objectID,
  }));
  return { classes, typed };
}
