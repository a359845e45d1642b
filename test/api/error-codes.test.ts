// Errors with codes: each failure names its code, the one table gives the
// status it is answered with, in-process callers get the code back (the typed
// client too), and the wire still sends the service's `{message, status}`.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ApiError, ERROR_STATUS, type ErrorCode } from '../../src/util/errors.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, openEngine } from './helpers.js';

let engine: Lantern;
beforeAll(async () => {
  engine = await openEngine();
  await engine.client().saveObject({ indexName: 'books', body: { objectID: 'b1', title: 'Dune' } });
  await engine.waitForTasks();
});
afterAll(() => engine.close());

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = ADMIN_HEADERS) =>
  engine.request({ method, path, body, headers });

describe('error codes', () => {
  it('one status per code, every one a client or server error', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(new ApiError(code as ErrorCode, 'x').status).toBe(status);
    }
    expectTypeOf<ErrorCode>().toEqualTypeOf<keyof typeof ERROR_STATUS>();
    // @ts-expect-error a code not in the table does not compile
    void new ApiError('no_such_code', 'x');
  });

  it('each failure answers its code, with the status of its row and the body the service sends', async () => {
    const key = ((await call('POST', '/1/keys', { acl: ['search'] })).body as { key: string }).key;
    const cases: Array<[ErrorCode, Promise<{ status: number; body: unknown; code?: ErrorCode }>]> = [
      ['not_found', call('GET', '/1/indexes/books/nope')],
      ['not_found', call('GET', '/1/no/such/path')],
      ['invalid_request', call('POST', '/1/indexes/books/query', { hitsPerPage: 'many' })],
      ['invalid_json', call('POST', '/1/indexes/books/query', '{not json')],
      ['invalid_credentials', call('GET', '/1/indexes', undefined, { ...ADMIN_HEADERS, 'x-algolia-api-key': 'wrong' })],
      ['not_allowed', call('DELETE', '/1/indexes/books', undefined, { ...ADMIN_HEADERS, 'x-algolia-api-key': key })],
      ['unprocessable', call('POST', '/1/events', { events: [] })],
    ];
    for (const [code, answer] of cases) {
      const response = await answer;
      expect(response.code, code).toBe(code);
      expect(response.status, code).toBe(ERROR_STATUS[code]);
      expect(response.body).toEqual({ message: expect.any(String), status: ERROR_STATUS[code] });
    }
  });

  it('the typed client rejects with the code, not only the status', async () => {
    const key = ((await call('POST', '/1/keys', { acl: ['search'] })).body as { key: string }).key;
    await expect(engine.client().getObject({ indexName: 'books', objectID: 'nope' })).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(engine.client(key).deleteIndex({ indexName: 'books' })).rejects.toMatchObject({ code: 'not_allowed', status: 403 });
    await expect(engine.client('wrong').listIndices()).rejects.toMatchObject({ code: 'invalid_credentials', status: 403 });
    const refused = await engine.client().getObject({ indexName: 'books', objectID: 'nope' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
  });
});
