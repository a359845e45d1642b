// Reads under writes: searches per second and their latency on `lantern
// serve` (a child process on a temporary data directory), alone and while
// four writers stream 1,000-record batches (replacing records already there,
// so the index keeps its size). Then, with --mixed, traffic of 80% searches
// and 20% batches of 50 records at each number of connections; and with
// --single-writes, single-record writes one after another while a search is
// sent every 50 ms.
// Targets: searches keep >= 50% of their throughput, p99 <= 100 ms during the
// bursts; mixed traffic answers every call within 2 s.
//
// --corpus synthetic: the main bench's generated records and settings.
// --corpus long: corpus.mjs longText's records (~1,000 words each, an
// article or a documentation page; writes of them are the costliest per
// record), their settings; give a smaller --batch (100: ~600 KB a body).
// --corpus ted: the TED talks with their real settings and 12 sort replicas,
// each talk under several objectIDs (bench/support/ted-replicas.mjs).
//
//   node bench/reads-under-writes.mjs [--corpus synthetic|long|ted] [--records 50000] [--seconds 10]
//     [--searchers 8] [--writers 4] [--rounds 2] [--mixed 8,32,128] [--write-share 0.2] [--single-writes 0]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { longText, mulberry32, synthetic, ted } from './corpus.mjs';
import { buildQueries } from './queries.mjs';
import { percentile, post, searchLoad, setSettings, startServer, waitForTask } from './support/serve-http.mjs';
import { tedRecordAt, tedSettings } from './support/ted-replicas.mjs';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: 'synthetic' },
    records: { type: 'string', default: '50000' },
    seconds: { type: 'string', default: '10' },
    searchers: { type: 'string', default: '8' },
    writers: { type: 'string', default: '4' },
    batch: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '2' },
    mixed: { type: 'string', default: '' },
    'write-share': { type: 'string', default: '0.2' },
    'single-writes': { type: 'string', default: '0' },
  },
});
const RECORDS = Number(values.records);
const SECONDS = Number(values.seconds);
const SEARCHERS = Number(values.searchers);
const WRITERS = Number(values.writers);
const BATCH = Number(values.batch);
const ROUNDS = Number(values.rounds);
const MIXED = values.mixed ? values.mixed.split(',').map(Number) : [];
const WRITE_SHARE = Number(values['write-share']);
const SINGLE_WRITES = Number(values['single-writes']);
/** The generated corpora, by name: `n` records each. */
const GENERATED = { synthetic, long: longText };
if (values.corpus !== 'ted' && !Object.hasOwn(GENERATED, values.corpus)) throw new Error(`--corpus ${values.corpus}: expected ted or one of ${Object.keys(GENERATED).join(', ')}`);

/**
 * The records, settings and queries of the chosen corpus, and the record
 * standing at place `i` (i < RECORDS), which writes replace with another text.
 */
function workload() {
  if (values.corpus === 'ted') {
    const { settings, replicas } = tedSettings();
    return {
      index: 'talks',
      settings,
      replicas,
      queryCorpus: ted(),
      /** @type {(i: number, version: number) => Record<string, any>} a talk, its view count changed by each version */
      recordAt: (i, version) => {
        const record = tedRecordAt(i);
        return version === 0 ? record : { ...record, viewed_count: record.viewed_count + version };
      },
    };
  }
  const corpus = GENERATED[/** @type {keyof typeof GENERATED} */ (values.corpus)](Math.max(RECORDS, BATCH));
  return {
    index: 'bench',
    settings: corpus.settings ?? {},
    replicas: [],
    queryCorpus: corpus,
    /** @type {(i: number, version: number) => Record<string, any>} another record's text under the objectID */
    recordAt: (i, version) => (version === 0 ? corpus.records[i] : { ...corpus.records[(i + version * 7919) % corpus.records.length], objectID: corpus.records[i].objectID }),
  };
}
const work = workload();
const INDEX = work.index;

/** A batch of `size` records replacing those from place `first` on, serialised once. */
/** @type {(first: number, size: number, version: number) => Buffer} */
const batchBody = (first, size, version) =>
  Buffer.from(JSON.stringify({ requests: Array.from({ length: size }, (_, i) => ({ action: 'addObject', body: work.recordAt((first + i * 7919) % RECORDS, version) })) }));

/**
 * Sends a batch; a 503 (too many writes waiting: the server's back-pressure)
 * is sent again after a moment, as its message asks. Returns the task and how
 * many times it was refused; each attempt's time goes to `attempts`.
 * @param {string} base
 * @param {Buffer} body
 * @param {number[]} [attempts]
 */
async function sendBatch(base, body, attempts = /** @type {number[]} */ ([])) {
  for (let refused = 0; ; refused++) {
    const at = performance.now();
    const r = await post(base, `/1/indexes/${INDEX}/batch`, body);
    attempts.push(performance.now() - at);
    if (r.status === 200) return { taskID: /** @type {number} */ (r.body.taskID), refused };
    if (r.status !== 503) throw new Error(`batch answered ${r.status}: ${r.body.message}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Batch bodies, serialised before the clock starts: the bench process shares the machine, and building a 1,000-record body per write delayed its searchers' answers. */
const BATCH_BODIES = 64;

/**
 * @param {string} base
 * @param {Buffer[]} bodies
 * @param {number} until
 * @param {{ value: number }} next the next body to send
 * @param {{ count: number, lastTask: number, refused: number }} written
 */
async function writeLoad(base, bodies, until, next, written) {
  while (performance.now() < until) {
    const { taskID, refused } = await sendBatch(base, bodies[next.value++ % bodies.length]);
    written.count += BATCH;
    written.lastTask = Math.max(written.lastTask, taskID);
    written.refused += refused;
  }
}

/** The batch bodies (made for the first loaded phase), and the next one to send: shared by the phases. */
/** @type {Buffer[]} */
let bodies = [];
const next = { value: 0 };

/**
 * @param {string} base
 * @param {string[]} queries
 * @param {number} writers
 */
async function phase(base, queries, writers) {
  if (writers > 0 && bodies.length === 0) bodies = Array.from({ length: BATCH_BODIES }, (_, b) => batchBody(b * BATCH, BATCH, b + 1));
  /** @type {number[]} */
  const latencies = [];
  /** @type {number[]} when each search was sent, in the order of `latencies` */
  const startedAt = [];
  const written = { count: 0, lastTask: 0, refused: 0 };
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all([
    ...Array.from({ length: SEARCHERS }, () => searchLoad(base, INDEX, queries, until, latencies, startedAt)),
    ...Array.from({ length: writers }, () => writeLoad(base, bodies, until, next, written)),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  // what the writers queued is applied before the next phase starts
  if (written.lastTask) await waitForTask(base, INDEX, written.lastTask);
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
    refused: written.refused,
  };
}

/**
 * Mixed traffic: `connections` clients, each sending one call after another,
 * a batch of 50 records one time in five (--write-share) and a search
 * otherwise. Calls are timed one by one: a batch refused 503 (the server's
 * back-pressure, answered in time) and sent again is two calls.
 * @param {string} base
 * @param {string[]} queries
 * @param {number} connections
 */
async function mixedPhase(base, queries, connections) {
  const mixedBodies = Array.from({ length: BATCH_BODIES }, (_, b) => batchBody((b * 50 * 31) % RECORDS, 50, 1000 + b));
  /** @type {number[]} */
  const searches = [];
  /** @type {number[]} */
  const calls = [];
  /** @type {string[]} calls over 2 s: what and when (seconds into the phase) */
  const slow = [];
  let lastTask = 0;
  let refused = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async (_, c) => {
    const rng = mulberry32(c + 11);
    while (performance.now() < until) {
      const at = performance.now();
      const kind = rng() < WRITE_SHARE ? 'batch' : 'search';
      let serverMs = 0;
      /** @type {number[]} each HTTP call's time (a batch refused 503 is sent again: a call each) */
      const attempts = [];
      if (kind === 'batch') {
        const { taskID, refused: times } = await sendBatch(base, mixedBodies[Math.floor(rng() * mixedBodies.length)], attempts);
        lastTask = Math.max(lastTask, taskID);
        refused += times;
      } else {
        const r = await post(base, `/1/indexes/${INDEX}/query`, { query: queries[Math.floor(rng() * queries.length)], hitsPerPage: 10 });
        if (r.status !== 200) throw new Error(`search answered ${r.status}`);
        serverMs = r.body.processingTimeMS;
      }
      const ms = performance.now() - at;
      if (kind === 'search') searches.push(ms);
      const sent = kind === 'search' ? [ms] : attempts;
      calls.push(...sent);
      if (Math.max(...sent) > 2000) slow.push(`${kind} sent at ${((at - started) / 1000).toFixed(1)} s: ${ms.toFixed(0)} ms${kind === 'search' ? ` (${serverMs} ms searching)` : ''}`);
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  if (lastTask) await waitForTask(base, INDEX, lastTask);
  searches.sort((a, b) => a - b);
  calls.sort((a, b) => a - b);
  return {
    searchesPerSecond: searches.length / elapsed,
    p50: percentile(searches, 0.5),
    p99: percentile(searches, 0.99),
    calls: calls.length,
    slowest: calls[calls.length - 1],
    over2s: calls.filter((ms) => ms > 2000).length,
    slow,
    refused,
  };
}

/**
 * Single-record writes one after another, each awaited to its task
 * published, while a search is sent every 50 ms: the time per write and the
 * longest a search waited.
 * @param {string} base
 * @param {string[]} queries
 */
async function singleWritesPhase(base, queries) {
  /** @type {number[]} */
  const writes = [];
  /** @type {number[]} */
  const searches = [];
  let writing = true;
  const searcher = (async () => {
    for (let q = 0; writing; q++) {
      const at = performance.now();
      await post(base, `/1/indexes/${INDEX}/query`, { query: queries[q % queries.length], hitsPerPage: 10 });
      searches.push(performance.now() - at);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  for (let w = 0; w < SINGLE_WRITES; w++) {
    const record = work.recordAt((w * 7919) % RECORDS, 2000 + w);
    const at = performance.now();
    const { taskID } = await sendBatch(base, Buffer.from(JSON.stringify({ requests: [{ action: 'addObject', body: record }] })));
    await waitForTask(base, INDEX, taskID);
    writes.push(performance.now() - at);
  }
  writing = false;
  await searcher;
  writes.sort((a, b) => a - b);
  searches.sort((a, b) => a - b);
  return { writeP50: percentile(writes, 0.5), writeP99: percentile(writes, 0.99), searchP99: percentile(searches, 0.99), searchMax: searches[searches.length - 1] };
}

/** Loads the settings, the replicas' settings and the records; returns the queries. */
/** @param {string} base */
async function load(base) {
  console.log(`loading ${RECORDS} ${values.corpus} records${work.replicas.length ? ` (${work.replicas.length} replicas)` : ''} into ${base} ...`);
  await setSettings(base, INDEX, work.settings);
  for (const replica of work.replicas) await setSettings(base, replica.name, replica.settings);
  let last = 0;
  for (let i = 0; i < RECORDS; i += BATCH) {
    const requests = Array.from({ length: Math.min(BATCH, RECORDS - i) }, (_, k) => ({ action: 'addObject', body: work.recordAt(i + k, 0) }));
    last = (await post(base, `/1/indexes/${INDEX}/batch`, { requests })).body.taskID;
  }
  await waitForTask(base, INDEX, last);
  // the main bench's query classes, mixed: exact words, one and two typos, title phrases, keystrokes
  const q = buildQueries(work.queryCorpus);
  return [...q.exact, ...q.typo1, ...q.typo2, ...q.multi, ...q.asYouType];
}

const dir = mkdtempSync(join(tmpdir(), 'lantern-rw-'));
const { base, stop } = await startServer(['--data', dir]);
try {
  const queries = await load(base);
  // phases alternate (alone, loaded, alone, ...): this machine's speed drifts, so each
  // loaded phase is compared with the mean of the alone phases on either side of it
  /** @type {(name: string, r: Awaited<ReturnType<typeof phase>>) => string} */
  const row = (name, r) => `${name.padEnd(28)} ${r.searchesPerSecond.toFixed(0).padStart(7)}/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(7)} ms  max ${r.max.toFixed(0).padStart(6)} ms  ${r.recordsWrittenPerSecond.toFixed(0).padStart(7)} records written/s${r.refused ? ` (${r.refused} batches refused 503, sent again)` : ''}`;
  console.log(`${SEARCHERS} searchers, ${SECONDS} s a phase, ${RECORDS} records to start with`);
  await phase(base, queries, 0); // warm-up: first sight of the queries
  let before = await phase(base, queries, 0);
  console.log(row('searches alone', before));
  for (let round = 0; round < ROUNDS; round++) {
    const loaded = await phase(base, queries, WRITERS);
    const after = await phase(base, queries, 0);
    const alone = (before.searchesPerSecond + after.searchesPerSecond) / 2;
    console.log(row(`with ${WRITERS} writers x ${BATCH}`, loaded));
    console.log(row('searches alone', after));
    console.log(`  throughput kept: ${(100 * loaded.searchesPerSecond / alone).toFixed(0)}% (target >= 50%), p99 under writes ${loaded.p99.toFixed(1)} ms (target <= 100 ms)`);
    console.log(`  p99 under writes, second by second: ${loaded.secondP99.map((ms) => ms.toFixed(0)).join(' ')} ms`);
    before = after;
  }
  for (const connections of MIXED) {
    const r = await mixedPhase(base, queries, connections);
    console.log(`mixed ${100 - WRITE_SHARE * 100}/${WRITE_SHARE * 100} at ${String(connections).padStart(3)} connections: searches ${r.searchesPerSecond.toFixed(0).padStart(5)}/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(7)} ms  slowest call ${r.slowest.toFixed(0)} ms, ${r.over2s} of ${r.calls} calls over 2 s (target 0)${r.refused ? `, ${r.refused} batches refused 503 and sent again` : ''}`);
    if (r.slow.length > 0) console.log(`  over 2 s: ${[...r.slow.filter((c) => c.startsWith('search')).slice(0, 6), ...r.slow.filter((c) => c.startsWith('batch')).slice(0, 6)].join('; ')}; ${r.slow.filter((c) => c.startsWith('search')).length} searches, ${r.slow.filter((c) => c.startsWith('batch')).length} batches`);
  }
  if (SINGLE_WRITES > 0) {
    const r = await singleWritesPhase(base, queries);
    console.log(`${SINGLE_WRITES} single writes one after another: p50 ${r.writeP50.toFixed(1)} ms, p99 ${r.writeP99.toFixed(1)} ms; a search every 50 ms meanwhile: p99 ${r.searchP99.toFixed(1)} ms, longest ${r.searchMax.toFixed(0)} ms`);
  }
} finally {
  await stop();
  rmSync(dir, { recursive: true, force: true });
}
