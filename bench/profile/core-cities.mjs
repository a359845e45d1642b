// The core's side of importing the 135k cities: their names added to fresh
// CoreIndexes in batches of 250, as the engine does. With several --dist
// dirs, an A/B in one process (each build a round in turn; the medians
// printed). To count one import's instructions or page faults, run it alone
// with --rounds 1, less a run with --skip (corpus, bundle and start-up):
//
//   valgrind --tool=cachegrind --cache-sim=no node --single-threaded --predictable \
//     bench/profile/core-cities.mjs --dist DIST --rounds 1 [--skip]
//   perf stat -e page-faults node bench/profile/core-cities.mjs --dist DIST --rounds 1 [--skip]
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cities } from '../corpus.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', multiple: true, default: ['dist'] },
    rounds: { type: 'string', default: '5' },
    skip: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const documents = cities().records.map((r, id) => ({ id, segments: [{ attribute: 0, text: r.name }] }));

const classes = [];
for (const dist of values.dist) {
  const { Lantern } = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
  const engine = await Lantern.open({});
  await engine.client().saveObjects({ indexName: 'core', objects: [{ objectID: '1' }] });
  await engine.waitForTasks();
  classes.push(engine.index('core').coreIndex.constructor);
  await engine.close?.();
}

const times = values.dist.map(() => /** @type {number[]} */ ([]));
for (let round = 0; round < rounds && !values.skip; round++) {
  for (let i = 0; i < classes.length; i++) {
    const core = new classes[i]();
    core.setAttributes([{ rank: 0, unordered: false }]);
    const start = performance.now();
    for (let at = 0; at < documents.length; at += 250) core.addDocuments(documents.slice(at, at + 250));
    times[i].push(performance.now() - start);
    if (round === 0 && i === 0) console.log('terms', core.termCount, 'memory MB', (core.memoryBytes / 1e6).toFixed(1));
    core.dispose?.();
  }
}
for (let i = 0; i < classes.length && !values.skip; i++) {
  const sorted = [...times[i]].sort((a, b) => a - b);
  console.log(values.dist[i], 'median ms', sorted[sorted.length >> 1].toFixed(1), '|', times[i].map((t) => t.toFixed(0)).join(' '));
}
