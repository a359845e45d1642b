// What the dictionaries hold: entries of three dictionaries (stop words,
// plurals, compounds), each in a language, and the languages whose standard
// entries are turned off. Dictionaries belong to the application: every
// index's searches read them.

export const DICTIONARY_NAMES = ['stopwords', 'plurals', 'compounds'] as const;
export type DictionaryName = (typeof DICTIONARY_NAMES)[number];

/** The languages an entry may be in (the spec's supportedLanguage). */
export const SUPPORTED_LANGUAGES = [
  'af', 'ar', 'az', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'fi', 'fo', 'fr',
  'ga', 'gl', 'he', 'hi', 'hu', 'hy', 'id', 'is', 'it', 'ja', 'ka', 'kk', 'ko', 'ku', 'ky', 'lt', 'lv', 'mi', 'mn', 'mr',
  'ms', 'mt', 'nb', 'nl', 'no', 'ns', 'pl', 'ps', 'pt', 'pt-br', 'qu', 'ro', 'ru', 'sk', 'sq', 'sv', 'sw', 'ta', 'te', 'th',
  'tl', 'tn', 'tr', 'tt', 'uk', 'ur', 'uz', 'zh',
] as const;

/**
 * One entry, as sent (fields of its own kept): `word` (stop words,
 * compounds), `words` (plurals: the forms of one word), `decomposition`
 * (compounds: its parts), `state` (a disabled stop word removes a standard one).
 */
export interface DictionaryEntry {
  objectID: string;
  language: string;
  word?: string;
  words?: string[];
  decomposition?: string[];
  state?: 'enabled' | 'disabled';
  type?: 'custom' | 'standard';
  [field: string]: unknown;
}

/** Per dictionary: the languages whose standard entries are off (`true`) or on (`false`); null: none set. */
export type StandardEntries = { [D in DictionaryName]?: Record<string, boolean> | null };

/** One change of a batch: an entry added (or replaced), or one deleted by objectID. */
export type EntryChange = { add: DictionaryEntry } | { delete: string };

/** Dictionary changes, logged like key changes (idempotent, applied at once). */
export type DictionaryOperation =
  | { type: 'dictionaries'; action: 'batch'; dictionary: DictionaryName; clear: boolean; changes: EntryChange[] }
  /** The dictionaries named are set (null: reset); the others are kept. */
  | { type: 'dictionaries'; action: 'settings'; disableStandardEntries: StandardEntries };

/** Whether the standard entries of `dictionary` are turned off for `language`. */
export function standardDisabled(settings: StandardEntries, dictionary: DictionaryName, language: string): boolean {
  return settings[dictionary]?.[language] === true;
}
