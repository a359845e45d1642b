// What a query costs when the processor's caches do not hold the engine:
// shapes.mjs asks each query of Lantern and MiniSearch in turns, and a
// query asked right after MiniSearch's (milliseconds of work, megabytes
// allocated) finds Lantern's code, objects and index cold. This bench asks
// each first-sight query of Lantern (the API's default answer, the
// objectID-only answer through the client, or the core alone) in one of
// four conditions, the condition moving by one at each query so that each
// meets the machine's moments alike:
//
//   alone        right after the previous query (caches warm);
//   in turns     right after MiniSearch answered the same query;
//   swept        right after a 32 MB buffer was read and written, a cache
//                line each (nothing allocated: no collection is due);
//   swept, then another query
//                swept, then a query of the same shape of other words
//                asked untimed: the code and what every query reads (the
//                settings, the index's objects) are warm again, the
//                query's own words, postings and records are not.
//
// "in turns" against "swept" tells whether MiniSearch's work costs Lantern
// more than its cache lines (its garbage); "swept, then another query"
// splits the cost between what every query touches and each query's own.
//
//   node --max-old-space-size=4096 bench/cold-caches.mjs [--set zipf2] [--shape typed2] [--records 100000] [--queries 1000] [--dist dist]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { settleHeap, stats } from './measure.mjs';
import { flatDocument, loadLibraries, peerFor, TOP } from './peers.mjs';
import { shapeNamed } from './profile/shaped-index.mjs';
import { shapedQueries } from './queries.mjs';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'zipf2' },
    shape: { type: 'string', default: 'typed2' },
    records: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '1000' },
    dist: { type: 'string', default: new URL('../dist', import.meta.url).pathname },
  },
});
const WARMUP = 50;
const { corpus, queryShape } = shapeNamed(values);
const count = Number(values.queries);
// timed queries: each asked once, in one of the conditions; other words for the untimed ones (none of them
// a timed query, which would then be seen before it is timed)
const queries = shapedQueries(corpus, WARMUP + 3 * count, 25, queryShape);
const timed = new Set(queries.map(({ query }) => query));
const others = shapedQueries(corpus, 3 * count, 7, queryShape).filter(({ query }) => !timed.has(query));

const [lantern, minisearch] = await loadLibraries(['lantern', 'minisearch'], resolve(values.dist));
const peerSettings = peerFor(corpus.peer, corpus.settings);
const peer = await minisearch.build({ ...corpus, peer: peerSettings, documents: corpus.records.map((r) => flatDocument(r, peerSettings)) });
const engine = /** @type {import('./peers.mjs').LanternInstance} */ (await lantern.build({ ...corpus, documents: corpus.records.map((r) => flatDocument(r, corpus.peer)) }));
settleHeap();

/** @type {Record<string, (query: string) => Promise<unknown>>} */
const ASKS = {
  'default answer': (query) => engine.answer({ query, hitsPerPage: TOP }),
  'objectID only': async (query) => engine.search(query),
  'core alone': async (query) => engine.coreSearch(query),
};

const sweep = new Float64Array(4 << 20); // 32 MB: past the 2 MB of a core's L2 here, and its TLB's reach
let swept = 0;
// the sum in a local: added to the module's `swept` (a context slot) at each line, each sum was a new heap
// number, 512k of them a sweep: the sweep's collections then fell into the timed queries
const sweepCaches = () => {
  let sum = 0;
  for (let i = 0; i < sweep.length; i += 8) sum += sweep[i]++;
  swept += sum;
};
let other = 0;

/** @type {Array<[string, (ask: (query: string) => Promise<unknown>, query: string) => Promise<unknown>]>} */
const CONDITIONS = [
  ['alone', async () => {}],
  ['in turns with MiniSearch', async (_, query) => peer.search(query)],
  ['swept', async () => sweepCaches()],
  ['swept, then another query', async (ask) => { sweepCaches(); await ask(others[other++ % others.length].query); }],
];

const timedQueries = queries.slice(WARMUP);
console.log(`${values.set} ${values.shape}, ${corpus.records.length} records: Lantern's first-sight p50 / p99 (ms) per condition, ${count} queries per way of asking`);
for (const [name, ask] of Object.entries(ASKS)) {
  for (const { query } of queries.slice(0, WARMUP)) { await peer.search(query); await ask(query); }
  /** @type {number[][]} */
  const times = CONDITIONS.map(() => []);
  const slice = timedQueries.splice(0, count);
  for (const [i, { query }] of slice.entries()) {
    const c = i % CONDITIONS.length;
    await CONDITIONS[c][1](ask, query);
    const started = performance.now();
    await ask(query);
    times[c].push(performance.now() - started);
  }
  const alone = stats(times[0]).p50;
  console.log(`\n${name}:`);
  for (const [c, [condition]] of CONDITIONS.entries()) {
    const { p50, p99 } = stats(times[c]);
    console.log(`  ${condition.padEnd(26)} ${p50.toFixed(3)} / ${p99.toFixed(2)}   ${c === 0 ? '' : `${(p50 / alone).toFixed(2)}x alone's p50`}`);
  }
}
if (swept < 0) console.log(swept); // keeps the sweep's reads
await engine.close();
await peer.close();
