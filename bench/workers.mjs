// Read workers: searches per second and their latency on `lantern serve
// --workers N` (a child process, in memory) for N = 1, 2 and auto (one per
// core), the same synthetic records and queries over HTTP each time. With
// --writers, writers stream 1,000-record batches meanwhile (replacing
// records already there). Each configuration is measured `--rounds` times,
// in turn, after a warm-up phase: the machine's speed drifts.
//
//   node bench/workers.mjs [--records 50000] [--seconds 10] [--searchers 16] [--workers 1,2,auto] [--rounds 2] [--writers 0]
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { synthetic } from './corpus.mjs';
import { buildQueries } from './queries.mjs';
import { percentile, post, searchLoad, setSettings, startServer, waitForTask } from './support/serve-http.mjs';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '50000' },
    seconds: { type: 'string', default: '10' },
    searchers: { type: 'string', default: '16' },
    workers: { type: 'string', default: '1,2,auto' },
    rounds: { type: 'string', default: '2' },
    writers: { type: 'string', default: '0' },
  },
});
const RECORDS = Number(values.records);
const SECONDS = Number(values.seconds);
const SEARCHERS = Number(values.searchers);
const ROUNDS = Number(values.rounds);
const WRITERS = Number(values.writers);
const BATCH = 1000;
const CONFIGS = values.workers.split(',');

const corpus = synthetic(RECORDS);
const q = buildQueries(corpus);
// the main bench's query classes, mixed: exact words, one and two typos, title phrases, keystrokes
const queries = [...q.exact, ...q.typo1, ...q.typo2, ...q.multi, ...q.asYouType];

/**
 * Replaces records already there, a batch at a time, until `until`.
 * @param {string} base
 * @param {number} until
 * @param {number} writer
 */
async function writeLoad(base, until, writer) {
  for (let b = writer; performance.now() < until; b += WRITERS) {
    const requests = Array.from({ length: BATCH }, (_, i) => {
      const record = corpus.records[(b * BATCH + i * 7919) % corpus.records.length];
      return { action: 'addObject', body: { ...record, objectID: String((b * BATCH + i) % RECORDS) } };
    });
    const r = await post(base, '/1/indexes/bench/batch', { requests });
    if (r.status !== 200) throw new Error(`batch answered ${r.status}`);
  }
}

/**
 * Seconds of CPU a process has used (Linux: /proc; 0 elsewhere).
 * @param {number | undefined} pid
 */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return 0;
  }
}

/**
 * Searchers (and writers) for SECONDS; with the cores the server and this process kept busy.
 * @param {string} base
 * @param {number | undefined} pid the server's
 */
async function phase(base, pid) {
  /** @type {number[]} */
  const latencies = [];
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const serverCpu = cpuSeconds(pid);
  const ownCpu = process.cpuUsage();
  await Promise.all([
    ...Array.from({ length: SEARCHERS }, () => searchLoad(base, 'bench', queries, until, latencies)),
    ...Array.from({ length: WRITERS }, (_, w) => writeLoad(base, until, w)),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownCpu);
  latencies.sort((a, b) => a - b);
  return {
    searchesPerSecond: latencies.length / elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99),
    serverCores: (cpuSeconds(pid) - serverCpu) / elapsed, benchCores: (own.user + own.system) / 1e6 / elapsed,
  };
}

/**
 * A server with `workers`, loaded with the records; `measure` runs against it.
 * @param {string} workers
 * @param {(base: string, pid: number | undefined) => Promise<void>} measure
 */
async function withServer(workers, measure) {
  const { child, base, stop } = await startServer(['--memory', '--workers', workers]);
  try {
    await setSettings(base, 'bench', corpus.settings ?? {});
    let last = 0;
    for (let i = 0; i < RECORDS; i += BATCH) {
      const requests = corpus.records.slice(i, i + BATCH).map((body) => ({ action: 'addObject', body }));
      last = (await post(base, '/1/indexes/bench/batch', { requests })).body.taskID;
    }
    await waitForTask(base, 'bench', last);
    await phase(base, child.pid); // warm-up: first sight of the queries, on every worker
    await measure(base, child.pid);
  } finally {
    await stop();
  }
}

console.log(`${RECORDS} records, ${SEARCHERS} searchers${WRITERS ? `, ${WRITERS} writers x ${BATCH}` : ''}, ${SECONDS} s a phase, ${availableParallelism()} cores`);
for (let round = 0; round < ROUNDS; round++) {
  for (const workers of CONFIGS) {
    await withServer(workers, async (base, pid) => {
      const r = await phase(base, pid);
      console.log(`--workers ${workers.padEnd(5)} ${r.searchesPerSecond.toFixed(0).padStart(6)} searches/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms`
        + `  cores busy: server ${r.serverCores.toFixed(2)}, bench ${r.benchCores.toFixed(2)}  (load average ${loadavg()[0].toFixed(1)})`);
    });
  }
}
