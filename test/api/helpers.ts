// Shared helpers for the API suites: an engine with credentials and a
// request function that sends the admin headers.
import { algoliasearch } from 'algoliasearch';
import { Lantern, type LanternOptions } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { sender as senderWith, type Send } from '../support/api.js';
export { readFixture, talksSettings } from '../support/fixtures.js';
export { expectError, type Response, type Send } from '../support/api.js';

export const APP_ID = 'TESTAPP';
export const ADMIN_KEY = 'test-admin-key';
export const ADMIN_HEADERS = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY };

export async function openEngine(): Promise<Lantern> {
  return Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
}

/** Requests as the admin; `headers` replace the admin headers when given. */
export function sender(engine: Lantern): Send {
  return senderWith(engine, ADMIN_HEADERS);
}

export const GIVER_TALK = { objectID: '2652', name: 'Are you a giver or a taker?' };

export type OfficialClient = ReturnType<typeof algoliasearch>;

/** An engine (options added to the test credentials) and the official client on it, as the admin. */
export async function openWithClient(options: LanternOptions = {}): Promise<{ engine: Lantern; client: OfficialClient; send: Send }> {
  const engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, ...options });
  return { engine, client: algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(engine) }), send: sender(engine) };
}
