// Cluster mode: how long a node started late takes to catch up with an
// application of N records on NATS JetStream. A first node (`lantern serve
// --nats`, dist/cli.js) takes the synthetic records over HTTP in batches;
// then a second node is timed from its start until it listens (it listens
// once it has applied what the stream held when it started), twice:
//
// - from the stream alone (--snapshot-every 0: no snapshot), every batch
//   applied again;
// - from a snapshot in the object store (the first node stores one at 90%
//   of the batches), then the stream after it.
//
// One nats-server (NATS_SERVER, else nats-server on the PATH or
// /usr/sbin/nats-server) with its store in a temporary directory.
//
//   node bench/cluster-catchup.mjs [--records 100000] [--batch 1000]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { synthetic } from './corpus.mjs';
import { post, setSettings, startServer, waitForTask } from './support/serve-http.mjs';

const { values } = parseArgs({ options: { records: { type: 'string', default: '100000' }, batch: { type: 'string', default: '1000' } } });
const RECORDS = Number(values.records);
const BATCH = Number(values.batch);
const BATCHES = Math.ceil(RECORDS / BATCH);
const NATS_SERVER = process.env.NATS_SERVER ?? (existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');

/** A free TCP port on loopback. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** nats-server with JetStream on a free port; resolves once it answers. */
async function startNats() {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-bench-nats-'));
  const port = await freePort();
  const monitor = await freePort();
  const child = spawn(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(port), '-m', String(monitor), '-sd', dir], { stdio: 'ignore' });
  child.once('error', (e) => { console.error(`cannot start ${NATS_SERVER}: ${e.message} (apt-get install nats-server, or set NATS_SERVER)`); process.exit(1); });
  while (!(await fetch(`http://127.0.0.1:${monitor}/healthz`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 100));
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `nats://127.0.0.1:${port}`, stop };
}

/**
 * Waits until the application's object store holds a snapshot and the stream is trimmed below it;
 * resolves with its name, its size and the stream's first entry.
 * @param {string} url
 * @param {string} appId
 */
async function snapshotStored(url, appId) {
  const nc = await connect({ servers: url });
  try {
    const bucket = await new Objm(nc).open(`LANTERN_${appId}_SNAPSHOTS`);
    const jsm = await jetstreamManager(nc);
    for (;;) {
      const [snapshot] = (await bucket.list()).filter((i) => !i.deleted);
      const first = (await jsm.streams.info(`LANTERN_${appId}`)).state.first_seq;
      if (snapshot && first > 1) return { name: snapshot.name, bytes: snapshot.size, first };
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await nc.close();
  }
}

const corpus = synthetic(RECORDS);

/**
 * Loads the records through a first node of `appId`, then times a second node's start.
 * @param {string} url
 * @param {string} appId
 * @param {number} snapshotEvery
 */
async function scenario(url, appId, snapshotEvery) {
  const args = ['--nats', url, '--app-id', appId, '--snapshot-every', String(snapshotEvery)];
  const first = await startServer(args);
  let late;
  try {
    await setSettings(first.base, 'bench', corpus.settings);
    let last = 0;
    const loading = performance.now();
    for (let i = 0; i < RECORDS; i += BATCH) {
      const requests = corpus.records.slice(i, i + BATCH).map((body) => ({ action: 'addObject', body }));
      const r = await post(first.base, '/1/indexes/bench/batch', { requests });
      if (r.status !== 200) throw new Error(`batch answered ${r.status}: ${JSON.stringify(r.body)}`);
      last = r.body.taskID;
    }
    await waitForTask(first.base, 'bench', last);
    const loaded = (performance.now() - loading) / 1000;
    const snapshot = snapshotEvery > 0 ? await snapshotStored(url, appId) : undefined;
    const started = performance.now();
    late = await startServer(args);
    const seconds = (performance.now() - started) / 1000;
    const { body } = await post(late.base, '/1/indexes/bench/query', { query: '', hitsPerPage: 0 });
    if (body.nbHits !== RECORDS) throw new Error(`the late node holds ${body.nbHits} records, not ${RECORDS}`);
    const from = snapshot
      ? `from a snapshot (${(snapshot.bytes / 1e6).toFixed(1)} MB, stream trimmed to start at entry ${snapshot.first}) and the ${last - snapshot.first + 1} entries after it`
      : `from the stream alone (${last} entries)`;
    console.log(`late node caught up on ${RECORDS.toLocaleString('en')} records ${from}: ${seconds.toFixed(1)} s (loading them through the first node: ${loaded.toFixed(1)} s)`);
  } finally {
    await late?.stop();
    await first.stop();
  }
}

const nats = await startNats();
try {
  await scenario(nats.url, 'STREAMONLY', 0);
  await scenario(nats.url, 'SNAPSHOT', Math.floor(BATCHES * 0.9));
} finally {
  await nats.stop();
}
