// Shared helpers for the API suites: an engine with credentials and a
// request function that sends the admin headers.
import { expect } from 'vitest';
import { algoliasearch } from 'algoliasearch';
import { Lantern, type LanternOptions } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import type { ApiResponse } from '../../src/api/types.js';
export { readFixture, talksSettings } from '../support/fixtures.js';

export const APP_ID = 'TESTAPP';
export const ADMIN_KEY = 'test-admin-key';
export const ADMIN_HEADERS = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY };

export async function openEngine(): Promise<Lantern> {
  return Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
}

export interface Response<T = any> { status: number; body: T }

export type Send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Response>;

/** Requests as the admin; `headers` replace the admin headers when given. */
export function sender(engine: Lantern): Send {
  return async (method, path, body, headers = ADMIN_HEADERS) => {
    const response: ApiResponse = await engine.request({ method, path, headers, body });
    return { status: response.status, body: response.body as any };
  };
}

/** The error body every failure carries: JSON with `message` and `status`. */
export function expectError(response: Response, status: number, message?: RegExp): void {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ message: expect.any(String), status });
  expect(response.body.message.length).toBeGreaterThan(0);
  expect(JSON.parse(JSON.stringify(response.body))).toEqual(response.body);
  if (message) expect(response.body.message).toMatch(message);
}

export const GIVER_TALK = { objectID: '2652', name: 'Are you a giver or a taker?' };

export type OfficialClient = ReturnType<typeof algoliasearch>;

/** An engine (options added to the test credentials) and the official client on it, as the admin. */
export async function openWithClient(options: LanternOptions = {}): Promise<{ engine: Lantern; client: OfficialClient; send: Send }> {
  const engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, ...options });
  return { engine, client: algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) }), send: sender(engine) };
}
