// Writes through the durability path, two builds A/B in one process: the
// time from the first write to the last task applied, for batches of 1,000
// records and for single-record writes, in memory, on files and on files
// encrypted; the builds' turns alternate, and each figure is the median of
// the rounds (this machine's speed drifts by tens of percent hour to hour:
// only ratios taken in one process are comparable). Each figure is the
// process's CPU time (user and system) over the run, which other work on
// the machine moves less than the wall-clock time printed beside it.
//
//   node bench/write-path.mjs --a DIST_A --b DIST_B [--rounds 5] [--records 20000]
//   (a DIST is a build's dist/ directory: `npm run build` in a checkout of each)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { settleHeap } from './measure.mjs';

const { values } = parseArgs({
  options: {
    a: { type: 'string' }, b: { type: 'string' },
    rounds: { type: 'string', default: '5' }, records: { type: 'string', default: '20000' },
  },
});
if (!values.a || !values.b) throw new Error('usage: node bench/write-path.mjs --a DIST_A --b DIST_B');
const ROUNDS = Number(values.rounds);
const RECORDS = Number(values.records);
const SINGLES = 500;

/**
 * @typedef {{ open(options: object): Promise<{ request(r: object): Promise<{ status: number, body: unknown }>, waitForTasks(): Promise<void>, close(): Promise<void> }> }} LanternClass
 * @typedef {{ name: string, Lantern: LanternClass, fsStorage: (dir: string) => object }} Build
 */

/** @type {(dir: string, name: string) => Promise<Build>} */
async function load(dir, name) {
  const { Lantern } = await import(pathToFileURL(join(resolve(dir), 'index.js')).href);
  const { fsStorage } = await import(pathToFileURL(join(resolve(dir), 'node.js')).href);
  return { name, Lantern, fsStorage };
}

const builds = [await load(values.a, 'A'), await load(values.b, 'B')];

/** @type {(i: number) => Record<string, unknown>} */
const record = (i) => ({ objectID: `r${i}`, title: `record ${i} about ${['search', 'engines', 'lanterns', 'writes'][i % 4]}`, n: i });

/** @typedef {{ name: string, storage: (build: Build) => { storage?: object, encryptionKey?: string, done(): void } }} Place */
/** @type {Place[]} */
const PLACES = [
  { name: 'memory', storage: () => ({ done() {} }) },
  ...['files', 'files, encrypted'].map((name) => ({
    name,
    /** @param {Build} build */
    storage(build) {
      const dir = mkdtempSync(join(tmpdir(), 'lantern-write-path-'));
      return { storage: build.fsStorage(dir), ...(name.includes('encrypted') ? { encryptionKey: 'a passphrase' } : {}), done: () => rmSync(dir, { recursive: true, force: true }) };
    },
  })),
];

/** CPU milliseconds (user and system) since `from` (a process.cpuUsage()). @type {(from: NodeJS.CpuUsage) => number} */
const cpuSince = (from) => { const { user, system } = process.cpuUsage(from); return (user + system) / 1000; };

/**
 * Batches of 1,000 records, then single-record writes; CPU and wall-clock milliseconds for each, from the first write to the last task applied.
 * @type {(build: Build, place: Place) => Promise<{ batches: number, singles: number, batchesWall: number, singlesWall: number }>}
 */
async function run(build, place) {
  // the run before's garbage is collected now, not during this one
  settleHeap();
  const { done, ...options } = place.storage(build);
  const engine = await build.Lantern.open({ ...options, snapshotEvery: 0 });
  let cpu = process.cpuUsage();
  let started = performance.now();
  for (let at = 0; at < RECORDS; at += 1000) {
    const requests = Array.from({ length: 1000 }, (_, i) => ({ action: 'addObject', body: record(at + i) }));
    const answer = await engine.request({ method: 'POST', path: '/1/indexes/w/batch', body: { requests } });
    if (answer.status !== 200) throw new Error(`batch answered ${answer.status}`);
  }
  await engine.waitForTasks();
  const batches = cpuSince(cpu);
  const batchesWall = performance.now() - started;
  cpu = process.cpuUsage();
  started = performance.now();
  for (let i = 0; i < SINGLES; i++) await engine.request({ method: 'PUT', path: `/1/indexes/w/s${i}`, body: record(RECORDS + i) });
  await engine.waitForTasks();
  const singles = cpuSince(cpu);
  const singlesWall = performance.now() - started;
  await engine.close();
  done();
  return { batches, singles, batchesWall, singlesWall };
}

/** @type {(values: number[]) => number} */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(`A: ${values.a}\nB: ${values.b}\n${RECORDS.toLocaleString('en')} records in batches of 1,000, then ${SINGLES} single-record writes; median of ${ROUNDS} rounds, turns alternated`);
for (const place of PLACES) {
  /** @type {Record<string, { batches: number[], singles: number[], batchesWall: number[], singlesWall: number[] }>} */
  const times = Object.fromEntries(['A', 'B'].map((name) => [name, { batches: [], singles: [], batchesWall: [], singlesWall: [] }]));
  await run(builds[0], place); // warm-up of both builds' code
  await run(builds[1], place);
  for (let r = 0; r < ROUNDS; r++) {
    for (const build of r % 2 === 0 ? builds : [...builds].reverse()) {
      const measured = await run(build, place);
      for (const key of /** @type {const} */ (['batches', 'singles', 'batchesWall', 'singlesWall'])) times[build.name][key].push(measured[key]);
    }
  }
  const [a, b] = [times.A, times.B].map((t) => Object.fromEntries(Object.entries(t).map(([key, values]) => [key, median(values)])));
  /** @type {(kind: string) => string} */
  const pair = (kind) => `A ${a[kind].toFixed(0)} ms, B ${b[kind].toFixed(0)} ms (B/A ${(b[kind] / a[kind]).toFixed(3)}; wall ${(b[`${kind}Wall`] / a[`${kind}Wall`]).toFixed(3)})`;
  console.log(`${place.name.padEnd(18)} batches, CPU ${pair('batches')}; single writes, CPU ${pair('singles')}`);
}
