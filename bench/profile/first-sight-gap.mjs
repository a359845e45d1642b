// What a query at first sight pays that the same query seen again does
// not: the state of the process (code V8 has not optimised yet, a young
// generation not grown yet) or the state of the index (records not decoded
// yet, chunks not inflated, key orders not copied yet). Lantern alone: the
// records of a shape of bench/shapes.mjs imported, 50 untimed queries, then
// each timed query asked once ("first") and once more ("again"), as
// shapes.mjs asks them (the default answer, 10 hits).
//
// --warm N asks N other queries of another index first, before the timed
// index is built: of the same records (--warm-set, by default the shape's:
// code and V8's shapes of the records warm, the timed index's records still
// undecoded) or of other records (code warm only). The first-sight figure
// that drops with --warm is the process's; what is left over "again" is the
// index's. With --profile, the CPU profiles of both passes are written
// (first.cpuprofile, again.cpuprofile: names need an unminified bundle) and
// the functions whose self samples differ most are printed.
//
//   node --max-old-space-size=4096 bench/profile/first-sight-gap.mjs [--set ted] [--shape typoAny] [--records 100000] [--queries 300] [--warm 0] [--warm-set cities] [--dist dist] [--profile]
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { flatDocument, loadLibraries, TOP } from '../peers.mjs';
import { recordSets } from '../corpus.mjs';
import { settleHeap, stats } from '../measure.mjs';
import { QUERY_SHAPES, shapedQueries } from '../queries.mjs';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'ted' },
    shape: { type: 'string', default: 'typoAny' },
    records: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    warm: { type: 'string', default: '0' },
    'warm-set': { type: 'string' },
    dist: { type: 'string', default: 'dist' },
    profile: { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
  },
});
const WARMUP = 50;
const sets = recordSets(Number(values.records));
const shape = QUERY_SHAPES[/** @type {keyof typeof QUERY_SHAPES} */ (values.shape)];
const makeCorpus = sets[values.set];
const makeWarmCorpus = sets[values['warm-set'] ?? values.set];
if (!makeCorpus || !makeWarmCorpus || !shape) throw new Error(`--set, --warm-set: one of ${Object.keys(sets).join(', ')}; --shape: one of ${Object.keys(QUERY_SHAPES).join(', ')}`);

const [lantern] = await loadLibraries(['lantern'], resolve(values.dist));
/** @type {(corpus: import('../corpus.mjs').Corpus) => Promise<import('../peers.mjs').LanternInstance>} */
const build = async (corpus) => /** @type {import('../peers.mjs').LanternInstance} */ (
  await lantern.build({ ...corpus, documents: corpus.records.map((r) => flatDocument(r, corpus.peer)) }));
/** @type {(instance: import('../peers.mjs').LanternInstance, query: string) => Promise<unknown>} */
const ask = (instance, query) => instance.answer({ query, hitsPerPage: TOP });

if (Number(values.warm) > 0) {
  const corpus = makeWarmCorpus();
  const warmer = await build(corpus);
  // another seed: none of these is a timed query
  for (const { query } of shapedQueries(corpus, Number(values.warm), 99, shape)) await ask(warmer, query);
  await warmer.close();
}
const corpus = makeCorpus();
const queries = shapedQueries(corpus, WARMUP + Number(values.queries), 25, shape);
const instance = await build(corpus);
settleHeap();
for (const { query } of queries.slice(0, WARMUP)) await ask(instance, query);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
/** @type {Record<string, import('node:inspector').Profiler.Profile>} */
const profiles = {};
for (const pass of ['first', 'again']) {
  if (values.profile) await session.post('Profiler.start');
  const times = [];
  for (const { query } of queries.slice(WARMUP)) {
    const started = performance.now();
    await ask(instance, query);
    times.push(performance.now() - started);
  }
  if (values.profile) profiles[pass] = (await session.post('Profiler.stop')).profile;
  const { p50, p99 } = stats(times);
  console.log(`${pass.padEnd(5)} p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(2)} ms`);
}
await instance.close();

if (values.profile) {
  /** @type {(profile: import('node:inspector').Profiler.Profile) => Map<string, number>} self samples per function */
  const selfSamples = (profile) => {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    /** @type {Map<string, number>} */
    const self = new Map();
    for (const id of (profile.samples ?? []).slice(1)) {
      const { callFrame } = /** @type {import('node:inspector').Profiler.ProfileNode} */ (nodes.get(id));
      const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').pop()}:${callFrame.lineNumber + 1}`;
      self.set(name, (self.get(name) ?? 0) + 1);
    }
    return self;
  };
  const [first, again] = [profiles.first, profiles.again].map(selfSamples);
  for (const [pass, profile] of Object.entries(profiles)) writeFileSync(`${pass}.cpuprofile`, JSON.stringify(profile));
  console.log('self samples: first, again, difference');
  const names = [...new Set([...first.keys(), ...again.keys()])];
  const gap = (/** @type {string} */ name) => (first.get(name) ?? 0) - (again.get(name) ?? 0);
  for (const name of names.sort((a, b) => gap(b) - gap(a)).slice(0, Number(values.top))) {
    console.log(`${String(first.get(name) ?? 0).padStart(7)} ${String(again.get(name) ?? 0).padStart(7)} ${String(gap(name)).padStart(7)}  ${name}`);
  }
}
