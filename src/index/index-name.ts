// Index names, and the index patterns of a key's `indexes`. A name is taken
// literally everywhere (an index key's own index, `restrictIndices`, copy
// and move destinations, replicas); the one pattern form is a key's
// `indexes` entry with `*` at its start and/or end (search-api.md, "API
// key"). A name that looks empty would make a key's list look empty, and an
// empty list admits every index: such names are refused here, and a blank
// pattern matches nothing (auth/api-keys.ts, indexAdmitted).
import { badRequest } from '../util/errors.js';

export const MAX_INDEX_NAME = 512;

/** Control characters (C0, DEL, C1), and `*`, the wildcard of index patterns. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f*]/;
/**
 * Characters that show nothing: Unicode whitespace (`\s` covers U+00A0,
 * U+3000, U+2000-U+200A, ...) and the invisible format characters (zero
 * width space and joiners, word joiner, BOM, Mongolian vowel separator).
 */
const SHOWS_NOTHING = '\\s\\u180e\\u200b-\\u200d\\u2060\\ufeff';
const BLANK = new RegExp(`^[${SHOWS_NOTHING}]*$`);
const BLANK_END = new RegExp(`^[${SHOWS_NOTHING}]|[${SHOWS_NOTHING}]$`);

/** Whether `text` shows nothing: empty, or only whitespace and invisible characters. */
export function isBlank(text: string): boolean {
  return BLANK.test(text);
}

/** Quoted for a message, cut short: the name was refused, maybe for its length. */
const quoted = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

/** Why `name` is not a valid index name, or undefined when it is one. */
export function indexNameProblem(name: unknown, field = 'index name'): string | undefined {
  if (typeof name !== 'string') return `Invalid ${field}: expected a string`;
  if (isBlank(name)) return `Invalid ${field}: it must not be empty or blank`;
  if (name.length > MAX_INDEX_NAME) return `Invalid ${field}: longer than ${MAX_INDEX_NAME} characters`;
  if (BLANK_END.test(name)) return `Invalid ${field} ${quoted(name)}: it must not start or end with whitespace`;
  if (FORBIDDEN.test(name)) return `Invalid ${field} ${quoted(name)}: control characters and "*" are not allowed`;
  return undefined;
}

/** `name` when it is a valid index name; a 400 saying why otherwise. */
export function checkIndexName(name: unknown, field = 'index name'): string {
  const problem = indexNameProblem(name, field);
  if (problem !== undefined) throw badRequest(problem);
  return name as string;
}

/** A key's `indexes` entry: an index name with an optional `*` at its start and/or end. */
export function checkIndexPattern(pattern: string): string {
  if (isBlank(pattern)) throw badRequest('Invalid value for "indexes": an entry must not be empty or blank (it would match no index)');
  const lead = pattern.startsWith('*') ? 1 : 0;
  const core = pattern.slice(lead, pattern.length > lead && pattern.endsWith('*') ? -1 : undefined);
  if (core.includes('*')) throw badRequest(`Invalid value for "indexes": ${quoted(pattern)} may only have a wildcard at its start or end`);
  if (core.length > MAX_INDEX_NAME || FORBIDDEN.test(core)) {
    throw badRequest(`Invalid value for "indexes": ${quoted(pattern)} is not an index name or pattern`);
  }
  return pattern;
}

