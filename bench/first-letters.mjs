// The first keystroke of a search: the 26 one-letter prefixes, each asked
// first after a bulk import, a few searches and a pause (--wait ms, 3,000
// by default: an index builds its one-letter prefixes' cache entries once
// writes pause, a large one after its first search; --wait 0 asks at
// once), then ten times over. A one-letter prefix reads
// the largest subtree any query reads; on records of many distinct words
// (the cities' names) it holds thousands of terms of a posting or two.
// The default answer (hitsPerPage 10); the searches before are 20 untimed
// queries of whole titles. With several --dist, the builds are
// asked in turns in one process (which one first alternates): the ratios
// are taken in one process, the machine's speed drifting hour to hour.
//
//   node --max-old-space-size=6144 bench/first-letters.mjs [--set cities] [--records 100000] [--wait 3000] [--dist dist ...]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { flatDocument, loadLibraries, TOP } from './peers.mjs';
import { recordSets } from './corpus.mjs';
import { settleHeap } from './measure.mjs';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'cities' },
    records: { type: 'string', default: '100000' },
    wait: { type: 'string', default: '3000' },
    dist: { type: 'string', multiple: true, default: ['dist'] },
  },
});
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];
const AGAIN = 10;
const WARMUP = 20;
const makeCorpus = recordSets(Number(values.records))[values.set];
if (!makeCorpus) throw new Error(`--set: one of ${Object.keys(recordSets(0)).join(', ')}`);
const corpus = makeCorpus();

/** @type {Array<{ dist: string, instance: import('./peers.mjs').LanternInstance, first: number[], again: number[] }>} */
const builds = [];
for (const dist of values.dist) {
  const [lantern] = await loadLibraries(['lantern'], resolve(dist));
  const instance = /** @type {import('./peers.mjs').LanternInstance} */ (await lantern.build({ ...corpus, documents: corpus.records.map((r) => flatDocument(r, corpus.peer)) }));
  builds.push({ dist, instance, first: [], again: [] });
}
settleHeap();
// untimed: whole titles, so that the first letter timed is not the process's first answer (and
// an index of 65,536 records or more has laid its caches out, which its warming waits for)
for (const record of corpus.records.slice(0, WARMUP)) for (const { instance } of builds) await instance.answer({ query: corpus.title(record) ?? '', hitsPerPage: TOP });
await new Promise((done) => setTimeout(done, Number(values.wait)));

/**
 * Asks `letter` of every build in turns, the order alternating with `turn`, each time into `into`'s list.
 * @param {string} letter @param {number} turn @param {'first' | 'again'} into
 */
async function askAll(letter, turn, into) {
  const order = turn % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) {
    const started = performance.now();
    await build.instance.answer({ query: letter, hitsPerPage: TOP });
    build[into].push(performance.now() - started);
  }
}
for (const [i, letter] of LETTERS.entries()) await askAll(letter, i, 'first');
for (let pass = 0; pass < AGAIN; pass++) for (const [i, letter] of LETTERS.entries()) await askAll(letter, i + pass, 'again');

const median = (/** @type {number[]} */ times) => [...times].sort((a, b) => a - b)[times.length >> 1];
console.log(`${corpus.name}: the ${LETTERS.length} one-letter prefixes, asked first ${values.wait} ms after the import and ${WARMUP} searches, then ${AGAIN} times over (default answer, ms)`);
for (const { dist, instance, first, again } of builds) {
  console.log(`${dist}: first median ${median(first).toFixed(2)}, max ${Math.max(...first).toFixed(2)} | again median ${median(again).toFixed(3)} | prefix cache entries ${instance.index.coreIndex.prefixCacheEntries}`);
}
if (builds.length > 1) {
  const [a, ...others] = builds;
  for (const b of others) console.log(`${b.dist} / ${a.dist}: first ${(median(b.first) / median(a.first)).toFixed(3)}, again ${(median(b.again) / median(a.again)).toFixed(3)}`);
}
