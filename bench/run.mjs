// Lantern benchmark: indexing time, memory and query latency (core and end
// to end) on the TED talks fixture and synthetic corpora.
//
//   node bench/run.mjs                         TED + synthetic 100k
//   node bench/run.mjs --sizes 1000,100000     TED + the synthetic sizes given
//   node bench/run.mjs --no-ted --sizes 10000  synthetic 10k only
//   node bench/run.mjs --smoke                 synthetic 2k, few queries, sanity checks (CI)
//   node bench/run.mjs --json [file]           also write bench/results/latest.json (or file)
//   --repeat N (measured passes per query), --seed N (synthetic corpus seed), --queries N (per workload)
//   --dist DIR   bundle to benchmark (default dist/; e.g. a copy, to compare builds or to pin one
//                while dist/ is being rebuilt). The bundle's hash is printed and saved with the results.
import { createHash } from 'node:crypto';
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { synthetic, ted, tedVocabulary } from './corpus.mjs';
import { buildQueries, DEFAULT_COUNTS } from './queries.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------- options

function parseArgs(argv) {
  const o = { sizes: null, ted: true, smoke: false, json: null, repeat: null, seed: 1, queries: null, dist: join(ROOT, 'dist') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--sizes') o.sizes = value().split(',').map((x) => parseSize(x.trim()));
    else if (a === '--no-ted') o.ted = false;
    else if (a === '--smoke') o.smoke = true;
    else if (a === '--json') o.json = argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : new URL('results/latest.json', import.meta.url).pathname;
    else if (a === '--repeat') o.repeat = Number(value());
    else if (a === '--seed') o.seed = Number(value());
    else if (a === '--queries') o.queries = Number(value());
    else if (a === '--dist') o.dist = resolve(value());
    else if (a === '--help' || a === '-h') { console.log(readUsage()); process.exit(0); }
    else throw new Error(`unknown option ${a} (see --help)`);
  }
  return o;
}

function parseSize(x) {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(x);
  if (!m) throw new Error(`--sizes: "${x}" is not a number (1000, 10k, 1m)`);
  return Math.round(Number(m[1]) * ({ '': 1, k: 1e3, m: 1e6 }[m[2].toLowerCase()]));
}

function readUsage() {
  return `usage: node bench/run.mjs [--sizes 1000,100000] [--no-ted] [--smoke] [--json [file]] [--repeat N] [--seed N] [--queries N] [--dist DIR]`;
}

// ---------------------------------------------------------------- helpers

v8.setFlagsFromString('--expose-gc');
const gc = globalThis.gc ?? vm.runInNewContext('gc');

function settleHeap() {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage();
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

function stats(samples) {
  const sorted = Float64Array.from(samples).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    mean: sum / sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1],
  };
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const ms = (x) => (Number.isNaN(x) ? '-' : x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0));

function table(headers, rows, align) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (align[i] === 'l' ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** sha256 (12 hex) of a bundle and the chunks it imports, relatively, recursively. */
function bundleHash(entry) {
  const hash = createHash('sha256');
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    hash.update(text);
    for (const m of text.matchAll(/from\s*["'](\.\.?\/[^"']+)["']/g)) visit(join(dirname(file), m[1]));
  };
  visit(entry);
  return { hash: hash.digest('hex').slice(0, 12), files: seen.size, builtAt: statSync(entry).mtime.toISOString() };
}

function gitState() {
  try {
    const head = execSync('git rev-parse --short HEAD', { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execSync('git status --porcelain -- src assembly', { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n').filter(Boolean).map((l) => l.slice(3));
    return { head, dirty };
  } catch {
    return { head: '?', dirty: [] };
  }
}

async function loadLantern(distDir) {
  const entry = join(distDir, 'index.js');
  if (!existsSync(entry)) {
    if (resolve(distDir) !== resolve(ROOT, 'dist')) throw new Error(`${entry} missing`);
    console.error('dist/ missing: running npm run build');
    execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
  }
  const build = { dist: resolve(distDir), ...bundleHash(entry), git: gitState() };
  const { Lantern } = await import(pathToFileURL(entry).href);
  const { fsStorage } = await import(pathToFileURL(join(distDir, 'node.js')).href);
  return { Lantern, fsStorage, build };
}

/**
 * Persistence on the file system: indexing through the durable log, the
 * binary snapshot (size against the records' JSON, time to write), and
 * reopening from it (time, and the first query, which reads records lazily).
 */
async function benchPersistence(Lantern, fsStorage, makeCorpus) {
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

function reportPersistence(p) {
  return `   persistence (fsStorage): indexing ${ms(p.indexMs)} ms through the log; snapshot ${mb(p.snapshotBytes)} ` +
    `(${(p.snapshotBytes / p.jsonBytes).toFixed(2)}× the JSON) in ${ms(p.snapshotMs)} ms; reopen ${ms(p.openMs)} ms ` +
    `(${(p.indexMs / p.openMs).toFixed(1)}× faster than indexing), first query after reopen ${ms(p.firstQueryMs)} ms` +
    `${p.same ? '' : ' ! results differ after reopen'}`;
}

/** The core query the engine would build for `query` on `index` (same settings, 20 hits). */
function coreQueryFor(index, query) {
  const s = index.settings;
  const get = (name, fallback) => (s[name] === undefined || s[name] === null ? fallback : s[name]);
  const typo = get('typoTolerance', true);
  return {
    query,
    queryType: get('queryType', 'prefixLast'),
    typoMode: typo === false || typo === 'false' ? 'off' : typo === 'min' ? 'min' : typo === 'strict' ? 'strict' : 'on',
    minWordSizefor1Typo: get('minWordSizefor1Typo', 4),
    minWordSizefor2Typos: get('minWordSizefor2Typos', 8),
    allowTyposOnNumericTokens: get('allowTyposOnNumericTokens', true),
    exactOnSingleWordQuery: get('exactOnSingleWordQuery', 'attribute'),
    minProximity: get('minProximity', 1),
    criteria: index.ranking.criteria,
    offset: 0,
    length: 20,
    // distinct as the index's settings ask (groups were set up by prepareRanks)
    distinct: s.attributeForDistinct ? (s.distinct === true ? 1 : Number(s.distinct) || 0) : 0,
  };
}

// ---------------------------------------------------------------- one dataset

const WORKLOADS = [
  ['exact', 'exact word'],
  ['multi', 'multi-word'],
  ['asYouType', 'as-you-type'],
  ['typo1', '1 typo'],
  ['typo2', '2 typos'],
];

async function benchDataset(Lantern, makeCorpus, opts) {
  // Heap baseline before the corpus exists; after indexing the harness drops
  // its records, so the delta is what the engine retains (records + index).
  const engine = await Lantern.open({});
  const client = engine.client();
  const before = settleHeap();

  const corpus = makeCorpus();
  const { settings } = corpus;
  let records = corpus.records;
  const indexName = corpus.name;
  const jsonBytes = Buffer.byteLength(JSON.stringify(records));
  const queries = buildQueries(corpus, opts.counts);
  corpus.records = null;

  // Indexing: wall clock from the first batch to the task queue idle.
  await client.setSettings({ indexName, indexSettings: settings });
  await engine.waitForTasks();
  const t0 = performance.now();
  await client.saveObjects({ indexName, objects: records, waitForTasks: false, batchSize: 1000 });
  await engine.waitForTasks();
  const indexMs = performance.now() - t0;
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

  const coreSearch = (q) => core.search(coreQueryFor(index, q));
  const e2eSearch = (q) => client.searchSingleIndex({ indexName, searchParams: { query: q, hitsPerPage: 20, attributesToHighlight: [] } });

  // Warm-up: every query once at each level; also the correctness checks.
  const problems = [];
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

  const workloads = {};
  const slowest = [];
  const byPrefixLength = new Map();
  for (const [key, label] of WORKLOADS) {
    const list = queries[key];
    const coreSamples = [];
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
          byPrefixLength.get(bucket).push(took);
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
  const seen = new Set();
  const topSlow = slowest.filter((s) => !seen.has(s.query) && seen.add(s.query)).slice(0, 8);
  const prefixes = Object.fromEntries(
    ['1', '2', '3', '4+ (first word)', 'second word'].filter((b) => byPrefixLength.has(b)).map((b) => [b, stats(byPrefixLength.get(b))]),
  );

  await engine.close();
  return { dataset: indexName, ...info, workloads, asYouTypeByPrefix: prefixes, slowest: topSlow, problems };
}

/**
 * Filtered + faceted empty queries (the InstantSearch page load and refinement
 * clicks): facet counts on the first two declared facets, with facet filters,
 * numeric ranges and both, built from the index's own top values.
 */
async function filteredWorkload(client, indexName, settings, repeat) {
  const declared = (settings.attributesForFaceting ?? []).map((a) => a.replace(/^\w+\((.+)\)$/, '$1'));
  const facets = declared.slice(0, 2);
  const probe = await client.searchSingleIndex({ indexName, searchParams: { hitsPerPage: 0, facets: declared, maxValuesPerFacet: 5 } });
  const stringFacet = declared.find((a) => !probe.facets_stats?.[a] && probe.facets?.[a]);
  const numericFacet = declared.find((a) => probe.facets_stats?.[a]);
  const filters = [''];
  const quote = (v) => JSON.stringify(v);
  for (const value of Object.keys(probe.facets?.[stringFacet] ?? {}).slice(0, 5)) filters.push(`${stringFacet}:${quote(value)}`);
  if (numericFacet) {
    const { min, max } = probe.facets_stats[numericFacet];
    for (const f of [0.25, 0.5, 0.75]) {
      const cut = Math.round(min + (max - min) * f);
      filters.push(`${numericFacet} >= ${cut}`);
      if (stringFacet) filters.push(`${numericFacet} >= ${cut} AND ${filters[1]}`);
    }
  }
  const samples = [];
  const hits = [];
  const run = (f) => client.searchSingleIndex({ indexName, searchParams: { query: '', filters: f, facets, hitsPerPage: 20, attributesToHighlight: [] } });
  for (const f of filters) hits.push((await run(f)).nbHits);
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

function report(r) {
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

// ---------------------------------------------------------------- main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { Lantern, fsStorage, build } = await loadLantern(opts.dist);
  const datasets = [];
  if (opts.smoke) {
    datasets.push(() => synthetic(opts.sizes?.[0] ?? 2000, opts.seed));
  } else {
    if (opts.ted) datasets.push(() => ted());
    for (const n of opts.sizes ?? [100000]) datasets.push(() => synthetic(n, opts.seed));
  }
  const perWorkload = opts.queries ?? (opts.smoke ? 10 : null);
  const counts = perWorkload
    ? { exact: perWorkload, multi: perWorkload, asYouType: Math.max(1, Math.round(perWorkload / 7)), typo1: perWorkload, typo2: perWorkload }
    : DEFAULT_COUNTS;
  const repeat = opts.repeat ?? (opts.smoke ? 1 : 3);

  const started = performance.now();
  console.log(`Lantern bench — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${mb(os.totalmem())}`);
  const dirty = build.git.dirty.length ? ` + uncommitted ${build.git.dirty.join(', ')}` : '';
  console.log(`engine: ${build.dist}/index.js sha ${build.hash} (built ${build.builtAt}), git ${build.git.head}${dirty}`);
  console.log(`repeat ${repeat}; queries per workload ${JSON.stringify(counts)} (as-you-type = phrases, every prefix queried)`);
  const results = [];
  tedVocabulary(); // cached: outside the heap deltas
  for (const make of datasets) {
    const r = await benchDataset(Lantern, make, { counts, repeat });
    r.persistence = await benchPersistence(Lantern, fsStorage, make);
    results.push(r);
    console.log(report(r));
    console.log(reportPersistence(r.persistence));
  }
  const totalS = (performance.now() - started) / 1000;
  console.log(`\ntotal ${totalS.toFixed(1)} s`);

  if (opts.json) {
    mkdirSync(dirname(opts.json), { recursive: true });
    const doc = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      build,
      options: { repeat, counts, seed: opts.seed, smoke: opts.smoke },
      totalS,
      results,
    };
    writeFileSync(opts.json, JSON.stringify(doc, null, 2) + '\n');
    console.log(`wrote ${opts.json}`);
  }
  const problems = results.flatMap((r) => r.problems);
  if (opts.smoke && problems.length) {
    console.error(`smoke: ${problems.length} problem(s)`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
