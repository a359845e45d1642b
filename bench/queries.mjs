// Deterministic query sets drawn from a corpus (see corpus.mjs):
//   exact       single words of middle frequency
//   multi       2-3 consecutive words of one record's title
//   asYouType   every prefix of a 2-word title phrase ("g", "gi", ..., "giver ", "giver t", ...)
//   typo1       a 5-7 letter word with one inner letter substituted or two inner letters transposed
//   typo2       an 8+ letter word with two such edits
import { mulberry32, randInt, tokens } from './corpus.mjs';

/**
 * @typedef {import('./corpus.mjs').Corpus} Corpus
 * @typedef {import('./corpus.mjs').Rng} Rng
 * @typedef {typeof DEFAULT_COUNTS} QueryCounts
 * @typedef {ReturnType<typeof buildQueries>} QuerySets
 * @typedef {'exact' | 'multi' | 'asYouType' | 'typo1' | 'typo2'} Workload
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** @type {(w: string) => boolean} */
const isWord = (w) => /^\p{L}+$/u.test(w);

export const DEFAULT_COUNTS = { exact: 100, multi: 100, asYouType: 15, typo1: 100, typo2: 100 };

/**
 * Term frequencies over the searchable text of every record, most frequent first.
 * @param {Corpus} corpus
 */
export function termRanking(corpus) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const r of corpus.records) {
    for (const text of corpus.searchableText(r)) {
      if (typeof text !== 'string') continue;
      for (const w of tokens(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { ranked, counts };
}

/**
 * `count` items of `list` picked without repetition by `rng` (all of them if fewer).
 * @template T
 * @param {T[]} list
 * @param {number} count
 * @param {Rng} rng
 * @returns {T[]}
 */
function pick(list, count, rng) {
  const pool = list.slice();
  /** @type {T[]} */
  const out = [];
  while (out.length < count && pool.length > 0) {
    const i = Math.floor(rng() * pool.length);
    out.push(pool[i]);
    pool[i] = pool[pool.length - 1];
    pool.pop();
  }
  return out;
}

/**
 * @param {string} word
 * @param {number} i
 * @param {Rng} rng
 */
function substitute(word, i, rng) {
  let c;
  do c = LETTERS[Math.floor(rng() * LETTERS.length)]; while (c === word[i]);
  return word.slice(0, i) + c + word.slice(i + 1);
}

/**
 * @param {string} word
 * @param {number} i
 */
function transpose(word, i) {
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

/**
 * One edit at an inner position (neither the first nor the last letter), avoiding positions in `used`.
 * @param {string} word
 * @param {Rng} rng
 * @param {Set<number>} used
 */
function innerEdit(word, rng, used) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const i = 1 + Math.floor(rng() * (word.length - 2));
    if (used.has(i)) continue;
    if (rng() < 0.5 && i + 1 < word.length - 1 && !used.has(i + 1) && word[i] !== word[i + 1]) {
      used.add(i); used.add(i + 1);
      return transpose(word, i);
    }
    used.add(i);
    return substitute(word, i, rng);
  }
  return word;
}

/**
 * `count` typo'd words made from `words` with `edits` edits each, recording in `sources` the word each came from.
 * @param {string[]} words
 * @param {number} edits
 * @param {number} count
 * @param {Set<string>} known
 * @param {Rng} rng
 * @param {Record<string, string>} sources
 */
function typos(words, edits, count, known, rng, sources) {
  /** @type {string[]} */
  const out = [];
  for (const w of pick(words, count * 3, rng)) {
    /** @type {Set<number>} */
    const used = new Set();
    let q = w;
    for (let e = 0; e < edits; e++) q = innerEdit(q, rng, used);
    if (q !== w && !known.has(q) && !out.includes(q)) {
      out.push(q);
      sources[q] = w;
    }
    if (out.length >= count) break;
  }
  return out;
}

/**
 * Query sets for `corpus`: {exact, multi, asYouType, typo1, typo2}, each an
 * array of query strings, identical for identical (corpus, counts, seed);
 * and typoSource, the untouched word each typo'd query was made from.
 * @param {Corpus} corpus
 * @param {QueryCounts} [counts]
 */
export function buildQueries(corpus, counts = DEFAULT_COUNTS, seed = 7) {
  const rng = mulberry32(seed);
  const { ranked, counts: frequency } = termRanking(corpus);
  const words = ranked.filter(([w]) => isWord(w)).map(([w]) => w);

  // Middle frequency: ranks between 2% and 20% of the (letters-only) vocabulary.
  const mid = words.slice(Math.floor(words.length * 0.02), Math.floor(words.length * 0.2)).filter((w) => w.length >= 3);
  const exact = pick(mid, counts.exact, rng);

  // Typo sources: the most frequent fifth of the vocabulary, so the intended word exists.
  const common = words.slice(0, Math.floor(words.length * 0.2));
  const known = new Set(frequency.keys());
  /** @type {Record<string, string>} */
  const typoSource = {};
  const typo1 = typos(common.filter((w) => w.length >= 5 && w.length <= 7), 1, counts.typo1, known, rng, typoSource);
  const typo2 = typos(common.filter((w) => w.length >= 8), 2, counts.typo2, known, rng, typoSource);

  // Phrases from titles, in a deterministic record order.
  const records = corpus.records;
  /** @type {(r: import('./corpus.mjs').BenchRecord) => string[]} */
  const titleWords = (r) => tokens(corpus.title(r) ?? '').filter(isWord);
  /** @type {string[]} */
  const multi = [];
  for (let guard = 0; multi.length < counts.multi && guard < counts.multi * 20; guard++) {
    const t = titleWords(records[Math.floor(rng() * records.length)]);
    const len = rng() < 0.5 ? 2 : 3;
    if (t.length < len) continue;
    const start = Math.floor(rng() * (t.length - len + 1));
    const q = t.slice(start, start + len).join(' ');
    if (!multi.includes(q)) multi.push(q);
  }

  /** @type {string[]} */
  const phrases = [];
  for (let guard = 0; phrases.length < counts.asYouType && guard < counts.asYouType * 50; guard++) {
    const t = titleWords(records[Math.floor(rng() * records.length)]);
    /** @type {string[]} */
    const pairs = [];
    for (let i = 0; i + 1 < t.length; i++) if (t[i].length >= 3 && t[i + 1].length >= 3) pairs.push(`${t[i]} ${t[i + 1]}`);
    if (pairs.length === 0) continue;
    const q = pairs[Math.floor(rng() * pairs.length)];
    if (!phrases.includes(q)) phrases.push(q);
  }
  /** @type {string[]} */
  const asYouType = [];
  for (const p of phrases) for (let i = 1; i <= p.length; i++) asYouType.push(p.slice(0, i));

  return { exact, multi, asYouType, typo1, typo2, typoSource };
}

/**
 * Two-word queries from records' titles: the first word (5+ letters) with an
 * inner letter replaced, the next word (4+ letters) cut to 3 letters or
 * more but not whole; and the record.
 * @param {import('./corpus.mjs').Corpus} corpus
 * @param {number} count
 * @param {number} seed
 */
export function typedQueries(corpus, count, seed) {
  const rng = mulberry32(seed);
  /** @type {Array<{ query: string, objectID: string }>} */
  const out = [];
  const seen = new Set();
  while (out.length < count) {
    const record = corpus.records[Math.floor(rng() * corpus.records.length)];
    const words = record.title.toLowerCase().split(' ');
    const at = Math.floor(rng() * (words.length - 1));
    const [first, second] = [words[at], words[at + 1]];
    if (first.length < 5 || second.length < 4 || !/^\p{L}+$/u.test(first + second)) continue;
    const typo = replaceLetter(first, 1 + Math.floor(rng() * (first.length - 2)), rng);
    const query = `${typo} ${second.slice(0, 3 + Math.floor(rng() * (second.length - 3)))}`;
    if (seen.has(query)) continue;
    seen.add(query);
    out.push({ query, objectID: record.objectID });
  }
  return out;
}

/**
 * `word` with the letter at `at` replaced by another drawn by `rng`.
 * @param {string} word
 * @param {number} at
 * @param {Rng} rng
 */
function replaceLetter(word, at, rng) {
  let letter = String.fromCharCode(97 + Math.floor(rng() * 26));
  if (letter === word[at]) letter = letter === 'z' ? 'a' : String.fromCharCode(letter.charCodeAt(0) + 1);
  return `${word.slice(0, at)}${letter}${word.slice(at + 1)}`;
}

/**
 * @typedef {object} QueryShape How shapedQueries makes a query from consecutive words of a record's title.
 * @property {[number, number]} words how many words, at least and at most
 * @property {number} minLetters the least letters of each word taken
 * @property {'none' | 'notFirst' | 'any'} typo one letter replaced in the first word: nowhere, not the first letter, or anywhere
 * @property {'allButTwo' | [number, number]} last the last word as typed: all but its last two letters, or its first min to max letters
 */

/**
 * The query shapes of bench/shapes.mjs: typed2 (two words of 6+ letters,
 * one letter replaced in the first but not its first, the second all but its
 * last two letters), prefix (one word of 6+ letters cut to 1-6 letters),
 * typoAny (1-3 words of 4+ letters, a letter replaced anywhere in the
 * first, the first letter included, the last cut to 4-8 letters).
 * @type {Record<'typed2' | 'prefix' | 'typoAny', QueryShape>}
 */
export const QUERY_SHAPES = {
  typed2: { words: [2, 2], minLetters: 6, typo: 'notFirst', last: 'allButTwo' },
  prefix: { words: [1, 1], minLetters: 6, typo: 'none', last: [1, 6] },
  typoAny: { words: [1, 3], minLetters: 4, typo: 'any', last: [4, 8] },
};

/**
 * `count` distinct queries of `shape` from the titles of `corpus`'s records,
 * each with the record it came from (fewer if the titles have too few words
 * of the shape). The letters kept of the last word are never more than it has.
 * @param {import('./corpus.mjs').Corpus} corpus
 * @param {number} count
 * @param {number} seed
 * @param {QueryShape} shape
 */
export function shapedQueries(corpus, count, seed, shape) {
  const rng = mulberry32(seed);
  /** @type {Array<{ query: string, objectID: string }>} */
  const out = [];
  const seen = new Set();
  for (let guard = 0; out.length < count && guard < count * 200; guard++) {
    const record = corpus.records[Math.floor(rng() * corpus.records.length)];
    const all = tokens(corpus.title(record) ?? '');
    const length = randInt(rng, ...shape.words);
    if (all.length < length) continue;
    const at = Math.floor(rng() * (all.length - length + 1));
    const words = all.slice(at, at + length);
    if (!words.every((w) => w.length >= shape.minLetters && isWord(w))) continue;
    if (shape.typo !== 'none') {
      const first = shape.typo === 'any' ? 0 : 1;
      words[0] = replaceLetter(words[0], first + Math.floor(rng() * (words[0].length - first)), rng);
    }
    const last = words[words.length - 1];
    if (length > 1 || shape.typo === 'none') {
      words[words.length - 1] = shape.last === 'allButTwo' ? last.slice(0, -2) : last.slice(0, randInt(rng, ...shape.last));
    }
    const query = words.join(' ');
    if (seen.has(query)) continue;
    seen.add(query);
    out.push({ query, objectID: record.objectID });
  }
  return out;
}
