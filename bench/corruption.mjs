// Records lost per class of damage to a data directory: 3,000 records in
// 300 writes of 10, a snapshot after 1,000 and after 2,000 records, the
// last 1,000 in the log only. Each trial damages a fresh copy one way
// (seeded), opens it (with `repair: true` when the plain open refuses) and
// counts the records missing against what was acknowledged.
//
//   node bench/corruption.mjs [--trials 20]
import { copyFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mulberry32 } from './corpus.mjs';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '20' } } });
const TRIALS = Number(values.trials);
const { Lantern } = await import('lantern-search');
const { fsStorage } = await import('lantern-search/node');

/** @type {<T>(work: () => Promise<T>) => Promise<T>} */
const quietly = async (work) => {
  const warn = console.warn;
  console.warn = () => {};
  try { return await work(); } finally { console.warn = warn; }
};

/** @param {string} dir */
async function build(dir) {
  const engine = await Lantern.open({ storage: fsStorage(dir), snapshotEvery: 0 });
  for (let w = 0; w < 300; w++) {
    const requests = Array.from({ length: 10 }, (_, i) => ({ action: 'addObject', body: { objectID: `r${w * 10 + i}`, text: `record ${w * 10 + i}` } }));
    await engine.request({ method: 'POST', path: '/1/indexes/c/batch', body: { requests } });
    if (w === 99 || w === 199) { await engine.waitForTasks(); await engine.snapshot(); }
  }
  await engine.waitForTasks();
  await engine.close();
}

/**
 * @param {string} dir
 * @returns {Promise<{ records: number, refused: boolean, error?: string }>}
 */
async function count(dir) {
  for (const repair of [false, true]) {
    try {
      const engine = await quietly(() => Lantern.open({ storage: fsStorage(dir), repair }));
      const r = await engine.request({ method: 'POST', path: '/1/indexes/c/query', body: { query: '', hitsPerPage: 0, analytics: false } });
      await engine.close();
      return { records: r.status === 200 ? /** @type {{ nbHits: number }} */ (r.body).nbHits : 0, refused: repair };
    } catch (e) {
      const { name, message } = /** @type {Error} */ (e);
      if (name !== 'StoreDamagedError' || repair) return { records: 0, refused: true, error: message };
    }
  }
  throw new Error('not reached: the open with repair returns');
}

/** @type {(dir: string, pattern: RegExp) => string[]} */
const files = (dir, pattern) => readdirSync(dir).filter((f) => pattern.test(f)).sort().map((f) => join(dir, f));
/** @type {(dir: string) => string[]} */
const logFiles = (dir) => files(dir, /^log(-\d+)?\.bin$/);
/** @type {(dir: string) => string[]} */
const snapshots = (dir) => files(dir, /^snapshot-\d+\.bin$/).reverse();
/** @type {(random: () => number, paths: string[]) => [path: string, at: number]} */
const pickOffset = (random, paths) => {
  const sizes = paths.map((p) => statSync(p).size);
  let at = Math.floor(random() * sizes.reduce((a, b) => a + b, 0));
  for (let i = 0; i < paths.length; i++) { if (at < sizes[i]) return [paths[i], at]; at -= sizes[i]; }
  return [paths[paths.length - 1], 0];
};
/** @type {(path: string, at: number) => void} */
const flip = (path, at) => { const b = readFileSync(path); b[at] ^= 0x5a; writeFileSync(path, b); };
/** @type {(path: string, at: number, n: number) => void} */
const zero = (path, at, n) => { const b = readFileSync(path); b.fill(0, at, Math.min(b.length, at + n)); writeFileSync(path, b); };

/** @type {Record<string, (dir: string, random: () => number) => void>} */
const CLASSES = {
  'a byte flipped in the log': (dir, random) => flip(...pickOffset(random, logFiles(dir))),
  'a 512-byte page of the log zeroed': (dir, random) => { const [p, at] = pickOffset(random, logFiles(dir)); zero(p, at, 512); },
  'the active log cut at a random byte': (dir, random) => { const p = join(dir, 'log.bin'); truncateSync(p, Math.floor(random() * statSync(p).size)); },
  'a byte flipped in the newest snapshot': (dir, random) => { const p = snapshots(dir)[0]; flip(p, Math.floor(random() * statSync(p).size)); },
  'the newest snapshot deleted': (dir) => rmSync(snapshots(dir)[0]),
  'the older snapshot copied over the newest': (dir) => { const [newest, older] = snapshots(dir); copyFileSync(older, newest); },
  'both snapshots deleted': (dir) => { for (const p of snapshots(dir)) rmSync(p); },
};

const pristine = mkdtempSync(join(tmpdir(), 'lantern-corruption-'));
await build(pristine);
console.log(`3000 records acknowledged; ${TRIALS} trials a class (seeded)`);
console.log(`${'damage'.padEnd(44)} ${'lost (mean, max)'.padEnd(18)} opened / repaired`);
for (const [name, damage] of Object.entries(CLASSES)) {
  const random = mulberry32(7);
  const lost = [];
  let repaired = 0;
  const trials = name.includes('deleted') || name.includes('copied') ? 1 : TRIALS;
  for (let t = 0; t < trials; t++) {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-trial-'));
    cpSync(pristine, dir, { recursive: true });
    damage(dir, random);
    const { records, refused } = await count(dir);
    lost.push(3000 - records);
    if (refused) repaired++;
    rmSync(dir, { recursive: true, force: true });
  }
  const mean = lost.reduce((a, b) => a + b, 0) / lost.length;
  console.log(`${name.padEnd(44)} ${`${mean.toFixed(1)}, ${Math.max(...lost)}`.padEnd(18)} ${trials - repaired} / ${repaired}`);
}
rmSync(pristine, { recursive: true, force: true });
