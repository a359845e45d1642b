// Search-box settings inferred from records, for data imported without
// settings (`lantern import` without --settings, the demo): which
// attributes hold text people search, in what priority, and the recipe
// that keeps a search box from answering an empty page (README, "Tuning
// relevance"; bench/relevance.mjs measures it).
import { isPlainObject } from './records.js';

/**
 * The search-box recipe: a query with no hits drops words instead of
 * answering nothing (Lantern first gives the words that matched nothing
 * the typo their length refused them, and weighs stop words less), and
 * stop words typed by habit ("the", "of") never empty a page.
 */
export const SEARCH_BOX_RECIPE = { removeWordsIfNoResults: 'allOptional', removeStopWords: true } as const;

export interface SearchBoxSettings {
  searchableAttributes: string[];
  removeWordsIfNoResults: typeof SEARCH_BOX_RECIPE.removeWordsIfNoResults;
  removeStopWords: boolean;
}

/** An attribute whose values (array items one by one) average more characters than this is long text: searched after the short ones. */
const LONG_TEXT = 100;

/** Values that are text someone would type: letters, not a link or an identifier (`adam_grant_giver`, `a1-b2`). */
function isText(value: string): boolean {
  if (!/\p{L}/u.test(value)) return false;
  if (/^(https?:\/\/|www\.)\S*$/i.test(value)) return false;
  return !/^[\p{L}\p{N}]+([_-][\p{L}\p{N}]+)+$/u.test(value);
}

/** The average length of a value's texts (a string, or an array's strings), or undefined when it is no text. */
function textLength(value: unknown): number | undefined {
  const strings = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value as string[] : [];
  const texts = strings.filter(isText);
  if (texts.length === 0 || texts.length * 2 < strings.length) return undefined;
  return texts.reduce((sum, t) => sum + t.length, 0) / texts.length;
}

interface Tally { present: number; text: number; characters: number; order: number }

/**
 * The top-level attributes holding text in at least half the sampled
 * records that have them: short ones in the order records list them (a
 * record's title usually comes first), then the long texts (descriptions,
 * ingredients), which would otherwise outrank a match in a title. Not
 * objectID, links, identifiers, numbers, geo or nested objects.
 */
export function inferSearchableAttributes(records: readonly unknown[]): string[] {
  const tallies = new Map<string, Tally>();
  for (const record of records) {
    if (!isPlainObject(record)) continue;
    for (const [name, value] of Object.entries(record)) {
      if (name === 'objectID' || name.startsWith('_')) continue;
      const tally = tallies.get(name) ?? { present: 0, text: 0, characters: 0, order: tallies.size };
      tallies.set(name, tally);
      if (value === null || value === undefined) continue;
      tally.present++;
      const length = textLength(value);
      if (length !== undefined) { tally.text++; tally.characters += length; }
    }
  }
  const textual = [...tallies].filter(([, t]) => t.text > 0 && t.text * 2 >= t.present);
  const isLong = ([, t]: [string, Tally]) => t.characters / t.text > LONG_TEXT;
  return [...textual.filter((a) => !isLong(a)), ...textual.filter(isLong)].map(([name]) => name);
}

/** The searchable attributes `records` suggest, and the recipe. */
export function searchBoxSettings(records: readonly unknown[]): SearchBoxSettings {
  return { searchableAttributes: inferSearchableAttributes(records), ...SEARCH_BOX_RECIPE };
}
