// The first search after an import: what a user waits for right after
// loading records. It pays for what the import left to the first reader:
// the orders of customRanking and of ties sorted whole, the walk's copy of
// the dictionary trie, the caches laid out. Records are imported in memory
// through the official client (batches of 1,000) until the last task is
// applied, then one search is timed; with a second build, both run in turns
// in one process (this machine's speed drifts: only ratios taken so mean
// something). Each figure is the median of the rounds. With --pause MS, the
// search comes that long after the import: what was left for it is done
// once writes pause (the rank orders, the walk's copy of the trie), and it
// finds it done. With no pause, it comes at once and does it itself.
//
//   node --max-old-space-size=4096 bench/first-search.mjs [--dist dist] [--dist OTHER] [--sets cities,ted,synthetic] [--rounds 5] [--pause 0]
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { recordSets } from './corpus.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', multiple: true, default: ['dist'] },
    sets: { type: 'string', default: 'cities,ted,synthetic' },
    records: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    query: { type: 'string', default: 'san' },
    pause: { type: 'string', default: '0' },
  },
});
const builds = await Promise.all(values.dist.map(async (dist) => ({ dist, ...(await import(pathToFileURL(join(resolve(dist), 'index.js')).href)) })));
const sets = recordSets(Number(values.records));

/**
 * Imports `corpus` into a new in-memory engine of `build`, then times one search: [import ms, first search ms].
 * @param {{ Lantern: any }} build
 * @param {import('./corpus.mjs').Corpus} corpus
 * @returns {Promise<number[]>}
 */
async function importThenSearch(build, corpus) {
  const engine = await build.Lantern.open({});
  const client = engine.client();
  await client.setSettings({ indexName: corpus.name, indexSettings: corpus.settings });
  await engine.waitForTasks();
  const started = performance.now();
  await client.saveObjects({ indexName: corpus.name, objects: corpus.records, waitForTasks: false, batchSize: 1000 });
  await engine.waitForTasks();
  const imported = performance.now();
  if (Number(values.pause) > 0) await new Promise((resolve) => setTimeout(resolve, Number(values.pause)));
  const asked = performance.now();
  await client.searchSingleIndex({ indexName: corpus.name, searchParams: { query: values.query } });
  const searched = performance.now();
  await engine.close();
  return [imported - started, searched - asked];
}

const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const name of values.sets.split(',')) {
  const makeSet = sets[name];
  if (!makeSet) throw new Error(`--sets: names of ${Object.keys(sets).join(', ')}, not ${name}`);
  const corpus = makeSet();
  /** @type {number[][][]} per build, per round: [import, first search] */
  const times = builds.map(() => []);
  for (let round = 0; round < Number(values.rounds); round++) {
    const turn = round % 2 === 0 ? builds.keys() : [...builds.keys()].reverse();
    for (const k of turn) times[k].push(await importThenSearch(builds[k], corpus));
  }
  console.log(`\n${name}: ${corpus.records.length.toLocaleString('en')} records, median of ${values.rounds} rounds${Number(values.pause) > 0 ? `, the search ${values.pause} ms after the import` : ''}`);
  for (const [k, { dist }] of builds.entries()) {
    const first = median(times[k].map((t) => t[1]));
    const ratio = k > 0 ? ` (${(first / median(times[0].map((t) => t[1]))).toFixed(3)}x the first build's)` : '';
    console.log(`  ${dist}: import ${median(times[k].map((t) => t[0])).toFixed(0)} ms, first search ${first.toFixed(1)} ms${ratio}`);
  }
}
