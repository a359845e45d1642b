// A write larger than the NATS server's max_payload, on two `lantern serve
// --nats` nodes: it is refused with a 413 and a message saying how large a
// write may be, before anything is appended to the application's stream
// (read from NATS with the official client), and nothing else breaks: the
// nodes answer searches and take smaller writes as before.
import { describe, expect, it } from 'vitest';
import { natsServerFor } from '../support/nats.js';
import { batch, clusterFixture, records, search, streamState, waitForTask } from '../support/cluster-nodes.js';

const run = natsServerFor('write-limits.test.ts');

// snapshots are stored in chunks of 128 KB: the payload limit stays above them
const cluster = clusterFixture(run, [[], []], { maxPayload: '256KB' });
const lastInStream = async () => (await streamState(cluster.nc)).last_seq;

describe.skipIf(!run)('a write larger than max_payload', () => {
  it('is refused with a 413 saying how large a write may be, before anything is appended; the rest goes on', async () => {
    const { nodes } = cluster;
    const [a, b] = nodes;
    const first = await batch(a, 'items', records(0, 100, 'small'));
    expect(first.status).toBe(200);
    await waitForTask(b, first.body.taskID);
    const before = await lastInStream();

    const large = records(1000, 3000, 'large').map((r) => ({ ...r, text: 'x'.repeat(100) }));
    const refused = await batch(b, 'items', large);
    expect(refused.status).toBe(413);
    expect(refused.body.message).toMatch(/more than the NATS server's max_payload allows \(\d+\): send smaller batches/);
    expect(await lastInStream()).toBe(before);

    // both nodes answer as before, and take a write that fits
    for (const node of nodes) expect((await search(node, 'items', { query: 'large', hitsPerPage: 0, typoTolerance: false })).body.nbHits).toBe(0);
    const fits = await batch(b, 'items', large.slice(0, 500));
    expect(fits.status).toBe(200);
    await waitForTask(a, fits.body.taskID);
    expect((await search(a, 'items', { query: 'large', hitsPerPage: 0, typoTolerance: false })).body.nbHits).toBe(500);
  }, 60_000);
});
