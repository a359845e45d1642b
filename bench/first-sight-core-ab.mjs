// Queries at first sight in the core alone, two builds A/B in one process:
// both builds index the records of a shape of bench/shapes.mjs, then each
// query, new to both, goes to each build's core (`coreSearch`, 10 hits: no
// JavaScript answer around it) in turns (A first on even queries, B first
// on odd ones). Prints each build's p50 and p99, the ratios B/A of the
// p50s and of the p99s, the median and geometric mean of the per-query
// ratios and the ratio of the summed times, and a hash of each build's
// results (the same when both answered every query alike). For changes
// inside assembly/, whose share of an answer through the API is too small
// for first-sight-ab.mjs to show apart from the machine's drift.
// `--query-shape asYouType` asks instead every keystroke of title phrases
// in order (queries.mjs buildQueries: 60 phrases), where a keystroke meets
// the prefixes and words the ones before it met: what the core's caches
// are for. The build made first answered 3-6% faster at p99 in both
// orders of one pair (2026-12-02): compare both orders.
//
// With --idle, each build's core first does what the engine's idle time
// after an import would, where the build has it: its terms listed for the
// lookup of a typo'd word's other first letters (CoreIndex.listNewTerms;
// a search with more than a few terms unlisted walks those letters).
//
//   node --max-old-space-size=4096 bench/first-sight-core-ab.mjs --a DIST_A --b DIST_B [--set zipf2] [--query-shape typed2|prefix|typoAny|asYouType] [--records 100000] [--queries 2000] [--idle]
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordSets } from './corpus.mjs';
import { settleHeap } from './measure.mjs';
import { flatDocument, loadLibraries } from './peers.mjs';
import { QUERY_SHAPES, buildQueries, shapedQueries } from './queries.mjs';

const { values } = parseArgs({
  options: {
    a: { type: 'string' }, b: { type: 'string' },
    set: { type: 'string', default: 'zipf2' }, 'query-shape': { type: 'string', default: 'typed2' },
    records: { type: 'string', default: '100000' }, queries: { type: 'string', default: '2000' }, seed: { type: 'string', default: '25' },
    idle: { type: 'boolean', default: false },
  },
});
if (!values.a || !values.b) throw new Error('usage: node bench/first-sight-core-ab.mjs --a DIST_A --b DIST_B');
const WARMUP = 50;
const makeRecords = recordSets(Number(values.records))[values.set];
const asYouType = values['query-shape'] === 'asYouType';
const queryShape = QUERY_SHAPES[/** @type {keyof typeof QUERY_SHAPES} */ (values['query-shape'])];
if (!makeRecords || !(queryShape || asYouType)) throw new Error(`--set: one of ${Object.keys(recordSets(0)).join(', ')}; --query-shape: asYouType or one of ${Object.keys(QUERY_SHAPES).join(', ')}`);
const corpusFor = () => {
  const records = makeRecords();
  return { ...records, documents: records.records.map((r) => flatDocument(r, records.peer)) };
};
/** @type {(corpus: ReturnType<typeof corpusFor>) => { query: string }[]} */
const keystrokes = (corpus) => [
  ...shapedQueries(corpus, WARMUP, Number(values.seed), QUERY_SHAPES.typed2),
  ...buildQueries(corpus, { exact: 0, multi: 0, asYouType: 60, typo1: 0, typo2: 0 }, Number(values.seed)).asYouType.map((query) => ({ query })),
];
const all = asYouType ? keystrokes(corpusFor()) : shapedQueries(corpusFor(), WARMUP + Number(values.queries), Number(values.seed), queryShape);

/** @type {import('./peers.mjs').LanternInstance[]} */
const builds = [];
for (const dist of [values.a, values.b]) {
  const [lantern] = await loadLibraries(['lantern'], resolve(dist));
  const build = /** @type {import('./peers.mjs').LanternInstance} */ (await lantern.build(corpusFor()));
  /** @type {{ listNewTerms?: () => boolean }} a build before the lookup has none */
  const core = build.index.coreIndex;
  if (values.idle && core.listNewTerms) while (!core.listNewTerms());
  builds.push(build);
  settleHeap();
}
for (const { query } of all.slice(0, WARMUP)) for (const build of builds) build.coreSearch(query);

const times = builds.map(() => /** @type {number[]} */ ([]));
const hashes = builds.map(() => createHash('sha256'));
for (const [i, { query }] of all.slice(WARMUP).entries()) {
  for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
    const started = performance.now();
    const result = builds[k].coreSearch(query);
    times[k].push(performance.now() - started);
    hashes[k].update(JSON.stringify(result));
  }
}
/** @type {(list: number[]) => number} */
const median = (list) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];
/** @type {(list: number[]) => number} */
const sum = (list) => list.reduce((total, x) => total + x, 0);
const ratios = times[0].map((a, i) => times[1][i] / a);
const geometricMean = Math.exp(sum(ratios.map(Math.log)) / ratios.length);
const [hashA, hashB] = hashes.map((h) => h.digest('hex').slice(0, 16));
console.log(`${values.set} records, ${values['query-shape']} queries, ${times[0].length} first-sight queries, core alone, in turns`);
/** @type {(list: number[]) => number} */
const p99 = (list) => [...list].sort((x, y) => x - y)[Math.floor(list.length * 0.99)];
console.log(`A ${values.a}: p50 ${median(times[0]).toFixed(4)} ms, p99 ${p99(times[0]).toFixed(3)} ms; B ${values.b}: p50 ${median(times[1]).toFixed(4)} ms, p99 ${p99(times[1]).toFixed(3)} ms`);
console.log(`B/A: p50 ${(median(times[1]) / median(times[0])).toFixed(3)}, p99 ${(p99(times[1]) / p99(times[0])).toFixed(3)}, per-query median ${median(ratios).toFixed(3)}, geometric mean ${geometricMean.toFixed(3)}, summed ${(sum(times[1]) / sum(times[0])).toFixed(3)}`);
console.log(`results: A ${hashA}, B ${hashB} (${hashA === hashB ? 'the same' : 'DIFFERENT'})`);
for (const build of builds) await build.close();
