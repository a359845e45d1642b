// Lantern alone, in depth: indexing, memory, core against end-to-end latency
// per workload and per prefix length, the slowest queries, filtered + faceted
// empty queries, and persistence on the file system (`--detail`).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { buildQueries } from './queries.mjs';
import { coreQueryFor } from './peers.mjs';
import { mb, ms, table } from './format.mjs';
import { settleHeap, stats } from './measure.mjs';

/**
 * @typedef {typeof import('lantern-search').Lantern} LanternClass
 * @typedef {typeof import('lantern-search/node').fsStorage} FsStorage
 * @typedef {import('lantern-search').LanternClient} LanternClient
 * @typedef {import('./corpus.mjs').Corpus} Corpus
 * @typedef {import('./corpus.mjs').BenchRecord} BenchRecord
 * @typedef {import('./queries.mjs').QueryCounts} QueryCounts
 * @typedef {import('./queries.mjs').Workload} Workload
 * @typedef {ReturnType<typeof stats>} Stats
 * @typedef {{ label: string, queries: number, meanNbHits: number, zeroHits: number, core: Stats, e2e: Stats }} WorkloadDetail
 * @typedef {Awaited<ReturnType<typeof benchDataset>>} DatasetDetail
 * @typedef {Awaited<ReturnType<typeof benchPersistence>>} Persistence
 */

/**
 * Persistence on the file system: indexing through the durable log, the
 * binary snapshot (size against the records' JSON, time to write), and
 * reopening from it (time, and the first query, which reads records lazily).
 * @param {LanternClass} Lantern
 * @param {FsStorage} fsStorage
 * @param {() => Corpus} makeCorpus
 */
export async function benchPersistence(Lantern, fsStorage, makeCorpus) {
  const corpus = makeCorpus();
  const indexName = corpus.name;
  const jsonBytes = Buffer.byteLength(JSON.stringify(corpus.records));
  const dir = mkdtempSync(join(os.tmpdir(), 'lantern-bench-'));
  try {
    let engine = await Lantern.open({ storage: fsStorage(dir), snapshotEvery: 0 });
    let client = engine.client();
    await client.setSettings({ indexName, indexSettings: corpus.settings });
    const t0 = performance.now();
    await client.saveObjects({ indexName, objects: corpus.records, batchSize: 1000 });
    await engine.waitForTasks();
    const indexMs = performance.now() - t0;
    const s0 = performance.now();
    await engine.snapshot();
    const snapshotMs = performance.now() - s0;
    const probe = { query: corpus.title(corpus.records[0]).split(' ').slice(0, 2).join(' '), hitsPerPage: 20 };
    const before = await client.searchSingleIndex({ indexName, searchParams: probe });
    await engine.close();
    const snapshotBytes = readdirSync(dir).filter((f) => f.startsWith('snapshot-')).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    const o0 = performance.now();
    engine = await Lantern.open({ storage: fsStorage(dir), snapshotEvery: 0 });
    const openMs = performance.now() - o0;
    client = engine.client();
    const q0 = performance.now();
    const after = await client.searchSingleIndex({ indexName, searchParams: probe });
    const firstQueryMs = performance.now() - q0;
    await engine.close();
    const same = JSON.stringify(before.hits.map((h) => h.objectID)) === JSON.stringify(after.hits.map((h) => h.objectID));
    return { dataset: indexName, records: corpus.records.length, jsonBytes, indexMs, snapshotMs, snapshotBytes, openMs, firstQueryMs, same };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {Persistence} p */
export function reportPersistence(p) {
  return `   persistence (fsStorage): indexing ${ms(p.indexMs)} ms through the log; snapshot ${mb(p.snapshotBytes)} ` +
    `(${(p.snapshotBytes / p.jsonBytes).toFixed(2)}× the JSON) in ${ms(p.snapshotMs)} ms; reopen ${ms(p.openMs)} ms ` +
    `(${(p.indexMs / p.openMs).toFixed(1)}× faster than indexing), first query after reopen ${ms(p.firstQueryMs)} ms` +
    `${p.same ? '' : ' ! results differ after reopen'}`;
}

// ---------------------------------------------------------------- one dataset

/** @type {[Workload, string][]} */
const WORKLOADS = [
  ['exact', 'exact word'],
  ['multi', 'multi-word'],
  ['asYouType', 'as-you-type'],
  ['typo1', '1 typo'],
  ['typo2', '2 typos'],
];

/**
 * @param {LanternClass} Lantern
 * @param {() => Corpus} makeCorpus
 * @param {{ counts: QueryCounts, repeat: number }} opts
 */
export async function benchDataset(Lantern, makeCorpus, opts) {
  // Heap baseline before the corpus exists; after indexing the harness drops
  // its records, so the delta is what the engine retains (records + index).
  const engine = await Lantern.open({});
  const client = engine.client();
  const before = settleHeap();

  const corpus = makeCorpus();
  const { settings } = corpus;
  /** @type {BenchRecord[] | null} */
  let records = corpus.records;
  const indexName = corpus.name;
  const jsonBytes = Buffer.byteLength(JSON.stringify(records));
  const queries = buildQueries(corpus, opts.counts);
  corpus.records = [];

  // Indexing: wall clock from the first batch to the task queue idle.
  await client.setSettings({ indexName, indexSettings: settings });
  await engine.waitForTasks();
  const t0 = performance.now();
  await client.saveObjects({ indexName, objects: records, waitForTasks: false, batchSize: 1000 });
  await engine.waitForTasks();
  const indexMs = performance.now() - t0;
  // eslint-disable-next-line no-useless-assignment -- dropped before measuring memory, so the collector can free them
  records = null;

  const index = engine.index(indexName);
  const r0 = performance.now();
  index.prepareRanks();
  const ranksMs = performance.now() - r0;

  const after = settleHeap();
  const memory = {
    heapDelta: after.heapUsed - before.heapUsed,
    externalDelta: after.external - before.external,
    rssDelta: after.rss - before.rss,
    wasm: index.memoryBytes,
  };
  const core = index.coreIndex;
  const info = { records: index.size, terms: core.termCount, jsonBytes, indexMs, ranksMs, memory };

  /** @type {(q: string) => ReturnType<typeof core.search>} */
  const coreSearch = (q) => core.search(coreQueryFor(index, q));
  /** @type {(q: string) => ReturnType<LanternClient['searchSingleIndex']>} */
  const e2eSearch = (q) => client.searchSingleIndex({ indexName, searchParams: { query: q, hitsPerPage: 20, attributesToHighlight: [] } });

  // Warm-up: every query once at each level; also the correctness checks.
  /** @type {string[]} */
  const problems = [];
  /** @type {Record<string, number[]>} */
  const nbHits = {};
  for (const [key] of WORKLOADS) {
    nbHits[key] = [];
    for (const q of queries[key]) {
      const c = coreSearch(q);
      const e = await e2eSearch(q);
      nbHits[key].push(c.nbHits);
      if (c.nbHits !== e.nbHits) problems.push(`${indexName} "${q}": core nbHits ${c.nbHits} ≠ end-to-end ${e.nbHits}`);
      if ((key === 'exact' || key === 'multi') && c.nbHits === 0) problems.push(`${indexName} ${key} "${q}": no hits`);
    }
  }

  /** @type {Record<string, WorkloadDetail>} */
  const workloads = {};
  /** @type {{ workload: string, query: string, ms: number }[]} */
  const slowest = [];
  /** @type {Map<string, number[]>} */
  const byPrefixLength = new Map();
  for (const [key, label] of WORKLOADS) {
    const list = queries[key];
    /** @type {number[]} */
    const coreSamples = [];
    /** @type {number[]} */
    const e2eSamples = [];
    for (let pass = 0; pass < opts.repeat; pass++) {
      for (const q of list) {
        const a = performance.now();
        coreSearch(q);
        const took = performance.now() - a;
        coreSamples.push(took);
        slowest.push({ workload: label, query: q, ms: took });
        if (key === 'asYouType') {
          const bucket = q.length <= 3 ? String(q.length) : q.includes(' ') ? 'second word' : '4+ (first word)';
          if (!byPrefixLength.has(bucket)) byPrefixLength.set(bucket, []);
          byPrefixLength.get(bucket)?.push(took);
        }
      }
      for (const q of list) {
        const a = performance.now();
        await e2eSearch(q);
        e2eSamples.push(performance.now() - a);
      }
    }
    const hits = nbHits[key];
    workloads[key] = {
      label,
      queries: list.length,
      meanNbHits: hits.reduce((a, b) => a + b, 0) / Math.max(1, hits.length),
      zeroHits: hits.filter((h) => h === 0).length,
      core: stats(coreSamples),
      e2e: stats(e2eSamples),
    };
  }
  workloads.filtered = await filteredWorkload(client, indexName, settings, opts.repeat);
  slowest.sort((a, b) => b.ms - a.ms);
  /** @type {Set<string>} */
  const seen = new Set();
  const topSlow = slowest.filter((s) => !seen.has(s.query) && seen.add(s.query)).slice(0, 8);
  const prefixes = Object.fromEntries(
    ['1', '2', '3', '4+ (first word)', 'second word'].filter((b) => byPrefixLength.has(b)).map((b) => [b, stats(byPrefixLength.get(b) ?? [])]),
  );

  await engine.close();
  return { dataset: indexName, ...info, workloads, asYouTypeByPrefix: prefixes, slowest: topSlow, problems };
}

/**
 * Filtered + faceted empty queries (the InstantSearch page load and refinement
 * clicks): facet counts on the first two declared facets, with facet filters,
 * numeric ranges and both, built from the index's own top values.
 * @param {LanternClient} client
 * @param {string} indexName
 * @param {Record<string, any>} settings
 * @param {number} repeat
 * @returns {Promise<WorkloadDetail>}
 */
async function filteredWorkload(client, indexName, settings, repeat) {
  /** @type {string[]} */
  const declared = (settings.attributesForFaceting ?? []).map((/** @type {string} */ a) => a.replace(/^\w+\((.+)\)$/, '$1'));
  const facets = declared.slice(0, 2);
  const probe = await client.searchSingleIndex({ indexName, searchParams: { hitsPerPage: 0, facets: declared, maxValuesPerFacet: 5 } });
  const stringFacet = declared.find((a) => !probe.facets_stats?.[a] && probe.facets?.[a]);
  const numericFacet = declared.find((a) => probe.facets_stats?.[a]);
  const filters = [''];
  /** @type {(v: string) => string} */
  const quote = (v) => JSON.stringify(v);
  for (const value of Object.keys((stringFacet && probe.facets?.[stringFacet]) ?? {}).slice(0, 5)) filters.push(`${stringFacet}:${quote(value)}`);
  const range = numericFacet ? probe.facets_stats?.[numericFacet] : undefined;
  if (numericFacet && range) {
    const { min = NaN, max = NaN } = range; // both there: a numeric facet's stats
    for (const f of [0.25, 0.5, 0.75]) {
      const cut = Math.round(min + (max - min) * f);
      filters.push(`${numericFacet} >= ${cut}`);
      if (stringFacet) filters.push(`${numericFacet} >= ${cut} AND ${filters[1]}`);
    }
  }
  /** @type {number[]} */
  const samples = [];
  /** @type {number[]} */
  const hits = [];
  /** @type {(f: string) => ReturnType<LanternClient['searchSingleIndex']>} */
  const run = (f) => client.searchSingleIndex({ indexName, searchParams: { query: '', filters: f, facets, hitsPerPage: 20, attributesToHighlight: [] } });
  for (const f of filters) hits.push((await run(f)).nbHits ?? NaN);
  for (let pass = 0; pass < repeat; pass++) {
    for (const f of filters) {
      const a = performance.now();
      await run(f);
      samples.push(performance.now() - a);
    }
  }
  const s = stats(samples);
  return {
    label: `filtered + ${facets.length} facets (e2e)`,
    queries: filters.length,
    meanNbHits: hits.reduce((a, b) => a + b, 0) / hits.length,
    zeroHits: hits.filter((h) => h === 0).length,
    core: s,
    e2e: s,
  };
}

// ---------------------------------------------------------------- report

/** @param {DatasetDetail} r */
export function report(r) {
  /** @type {string[]} */
  const out = [];
  out.push(`\n== ${r.dataset}: ${r.records.toLocaleString('en')} records, ${r.terms.toLocaleString('en')} terms, JSON ${mb(r.jsonBytes)}`);
  out.push(`   indexing ${ms(r.indexMs)} ms (${Math.round(r.records / (r.indexMs / 1000)).toLocaleString('en')} records/s), ` +
    `custom ranks ${ms(r.ranksMs)} ms | heap Δ ${mb(r.memory.heapDelta)} (records + JS index), wasm memory ${mb(r.memory.wasm)}, rss Δ ${mb(r.memory.rssDelta)}`);
  out.push('');
  const rows = Object.values(r.workloads).map((w) => [
    w.label, w.queries, w.core.n, Math.round(w.meanNbHits), w.zeroHits,
    ms(w.core.p50), ms(w.core.p99), ms(w.core.max), ms(w.e2e.p50), ms(w.e2e.p99), ms(w.e2e.max),
  ]);
  out.push(table(
    ['workload (ms)', 'queries', 'samples', 'avg nbHits', '0 hits', 'core p50', 'core p99', 'core max', 'e2e p50', 'e2e p99', 'e2e max'],
    rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
  const prefixRows = Object.entries(r.asYouTypeByPrefix).map(([b, s]) => [b, s.n, ms(s.p50), ms(s.p99), ms(s.max)]);
  if (prefixRows.length) {
    out.push('');
    out.push(table(['as-you-type by prefix (core ms)', 'samples', 'p50', 'p99', 'max'], prefixRows, ['l', 'r', 'r', 'r', 'r']));
  }
  out.push('');
  out.push(`   slowest (core): ${r.slowest.map((s) => `"${s.query}" ${ms(s.ms)}`).join(', ')}`);
  for (const p of r.problems.slice(0, 10)) out.push(`   ! ${p}`);
  if (r.problems.length > 10) out.push(`   ! ... ${r.problems.length - 10} more`);
  return out.join('\n');
}

