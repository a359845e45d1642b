// Searches of an index whose records are updated in place: each round
// writes every record again through the batch API (its `score` changed,
// nothing searchable), waits for the tasks, then asks the shape's queries,
// each new to the index since its last write. Prints per round the record
// ids issued so far (the span of every search's bitmaps: each version of a
// record takes a new id), and the p50 / p99 of the default answer (10 hits)
// and of the objectID-only answer, the round's writes' seconds and the
// memory the index's core holds. With several --dist, each build gets its
// own index in the same process, rounds in turn.
//
//   node --max-old-space-size=6144 bench/updated-in-place.mjs [--dist dist] [--dist OTHER] [--records 100000] [--rounds 6] [--queries 300] [--set zipf2] [--shape typed2]
import { parseArgs } from 'node:util';
import { stats } from './measure.mjs';
import { mb, ms, table } from './format.mjs';
import { shapedIndex } from './profile/shaped-index.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', multiple: true, default: ['dist'] },
    records: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '6' },
    queries: { type: 'string', default: '300' },
    set: { type: 'string', default: 'zipf2' },
    shape: { type: 'string', default: 'typed2' },
  },
});
const rounds = Number(values.rounds);
const perRound = Number(values.queries);

/** @typedef {{ dist: string } & Awaited<ReturnType<typeof shapedIndex>>} Build */
/** @type {Build[]} */
const builds = [];
for (const dist of values.dist) {
  const { corpus, queries, instance } = await shapedIndex({ ...values, queries: String(perRound * (rounds + 1)), dist });
  builds.push({ dist, corpus, queries, instance });
}

/** @type {(samples: number[]) => string} */
const p50p99 = (samples) => { const { p50, p99 } = stats(samples); return `${ms(p50)} / ${ms(p99)}`; };

/** Times this round's queries: the default answer and objectID only, in turns. @param {Build} build @param {number} round */
async function timeRound(build, round) {
  const asked = build.queries.slice(round * perRound, (round + 1) * perRound);
  /** @type {number[]} */ const full = [];
  /** @type {number[]} */ const ids = [];
  for (const [i, { query }] of asked.entries()) {
    const started = performance.now();
    if (i % 2 === 0) await build.instance.answer({ query, hitsPerPage: 10 });
    else await build.instance.search(query);
    (i % 2 === 0 ? full : ids).push(performance.now() - started);
  }
  return [full, ids];
}

/** Writes every record again with another score. @param {Build} build @param {number} round */
async function updateAll(build, round) {
  const { engine } = build.instance;
  const objects = build.corpus.records.map((/** @type {Record<string, unknown>} */ r, /** @type {number} */ i) => ({ ...r, score: (i * 7919 + round * 104729) % 1000003 }));
  await engine.client().saveObjects({ indexName: build.corpus.name, objects, waitForTasks: false, batchSize: 1000 });
  await engine.waitForTasks();
}

/** @type {string[][]} */
const rows = [];
for (let round = 0; round <= rounds; round++) {
  for (const build of builds) {
    const writing = performance.now();
    if (round > 0) await updateAll(build, round);
    const written = (performance.now() - writing) / 1000;
    const [full, ids] = await timeRound(build, round);
    const index = build.instance.engine.index(build.corpus.name);
    rows.push([build.dist, String(round), round > 0 ? written.toFixed(2) : '-', index.capacity.toLocaleString('en'), p50p99(full), p50p99(ids), mb(index.memoryBytes)]);
  }
}
console.log(`${values.set} ${Number(values.records).toLocaleString('en')} records, every record written again each round, ${perRound} ${values.shape} queries a round`);
console.log(table(['build', 'round', 'writes s', 'ids issued', 'default answer p50 / p99 ms', 'objectID only p50 / p99 ms', 'core memory'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
for (const build of builds) await build.instance.engine.close();
