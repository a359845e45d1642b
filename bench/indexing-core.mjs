// The core's share of indexing alone: `n` synthetic records handed to a
// fresh core index (src/core/core-index.ts) in the engine's batches of 250,
// as an import hands them (title, description unordered, each tag, speaker:
// bench/corpus.mjs's settings), without the record store, the log or the
// API. Prints the CPU time of the adds. On a shared machine CPU times move by
// tens of percent, so compare builds by the instructions they take instead,
// under cachegrind with V8's predictable mode (its background threads off),
// less a run that skips the adds (corpus, bundle and start-up):
//
//   valgrind --tool=cachegrind --cache-sim=yes node --predictable bench/indexing-core.mjs --dist DIST [--synthetic 20000] [--skip] [--engine [--files]]
//
// (two runs of one build differ by ~0.3% of the adds' instructions, now and
// then by ~2%: take the lower of two or three). With --engine, the records
// are saved through the API instead (an in-memory engine, the client's
// saveObjects in batches of 1,000, until the last task is applied), as
// bench/indexing.mjs times them: the whole import, counted the same way;
// with --files too, on the file store (a fresh directory), log included
// (the instructions of this process: fsync's wait in the kernel is not).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { synthetic } from './corpus.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    synthetic: { type: 'string', default: '20000' },
    skip: { type: 'boolean', default: false },
    engine: { type: 'boolean', default: false },
    files: { type: 'boolean', default: false },
  },
});

/** The engine's batch of records per call into the core (CORE_BATCH, src/index/search-index.ts). */
const BATCH = 250;

const corpus = synthetic(Number(values.synthetic));
/** Attribute ids in rank order, as the synthetic settings' searchableAttributes give them. */
const documents = corpus.records.map((r, id) => ({
  id,
  segments: [
    { attribute: 0, text: r.title },
    { attribute: 1, text: r.description },
    ...r.tags.map((/** @type {string} */ tag) => ({ attribute: 2, text: tag })),
    { attribute: 3, text: r.speaker },
  ],
}));

// the bundle does not export the core index: an index's gives its class
const { Lantern } = await import(pathToFileURL(join(resolve(values.dist), 'index.js')).href);
const { fsStorage } = await import(pathToFileURL(join(resolve(values.dist), 'node.js')).href);
const engine = await Lantern.open({});
await engine.client().saveObjects({ indexName: 'core', objects: [{ objectID: '1' }] });
await engine.waitForTasks();
const CoreIndex = engine.index('core').coreIndex.constructor;
const core = new CoreIndex();
core.setAttributes([0, 1, 2, 3].map((rank) => ({ rank, unordered: rank === 1 })));

/** Saves the corpus through the API of a fresh engine (in memory, or on files with --files), as bench/indexing.mjs does. */
async function importWhole() {
  const dir = values.files ? mkdtempSync(join(tmpdir(), 'lantern-indexing-core-')) : undefined;
  const whole = await Lantern.open(dir ? { storage: fsStorage(dir) } : {});
  const client = whole.client();
  await client.setSettings({ indexName: corpus.name, indexSettings: corpus.settings });
  await whole.waitForTasks();
  await client.saveObjects({ indexName: corpus.name, objects: corpus.records, waitForTasks: false, batchSize: 1000 });
  await whole.waitForTasks();
  await whole.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

const before = process.cpuUsage();
if (values.engine && !values.skip) await importWhole();
else if (!values.skip) for (let at = 0; at < documents.length; at += BATCH) core.addDocuments(documents.slice(at, at + BATCH));
const { user, system } = process.cpuUsage(before);
console.log(`${resolve(values.dist)}: ${documents.length.toLocaleString('en')} records${values.engine ? ` through the API${values.files ? ' on files' : ''}` : ''}${values.skip ? ' (adds skipped)' : ''}, ${((user + system) / 1000).toFixed(0)} ms CPU`);
await engine.close();
