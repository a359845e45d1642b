// What an answer costs depending on what ran just before it: the plain
// shape's first-sight answers (zipf2 records, typed2 queries, the default
// answer, 10 hits), each after one of these, in turns:
//
//   nothing: the answer before it (warm caches);
//   minisearch: MiniSearch asked the same query (as shapes.mjs times them);
//   sweep: 32 MB written (data and code evicted from the CPU's caches,
//     V8's state untouched);
//   sweepThenTiny: the sweep, then a query of a 300-record index (the
//     code and V8's caches warmed again, the big index's data still cold);
//   sweepThenTinyCore, sweepThenTinyIds, sweepThenSettings: the sweep,
//     then only part of that warmed again: the core alone asked of the
//     small index (its code), an objectID-only answer of it (the call's
//     pipeline, the query's JavaScript and the core, no hit drawn up), a
//     GET of its settings (the pipeline every call runs: router, keys,
//     pacing, monitoring, the call log, the border's copy);
//   megamorphic: property reads over 512 objects of varied shapes (V8's
//     shared lookup cache churned, little memory touched).
//
// Prints each one's p50 and p99 (ms). The gap between "nothing" and
// "minisearch" is what timing in turns with a peer adds to an answer.
//
//   node --max-old-space-size=4096 bench/profile/cold-answers.mjs [--records 100000] [--queries 300] [--dist dist]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordSets } from '../corpus.mjs';
import { settleHeap, stats } from '../measure.mjs';
import { flatDocument, loadLibraries, peerFor, TOP } from '../peers.mjs';
import { QUERY_SHAPES, shapedQueries } from '../queries.mjs';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    dist: { type: 'string', default: 'dist' },
  },
});
const WARMUP = 50;
const corpus = recordSets(Number(values.records)).zipf2();
const [lantern, minisearch] = await loadLibraries(['lantern', 'minisearch'], resolve(values.dist));
const peerSettings = peerFor(corpus.peer, corpus.settings);
const peer = await minisearch.build({ ...corpus, peer: peerSettings, documents: corpus.records.map((r) => flatDocument(r, peerSettings)) });
const instance = /** @type {import('../peers.mjs').LanternInstance} */ (await lantern.build({ ...corpus, documents: corpus.records.map((r) => flatDocument(r, corpus.peer)) }));
const small = recordSets(300).zipf2();
const tiny = /** @type {import('../peers.mjs').LanternInstance} */ (await lantern.build({ ...small, documents: small.records.map((r) => flatDocument(r, small.peer)) }));
const tinyQueries = shapedQueries(small, 1000, 7, QUERY_SHAPES.typed2);
settleHeap();

const sweep = new Float64Array(4 << 20);
const sweepCaches = () => { for (let i = 0; i < sweep.length; i += 8) sweep[i] += 1; };
const names = Array.from({ length: 512 }, (_, i) => `p${i}`);
/** @type {Array<Record<string, number>>} */
const shapes = Array.from({ length: 512 }, (_, i) => Object.fromEntries(Array.from({ length: 8 }, (_, j) => [names[(i * 7 + j * 13) % 512], j])));
let sink = 0;
let tinyAt = 0;
/** The small index's next query, in turn. */
const nextTiny = () => tinyQueries[tinyAt++ % tinyQueries.length].query;
/** @type {Record<string, (query: string) => Promise<unknown>>} */
const before = {
  nothing: async () => undefined,
  minisearch: async (query) => peer.search(query),
  sweep: async () => sweepCaches(),
  sweepThenTiny: async () => { sweepCaches(); await tiny.answer({ query: nextTiny(), hitsPerPage: TOP }); },
  sweepThenTinyCore: async () => { sweepCaches(); tiny.coreSearch(nextTiny()); },
  sweepThenTinyIds: async () => { sweepCaches(); await tiny.search(nextTiny()); },
  sweepThenSettings: async () => { sweepCaches(); await tiny.engine.request({ method: 'GET', path: `/1/indexes/${small.name}/settings` }); },
  megamorphic: async () => { for (let r = 0; r < 20; r++) for (const o of shapes) for (const k in o) sink += o[k]; },
};
const kinds = Object.keys(before);
const queries = shapedQueries(corpus, WARMUP + kinds.length * Number(values.queries), 25, QUERY_SHAPES.typed2);
for (const { query } of queries.slice(0, WARMUP)) await instance.answer({ query, hitsPerPage: TOP });
/** @type {Record<string, number[]>} */
const times = Object.fromEntries(kinds.map((k) => [k, []]));
for (const [i, { query }] of queries.slice(WARMUP).entries()) {
  const kind = kinds[i % kinds.length];
  await before[kind](query);
  const started = performance.now();
  await instance.answer({ query, hitsPerPage: TOP });
  times[kind].push(performance.now() - started);
}
console.log(`${corpus.records.length} zipf2 records, typed2 queries, ${values.queries} answers after each (in turns)`);
for (const kind of kinds) {
  const { p50, p99 } = stats(times[kind]);
  console.log(`${kind.padEnd(14)} p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(2)} ms`);
}
if (sink < 0) console.log(sink);
await Promise.all([instance.close(), tiny.close(), peer.close?.()]);
