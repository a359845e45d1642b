// The dictionaries as a query reads them (the QueryDictionaries port of
// src/text/dictionaries.ts), compiled from the custom entries and the
// settings once per change: per language, the stop words (standard ones
// unless turned off, less the custom ones disabled, plus the custom ones
// enabled), each word's other forms, each word's decompositions. Words are
// folded as the query folds them.
import { fold } from '../text/fold.js';
import { pluralForms as englishForms } from '../text/plurals.js';
import { ENGLISH_STOP_WORDS } from '../text/stop-words.js';
import type { Languages, QueryDictionaries } from '../text/dictionaries.js';
import { standardDisabled, type DictionaryEntry, type DictionaryName, type StandardEntries } from './entries.js';
import { standardStopWord } from './standard.js';

type PerLanguage<T> = Map<string, T>;

function slot<T>(map: PerLanguage<T>, language: string, make: () => T): T {
  let value = map.get(language);
  if (value === undefined) map.set(language, (value = make()));
  return value;
}

/** The values of `map` for `languages` (every language when undefined). */
function forLanguages<T>(map: PerLanguage<T>, languages: Languages): T[] {
  if (languages === undefined) return [...map.values()];
  return languages.flatMap((language) => { const value = map.get(language); return value === undefined ? [] : [value]; });
}

const enabled = (entry: DictionaryEntry) => entry.state !== 'disabled';

/** The stop word an entry is about: its word, or the standard one its objectID names (an entry may leave out its word). */
const stopWordOf = (entry: DictionaryEntry): string | undefined => entry.word ?? standardStopWord(entry.objectID);

export class CompiledDictionaries implements QueryDictionaries {
  private readonly stopWords: PerLanguage<Set<string>> = new Map();
  private readonly forms: PerLanguage<Map<string, Set<string>>> = new Map();
  private readonly parts: PerLanguage<Map<string, string[][]>> = new Map();
  /** The English plural rules apply (the standard plurals of English are on). */
  private readonly englishRules: boolean;

  constructor(entries: ReadonlyMap<DictionaryName, ReadonlyMap<string, DictionaryEntry>>, settings: StandardEntries) {
    if (!standardDisabled(settings, 'stopwords', 'en')) this.stopWords.set('en', new Set(ENGLISH_STOP_WORDS));
    const stopwords = [...entries.get('stopwords')?.values() ?? []];
    // disabled entries take standard words out first, so an enabled entry of the same word wins
    for (const entry of stopwords) {
      const word = stopWordOf(entry);
      if (word !== undefined && !enabled(entry)) this.stopWords.get(entry.language)?.delete(fold(word));
    }
    for (const entry of stopwords) {
      const word = stopWordOf(entry);
      if (word !== undefined && enabled(entry)) slot(this.stopWords, entry.language, () => new Set()).add(fold(word));
    }
    this.englishRules = !standardDisabled(settings, 'plurals', 'en');
    for (const entry of entries.get('plurals')?.values() ?? []) {
      if (!enabled(entry)) continue;
      const words = [...new Set(entry.words!.map(fold))];
      const forms = slot(this.forms, entry.language, () => new Map<string, Set<string>>());
      for (const word of words) for (const other of words) if (other !== word) slot(forms, word, () => new Set<string>()).add(other);
    }
    for (const entry of entries.get('compounds')?.values() ?? []) {
      if (!enabled(entry)) continue;
      const parts = slot(this.parts, entry.language, () => new Map<string, string[][]>());
      slot(parts, fold(entry.word!), () => []).push(entry.decomposition!.map(fold));
    }
  }

  isStopWord(word: string, languages: Languages): boolean {
    return forLanguages(this.stopWords, languages).some((words) => words.has(word));
  }

  pluralForms(word: string, languages: Languages): string[] {
    const out = new Set<string>();
    if (this.englishRules && (languages === undefined || languages.includes('en'))) for (const form of englishForms(word)) out.add(form);
    for (const forms of forLanguages(this.forms, languages)) for (const form of forms.get(word) ?? []) out.add(form);
    out.delete(word);
    return [...out];
  }

  decompositions(word: string, languages: Languages): string[][] {
    return forLanguages(this.parts, languages).flatMap((parts) => parts.get(word) ?? []);
  }
}
