// Reads under writes: searches per second and their latency on `lantern
// serve` (a child process on a temporary data directory), alone and while
// four writers stream 1,000-record batches (replacing records already there,
// so the index keeps its size). Targets (issue #22):
// searches keep >= 50% of their throughput, p99 <= 50 ms.
//
//   node bench/reads-under-writes.mjs [--records 50000] [--seconds 10] [--searchers 8] [--writers 4] [--rounds 2]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { synthetic } from './corpus.mjs';
import { buildQueries } from './queries.mjs';
import { percentile, post, searchLoad, setSettings, startServer, waitForTask } from './support/serve-http.mjs';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '50000' },
    seconds: { type: 'string', default: '10' },
    searchers: { type: 'string', default: '8' },
    writers: { type: 'string', default: '4' },
    batch: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '2' },
  },
});
const RECORDS = Number(values.records);
const SECONDS = Number(values.seconds);
const SEARCHERS = Number(values.searchers);
const WRITERS = Number(values.writers);
const BATCH = Number(values.batch);
const ROUNDS = Number(values.rounds);

/** Batch bodies, serialised once: the bench process shares the machine, and building a 1,000-record body per write delayed its searchers' answers. */
const BATCH_BODIES = 64;
/** @param {import('./corpus.mjs').Corpus} corpus */
function batchBodies(corpus) {
  return Array.from({ length: BATCH_BODIES }, (_, b) => {
    const first = b * BATCH;
    // replaces records already there (other texts under their objectIDs): the index keeps its size across phases
    const requests = Array.from({ length: BATCH }, (_, i) => {
      const record = corpus.records[(first + i * 7919) % corpus.records.length];
      return { action: 'addObject', body: { ...record, objectID: String((first + i) % RECORDS) } };
    });
    return Buffer.from(JSON.stringify({ requests }));
  });
}

/**
 * @param {string} base
 * @param {Buffer[]} bodies
 * @param {number} until
 * @param {{ value: number }} next the next body to send
 * @param {{ count: number, lastTask: number }} written
 */
async function writeLoad(base, bodies, until, next, written) {
  while (performance.now() < until) {
    const body = bodies[next.value++ % bodies.length];
    const r = await post(base, '/1/indexes/bench/batch', body);
    if (r.status !== 200) throw new Error(`batch answered ${r.status}: ${r.body.message}`);
    written.count += BATCH;
    written.lastTask = r.body.taskID;
  }
}

/** The batch bodies (made for the first loaded phase), and the next one to send: shared by the phases. */
/** @type {Buffer[]} */
let bodies = [];
const next = { value: 0 };

/**
 * @param {string} base
 * @param {string[]} queries
 * @param {import('./corpus.mjs').Corpus} corpus
 * @param {number} writers
 */
async function phase(base, queries, corpus, writers) {
  // built before the clock starts: serialising 64 bodies stopped this process's searchers for half a second
  if (writers > 0 && bodies.length === 0) bodies = batchBodies(corpus);
  /** @type {number[]} */
  const latencies = [];
  /** @type {number[]} when each search was sent, in the order of `latencies` */
  const startedAt = [];
  const written = { count: 0, lastTask: 0 };
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all([
    ...Array.from({ length: SEARCHERS }, () => searchLoad(base, 'bench', queries, until, latencies, startedAt)),
    ...Array.from({ length: writers }, () => writeLoad(base, bodies, until, next, written)),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  // what the writers queued is applied before the next phase starts
  if (written.lastTask) await waitForTask(base, 'bench', written.lastTask);
  // the p99 of each second: a loaded phase starts with an empty queue, which the writers fill in its first second
  /** @type {number[][]} */
  const bySecond = [];
  startedAt.forEach((at, i) => (bySecond[Math.floor((at - started) / 1000)] ??= []).push(latencies[i]));
  const secondP99 = bySecond.map((second) => percentile(second.sort((a, b) => a - b), 0.99));
  latencies.sort((a, b) => a - b);
  return {
    secondP99,
    searchesPerSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1],
    recordsWrittenPerSecond: written.count / elapsed,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'lantern-rw-'));
const { base, stop } = await startServer(['--data', dir]);
try {
  const corpus = synthetic(Math.max(RECORDS, BATCH));
  console.log(`loading ${RECORDS} synthetic records into ${base} ...`);
  await setSettings(base, 'bench', corpus.settings ?? {});
  let last = 0;
  for (let i = 0; i < RECORDS; i += BATCH) {
    const requests = corpus.records.slice(i, i + BATCH).map((body) => ({ action: 'addObject', body }));
    last = (await post(base, '/1/indexes/bench/batch', { requests })).body.taskID;
  }
  await waitForTask(base, 'bench', last);
  // the main bench's query classes, mixed: exact words, one and two typos, title phrases, keystrokes
  const q = buildQueries(corpus);
  const queries = [...q.exact, ...q.typo1, ...q.typo2, ...q.multi, ...q.asYouType];

  // phases alternate (alone, loaded, alone, ...): this machine's speed drifts, so each
  // loaded phase is compared with the mean of the alone phases on either side of it
  /** @type {(name: string, r: Awaited<ReturnType<typeof phase>>) => string} */
  const row = (name, r) => `${name.padEnd(28)} ${r.searchesPerSecond.toFixed(0).padStart(7)}/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(7)} ms  max ${r.max.toFixed(0).padStart(6)} ms  ${r.recordsWrittenPerSecond.toFixed(0).padStart(7)} records written/s`;
  console.log(`${SEARCHERS} searchers, ${SECONDS} s a phase, ${RECORDS} records to start with`);
  await phase(base, queries, corpus, 0); // warm-up: first sight of the queries
  let before = await phase(base, queries, corpus, 0);
  console.log(row('searches alone', before));
  for (let round = 0; round < ROUNDS; round++) {
    const loaded = await phase(base, queries, corpus, WRITERS);
    const after = await phase(base, queries, corpus, 0);
    const alone = (before.searchesPerSecond + after.searchesPerSecond) / 2;
    console.log(row(`with ${WRITERS} writers x ${BATCH}`, loaded));
    console.log(row('searches alone', after));
    console.log(`  throughput kept: ${(100 * loaded.searchesPerSecond / alone).toFixed(0)}% (target >= 50%), p99 under writes ${loaded.p99.toFixed(1)} ms (target <= 50 ms)`);
    console.log(`  p99 under writes, second by second: ${loaded.secondP99.map((ms) => ms.toFixed(0)).join(' ')} ms`);
    before = after;
  }
} finally {
  await stop();
  rmSync(dir, { recursive: true, force: true });
}
