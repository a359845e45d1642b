// What an answer allocates and keeps, and what the young collections that
// follow cost: the plain shape's default answers (zipf2 records, typed2
// queries, 10 hits; --set and --shape for others) asked through
// `engine.request` one after another, in a loop that yields no turn (what a
// caller asking in a loop does; the call log's entry of each answer is then
// made at the next one).
//
// Prints the time an answer takes, and the collections during the queries
// (perf_hooks' gc entries: count and pauses, young ones apart). With
// --allocated or --kept, V8's sampling heap profiler runs over the second
// half of the queries (the first half fills the call log's ring), and the
// allocation sites are printed by bytes an answer: every allocation
// (--allocated), or those still alive at the end after a full collection
// (--kept: what the answers leave behind, the call log's entries first).
// Sites are named by their last --depth frames; names need an unminified
// bundle (LANTERN_MINIFY=0 node scripts/build.mjs, then --dist). The
// profiler slows the answers it samples: read times from a run without it.
//
// With --idle MS, the index is left that long before the answers for the
// work an import leaves for idle time (its records packed, src/index/
// record-store.ts): the young collections differ once records are read
// from their packed bytes. V8's choices of what to allocate old
// (allocation-site pretenuring) differ from run to run: compare builds
// over several processes.
//
//   node --max-old-space-size=4096 bench/profile/answer-memory.mjs [--records 100000] [--queries 3000] [--dist dist] [--set zipf2] [--shape typed2] [--idle 3000] [--allocated | --kept] [--depth 2] [--top 25]
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { settleHeap } from '../measure.mjs';
import { TOP } from '../peers.mjs';
import { shapedIndex } from './shaped-index.mjs';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '3000' },
    dist: { type: 'string', default: 'dist' },
    idle: { type: 'string', default: '0' },
    set: { type: 'string', default: 'zipf2' },
    shape: { type: 'string', default: 'typed2' },
    allocated: { type: 'boolean', default: false },
    kept: { type: 'boolean', default: false },
    depth: { type: 'string', default: '2' },
    top: { type: 'string', default: '25' },
  },
});
const { queries, instance } = await shapedIndex(values);
await new Promise((done) => setTimeout(done, Number(values.idle)));
settleHeap();

/** @type {Array<{ young: boolean, ms: number }>} */
const collections = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { kind } = /** @type {{ detail?: { kind?: number } }} */ (entry).detail ?? {};
    collections.push({ young: kind === constants.NODE_PERFORMANCE_GC_MINOR, ms: entry.duration });
  }
});
const ask = (/** @type {string} */ query) => instance.answer({ query, hitsPerPage: TOP });
const sampled = values.allocated || values.kept;
const half = queries.length >> 1;
const session = new Session();
session.connect();

observer.observe({ entryTypes: ['gc'] });
const started = performance.now();
for (const { query } of queries.slice(0, sampled ? half : queries.length)) await ask(query);
if (sampled) {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256, includeObjectsCollectedByMajorGC: values.allocated, includeObjectsCollectedByMinorGC: values.allocated,
  });
  for (const { query } of queries.slice(half)) await ask(query);
}
const elapsed = performance.now() - started;
// what is dead but not collected yet (entries the log's ring overwrote, the last answers' garbage) is not kept
if (values.kept) await session.post('HeapProfiler.collectGarbage');
const profile = sampled ? (await session.post('HeapProfiler.stopSampling')).profile : undefined;
// the gc entries of the last collections are delivered on a later turn
await new Promise((done) => setTimeout(done, 50));
observer.disconnect();

const young = collections.filter((c) => c.young);
const sum = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0);
const profiled = sampled ? ' (half of them profiled: time them without --allocated or --kept)' : '';
console.log(`${queries.length} answers (${values.set} ${values.shape}, ${values.records} records): ${(elapsed / queries.length).toFixed(3)} ms an answer${profiled}`);
console.log(`young collections: ${young.length}, ${sum(young.map((c) => c.ms)).toFixed(1)} ms in all (longest ${Math.max(0, ...young.map((c) => c.ms)).toFixed(2)} ms); other gc entries (full collections, marking steps): ${collections.length - young.length}, ${sum(collections.filter((c) => !c.young).map((c) => c.ms)).toFixed(1)} ms`);
if (profile) printSites(profile, queries.length - half);

/**
 * The sampled bytes by allocation site (its last --depth frames), an answer's share.
 * @param {{ head: SampledNode }} profile
 * @param {number} answers
 */
function printSites(profile, answers) {
  /** @type {Map<string, number>} */
  const bySite = new Map();
  /** @typedef {{ callFrame: { functionName: string, url: string, lineNumber: number }, selfSize: number, children: SampledNode[] }} SampledNode */
  /** @type {(node: SampledNode, stack: string[]) => void} */
  const walk = (node, stack) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const frames = [...stack, `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`];
    if (node.selfSize > 0) {
      const site = frames.slice(-Number(values.depth)).reverse().join(' < ');
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, frames);
  };
  walk(profile.head, []);
  const total = sum([...bySite.values()]);
  // the log's ring keeps its last 1,000 entries: with more answers sampled, what it keeps is spread over them all
  const kept = values.kept ? `kept at the end, over ${answers} answers (the call log keeps its last ${Math.min(answers, 1000)} entries)` : 'allocated';
  console.log(`${kept}: ${(total / answers / 1024).toFixed(1)} KB an answer (sampled); by site:`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    console.log(`${(bytes / answers).toFixed(0).padStart(7)} B  ${site}`);
  }
}
