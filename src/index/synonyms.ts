// Synonyms: the four types of the spec, checked on the way in, and the word
// alternatives they give a query (synonyms match as the word itself, phrases
// included; altcorrections count as one or two typos).
import type { Alternative } from '../core/core-index.js';
import { badRequest, shown } from '../util/errors.js';
import { isPlainObject } from './records.js';
import { fold } from '../text/fold.js';

export type Synonym = (
  | { objectID: string; type: 'synonym'; synonyms: string[] }
  | { objectID: string; type: 'onewaysynonym'; input: string; synonyms: string[] }
  | { objectID: string; type: 'altcorrection1' | 'altcorrection2'; word: string; corrections: string[] }
  | { objectID: string; type: 'placeholder'; placeholder: string; replacements: string[] }
) & {
  /** The type as it was given when spelt otherwise (`oneWaySynonym`): answered as given, as settings are. */
  typeGiven?: string;
};

/** A synonym as the API answers it: its type as it was given. */
export function answeredSynonym(synonym: Synonym): Record<string, unknown> {
  const { typeGiven, ...rest } = synonym;
  return typeGiven === undefined ? rest : { ...rest, type: typeGiven };
}

export const SYNONYM_TYPES = ['synonym', 'onewaysynonym', 'altcorrection1', 'altcorrection2', 'placeholder'] as const;

/**
 * A synonym type as sent: the spec's enum spells some in camel case too (the
 * v4 client sends `oneWaySynonym`), which are the same types in lower case.
 */
export function synonymTypeOf(value: unknown): (typeof SYNONYM_TYPES)[number] | undefined {
  const type = typeof value === 'string' ? value.toLowerCase() : value;
  return (SYNONYM_TYPES as readonly unknown[]).includes(type) ? type as (typeof SYNONYM_TYPES)[number] : undefined;
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s.trim() !== '');

/** A synonym object as sent, checked (objectID from the path when given). */
export function toSynonym(body: unknown, objectID?: string): Synonym {
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: a synonym must be an object');
  const id = objectID ?? body.objectID;
  if (typeof id !== 'string' || id === '') throw badRequest('A synonym needs an objectID');
  const type = synonymTypeOf(body.type) ?? body.type; // read in lower case, answered as given
  const fail: (what: string) => never = (what) => { throw badRequest(`Synonym ${id}: ${what}`); };
  const given = typeof body.type === 'string' && body.type !== type ? { typeGiven: body.type } : {};
  const { synonyms, input, word, corrections, placeholder, replacements } = body;
  switch (type) {
    case 'synonym':
      if (!strings(synonyms) || synonyms.length < 2) fail('"synonyms" must list at least two words or phrases');
      return { objectID: id, type, synonyms, ...given };
    case 'onewaysynonym':
      if (typeof input !== 'string' || input.trim() === '') fail('"input" must be a non-empty string');
      if (!strings(synonyms)) fail('"synonyms" must be a non-empty array of strings');
      return { objectID: id, type, input, synonyms, ...given };
    case 'altcorrection1':
    case 'altcorrection2':
      if (typeof word !== 'string' || /\s/.test(word.trim()) || word.trim() === '') fail('"word" must be a single word');
      if (!strings(corrections) || corrections.some((c: string) => /\s/.test(c.trim()))) fail('"corrections" must be single words');
      return { objectID: id, type, word, corrections, ...given };
    case 'placeholder':
      if (typeof placeholder !== 'string' || !/^<[^<>]+>$/.test(placeholder)) fail('"placeholder" must look like <name>');
      if (!strings(replacements)) fail('"replacements" must be a non-empty array of strings');
      return { objectID: id, type, placeholder, replacements, ...given };
    default:
      return fail(`unknown type ${shown(type)} (expected one of ${SYNONYM_TYPES.join(', ')})`);
  }
}

const key = (s: string) => fold(s).trim();
/** The folded words of a synonym expression ("New York" → ["new", "york"]). */
const wordsOf = (s: string) => fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** One rewrite a synonym allows: words matching `from` may also be `to`. */
interface Rewrite { from: string[]; to: string[]; typos: number }

function rewrites(s: Synonym): Rewrite[] {
  const all = (froms: string[], tos: string[], typos = 0) =>
    froms.flatMap((f) => tos.filter((t) => key(t) !== key(f)).map((t) => ({ from: wordsOf(f), to: wordsOf(t), typos })));
  switch (s.type) {
    case 'synonym': return all(s.synonyms, s.synonyms);
    case 'onewaysynonym': return all([s.input], s.synonyms);
    case 'altcorrection1': return all([s.word], s.corrections, 1);
    case 'altcorrection2': return all([s.word], s.corrections, 2);
    case 'placeholder': return all(s.replacements, [s.placeholder.slice(1, -1)]);
  }
}

/** Where `phrase` occurs as consecutive query words: the index of its first word each time. */
function occurrences(query: string[], phrase: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + phrase.length <= query.length; i++) {
    if (phrase.length > 0 && phrase.every((w, k) => query[i + k] === w)) out.push(i);
  }
  return out;
}

export interface SynonymsAsExact { singleWord: boolean; multiWords: boolean }

/**
 * Alternatives for the query words from the index's synonyms. A phrase
 * synonym of one word ("ny" → "new york") matches the records holding all its
 * words; when query words form a phrase ("new york" → "ny"), each of them may
 * match the synonym, so a record with "ny" counts all of them as matched.
 */
export function synonymAlternatives(words: string[], synonyms: Iterable<Synonym>, asExact: SynonymsAsExact): Alternative[] {
  const folded = words.map(key);
  const out: Alternative[] = [];
  for (const synonym of synonyms) {
    for (const { from, to, typos } of rewrites(synonym)) {
      if (to.length === 0) continue;
      const exact = typos === 0 && (from.length === 1 && to.length === 1 ? asExact.singleWord : asExact.multiWords);
      for (const first of occurrences(folded, from)) {
        for (let word = first; word < first + from.length; word++) out.push({ word, text: to.join(' '), exact, typos });
      }
    }
  }
  return out;
}

/** The folded words synonyms may put in place of each query word (replaceSynonymsInHighlight). */
export function synonymWords(alternatives: Alternative[], words: number): Array<Set<string>> {
  const out = Array.from({ length: words }, () => new Set<string>());
  for (const a of alternatives) for (const w of a.text.split(' ')) out[a.word]?.add(w);
  return out;
}

/** Synonym search: `query` in any of the synonym's words, `type` a comma list of types. */
export function searchSynonyms(all: Synonym[], query: string, types: string[], page: number, hitsPerPage: number) {
  const q = key(query);
  const text = (s: Synonym) => JSON.stringify(Object.values(answeredSynonym(s))).toLowerCase();
  const hits = all.filter((s) => (types.length === 0 || types.includes(s.type)) && (q === '' || key(text(s)).includes(q)));
  return { hits: hits.slice(page * hitsPerPage, (page + 1) * hitsPerPage).map(answeredSynonym), nbHits: hits.length };
}
