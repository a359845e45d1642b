// The admin key writing, at random (seeded, deterministic): every
// POST/PUT/DELETE route of ROUTES with bodies that are plausible — a valid
// body of the route with one field mutated (huge, negative, fractional
// numbers, empty and 10,000-character strings, nesting up to 64 deep, arrays
// where objects belong, unicode, `__proto__` / `constructor` keys), batches
// mixing valid and invalid actions, settings with odd values, rules and
// synonyms with odd conditions, keys with odd ACLs — against an engine on a
// temporary fsStorage directory. Never a 5xx (nor a 'lantern: internal error'
// line); then a snapshot, a close and a reopen: whatever the API accepted
// opens again, and every index answers a search.
// FUZZ_SEED and FUZZ_N replace the seed and the number of calls (to hunt).
import { appendFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ROUTES, type Route } from '../../src/api/routes.js';
import { SETTINGS } from '../../src/index/params.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID } from '../api/helpers.js';
import { cleanup, closeEngine, normalized, openAt, tempDir } from '../persistence/helpers.js';
import { HUGE, KNOWN_FIELDS, type Rand, enc, generator, randomBody, randomFilter, randomJson, randomSearch, randomString } from './fuzz-generators.js';

const OPTIONS = { appId: APP_ID, adminKey: ADMIN_KEY, clusters: ['c1-test', 'c2-test'] };
/** Drawn less often, so the other writes find data. */
const DESTRUCTIVE = new Set(['deleteIndex', 'clearObjects', 'deleteBy', 'clearRules', 'clearSynonyms']);
const WRITES = ROUTES.filter((route) => route.method !== 'GET');
const ATTRIBUTES = ['title', 'genre', 'year', 'tags', '_geoloc', 'ünïcödé', 'a.b', '*', '', 'objectID', '__proto__'];
const INDEX_NAMES = ['films', 'films', 'films', 'films', 'films', 'books', 'books', 'films_by_year', 'fresh', 'ünï 🔥', 'a'.repeat(512), '__proto__', 'constructor'];
const UNICODE = ['ünïcödé', '名前', '🔥🔥', '\u3000', 'a\u0000b', '\u202eevil', '\ud800', 'Ω'.repeat(300)];

/** A value chosen to break: out of range, empty, long, deep, the wrong container, a prototype key. */
function oddValue(r: Rand): unknown {
  switch (r.int(15)) {
    case 0: return r.pick(HUGE);
    case 1: return -(1 + r.int(1000));
    case 2: return r.int(100) + r.pick([0.5, 0.001, 0.999]);
    case 3: return '';
    case 4: return r.pick(['x', 'é', '🔥', ' ', 'a,']).repeat(10_000);
    case 5: return deep(r, 1 + r.int(64));
    case 6: return r.chance(0.5) ? [{}] : [randomJson(r, 2)];
    case 7: return r.pick(UNICODE);
    case 8: return JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}');
    case 9: return { constructor: { prototype: { polluted: 1 } } };
    case 10: return null;
    case 11: return r.pick([0, -0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e-7, 2 ** 32]);
    case 12: return r.pick(['0', '-1', '1e400', 'NaN', 'true', '[]', '{}', 'null']);
    case 13: return [];
    default: return randomJson(r, 1);
  }
}

function deep(r: Rand, depth: number): unknown {
  let value: unknown = r.chance(0.5) ? 'leaf' : 1;
  for (let i = 0; i < depth; i++) value = r.chance(0.5) ? [value] : { a: value };
  return value;
}

/** Every container path inside a value (to pick one field to mutate). */
function fieldPaths(value: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (at.length > 6) return out;
  if (Array.isArray(value)) value.forEach((v, i) => { out.push([...at, i]); fieldPaths(v, [...at, i], out); });
  else if (value && typeof value === 'object') for (const k of Object.keys(value)) { out.push([...at, k]); fieldPaths((value as Record<string, unknown>)[k], [...at, k], out); }
  return out;
}

let lastValid: unknown;

/** A valid body with one field replaced (or added, or removed), or the body itself. */
function mutate(r: Rand, valid: unknown): unknown {
  const roll = r.next();
  if (roll < 0.35) return lastValid = valid;
  if (roll < 0.3) return oddValue(r); // the whole body
  if (roll < 0.34) return [valid]; // an array where an object belongs
  const body = structuredClone(valid);
  const paths = fieldPaths(body);
  if (paths.length === 0 || typeof body !== 'object' || body === null) return body;
  const path = r.pick(paths);
  let parent = body as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (r.chance(0.1) && !Array.isArray(parent)) delete parent[last];
  else if (r.chance(0.15) && !Array.isArray(parent)) {
    const key = r.pick(['__proto__', 'constructor', 'prototype', r.pick(KNOWN_FIELDS), r.pick(UNICODE)]);
    Object.defineProperty(parent, key, { value: oddValue(r), enumerable: true, writable: true, configurable: true });
  } else parent[last] = oddValue(r);
  return body;
}

/** A plausible value for a setting or search parameter of a given kind. */
function settingValue(r: Rand, name: string, spec: { kind: string; values?: readonly string[]; min?: number; max?: number }): unknown {
  if (r.chance(0.25)) return oddValue(r);
  const attrs = () => Array.from({ length: r.int(4) }, () => r.pick(ATTRIBUTES));
  switch (spec.kind) {
    case 'string': return spec.values ? r.pick(spec.values) : r.pick(['', 'title', '<em>', r.pick(UNICODE), randomString(r)]);
    case 'int': case 'number': return r.pick([spec.min ?? 0, spec.max ?? 1000, (spec.min ?? 0) - 1, (spec.max ?? 0) + 1, 1, 5, 1e15, 2.5]);
    case 'bool': return r.chance(0.5);
    case 'stringList':
      if (name === 'customRanking' || name === 'ranking') return attrs().map((a) => `${r.pick(['asc', 'desc'])}(${a})`).concat(name === 'ranking' ? ['typo', 'geo', 'words'] : []);
      if (name === 'attributesForFaceting') return attrs().map((a) => r.pick(['', 'searchable(', 'filterOnly(', 'afterDistinct(']) ? `${r.pick(['searchable', 'filterOnly', 'afterDistinct'])}(${a})` : a);
      if (name === 'replicas' || name === 'slaves') return r.pick([[], ['films_r'], ['virtual(films_v)'], ['films'], ['books'], ['films_r', 'films_r'], [r.pick(UNICODE)]]);
      if (name === 'searchableAttributes') return attrs().map((a) => (r.chance(0.3) ? `unordered(${a})` : r.chance(0.2) ? `${a},genre` : a));
      return attrs();
    case 'typoTolerance': return r.pick(['min', 'strict', true, false]);
    case 'boolOrStringList': return r.pick([true, false, ['en'], ['fr', 'de'], ['xx-yyyyy'], []]);
    case 'distinct': return r.pick([true, false, 0, 1, 3, 4]);
    case 'radius': return r.pick(['all', 1, 1000, 0]);
    case 'filterList': return [randomFilter(r)];
    case 'facets': return r.pick([['*'], ['genre'], []]);
    case 'object': return r.pick([{}, { facetOrdering: { facets: { order: ['genre'] }, values: { genre: { order: ['drama'], sortRemainingBy: 'alpha' } } } }, { de: ['title'] }, { default: { ä: 'a' } }]);
    default: return randomJson(r, 1);
  }
}

function settings(r: Rand): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names = Object.keys(SETTINGS);
  for (let i = 1 + r.int(4); i > 0; i--) {
    const name = r.pick(names);
    out[name] = settingValue(r, name, SETTINGS[name]);
  }
  return out;
}

function record(r: Rand, withID = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    title: r.pick(['film alpha', 'movie beta', r.pick(UNICODE), randomString(r)]), genre: r.pick(['drama', 'comedy', 'horror']),
    year: r.pick([1999, 2020, -5, 1.5, 1e308]), tags: [`t${r.int(4)}`],
  };
  if (r.chance(0.3)) out._geoloc = r.pick([{ lat: 40, lng: 2 }, { lat: 91, lng: 200 }, [{ lat: 1, lng: 1 }], { lat: '1', lng: 'x' }]);
  if (r.chance(0.2)) out._tags = ['x', 'y'];
  if (withID || r.chance(0.5)) out.objectID = objectID(r);
  return out;
}

function objectID(r: Rand): string {
  return r.pick(['1', '2', '5', '59', 'new', `n${r.int(50)}`, r.pick(UNICODE), 'a'.repeat(600), '__proto__', 'constructor', '']);
}

function batchAction(r: Rand, withIndex: boolean): Record<string, unknown> {
  const action = r.pick(['addObject', 'updateObject', 'partialUpdateObject', 'partialUpdateObjectNoCreate', 'deleteObject', 'delete', 'clear', 'fly']);
  const out: Record<string, unknown> = { action };
  if (action === 'partialUpdateObject' || action === 'partialUpdateObjectNoCreate') out.body = { objectID: objectID(r), ...partial(r) };
  else if (action === 'deleteObject') out.body = { objectID: objectID(r) };
  else if (action !== 'delete' && action !== 'clear') out.body = record(r, action === 'updateObject');
  if (withIndex) out.indexName = r.pick(INDEX_NAMES);
  return out;
}

function partial(r: Rand): Record<string, unknown> {
  const op = r.pick(['Increment', 'Decrement', 'Add', 'Remove', 'AddUnique', 'IncrementFrom', 'IncrementSet']);
  return {
    [r.pick(['year', 'tags', 'title', 'new'])]: r.chance(0.7) ? { _operation: op, value: r.pick([1, -1, 'x', 1e308, 0.5]) } : 'plain',
    ...(r.chance(0.3) ? { 'nested.path': { _operation: 'Increment', value: 1 } } : {}),
  };
}

function synonym(r: Rand, id?: string): Record<string, unknown> {
  const type = r.pick(['synonym', 'onewaysynonym', 'altcorrection1', 'altcorrection2', 'placeholder', 'oneWaySynonym']);
  const out: Record<string, unknown> = { objectID: id ?? objectID(r), type };
  if (type === 'synonym') out.synonyms = ['film', 'movie', r.pick(UNICODE)];
  if (type.toLowerCase() === 'onewaysynonym') Object.assign(out, { input: 'film', synonyms: ['movie'] });
  if (type.startsWith('altcorrection')) Object.assign(out, { word: 'film', corrections: ['flim'] });
  if (type === 'placeholder') Object.assign(out, { placeholder: '<year>', replacements: ['2000', '2001'] });
  return out;
}

function rule(r: Rand, id?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    objectID: id ?? objectID(r),
    consequence: r.pick([
      { promote: [{ objectID: '5', position: 0 }, { objectIDs: ['1', '2'], position: 3 }] },
      { hide: [{ objectID: '1' }] },
      { params: { ...randomSearch(r), query: r.pick([{ remove: ['alpha'] }, { edits: [{ type: 'replace', delete: 'alpha', insert: 'beta' }] }, 'x']) } },
      { params: { automaticFacetFilters: [{ facet: 'genre', disjunctive: true, score: 2 }], automaticOptionalFacetFilters: ['genre'], renderingContent: {} } },
      { userData: { a: 1 }, filterPromotes: true },
    ]),
  };
  if (r.chance(0.8)) {
    out.conditions = [{
      pattern: r.pick(['alpha', '{facet:genre}', '', 'a b c', r.pick(UNICODE)]), anchoring: r.pick(['is', 'startsWith', 'endsWith', 'contains']),
      ...(r.chance(0.3) ? { alternatives: true } : {}), ...(r.chance(0.3) ? { context: r.pick(['ctx', '', 'a b']) } : {}),
      ...(r.chance(0.2) ? { filters: randomFilter(r) } : {}),
    }];
  }
  if (r.chance(0.3)) out.validity = [{ from: r.pick([0, 1e10, -1, 1.5]), until: r.pick([2e9, 0, 1e308]) }];
  if (r.chance(0.3)) out.enabled = r.chance(0.5);
  if (r.chance(0.2)) out.description = r.pick(UNICODE);
  return out;
}

function apiKey(r: Rand): Record<string, unknown> {
  const out: Record<string, unknown> = { acl: r.pick([['search'], ['search', 'browse', 'addObject'], ['admin'], ['editSettings', 'settings'], [], ['fly']]) };
  if (r.chance(0.5)) out.description = r.pick(['a key', r.pick(UNICODE)]);
  if (r.chance(0.4)) out.indexes = r.pick([['films'], ['films*'], ['*'], [], [r.pick(UNICODE)]]);
  if (r.chance(0.3)) out.maxHitsPerQuery = r.pick([0, 10, 1e15, -1]);
  if (r.chance(0.3)) out.maxQueriesPerIPPerHour = r.pick([0, 100, 1e15, 0.5]);
  if (r.chance(0.3)) out.queryParameters = r.pick(['filters=genre%3Adrama', 'hitsPerPage=5&page=2', 'typoTolerance=sometimes', '%E0%A4%A', '']);
  if (r.chance(0.3)) out.referers = r.pick([['*.example.com'], ['https://a/*'], [], ['*']]);
  if (r.chance(0.3)) out.validity = r.pick([0, 60, 1e15, -5, 0.5]);
  return out;
}

function event(r: Rand): Record<string, unknown> {
  const type = r.pick(['click', 'conversion', 'view']);
  const out: Record<string, unknown> = { eventType: type, eventName: r.pick(['seen', 'clicked', r.pick(UNICODE)]), index: r.pick(INDEX_NAMES), userToken: r.pick(['u1', 'u-2', r.pick(UNICODE)]) };
  if (r.chance(0.7)) out.objectIDs = ['1', '2'];
  else out.filters = ['genre:drama'];
  if (type === 'click' && r.chance(0.5)) Object.assign(out, { queryID: 'a'.repeat(32), positions: [1, 2] });
  if (r.chance(0.3)) out.timestamp = r.pick([Date.now(), 0, 1e15, Date.now() - 86_400_000]);
  if (type === 'conversion' && r.chance(0.3)) Object.assign(out, { eventSubtype: r.pick(['addToCart', 'purchase']), objectData: [{ price: 10, quantity: 2 }, { price: '1e308' }], currency: 'EUR', value: 20 });
  return out;
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

/** The valid form of each operation's body (or undefined when it takes none). */
const VALID: Record<string, (r: Rand) => unknown> = {
  saveObject: (r) => record(r),
  addOrUpdateObject: (r) => record(r),
  partialUpdateObject: (r) => partial(r),
  batch: (r) => ({ requests: Array.from({ length: 1 + r.int(5) }, () => batchAction(r, false)) }),
  multipleBatch: (r) => ({ requests: Array.from({ length: 1 + r.int(5) }, () => batchAction(r, true)) }),
  deleteBy: (r) => ({ ...(r.chance(0.7) ? { filters: randomFilter(r) } : {}), ...(r.chance(0.3) ? { facetFilters: ['genre:comedy'] } : {}), ...(r.chance(0.2) ? { aroundLatLng: '40, 2', aroundRadius: 1000 } : {}), ...(r.chance(0.2) ? { insideBoundingBox: [[40, 2, 45, 8]] } : {}) }),
  setSettings: settings,
  operationIndex: (r) => ({ operation: r.pick(['copy', 'move']), destination: r.pick(INDEX_NAMES), ...(r.chance(0.4) ? { scope: r.pick([['settings'], ['synonyms', 'rules'], []]) } : {}) }),
  saveSynonym: (r) => synonym(r),
  saveSynonyms: (r) => Array.from({ length: 1 + r.int(4) }, () => synonym(r)),
  saveRule: (r) => rule(r),
  saveRules: (r) => Array.from({ length: 1 + r.int(4) }, () => rule(r)),
  addApiKey: apiKey,
  updateApiKey: apiKey,
  addIndexApiKey: apiKey,
  updateIndexApiKey: apiKey,
  replaceSources: (r) => Array.from({ length: r.int(3) }, () => ({ source: r.pick(['10.0.0.0/8', '192.0.2.1', '::1/128', '0.0.0.0/0', '1.2.3.4/33']), description: r.pick(['office', r.pick(UNICODE)]) })),
  appendSource: (r) => ({ source: r.pick(['10.0.0.0/8', '192.0.2.1', '192.0.2.0/24', '2001:db8::/32']), description: 'office' }),
  pushEvents: (r) => ({ events: Array.from({ length: 1 + r.int(3) }, () => event(r)) }),
  addABTests: (r) => ({
    name: r.pick(['test', r.pick(UNICODE)]), endAt: r.pick([tomorrow(), '2001-01-01T00:00:00Z', 'soon']),
    variants: r.pick([
      [{ index: 'films', trafficPercentage: 50 }, { index: 'books', trafficPercentage: 50 }],
      [{ index: 'films', trafficPercentage: 30 }, { index: 'films', trafficPercentage: 70, customSearchParameters: { typoTolerance: false } }],
      [{ index: 'films', trafficPercentage: 100 }, { index: 'films_by_year', trafficPercentage: 0 }],
    ]),
  }),
  estimateABTest: (r) => ({
    configuration: { minimumDetectableEffect: { size: r.pick([0.03, 0, 1, 5]), metric: r.pick(['clickThroughRate', 'conversionRate', 'revenue']) }, emptySearch: { exclude: r.chance(0.5) } },
    variants: [{ index: 'films', trafficPercentage: 50 }, { index: 'books', trafficPercentage: 50 }],
  }),
  setPersonalizationStrategy: (r) => ({
    eventsScoring: [{ eventName: 'clicked', eventType: r.pick(['click', 'conversion', 'view']), score: r.pick([1, 100, 0]) }],
    facetsScoring: [{ facetName: r.pick(['genre', 'tags']), score: r.pick([1, 100]) }], personalizationImpact: r.pick([0, 50, 100]),
  }),
  setRecommendationStrategy: (r) => ({
    eventsScoring: { clicked: { score: r.pick([1, 100]), type: r.pick(['click', 'view']) } }, facetsScoring: { genre: { score: r.pick([1, 50]) } },
  }),
  createConfig: (r) => ({
    indexName: r.pick(['films_qs', 'books_qs', 'films', r.pick(UNICODE)]),
    sourceIndices: [{ indexName: r.pick(['films', 'books', 'missing']), minHits: r.pick([0, 5]), minLetters: r.pick([0, 4]), facets: [{ attribute: 'genre', amount: 2 }], generate: [['genre']] }],
    ...(r.chance(0.3) ? { languages: ['en'], exclude: ['bad'], enablePersonalization: false, allowSpecialCharacters: true } : {}),
  }),
  updateConfig: (r) => ({ sourceIndices: [{ indexName: r.pick(['films', 'books']), minHits: r.pick([0, 5]) }], ...(r.chance(0.3) ? { languages: ['en'] } : {}) }),
  assignUserId: (r) => ({ cluster: r.pick(['c1-test', 'c2-test', 'nowhere']) }),
  batchAssignUserIds: (r) => ({ cluster: r.pick(['c1-test', 'c2-test']), users: r.pick([['ada', 'bob'], ['eve'], []]) }),
  searchUserIds: (r) => ({ query: r.pick(['a', '']), clusterName: 'c1-test', page: r.pick([0, 1, 1e15]), hitsPerPage: r.pick([1, 20, 1000]) }),
  search: (r) => ({ requests: [{ indexName: r.pick(INDEX_NAMES), ...randomSearch(r) }] }),
  getObjects: (r) => ({ requests: [{ indexName: r.pick(INDEX_NAMES), objectID: objectID(r), attributesToRetrieve: ['title'] }] }),
  searchSingleIndex: randomSearch,
  browse: randomSearch,
  searchForFacetValues: (r) => ({ facetQuery: r.pick(['dr', '', r.pick(UNICODE)]), ...randomSearch(r) }),
  searchSynonyms: (r) => ({ query: r.pick(['film', '']), type: r.pick(['synonym', 'placeholder']), page: r.pick([0, 1]), hitsPerPage: r.pick([1, 100]) }),
  searchRules: (r) => ({ query: r.pick(['alpha', '']), anchoring: r.pick(['is', 'contains']), context: 'ctx', page: 0, hitsPerPage: 10, enabled: r.chance(0.5) }),
};

/** Path parameters for a route: mostly the ones that exist, sometimes odd ones. */
function fillPath(r: Rand, route: Route, keys: string[]): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    switch (name) {
      case 'indexName': return enc(route.path.startsWith('/1/configs') ? r.pick(['films_qs', 'books_qs', 'missing', r.pick(UNICODE)]) : r.pick(INDEX_NAMES));
      case 'objectID': return enc(objectID(r));
      case 'facetName': return enc(r.pick(['genre', 'year', 'missing']));
      case 'key': return enc(r.chance(0.8) && keys.length ? r.pick(keys) : r.pick(['nokey', r.pick(UNICODE)]));
      case 'source': return enc(r.pick(['10.0.0.0/8', '192.0.2.1', 'nope']));
      case 'userToken': return enc(r.pick(['u1', 'u-2', 'nobody', r.pick(UNICODE)]));
      case 'id': return enc(r.pick(['1', '2', '3', '0', '-1', '1e400', 'abc']));
      case 'userID': return enc(r.pick(['ada', 'bob', 'eve', 'nobody']));
      default: return enc(randomString(r));
    }
  });
}

function query(r: Rand, route: Route): string {
  if (!route.query || !r.chance(0.3)) return '';
  const name = r.pick(route.query);
  return `?${enc(name)}=${enc(String(r.pick([true, false, 'true', 'maybe', 1, ''])))}`;
}

type Admin = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

/** What the API holds, read back (times and counting-down validities left out). */
async function dump(admin: Admin, indexes: string[]): Promise<unknown> {
  const read = async (method: string, path: string, body?: unknown) => {
    const response = await admin(method, path, body);
    return normalized({ status: response.status, body: response.body });
  };
  const out: Record<string, unknown> = {};
  for (const name of indexes) {
    const at = `/1/indexes/${enc(name)}`;
    out[name] = {
      records: await read('POST', `${at}/browse`, { hitsPerPage: 1000 }),
      settings: await read('GET', `${at}/settings`),
      synonyms: await read('POST', `${at}/synonyms/search`, { hitsPerPage: 1000 }),
      rules: await read('POST', `${at}/rules/search`, { hitsPerPage: 1000 }),
    };
  }
  for (const path of ['/1/keys', '/1/security/sources', '/2/abtests', '/1/configs', '/1/strategies/personalization', '/1/clusters/mapping']) out[path] = await read('GET', path);
  return JSON.parse(JSON.stringify(out, (k, v) => (k === 'validity' && typeof v === 'number' ? '<validity>' : v)));
}

const show = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body) ?? 'undefined');

describe('admin write fuzz', () => {
  afterAll(cleanup);

  it('random plausible writes by the admin key on every write route: no 5xx; what was accepted reopens', async () => {
    await fuzz(Number(process.env.FUZZ_SEED ?? 20261126), Number(process.env.FUZZ_N ?? 3000), process.env.FUZZ_ONLY, true);
  }, 60_000);

  // Found by seed 11 (fixed): a search with an altcorrection synonym on an index cleared of every record
  // answered 500, "memory access out of bounds" in the core (lookupToken read the term table before the
  // first lookup allocated it). The seed's calls on that index replay as a regression test.
  it('seed 11: a search with an altcorrection synonym on an index cleared of every record answers 200', async () => {
    await fuzz(11, 2790, '/indexes/constructor', false);
  }, 60_000);
  // Found by seed 16 (fixed): a key that reached the source of a queued move through an earlier copy,
  // recreated on that source while the move waited, reached the move's destination live (applied at once,
  // it was extended by the move after it) but not after a replay (the move applied first, the recreation
  // then started the key anew). The seed's calls replay as a regression test.
  it('seed 16: an index key reaches the same indexes after a restart from the log', async () => {
    await fuzz(16, 6000, undefined, false);
  }, 60_000);
});

/** The fuzz run: `calls` seeded calls (those matching `only` sent), then the restarts. */
async function fuzz(seed: number, calls: number, only: string | undefined, everyRoute: boolean): Promise<void> {
  {
    const r = generator(seed);
    const dir = tempDir('lantern-write-fuzz-');
    let engine: Lantern = await openAt(dir, { ...OPTIONS, snapshotEvery: 0 });
    const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = ADMIN_HEADERS) =>
      engine.request({ method, path, body, headers, sourceIp: '192.0.2.1' });
    const internalErrors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      const line = args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ');
      // 'lantern: internal error' is a 500; the others are failures in the background (a batch of searches not logged…)
      internalErrors.push(line);
    });
    try {
      const seed_ = async () => {
      await admin('PUT', '/1/indexes/films/settings', { attributesForFaceting: ['searchable(genre)', 'year'], searchableAttributes: ['title', 'genre'], replicas: ['films_by_year'] });
      await admin('POST', '/1/indexes/films/batch', {
        requests: Array.from({ length: 60 }, (_, i) => ({ action: 'addObject', body: { objectID: String(i), title: `film ${i}`, genre: ['drama', 'comedy', 'horror'][i % 3], year: 1990 + (i % 30), tags: [`t${i % 4}`] } })),
      });
      await admin('PUT', '/1/indexes/books/1', { title: 'a book' });
      await admin('POST', '/1/clusters/mapping', { cluster: 'c1-test' }, { ...ADMIN_HEADERS, 'x-algolia-user-id': 'ada' });
      await engine.waitForTasks();
      };

      const keys: string[] = [];
      const counts: Record<string, number> = {};
      const accepted: Record<string, number> = {};
      let first: string | undefined;
      for (let i = 0; i < calls && !first; i++) {
        // the data back now and then (deleteIndex and clear are drawn too)
        if (i % 250 === 0) await seed_();
        const route = r.pick(WRITES);
        if (DESTRUCTIVE.has(route.op) && r.chance(0.7)) continue;
        const valid = VALID[route.op] as ((r: Rand) => unknown) | undefined;
        const body = route.body === undefined && !valid
          ? (r.chance(0.8) ? undefined : randomBody(r))
          : valid && r.chance(0.9) ? mutate(r, valid(r)) : randomBody(r);
        const path = fillPath(r, route, keys) + query(r, route);
        const headers: Record<string, string> = r.chance(0.1) ? { ...ADMIN_HEADERS, 'x-algolia-user-id': r.pick(['ada', 'ada', 'ada', 'nobody', '%%']) } : ADMIN_HEADERS;
        if (only && !new RegExp(only).test(`#${i} ${route.op} ${path}`)) continue;
        const before = internalErrors.length;
        const response = await admin(route.method, path, body, headers);
        counts[route.op] = (counts[route.op] ?? 0) + 1;
        if (process.env.FUZZ_LOG) appendFileSync(process.env.FUZZ_LOG, `#${i} ${route.op} ${route.method} ${path.slice(0, 100)} ${JSON.stringify(headers['x-algolia-user-id'] ?? '')} ${show(body).slice(0, 300)} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}\n`);
        if (response.status < 300) accepted[route.op] = (accepted[route.op] ?? 0) + 1;
        if (response.status >= 500 || internalErrors.length > before) {
          first = `seed ${seed} call #${i} ${route.op}: ${route.method} ${path.slice(0, 200)} body ${show(body).slice(0, 600)} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)} ${internalErrors.slice(before).join('\n').slice(0, 800)}`;
        } else if (response.status >= 400) {
          expect(typeof (response.body as { message?: unknown }).message, `${route.op} ${show(body).slice(0, 200)}`).toBe('string');
          if (process.env.FUZZ_VERBOSE && body === lastValid) console.log(`${route.op} ${route.method} ${path.slice(0, 80)} ${show(body).slice(0, 200)} → ${response.status} ${(response.body as { message: string }).message.slice(0, 150)}`);
        }
        const created = (response.body as { key?: unknown }).key;
        if (response.status < 300 && typeof created === 'string') keys.push(created);
      }
      if (process.env.FUZZ_VERBOSE) console.log(WRITES.map((w) => `${w.op} ${accepted[w.op] ?? 0}/${counts[w.op] ?? 0}`).join('\n'));
      expect(first).toBeUndefined();
      // every write route was called
      if (everyRoute) expect(WRITES.filter((route) => !counts[route.op]).map((route) => route.op)).toEqual([]);

      // whatever was accepted survives a restart: replayed from the log (no snapshot was taken), then from a snapshot
      await engine.waitForTasks();
      const names = async () => (((await admin('GET', '/1/indexes')).body as { items: Array<{ name: string; entries: number }> }).items)
        .map(({ name, entries }) => ({ name, entries })).sort((a, b) => a.name.localeCompare(b.name));
      const beforeClose = await names();
      const dumped = await dump(admin, beforeClose.map((x) => x.name));
      await closeEngine(engine);
      engine = await openAt(dir, OPTIONS);
      expect(await names()).toEqual(beforeClose);
      expect(await dump(admin, beforeClose.map((x) => x.name))).toEqual(dumped);
      await engine.waitForTasks();
      await engine.snapshot();
      await closeEngine(engine);
      engine = await openAt(dir, OPTIONS);
      const listed = await admin('GET', '/1/indexes');
      expect(listed.status).toBe(200);
      expect(await names()).toEqual(beforeClose);
      expect(await dump(admin, beforeClose.map((x) => x.name))).toEqual(dumped);
      for (const { name } of beforeClose) {
        const search = await admin('POST', `/1/indexes/${enc(name)}/query`, { query: '' });
        expect(search.status, `search on ${name}: ${JSON.stringify(search.body).slice(0, 300)}`).toBeLessThan(500);
      }
      expect(internalErrors).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  }
}

/** Cases the fuzz found, each once a 5xx or a change across a restart. */
describe('admin write fuzz: regressions', () => {
  afterAll(cleanup);

  it('a suggestions build counts the hits of its source even when its settings leave nbHits out of responses (responseFields)', async () => {
    const dir = tempDir('lantern-write-fuzz-');
    const engine = await openAt(dir, OPTIONS);
    const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: ADMIN_HEADERS });
    await admin('PUT', '/1/indexes/films/settings', { attributesForFaceting: ['genre'], responseFields: ['hits'] });
    await admin('POST', '/1/indexes/films/batch', { requests: Array.from({ length: 5 }, (_, i) => ({ action: 'addObject', body: { objectID: String(i), title: 'film alpha', genre: 'drama' } })) });
    await engine.waitForTasks();
    for (let i = 0; i < 3; i++) await engine.request({ method: 'POST', path: '/1/indexes/films/query', body: { query: 'alpha', userToken: `u${i}` }, headers: ADMIN_HEADERS });
    expect((await admin('POST', '/1/configs', { indexName: 'films_qs', sourceIndices: [{ indexName: 'films', minHits: 0, minLetters: 0, facets: [{ attribute: 'genre', amount: 2 }] }] })).status).toBe(200);
    await engine.buildQuerySuggestions('films_qs');
    await engine.waitForTasks();
    const hits = ((await admin('POST', '/1/indexes/films_qs/browse', {})).body as { hits: Array<{ query: string; films: { exact_nb_hits: unknown } }> }).hits;
    expect(hits.map((h) => [h.query, h.films.exact_nb_hits])).toEqual([['alpha', 5]]);
    await closeEngine(engine);
  });

  it('a search whose query holds a lone surrogate is logged with U+FFFD, not lost with the searches of its batch at the next restart', async () => {
    const dir = tempDir('lantern-write-fuzz-');
    let engine = await openAt(dir, { ...OPTIONS, snapshotEvery: 0 });
    const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: ADMIN_HEADERS, sourceIp: '192.0.2.1' });
    await admin('PUT', '/1/indexes/films/1', { title: 'film' });
    await engine.waitForTasks();
    for (const query of ['film', 'a\ud800b']) expect((await admin('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'films', query, analyticsTags: ['t\udc00'], filters: 'title:"x\ud800"' }] })).status).toBe(200);
    const searches = async () => ((await admin('GET', '/2/searches?index=films')).body as { searches: Array<{ search: string; count: number }> }).searches
      .map(({ search, count }) => [search, count]).sort();
    expect(await searches()).toEqual([['a\ufffdb', 1], ['film', 1]]);
    await closeEngine(engine);
    engine = await openAt(dir, OPTIONS);
    expect(await searches()).toEqual([['a\ufffdb', 1], ['film', 1]]);
    await closeEngine(engine);
  });

  it('an index key updated, or created, while a copy of its index is queued reaches the same indexes after a restart from the log', async () => {
    const dir = tempDir('lantern-write-fuzz-');
    let engine = await openAt(dir, { ...OPTIONS, snapshotEvery: 0 });
    const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: ADMIN_HEADERS });
    await admin('POST', '/1/indexes/films/batch', { requests: Array.from({ length: 200 }, (_, i) => ({ action: 'addObject', body: { objectID: String(i), title: `film ${i}` } })) });
    const updated = ((await admin('POST', '/1/indexes/films/keys', { acl: ['search'] })).body as { key: string }).key;
    await engine.waitForTasks();
    // the copy waits behind a batch: the key writes after it apply first
    await admin('POST', '/1/indexes/films/batch', { requests: Array.from({ length: 2000 }, (_, i) => ({ action: 'addObject', body: { objectID: `b${i}`, title: `film ${i}` } })) });
    expect((await admin('POST', '/1/indexes/films/operation', { operation: 'copy', destination: 'films2' })).status).toBe(200);
    expect((await admin('PUT', `/1/indexes/films/keys/${updated}`, { acl: ['search', 'browse'] })).status).toBe(200);
    const created = ((await admin('POST', '/1/indexes/films/keys', { acl: ['search'] })).body as { key: string }).key;
    await engine.waitForTasks();
    const reach = async () => Object.fromEntries(((await admin('GET', '/1/keys')).body as { keys: Array<{ value: string; indexes: string[] }> }).keys
      .map((k) => [k.value === updated ? 'updated' : k.value === created ? 'created' : k.value, k.indexes]));
    expect(await reach()).toEqual({ updated: ['films', 'films2'], created: ['films'] });
    await closeEngine(engine);
    engine = await openAt(dir, OPTIONS);
    expect(await reach()).toEqual({ updated: ['films', 'films2'], created: ['films'] });
    await closeEngine(engine);
  });

  it('a key recreated on the source of a queued move is not extended by the move, live or after a restart from the log', async () => {
    const dir = tempDir('lantern-write-fuzz-');
    let engine = await openAt(dir, { ...OPTIONS, snapshotEvery: 0 });
    const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: ADMIN_HEADERS });
    await admin('PUT', '/1/indexes/books/1', { title: 'book' });
    const value = ((await admin('POST', '/1/indexes/books/keys', { acl: ['search'] })).body as { key: string }).key;
    await engine.waitForTasks();
    // the key reaches films through a copy, then is deleted
    expect((await admin('POST', '/1/indexes/books/operation', { operation: 'copy', destination: 'films' })).status).toBe(200);
    await engine.waitForTasks();
    expect((await admin('DELETE', `/1/keys/${value}`)).status).toBe(200);
    // the move waits behind a batch; the key is recreated on films meanwhile (applied at once)
    await admin('POST', '/1/indexes/films/batch', { requests: Array.from({ length: 2000 }, (_, i) => ({ action: 'addObject', body: { objectID: `b${i}`, title: `film ${i}` } })) });
    expect((await admin('POST', '/1/indexes/films/operation', { operation: 'move', destination: 'archive' })).status).toBe(200);
    expect((await admin('PUT', `/1/indexes/films/keys/${value}`, { acl: ['search'] })).status).toBe(200);
    await engine.waitForTasks();
    const reach = async () => ((await admin('GET', '/1/keys')).body as { keys: Array<{ value: string; indexes: string[] }> }).keys.find((k) => k.value === value)?.indexes;
    expect(await reach()).toEqual(['films']);
    await closeEngine(engine);
    engine = await openAt(dir, OPTIONS);
    expect(await reach()).toEqual(['films']);
    await closeEngine(engine);
  });

  it('a key recreated on another index over a deleted index key does not inherit the indexes copies extended the old one to', async () => {
    const engine = await openAt(tempDir('lantern-write-fuzz-'), OPTIONS);
    const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: ADMIN_HEADERS });
    await admin('PUT', '/1/indexes/films/1', { title: 'film' });
    const value = ((await admin('POST', '/1/indexes/films/keys', { acl: ['search'] })).body as { key: string }).key;
    await engine.waitForTasks();
    await admin('POST', '/1/indexes/films/operation', { operation: 'copy', destination: 'books' });
    await engine.waitForTasks();
    expect((await admin('DELETE', `/1/indexes/films/keys/${value}`)).status).toBe(200);
    expect((await admin('PUT', `/1/indexes/books/keys/${value}`, { acl: ['search'] })).status).toBe(200);
    const key = ((await admin('GET', '/1/keys')).body as { keys: Array<{ value: string; indexes: string[] }> }).keys.find((k) => k.value === value);
    expect(key?.indexes).toEqual(['books']);
    await closeEngine(engine);
  });

  it('generated suggestions read the facet values of their source even when its responseFields leave facets out', async () => {
    const engine = await openAt(tempDir('lantern-write-fuzz-'), OPTIONS);
    const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: ADMIN_HEADERS });
    await admin('PUT', '/1/indexes/films/settings', { attributesForFaceting: ['genre'], responseFields: ['hits'] });
    await admin('POST', '/1/indexes/films/batch', { requests: Array.from({ length: 5 }, (_, i) => ({ action: 'addObject', body: { objectID: String(i), title: 'film alpha', genre: 'drama' } })) });
    await engine.waitForTasks();
    expect((await admin('POST', '/1/configs', { indexName: 'films_qs', sourceIndices: [{ indexName: 'films', minHits: 0, minLetters: 0, generate: [['genre']] }] })).status).toBe(200);
    await engine.buildQuerySuggestions('films_qs');
    await engine.waitForTasks();
    const hits = ((await admin('POST', '/1/indexes/films_qs/browse', {})).body as { hits: Array<{ query: string }> }).hits;
    expect(hits.map((h) => h.query)).toContain('drama');
    await closeEngine(engine);
  });
});
