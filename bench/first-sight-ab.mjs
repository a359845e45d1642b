// Queries at first sight, two builds A/B in one process (see first-sight.mjs
// for the queries): both builds index the same synthetic records, then each
// query, new to both, is asked of A and of B in turns (A first on even
// queries, B first on odd ones, mirrored every four), as the default answer (20 hits,
// highlighted) and as objectID only on alternate queries. Prints each
// build's figures, the ratio B/A (of the p50s and p99s, and query by query:
// see pairedRatios), and whether both ranked every query alike.
//
// With --set and --query-shape, a shape of bench/shapes.mjs instead: the
// records of corpus.mjs recordSets (zipf2, zipf6, synthetic, ted, cities),
// the queries of queries.mjs QUERY_SHAPES (typed2, prefix, typoAny), 10
// hits a page. --shape plain is the plain shape: --set zipf2
// --query-shape typed2.
//
// With --peer (e.g. minisearch), the peer is built on the same records and
// asked each query (untimed) just before each build is: shapes.mjs times
// Lantern in turns with it, and what the peer's search touches leaves the
// caches cold for the next answer (on the plain shape, ~1.3-1.9x an answer
// timed alone); this times the builds in that state.
//
// With --turns, each query is asked on a turn of the event loop of its own
// (an untimed setImmediate before it), as an app's searches come, each
// from an event: what an engine leaves for a later turn runs between them.
//
// Both builds' records are packed before the first query (an index packs
// the records it holds as objects once writes pause, see
// src/index/record-store.ts): otherwise the build made first had its
// records packed while the second was importing, and read them slower (an
// A/A run, one build's files copied, had the second's default answer
// 7-10% faster on the TED talks, whichever was named B).
//
//   node --max-old-space-size=4096 bench/first-sight-ab.mjs --a DIST_A --b DIST_B [--records 100000] [--queries 1000] [--shape synthetic|plain] [--set NAME --query-shape NAME] [--peer minisearch] [--turns]
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordSets, synthetic } from './corpus.mjs';
import { settleHeap, stats } from './measure.mjs';
import { flatDocument, loadLibraries, TOP } from './peers.mjs';
import { QUERY_SHAPES, shapedQueries, typedQueries } from './queries.mjs';

const { values } = parseArgs({
  options: {
    a: { type: 'string' }, b: { type: 'string' },
    records: { type: 'string', default: '100000' }, queries: { type: 'string', default: '1000' }, seed: { type: 'string', default: '25' },
    shape: { type: 'string', default: 'synthetic' },
    set: { type: 'string' }, 'query-shape': { type: 'string' },
    peer: { type: 'string', default: '' },
    turns: { type: 'boolean', default: false },
  },
});
if (!values.a || !values.b) throw new Error('usage: node bench/first-sight-ab.mjs --a DIST_A --b DIST_B');
const RECORDS = Number(values.records);
const QUERIES = Number(values.queries);
const WARMUP = 50;

if (values.shape !== 'synthetic' && values.shape !== 'plain') throw new Error(`--shape: synthetic or plain, not "${values.shape}"`);
const PLAIN = values.shape === 'plain';
const SET = values.set ?? (PLAIN ? 'zipf2' : undefined);
const QUERY_SHAPE = values['query-shape'] ?? (PLAIN ? 'typed2' : undefined);
/** Records and queries of a shape of shapes.mjs, or the synthetic ones of first-sight.mjs (undefined). */
const shaped = SET === undefined && QUERY_SHAPE === undefined ? undefined : {
  makeRecords: recordSets(RECORDS)[SET ?? 'synthetic'],
  queryShape: QUERY_SHAPES[/** @type {keyof typeof QUERY_SHAPES} */ (QUERY_SHAPE ?? 'typed2')],
};
if (shaped && (!shaped.makeRecords || !shaped.queryShape)) throw new Error(`--set: one of ${Object.keys(recordSets(0)).join(', ')}; --query-shape: one of ${Object.keys(QUERY_SHAPES).join(', ')}`);
const corpusFor = () => {
  const records = shaped ? shaped.makeRecords() : synthetic(RECORDS);
  return { ...records, documents: records.records.map((r) => flatDocument(r, records.peer)) };
};
const { all } = (() => {
  const corpus = corpusFor();
  return { all: shaped ? shapedQueries(corpus, WARMUP + QUERIES, Number(values.seed), shaped.queryShape) : typedQueries(corpus, WARMUP + QUERIES, Number(values.seed)) };
})();
const [warmup, queries] = [all.slice(0, WARMUP), all.slice(WARMUP)];

/** @typedef {import('./peers.mjs').LanternInstance} LanternInstance */
const peerInstance = await (async () => {
  if (!values.peer) return undefined;
  const [peer] = await loadLibraries([values.peer], resolve(/** @type {string} */ (values.a)));
  if (!peer) throw new Error(`--peer: one of the libraries peers.mjs knows, not "${values.peer}"`);
  const instance = await peer.build(corpusFor());
  settleHeap();
  return instance;
})();
/** @type {Array<{ name: string, instance: LanternInstance }>} */
const builds = [];
for (const [name, dist] of [['A', values.a], ['B', values.b]]) {
  const [lantern] = await loadLibraries(['lantern'], resolve(dist));
  builds.push({ name, instance: /** @type {LanternInstance} */ (await lantern.build(corpusFor())) });
  settleHeap();
}

/** @type {(instance: LanternInstance, query: string) => Promise<string[]>} the default answer's ids */
const defaultAnswer = async (instance, query) => {
  const response = await instance.answer(shaped ? { query, hitsPerPage: TOP } : { query });
  return /** @type {{ hits: Array<{ objectID: string }> }} */ (response.body).hits.map((h) => h.objectID);
};
/** @type {(instance: LanternInstance, query: string) => Promise<string[]>} */
const idsOnly = async (instance, query) => (await instance.search(query)).ids;

await recordsPacked(builds.map(({ instance }) => instance));
settleHeap();
for (const { query } of warmup) for (const { instance } of builds) await defaultAnswer(instance, query);
/** @type {Record<string, { full: number[], ids: number[], hash: import('node:crypto').Hash }>} */
const measured = Object.fromEntries(builds.map(({ name }) => [name, { full: [], ids: [], hash: createHash('sha256') }]));
for (const [i, { query }] of queries.entries()) {
  const ask = i % 4 < 2 ? defaultAnswer : idsOnly;
  // the order mirrored every four queries, so that each build's asks follow the same mix of asks (its own
  // or the other's, of the same kind or not) as the other's: with A first on every even query, B's
  // answers followed its own answer of the same kind twice as often as A's did
  const aFirst = (i % 2 === 0) !== (i % 8 >= 4);
  for (const { name, instance } of aFirst ? builds : [...builds].reverse()) {
    if (values.turns) await new Promise((resolve) => setImmediate(resolve));
    await peerInstance?.search(query);
    const started = performance.now();
    const ids = await ask(instance, query);
    measured[name][ask === defaultAnswer ? 'full' : 'ids'].push(performance.now() - started);
    measured[name].hash.update(`${ids.slice(0, TOP).join(',')}\n`);
  }
}

/** @type {(s: { p50: number, p99: number }) => string} */
const figures = (s) => `p50 ${s.p50.toFixed(3)} ms, p99 ${s.p99.toFixed(2)} ms`;
console.log(`${shaped ? `${SET} records, ${QUERY_SHAPE} queries` : `${RECORDS} synthetic records`}, ${QUERIES} first-sight queries asked of both builds in turns${peerInstance ? `, ${values.peer} asked before each` : ''}${values.turns ? ', each on a turn of its own' : ''}\nA: ${values.a}\nB: ${values.b}`);
for (const [kind, label] of /** @type {const} */ ([['full', 'default answer'], ['ids', 'objectID only']])) {
  const [a, b] = ['A', 'B'].map((name) => stats(measured[name][kind]));
  console.log(`${label.padEnd(15)} A ${figures(a)}; B ${figures(b)}; B/A p50 ${(b.p50 / a.p50).toFixed(3)}, p99 ${(b.p99 / a.p99).toFixed(3)}`);
  const { all, heaviest } = pairedRatios(measured.A[kind], measured.B[kind]);
  console.log(`${''.padEnd(15)} per query, B/A (median): ${all.toFixed(3)}; over the heaviest tenth: ${heaviest.toFixed(3)}`);
}
const [hashA, hashB] = ['A', 'B'].map((name) => measured[name].hash.digest('hex').slice(0, 16));
console.log(`rankings: A ${hashA}, B ${hashB} (${hashA === hashB ? 'the same' : 'DIFFERENT'})`);
for (const { instance } of builds) await instance.close?.();
await peerInstance?.close?.();

/**
 * Each query's B time over its A time, their median over every query and
 * over the tenth whose pair took longest (mean of the two): the
 * two builds answered each query within a few milliseconds of each other,
 * so the machine's drift, which moves whole distributions, cancels out
 * query by query, and a change to the heaviest queries shows where p99
 * (a handful of queries, which one lands there depending on the order)
 * hardly moves. Medians: a collection landing in one build's answer
 * makes that query's ratio anything.
 * @param {number[]} a
 * @param {number[]} b
 */
function pairedRatios(a, b) {
  const pairs = a.map((t, i) => ({ ratio: b[i] / t, weight: (t + b[i]) / 2 }));
  const median = (/** @type {typeof pairs} */ list) => stats(list.map((p) => p.ratio)).p50;
  const heaviest = [...pairs].sort((x, y) => y.weight - x.weight).slice(0, Math.max(1, Math.round(pairs.length / 10)));
  return { all: median(pairs), heaviest: median(heaviest) };
}

/**
 * Waits, timers running, until every instance's index holds no record
 * left to pack (see the header).
 * @param {LanternInstance[]} instances
 */
async function recordsPacked(instances) {
  const left = () => instances.reduce((bytes, { index }) => bytes + /** @type {any} */ (index).records.bytesToPack, 0);
  const until = performance.now() + 120_000;
  while (left() > 0) {
    if (performance.now() > until) throw new Error(`${left()} bytes of records still to pack after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
