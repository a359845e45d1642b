// The hard case: three nats-server processes in one JetStream cluster
// (routes on loopback), the application's stream and snapshots kept in
// three copies (--nats-replicas 3), three Lantern nodes each connected to
// a server of its own first. Writers send batches to the nodes while a
// Lantern node and then a NATS server are killed with SIGKILL; the Lantern
// node is started again and catches up. No write that was acknowledged is
// lost, and every node converges to the same answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { natsServerFor, startNats, type NatsGroup } from '../support/nats.js';
import { APP, answerOf, batch, call, records, search, sleep, startNode, waitForTask, type Node } from '../support/cluster-nodes.js';

const run = natsServerFor('nats-cluster.test.ts');
const ARGS = ['--nats-replicas', '3', '--snapshot-every', '40'];

let nats: NatsGroup;
const nodes: Array<Node | undefined> = [];

/** Node `i`'s --nats: its own server first, then the others. */
const urlsFor = (i: number) => [nats.servers[i], ...nats.servers.filter((_, j) => j !== i)].map((s) => s.url).join(',');

beforeAll(async () => {
  if (!run) return;
  nats = await startNats(3);
  // the first node makes the stream (three copies); the others find it
  nodes.push(await startNode(urlsFor(0), ARGS));
  nodes.push(...await Promise.all([startNode(urlsFor(1), ARGS), startNode(urlsFor(2), ARGS)]));
}, 90_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n?.served.stop()));
  await nats?.close();
});

const BATCH = 100;

/** Which server leads the application's stream (0-based), asked of NATS. */
async function streamLeader(): Promise<number> {
  const nc = await connect({ servers: nats.urls });
  try {
    const { cluster } = await (await jetstreamManager(nc)).streams.info(`LANTERN_${APP}`);
    return Number(/^n(\d+)$/.exec(cluster!.leader!)![1]) - 1;
  } finally {
    await nc.close();
  }
}

describe.skipIf(!run)('three Lantern nodes on a three-server JetStream cluster', () => {
  it('loses no acknowledged write when a Lantern node and a NATS server are killed amid batch writes, and every node converges', async () => {
    const acknowledged = new Set<string>();
    let next = 0;
    let writing = true;
    let refused = 0;
    /** One writer: batches of new records to the nodes in turn; one not acknowledged is sent again (to the next node). */
    const writer = async (w: number) => {
      let pending: object[] | undefined;
      for (let turn = w; writing; turn++) {
        const node = nodes[turn % nodes.length];
        if (!node) continue;
        pending ??= records((next++) * BATCH, BATCH, `w${w}`);
        const answer = await batch(node, 'items', pending).catch(() => undefined);
        if (answer?.status !== 200) {
          refused++;
          await sleep(50);
          continue;
        }
        for (const r of pending as Array<{ objectID: string }>) acknowledged.add(r.objectID);
        pending = undefined;
        // a steady stream rather than a flood: the two cores also run three NATS servers and three nodes
        await sleep(200);
      }
    };
    const writers = [writer(0), writer(1), writer(2)];

    await sleep(1500);
    // a Lantern node dies mid-write, without shutting down
    await nodes[2]!.served.kill();
    nodes[2] = undefined;
    await sleep(1000);
    // so does a NATS server, the one leading the stream: the others elect another, the stream goes on with two copies of three
    await nats.servers[await streamLeader()].kill();
    await sleep(3000);
    // the Lantern node comes back, and catches up from the snapshot and the stream (waiting out the election if need be)
    nodes[2] = await startNode(urlsFor(2), ARGS, 60_000).catch((e: Error) => {
      throw new Error(`${e.message}\nthe NATS servers said:\n${nats.servers.map((s) => s.output().slice(-3000)).join('\n')}`);
    });
    await sleep(1500);
    writing = false;
    await Promise.all(writers);

    // a last write: once every node applied it, they all hold the same stream
    const live = nodes.filter((n): n is Node => n !== undefined);
    const marker = await batch(live[0], 'marker', records(0, 1, 'marker'));
    expect(marker.status).toBe(200);
    for (const node of live) await waitForTask(node, marker.body.taskID, 60_000);

    console.log(`nats-cluster.test.ts: ${acknowledged.size} records acknowledged, ${refused} batches refused or cut and sent again`);
    expect(acknowledged.size).toBeGreaterThan(20 * BATCH);
    const ids = [...acknowledged];
    for (const node of live) {
      // every acknowledged record, on every node
      for (let i = 0; i < ids.length; i += 1000) {
        const requests = ids.slice(i, i + 1000).map((objectID) => ({ indexName: 'items', objectID, attributesToRetrieve: ['objectID'] }));
        const { body } = await call(node, 'POST', '/1/indexes/*/objects', { requests });
        const missing = (body.results as Array<{ objectID: string } | null>).filter((r) => r === null).length;
        expect(missing, `records missing on ${node.url}`).toBe(0);
      }
    }
    // and the same answers everywhere (records sent but never acknowledged included)
    const total = (await search(live[0], 'items', { query: '', hitsPerPage: 0 })).body.nbHits;
    expect(total).toBeGreaterThanOrEqual(acknowledged.size);
    for (const params of [{ query: '', hitsPerPage: 20 }, { query: 'w1', hitsPerPage: 10 }, { query: 'record 4', hitsPerPage: 10 }]) {
      const answers = await Promise.all(live.map((node) => answerOf(node, 'items', params)));
      for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    }
  }, 120_000);
});
