// Synonyms: the four types of the spec, checked on the way in, and the word
// alternatives they give a query (single-word synonyms match as the word
// itself; altcorrections count as one or two typos).
import type { Alternative } from '../core/core-index.js';
import { badRequest } from './errors.js';
import { isPlainObject } from './records.js';
import { fold } from './fold.js';

export type Synonym =
  | { objectID: string; type: 'synonym'; synonyms: string[] }
  | { objectID: string; type: 'onewaysynonym'; input: string; synonyms: string[] }
  | { objectID: string; type: 'altcorrection1' | 'altcorrection2'; word: string; corrections: string[] }
  | { objectID: string; type: 'placeholder'; placeholder: string; replacements: string[] };

export const SYNONYM_TYPES = ['synonym', 'onewaysynonym', 'altcorrection1', 'altcorrection2', 'placeholder'] as const;

const strings = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s.trim() !== '');

/** A synonym object as sent, checked (objectID from the path when given). */
export function toSynonym(body: unknown, objectID?: string): Synonym {
  if (!isPlainObject(body)) throw badRequest('Invalid JSON: a synonym must be an object');
  const id = objectID ?? body.objectID;
  if (typeof id !== 'string' || id === '') throw badRequest('A synonym needs an objectID');
  const type = body.type;
  const fail = (what: string) => { throw badRequest(`Synonym ${id}: ${what}`); };
  switch (type) {
    case 'synonym':
      if (!strings(body.synonyms) || body.synonyms.length < 2) fail('"synonyms" must list at least two words or phrases');
      return { objectID: id, type, synonyms: body.synonyms };
    case 'onewaysynonym':
      if (typeof body.input !== 'string' || body.input.trim() === '') fail('"input" must be a non-empty string');
      if (!strings(body.synonyms)) fail('"synonyms" must be a non-empty array of strings');
      return { objectID: id, type, input: body.input, synonyms: body.synonyms };
    case 'altcorrection1':
    case 'altcorrection2':
      if (typeof body.word !== 'string' || /\s/.test(body.word.trim()) || body.word.trim() === '') fail('"word" must be a single word');
      if (!strings(body.corrections) || body.corrections.some((c: string) => /\s/.test(c.trim()))) fail('"corrections" must be single words');
      return { objectID: id, type, word: body.word, corrections: body.corrections };
    case 'placeholder':
      if (typeof body.placeholder !== 'string' || !/^<[^<>]+>$/.test(body.placeholder)) fail('"placeholder" must look like <name>');
      if (!strings(body.replacements)) fail('"replacements" must be a non-empty array of strings');
      return { objectID: id, type, placeholder: body.placeholder, replacements: body.replacements };
    default:
      return fail(`unknown type "${String(type)}" (expected one of ${SYNONYM_TYPES.join(', ')})`);
  }
}

const key = (s: string) => fold(s).trim();
const single = (s: string) => !/\s/.test(s.trim());

/**
 * Alternatives for the query words from the index's synonyms. Only
 * single-word alternatives are matched (a phrase on either side is skipped).
 */
export function synonymAlternatives(words: string[], synonyms: Iterable<Synonym>, asExact: boolean): Alternative[] {
  const out: Alternative[] = [];
  const folded = words.map(key);
  const add = (word: number, candidates: string[], typos = 0) => {
    for (const c of candidates) {
      if (single(c) && key(c) !== folded[word]) out.push({ word, text: key(c), exact: asExact && typos === 0, typos });
    }
  };
  for (const s of synonyms) {
    folded.forEach((w, i) => {
      switch (s.type) {
        case 'synonym':
          if (s.synonyms.some((x) => key(x) === w)) add(i, s.synonyms);
          break;
        case 'onewaysynonym':
          if (key(s.input) === w) add(i, s.synonyms);
          break;
        case 'altcorrection1':
        case 'altcorrection2':
          if (key(s.word) === w) add(i, s.corrections, s.type === 'altcorrection1' ? 1 : 2);
          break;
        case 'placeholder':
          if (s.replacements.some((x) => key(x) === w)) add(i, [s.placeholder.slice(1, -1)]);
          break;
      }
    });
  }
  return out;
}

/** Synonym search: `query` in any of the synonym's words, `type` a comma list of types. */
export function searchSynonyms(all: Synonym[], query: string, types: string[], page: number, hitsPerPage: number) {
  const q = key(query);
  const text = (s: Synonym) => JSON.stringify(Object.values(s)).toLowerCase();
  const hits = all.filter((s) => (types.length === 0 || types.includes(s.type)) && (q === '' || key(text(s)).includes(q)));
  return { hits: hits.slice(page * hitsPerPage, (page + 1) * hitsPerPage), nbHits: hits.length };
}
