// The dictionaries a query reads: stop words (removeStopWords), plural forms
// (ignorePlurals) and compound words (decompoundQuery), per language. The
// query pipeline reads them through this port; the application's
// dictionaries (src/dictionaries/) are handed in by the search handlers, and
// without them a query has the built-in lists: the English stop words and
// plural rules.
import { ENGLISH_STOP_WORDS } from './stop-words.js';
import { pluralForms } from './plurals.js';

/** The languages a query applies a dictionary in: the ones listed, or every language (undefined). */
export type Languages = readonly string[] | undefined;

/** Words are looked up folded (`fold`): lower case, no diacritics. */
export interface QueryDictionaries {
  /** Whether `word` is a stop word of one of `languages`. */
  isStopWord(word: string, languages: Languages): boolean;
  /** The other forms of `word` (its plural, its singulars, its declensions) in `languages`. */
  pluralForms(word: string, languages: Languages): string[];
  /** The ways `word` splits into parts in `languages` (each a list of words). */
  decompositions(word: string, languages: Languages): string[][];
}

/** Whether a dictionary of `language` applies to a query in `languages`. */
export const inLanguages = (languages: Languages, language: string): boolean => languages === undefined || languages.includes(language);

/** The built-in dictionaries: the English stop words and plural rules, no compounds. */
export const STANDARD_DICTIONARIES: QueryDictionaries = {
  isStopWord: (word, languages) => inLanguages(languages, 'en') && ENGLISH_STOP_WORDS.has(word),
  pluralForms: (word, languages) => (inLanguages(languages, 'en') ? pluralForms(word) : []),
  decompositions: () => [],
};
