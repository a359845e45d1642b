// The standard entries: what Lantern knows without being told, listed as
// dictionary entries (type `standard`). Stop words: the English list of
// removeStopWords. Plurals: the irregular English plurals (the regular ones
// are rules, src/text/plurals.ts, and are turned off with them). No
// standard compounds.
import { ENGLISH_STOP_WORDS } from '../text/stop-words.js';
import { IRREGULAR_PLURALS } from '../text/plurals.js';
import type { DictionaryEntry, DictionaryName } from './entries.js';

const STOP_WORDS: readonly DictionaryEntry[] = [...ENGLISH_STOP_WORDS].sort().map((word) => Object.freeze({
  objectID: `standard-en-${word}`, language: 'en', word, state: 'enabled' as const, type: 'standard' as const,
}));

const PLURALS: readonly DictionaryEntry[] = Object.entries(IRREGULAR_PLURALS).sort(([a], [b]) => (a < b ? -1 : 1)).map(([singular, plural]) => Object.freeze({
  objectID: `standard-en-${singular}`, language: 'en', words: [singular, plural], type: 'standard' as const,
}));

const STOP_WORD_BY_ID = new Map(STOP_WORDS.map((entry) => [entry.objectID, entry.word!]));

/** The word of the standard stop word of this objectID (a custom entry without a word may name one to turn it off). */
export function standardStopWord(objectID: string): string | undefined {
  return STOP_WORD_BY_ID.get(objectID);
}

/** The standard entries of a dictionary, every language. */
export function standardEntries(dictionary: DictionaryName): readonly DictionaryEntry[] {
  return dictionary === 'stopwords' ? STOP_WORDS : dictionary === 'plurals' ? PLURALS : [];
}

/** The languages a dictionary has standard entries in (plurals: the English rules besides the listed words). */
export function standardLanguages(dictionary: DictionaryName): readonly string[] {
  return dictionary === 'compounds' ? [] : ['en'];
}
