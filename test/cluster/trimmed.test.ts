// Snapshots a node depends on in cluster mode, against real nats-server and
// `lantern serve --nats --snapshot-every 10` processes:
// - a node stopped while the stream was trimmed past the last entry it had
//   read loads the newest snapshot when it starts again, follows the stream
//   after it, and answers as the node that stayed;
// - a running node the stream was trimmed past while it was frozen
//   (SIGSTOP, its consumer gone) loads the newest snapshot by itself, then
//   follows the stream and takes writes again;
// - a stored snapshot found damaged (its bytes replaced in the object
//   store, read with the official client) is reported, and a node starting
//   loads the snapshot before it and the stream after that one instead.
import { describe, expect, it } from 'vitest';
import { natsServerFor } from '../support/nats.js';
import {
  answerOf, batch, call, clusterFixture, eventually, records, search, sleep, snapshotBucket, startNode, storedSnapshots, streamState, waitForTask, type Node,
} from '../support/cluster-nodes.js';

const run = natsServerFor('trimmed.test.ts');
const EVERY = ['--snapshot-every', '10'];

const cluster = clusterFixture(run, [EVERY, EVERY]);
const { nodes } = cluster;
const firstInStream = async () => (await streamState(cluster.nc)).first_seq;

/** Writes `count` batches of 20 records through `node` from batch `from` on; resolves with the last taskID. */
async function writeBatches(node: Node, from: number, count: number): Promise<number> {
  let last = 0;
  for (let i = from; i < from + count; i++) {
    const { status, body } = await batch(node, 'items', records(i * 20, 20, `batch${i}`));
    expect(status).toBe(200);
    last = body.taskID;
  }
  return last;
}

const QUERIES = [{ query: '', hitsPerPage: 5 }, { query: 'batch3', hitsPerPage: 3 }, { query: 'record 41', hitsPerPage: 10 }, { query: 'batch55', hitsPerPage: 2 }];

async function expectSameAnswers(node: Node, reference: Node, total: number): Promise<void> {
  expect((await search(node, 'items', { query: '', hitsPerPage: 0 })).body.nbHits).toBe(total);
  for (const params of QUERIES) expect(await answerOf(node, 'items', params)).toEqual(await answerOf(reference, 'items', params));
}

describe.skipIf(!run)('a node behind the stream, a damaged snapshot', () => {
  it('a node stopped while the stream was trimmed past it loads the newest snapshot when it starts again', async () => {
    const [a, b] = nodes;
    expect((await call(a, 'PUT', '/1/indexes/items/settings', { searchableAttributes: ['title'], customRanking: ['asc(n)'] })).status).toBe(200);
    const seen = await writeBatches(b, 0, 15);
    await waitForTask(b, seen);
    await b.served.stop();

    // the stream is trimmed past the last entry b read (its consumer went with it)
    const last = await writeBatches(a, 15, 45);
    await waitForTask(a, last);
    await eventually(async () => expect(await firstInStream()).toBeGreaterThan(seen + 1), 20_000);

    const back = await startNode(cluster.nats.urls, EVERY);
    nodes[1] = back;
    await expectSameAnswers(back, a, 60 * 20);
    expect((await call(back, 'GET', '/1/indexes/items/settings')).body).toMatchObject({ customRanking: ['asc(n)'] });
    // and it follows the stream from there
    const more = await writeBatches(a, 60, 1);
    await waitForTask(back, more);
    expect((await search(back, 'items', { query: 'batch60', hitsPerPage: 0, typoTolerance: false })).body.nbHits).toBe(20);
  }, 90_000);

  it('a damaged snapshot is reported, and a node starting loads the one before it and the stream after that one', async () => {
    const [a] = nodes;
    const stored = await storedSnapshots(cluster.nc);
    expect(stored.length).toBeGreaterThanOrEqual(2);
    // the stream still holds every entry after the older snapshot kept
    expect(await firstInStream()).toBeLessThanOrEqual(stored.at(-1)!.taskID + 1);
    await (await snapshotBucket(cluster.nc)).putBlob({ name: stored[0].name }, new TextEncoder().encode('not a snapshot'));

    const c = await startNode(cluster.nats.urls, EVERY);
    nodes.push(c);
    expect(c.served.output()).toContain(`the snapshot of task ${stored[0].taskID} cannot be used`);
    await expectSameAnswers(c, a, 61 * 20);
    const more = await writeBatches(c, 61, 1);
    await waitForTask(a, more);
    expect((await search(a, 'items', { query: 'batch61', hitsPerPage: 0, typoTolerance: false })).body.nbHits).toBe(20);
    // every snapshot stored was proven (a proof that fails is printed)
    for (const node of nodes) expect(node.served.output()).not.toContain('snapshot failed');
  }, 90_000);

  it('a running node the stream was trimmed past while it was away loads the newest snapshot by itself', async () => {
    const [a, b] = nodes;
    const before = await writeBatches(a, 62, 1);
    await waitForTask(b, before);
    let next = 63;
    b.served.pause();
    try {
      // its consumer goes from the servers once inactive (stream-reader.ts: 30 s after its last pull), and then trims pass it
      await sleep(30_000);
      const until = Date.now() + 90_000;
      while ((await firstInStream()) <= before + 1 && Date.now() < until) {
        await waitForTask(a, await writeBatches(a, next, 10));
        next += 10;
        await sleep(2_000);
      }
      expect(await firstInStream()).toBeGreaterThan(before + 1);
    } finally {
      b.served.resume();
    }
    await eventually(async () => expect(b.served.output()).toContain('loading the newest snapshot'), 20_000);

    await eventually(async () => expectSameAnswers(b, a, next * 20), 20_000);
    // and it takes writes again, which the other node applies
    const more = await writeBatches(b, next, 1);
    await waitForTask(a, more);
    expect((await search(a, 'items', { query: `batch${next}`, hitsPerPage: 0, typoTolerance: false })).body.nbHits).toBe(20);
  }, 200_000);
});
