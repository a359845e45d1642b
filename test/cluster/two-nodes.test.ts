// Two `lantern serve --nats` nodes (dist/cli.js) of one application on one
// real nats-server (JetStream), over HTTP: a write on either node is in the
// application's stream, applied by both under the same taskID, so a task
// made on one node is waited for and its data searched on the other; keys,
// settings, synonyms, rules and dictionaries go the same way. With NATS
// stopped, both nodes refuse writes with a 503 and a message and still
// answer searches; once it is back, writes are taken again. The searches a
// node answered without NATS are counted in its analytics at once, and in
// the other node's once NATS is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsServerFor, startNats, type NatsGroup } from '../support/nats.js';
import { answerOf, batch, call, eventually, eventuallyAnswer, records, search, startNode, waitForTask, type Node } from '../support/cluster-nodes.js';

const run = natsServerFor('two-nodes.test.ts');

let nats: NatsGroup;
let nodes: Node[] = [];

beforeAll(async () => {
  if (!run) return;
  nats = await startNats(1);
  nodes = await Promise.all([startNode(nats.urls), startNode(nats.urls)]);
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.served.stop()));
  await nats?.close();
});

describe.skipIf(!run)('two nodes on one NATS server', () => {
  it('a write on one node is searchable on the other after waitForTask, with task IDs rising across nodes', async () => {
    let previous = 0;
    for (let round = 0; round < 6; round++) {
      const [writer, reader] = round % 2 === 0 ? nodes : [nodes[1], nodes[0]];
      const { status, body } = await batch(writer, 'items', records(round * 200, 200, `round${round}`));
      expect(status).toBe(200);
      expect(body.taskID).toBeGreaterThan(previous);
      previous = body.taskID;
      await waitForTask(reader, body.taskID);
      const found = await search(reader, 'items', { query: `round${round}`, hitsPerPage: 1, typoTolerance: false });
      expect(found.body.nbHits).toBe(200);
      const all = await search(reader, 'items', { query: '', hitsPerPage: 0 });
      expect(all.body.nbHits).toBe((round + 1) * 200);
    }
    // both nodes give the same answer
    const params = { query: 'record 5', hitsPerPage: 20 };
    expect(await answerOf(nodes[1], 'items', params)).toEqual(await answerOf(nodes[0], 'items', params));
  });

  it('settings, synonyms, rules, keys and dictionaries written on one node reach the other', async () => {
    const [a, b] = nodes;
    const settings = await call(a, 'PUT', '/1/indexes/items/settings', { searchableAttributes: ['title'], customRanking: ['desc(n)'] });
    await waitForTask(b, settings.body.taskID);
    expect((await call(b, 'GET', '/1/indexes/items/settings')).body).toMatchObject({ searchableAttributes: ['title'], customRanking: ['desc(n)'] });

    const synonym = await call(b, 'PUT', '/1/indexes/items/synonyms/s1', { objectID: 's1', type: 'synonym', synonyms: ['round3', 'third'] });
    await waitForTask(a, synonym.body.taskID);
    expect((await search(a, 'items', { query: 'third', hitsPerPage: 0 })).body.nbHits).toBe(200);

    const rule = await call(a, 'PUT', '/1/indexes/items/rules/r1', { objectID: 'r1', conditions: [{ pattern: 'pinned', anchoring: 'is' }], consequence: { promote: [{ objectID: '7', position: 0 }] } });
    await waitForTask(b, rule.body.taskID);
    expect((await search(b, 'items', { query: 'pinned', hitsPerPage: 1 })).body.hits[0].objectID).toBe('7');

    // a key is applied on the node that made it before it answers, and on the other as soon as it reads it
    const key = await call(a, 'POST', '/1/keys', { acl: ['search'], description: 'search only' });
    expect(key.status).toBe(200);
    await eventually(async () => expect((await search(b, 'items', { query: 'round1', hitsPerPage: 0 }, key.body.key)).status).toBe(200));
    expect((await call(b, 'POST', '/1/indexes/items/batch', { requests: [] }, key.body.key)).status).toBe(400); // not enough rights

    const stop = await call(b, 'POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { objectID: 'sw1', language: 'en', word: 'round4', state: 'enabled' } }] });
    expect(stop.status).toBe(200);
    await eventually(async () => expect((await call(a, 'POST', '/1/dictionaries/stopwords/search', { query: 'round4' })).body.nbHits).toBe(1));
  });

  it('without NATS, writes are refused with a 503 and searches answered; once NATS is back, writes are taken again', async () => {
    const [a, b] = nodes;
    const before = await answerOf(b, 'items', { query: 'round2', hitsPerPage: 3 });
    await nats.servers[0].stop();
    for (const node of nodes) {
      const refused = await eventuallyAnswer(() => batch(node, 'items', records(5000, 1, 'offline')), 503);
      expect(refused.body.message).toMatch(/NATS/);
      expect(await answerOf(node, 'items', { query: 'round2', hitsPerPage: 3 })).toEqual(before);
    }
    await nats.servers[0].start();
    const taken = await eventuallyAnswer(() => batch(a, 'items', records(6000, 50, 'back')), 200);
    await waitForTask(b, taken.body.taskID);
    expect((await search(b, 'items', { query: 'back', hitsPerPage: 0, typoTolerance: false })).body.nbHits).toBe(50);
    expect((await search(b, 'items', { query: 'offline', hitsPerPage: 0, typoTolerance: false })).body.nbHits).toBe(0);
  }, 60_000);

  it('search events recorded without NATS are kept, and reach the other node once NATS is back', async () => {
    const [a, b] = nodes;
    const QUERY = 'while away';
    // a batch of searches is logged once there are 500 waiting: this many make one that the log refuses
    const SEARCHES = 520;
    await nats.servers[0].stop();
    await eventuallyAnswer(() => batch(a, 'items', records(7000, 1, 'offline')), 503);
    for (let i = 0; i < SEARCHES; i++) expect((await search(a, 'items', { query: QUERY, hitsPerPage: 1 })).status).toBe(200);
    expect(await searchCount(a, QUERY)).toBe(SEARCHES);
    await nats.servers[0].start();
    // logged again every 2 s until the log takes them, then handed to every node
    await eventually(async () => expect(await searchCount(b, QUERY)).toBe(SEARCHES), 30_000);
    expect(await searchCount(a, QUERY)).toBe(SEARCHES);
  }, 90_000);
});

/** How many times `query` was searched on `items`, as the node's analytics count it. */
async function searchCount(node: Node, query: string): Promise<number> {
  const { body } = await call(node, 'GET', '/2/searches?index=items&limit=1000');
  return body.searches.find((s: { search: string }) => s.search === query)?.count ?? 0;
}
