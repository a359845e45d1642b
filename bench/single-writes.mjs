// Single-record writes one after another on a large index with the TED
// talks' real settings (12 sort replicas, customRanking, searchable facets,
// distinct on speakers), each talk under several objectIDs: the time from
// each write to its task applied, with a search after every write (as
// searches arriving while writes apply make each write fold its changes
// into the rank orders of the index and its replicas) and without. Lantern
// in-process, in memory, no snapshots. A write whose cost grows with the
// index shows here as per-write milliseconds far above those of a small one.
//
//   node bench/single-writes.mjs [--records 70000] [--writes 200] [--dist dist] [--profile]
//   (--profile: the functions taking most CPU time during the writes, by self time;
//   `LANTERN_MINIFY=0 npm run build` keeps their names)
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { talks, tedRecordAt, tedSettings } from './support/ted-replicas.mjs';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '70000' },
    writes: { type: 'string', default: '200' },
    dist: { type: 'string', default: 'dist' },
    profile: { type: 'boolean', default: false },
  },
});
const RECORDS = Number(values.records);
const WRITES = Number(values.writes);
const { Lantern } = await import(pathToFileURL(join(resolve(values.dist), 'index.js')).href);

const { settings, replicas } = tedSettings();

/** @type {(engine: any, method: string, path: string, body?: unknown) => Promise<any>} */
async function call(engine, method, path, body) {
  const answer = await engine.request({ method, path, body });
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The index, its replicas' settings and the records. */
/** @param {any} engine */
async function load(engine) {
  await call(engine, 'PUT', '/1/indexes/talks/settings', settings);
  for (const replica of replicas) await call(engine, 'PUT', `/1/indexes/${replica.name}/settings`, replica.settings);
  for (let at = 0; at < RECORDS; at += 1000) {
    const requests = Array.from({ length: Math.min(1000, RECORDS - at) }, (_, i) => ({ action: 'addObject', body: tedRecordAt(at + i) }));
    await call(engine, 'POST', '/1/indexes/talks/batch', { requests });
  }
  await engine.waitForTasks();
  await call(engine, 'POST', '/1/indexes/talks/query', { query: 'life' }); // the orders built once
}

/** @type {(values: number[], p: number) => number} */
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/**
 * `WRITES` single-record writes (alternately a replacing saveObject and a
 * partialUpdateObject), each awaited to its task applied; with `search`, a
 * search follows each write. Returns per-write and per-search milliseconds.
 * @param {any} engine @param {boolean} search @param {number} first
 */
async function writes(engine, search, first) {
  const writeMs = [];
  const searchMs = [];
  for (let w = 0; w < WRITES; w++) {
    const i = (first + w) * 7919 % RECORDS;
    const record = tedRecordAt(i);
    const started = performance.now();
    await (w % 2 === 0
      ? call(engine, 'PUT', `/1/indexes/talks/${encodeURIComponent(record.objectID)}`, { ...record, viewed_count: record.viewed_count + w })
      : call(engine, 'POST', `/1/indexes/talks/${encodeURIComponent(record.objectID)}/partial`, { viewed_count: w }));
    await engine.waitForTasks();
    writeMs.push(performance.now() - started);
    if (search) {
      const at = performance.now();
      await call(engine, 'POST', '/1/indexes/talks/query', { query: ['life', 'design', 'music', 'water'][w % 4] });
      searchMs.push(performance.now() - at);
    }
  }
  return { writeMs, searchMs };
}

/**
 * The `count` functions with the most self time in a CPU profile, as lines "ms  function file:line".
 * @param {{ nodes: Array<{ id: number, callFrame: { functionName: string, url: string, lineNumber: number } }>, samples?: number[], timeDeltas?: number[] }} profile
 * @param {number} count
 */
function topSelf(profile, count) {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  /** @type {Map<string, number>} */
  const self = new Map();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const frame = frames.get(id);
    if (!frame) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-1)[0]}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${key}`);
}

const session = new Session();
if (values.profile) {
  session.connect();
  await session.post('Profiler.enable');
}

const engine = await Lantern.open({ snapshotEvery: 0 });
let started = performance.now();
await load(engine);
console.log(`${RECORDS.toLocaleString('en')} TED records (${talks.length} talks, each under several objectIDs), ${replicas.length} replicas: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
/** @type {(label: string, ms: number[]) => string} */
const line = (label, ms) => `${label}: p50 ${percentile(ms, 0.5).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms, mean ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(1)} ms`;
for (const search of [false, true]) {
  if (values.profile) await session.post('Profiler.start');
  started = performance.now();
  const { writeMs, searchMs } = await writes(engine, search, search ? WRITES : 0);
  console.log(`${WRITES} single writes ${search ? 'each followed by a search' : 'alone'} (${((performance.now() - started) / 1000).toFixed(1)} s): ${line('write', writeMs)}${search ? `; ${line('search', searchMs)}` : ''}`);
  if (values.profile) {
    const { profile } = await session.post('Profiler.stop');
    console.log(`  most self time:\n${topSelf(profile, 12).map((l) => `  ${l}`).join('\n')}`);
  }
}
await engine.close();
