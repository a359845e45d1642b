// Named clusters made real, against one nats-server and two `lantern serve
// --nats --clusters NAME` processes, one per cluster: each cluster has a
// stream of its own, the user assignments are known to both nodes, and a
// call carrying the user ID of a user on the other cluster is answered by
// that cluster's node. Records written for a user of c2 through the c1 node
// land on c2, searches for that user through either node see them, and
// c1's data never holds them. The mapping lists count every cluster's
// records on either node. A user moved to the other cluster takes its
// records. With no node of a cluster, its users' calls get a 503 saying so.
import { beforeAll, describe, expect, it } from 'vitest';
import { natsServerFor } from '../support/nats.js';
import { KEY, call, clusterFixture, eventually, records, streamState, type Node } from '../support/cluster-nodes.js';

const run = natsServerFor('clusters.test.ts');

const cluster = clusterFixture(run, [['--clusters', 'c1'], ['--clusters', 'c2']]);

/** A call for user `userID` (its header set). */
const callFor = (node: Node, userID: string, method: string, path: string, body?: unknown) => call(node, method, path, body, KEY, { 'x-algolia-user-id': userID });

const hitsFor = async (node: Node, userID: string | undefined, query: string) => {
  const { status, body } = userID === undefined
    ? await call(node, 'POST', '/1/indexes/items/query', { query, hitsPerPage: 0, typoTolerance: false })
    : await callFor(node, userID, 'POST', '/1/indexes/items/query', { query, hitsPerPage: 0, typoTolerance: false });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.nbHits as number;
};

async function waitForTaskFor(node: Node, userID: string, taskID: number): Promise<void> {
  await eventually(async () => expect((await callFor(node, userID, 'GET', `/1/indexes/items/task/${taskID}`)).body.status).toBe('published'), 20_000);
}

const lastInStream = async (name: string) => (await streamState(cluster.nc, name)).last_seq;

describe.skipIf(!run)('two clusters, a node for each', () => {
  let c1: Node;
  let c2: Node;
  beforeAll(() => { [c1, c2] = cluster.nodes; });

  it('assignments made on either node are known to both, with the clusters the nodes serve', async () => {
    expect((await callFor(c1, 'alice', 'POST', '/1/clusters/mapping', { cluster: 'c2' })).status).toBe(200);
    expect((await call(c2, 'POST', '/1/clusters/mapping/batch', { cluster: 'c1', users: ['bob'] })).status).toBe(200);
    for (const node of [c1, c2]) {
      await eventually(async () => {
        const { body } = await call(node, 'GET', '/1/clusters/mapping?hitsPerPage=10');
        expect(body.userIDs.map((u: { userID: string; clusterName: string }) => [u.userID, u.clusterName])).toEqual([['alice', 'c2'], ['bob', 'c1']]);
      });
      expect((await call(node, 'GET', '/1/clusters')).body.topUsers).toEqual(['c1', 'c2']);
    }
    expect((await callFor(c1, 'alice', 'POST', '/1/clusters/mapping', { cluster: 'c3' })).status).toBe(400);
  });

  it('records written for a user of c2 through the c1 node land on c2 only, and either node finds them for that user', async () => {
    const own = await callFor(c2, 'bob', 'POST', '/1/indexes/items/batch', { requests: records(100, 5, 'bobdoc').map((body) => ({ action: 'addObject', body })) });
    await waitForTaskFor(c2, 'bob', own.body.taskID);
    expect(await hitsFor(c1, undefined, 'bobdoc')).toBe(5);

    const c1Before = await lastInStream('c1');
    const written = await callFor(c1, 'alice', 'POST', '/1/indexes/items/batch', { requests: records(0, 30, 'alicedoc').map((body) => ({ action: 'addObject', body })) });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    // the task is c2's: asked for that user, through either node
    await waitForTaskFor(c1, 'alice', written.body.taskID);
    expect(await hitsFor(c1, 'alice', 'alicedoc')).toBe(30);
    expect(await hitsFor(c2, 'alice', 'alicedoc')).toBe(30);
    // c1's stream took nothing, and c1's data holds none of them; c2's does
    expect(await lastInStream('c1')).toBe(c1Before);
    expect(await hitsFor(c1, undefined, 'alicedoc')).toBe(0);
    expect(await hitsFor(c2, undefined, 'alicedoc')).toBe(30);
    expect(await hitsFor(c2, undefined, 'bobdoc')).toBe(0);
    // a user's figures come from its cluster's node, whichever node is asked
    for (const node of [c1, c2]) expect((await call(node, 'GET', '/1/clusters/mapping/alice')).body).toMatchObject({ clusterName: 'c2', nbRecords: 30 });
  });

  it('the mapping lists count the records of every cluster, whichever node is asked', async () => {
    for (const node of [c1, c2]) {
      const listed = (await call(node, 'GET', '/1/clusters/mapping')).body.userIDs as Array<{ userID: string; nbRecords: number }>;
      expect(listed.map((u) => [u.userID, u.nbRecords])).toEqual([['alice', 30], ['bob', 5]]);
      const top = (await call(node, 'GET', '/1/clusters/mapping/top')).body.topUsers;
      expect(top).toEqual([{ c1: [expect.objectContaining({ userID: 'bob', nbRecords: 5 })] }, { c2: [expect.objectContaining({ userID: 'alice', nbRecords: 30 })] }]);
      const found = (await call(node, 'POST', '/1/clusters/mapping/search', { query: 'alice' })).body.hits;
      expect(found).toEqual([expect.objectContaining({ userID: 'alice', nbRecords: 30 })]);
      const clusters = (await call(node, 'GET', '/1/clusters')).body.clusters;
      expect(clusters.map((c: { nbRecords: number }) => c.nbRecords)).toEqual([5, 30]);
    }
    expect((await call(c1, 'POST', '/1/clusters/mapping/search', { query: 1 })).status).toBe(400);
  });

  it('removing a user of c2 through the c1 node deletes its records on c2, and the assignment everywhere', async () => {
    expect((await callFor(c2, 'carol', 'POST', '/1/clusters/mapping', { cluster: 'c2' })).status).toBe(200);
    await eventually(async () => expect((await call(c1, 'GET', '/1/clusters/mapping/carol')).status).toBe(200));
    const written = await callFor(c1, 'carol', 'POST', '/1/indexes/items/batch', { requests: records(500, 4, 'caroldoc').map((body) => ({ action: 'addObject', body })) });
    await waitForTaskFor(c2, 'carol', written.body.taskID);
    expect(await hitsFor(c2, undefined, 'caroldoc')).toBe(4);

    expect((await call(c1, 'DELETE', '/1/clusters/mapping/carol')).status).toBe(200);
    await eventually(async () => expect(await hitsFor(c2, undefined, 'caroldoc')).toBe(0));
    for (const node of [c1, c2]) await eventually(async () => expect((await call(node, 'GET', '/1/clusters/mapping/carol')).status).toBe(404));
    expect(await hitsFor(c2, 'alice', 'alicedoc')).toBe(30);
  });

  it('a user moved from c1 to c2 takes its records: written on c2, deleted from c1, pending until then', async () => {
    expect((await call(c1, 'POST', '/1/clusters/mapping/batch', { cluster: 'c1', users: ['dave'] })).status).toBe(200);
    await eventually(async () => expect((await call(c2, 'GET', '/1/clusters/mapping/dave')).status).toBe(200));
    const written = await callFor(c1, 'dave', 'POST', '/1/indexes/items/batch', { requests: records(700, 40, 'davedoc').map((body) => ({ action: 'addObject', body })) });
    await waitForTaskFor(c1, 'dave', written.body.taskID);
    const c2Before = await lastInStream('c2');

    // asked of c2's node, made by c1's (the records are there)
    const moved = await callFor(c2, 'dave', 'POST', '/1/clusters/mapping', { cluster: 'c2' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await eventually(async () => expect((await call(c1, 'GET', '/1/clusters/mapping/pending?getClusters=true')).body).toEqual({ pending: false, clusters: {} }), 20_000);
    await eventually(async () => expect(await hitsFor(c2, undefined, 'davedoc')).toBe(40), 20_000);
    await eventually(async () => expect(await hitsFor(c1, undefined, 'davedoc')).toBe(0), 20_000);
    expect(await lastInStream('c2')).toBeGreaterThan(c2Before);
    for (const node of [c1, c2]) {
      expect(await hitsFor(node, 'dave', 'davedoc')).toBe(40);
      expect((await call(node, 'GET', '/1/clusters/mapping/dave')).body).toMatchObject({ clusterName: 'c2', nbRecords: 40 });
    }
    expect(await hitsFor(c1, 'bob', 'bobdoc')).toBe(5);
  });

  it('a user no cluster holds is a 404; a cluster no node serves now is a 503 saying so', async () => {
    const unknown = await callFor(c1, 'nobody', 'POST', '/1/indexes/items/query', { query: '' });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'User ID "nobody" is not assigned to any cluster']);
    await c2.served.stop();
    const refused = await callFor(c1, 'alice', 'POST', '/1/indexes/items/query', { query: 'alicedoc' });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/User ID "alice" is on cluster "c2", and no node serving it can be reached now: start one with --clusters c2/);
    // c1's own users are answered as before
    expect(await hitsFor(c1, 'bob', 'bobdoc')).toBe(5);
    // a move to a cluster no node serves is refused, and changes nothing
    const move = await callFor(c1, 'bob', 'POST', '/1/clusters/mapping', { cluster: 'c2' });
    expect([move.status, move.body.message]).toEqual([503, expect.stringMatching(/cannot be moved to cluster "c2": no node serving it can be reached now/)]);
    expect((await call(c1, 'GET', '/1/clusters/mapping/bob')).body).toMatchObject({ clusterName: 'c1', nbRecords: 5 });
  });
});
