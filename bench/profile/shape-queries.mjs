// Profiles the queries of one shape of bench/shapes.mjs, and only them: the
// records imported through the batch API, 50 untimed queries, then the CPU
// profiler (node:inspector) runs while each query is asked once (the default
// answer, hitsPerPage 10; with --passes N, every query N times in turn: the
// later passes show what a query costs once the engine's caches hold it).
// Prints the functions sampled most often (self) and
// writes the profile (open it in Chrome's DevTools). Names need an
// unminified bundle: give its directory as --dist.
//
// --set names the records (bench/corpus.mjs recordSets: zipf2, zipf6,
// synthetic, ted, cities) and --shape the queries (queries.mjs QUERY_SHAPES,
// or `typed`: first-sight.mjs's, queries.mjs typedQueries). With --core the
// core alone is asked (`coreSearch`, 10 hits, no JavaScript answer around
// it), as first-sight-core-ab.mjs asks it; with --object-ids the answer holds
// objectIDs only (no record read, nothing highlighted), as first-sight.mjs's
// "objectID only" asks it through the client. With --band (percentiles, e.g.
// 25-75), only the samples taken during the queries whose time falls in
// that band are counted: a profile of every query weighs the slow tail
// (cache entries built, a few queries of tens of ms) as much as the
// hundreds of median ones p50 measures. With --peer (e.g. minisearch), the
// peer is built too and asked each query just before Lantern, as shapes.mjs
// times them in turns: the peer's work leaves the caches cold, and Lantern's
// answers meet them so (the peer's samples fall outside every query's span).
// With --inclusive, each function's figure counts the samples whose stack
// holds it (its callees' included), in the band as the self figures are:
// inclusive.mjs reads a whole profile, where a query's later turns (after an
// await) start stacks of their own and the peer's samples mix in.
//
//   node --max-old-space-size=4096 bench/profile/shape-queries.mjs [--set zipf2] [--shape typed2] [--records 100000] [--queries 1000] [--dist dist] [--out shape.cpuprofile] [--core] [--inclusive]
//   node --max-old-space-size=8192 bench/profile/shape-queries.mjs --set synthetic --shape typed --records 1000000 [--core | --object-ids]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { flatDocument, loadLibraries, peerFor, TOP } from '../peers.mjs';
import { readProfile } from './cpu-profile.mjs';
import { recordSets } from '../corpus.mjs';
import { settleHeap, stats } from '../measure.mjs';
import { QUERY_SHAPES, shapedQueries, typedQueries } from '../queries.mjs';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'zipf2' },
    shape: { type: 'string', default: 'typed2' },
    records: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '1000' },
    dist: { type: 'string', default: 'dist' },
    out: { type: 'string', default: 'shape.cpuprofile' },
    top: { type: 'string', default: '25' },
    passes: { type: 'string', default: '1' },
    core: { type: 'boolean', default: false },
    'object-ids': { type: 'boolean', default: false },
    band: { type: 'string', default: '0-100' },
    peer: { type: 'string', default: '' },
    inclusive: { type: 'boolean', default: false },
  },
});
const WARMUP = 50;
const makeCorpus = recordSets(Number(values.records))[values.set];
const typed = values.shape === 'typed';
const shape = QUERY_SHAPES[/** @type {keyof typeof QUERY_SHAPES} */ (typed ? 'typed2' : values.shape)];
if (!makeCorpus || !shape) throw new Error(`--set: one of ${Object.keys(recordSets(0)).join(', ')}; --shape: typed or one of ${Object.keys(QUERY_SHAPES).join(', ')}`);
const corpus = makeCorpus();
const count = WARMUP + Number(values.queries);
const queries = typed ? typedQueries(corpus, count, 25) : shapedQueries(corpus, count, 25, shape);
const [lantern, peer] = await loadLibraries(values.peer ? ['lantern', values.peer] : ['lantern'], resolve(values.dist));
const peerSettings = peerFor(corpus.peer, corpus.settings);
// the peer first, as shapes.mjs builds them: Lantern's queries come right after its import
const peerInstance = peer ? await peer.build({ ...corpus, peer: peerSettings, documents: corpus.records.map((r) => flatDocument(r, peerSettings)) }) : undefined;
const instance = /** @type {import('../peers.mjs').LanternInstance} */ (await lantern.build({ ...corpus, documents: corpus.records.map((r) => flatDocument(r, corpus.peer)) }));
settleHeap();
/** @type {(query: string) => Promise<unknown>} */
const askPeer = async (query) => peerInstance?.search(query);
/** @type {(query: string) => Promise<unknown>} */
const ask = values.core ? async (query) => instance.coreSearch(query)
  : values['object-ids'] ? async (query) => instance.search(query)
    : (query) => instance.answer({ query, hitsPerPage: TOP });
for (const { query } of queries.slice(0, WARMUP)) { await askPeer(query); await ask(query); }

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
/** @type {number[]} */
const times = [];
/** Per query, when it started and ended on the profiler's clock (µs, the monotonic clock both read). @type {Array<[number, number]>} */
const spans = [];
const microseconds = () => Number(process.hrtime.bigint() / 1000n);
for (let pass = 0; pass < Number(values.passes); pass++) for (const { query } of queries.slice(WARMUP)) {
  await askPeer(query);
  const from = microseconds();
  const started = performance.now();
  await ask(query);
  times.push(performance.now() - started);
  spans.push([from, microseconds()]);
}
const { profile } = await session.post('Profiler.stop');
writeFileSync(values.out, JSON.stringify(profile));
const { p50, p99 } = stats(times);
console.log(`${times.length} queries: p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(2)} ms (profiler on)`);

/** The core's function names in order, from the text format the build writes beside the module (none if absent). */
const wasmNames = (() => {
  const wat = new URL('../../build/lantern.wat', import.meta.url);
  if (!existsSync(wat)) return [];
  const text = readFileSync(wat, 'utf8');
  return [...text.matchAll(/^ \(import "[^"]*" "[^"]*" \(func (\$\S+)/gm), ...text.matchAll(/^ \(func (\$\S+)/gm)].map((m) => m[1]);
})();
/** @type {(name: string) => string | undefined} wasm-function[N] by its name in the core */
const wasmName = (name) => wasmNames[Number(/^wasm-function\[(\d+)\]$/.exec(name)?.[1] ?? NaN)];

// self samples per function: counted, not weighed by their time deltas, as a
// sample taken after the process waited for a core (a shared machine) or for
// the profiler's own start carries that whole wait
/** @type {Map<number, import('node:inspector').Profiler.ProfileNode>} */
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
/** @type {Map<string, number>} */
const self = new Map();
const samples = sampledInBand(profile);
const { stackOf } = readProfile(values.out);
for (const id of samples) {
  const { callFrame } = /** @type {import('node:inspector').Profiler.ProfileNode} */ (nodes.get(id));
  const name = `${wasmName(callFrame.functionName) ?? (callFrame.functionName || '(anonymous)')} ${callFrame.url.split('/').pop()}:${callFrame.lineNumber + 1}`;
  const names = values.inclusive ? new Set(stackOf(id)) : [name];
  for (const counted of names) self.set(counted, (self.get(counted) ?? 0) + 1);
}
console.log(`${samples.length} samples${values.band === '0-100' ? '' : ` in the queries of the ${values.band} band`}; ${values.inclusive ? 'inclusive' : 'self'} samples per function:`);
for (const [name, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`${String(count).padStart(7)} ${((100 * count) / samples.length).toFixed(1).padStart(5)}%  ${name}`);
}
await instance.close();
await peerInstance?.close();

/**
 * The samples (node ids) taken while a query of the --band percentiles of
 * time ran (every sample but the first, with the whole band).
 * @param {import('node:inspector').Profiler.Profile} profile
 */
function sampledInBand(profile) {
  const all = profile.samples ?? [];
  if (values.band === '0-100') return all.slice(1);
  const [low, high] = values.band.split('-').map(Number);
  const order = times.map((_, i) => i).sort((a, b) => times[a] - times[b]);
  const kept = order.slice(Math.floor((order.length * low) / 100), Math.ceil((order.length * high) / 100)).map((i) => spans[i]).sort((a, b) => a[0] - b[0]);
  const deltas = profile.timeDeltas ?? [];
  const out = [];
  let at = profile.startTime;
  let span = 0;
  for (let i = 0; i < all.length; i++) {
    at += deltas[i] ?? 0;
    while (span < kept.length && kept[span][1] < at) span++;
    if (i > 0 && span < kept.length && kept[span][0] <= at) out.push(all[i]);
  }
  return out;
}
