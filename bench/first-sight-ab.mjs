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
// With --processes N, N processes of their own measure in turn, the
// builds' places swapped in every other one, and the per-query ratios B/A
// are given for each and as their geometric mean. Within one process the
// build made first answers 1-2% faster: two copies of one build, 4
// processes, B/A 1.022 and 1.013 with A made first, 0.988 and 0.994 with
// B made first (1.004 over the four). A change of a few per cent needs
// both orders, and more than one process of each.
//
//   node --max-old-space-size=4096 bench/first-sight-ab.mjs --a DIST_A --b DIST_B [--records 100000] [--queries 1000] [--shape synthetic|plain] [--set NAME --query-shape NAME] [--peer minisearch] [--turns] [--processes 4]
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordSets, synthetic } from './corpus.mjs';
import { settleHeap, stats } from './measure.mjs';
import { flatDocument, loadLibraries, TOP } from './peers.mjs';
import { outputInOwnProcess } from './support/own-process.mjs';
import { QUERY_SHAPES, shapedQueries, typedQueries } from './queries.mjs';

const { values } = parseArgs({
  options: {
    a: { type: 'string' }, b: { type: 'string' },
    records: { type: 'string', default: '100000' }, queries: { type: 'string', default: '1000' }, seed: { type: 'string', default: '25' },
    shape: { type: 'string', default: 'synthetic' },
    set: { type: 'string' }, 'query-shape': { type: 'string' },
    peer: { type: 'string', default: '' },
    turns: { type: 'boolean', default: false },
    processes: { type: 'string', default: '1' },
    /** Internal: a child of --processes prints its figures as JSON. */
    json: { type: 'boolean', default: false },
  },
});
if (!values.a || !values.b) throw new Error('usage: node bench/first-sight-ab.mjs --a DIST_A --b DIST_B');
/** The two answers timed: the default one and objectID only. */
const KINDS = /** @type {const} */ ([['full', 'default answer'], ['ids', 'objectID only']]);
const PROCESSES = Number(values.processes);
if (!Number.isInteger(PROCESSES) || PROCESSES < 1) throw new Error(`--processes: a whole number of processes, 1 or more, not "${values.processes}"`);
if (PROCESSES > 1) {
  await measureInProcesses(PROCESSES);
  process.exit(0);
}
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

/** @typedef {{ a: { p50: number, p99: number }, b: { p50: number, p99: number }, all: number, heaviest: number }} KindFigures */
/** @type {Record<'full' | 'ids', KindFigures>} */
const figuresOf = /** @type {any} */ (Object.fromEntries(KINDS.map(([kind]) => {
  const [a, b] = ['A', 'B'].map((name) => stats(measured[name][kind]));
  return [kind, { a, b, ...pairedRatios(measured.A[kind], measured.B[kind]) }];
})));
const [hashA, hashB] = ['A', 'B'].map((name) => measured[name].hash.digest('hex').slice(0, 16));
if (values.json) process.stdout.write(JSON.stringify({ figures: figuresOf, hashA, hashB }));
else {
  /** @type {(s: { p50: number, p99: number }) => string} */
  const figures = (s) => `p50 ${s.p50.toFixed(3)} ms, p99 ${s.p99.toFixed(2)} ms`;
  console.log(`${describe()}\nA: ${values.a}\nB: ${values.b}`);
  for (const [kind, label] of KINDS) {
    const { a, b, all, heaviest } = figuresOf[kind];
    console.log(`${label.padEnd(15)} A ${figures(a)}; B ${figures(b)}; B/A p50 ${(b.p50 / a.p50).toFixed(3)}, p99 ${(b.p99 / a.p99).toFixed(3)}`);
    console.log(`${''.padEnd(15)} per query, B/A (median): ${all.toFixed(3)}; over the heaviest tenth: ${heaviest.toFixed(3)}`);
  }
  console.log(`rankings: A ${hashA}, B ${hashB} (${hashA === hashB ? 'the same' : 'DIFFERENT'})`);
}
for (const { instance } of builds) await instance.close?.();
await peerInstance?.close?.();

/** What was measured, in words. */
function describe() {
  return `${shaped ? `${SET} records, ${QUERY_SHAPE} queries` : `${RECORDS} synthetic records`}, ${QUERIES} first-sight queries asked of both builds in turns${peerInstance ? `, ${values.peer} asked before each` : ''}${values.turns ? ', each on a turn of its own' : ''}`;
}

/**
 * Measures in `count` processes of their own, the builds' places swapped
 * in every other one, and prints each one's per-query ratios B/A and their
 * geometric mean (see the header).
 * @param {number} count
 */
async function measureInProcesses(count) {
  const argv = process.argv.slice(2);
  /** @type {Array<{ full: number, ids: number, fullHeaviest: number, idsHeaviest: number, same: boolean }>} */
  const runs = [];
  for (let i = 0; i < count; i++) {
    const swapped = i % 2 === 1;
    const args = [...withValue(withValue(withValue(argv, '--processes', undefined), '--a', swapped ? values.b : values.a), '--b', swapped ? values.a : values.b), '--json'];
    const { figures, hashA, hashB } = JSON.parse(await outputInOwnProcess(fileURLToPath(import.meta.url), args, `measuring process ${i + 1}`));
    // a swapped process measured A/B: its ratios inverted are B/A
    const oriented = (/** @type {number} */ r) => (swapped ? 1 / r : r);
    runs.push({
      full: oriented(figures.full.all), ids: oriented(figures.ids.all),
      fullHeaviest: oriented(figures.full.heaviest), idsHeaviest: oriented(figures.ids.heaviest), same: hashA === hashB,
    });
    const last = runs[runs.length - 1];
    console.log(`process ${i + 1} (${swapped ? 'B' : 'A'} built first): per query B/A, default answer ${last.full.toFixed(3)} (heaviest tenth ${last.fullHeaviest.toFixed(3)}), objectID only ${last.ids.toFixed(3)} (${last.idsHeaviest.toFixed(3)})${last.same ? '' : ', rankings DIFFERENT'}`);
  }
  const mean = (/** @type {number[]} */ xs) => Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
  const spread = (/** @type {number[]} */ xs) => `${Math.min(...xs).toFixed(3)}-${Math.max(...xs).toFixed(3)}`;
  console.log(`A: ${values.a}\nB: ${values.b}`);
  for (const [key, label] of KINDS) {
    const ratios = runs.map((r) => r[key]);
    console.log(`${label.padEnd(15)} per query B/A over ${count} processes: ${mean(ratios).toFixed(3)} (geometric mean; ${spread(ratios)})`);
  }
  console.log(`rankings: ${runs.every((r) => r.same) ? 'the same in every process' : 'DIFFERENT'}`);
}

/** `argv` with option `name` set to `value` (replaced where given). @type {(argv: string[], name: string, value: string | undefined) => string[]} */
function withValue(argv, name, value) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) { i++; continue; }
    if (argv[i].startsWith(`${name}=`)) continue;
    out.push(argv[i]);
  }
  return value === undefined ? out : [...out, name, value];
}

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
