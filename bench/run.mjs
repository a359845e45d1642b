// Lantern against MiniSearch, FlexSearch, Orama, Lunr and Fuse.js: build
// time, memory, snapshots, query latency per workload, throughput on two
// cores and recall@10 of typo'd queries, on the same records and queries.
//
//   npm run bench                              TED + cities + synthetic 100k, every library (Fuse.js on TED only)
//   npm run bench -- --sizes 100k,1m           synthetic sizes (1m: Lantern only unless --libraries says)
//   npm run bench -- --corpora synthetic --libraries lantern,minisearch
//   npm run bench -- --smoke                   synthetic 2k, few queries, sanity checks (CI)
//   npm run bench -- --json [file]             also write bench/results/latest.json (or file)
//   npm run bench -- --detail                  Lantern alone in depth (core vs API, prefixes, persistence)
//   --repeat N (passes per workload), --runs N (builds per library), --budget MS (time per workload
//   and library before it stops early), --warm-up MS (time after which a workload's warm-up pass over
//   every query may stop short; default 20 s), --qps MS (throughput run per library, 0 = off),
//   --seed N (synthetic corpus seed), --queries N (per workload)
//   --dist DIR   bundle to benchmark (default dist/; e.g. a copy, to compare builds or to pin one
//                while dist/ is being rebuilt). The bundle's hash is printed and saved with the results.
import { createHash } from 'node:crypto';
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import os from 'node:os';
import { makeCorpus, tedVocabulary } from './corpus.mjs';
import { DEFAULT_COUNTS } from './queries.mjs';
import { LIBRARY_KEYS, loadLibraries } from './peers.mjs';
import { compareDataset } from './compare.mjs';
import { reportComparison, smokeProblems } from './report.mjs';
import { benchDataset, benchPersistence, report, reportPersistence } from './lantern-detail.mjs';
import { mb } from './format.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LARGE = 500000;
/** Fuse.js scans every record per query: on larger corpora it runs only when named (--libraries ...,fuse). */
const SCANNER_LIMIT = 20000;

/**
 * @typedef {import('./corpus.mjs').CorpusDescriptor} CorpusDescriptor
 * @typedef {import('./queries.mjs').QueryCounts} QueryCounts
 * @typedef {import('./compare.mjs').Comparison} Comparison
 * @typedef {import('./compare.mjs').CompareOptions} CompareOptions
 * @typedef {typeof import('lantern-search').Lantern} LanternClass
 * @typedef {typeof import('lantern-search/node').fsStorage} FsStorage
 * @typedef {{ counts: QueryCounts, repeat: number }} RunSettings
 */
/**
 * The command line's options (null: not given, a default applies).
 * @typedef {object} Options
 * @property {number[] | null} sizes
 * @property {('ted' | 'cities' | 'synthetic')[] | null} corpora
 * @property {string[] | null} libraries
 * @property {boolean} smoke
 * @property {boolean} detail
 * @property {string | null} json
 * @property {number | null} repeat
 * @property {number | null} runs
 * @property {number | null} budgetMs
 * @property {number | null} warmUpMs
 * @property {number | null} qpsMs
 * @property {number} seed
 * @property {number | null} queries
 * @property {string} dist
 */

// ---------------------------------------------------------------- options

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {Options} */
  const o = {
    sizes: null, corpora: null, libraries: null, smoke: false, detail: false, json: null,
    repeat: null, runs: null, budgetMs: null, warmUpMs: null, qpsMs: null, seed: 1, queries: null, dist: join(ROOT, 'dist'),
  };
  /** @type {(v: string) => string[]} */
  const list = (v) => v.split(',').map((x) => x.trim()).filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--sizes') o.sizes = list(value()).map(parseSize);
    else if (a === '--corpora') o.corpora = /** @type {Options['corpora']} */ (list(value())); // checked below
    else if (a === '--libraries') o.libraries = list(value());
    else if (a === '--no-ted') o.corpora = ['cities', 'synthetic'];
    else if (a === '--smoke') o.smoke = true;
    else if (a === '--detail') o.detail = true;
    else if (a === '--json') o.json = argv[i + 1] && !argv[i + 1].startsWith('--') ? resolve(argv[++i]) : new URL('results/latest.json', import.meta.url).pathname;
    else if (a === '--repeat') o.repeat = Number(value());
    else if (a === '--runs') o.runs = Number(value());
    else if (a === '--budget') o.budgetMs = Number(value());
    else if (a === '--warm-up') o.warmUpMs = Number(value());
    else if (a === '--qps') o.qpsMs = Number(value());
    else if (a === '--seed') o.seed = Number(value());
    else if (a === '--queries') o.queries = Number(value());
    else if (a === '--dist') o.dist = resolve(value());
    else if (a === '--help' || a === '-h') { console.log(readUsage()); process.exit(0); }
    else throw new Error(`unknown option ${a} (see --help)`);
  }
  for (const k of o.libraries ?? []) if (!LIBRARY_KEYS.includes(k)) throw new Error(`--libraries: unknown "${k}" (${LIBRARY_KEYS.join(', ')})`);
  for (const c of o.corpora ?? []) if (!['ted', 'cities', 'synthetic'].includes(c)) throw new Error(`--corpora: unknown "${c}" (ted, cities, synthetic)`);
  return o;
}

/** @param {string} x */
function parseSize(x) {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(x);
  if (!m) throw new Error(`--sizes: "${x}" is not a number (1000, 10k, 1m)`);
  return Math.round(Number(m[1]) * /** @type {Record<string, number>} */ ({ '': 1, k: 1e3, m: 1e6 })[m[2].toLowerCase()]);
}

function readUsage() {
  return 'usage: node bench/run.mjs [--sizes 100k,1m] [--corpora ted,cities,synthetic] [--libraries ' + LIBRARY_KEYS.join(',') +
    '] [--smoke] [--detail] [--json [file]] [--repeat N] [--runs N] [--budget MS] [--warm-up MS] [--qps MS] [--seed N] [--queries N] [--dist DIR]';
}

/**
 * The corpora to run, as descriptors (corpus.mjs makeCorpus).
 * @param {Options} opts
 * @returns {CorpusDescriptor[]}
 */
function corporaOf(opts) {
  if (opts.smoke) return [{ kind: 'synthetic', n: opts.sizes?.[0] ?? 2000, seed: opts.seed }];
  const kinds = opts.corpora ?? ['ted', 'cities', 'synthetic'];
  /** @type {CorpusDescriptor[]} */
  const out = kinds.filter((k) => k !== 'synthetic').map((kind) => ({ kind }));
  if (kinds.includes('synthetic')) for (const n of opts.sizes ?? [100000]) out.push({ kind: 'synthetic', n, seed: opts.seed });
  return out;
}

/**
 * Records of a corpus before it is made (the TED talks and the cities have a known size).
 * @param {CorpusDescriptor} descriptor
 */
function recordsOf(descriptor) {
  return descriptor.n ?? (descriptor.kind === 'ted' ? 2356 : 135233);
}

/**
 * @param {Options} opts
 * @returns {QueryCounts}
 */
function countsOf(opts) {
  const n = opts.queries ?? (opts.smoke ? 10 : null);
  return n ? { exact: n, multi: n, asYouType: Math.max(1, Math.round(n / 7)), typo1: n, typo2: n } : DEFAULT_COUNTS;
}

// ---------------------------------------------------------------- build under test

/**
 * sha256 (12 hex) of a bundle and the chunks it imports, relatively, recursively.
 * @param {string} entry
 */
function bundleHash(entry) {
  const hash = createHash('sha256');
  /** @type {Set<string>} */
  const seen = new Set();
  /** @type {(file: string) => void} */
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

/** @param {string} distDir */
async function loadLantern(distDir) {
  const entry = join(distDir, 'index.js');
  if (!existsSync(entry)) {
    if (resolve(distDir) !== resolve(ROOT, 'dist')) throw new Error(`${entry} missing`);
    console.error('dist/ missing: running npm run build');
    execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
  }
  const build = { dist: resolve(distDir), ...bundleHash(entry), git: gitState() };
  /** @type {typeof import('lantern-search')} */
  const { Lantern } = await import(pathToFileURL(entry).href);
  /** @type {typeof import('lantern-search/node')} */
  const { fsStorage } = await import(pathToFileURL(join(distDir, 'node.js')).href);
  return { Lantern, fsStorage, build };
}
// ---------------------------------------------------------------- main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { Lantern, fsStorage, build } = await loadLantern(opts.dist);
  const counts = countsOf(opts);
  const repeat = opts.repeat ?? (opts.smoke ? 1 : 3);
  const started = performance.now();
  console.log(`Lantern bench — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${mb(os.totalmem())}`);
  const dirty = build.git.dirty.length ? ` + uncommitted ${build.git.dirty.join(', ')}` : '';
  console.log(`engine: ${build.dist}/index.js sha ${build.hash} (built ${build.builtAt}), git ${build.git.head}${dirty}`);
  tedVocabulary(); // cached: outside the heap deltas
  const results = opts.detail
    ? await runDetail(Lantern, fsStorage, opts, { counts, repeat })
    : corporaOf(opts).length > 1
      ? await runEachCorpusApart(opts)
      : await runComparison(opts, { counts, repeat });
  const totalS = (performance.now() - started) / 1000;
  console.log(`\ntotal ${totalS.toFixed(1)} s`);

  if (opts.json) {
    mkdirSync(dirname(opts.json), { recursive: true });
    const doc = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memory: os.totalmem(),
      build,
      mode: opts.detail ? 'detail' : 'comparison',
      options: { repeat, counts, seed: opts.seed, smoke: opts.smoke },
      totalS,
      results,
    };
    writeFileSync(opts.json, JSON.stringify(doc, null, 2) + '\n');
    console.log(`wrote ${opts.json}`);
  }
  const problems = opts.detail
    ? /** @type {import('./lantern-detail.mjs').DatasetDetail[]} */ (results).flatMap((r) => r.problems)
    : smokeProblems(/** @type {Comparison[]} */ (results));
  for (const p of problems) console.error(`! ${p}`);
  if (opts.smoke && problems.length) {
    console.error(`smoke: ${problems.length} problem(s)`);
    process.exit(1);
  }
}

/**
 * Several corpora: each in a child process of its own, so no corpus is
 * measured in a heap full of the previous ones' indexes (the libraries of
 * one corpus still share a process: their ratios are taken pair by pair).
 * @param {Options} opts
 */
async function runEachCorpusApart(opts) {
  /** @type {Comparison[]} */
  const results = [];
  const own = process.argv.slice(2);
  const shared = [];
  for (let i = 0; i < own.length; i++) {
    if (['--corpora', '--sizes', '--json'].includes(own[i])) {
      if (own[i] !== '--json' || (own[i + 1] && !own[i + 1].startsWith('--'))) i++;
      continue;
    }
    if (own[i] === '--no-ted') continue;
    shared.push(own[i]);
  }
  const dir = mkdtempSync(join(os.tmpdir(), 'lantern-bench-'));
  try {
    for (const [i, descriptor] of corporaOf(opts).entries()) {
      const json = join(dir, `${i}.json`);
      const args = [...shared, '--corpora', descriptor.kind, ...(descriptor.n ? ['--sizes', String(descriptor.n)] : []), '--json', json];
      const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...args], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
      // the child's header lines (machine, engine) were printed by this process already
      process.stdout.write(child.stdout.split('\n').slice(2).join('\n').replace(/\ntotal [\d.]+ s\nwrote .*\n?$/, '\n'));
      if (child.status !== 0) throw new Error(`bench of ${descriptor.kind} ${descriptor.n ?? ''} failed (exit ${child.status})`);
      results.push(...JSON.parse(readFileSync(json, 'utf8')).results);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

/**
 * Every library on every corpus; a table per corpus.
 * @param {Options} opts
 * @param {RunSettings} settings
 */
async function runComparison(opts, { counts, repeat }) {
  /** @type {(Comparison & { pid: number })[]} */
  const results = [];
  for (const descriptor of corporaOf(opts)) {
    const large = (descriptor.n ?? 0) >= LARGE;
    // the peers at a million records take longer than the rest of the run: ask for them by name
    const keys = opts.libraries ?? (large ? ['lantern'] : LIBRARY_KEYS.filter((k) => k !== 'fuse' || recordsOf(descriptor) <= SCANNER_LIMIT));
    if (!opts.libraries && !keys.includes('fuse') && !large) console.log(`\n(Fuse.js left out above ${SCANNER_LIMIT.toLocaleString('en')} records: it scans every record per query; --libraries lantern,fuse runs it)`);
    const libraries = await loadLibraries(keys, opts.dist);
    /** @type {CompareOptions} */
    const settings = {
      counts,
      repeat,
      dist: opts.dist,
      runs: opts.runs ?? (opts.smoke || (descriptor.n ?? 0) >= 20000 ? 1 : 3),
      budgetMs: opts.budgetMs ?? (opts.smoke ? 200 : 1500),
      warmUpMs: opts.warmUpMs ?? (opts.smoke ? 800 : 20000),
      minSamples: opts.smoke ? 3 : 20,
      qpsMs: opts.qpsMs ?? (opts.smoke ? 200 : large ? 0 : 2000),
    };
    console.log(`\n== ${descriptor.kind}${descriptor.n ? ` ${descriptor.n.toLocaleString('en')}` : ''}: ${libraries.map((l) => l.name).join(', ')}` +
      ` (builds ${settings.runs}, passes ${repeat}, ${settings.budgetMs} ms per workload, throughput ${settings.qpsMs} ms)`);
    const r = await compareDataset(libraries, () => makeCorpus(descriptor), descriptor, settings, (line) => process.stderr.write(`${line}\n`));
    results.push({ ...r, pid: process.pid }); // the process that measured it (one per corpus, see runEachCorpusApart)
    console.log(reportComparison(r));
  }
  return results;
}

/**
 * Lantern alone, in depth (the report before the peers were added).
 * @param {LanternClass} Lantern
 * @param {FsStorage} fsStorage
 * @param {Options} opts
 * @param {RunSettings} settings
 */
async function runDetail(Lantern, fsStorage, opts, { counts, repeat }) {
  console.log(`repeat ${repeat}; queries per workload ${JSON.stringify(counts)} (as-you-type = phrases, every prefix queried)`);
  const results = [];
  for (const descriptor of corporaOf({ ...opts, corpora: opts.corpora ?? ['ted', 'synthetic'] })) {
    const make = () => makeCorpus(descriptor);
    const detail = await benchDataset(Lantern, make, { counts, repeat });
    const r = Object.assign(detail, { persistence: await benchPersistence(Lantern, fsStorage, make) });
    results.push(r);
    console.log(report(r));
    console.log(reportPersistence(r.persistence));
  }
  return results;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
