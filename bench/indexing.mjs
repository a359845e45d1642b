// Indexing time in one process: Lantern in memory, Lantern on the file
// store, and MiniSearch, on the synthetic corpus and the TED talks, with
// Lantern's lead over MiniSearch as a ratio. Lantern is fed through its API
// (the official client's saveObjects, batches of 1,000, in process) and timed
// until every task is applied (on files: the log written and synced);
// MiniSearch gets the flat documents bench/run.mjs gives it (addAll). Turns
// alternate between the contenders and each figure is the median of the
// runs: this machine's speed drifts by tens of percent, so only the ratios
// are worth comparing across runs. Beside the wall-clock time, the process's
// CPU time (user and system, every thread: the thread pool's deflating
// counts), which other work on a shared machine moves less. Last, the memory
// a Lantern index of the synthetic corpus holds in memory, each build in a
// process of its own (in one process, an engine closed before is let go
// at no predictable time): heap and external memory (array buffers, the
// WebAssembly memory) after three full collections, two seconds after its
// last task (work left to the background done), less the same before it
// was opened. Packed chunks not deflated yet count there.
//
// With --sets, other record sets of bench/shapes.mjs are timed the same way
// after the synthetic corpus (corpus.mjs recordSets: zipf2 and zipf6 of
// --synthetic records, the 135k cities), so that the lead is read on more
// than one generator; --sets '' skips them.
//
//   node bench/indexing.mjs [--dist dist] [--dist OTHER_DIST] [--synthetic 100000] [--runs 3] [--ted-runs 7] [--sets zipf2,zipf6,cities]
//   (a second --dist is timed beside the first: an A/B of two builds)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import { recordSets, synthetic, ted } from './corpus.mjs';
import { flatDocument } from './peers.mjs';
import { median, settleHeap } from './measure.mjs';
import { mb, table } from './format.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', multiple: true, default: ['dist'] },
    synthetic: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    'ted-runs': { type: 'string', default: '7' },
    'memory-of': { type: 'string' },
    sets: { type: 'string', default: 'zipf2,zipf6,cities' },
  },
});

/**
 * @typedef {import('./corpus.mjs').Corpus & { documents: import('./peers.mjs').FlatDoc[] }} BenchCorpus
 * @typedef {{ name: string, build(corpus: BenchCorpus): Promise<{ close(): Promise<void> }> }} Contender
 */

/** Lantern from a bundle, in memory or on files (a fresh directory per build). @type {(dist: string, label: string, onFiles: boolean) => Promise<Contender>} */
async function lantern(dist, label, onFiles) {
  const { Lantern } = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
  const { fsStorage } = await import(pathToFileURL(join(resolve(dist), 'node.js')).href);
  return {
    name: `Lantern${label} ${onFiles ? 'files' : 'memory'}`,
    async build(corpus) {
      const dir = onFiles ? mkdtempSync(join(tmpdir(), 'lantern-indexing-')) : undefined;
      const engine = await Lantern.open(dir ? { storage: fsStorage(dir) } : {});
      const client = engine.client();
      await client.setSettings({ indexName: corpus.name, indexSettings: corpus.settings });
      await engine.waitForTasks();
      await client.saveObjects({ indexName: corpus.name, objects: corpus.records, waitForTasks: false, batchSize: 1000 });
      await engine.waitForTasks();
      return {
        async close() {
          await engine.close();
          if (dir) rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** @type {Contender} */
const miniSearch = {
  name: 'MiniSearch',
  async build(corpus) {
    const { peer } = corpus;
    const ms = new MiniSearch({ idField: 'id', fields: peer.fields, storeFields: [peer.tagField, peer.numeric] });
    ms.addAll(corpus.documents);
    return { close: async () => { ms.removeAll(); } };
  },
};

const n = Number(values.synthetic);

/**
 * The memory an in-memory index of `n` synthetic records holds (see the
 * head comment), printed as JSON: this process's part of the run.
 * @type {(dist: string) => Promise<void>}
 */
async function printMemoryOf(dist) {
  const { Lantern } = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
  const corpus = synthetic(n);
  const before = settleHeap();
  const engine = await Lantern.open({});
  const client = engine.client();
  await client.setSettings({ indexName: corpus.name, indexSettings: corpus.settings });
  await client.saveObjects({ indexName: corpus.name, objects: corpus.records, waitForTasks: false, batchSize: 1000 });
  await engine.waitForTasks();
  await new Promise((done) => setTimeout(done, 2000));
  const after = settleHeap();
  console.log(JSON.stringify({ heap: after.heapUsed - before.heapUsed, external: after.external - before.external }));
  await engine.close();
}

if (values['memory-of']) {
  await printMemoryOf(values['memory-of']);
  process.exit(0);
}

/** @type {Contender[]} */
const contenders = [];
for (const [i, dist] of values.dist.entries()) {
  const label = values.dist.length > 1 ? ` ${String.fromCharCode(65 + i)}` : '';
  contenders.push(await lantern(dist, label, false), await lantern(dist, label, true));
}
contenders.push(miniSearch);

/** @type {(made: import('./corpus.mjs').Corpus) => BenchCorpus} */
const withDocuments = (made) => Object.assign(made, { documents: made.records.map((r) => flatDocument(r, made.peer)) });

/** @typedef {{ ms: number, cpu: number }} Measured medians: wall-clock and CPU milliseconds */

/** One build, timed (wall-clock and CPU milliseconds), then closed. @type {(contender: Contender, corpus: BenchCorpus) => Promise<Measured>} */
async function buildOnce(contender, corpus) {
  settleHeap(); // the build before's garbage is collected now, not during this one
  const cpuBefore = process.cpuUsage();
  const before = performance.now();
  const built = await contender.build(corpus);
  const ms = performance.now() - before;
  const { user, system } = process.cpuUsage(cpuBefore);
  await built.close();
  return { ms, cpu: (user + system) / 1000 };
}

/**
 * Each contender's medians over `runs` (turns alternated).
 * @type {(corpus: BenchCorpus, runs: number) => Promise<Map<string, Measured>>}
 */
async function measure(corpus, runs) {
  /** @type {Map<string, { ms: number[], cpu: number[] }>} */
  const seen = new Map(contenders.map((c) => [c.name, { ms: [], cpu: [] }]));
  for (let r = 0; r < runs; r++) {
    for (const contender of r % 2 === 0 ? contenders : [...contenders].reverse()) {
      const { ms, cpu } = await buildOnce(contender, corpus);
      const entry = seen.get(contender.name);
      entry?.ms.push(ms);
      entry?.cpu.push(cpu);
    }
  }
  return new Map([...seen].map(([name, { ms, cpu }]) => [name, { ms: median(ms), cpu: median(cpu) }]));
}

/** Prints one corpus's table: times, and MiniSearch's over this one's. @type {(title: string, results: Map<string, Measured>) => void} */
function report(title, results) {
  const mini = results.get('MiniSearch');
  console.log(`\n== ${title}`);
  console.log(table(
    ['contender', 'wall (ms)', 'MiniSearch / this', 'CPU (ms)', 'MiniSearch / this'],
    [...results].map(([name, { ms, cpu }]) => [name, ms.toFixed(0), ((mini?.ms ?? NaN) / ms).toFixed(2), cpu.toFixed(0), ((mini?.cpu ?? NaN) / cpu).toFixed(2)]),
    ['l', 'r', 'r', 'r', 'r'],
  ));
}

// warm-up: every contender's code compiled before anything is timed
const warm = withDocuments(ted());
for (const contender of contenders) await (await contender.build(warm)).close();

console.log(`Node ${process.version}; ${values.dist.map((d, i) => `${values.dist.length > 1 ? String.fromCharCode(65 + i) + ': ' : ''}${resolve(d)}`).join(', ')}`);
report(`synthetic ${n.toLocaleString('en')} (median of ${values.runs})`, await measure(withDocuments(synthetic(n)), Number(values.runs)));
for (const name of values.sets.split(',').filter(Boolean)) {
  const make = /** @type {Record<string, () => import('./corpus.mjs').Corpus>} */ (recordSets(n))[name];
  if (!make) throw new Error(`--sets: names among ${Object.keys(recordSets(0)).join(', ')}`);
  const corpus = withDocuments(make());
  report(`${name} ${corpus.records.length.toLocaleString('en')} (median of ${values.runs})`, await measure(corpus, Number(values.runs)));
}
report(`ted ${warm.records.length.toLocaleString('en')} (median of ${values['ted-runs']})`, await measure(warm, Number(values['ted-runs'])));

console.log(`\n== memory an in-memory index of ${n.toLocaleString('en')} synthetic records holds (a process each)`);
console.log(table(
  ['build', 'heap', 'external', 'total'],
  values.dist.map((dist) => {
    const out = execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--memory-of', dist, '--synthetic', String(n)], { encoding: 'utf8' });
    const { heap, external } = JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
    return [resolve(dist), mb(heap), mb(external), mb(heap + external)];
  }),
  ['l', 'r', 'r', 'r'],
));
