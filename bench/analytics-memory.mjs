// What a server's analytics hold as searches are answered: the heap after
// every step of searches (after full collections), the searches the event
// store keeps, and a snapshot's time and size at the end, on the file
// store (automatic snapshots at their default pace), and the time to open
// the store again after a close. With several --max values, each gets an
// engine of its own in turn (one process: compare the rows of one run).
// The index is small (5,000 records) so that the searches come fast; each
// search is recorded for analytics as any served search is.
//
//   node --expose-gc bench/analytics-memory.mjs [--dist dist] [--searches 400000] [--step 100000] [--max 200000] [--max 100000000]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { settleHeap } from './measure.mjs';
import { mb, table } from './format.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    searches: { type: 'string', default: '400000' },
    step: { type: 'string', default: '100000' },
    max: { type: 'string', multiple: true, default: ['200000', '100000000'] },
  },
});
const { Lantern } = await import(pathToFileURL(join(resolve(values.dist), 'index.js')).href);
const { fsStorage } = await import(pathToFileURL(join(resolve(values.dist), 'node.js')).href);

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(' ');
const records = Array.from({ length: 5000 }, (_, i) => ({ objectID: `record-${i}`, title: `${WORDS[i % 20]} ${WORDS[(i * 7) % 20]} ${WORDS[(i * 13) % 20]}`, n: i }));

/** Bytes under `dir`, every file. @type {(dir: string) => number} */
const sizeOf = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);

/** @type {(max: number) => Promise<string[][]>} */
async function run(max) {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-analytics-'));
  const base = settleHeap().heapUsed;
  const engine = await Lantern.open({ storage: fsStorage(dir), maxAnalyticsEvents: max });
  const client = engine.client();
  await client.saveObjects({ indexName: 'bench', objects: records, waitForTasks: true });
  const rows = [];
  const total = Number(values.searches);
  const step = Number(values.step);
  for (let done = 0; done < total;) {
    const started = performance.now();
    for (const end = done + step; done < end; done++) {
      await client.searchSingleIndex({ indexName: 'bench', searchParams: { query: WORDS[done % 20].slice(0, 3 + (done % 3)), userToken: `user-${done % 1000}` } });
    }
    const seconds = (performance.now() - started) / 1000;
    rows.push([max.toLocaleString('en'), done.toLocaleString('en'), engine.analytics.store.searches.length.toLocaleString('en'), mb(settleHeap().heapUsed - base), (step / seconds).toFixed(0), '', '', '']);
  }
  const started = performance.now();
  await engine.snapshot();
  const last = rows[rows.length - 1];
  last[5] = `${(performance.now() - started).toFixed(0)} ms`;
  last[6] = mb(sizeOf(dir));
  await engine.close();
  const opening = performance.now();
  const reopened = await Lantern.open({ storage: fsStorage(dir), maxAnalyticsEvents: max });
  last[7] = `${(performance.now() - opening).toFixed(0)} ms`;
  await reopened.close();
  rmSync(dir, { recursive: true, force: true });
  return rows;
}

const rows = [];
for (const max of values.max) rows.push(...await run(Number(max)));
console.log(table(['maxAnalyticsEvents', 'searches', 'kept', 'heap', 'searches/s', 'snapshot', 'store on disk', 'reopen'], rows, ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
