// Indexing an English corpus, two builds A/B in one process, turns
// alternated: the TED talks (names, descriptions, speakers, tags: 2,356
// records) saved `--copies` times under new objectIDs, in memory, from the
// first write to the last task applied. Each figure is the median of the
// rounds' CPU time (user and system), with the wall-clock ratio beside it
// (only ratios taken in one process are comparable on a shared machine).
// Made for the word breaks of scripts written without spaces: text with none
// of them must index as fast as before (src/text/word-breaks.ts's fast path).
// `--synthetic N`: bench/indexing.mjs's synthetic records instead; `--set
// NAME --records N`: a generated record set of bench/corpus.mjs's
// recordSets (zipf2, zipf6, synthetic; 100,000 records unless told); `--files`:
// on the file store (a fresh directory each round) instead of in memory.
// `--settled`: the CPU time until the work an import leaves for when writes
// pause is done too (records packed once idle: src/index/record-store.ts),
// two seconds after the last task, beside the time until the last task.
//
//   node bench/indexing-ab.mjs --a DIST_A --b DIST_B [--rounds 7] [--copies 8] [--synthetic 100000 | --set zipf2 [--records N]] [--files] [--settled]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { recordSets, synthetic, ted } from './corpus.mjs';
import { median, settleHeap } from './measure.mjs';

const { values } = parseArgs({
  options: {
    a: { type: 'string' }, b: { type: 'string' },
    rounds: { type: 'string', default: '7' }, copies: { type: 'string', default: '8' },
    synthetic: { type: 'string' }, set: { type: 'string' }, records: { type: 'string', default: '100000' }, files: { type: 'boolean', default: false }, settled: { type: 'boolean', default: false },
  },
});
if (!values.a || !values.b) throw new Error('usage: node bench/indexing-ab.mjs --a DIST_A --b DIST_B');
const ROUNDS = Number(values.rounds);

/** @type {(dir: string, name: string) => Promise<{ name: string, Lantern: any, fsStorage: any }>} */
async function load(dir, name) {
  const { Lantern } = await import(pathToFileURL(join(resolve(dir), 'index.js')).href);
  const { fsStorage } = await import(pathToFileURL(join(resolve(dir), 'node.js')).href);
  return { name, Lantern, fsStorage };
}
const builds = [await load(values.a, 'A'), await load(values.b, 'B')];

const generated = values.set ? recordSets(Number(values.records))[values.set] : undefined;
if (values.set && !generated) throw new Error(`--set: one of ${Object.keys(recordSets(0)).join(', ')}, not ${values.set}`);
const corpus = generated ? generated() : values.synthetic ? synthetic(Number(values.synthetic)) : ted();
const records = generated || values.synthetic ? corpus.records
  : Array.from({ length: Number(values.copies) }, (_, copy) => corpus.records.map((r) => ({ ...r, objectID: `${r.objectID}-${copy}` }))).flat();

/** CPU and wall-clock milliseconds to index every record (`settled`: CPU until the work left for a pause is done). @type {(build: { Lantern: any, fsStorage: any }) => Promise<{ cpu: number, wall: number, settled: number }>} */
async function run(build) {
  settleHeap();
  const dir = values.files ? mkdtempSync(join(tmpdir(), 'lantern-indexing-ab-')) : undefined;
  const engine = await build.Lantern.open(dir ? { storage: build.fsStorage(dir) } : {});
  const client = engine.client();
  await client.setSettings({ indexName: 'ted', indexSettings: corpus.settings });
  await engine.waitForTasks();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await client.saveObjects({ indexName: 'ted', objects: records, batchSize: 1000 });
  await engine.waitForTasks();
  const { user, system } = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  let settled = 0;
  if (values.settled) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const all = process.cpuUsage(cpu);
    settled = (all.user + all.system) / 1000;
  }
  await engine.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  return { cpu: (user + system) / 1000, wall, settled };
}

console.log(`A: ${values.a}\nB: ${values.b}\n${records.length.toLocaleString('en')} ${values.set ?? (values.synthetic ? 'synthetic' : 'TED')} records ${values.files ? 'on files' : 'in memory'}; median of ${ROUNDS} rounds, turns alternated`);
await run(builds[0]); // warm-up of both builds' code
await run(builds[1]);
/** @type {Record<string, { cpu: number[], wall: number[], settled: number[] }>} */
const times = { A: { cpu: [], wall: [], settled: [] }, B: { cpu: [], wall: [], settled: [] } };
for (let r = 0; r < ROUNDS; r++) {
  for (const build of r % 2 === 0 ? builds : [...builds].reverse()) {
    const { cpu, wall, settled } = await run(build);
    times[build.name].cpu.push(cpu);
    times[build.name].wall.push(wall);
    times[build.name].settled.push(settled);
  }
}
for (const [name, t] of Object.entries(times)) console.log(`${name} rounds, CPU / wall ms: ${t.cpu.map((c, i) => `${c.toFixed(0)}/${t.wall[i].toFixed(0)}`).join(', ')}`);
const [a, b] = [times.A, times.B].map((t) => ({ cpu: median(t.cpu), wall: median(t.wall) }));
console.log(`indexing, CPU: A ${a.cpu.toFixed(0)} ms, B ${b.cpu.toFixed(0)} ms (B/A ${(b.cpu / a.cpu).toFixed(3)}; wall ${(b.wall / a.wall).toFixed(3)})`);
if (values.settled) {
  const [sa, sb] = [times.A, times.B].map((t) => median(t.settled));
  console.log(`settled (work left for a pause done), CPU: A ${sa.toFixed(0)} ms, B ${sb.toFixed(0)} ms (B/A ${(sb / sa).toFixed(3)})`);
}
