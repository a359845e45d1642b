// The checks of what callers send to the dictionaries API: a dictionary's
// name, a batch of entry changes, the settings, a search's parameters. Every
// value is checked before it is used (a JSON object may hold any key), and a
// bad one is refused with a message naming the field.
import { badRequest, notFound, shown } from '../util/errors.js';
import { isOneOf, isPlainObject } from '../index/records.js';
import {
  DICTIONARY_NAMES, SUPPORTED_LANGUAGES, type DictionaryEntry, type DictionaryName, type EntryChange, type StandardEntries,
} from './entries.js';

/** The dictionary a path names. */
export function checkDictionaryName(name: string): DictionaryName {
  if (!isOneOf(DICTIONARY_NAMES, name)) {
    throw notFound(`Dictionary ${shown(name)} does not exist: expected ${DICTIONARY_NAMES.join(', ')}`);
  }
  return name;
}

/** A language code of the spec's list. */
export function checkLanguage(value: unknown, where: string): string {
  if (!isOneOf(SUPPORTED_LANGUAGES, value)) throw badRequest(`${where}: expected a supported language code such as "en", got ${shown(value)}`);
  return value;
}

function onlyFields(body: Record<string, unknown>, allowed: readonly string[], where: string): void {
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length) throw badRequest(`${where}: unknown field ${shown(unknown[0])} (expected ${allowed.join(', ')})`);
}

function nonEmptyString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${where}: expected a non-empty string, got ${shown(value)}`);
  return value;
}

function wordList(value: unknown, where: string, least: number): string[] {
  if (!Array.isArray(value) || value.length < least) {
    throw badRequest(`${where}: expected a list of at least ${least} word${least > 1 ? 's' : ''}, got ${shown(value)}`);
  }
  return value.map((w: unknown, i) => nonEmptyString(w, `${where}[${i}]`));
}

/**
 * The fields an entry of each dictionary must have (besides objectID and
 * language). The spec's dictionaryEntry requires none but objectID: a stop
 * word may leave out `word` (a disabled one naming a standard entry's
 * objectID turns that entry off), and the fields of the other dictionaries
 * may come along, checked like the rest and kept.
 */
const REQUIRED: Record<DictionaryName, ReadonlyArray<'word' | 'words' | 'decomposition'>> = {
  stopwords: [], plurals: ['words'], compounds: ['word', 'decomposition'],
};

/** An entry to add: its words checked wherever they are given, `type` custom, other fields of its own kept. */
export function checkEntry(dictionary: DictionaryName, body: unknown, where: string): DictionaryEntry {
  if (!isPlainObject(body)) throw badRequest(`${where}: expected an entry object, got ${shown(body)}`);
  const objectID = nonEmptyString(body.objectID, `${where}.objectID`);
  const language = checkLanguage(body.language, `${where}.language`);
  const state = body.state ?? 'enabled';
  if (state !== 'enabled' && state !== 'disabled') throw badRequest(`${where}.state: expected enabled or disabled, got ${shown(state)}`);
  if (body.type !== undefined && body.type !== 'custom') throw badRequest(`${where}.type: only custom entries can be added, got ${shown(body.type)}`);
  const entry: DictionaryEntry = { ...body, objectID, language, state, type: 'custom' };
  const required = REQUIRED[dictionary];
  if (body.word !== undefined || required.includes('word')) entry.word = nonEmptyString(body.word, `${where}.word`);
  if (body.words !== undefined || required.includes('words')) entry.words = wordList(body.words, `${where}.words`, 2);
  if (body.decomposition !== undefined || required.includes('decomposition')) {
    entry.decomposition = wordList(body.decomposition, `${where}.decomposition`, 1);
  }
  return entry;
}

/** A batchDictionaryEntries body: `clearExistingDictionaryEntries` and its `requests`. */
export function checkBatch(dictionary: DictionaryName, body: unknown): { clear: boolean; changes: EntryChange[] } {
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: expected {clearExistingDictionaryEntries, requests}');
  onlyFields(body, ['clearExistingDictionaryEntries', 'requests'], 'batchDictionaryEntries');
  const clear = body.clearExistingDictionaryEntries ?? false;
  if (typeof clear !== 'boolean') throw badRequest(`clearExistingDictionaryEntries: expected true or false, got ${shown(clear)}`);
  if (!Array.isArray(body.requests)) throw badRequest(`requests: expected a list of {action, body}, got ${shown(body.requests)}`);
  const changes = body.requests.map((request: unknown, i): EntryChange => {
    const where = `requests[${i}]`;
    if (!isPlainObject(request)) throw badRequest(`${where}: expected {action, body}, got ${shown(request)}`);
    onlyFields(request, ['action', 'body'], where);
    if (request.action === 'addEntry') return { add: checkEntry(dictionary, request.body, `${where}.body`) };
    if (request.action !== 'deleteEntry') throw badRequest(`${where}.action: expected addEntry or deleteEntry, got ${shown(request.action)}`);
    if (!isPlainObject(request.body)) throw badRequest(`${where}.body: expected {objectID}, got ${shown(request.body)}`);
    return { delete: nonEmptyString(request.body.objectID, `${where}.body.objectID`) };
  });
  return { clear, changes };
}

/** A setDictionarySettings body: `disableStandardEntries`, per dictionary null or language → boolean. */
export function checkSettings(body: unknown): StandardEntries {
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: expected {disableStandardEntries}');
  onlyFields(body, ['disableStandardEntries'], 'setDictionarySettings');
  const entries = body.disableStandardEntries;
  if (!isPlainObject(entries)) throw badRequest(`disableStandardEntries: expected an object, got ${shown(entries)}`);
  onlyFields(entries, DICTIONARY_NAMES, 'disableStandardEntries');
  const out: StandardEntries = {};
  for (const dictionary of DICTIONARY_NAMES) {
    const languages = entries[dictionary];
    const where = `disableStandardEntries.${dictionary}`;
    if (languages === undefined) continue;
    if (languages === null) { out[dictionary] = null; continue; }
    if (!isPlainObject(languages)) throw badRequest(`${where}: expected null or an object of language codes to booleans, got ${shown(languages)}`);
    const checked: Record<string, boolean> = {};
    for (const [language, off] of Object.entries(languages)) {
      checkLanguage(language, where);
      if (typeof off !== 'boolean') throw badRequest(`${where}.${language}: expected true or false, got ${shown(off)}`);
      checked[language] = off;
    }
    out[dictionary] = checked;
  }
  return out;
}

/** A searchDictionaryEntries body: `query` (required), `page`, `hitsPerPage`, `language`. */
export interface EntrySearch { query: string; page: number; hitsPerPage: number; language?: string }

function integerField(body: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${name}: expected an integer from ${min} to ${max}, got ${shown(value)}`);
  }
  return value;
}

export function checkSearch(body: unknown): EntrySearch {
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: expected {query, page, hitsPerPage, language}');
  onlyFields(body, ['query', 'page', 'hitsPerPage', 'language'], 'searchDictionaryEntries');
  if (typeof body.query !== 'string') throw badRequest(`query: expected a string, got ${shown(body.query)}`);
  const search: EntrySearch = {
    query: body.query,
    page: integerField(body, 'page', 0, 0, Number.MAX_SAFE_INTEGER),
    hitsPerPage: integerField(body, 'hitsPerPage', 20, 1, 1000),
  };
  if (body.language !== undefined && body.language !== null) search.language = checkLanguage(body.language, 'language');
  return search;
}
