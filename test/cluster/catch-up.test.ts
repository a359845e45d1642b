// Snapshots of a cluster's application in the JetStream object store, and a
// node started late: two `lantern serve --nats --snapshot-every 20` nodes
// take writes, the node that wrote the entry reaching each mark stores a
// snapshot named after the last task it holds, and the stream is trimmed
// up to the oldest snapshot kept (read from NATS itself with the official
// client). A third node started afterwards can only catch up by loading a
// snapshot and then the stream after it, and answers as the others do.
import { describe, expect, it } from 'vitest';
import { natsServerFor } from '../support/nats.js';
import { answerOf, batch, call, clusterFixture, records, search, sleep, startNode, storedSnapshots, streamState, waitForTask } from '../support/cluster-nodes.js';

const run = natsServerFor('catch-up.test.ts');
const EVERY = 20;

const cluster = clusterFixture(run, [['--snapshot-every', String(EVERY)], ['--snapshot-every', String(EVERY)]]);

/** The snapshots in the application's bucket (their tasks, newest first) and the stream's first entry. */
async function stored(): Promise<{ snapshots: number[]; first: number; last: number }> {
  const snapshots = (await storedSnapshots(cluster.nc)).map((s) => s.taskID);
  const state = await streamState(cluster.nc);
  return { snapshots, first: state.first_seq, last: state.last_seq };
}

const QUERIES = [{ query: '', hitsPerPage: 5 }, { query: 'batch7', hitsPerPage: 3 }, { query: 'record 12', hitsPerPage: 10 }, { query: 'late', hitsPerPage: 2 }];

describe.skipIf(!run)('snapshots in the object store, a late node', () => {
  it('stores verified snapshots, trims the stream below the oldest kept, and a late node catches up from a snapshot and the stream', async () => {
    const { nodes } = cluster;
    const [a, b] = nodes;
    const settings = await call(a, 'PUT', '/1/indexes/items/settings', { searchableAttributes: ['title'], customRanking: ['asc(n)'] });
    expect(settings.status).toBe(200);
    const key = await call(b, 'POST', '/1/keys', { acl: ['search'], description: 'before the snapshot' });
    let last = 0;
    for (let i = 0; i < 70; i++) {
      const { status, body } = await batch(nodes[i % 2], 'items', records(i * 30, 30, `batch${i}`));
      expect(status).toBe(200);
      last = body.taskID;
    }
    await waitForTask(a, last);
    await waitForTask(b, last);

    // snapshots are stored and proven after the entries reaching 20, 40, 60: wait until the stream is trimmed
    let seen = await stored();
    for (let tries = 0; tries < 100 && (seen.snapshots.length < 2 || seen.first === 1); tries++) {
      await sleep(100);
      seen = await stored();
    }
    expect(seen.snapshots.length).toBeGreaterThanOrEqual(2);
    expect(seen.snapshots[0]).toBeGreaterThanOrEqual(3 * EVERY);
    // trimmed, but nothing the oldest snapshot kept does not hold
    expect(seen.first).toBeGreaterThan(1);
    expect(seen.first - 1).toBeLessThanOrEqual(seen.snapshots.at(-1)!);

    // entries after the newest snapshot: the late node needs the stream too
    for (let i = 70; i < 75; i++) last = (await batch(a, 'items', records(i * 30, 30, `late${i}`))).body.taskID;
    await waitForTask(b, last);

    const c = await startNode(cluster.nats.urls, ['--snapshot-every', String(EVERY)]);
    nodes.push(c);
    // it listens once it has caught up: no task to wait for
    expect((await search(c, 'items', { query: '', hitsPerPage: 0 })).body.nbHits).toBe(75 * 30);
    for (const params of QUERIES) expect(await answerOf(c, 'items', params)).toEqual(await answerOf(a, 'items', params));
    expect((await call(c, 'GET', '/1/indexes/items/settings')).body).toMatchObject({ searchableAttributes: ['title'], customRanking: ['asc(n)'] });
    expect((await search(c, 'items', { query: 'batch3', hitsPerPage: 0 }, key.body.key)).status).toBe(200);
    expect((await call(c, 'GET', `/1/task/${last}`)).body.status).toBe('published');

    // and it writes like the others
    const written = await batch(c, 'items', records(9000, 10, 'fromc'));
    await waitForTask(a, written.body.taskID);
    expect(written.body.taskID).toBeGreaterThan(last);
    expect((await search(a, 'items', { query: 'fromc', hitsPerPage: 0, typoTolerance: false })).body.nbHits).toBe(10);
  }, 60_000);
});
