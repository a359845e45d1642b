// Shared helpers of the analytics suites: an engine holding the TED talks,
// the official client and its analytics, insights, A/B testing and
// personalization sub-clients, all answering in-process through
// lanternRequester (from a chosen source address).
import { algoliasearch } from 'algoliasearch';
import { Lantern, type LanternOptions } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { ADMIN_KEY, APP_ID, readFixture, talksSettings } from '../api/helpers.js';

export { ADMIN_KEY, APP_ID, readFixture };

export const INDEX = 'talks';
export const talks = readFixture<any[]>('talks.json');

export type Client = ReturnType<typeof algoliasearch>;

/** The official client and its sub-clients, with `key`, calling from `sourceIp`. */
export function clientsFor(engine: Lantern, sourceIp = '127.0.0.1', key = ADMIN_KEY) {
  const options = { requester: lanternRequester(engine, sourceIp) };
  const client = algoliasearch(APP_ID, key, options);
  return {
    client,
    analytics: client.initAnalytics({ options }),
    insights: client.initInsights({ options }),
    abtesting: client.initAbtesting({ options }),
    personalization: client.initPersonalization({ region: 'us', options }),
    querySuggestions: client.initQuerySuggestions({ region: 'us', options }),
  };
}

/** An engine with the talks index (and `extra` more indexes holding the same records). */
export async function openWithTalks(options: Partial<LanternOptions> = {}, extra: string[] = []): Promise<Lantern> {
  const engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, ...options });
  await loadTalks(engine, [INDEX, ...extra]);
  return engine;
}

export async function loadTalks(engine: Lantern, indexes: string[] = [INDEX]): Promise<void> {
  const { client } = clientsFor(engine);
  for (const indexName of indexes) {
    const { taskID } = await client.setSettings({ indexName, indexSettings: talksSettings() as never });
    await client.waitForTask({ indexName, taskID });
    await client.saveObjects({ indexName, objects: talks, waitForTasks: true });
  }
}

export const today = () => new Date().toISOString().slice(0, 10);
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** The HTTP status an official client call failed with. */
export async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (e) {
    return (e as { status: number }).status;
  }
}
