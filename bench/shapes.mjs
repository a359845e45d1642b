// Speed on several shapes of data: the same questions as first-sight.mjs
// (each query timed the first time the engine sees it, after 50 untimed
// ones, the API's default answer with hitsPerPage 10) asked of data and
// queries of other shapes, so that a figure holds beyond the one generator
// it was tuned on. A shape is
//
//   records: zipf2 / zipf6 (corpus.mjs zipfText: 2 or 6 text attributes,
//     words drawn Zipf s = 1 from the TED vocabulary), long (corpus.mjs
//     longText: zipf2's with bodies of ~1,000 words, a fifth as many records), synthetic (corpus.mjs
//     synthetic: 4 attributes, tags and speaker), ted (2,356 real talks),
//     cities (135k real names);
//   settings: the corpus's own (ordered attributes, customRanking) or every
//     attribute unordered() and no customRanking;
//   queries (queries.mjs QUERY_SHAPES, from records' titles): typed2 (two
//     words of 6+ letters, one letter replaced in the first but not its
//     first, the second all but its last two letters), prefix (one word
//     of 6+ letters cut to 1-6 letters), typoAny (1-3 words of 4+ letters,
//     a letter replaced anywhere in the first, the first letter included,
//     the last cut to 4-8 letters; a single word is kept whole).
//
// Each build of Lantern is a bulk import through the batch API (1,000
// records a batch, no snapshot), beside a build of MiniSearch (peers.mjs:
// AND, prefix on the last word, typos by word length as Lantern allows,
// the first attribute boosted 2x where attributes are ordered), made
// before it. Each records set is measured in a process of its own (a
// fresh heap: see measureInChild). Its shapes run in the table's order,
// the first right after the import ("import"), the next ones after the
// earlier shapes' queries ("warm": the queries are new, the engine is
// not). Each query is asked of both in turns (which one first
// alternates), then of Lantern again ("seen again").
//
// recall@10 (known item): the share of queries whose source record (the
// one whose title the query was cut from) is among the first 10 hits. It
// is the exact reference each query has; for 1-3 letter prefixes many
// records match as well as the source, so it is low for any engine there
// and only the two engines' figures side by side mean something.
// ratio: MiniSearch's time / Lantern's (first sight), at p50 and at p99;
// the worst of each over the shapes is printed last.
//
// With --turns, each query is asked on a turn of the event loop of its own
// (an untimed setImmediate before each ask), as an app's searches come,
// each from an event: work an engine leaves for a later turn (Lantern's
// call log writing an answer's start, its records packed once writes
// pause) runs between the queries instead of never during them.
//
// With --isolated, the peer is built and asked in a worker thread
// (support/peer-worker.mjs), still in turns and in this process: a V8 heap
// of its own, so that neither engine's answers pay for the other's garbage
// or heap. In one heap, a scavenge's time grows with the heap and lands in
// whichever answer allocates when the young generation is full: the long
// records' p99 is then MiniSearch's index's as much as either engine's.
// Its answers come back as messages, so turns of the event loop pass
// between queries, as with --turns: Lantern's work left for when writes
// pause (packing records, listing long records' tokens) runs between them.
// The worker also has a core whose caches nothing else touches between its
// answers: the peer is timed warm (MiniSearch's plain-shape p50 5.1 ms
// there, 8.0 ms in turns in one thread, bench/RESULTS.md 2026-12-03), so
// its ratios are not the bench's; it measures the collector's share.
//
//   node --max-old-space-size=4096 bench/shapes.mjs [--records 100000] [--queries 500] [--shapes name,...] [--peer minisearch] [--turns] [--isolated]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { recordSets } from './corpus.mjs';
import { outputInOwnProcess } from './support/own-process.mjs';
import { settleHeap, stats } from './measure.mjs';
import { flatDocument, loadLibraries, peerFor, TOP } from './peers.mjs';
import { QUERY_SHAPES, shapedQueries } from './queries.mjs';

/** @typedef {import('./corpus.mjs').Corpus} Corpus */

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '500' },
    shapes: { type: 'string', default: '' },
    peer: { type: 'string', default: 'minisearch' },
    seed: { type: 'string', default: '25' },
    turns: { type: 'boolean', default: false },
    isolated: { type: 'boolean', default: false },
    // the one records set a child process measures (see measureInChild)
    'records-set': { type: 'string' },
  },
});
const RECORDS = Number(values.records);
const QUERIES = Number(values.queries);
const WARMUP = 50;

const RECORD_SETS = recordSets(RECORDS);

/**
 * The settings a shape gives a corpus: its own, or every searchable
 * attribute unordered and no customRanking.
 * @type {Record<string, (settings: Record<string, any>) => Record<string, any>>}
 */
const SETTINGS = {
  own: (settings) => settings,
  unordered: (settings) => {
    const { customRanking: _, ...rest } = settings;
    const names = rest.searchableAttributes.map((/** @type {string} */ a) => a.replace(/^unordered\((.*)\)$/, '$1'));
    return { ...rest, searchableAttributes: names.map((/** @type {string} */ a) => `unordered(${a})`) };
  },
};

/** @typedef {{ name: string, records: string, settings: string, queries: keyof typeof QUERY_SHAPES }} Shape */
/** @type {Shape[]} in the order they run: shapes of one records and settings share a build */
const SHAPES = [
  { name: 'zipf2 typed2 (the plain shape)', records: 'zipf2', settings: 'own', queries: 'typed2' },
  { name: 'zipf2 prefix', records: 'zipf2', settings: 'own', queries: 'prefix' },
  { name: 'zipf2 typoAny', records: 'zipf2', settings: 'own', queries: 'typoAny' },
  { name: 'zipf2 unordered typed2', records: 'zipf2', settings: 'unordered', queries: 'typed2' },
  { name: 'zipf6 typed2', records: 'zipf6', settings: 'own', queries: 'typed2' },
  { name: 'zipf6 unordered typoAny', records: 'zipf6', settings: 'unordered', queries: 'typoAny' },
  { name: 'synthetic typed2', records: 'synthetic', settings: 'own', queries: 'typed2' },
  { name: 'long typed2', records: 'long', settings: 'own', queries: 'typed2' },
  { name: 'ted typoAny', records: 'ted', settings: 'own', queries: 'typoAny' },
  { name: 'cities prefix', records: 'cities', settings: 'own', queries: 'prefix' },
  { name: 'cities typoAny', records: 'cities', settings: 'own', queries: 'typoAny' },
];
const wanted = values.shapes ? values.shapes.split(',') : undefined;
const chosen = SHAPES.filter((s) => !wanted || wanted.some((w) => s.name.startsWith(w)));
if (chosen.length === 0) throw new Error(`--shapes: names starting one of ${SHAPES.map((s) => `"${s.name}"`).join(', ')}`);

/** @typedef {{ p50: number, p99: number, recall: number }} Figures */
/** @typedef {(query: string) => Promise<string[] | { ids: string[], ms: number }>} Ask the ids of the first hits, and the time the search took where it was timed apart (in a worker: see isolatedPeer) */
/**
 * Asks every query of each of `asks`, in turns (the first asked moves by one
 * at each query, so that neither meets the machine's moments more than the
 * other); per ask, the times' p50 and p99 (ms) and the known-item recall@10.
 * @param {Array<{ query: string, objectID: string }>} queries
 * @param {Ask[]} asks
 * @returns {Promise<Figures[]>}
 */
async function timeInTurns(queries, asks) {
  /** @type {number[][]} */
  const times = asks.map(() => []);
  const found = asks.map(() => 0);
  for (const [i, { query, objectID }] of queries.entries()) {
    for (let turn = 0; turn < asks.length; turn++) {
      const a = (i + turn) % asks.length;
      if (values.turns) await new Promise((resolve) => setImmediate(resolve));
      const started = performance.now();
      const answer = await asks[a](query);
      const elapsed = performance.now() - started;
      const { ids, ms } = Array.isArray(answer) ? { ids: answer, ms: elapsed } : answer;
      times[a].push(ms);
      if (ids.slice(0, TOP).includes(objectID)) found[a]++;
    }
  }
  return times.map((t, a) => {
    const { p50, p99 } = stats(t);
    return { p50, p99, recall: found[a] / queries.length };
  });
}

const [lantern, peer] = await loadLibraries(['lantern', values.peer], new URL('../dist', import.meta.url).pathname);
if (!peer) throw new Error(`--peer: one of the libraries peers.mjs knows, not "${values.peer}"`);

/** @typedef {{ example: string, after: string, lantern: Figures, again: Figures, peer: Figures }} ShapeResult */

/**
 * Measures the chosen shapes of records set `recordsName`, in this process.
 * @param {string} recordsName
 * @returns {Promise<Array<[string, ShapeResult]>>} by shape name
 */
async function measureRecords(recordsName) {
  /** @type {Array<[string, ShapeResult]>} */
  const measured = [];
  const ofRecords = chosen.filter((s) => s.records === recordsName);
  // from records let go before anything is built
  const { queriesOf, ownSettings, size } = (() => {
    const corpus = RECORD_SETS[recordsName]();
    /** @type {Map<Shape, Array<{ query: string, objectID: string }>>} */
    const made = new Map();
    for (const shape of ofRecords) made.set(shape, shapedQueries(corpus, WARMUP + QUERIES, Number(values.seed), QUERY_SHAPES[shape.queries]));
    return { queriesOf: made, ownSettings: corpus.settings, size: corpus.records.length };
  })();
  for (const settingsName of new Set(ofRecords.map((s) => s.settings))) {
    const settings = SETTINGS[settingsName](ownSettings);
    // the peer first: Lantern's first shape comes right after its import
    const peerInstance = values.isolated ? await isolatedPeer(recordsName, settings) : await build(peer, recordsName, settings);
    const instance = /** @type {import('./peers.mjs').LanternInstance} */ (await build(lantern, recordsName, settings));
    /** @type {Ask} */
    const defaultAnswer = async (query) => /** @type {{ hits: Array<{ objectID: string }> }} */ ((await instance.answer({ query, hitsPerPage: TOP })).body).hits.map((h) => h.objectID);
    /** @type {Ask} */
    const peerAnswer = async (query) => {
      const answer = await peerInstance.search(query);
      return 'ms' in answer ? /** @type {{ ids: string[], ms: number }} */ (answer) : answer.ids;
    };
    let first = true;
    for (const shape of ofRecords.filter((s) => s.settings === settingsName)) {
      const all = /** @type {Array<{ query: string, objectID: string }>} */ (queriesOf.get(shape));
      for (const { query } of all.slice(0, WARMUP)) { await defaultAnswer(query); await peerAnswer(query); }
      const timed = all.slice(WARMUP);
      const [lanternFigures, peerFigures] = await timeInTurns(timed, [defaultAnswer, peerAnswer]);
      const [again] = await timeInTurns(timed, [defaultAnswer]);
      measured.push([shape.name, { example: timed[0]?.query ?? '', after: first ? 'import' : 'warm', lantern: lanternFigures, again, peer: peerFigures }]);
      first = false;
      console.error(`  ${shape.name}: done (${size} records)`);
    }
    await instance.close();
    await peerInstance.close();
  }
  return measured;
}

/**
 * Measures records set `recordsName` in a child process of its own (this
 * script with --records-set): each set starts from a fresh heap. In one
 * process, what the sets before had built and dropped slowed MiniSearch's
 * answers and hardly Lantern's (the long shape after the synthetic one:
 * MiniSearch's p50 12.8 ms, alone in its process 5.9-6.5; Lantern's 1.24
 * against 1.17-1.19), and the later shapes' ratios measured the order
 * they ran in.
 * @param {string} recordsName
 * @returns {Promise<Array<[string, ShapeResult]>>}
 */
async function measureInChild(recordsName) {
  const out = await outputInOwnProcess(fileURLToPath(import.meta.url), [...process.argv.slice(2), '--records-set', recordsName], `the ${recordsName} records' process`);
  return JSON.parse(out);
}

if (values['records-set'] !== undefined) {
  process.stdout.write(JSON.stringify(await measureRecords(values['records-set'])));
  process.exit(0);
}

/** @type {Map<string, ShapeResult>} by shape name */
const results = new Map();
for (const recordsName of new Set(chosen.map((s) => s.records))) {
  for (const [name, result] of await measureInChild(recordsName)) results.set(name, result);
}

/**
 * Builds `library` on records made afresh, with `settings` (the peer ignores
 * them but for the boost of the first attribute when they are ordered).
 * @param {Awaited<ReturnType<typeof loadLibraries>>[number]} library
 * @param {string} recordsName
 * @param {Record<string, any>} settings
 */
async function build(library, recordsName, settings) {
  const corpus = RECORD_SETS[recordsName]();
  const peer = peerFor(corpus.peer, settings);
  const instance = await library.build({ ...corpus, settings, peer, documents: corpus.records.map((r) => flatDocument(r, peer)) });
  settleHeap();
  return instance;
}

/**
 * The peer built and asked in a worker thread (support/peer-worker.mjs):
 * a V8 heap of its own, so that neither engine's answers pay for the
 * other's garbage and heap; each search timed in the worker.
 * @param {string} recordsName
 * @param {Record<string, any>} settings
 */
async function isolatedPeer(recordsName, settings) {
  const worker = new Worker(new URL('./support/peer-worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 8192 } });
  /** @type {(message: object) => Promise<any>} */
  const ask = (message) => new Promise((resolve, reject) => {
    // each listener leaves with the other: hundreds of asks would pile up error listeners
    const answered = (/** @type {unknown} */ answer) => { worker.off('error', failed); resolve(answer); };
    const failed = (/** @type {Error} */ error) => { worker.off('message', answered); reject(error); };
    worker.once('message', answered);
    worker.once('error', failed);
    worker.postMessage(message);
  });
  await ask({ build: { library: values.peer, dist: new URL('../dist', import.meta.url).pathname, records: RECORDS, recordsName, settings } });
  return {
    /** @type {(query: string) => Promise<{ ids: string[], ms: number }>} */
    search: (query) => ask({ query }),
    close: async () => { await ask({ close: true }); await worker.terminate(); },
  };
}

const ms = (/** @type {number} */ t) => (t < 10 ? t.toFixed(2) : t.toFixed(1));
const ratio = (/** @type {number} */ peerTime, /** @type {number} */ lanternTime) => peerTime / lanternTime;
console.log(`\n${RECORDS} records were generated (ted and cities: all theirs), ${QUERIES} queries a shape, hitsPerPage ${TOP}, the default answer${values.turns ? ', each query on a turn of its own' : ''}${values.isolated ? `, ${peer.name} in a worker (a heap of its own)` : ''}`);
console.log(`| shape | e.g. | after | Lantern p50 / p99 | seen again p50 / p99 | ${peer.name} p50 / p99 | ratio p50 / p99 | recall@10 Lantern / ${peer.name} |`);
console.log('|---|---|---|---|---|---|---|---|');
const ratios = [];
for (const shape of chosen) {
  const r = results.get(shape.name);
  if (!r) continue;
  const [p50, p99] = [ratio(r.peer.p50, r.lantern.p50), ratio(r.peer.p99, r.lantern.p99)];
  ratios.push({ shape, p50, p99 });
  console.log(`| ${shape.name} | "${r.example}" | ${r.after} | ${ms(r.lantern.p50)} / ${ms(r.lantern.p99)} ms | ${ms(r.again.p50)} / ${ms(r.again.p99)} ms | ${ms(r.peer.p50)} / ${ms(r.peer.p99)} ms | ${p50.toFixed(1)}x / ${p99.toFixed(1)}x | ${r.lantern.recall.toFixed(3)} / ${r.peer.recall.toFixed(3)} |`);
}
for (const at of /** @type {const} */ (['p50', 'p99'])) {
  const sorted = ratios.slice().sort((a, b) => a[at] - b[at]);
  const [worst, best] = [sorted[0], sorted[sorted.length - 1]];
  console.log(`${peer.name} / Lantern at ${at}: worst ${worst[at].toFixed(1)}x (${worst.shape.name}), best ${best[at].toFixed(1)}x (${best.shape.name})`);
}
