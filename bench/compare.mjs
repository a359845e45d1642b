// One corpus, every library: build time and memory, snapshot size and load
// time, query latency per workload, recall@10 of typo'd queries, and
// throughput on two worker threads. Every library gets the same documents
// and the same query strings; ratios against Lantern are taken pair by pair
// from figures measured in this one process.
import { Worker } from 'node:worker_threads';
import { tokens } from './corpus.mjs';
import { flatDocument, TOP } from './peers.mjs';
import { buildQueries } from './queries.mjs';
import { median, percentile, settleHeap } from './measure.mjs';

/**
 * @typedef {import('./corpus.mjs').Corpus} Corpus
 * @typedef {import('./corpus.mjs').CorpusDescriptor} CorpusDescriptor
 * @typedef {import('./peers.mjs').Library & { key: string }} Library
 * @typedef {import('./peers.mjs').Instance} Instance
 * @typedef {import('./peers.mjs').LanternInstance} LanternInstance
 * @typedef {import('./peers.mjs').PeerCorpus} PeerCorpus
 * @typedef {import('./peers.mjs').Filter} Filter
 * @typedef {import('./peers.mjs').Hits} Hits
 * @typedef {import('./peers.mjs').Can} Can
 * @typedef {import('./peers.mjs').Feature} Feature
 * @typedef {import('./queries.mjs').QueryCounts} QueryCounts
 * @typedef {import('./queries.mjs').Workload | 'filtered' | 'faceted'} WorkloadKey
 * @typedef {import('./queries.mjs').QuerySets & { filtered: [string, Filter][], faceted: [string, Filter][] }} Queries
 * @typedef {Map<string, Set<string>>} Targets the records holding each untouched word of the typo'd queries
 */
/**
 * @typedef {object} CompareOptions
 * @property {QueryCounts} counts queries per workload
 * @property {number} repeat timed passes per workload
 * @property {string} dist the bundle under test (for the throughput workers)
 * @property {number} runs builds per library (the median counts)
 * @property {number} budgetMs time per workload and library before it stops early
 * @property {number} warmUpMs time after which a workload's warm-up may stop short
 * @property {number} minSamples samples a workload takes however long they take
 * @property {number} qpsMs throughput run per library (0: none)
 */
/**
 * @template T
 * @typedef {import('./peers.mjs').MaybePromise<T>} MaybePromise
 */
/**
 * A workload's latency in ms: p50, p99 and max of each pass, each the median over the passes.
 * @typedef {{ samples: number, p50: number, p99: number, max: number }} Latency
 * @typedef {Latency & { meanCount?: number, unsupported?: undefined }} Timing meanCount: matches per query
 * @typedef {{ unsupported: string, meanCount?: undefined } & { [K in keyof Latency]?: undefined }} Unsupported why a library cannot run a workload
 */
/**
 * A library's row of the comparison (and "Lantern core", its core alone: latency only).
 * @typedef {object} LibraryRow
 * @property {string} library
 * @property {string} version
 * @property {Partial<Can>} can
 * @property {number} [buildMs]
 * @property {number} [memoryBytes]
 * @property {number} [memoryQueriedBytes]
 * @property {number} [snapshotBytes]
 * @property {number} [saveMs]
 * @property {number} [loadMs]
 * @property {boolean} [snapshotSame]
 * @property {Partial<Record<WorkloadKey, Timing | Unsupported>>} workloads
 * @property {{ typo1: number, typo2: number }} [recall]
 * @property {number} [qps]
 * @property {LibraryRow} [core] Lantern's core row, until it is listed after Lantern's
 */

/** @typedef {Awaited<ReturnType<typeof compareDataset>>} Comparison One corpus: its figures, a row per library. */

/** @type {{ key: WorkloadKey, label: string, needs?: Feature }[]} */
export const WORKLOADS = [
  { key: 'exact', label: 'exact word' },
  { key: 'asYouType', label: 'as-you-type', needs: 'prefix' },
  { key: 'typo1', label: '1 typo', needs: 'typo' },
  { key: 'typo2', label: '2 typos', needs: 'typo' },
  { key: 'multi', label: 'multi-word' },
  { key: 'filtered', label: 'filtered', needs: 'filter' },
  { key: 'faceted', label: 'filtered + faceted', needs: 'facets' },
];

/** Warm-up passes over a workload at most (see timeWorkload). */
const WARM_UP_PASSES = 4;

/** Heap and memory outside it (array buffers, WebAssembly memories), settled. */
function retainedBytes() {
  const m = settleHeap();
  return m.heapUsed + m.external;
}

/**
 * p50, p99 and max of each pass, then the median of each over the passes.
 * @param {number[][]} passes
 * @returns {Latency}
 */
function latencyOf(passes) {
  const per = passes.filter((p) => p.length).map((p) => {
    const s = Float64Array.from(p).sort();
    return { p50: percentile(s, 0.5), p99: percentile(s, 0.99), max: s[s.length - 1] };
  });
  return {
    samples: passes.reduce((n, p) => n + p.length, 0),
    p50: median(per.map((x) => x.p50)),
    p99: median(per.map((x) => x.p99)),
    max: median(per.map((x) => x.max)),
  };
}

/** @type {(x: any) => PromiseLike<unknown> | null} */
const settle = (x) => (x && typeof x.then === 'function' ? x : null);

/**
 * Calls fn(arg) and awaits only when it returned a promise (sync libraries stay sync).
 * @template {unknown[]} A
 * @template R
 * @param {(...args: A) => R} fn
 * @param {A} args
 * @returns {Promise<Awaited<R>>}
 */
async function call(fn, ...args) {
  const r = fn(...args);
  return settle(r) ? await r : /** @type {Awaited<R>} */ (r); // not a promise: R itself
}

/**
 * Records containing each word (as a whole token of a searchable attribute).
 * @param {Corpus} corpus
 * @param {string[]} words
 * @returns {Targets}
 */
function recordsWithWords(corpus, words) {
  const wanted = new Set(words);
  const out = new Map([...wanted].map((w) => [w, /** @type {Set<string>} */ (new Set())]));
  for (const r of corpus.records) {
    for (const text of corpus.searchableText(r)) {
      if (typeof text !== 'string') continue;
      for (const t of tokens(text)) if (wanted.has(t)) out.get(t)?.add(String(r.objectID));
    }
  }
  return out;
}

/**
 * Filters from the corpus's own values: the 4 most common tags × numeric cuts at the 25th/50th/75th percentile.
 * @param {Corpus} corpus
 * @returns {Filter[]}
 */
function filtersOf(corpus) {
  const { tag, numeric } = corpus.peer;
  /** @type {Map<string, number>} */
  const counts = new Map();
  /** @type {number[]} */
  const values = [];
  for (const r of corpus.records) {
    const t = r[tag];
    for (const v of Array.isArray(t) ? t : [t]) if (v != null) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
    values.push(Number(r[numeric]) || 0);
  }
  values.sort((a, b) => a - b);
  const tags = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([v]) => v);
  const cuts = [0.25, 0.5, 0.75].map((q) => values[Math.floor(q * (values.length - 1))]);
  return tags.flatMap((t) => cuts.map((min) => ({ tag: t, min, tagAttribute: tag, numeric })));
}

/**
 * Benchmarks `libraries` on the corpus `makeCorpus()` makes. `descriptor` lets
 * a worker thread make the same corpus (see qps-worker.mjs).
 * @param {Library[]} libraries
 * @param {() => Corpus} makeCorpus
 * @param {CorpusDescriptor} descriptor
 * @param {CompareOptions} opts
 * @param {(line: string) => void} [log]
 */
export async function compareDataset(libraries, makeCorpus, descriptor, opts, log = () => {}) {
  const made = makeCorpus();
  const sets = buildQueries(made, opts.counts);
  const typoQueries = [...sets.typo1, ...sets.typo2];
  const targets = recordsWithWords(made, typoQueries.map((q) => sets.typoSource[q]));
  const filters = filtersOf(made);
  const words = sets.exact.slice(0, Math.max(4, Math.ceil(sets.exact.length / 5)));
  /** @type {[string, Filter][]} */
  const filtered = words.map((q, i) => [q, filters[i % filters.length]]);
  /** @type {Queries} */
  const queries = { ...sets, filtered, faceted: filtered };
  /** @type {PeerCorpus} */
  const corpus = Object.assign(made, { documents: made.records.map((r) => flatDocument(r, made.peer)) });
  const info = {
    dataset: corpus.name,
    records: corpus.records.length,
    jsonBytes: Buffer.byteLength(JSON.stringify(corpus.records)),
    queries: Object.fromEntries(WORKLOADS.map((w) => [w.key, queries[w.key].length])),
  };

  /** @type {LibraryRow[]} */
  const results = [];
  for (const library of libraries) {
    log(`   ${library.name}: building`);
    const row = await benchLibrary(library, corpus, queries, targets, opts, log);
    results.push(row);
    if (opts.qpsMs > 0) {
      log(`   ${library.name}: throughput on 2 workers`);
      row.qps = await throughput(library.key, descriptor, queries.asYouType, opts);
    }
    if (library.key === 'lantern' && row.core) results.push(row.core);
    delete row.core;
  }
  return { ...info, libraries: results };
}

/**
 * @param {Library} library
 * @param {PeerCorpus} corpus
 * @param {Queries} queries
 * @param {Targets} targets
 * @param {CompareOptions} opts
 * @param {(line: string) => void} log
 * @returns {Promise<LibraryRow>}
 */
async function benchLibrary(library, corpus, queries, targets, opts, log) {
  /** @type {number[]} */
  const builds = [];
  /** @type {number[]} */
  const memory = [];
  /** @type {Instance | undefined} */
  let instance;
  let before = 0;
  for (let run = 0; run < opts.runs; run++) {
    if (instance) await instance.close();
    // eslint-disable-next-line no-useless-assignment -- dropped before measuring, so the collector can free it
    instance = undefined;
    before = retainedBytes();
    const t0 = performance.now();
    instance = await library.build(corpus);
    builds.push(performance.now() - t0);
    memory.push(retainedBytes() - before);
  }
  if (!instance) throw new Error('runs: at least one build');
  // the row's other fields are added below, in the order its JSON keeps them
  const row = /** @type {LibraryRow} */ ({ library: library.name, version: library.version, can: library.can, buildMs: median(builds), memoryBytes: median(memory) });

  if (library.can.snapshot === true) Object.assign(row, await snapshotOf(instance, queries.exact[0]));

  row.workloads = {};
  for (const w of WORKLOADS) {
    const can = w.needs ? library.can[w.needs] : true;
    const reason = can === true ? null : can;
    if (reason) { row.workloads[w.key] = { unsupported: reason }; continue; }
    log(`   ${library.name}: ${w.label}`);
    row.workloads[w.key] = await timeWorkload(instance, w.key, queries[w.key], opts);
  }
  row.recall = await recallOf(instance, queries, targets, opts);
  // what the index holds once queried: caches and query scratch included (WebAssembly memory
  // never shrinks); the baseline is the last build's
  row.memoryQueriedBytes = retainedBytes() - before;

  if (library.key === 'lantern') row.core = coreRow(/** @type {LanternInstance} */ (instance), queries, opts);
  await instance.close();
  return row;
}

/**
 * Runs one query of a workload; filtered ones carry their filter.
 * @param {Instance} instance
 * @param {WorkloadKey} key
 * @returns {(query: any) => MaybePromise<Hits>} a query string, or [query, filter] for the filtered workloads
 */
function runner(instance, key) {
  // a library runs these only when it can (can.filter, can.facets): then it has filtered()
  const filtering = /** @type {Required<Instance>} */ (instance);
  if (key === 'filtered') return ([q, f]) => filtering.filtered(q, f, false);
  if (key === 'faceted') return ([q, f]) => filtering.filtered(q, f, true);
  return (q) => instance.search(q);
}

/**
 * @param {Instance} instance
 * @param {WorkloadKey} key
 * @param {(string | [string, Filter])[]} list
 * @param {CompareOptions} opts
 * @returns {Promise<Timing>}
 */
async function timeWorkload(instance, key, list, opts) {
  const run = runner(instance, key);
  // warm-up (and the match counts): passes over every query until one is no more than a tenth
  // faster than the one before, stopping short after opts.warmUpMs (slow scanners). Caches fill
  // over more than one pass (Lantern's prefix cache admits entries by their use; at 1M records its
  // cold pass takes ~5 s and the second is still 1.8× the third): timing a pass still warming
  // would measure the warm-up, and charge it to whichever row runs first.
  /** @type {number[]} */
  const counts = [];
  const warm = performance.now() + opts.warmUpMs;
  let previousMs = Infinity;
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
    const t0 = performance.now();
    let complete = true;
    for (const q of list) {
      const r = await call(run, q);
      if (pass === 0) counts.push(r.count);
      if (performance.now() > warm && (pass > 0 || counts.length >= opts.minSamples)) { complete = false; break; }
    }
    const tookMs = performance.now() - t0;
    if (!complete || tookMs > previousMs * 0.9) break;
    previousMs = tookMs;
  }
  /** @type {number[][]} */
  const passes = [];
  const deadline = performance.now() + opts.budgetMs;
  for (let pass = 0; pass < opts.repeat && (pass === 0 || performance.now() < deadline); pass++) {
    /** @type {number[]} */
    const samples = [];
    for (const q of list) {
      const a = performance.now();
      const r = run(q);
      if (settle(r)) await r;
      samples.push(performance.now() - a);
      if (performance.now() > deadline && samples.length >= opts.minSamples) break;
    }
    passes.push(samples);
  }
  return { ...latencyOf(passes), meanCount: counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length) };
}

/**
 * recall@10 of typo'd queries: of the records that contain the untouched
 * word (at most 10 of them counted), the share found in the top 10; over
 * every query, or as many as the time budget allows (slow scanners).
 * @param {Instance} instance
 * @param {Queries} queries
 * @param {Targets} targets
 * @param {CompareOptions} opts
 */
async function recallOf(instance, queries, targets, opts) {
  /** @type {(list: string[]) => Promise<number>} */
  const of = async (list) => {
    /** @type {number[]} */
    const shares = [];
    const deadline = performance.now() + opts.budgetMs;
    for (const q of list) {
      if (performance.now() > deadline && shares.length >= opts.minSamples) break;
      const target = targets.get(queries.typoSource[q]);
      if (!target || target.size === 0) continue;
      const { ids } = await call((/** @type {string} */ x) => instance.search(x), q);
      const found = ids.slice(0, TOP).filter((id) => target.has(String(id))).length;
      shares.push(found / Math.min(TOP, target.size));
    }
    return shares.length ? shares.reduce((a, b) => a + b, 0) / shares.length : NaN;
  };
  return { typo1: await of(queries.typo1), typo2: await of(queries.typo2) };
}

/**
 * @param {Instance} instance
 * @param {string} probe
 */
async function snapshotOf(instance, probe) {
  const s0 = performance.now();
  const saved = await call(() => instance.save());
  const saveMs = performance.now() - s0;
  const snapshotBytes = typeof saved === 'string' ? Buffer.byteLength(saved) : saved.byteLength;
  const l0 = performance.now();
  const copy = await call(() => instance.load(saved));
  const first = await call((/** @type {string} */ q) => copy.search(q), probe);
  const loadMs = performance.now() - l0;
  const original = await call((/** @type {string} */ q) => instance.search(q), probe);
  await copy.close();
  return { snapshotBytes, saveMs, loadMs, snapshotSame: JSON.stringify(first.ids) === JSON.stringify(original.ids) };
}

/**
 * Lantern's core alone (no API layer): query latency only.
 * @param {LanternInstance} instance
 * @param {Queries} queries
 * @param {CompareOptions} opts
 */
function coreRow(instance, queries, opts) {
  /** @type {LibraryRow} */
  const row = { library: 'Lantern core', version: '', can: {}, workloads: {} };
  for (const w of WORKLOADS) {
    if (w.key === 'filtered' || w.key === 'faceted') { row.workloads[w.key] = { unsupported: 'API only' }; continue; }
    const list = /** @type {string[]} */ (queries[w.key]);
    for (const q of list) instance.coreSearch(q);
    /** @type {number[][]} */
    const passes = [];
    for (let pass = 0; pass < opts.repeat; pass++) {
      passes.push(list.map((q) => {
        const a = performance.now();
        instance.coreSearch(q);
        return performance.now() - a;
      }));
    }
    row.workloads[w.key] = latencyOf(passes);
  }
  return row;
}

/**
 * Queries per second over two worker threads, each with its own index, running the as-you-type keystrokes.
 * @param {string} libraryKey
 * @param {CorpusDescriptor} descriptor
 * @param {string[]} list
 * @param {CompareOptions} opts
 */
async function throughput(libraryKey, descriptor, list, opts) {
  const workers = [0, 1].map(() => new Worker(new URL('./qps-worker.mjs', import.meta.url), {
    workerData: { libraryKey, descriptor, queries: list, ms: opts.qpsMs, dist: opts.dist },
  }));
  /** @type {(w: Worker, type: string) => Promise<{ type: string, count: number, ms: number }>} */
  const message = (w, type) => new Promise((resolve, reject) => {
    w.on('error', reject);
    w.on('message', (m) => { if (m.type === type) resolve(m); });
  });
  try {
    await Promise.all(workers.map((w) => message(w, 'ready')));
    const done = workers.map((w) => message(w, 'done'));
    for (const w of workers) w.postMessage('go');
    const results = await Promise.all(done);
    return results.reduce((n, r) => n + r.count / (r.ms / 1000), 0);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
