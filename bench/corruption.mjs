// Records lost per class of damage to a data directory: 3,000 records in
// 300 writes of 10, a snapshot after 1,000 and after 2,000 records, the
// last 1,000 in the log only. Each trial damages a fresh copy one way
// (seeded), opens it (with `repair: true` when the plain open refuses) and
// counts the records missing against what was acknowledged. The encrypted
// classes run on a store written with an encryption key: a wrong or missing
// key must be refused (with repair too) and change nothing, which the right
// key's open then counts.
//
//   node bench/corruption.mjs [--trials 20]
import { copyFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { crc32 } from 'node:zlib';
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

const KEY = 'the right passphrase';

/** @type {(dir: string, encryptionKey?: string) => Promise<void>} */
async function build(dir, encryptionKey) {
  const engine = await Lantern.open({ storage: fsStorage(dir), snapshotEvery: 0, encryptionKey });
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
 * @param {string} [encryptionKey]
 * @returns {Promise<{ records: number, refused: boolean, error?: string }>}
 */
async function count(dir, encryptionKey) {
  for (const repair of [false, true]) {
    try {
      const engine = await quietly(() => Lantern.open({ storage: fsStorage(dir), repair, encryptionKey }));
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

/** A sealed log record's payload with a byte flipped and its CRC made to match: only its AES-GCM tag tells. @type {(dir: string, random: () => number) => void} */
const resealRecord = (dir, random) => {
  const path = join(dir, 'log.bin');
  const b = readFileSync(path);
  /** @type {number[]} */
  const starts = [];
  for (let at = 0; at + 16 <= b.length; at += 16 + b.readUInt32LE(at)) starts.push(at);
  const start = starts[Math.floor(random() * starts.length)];
  const end = start + 16 + b.readUInt32LE(start);
  b[start + 16 + Math.floor(random() * (end - start - 16))] ^= 0x5a;
  b.writeUInt32LE(crc32(b.subarray(start + 8, end)), start + 4);
  writeFileSync(path, b);
};

/**
 * How each class is opened: `key` is the key tried first (a wrong one, or none), with and without
 * repair; it must be refused as a key error and change nothing before the right key counts.
 * @type {Record<string, { key?: string | null, damage: (dir: string, random: () => number) => void }>}
 */
const ENCRYPTED = {
  'encrypted: opened with a wrong key': { key: 'a wrong passphrase', damage: () => {} },
  'encrypted: opened with no key': { key: null, damage: () => {} },
  'encrypted: a log record re-sealed, CRC matching': { damage: resealRecord },
  'encrypted: a byte flipped in the newest snapshot': { damage: (dir, random) => { const p = snapshots(dir)[0]; flip(p, Math.floor(random() * statSync(p).size)); } },
};

/** @type {Record<string, (dir: string, random: () => number) => void>} */
const CLASSES = {
  'a byte flipped in the log': (dir, random) => flip(...pickOffset(random, logFiles(dir))),
  'a 512-byte page of the log zeroed': (dir, random) => { const [p, at] = pickOffset(random, logFiles(dir)); zero(p, at, 512); },
  'the active log cut at a random byte': (dir, random) => { const p = join(dir, 'log.bin'); truncateSync(p, Math.floor(random() * statSync(p).size)); },
  'a byte flipped in the newest snapshot': (dir, random) => { const p = snapshots(dir)[0]; flip(p, Math.floor(random() * statSync(p).size)); },
  'the newest snapshot deleted': (dir) => rmSync(snapshots(dir)[0]),
  'the older snapshot copied over the newest': (dir) => { const [newest, older] = snapshots(dir); copyFileSync(older, newest); },
  'both snapshots deleted': (dir) => { for (const p of snapshots(dir)) rmSync(p); },
  'the active log deleted': (dir) => rmSync(join(dir, 'log.bin')),
};

/**
 * Opens with `key` (a wrong one, or none: null), plainly then with repair: both must fail with a
 * key error and leave every file as it was. @type {(dir: string, key: string | null) => Promise<string>}
 */
async function keyRefusal(dir, key) {
  const before = readdirSync(dir).map((f) => `${f}:${readFileSync(join(dir, f)).toString('base64')}`).join();
  /** @type {string[]} */
  const refusals = [];
  for (const repair of [false, true]) {
    try {
      const engine = await quietly(() => Lantern.open({ storage: fsStorage(dir), repair, encryptionKey: key ?? undefined }));
      await engine.close();
      refusals.push('opened');
    } catch (e) {
      refusals.push(/** @type {Error} */ (e).name);
    }
  }
  const after = readdirSync(dir).map((f) => `${f}:${readFileSync(join(dir, f)).toString('base64')}`).join();
  return `${refusals.join(' + ')}${after === before ? ', unchanged' : ', CHANGED'}`;
}

const pristine = mkdtempSync(join(tmpdir(), 'lantern-corruption-'));
const sealed = mkdtempSync(join(tmpdir(), 'lantern-corruption-sealed-'));
await build(pristine);
await build(sealed, KEY);
console.log(`3000 records acknowledged; ${TRIALS} trials a class (seeded)`);
console.log(`${'damage'.padEnd(50)} ${'lost (mean, max)'.padEnd(18)} opened / repaired`);
const runs = [
  ...Object.entries(CLASSES).map(([name, damage]) => ({ name, damage, from: pristine, key: undefined })),
  ...Object.entries(ENCRYPTED).map(([name, { damage, key }]) => ({ name, damage, from: sealed, key })),
];
for (const { name, damage, from, key } of runs) {
  const random = mulberry32(7);
  const lost = [];
  let repaired = 0;
  /** @type {Set<string>} */
  const refusals = new Set();
  const trials = name.includes('deleted') || name.includes('copied') || key !== undefined ? 1 : TRIALS;
  for (let t = 0; t < trials; t++) {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-trial-'));
    cpSync(from, dir, { recursive: true });
    damage(dir, random);
    if (key !== undefined) refusals.add(await keyRefusal(dir, key));
    const { records, refused } = await count(dir, from === sealed ? KEY : undefined);
    lost.push(3000 - records);
    if (refused) repaired++;
    rmSync(dir, { recursive: true, force: true });
  }
  const mean = lost.reduce((a, b) => a + b, 0) / lost.length;
  const note = refusals.size > 0 ? `  (first: ${[...refusals].join('; ')})` : '';
  console.log(`${name.padEnd(50)} ${`${mean.toFixed(1)}, ${Math.max(...lost)}`.padEnd(18)} ${trials - repaired} / ${repaired}${note}`);
}
rmSync(pristine, { recursive: true, force: true });
rmSync(sealed, { recursive: true, force: true });
