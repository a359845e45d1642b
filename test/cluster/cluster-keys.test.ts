// API keys are the application's, not a cluster's: against one nats-server
// and a `lantern serve --nats --clusters NAME` node for each of two
// clusters, a key made, changed, deleted or restored on either node is the
// same key on the other (its value, rights and restrictions, and the secured
// keys derived from it), and a node started again still has them.
import { beforeAll, describe, expect, it } from 'vitest';
import { natsServerFor } from '../support/nats.js';
import { generateSecuredKey } from '../../src/auth/secured-keys.js';
import { batch, call, clusterFixture, eventually, records, search, startNode, waitForTask, type Node } from '../support/cluster-nodes.js';

const run = natsServerFor('cluster-keys.test.ts');

const cluster = clusterFixture(run, [['--clusters', 'c1'], ['--clusters', 'c2']]);

/** Eventually answers `status` to a search of `items` on `node` with `key`. */
const searchesWith = (node: Node, key: string, status: number) =>
  eventually(async () => expect((await search(node, 'items', { query: 'doc' }, key)).status).toBe(status));

describe.skipIf(!run)('API keys of two clusters, a node for each', () => {
  let c1: Node;
  let c2: Node;
  let key: string;
  beforeAll(async () => {
    [c1, c2] = cluster.nodes;
    for (const node of [c1, c2]) await waitForTask(node, (await batch(node, 'items', records(0, 3, 'doc'))).body.taskID);
  });

  it('a key made on c1 searches on c2, with its restrictions, and is listed there', async () => {
    const made = await call(c1, 'POST', '/1/keys', { acl: ['search', 'browse'], description: 'front', maxHitsPerQuery: 2 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    key = made.body.key;
    await searchesWith(c2, key, 200);
    expect((await search(c2, 'items', { query: 'doc', hitsPerPage: 10 }, key)).body.hits).toHaveLength(2);
    const listed = await call(c2, 'GET', '/1/keys');
    expect(listed.body.keys.map((k: { value: string }) => k.value)).toContain(key);
    const secured = await generateSecuredKey(key, { restrictIndices: ['items'] });
    expect((await search(c2, 'items', { query: 'doc' }, secured)).status).toBe(200);
    expect((await search(c2, 'other', { query: 'doc' }, secured)).status).toBe(403);
  });

  it('a key narrowed on c2 is refused on c1 what it lost', async () => {
    expect((await call(c2, 'PUT', `/1/keys/${key}`, { acl: ['browse'] })).status).toBe(200);
    await searchesWith(c1, key, 403);
    expect((await call(c1, 'POST', '/1/indexes/items/browse', {}, key)).status).toBe(200);
    expect((await call(c1, 'GET', `/1/keys/${key}`)).body.acl).toEqual(['browse']);
  });

  it('a key deleted on c1 is refused on c2, and restored on c2 works on c1 again', async () => {
    expect((await call(c2, 'PUT', `/1/keys/${key}`, { acl: ['search'] })).status).toBe(200);
    await searchesWith(c1, key, 200);
    expect((await call(c1, 'DELETE', `/1/keys/${key}`)).status).toBe(200);
    await searchesWith(c2, key, 403);
    await eventually(async () => expect((await call(c2, 'POST', `/1/keys/${key}/restore`)).status).toBe(200));
    await searchesWith(c1, key, 200);
  });

  it('an index key a copy extends reaches the copy on every node of the cluster, stored once for all', async () => {
    const made = await call(c1, 'POST', '/1/indexes/items/keys', { acl: ['search'] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const indexKey = made.body.key as string;
    const copied = await call(c1, 'POST', '/1/indexes/items/operation', { operation: 'copy', destination: 'items-copy' });
    await waitForTask(c1, copied.body.taskID);
    await eventually(async () => expect((await search(c1, 'items-copy', { query: 'doc' }, indexKey)).status).toBe(200));
    await eventually(async () => expect((await call(c2, 'GET', `/1/keys/${indexKey}`)).body.indexes).toEqual(['items', 'items-copy']));
  });

  it('a node started again still has the keys', async () => {
    const other = (await call(c2, 'POST', '/1/keys', { acl: ['search'] })).body.key as string;
    await c2.served.stop();
    c2 = await startNode(cluster.nats.urls, ['--clusters', 'c2']);
    cluster.nodes[1] = c2;
    await searchesWith(c2, key, 200);
    await searchesWith(c2, other, 200);
    await searchesWith(c1, other, 200);
  });
});
