// Bodies whose values have the wrong type, the kind no handler may convert
// before checking it: objects with a `toString` or `valueOf` key (String(v)
// and Number(v) throw on them), arrays of those, nested objects, huge
// numbers. Every field of the synonym, rule, user ID, key, batch, multi-get
// and multi-query bodies gets each of them, alone and then several at once
// (seeded): the answer is always a 2xx or a 4xx with a JSON message, never a
// 5xx or a rejected request.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, openEngine } from '../api/helpers.js';
import { prng } from '../persistence/helpers.js';

const NASTY: unknown[] = [
  { toString: {} }, { valueOf: {} }, { toString: {}, valueOf: {} }, { toString: 'x', valueOf: 1 }, { toJSON: {} },
  [{ toString: {} }], [{ valueOf: {} }], [[1]], { a: { b: [1] } }, [], {},
  1e308, -1e308, 2 ** 64, -(2 ** 63), 1.5, -1, [1e308], '1e400', true, null,
];

/** A body route and the fields its handler reads; `wrap` puts a field object where the handler looks. */
interface Target { label: string; method: string; path: string; fields: string[]; wrap?: (fields: Record<string, unknown>) => unknown }

const TARGETS: Target[] = [
  { label: 'synonym search', method: 'POST', path: '/1/indexes/films/synonyms/search', fields: ['query', 'type', 'page', 'hitsPerPage'] },
  { label: 'rule search', method: 'POST', path: '/1/indexes/films/rules/search', fields: ['query', 'page', 'hitsPerPage', 'context', 'anchoring', 'enabled'] },
  { label: 'user ID search', method: 'POST', path: '/1/clusters/mapping/search', fields: ['query', 'clusterName', 'cluster', 'page', 'hitsPerPage'] },
  { label: 'add key', method: 'POST', path: '/1/keys', fields: ['acl', 'description', 'indexes', 'maxHitsPerQuery', 'maxQueriesPerIPPerHour', 'queryParameters', 'referers', 'validity'] },
  { label: 'add index key', method: 'POST', path: '/1/indexes/films/keys', fields: ['acl', 'description', 'maxHitsPerQuery', 'queryParameters', 'referers', 'validity'] },
  { label: 'save synonym', method: 'PUT', path: '/1/indexes/films/synonyms/s9', fields: ['objectID', 'type', 'synonyms', 'input', 'word', 'corrections', 'placeholder', 'replacements'] },
  { label: 'save rule', method: 'PUT', path: '/1/indexes/films/rules/r9', fields: ['objectID', 'conditions', 'condition', 'consequence', 'validity', 'enabled', 'description'] },
  { label: 'rule condition', method: 'PUT', path: '/1/indexes/films/rules/r9', fields: ['pattern', 'anchoring', 'context', 'alternatives'], wrap: (f) => ({ conditions: [f], consequence: { params: f } }) },
  { label: 'batch', method: 'POST', path: '/1/indexes/films/batch', fields: ['action', 'objectID', 'body'], wrap: (f) => ({ requests: [f] }) },
  { label: 'multi-index batch', method: 'POST', path: '/1/indexes/*/batch', fields: ['action', 'indexName', 'objectID', 'body'], wrap: (f) => ({ requests: [{ action: 'addObject', indexName: 'films', body: {}, ...f }] }) },
  { label: 'get objects', method: 'POST', path: '/1/indexes/*/objects', fields: ['indexName', 'index_name', 'objectID', 'attributesToRetrieve'], wrap: (f) => ({ requests: [{ indexName: 'films', objectID: '1', ...f }] }) },
  { label: 'multi-query', method: 'POST', path: '/1/indexes/*/queries', fields: ['indexName', 'type', 'facet', 'params', 'query', 'hitsPerPage'], wrap: (f) => ({ requests: [{ indexName: 'films', ...f }] }) },
  { label: 'copy', method: 'POST', path: '/1/indexes/films/operation', fields: ['operation', 'destination', 'scope'], wrap: (f) => ({ operation: 'copy', destination: 'films_copy', scope: ['settings'], ...f }) },
];

describe('bodies with values of the wrong type', () => {
  let engine: Lantern;
  beforeAll(async () => {
    engine = await openEngine();
    await engine.request({ method: 'PUT', path: '/1/indexes/films/1', body: { title: 'alpha' }, headers: ADMIN_HEADERS });
    await engine.waitForTasks();
  });

  /** A failure description, or undefined when the answer is a 2xx or a 4xx with a message. */
  async function check(target: Target, fields: Record<string, unknown>): Promise<string | undefined> {
    const body = JSON.stringify(target.wrap ? target.wrap(fields) : fields);
    const where = `${target.label} ${body.slice(0, 160)}`;
    let response;
    try {
      response = await engine.request({ method: target.method, path: target.path, body, headers: ADMIN_HEADERS });
    } catch (e) {
      return `${where} → rejected: ${String(e)}`;
    }
    if (response.status >= 500) return `${where} → ${response.status}`;
    const message = (response.body as { message?: unknown }).message;
    if (response.status >= 400 && typeof message !== 'string') return `${where} → ${response.status} without a message`;
    return undefined;
  }

  it('{"hitsPerPage":{"toString":{}}} on synonym and rule search is a 400 with a message', async () => {
    for (const path of ['/1/indexes/films/synonyms/search', '/1/indexes/films/rules/search']) {
      const response = await engine.request({ method: 'POST', path, body: '{"hitsPerPage":{"toString":{}}}', headers: ADMIN_HEADERS });
      expect(response).toMatchObject({ status: 400, body: { status: 400, message: expect.stringContaining('hitsPerPage') } });
    }
  });

  it('every field alone, then several at once: never a 5xx', async () => {
    const failures: string[] = [];
    for (const target of TARGETS) {
      for (const field of target.fields) {
        for (const value of NASTY) {
          const failure = await check(target, { [field]: value });
          if (failure) failures.push(failure);
        }
      }
    }
    const next = prng(Number(process.env.FUZZ_SEED ?? 2211));
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    for (let i = 0; i < Number(process.env.FUZZ_N ?? 600); i++) {
      const target = pick(TARGETS);
      const fields: Record<string, unknown> = {};
      for (let n = 1 + Math.floor(next() * 3); n > 0; n--) fields[pick(target.fields)] = pick(NASTY);
      const failure = await check(target, fields);
      if (failure) failures.push(failure);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  }, 60_000);
});
