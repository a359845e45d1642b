// Relevance per script (issue "Every script"): for each language of
// bench/scripts/names.json (the names of regions, languages and currencies
// in that language, CLDR's), words drawn from the names as Intl.Segmenter
// reads them in their name (ICU's word breaks: for Thai, Lao, Khmer and
// Burmese, the dictionary's words inside runs written without spaces), and
// the first two thirds of those words (a prefix being typed). A query counts
// as found when the name it was drawn from is among the first 10 hits
// (recall@10); words held by more than 5 names are not drawn (which of them
// comes first is not relevance). And the runs of several words typed
// grapheme by grapheme, each prefix that ends past the run's first word
// (a search box while a later word of the run is typed). Prints a table
// per language. Not a test: numbers.
//
//   npm run build && node bench/scripts.mjs [--dist dist] [--languages th,lo] [--per-language 300] [--seed 7] [--json FILE]
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mulberry32 } from './corpus.mjs';
import { lantern } from './relevance/libraries.mjs';
import { Tally } from './relevance/metrics.mjs';

const { values: args } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    languages: { type: 'string' },
    'per-language': { type: 'string', default: '300' },
    seed: { type: 'string', default: '7' },
    json: { type: 'string' },
  },
});

/** @type {{ corpus: Record<string, Array<{ objectID: string, name: string }>> }} */
const { corpus } = JSON.parse(readFileSync(new URL('scripts/names.json', import.meta.url), 'utf8'));
const languages = args.languages ? args.languages.split(',') : Object.keys(corpus);
const perLanguage = Number(args['per-language']);
const MAX_HOLDERS = 5;
const MIN_PREFIX_GRAPHEMES = 2;

/** A seeded shuffle (mulberry32), the same draw on every run. @type {<T>(items: T[], seed: number) => T[]} */
function shuffled(items, seed) {
  const random = mulberry32(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The word queries and prefix queries of a language's names.
 * @param {string} language
 * @param {Array<{ objectID: string, name: string }>} records
 */
function queriesOf(language, records) {
  const words = new Intl.Segmenter(language, { granularity: 'word' });
  const graphemes = new Intl.Segmenter(language, { granularity: 'grapheme' });
  /** @type {Map<string, Set<string>>} word → ids of the names holding it */
  const holders = new Map();
  /** @type {Array<{ word: string, id: string }>} */
  const drawn = [];
  for (const { objectID, name } of records) {
    for (const s of words.segment(name)) {
      if (!s.isWordLike || [...graphemes.segment(s.segment)].length < 2) continue;
      const word = s.segment.toLowerCase();
      if (!holders.has(word)) holders.set(word, new Set());
      /** @type {Set<string>} */ (holders.get(word)).add(objectID);
      drawn.push({ word: s.segment, id: objectID });
    }
  }
  const unique = drawn.filter(({ word }) => /** @type {Set<string>} */ (holders.get(word.toLowerCase())).size <= MAX_HOLDERS);
  const chosen = shuffled(unique, Number(args.seed)).slice(0, perLanguage);
  const prefixes = chosen.flatMap(({ word, id }) => {
    const parts = [...graphemes.segment(word)].map((g) => g.segment);
    const keep = Math.ceil((parts.length * 2) / 3);
    return parts.length > MIN_PREFIX_GRAPHEMES && keep < parts.length ? [{ word: parts.slice(0, keep).join(''), id }] : [];
  });
  return { word: chosen, prefix: prefixes, typing: typedRuns(language, records, words, graphemes) };
}

/**
 * A name's runs typed grapheme by grapheme past their first word: each
 * prefix that ends inside a later word of a run the segmenter breaks into
 * several (a search box as a word of the run after the first is typed).
 * @param {string} language
 * @param {Array<{ objectID: string, name: string }>} records
 * @param {Intl.Segmenter} words
 * @param {Intl.Segmenter} graphemes
 */
function typedRuns(language, records, words, graphemes) {
  /** @type {Array<{ word: string, id: string }>} */
  const typed = [];
  for (const { objectID, name } of shuffled(records, Number(args.seed) + 1)) {
    for (const run of name.split(/\s+/)) {
      const parts = [...words.segment(run)].filter((s) => s.isWordLike);
      if (parts.length < 2) continue;
      const from = parts[0].segment.length;
      for (const g of graphemes.segment(run)) {
        const end = g.index + g.segment.length;
        if (end > from && end < run.length) typed.push({ word: run.slice(0, end), id: objectID });
      }
    }
    if (typed.length >= perLanguage) break;
  }
  return typed.slice(0, perLanguage);
}

const library = lantern(resolve(args.dist), 'Lantern', {});
/** @type {Record<string, Record<string, import('./relevance/metrics.mjs').Figures>>} */
const figures = {};
for (const language of languages) {
  const records = corpus[language];
  const searcher = await library.build({ name: `names-${language}`, fields: ['name'], records, title: (r) => String(r.name) });
  figures[language] = {};
  for (const [kind, queries] of Object.entries(queriesOf(language, records))) {
    const tally = new Tally();
    for (const { word, id } of queries) {
      const { ids, count } = await searcher.search(word);
      tally.add(ids, count, new Set([id]));
    }
    figures[language][kind] = tally.figures();
  }
  await searcher.close();
}

const pct = (/** @type {number} */ x) => x.toFixed(2);
console.log(`| language | names | words | recall@10 words | recall@1 words | prefixes | recall@10 prefixes | runs typed | recall@10 typed |`);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const language of languages) {
  const { word, prefix, typing } = figures[language];
  const typed = typing.queries ? pct(typing.recall10) : '-';
  console.log(`| ${language} | ${corpus[language].length} | ${word.queries} | ${pct(word.recall10)} | ${pct(word.recall1)} | ${prefix.queries} | ${pct(prefix.recall10)} | ${typing.queries} | ${typed} |`);
}
if (args.json) writeFileSync(args.json, JSON.stringify(figures, null, 2));
