// The replication seam, in process and without threads: a replica engine
// started from the writer's image and fed the writer's stream (every
// operation the writer applies, in its order) answers as the writer does,
// whatever kind of operation the stream held, and whatever log the writer
// writes to (src/durability/operation-log.ts: none kept, the storage's on
// files or IndexedDB, a cluster's shared log on nats-server). Read workers
// carry the same entries over a thread's port.
import 'fake-indexeddb/auto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Lantern, type LanternOptions } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import { idbStorage } from '../../src/storage/idb.js';
import { natsCluster } from '../../src/nats/cluster.js';
import { natsServerFor, startNats, type NatsGroup } from '../support/nats.js';
import { Replica } from '../../src/replication/replica.js';
import type { ReplicatedOp } from '../../src/durability/replication.js';
import type { WriteOperation } from '../../src/engine/writes.js';

const opened: Lantern[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((e) => e.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
let nats: NatsGroup | undefined;
const runNats = natsServerFor('test/replication/replica.test.ts');
beforeAll(async () => { if (runNats) nats = await startNats(1); }, 30_000);
afterAll(async () => { await nats?.close(); });

async function open(options: LanternOptions = {}): Promise<Lantern> {
  const engine = await Lantern.open(options);
  opened.push(engine);
  return engine;
}

let places = 0;
/** Where the writer keeps its data, and so which log its writes go through. */
const WRITERS: Array<{ log: string; options: () => Promise<LanternOptions> }> = [
  { log: 'none kept (memory)', options: async () => ({}) },
  { log: 'the storage\'s, on files', options: async () => { const dir = mkdtempSync(join(tmpdir(), 'lantern-replica-')); dirs.push(dir); return { storage: fsStorage(dir) }; } },
  { log: 'the storage\'s, on IndexedDB', options: async () => ({ storage: idbStorage(`replica-${process.pid}-${places++}`) }) },
  ...(runNats ? [{
    log: 'a shared log on nats-server',
    options: async () => {
      const appId = `replica${places++}`;
      return { ...await natsCluster({ servers: [nats!.urls], appId, report: () => {} }), appId };
    },
  }] : []),
];

/** A writer whose stream goes to a replica (through a copy, as a port would carry it); a task is published once the replica applied it. */
async function writerAndReplica(writerOptions: LanternOptions, before: (writer: Lantern) => Promise<void>) {
  const writer = await open(writerOptions);
  await before(writer);
  const engine = await open();
  let appliedThrough = 0;
  const waiting: Array<{ taskID: number; publish: () => void }> = [];
  const replica = new Replica(engine, {
    applied: (taskID) => {
      appliedThrough = Math.max(appliedThrough, taskID);
      for (const w of waiting.filter((w) => w.taskID <= appliedThrough)) w.publish();
    },
    failed: (e) => { throw e; },
  });
  writer.replicateTo({
    feed: (entry: ReplicatedOp<WriteOperation>) => replica.receive(structuredClone(entry)),
    published: (taskID) => (taskID <= appliedThrough ? Promise.resolve() : new Promise((publish) => waiting.push({ taskID, publish }))),
  });
  await replica.start(await writer.image());
  return { writer, replica: engine };
}

const reads = [
  { method: 'POST', path: '/1/indexes/talks/query', body: { query: 'gvier', hitsPerPage: 5 } },
  { method: 'POST', path: '/1/indexes/talks/query', body: { query: 'the ocean', hitsPerPage: 5 } },
  { method: 'GET', path: '/1/indexes/talks/settings' },
  { method: 'POST', path: '/1/indexes/talks/synonyms/search', body: {} },
  { method: 'POST', path: '/1/indexes/talks/rules/search', body: {} },
  { method: 'GET', path: '/1/indexes/talks/3' },
  { method: 'GET', path: '/1/keys' },
  { method: 'GET', path: '/1/dictionaries/*/settings' },
];

async function answers(engine: Lantern): Promise<unknown[]> {
  const out = [];
  for (const r of reads) {
    const { status, body } = await engine.request(r);
    const { processingTimeMS: _t, serverTimeMS: _s, ...rest } = body as Record<string, unknown>;
    out.push([status, rest]);
  }
  return out;
}

const talks = (from: number, count: number, word: string) =>
  Array.from({ length: count }, (_, i) => ({ objectID: String(from + i), name: `${word} talk ${from + i}`, tags: [i % 2 ? 'odd' : 'even'] }));

describe.each(WRITERS)('a replica fed the stream of a writer whose log is $log', ({ options }) => {
  it('answers as the writer does after every kind of operation, from an image taken mid-way', async () => {
    const { writer, replica } = await writerAndReplica(await options(), async (w) => {
      // before the image: the replica gets these from it
      await w.client().saveObjects({ indexName: 'talks', objects: talks(0, 300, 'giver'), waitForTasks: true });
      await w.client().addApiKey({ acl: ['search'], description: 'before' });
    });
    const client = writer.client();
    const tasks = [
      (await client.saveObjects({ indexName: 'talks', objects: talks(300, 300, 'ocean') }))[0].taskID,
      (await client.setSettings({ indexName: 'talks', indexSettings: { attributesForFaceting: ['tags'], customRanking: ['desc(name)'] } })).taskID,
      (await client.saveSynonyms({ indexName: 'talks', synonymHit: [{ objectID: 's', type: 'synonym', synonyms: ['ocean', 'sea'] }] })).taskID,
      (await client.saveRule({ indexName: 'talks', objectID: 'r', rule: { objectID: 'r', conditions: [{ pattern: 'sea', anchoring: 'contains' }], consequence: { params: { filters: 'tags:odd' } } } })).taskID,
      (await client.deleteObject({ indexName: 'talks', objectID: '4' })).taskID,
      (await client.partialUpdateObject({ indexName: 'talks', objectID: '3', attributesToUpdate: { name: 'renamed' } })).taskID,
    ];
    await client.addApiKey({ acl: ['search', 'browse'], description: 'after' });
    await client.batchDictionaryEntries({ dictionaryName: 'stopwords', batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'sw', language: 'en', word: 'talk' } }] } });
    await client.waitForTask({ indexName: 'talks', taskID: tasks.at(-1)! });
    expect(await answers(replica)).toEqual(await answers(writer));
    expect(replica.keys.size).toBe(2);
  }, 30_000);

  it('holds a task back from publication until the replica applied it', async () => {
    const { writer, replica } = await writerAndReplica(await options(), async () => {});
    // one batch of 2,000 records (the client would send two): the replica applies it in slices too
    const taskID = await writer.write({ type: 'batch', indexName: 'talks', actions: talks(0, 2000, 'slow').map((body) => ({ action: 'addObject', body })) });
    while (writer.tasks.status(taskID) !== 'published') await new Promise((r) => setTimeout(r, 1));
    const { body } = await replica.request({ method: 'POST', path: '/1/indexes/talks/query', body: { query: 'slow', hitsPerPage: 0 } });
    expect((body as { nbHits: number }).nbHits).toBe(2000);
  }, 30_000);
});
