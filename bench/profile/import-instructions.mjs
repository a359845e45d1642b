// An import of a record set through the API, alone in its process, to
// count its instructions: the 135k cities, the 2,356 TED talks or a
// generated set (bench/corpus.mjs recordSets: zipf2, zipf6, synthetic, of
// --records records, 100,000 unless told) saved with
// the client's saveObjects in batches of 1,000 until the last task is
// applied (bench/indexing.mjs's import), in memory or on files. On a shared
// machine CPU times move by tens of percent; instructions do not. Count
// them under valgrind with V8's background threads off, less a run that
// skips the import (corpus, bundle and start-up):
//
//   valgrind --tool=cachegrind --cache-sim=no node --single-threaded --predictable \
//     bench/profile/import-instructions.mjs --dist DIST --set cities|ted|zipf2|zipf6|synthetic [--records N] [--files] [--skip]
//
// For a CPU profile of the same run: node --cpu-prof bench/profile/import-instructions.mjs ...
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { recordSets } from '../corpus.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    set: { type: 'string', default: 'cities' },
    files: { type: 'boolean', default: false },
    skip: { type: 'boolean', default: false },
    records: { type: 'string', default: '100000' },
  },
});

const makeSet = recordSets(Number(values.records))[values.set];
if (!makeSet) throw new Error(`--set: one of ${Object.keys(recordSets(0)).join(', ')}, not ${values.set}`);
const corpus = makeSet();
const { Lantern } = await import(pathToFileURL(join(resolve(values.dist), 'index.js')).href);
const { fsStorage } = await import(pathToFileURL(join(resolve(values.dist), 'node.js')).href);

const dir = values.files ? mkdtempSync(join(tmpdir(), 'lantern-import-instructions-')) : undefined;
const engine = await Lantern.open(dir ? { storage: fsStorage(dir) } : {});
const client = engine.client();
await client.setSettings({ indexName: corpus.name, indexSettings: corpus.settings });
await engine.waitForTasks();
const before = process.cpuUsage();
if (!values.skip) {
  await client.saveObjects({ indexName: corpus.name, objects: corpus.records, waitForTasks: false, batchSize: 1000 });
  await engine.waitForTasks();
}
const { user, system } = process.cpuUsage(before);
await engine.close();
if (dir) rmSync(dir, { recursive: true, force: true });
console.log(`${resolve(values.dist)}: ${corpus.records.length.toLocaleString('en')} ${values.set} records${values.files ? ' on files' : ''}${values.skip ? ' (import skipped)' : ''}, ${((user + system) / 1000).toFixed(0)} ms CPU`);
