// Nodes of one application started at the same moment on a fresh NATS all
// look for the application's stream, snapshot bucket and shared buckets,
// find none and make them: the server tells all but one that the name or
// subjects are taken. Each must then find what the winner made and open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsCluster } from '../../src/nats/cluster.js';
import { natsServerFor, startNats, type NatsGroup } from '../support/nats.js';

const run = natsServerFor('starting-together.test.ts');
let nats: NatsGroup;

beforeAll(async () => {
  if (run) nats = await startNats(1);
});
afterAll(async () => { await nats?.close(); });

const NODES = 16;
const APPLICATIONS = 30;

describe.skipIf(!run)('nodes of one application started together on a fresh NATS', () => {
  it('each opens the stream, the snapshot bucket and the shared buckets the first of them made', async () => {
    for (let app = 0; app < APPLICATIONS; app++) {
      const opened = await Promise.allSettled(Array.from({ length: NODES }, () =>
        natsCluster({ servers: [nats.urls], appId: `together${app}`, cluster: 'c1', report: () => {} })));
      const failures = opened.flatMap((o) => o.status === 'rejected' ? [(o.reason as Error).message] : []);
      await Promise.all(opened.map((o) => o.status === 'fulfilled' ? o.value.storage.close() : undefined));
      expect(failures).toEqual([]);
    }
  }, 60_000);
});
