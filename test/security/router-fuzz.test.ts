// The router under random input (seeded, deterministic): random methods,
// paths (every ROUTES path with random segments, and made-up ones), headers
// and bodies (random JSON, invalid JSON, huge numbers, wrong types in every
// known field), against an engine with data and restricted keys. Never a 5xx,
// never an internal in an answer, and nothing changes: a full dump of the
// indexes, settings, synonyms, rules, keys and sources is the same after.
// FUZZ_SEED and FUZZ_N replace the seed and the number of random calls (to hunt).
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/routes.js';
import { SEARCH_PARAMETERS, SETTINGS } from '../../src/index/params.js';
import { generateSecuredKey } from '../../src/auth/secured-keys.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID, openEngine } from '../api/helpers.js';
import {
  HUGE, INVALID_JSON, KNOWN_FIELDS, enc, fillForAdmin, generator, internals, isWrite, randomBody, randomJson, randomString, randomTarget,
} from './fuzz-generators.js';


/** How many answers of each status (the first test checks the calls reached the operations). */
const statuses: Record<number, number> = {};
describe('router fuzz', () => {
  let engine: Lantern;
  const callers: Record<string, Record<string, string>> = {};
  const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body, headers: ADMIN_HEADERS });

  /** Everything a call could change, read back as the admin. */
  async function dump(): Promise<unknown> {
    const indexes = ((await admin('GET', '/1/indexes')).body as { items: Array<Record<string, unknown>> }).items
      .map(({ name, entries, primary, replicas }) => ({ name, entries, primary, replicas }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    const perIndex = [];
    for (const { name } of indexes) {
      const at = `/1/indexes/${enc(String(name))}`;
      const records = ((await admin('POST', `${at}/browse`, { hitsPerPage: 1000 })).body as { hits: Array<{ objectID: string }> }).hits
        .sort((a, b) => a.objectID.localeCompare(b.objectID));
      perIndex.push({
        name, records,
        settings: (await admin('GET', `${at}/settings`)).body,
        synonyms: (await admin('POST', `${at}/synonyms/search`, { hitsPerPage: 1000 })).body,
        rules: (await admin('POST', `${at}/rules/search`, { hitsPerPage: 1000 })).body,
      });
    }
    return {
      indexes, perIndex,
      keys: (await admin('GET', '/1/keys')).body,
      indexKeys: (await admin('GET', '/1/indexes/*/keys')).body,
      sources: (await admin('GET', '/1/security/sources')).body,
    };
  }

  beforeAll(async () => {
    engine = await openEngine();
    await admin('PUT', '/1/indexes/films/settings', {
      attributesForFaceting: ['searchable(genre)', 'year'], searchableAttributes: ['title', 'genre'], customRanking: ['desc(year)'],
      replicas: ['films_by_year'],
    });
    const records = Array.from({ length: 60 }, (_, i) => ({
      objectID: String(i), title: `film ${i} ${['alpha', 'beta', 'gamma'][i % 3]}`, genre: ['drama', 'comedy', 'horror'][i % 3],
      year: 1990 + (i % 30), _geoloc: { lat: 40 + i / 10, lng: 2 + i / 10 }, tags: [`t${i % 4}`],
    }));
    await admin('POST', '/1/indexes/films/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
    await admin('PUT', '/1/indexes/books/1', { title: 'a book', author: 'someone' });
    await admin('PUT', '/1/indexes/films/synonyms/s1', { objectID: 's1', type: 'synonym', synonyms: ['film', 'movie'] });
    await admin('PUT', '/1/indexes/films/rules/r1', {
      objectID: 'r1', conditions: [{ pattern: 'alpha', anchoring: 'contains' }], consequence: { promote: [{ objectID: '5', position: 0 }] },
    });
    await engine.waitForTasks();
    const key = async (body: object) => ((await admin('POST', '/1/keys', body)).body as { key: string }).key;
    const readAll = await key({
      acl: ['search', 'browse', 'settings', 'listIndexes', 'logs', 'seeUnretrievableAttributes', 'analytics', 'usage'], indexes: ['films*'],
      queryParameters: 'filters=genre%3Adrama&hitsPerPage=5', maxHitsPerQuery: 7, referers: [],
    });
    const searchOnly = await key({ acl: ['search'] });
    const indexKey = ((await admin('POST', '/1/indexes/books/keys', { acl: ['search', 'browse'] })).body as { key: string }).key;
    const secured = await generateSecuredKey(readAll, { filters: 'year > 2000', restrictIndices: ['films'], userToken: 'u' });
    const as = (k: string) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': k });
    Object.assign(callers, {
      none: {}, wrongKey: as('wrong'), wrongApp: { 'x-algolia-application-id': 'OTHER', 'x-algolia-api-key': ADMIN_KEY },
      readAll: as(readAll), searchOnly: as(searchOnly), indexKey: as(indexKey), secured: as(secured),
      forwardedNonAdmin: { ...as(searchOnly), 'x-forwarded-api-key': readAll },
    });
  });

  /** Sends one call; returns a failure description, or undefined. */
  async function check(label: string, method: string, path: string, body: unknown, headers: Record<string, string>, writesRefused: boolean) {
    const response = await engine.request({ method, path, body, headers, sourceIp: '192.0.2.1' });
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    const text = JSON.stringify(response.body);
    const target = `${label}: ${method} ${path.slice(0, 120)} ${String(typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 160)}`;
    if (response.status >= 500 || response.status < 200) return `${target} → ${response.status} ${text}`;
    // (a logs answer holds other calls' answers: a failure there is reported on the call itself)
    if (!path.startsWith('/1/logs') && internals(text)) return `${target} → internals in ${text.slice(0, 200)}`;
    if (response.status >= 400 && (typeof (response.body as { message?: unknown }).message !== 'string')) return `${target} → no message`;
    if (writesRefused && response.status < 300 && isWrite(method, path)) return `${target} → a write was accepted (${response.status})`;
    return undefined;
  }

  it('random calls from callers that may not write: no 5xx, no internals, no change', async () => {
    const before = await dump();
    const r = generator(Number(process.env.FUZZ_SEED ?? 20261122));
    const failures: string[] = [];
    const names = Object.keys(callers);
    for (let i = 0; i < Number(process.env.FUZZ_N ?? 3000); i++) {
      const { method, path } = randomTarget(r);
      // most calls from the keys that may read, so they reach the operations
      const name = r.chance(0.7) ? r.pick(['readAll', 'readAll', 'secured', 'secured', 'searchOnly', 'indexKey']) : r.pick(names);
      const headers = { ...callers[name] };
      if (r.chance(0.3)) headers[r.pick(['x-algolia-usertoken', 'referer', 'x-forwarded-for', 'content-type', 'x-request-id', 'origin'])] = randomString(r);
      const failure = await check(`#${i} ${name}`, method, path, randomBody(r), headers, true);
      if (failure) failures.push(failure);
    }
    expect(failures.slice(0, 20)).toEqual([]);
    // the calls got past authentication into the operations, both ways
    expect(statuses[200]).toBeGreaterThan(100);
    expect(statuses[400]).toBeGreaterThan(300);
    await engine.waitForTasks();
    expect(await dump()).toEqual(before);
  }, 60_000);

  it('the admin key with a wrong type in every known field: 4xx, nothing written', async () => {
    const before = await dump();
    const failures: string[] = [];
    const send = async (label: string, method: string, path: string, body: unknown) => {
      const failure = await check(label, method, path, body, ADMIN_HEADERS, true);
      if (failure) failures.push(failure);
      else {
        const status = (await engine.request({ method, path, body, headers: ADMIN_HEADERS })).status;
        if (status < 400) failures.push(`${label}: ${method} ${path} ${JSON.stringify(body)} → ${status}, expected a 4xx`);
      }
    };
    for (const [field, spec] of Object.entries(SETTINGS)) {
      for (const wrong of wrongValues(spec)) await send(`setting ${field}`, 'PUT', '/1/indexes/films/settings', { [field]: wrong });
    }
    for (const [field, spec] of Object.entries(SEARCH_PARAMETERS)) {
      for (const wrong of wrongValues(spec)) {
        await send(`search ${field}`, 'POST', '/1/indexes/films/query', { [field]: wrong });
        await send(`multi ${field}`, 'POST', '/1/indexes/*/queries', { requests: [{ indexName: 'films', [field]: wrong }] });
        await send(`browse ${field}`, 'POST', '/1/indexes/films/browse', { [field]: wrong });
        await send(`deleteBy ${field}`, 'POST', '/1/indexes/films/deleteByQuery', { filters: 'year < 1995', [field]: wrong });
        if (typeof wrong === 'string') await send(`GET ${field}`, 'GET', `/1/indexes/films?${field}=${enc(wrong)}`, undefined);
      }
    }
    const keyWrong: Record<string, unknown[]> = {
      acl: ['search', [1], ['fly'], {}], description: [5, []], indexes: ['films', [5], ['a*b']], maxHitsPerQuery: [-1, 1.5, '5x', 1e308],
      maxQueriesPerIPPerHour: [-1, 'x', 0.5], queryParameters: [5, {}, 'filters=(broken'], referers: ['x', [null]], validity: [-5, 'long', 1e308],
    };
    const aKey = ((await admin('GET', '/1/keys')).body as { keys: Array<{ value: string }> }).keys[0].value;
    for (const [field, values] of Object.entries(keyWrong)) {
      for (const wrong of values) {
        await send(`addApiKey ${field}`, 'POST', '/1/keys', { acl: ['search'], [field]: wrong });
        await send(`updateApiKey ${field}`, 'PUT', `/1/keys/${aKey}`, { acl: ['search'], [field]: wrong });
        if (field !== 'indexes') await send(`addIndexApiKey ${field}`, 'POST', '/1/indexes/books/keys', { acl: ['search'], [field]: wrong });
      }
    }
    const objectWrong: Array<[string, string, string, unknown]> = [
      ['saveObject', 'POST', '/1/indexes/films', [1, 2]],
      ['saveObject', 'POST', '/1/indexes/films', { objectID: { a: 1 } }],
      ['saveObject', 'POST', '/1/indexes/films', 'a string'],
      ['addOrUpdateObject', 'PUT', '/1/indexes/films/1', 5],
      ['partialUpdateObject', 'POST', '/1/indexes/films/1/partial', { year: { _operation: 'Explode', value: 1 } }],
      ['partialUpdateObject', 'POST', '/1/indexes/films/1/partial', { year: { _operation: 'Increment', value: 'x' } }],
      ['batch', 'POST', '/1/indexes/films/batch', { requests: [{ action: 'fly', body: {} }] }],
      ['batch', 'POST', '/1/indexes/films/batch', { requests: [{ action: 'addObject', body: 5 }] }],
      ['batch', 'POST', '/1/indexes/films/batch', { requests: [{ action: 'addObject', body: { a: 1 } }, { action: 'deleteObject' }] }],
      ['batch', 'POST', '/1/indexes/films/batch', { requests: {} }],
      ['multipleBatch', 'POST', '/1/indexes/*/batch', { requests: [{ action: 'addObject', indexName: 5, body: {} }] }],
      ['multipleBatch', 'POST', '/1/indexes/*/batch', { requests: [{ action: 'addObject', indexName: 'films', body: { a: 1 } }, { action: 'addObject', body: {} }] }],
      ['operationIndex', 'POST', '/1/indexes/films/operation', { operation: 'copy', destination: 5 }],
      ['operationIndex', 'POST', '/1/indexes/films/operation', { operation: 'clone', destination: 'x' }],
      ['operationIndex', 'POST', '/1/indexes/films/operation', { operation: 'copy', destination: 'x', scope: ['everything'] }],
      ['operationIndex', 'POST', '/1/indexes/films/operation', { operation: 'copy', destination: 'x', scope: 'settings' }],
      ['saveSynonym', 'PUT', '/1/indexes/films/synonyms/s2', { objectID: 's2', type: 'synonym', synonyms: 'film' }],
      ['saveSynonym', 'PUT', '/1/indexes/films/synonyms/s2', { objectID: 's2', type: 'telepathy', synonyms: ['a', 'b'] }],
      ['saveSynonyms', 'POST', '/1/indexes/films/synonyms/batch', [{ objectID: 's3', type: 'synonym', synonyms: ['a', 'b'] }, { objectID: 5 }]],
      ['saveSynonyms', 'POST', '/1/indexes/films/synonyms/batch', { objectID: 's3' }],
      ['saveRule', 'PUT', '/1/indexes/films/rules/r2', { objectID: 'r2', consequence: 'promote' }],
      ['saveRule', 'PUT', '/1/indexes/films/rules/r2', { objectID: 'r2', conditions: 'alpha', consequence: {} }],
      ['saveRule', 'PUT', '/1/indexes/films/rules/r2', { objectID: 'r2', consequence: { params: { hitsPerPage: 'many' } } }],
      ['saveRule', 'PUT', '/1/indexes/films/rules/r2', { objectID: 'r2', consequence: {}, validity: 'always' }],
      ['saveRule', 'PUT', '/1/indexes/films/rules/r2', { objectID: 'r2', consequence: {}, validity: [{ from: 'now', until: 5 }] }],
      ['saveRule', 'PUT', '/1/indexes/films/rules/r2', { objectID: 'r2', consequence: {}, enabled: 'yes' }],
      ['saveRule', 'PUT', '/1/indexes/films/rules/r2', { objectID: 'r2', conditions: [{ pattern: 'a', anchoring: 'is', context: 5 }], consequence: {} }],
      ['saveRules', 'POST', '/1/indexes/films/rules/batch', [{ objectID: 'r3', consequence: {} }, { objectID: 'r4' }]],
      ['appendSource', 'POST', '/1/security/sources/append', { source: 5 }],
      ['appendSource', 'POST', '/1/security/sources/append', { source: '300.1.1.1' }],
      ['replaceSources', 'PUT', '/1/security/sources', { source: '10.0.0.0/8' }],
      ['replaceSources', 'PUT', '/1/security/sources', [{ source: '10.0.0.0/8', description: 5 }]],
      ['deleteBy', 'POST', '/1/indexes/films/deleteByQuery', { query: 'alpha' }],
      ['setSettings', 'PUT', '/1/indexes/films/settings', { customRanking: ['sideways(year)'] }],
      ['setSettings', 'PUT', '/1/indexes/films/settings', [1]],
    ];
    for (const [op, method, path, body] of objectWrong) await send(op, method, path, body);
    // reads the fuzz found failing (500s once): wrong types are 400s
    await send('getObjects', 'POST', '/1/indexes/*/objects', { requests: [{ indexName: 'films', objectID: '1', attributesToRetrieve: [null] }] });
    await send('getObjects', 'POST', '/1/indexes/*/objects', { requests: [{ indexName: 'films', objectID: '1', attributesToRetrieve: ['title', true] }] });
    for (const text of INVALID_JSON) {
      for (const route of ROUTES.filter((x) => x.method === 'POST' || x.method === 'PUT')) {
        await send(`${route.op} invalid JSON`, route.method, fillForAdmin(route), text);
      }
    }
    expect(failures.slice(0, 30)).toEqual([]);
    await engine.waitForTasks();
    expect(await dump()).toEqual(before);
  }, 60_000);

  it('the admin key reading with random values (huge numbers, odd shapes) in every known field: no 5xx', async () => {
    const r = generator(Number(process.env.FUZZ_SEED ?? 7));
    const failures: string[] = [];
    const reads: Array<[string, string, (body: Record<string, unknown>) => unknown]> = [
      ['POST', '/1/indexes/films/query', (b) => b],
      ['POST', '/1/indexes/films/browse', (b) => b],
      ['POST', '/1/indexes/films/facets/genre/query', (b) => b],
      ['POST', '/1/indexes/*/queries', (b) => ({ requests: [{ indexName: 'films', ...b }, { indexName: 'films', type: 'facet', facet: 'genre', ...b }] })],
      ['POST', '/1/indexes/*/objects', (b) => ({ requests: [{ indexName: 'films', objectID: '1', ...b }] })],
      ['POST', '/1/indexes/films/synonyms/search', (b) => b],
      ['POST', '/1/indexes/films/rules/search', (b) => b],
    ];
    const before = await dump();
    // null asks for the default (it was passed on as a value once, and failed)
    for (const path of ['/1/indexes/films/facets/genre/query', '/1/indexes/films/query']) {
      const response = await engine.request({ method: 'POST', path, body: { facetQuery: null, query: null, filters: null }, headers: ADMIN_HEADERS });
      expect(response.status).toBe(200);
    }
    for (const field of KNOWN_FIELDS) {
      for (let i = 0; i < 3; i++) {
        const value = i === 0 ? r.pick(HUGE) : randomJson(r, 1);
        for (const [method, path, wrap] of reads) {
          const failure = await check(`${field}=${JSON.stringify(value)?.slice(0, 40)}`, method, path, wrap({ [field]: value }), ADMIN_HEADERS, false);
          if (failure) failures.push(failure);
        }
        const query = `${enc(field)}=${enc(String(typeof value === 'object' ? JSON.stringify(value) : value))}`;
        for (const path of ['/1/indexes/films', '/1/indexes/films/browse', '/1/logs', '/1/indexes', '/1/indexes/films/1']) {
          const failure = await check(`GET ${field}`, 'GET', `${path}?${query}`, undefined, ADMIN_HEADERS, false);
          if (failure) failures.push(failure);
        }
      }
    }
    expect(failures.slice(0, 30)).toEqual([]);
    expect(await dump()).toEqual(before);
  }, 60_000);
});

/** Values of the wrong type for a parameter's kind (never a form the kind accepts). */
function wrongValues(spec: { kind: string; values?: readonly string[]; min?: number; max?: number; clamp?: boolean }): unknown[] {
  const object = { nested: [1] };
  switch (spec.kind) {
    case 'string': return spec.values ? ['not-one-of-them', object] : [object, [object]];
    // a value above a clamped maximum is taken as the maximum (maxValuesPerFacet), not refused
    case 'int': return ['twelve', 1.5, object, ...(spec.min !== undefined ? [spec.min - 1] : []), ...(spec.max !== undefined && !spec.clamp ? [spec.max + 1] : [])];
    case 'number': return ['twelve', object];
    case 'bool': return ['maybe', 7, object];
    case 'stringList': return [object, [object], 7];
    case 'typoTolerance': return ['sometimes', object];
    case 'boolOrStringList': return [7, object];
    case 'distinct': return [9, 'twice', object];
    case 'radius': return [-5, 'far', object];
    case 'filterList': return [7, object, true];
    case 'facets': return [7, object];
    default: return []; // 'json': any JSON is a form it accepts
  }
}
