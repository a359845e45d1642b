// Runs one workload's queries through Lantern's core on a synthetic corpus,
// for profilers: `node --cpu-prof bench/profile/core-queries.mjs asYouType 100000`
// or `valgrind --tool=callgrind node bench/profile/core-queries.mjs ...`
// (instruction counts: compare builds by the total, noise-free).
//   args: workload (exact|multi|asYouType|typo1|typo2|index), records (default 100000), passes (default 1), dist
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { synthetic } from '../corpus.mjs';
import { buildQueries } from '../queries.mjs';
import { coreQueryFor } from '../peers.mjs';

const [workload = 'asYouType', records = '100000', passes = '1', dist = 'dist'] = process.argv.slice(2);
/** @type {typeof import('lantern-search')} */
const { Lantern } = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
const corpus = synthetic(Number(records));
const queries = buildQueries(corpus);
const engine = await Lantern.open({});
const client = engine.client();
await client.setSettings({ indexName: corpus.name, indexSettings: corpus.settings });
const t0 = performance.now();
await client.saveObjects({ indexName: corpus.name, objects: corpus.records, waitForTasks: false, batchSize: 1000 });
await engine.waitForTasks();
console.error(`indexed ${records} in ${(performance.now() - t0).toFixed(0)} ms`);
if (workload !== 'index') {
  const index = engine.index(corpus.name);
  index.prepareRanks();
  const list = queries[/** @type {import('../queries.mjs').Workload} */ (workload)];
  if (!Array.isArray(list)) throw new Error(`workload: exact, multi, asYouType, typo1, typo2 or index, not "${workload}"`);
  const q0 = performance.now();
  let hits = 0;
  for (let p = 0; p < Number(passes); p++) for (const q of list) hits += index.coreIndex.search(coreQueryFor(index, q, 10)).nbHits;
  console.error(`${workload}: ${list.length * Number(passes)} queries in ${(performance.now() - q0).toFixed(1)} ms (${hits} hits)`);
}
await engine.close();
