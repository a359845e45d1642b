// Searching a dictionary's entries (custom ones first, then the standard
// ones of the languages whose standard entries are on) and counting the
// custom entries per language.
import { fold } from '../text/fold.js';
import { DICTIONARY_NAMES, SUPPORTED_LANGUAGES, standardDisabled, type DictionaryEntry, type DictionaryName, type StandardEntries } from './entries.js';
import { standardEntries } from './standard.js';
import type { EntrySearch } from './validate.js';

/** What an entry is found by: its objectID, its word, its forms, its parts. */
function wordsOf(entry: DictionaryEntry): string[] {
  return [entry.objectID, entry.word ?? '', ...entry.words ?? [], ...entry.decomposition ?? []].filter((w) => w !== '').map(fold);
}

/** Every word of the query begins the entry's objectID or one of its words (an empty query finds every entry). */
function matches(entry: DictionaryEntry, queryWords: string[]): boolean {
  if (queryWords.length === 0) return true;
  const words = wordsOf(entry).flatMap((w) => [w, ...w.split(/\s+/)]);
  return queryWords.every((q) => words.some((w) => w.startsWith(q)));
}

/** A copy of an entry for an answer (the caller may change it). */
const copyOf = (entry: DictionaryEntry): DictionaryEntry => structuredClone(entry);

export function searchEntries(
  dictionary: DictionaryName, custom: Iterable<DictionaryEntry>, settings: StandardEntries, search: EntrySearch,
): { hits: DictionaryEntry[]; page: number; nbHits: number; nbPages: number } {
  const queryWords = fold(search.query).split(/\s+/).filter((w) => w !== '');
  const inLanguage = (entry: DictionaryEntry) => search.language === undefined || entry.language === search.language;
  const standard = standardEntries(dictionary).filter((e) => !standardDisabled(settings, dictionary, e.language));
  const found = [...custom, ...standard].filter((entry) => inLanguage(entry) && matches(entry, queryWords));
  const { page, hitsPerPage } = search;
  return {
    hits: found.slice(page * hitsPerPage, (page + 1) * hitsPerPage).map(copyOf),
    page,
    nbHits: found.length,
    nbPages: Math.ceil(found.length / hitsPerPage),
  };
}

/** getDictionaryLanguages: every supported language, with its custom entries counted per dictionary. */
export function dictionaryLanguages(entries: ReadonlyMap<DictionaryName, ReadonlyMap<string, DictionaryEntry>>) {
  const out: Record<string, Record<DictionaryName, { nbCustomEntries: number }>> = {};
  for (const language of SUPPORTED_LANGUAGES) {
    out[language] = { plurals: { nbCustomEntries: 0 }, stopwords: { nbCustomEntries: 0 }, compounds: { nbCustomEntries: 0 } };
  }
  for (const dictionary of DICTIONARY_NAMES) {
    for (const entry of entries.get(dictionary)?.values() ?? []) {
      const counts = out[entry.language];
      if (counts) counts[dictionary].nbCustomEntries++;
    }
  }
  return out;
}
