// Seeded generators of random requests, shared by the fuzz suites
// (router-fuzz, admin-write-fuzz): random JSON, strings, filters, search
// parameters, bodies, query strings, paths and targets aimed at ROUTES.
import { ROUTES, type Route } from '../../src/api/routes.js';
import { SEARCH_PARAMETERS, SETTINGS } from '../../src/index/params.js';
import { prng } from '../persistence/helpers.js';

/** Seeded draws (the shared mulberry32), so a failure replays. */
export function generator(seed: number) {
  const next = prng(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rand = ReturnType<typeof generator>;

export const KEY_FIELDS = ['acl', 'description', 'indexes', 'maxHitsPerQuery', 'maxQueriesPerIPPerHour', 'queryParameters', 'referers', 'validity'];
export const OTHER_FIELDS = [
  'requests', 'action', 'body', 'indexName', 'objectID', 'operation', 'destination', 'scope', 'source', 'type', 'synonyms',
  'input', 'word', 'corrections', 'placeholder', 'replacements', 'consequence', 'condition', 'conditions', 'enabled', 'validity',
  'promote', 'hide', 'params', 'strategy', 'facet', 'createIfNotExists', 'pattern', 'anchoring', 'context', 'filterPromotes',
  '_operation', 'value', 'query', '__proto__', 'constructor',
];
export const KNOWN_FIELDS = [...new Set([...Object.keys(SEARCH_PARAMETERS), ...Object.keys(SETTINGS), ...KEY_FIELDS, ...OTHER_FIELDS])];
export const HUGE = [1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 1e-320, -0, 4294967296, 2147483648, 1e21];
export const INVALID_JSON = ['{', '{"a":', '[1,2', 'NaN', '{"a":1}}', "{'a':1}", '\u0000', '{"a":01}', '[', '"unterminated', '{"requests":[{]}', 'Infinity', '-'];
export const SEGMENTS = ['films', 'books', 'missing', '*', '', '..', '%', '%E0%A4%A', '%00', '%2F', 'a%20b', '%FF', 'x'.repeat(600), 'ünï', '🔥', '1', '-1', '1e400', 'null', '__proto__', 'constructor', '{indexName}'];
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'FOO', 'get'];

/** Percent-encodes text with lone surrogates (which no URL can carry) replaced. */
export const enc = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));

export function randomString(r: Rand): string {
  const alphabet = ['a', 'Z', '0', ' ', '"', "'", '\\', '/', '%', '*', ':', ',', '(', ')', '[', ']', '{', '}', '&', '=', '<', '>', '\u0000', '\n', 'é', '🔥', '\ud800', 'AND', 'OR', 'NOT', ' TO '];
  const n = r.chance(0.05) ? 2000 + r.int(5000) : r.int(12);
  let s = '';
  for (let i = 0; i < n; i++) s += r.pick(alphabet);
  return s;
}

export function randomJson(r: Rand, depth = 0): unknown {
  const roll = r.int(depth > 3 ? 5 : 8);
  switch (roll) {
    case 0: return null;
    case 1: return r.chance(0.5);
    case 2: return r.chance(0.5) ? r.pick(HUGE) : r.int(200) - 100 + (r.chance(0.2) ? 0.5 : 0);
    case 3: case 4: return randomString(r);
    case 5: return Array.from({ length: r.int(4) }, () => randomJson(r, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = r.int(5); i > 0; i--) out[r.chance(0.8) ? r.pick(KNOWN_FIELDS) : randomString(r)] = randomJson(r, depth + 1);
      return out;
    }
  }
}

/** Filter text from grammar pieces: often valid, sometimes not. */
export function randomFilter(r: Rand): string {
  const pieces = ['genre:drama', 'year > 2000', 'year:1990 TO 2000', 'NOT genre:comedy', 'tags:t1', '_tags:t2', 'year = 1e308', 'year < -1e308', '(', ')', ' AND ', ' OR ', '"', 'objectID:5', randomString(r)];
  return Array.from({ length: 1 + r.int(4) }, () => r.pick(pieces)).join(r.pick([' AND ', ' OR ', ' ']));
}

/** Search parameters of the right types with random values: they reach the search itself. */
export function randomSearch(r: Rand): Record<string, unknown> {
  const out: Record<string, unknown> = { query: r.chance(0.5) ? r.pick(['film', 'alpha', 'movie', 'gama', '']) : randomString(r) };
  if (r.chance(0.5)) out.filters = randomFilter(r);
  if (r.chance(0.3)) out.facetFilters = [randomFilter(r), [randomFilter(r), 'genre:drama']];
  if (r.chance(0.3)) out.numericFilters = [r.pick(['year>1995', 'year=1e308', 'year:1 TO 0', randomString(r)])];
  if (r.chance(0.3)) out.facets = r.pick([['*'], ['genre', 'year'], 'genre']);
  if (r.chance(0.3)) out.page = r.pick([0, 1, 2 ** 31, 1e15]);
  if (r.chance(0.3)) out.hitsPerPage = r.pick([0, 1, 1000]);
  if (r.chance(0.2)) out.aroundLatLng = r.pick(['40.5, 2.5', '91, 200', randomString(r)]);
  if (r.chance(0.2)) out.insideBoundingBox = r.pick([[[40, 2, 45, 8]], [[1e308, -1e308, 0, 0]], [[1, 2, 3]], '1,2,3,4']);
  if (r.chance(0.2)) out.insidePolygon = r.pick([[[40, 2, 45, 8, 42, 9]], [[1, 2]], [[1e308, 1, 2, 3, 4, 5]]]);
  if (r.chance(0.2)) out.optionalFilters = [randomFilter(r)];
  if (r.chance(0.2)) out.distinct = r.int(5);
  if (r.chance(0.2)) out.attributesToHighlight = ['*'];
  if (r.chance(0.2)) out.attributesToSnippet = [r.pick(['title:5', 'title:-1', 'title:1e308', '*:2'])];
  if (r.chance(0.2)) out.typoTolerance = r.pick(['min', 'strict', false]);
  if (r.chance(0.2)) out.ruleContexts = [randomString(r)];
  if (r.chance(0.2)) out.advancedSyntax = true;
  return out;
}

export function randomBody(r: Rand): unknown {
  if (r.chance(0.3)) {
    const search = randomSearch(r);
    return r.chance(0.3) ? { requests: [{ indexName: 'films', ...search }, { indexName: 'films', type: 'facet', facet: 'genre', facetQuery: randomString(r) }] } : search;
  }
  switch (r.int(6)) {
    case 0: return undefined;
    case 1: return r.pick(INVALID_JSON);
    case 2: return JSON.stringify(randomJson(r));
    case 3: return { requests: Array.from({ length: r.int(4) }, () => randomJson(r, 2)) };
    case 4: {
      let deep: unknown = 1;
      for (let i = r.int(200); i > 0; i--) deep = r.chance(0.5) ? [deep] : { a: deep };
      return { query: 'film', filters: deep, facetFilters: deep };
    }
    default: {
      const out: Record<string, unknown> = {};
      for (let i = 1 + r.int(4); i > 0; i--) out[r.pick(KNOWN_FIELDS)] = randomJson(r, 1);
      return out;
    }
  }
}

export function randomQuery(r: Rand): string {
  const pairs: string[] = [];
  for (let i = r.int(4); i > 0; i--) {
    const name = r.chance(0.8) ? r.pick(KNOWN_FIELDS) : randomString(r);
    const value = r.chance(0.3) ? String(r.pick(HUGE)) : randomString(r);
    pairs.push(r.chance(0.1) ? `${name}=%E0%A4%A` : `${enc(name)}=${enc(value)}`);
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}

export function randomPath(r: Rand): string {
  if (r.chance(0.25)) {
    return '/' + Array.from({ length: r.int(6) }, () => (r.chance(0.5) ? r.pick(SEGMENTS) : enc(randomString(r)))).join('/');
  }
  const route = r.pick(ROUTES);
  return route.path.replace(/\{\w+\}/g, () => (r.chance(0.5) ? r.pick(SEGMENTS) : enc(randomString(r))));
}

/** A method, a path and a query string aimed at a route most of the time. */
export function randomTarget(r: Rand): { method: string; path: string } {
  // half the time a read, which the restricted keys may make: deeper than a 403
  const route = r.chance(0.5) ? r.pick(ROUTES.filter((x) => !isWrite(x.method, x.path))) : r.pick(ROUTES);
  const method = r.chance(0.8) ? route.method : r.pick(METHODS);
  const path = r.chance(0.8)
    ? route.path.replace(/\{\w+\}/g, (p) => (r.chance(0.6) ? ({ '{indexName}': 'films', '{objectID}': '1', '{facetName}': 'genre', '{taskID}': '1' } as Record<string, string>)[p] ?? r.pick(SEGMENTS) : r.pick(SEGMENTS)))
    : randomPath(r);
  return { method, path: path + randomQuery(r) };
}

/** No stack frame, source path or error class name. */
export function internals(text: string): boolean {
  return /\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d|\.js:\d|TypeError|RangeError|SyntaxError|ReferenceError|Internal error/.test(text);
}

export function fillForAdmin(route: Route): string {
  return route.path.replace('{indexName}', 'films').replace('{objectID}', '1').replace('{facetName}', 'genre')
    .replace('{taskID}', '1').replace('{key}', 'nokey').replace('{source}', '10.0.0.1');
}

/** Whether a call could change data (every route but the reads). */
export function isWrite(method: string, path: string): boolean {
  const bare = path.split('?')[0];
  if (method.toUpperCase() === 'GET') return false;
  return !/\/(query|queries|browse|objects|search)$/.test(bare) && !/\/facets\/[^/]+\/query$/.test(bare);
}
