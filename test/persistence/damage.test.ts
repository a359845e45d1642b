// The crash and corruption suite: a store with two snapshots, closed parts of
// the log and an active part is damaged one way at a time on real files,
// then reopened twice and compared with what a perfect recovery keeps. A
// damage that costs nothing opens with a warning; one that would lose an
// acknowledged write refuses to open and changes nothing, and a repair
// (Lantern.open({ repair: true })) keeps every record but the lost ones.
import { copyFileSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { StoreDamagedError } from '../../src/storage/errors.js';
import { concat } from '../../src/util/bytes.js';
import { asACrashLeavesIt } from '../support/crash.js';
import {
  caller, captureFailure, captureWarnings, cleanup, closeEngine, directoryContents, logPath, logRecords, openAt, rewriteSnapshot,
  snapshotFiles, tempDir, type Call,
} from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

interface Write { taskID: number; objectID: string; phase: string }

/** 20 records, snapshot A, 20 more, snapshot B, 20 more (in the active log only): one write each. */
async function history(dir: string): Promise<Write[]> {
  const engine = await openAt(dir, { snapshotEvery: 0 });
  const call = caller(engine);
  const writes: Write[] = [];
  for (const phase of ['a', 'b', 'c']) {
    for (let i = 0; i < 20; i++) {
      const objectID = `${phase}${i}`;
      const { body } = await call('PUT', `/1/indexes/d/${objectID}`, { phase, i, text: `record ${i} of phase ${phase}` });
      writes.push({ taskID: body.taskID, objectID, phase });
    }
    if (phase !== 'c') await engine.snapshot();
  }
  await closeEngine(engine);
  return writes;
}

async function objectIDs(call: Call): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const r = await call('POST', '/1/indexes/d/browse', cursor ? { cursor } : { hitsPerPage: 1000 });
    if (r.status === 404) return [];
    ids.push(...r.body.hits.map((h: { objectID: string }) => h.objectID));
    cursor = r.body.cursor;
  } while (cursor);
  return ids.sort();
}

const sorted = (writes: Write[]) => writes.map((w) => w.objectID).sort();

function flip(path: string, at: number): void {
  const bytes = readFileSync(path);
  bytes[at] ^= 0x5a;
  writeFileSync(path, bytes);
}

function zero(path: string, from: number, length: number): void {
  const bytes = readFileSync(path);
  bytes.fill(0, from, Math.min(bytes.length, from + length));
  writeFileSync(path, bytes);
}

/** The log record holding a write's task. */
const recordOf = (dir: string, taskID: number) => logRecords(dir).find((r) => r.taskID === taskID)!;

interface Case {
  name: string;
  damage(dir: string, writes: Write[]): void;
  /** What a perfect recovery keeps; `refuses` when that is less than every acknowledged write. */
  keeps(writes: Write[], dir: string): Write[];
  refuses: boolean;
  /** The warning or refusal names this. */
  names: RegExp;
}

const everything = (writes: Write[]) => writes;
const newest = (dir: string) => snapshotFiles(dir)[0].path;

const CASES: Case[] = [
  { name: 'a byte flipped in the newest snapshot', damage: (dir) => flip(newest(dir), Math.floor(statSync(newest(dir)).size / 2)), keeps: everything, refuses: false, names: /snapshot.*SHA-256/ },
  { name: 'the newest snapshot cut in half', damage: (dir) => truncateSync(newest(dir), Math.floor(statSync(newest(dir)).size / 2)), keeps: everything, refuses: false, names: /snapshot.*bytes/ },
  { name: 'a 512-byte page of the newest snapshot zeroed', damage: (dir) => zero(newest(dir), Math.floor(statSync(newest(dir)).size / 3), 512), keeps: everything, refuses: false, names: /snapshot/ },
  { name: 'the newest snapshot deleted', damage: (dir) => rmSync(newest(dir)), keeps: everything, refuses: false, names: /snapshot.*missing/ },
  { name: 'the older snapshot copied over the newest', damage: (dir) => copyFileSync(snapshotFiles(dir)[1].path, newest(dir)), keeps: everything, refuses: false, names: /snapshot.*(SHA-256|bytes)/ },
  {
    name: 'a byte flipped in a log record the newest snapshot holds',
    damage: (dir, writes) => { const r = recordOf(dir, writes[25].taskID); flip(join(dir, r.file), r.start + 20); },
    keeps: everything, refuses: false, names: /damaged bytes/,
  },
  {
    name: 'a byte flipped in a log record after the newest snapshot',
    damage: (dir, writes) => { const r = recordOf(dir, writes[50].taskID); flip(join(dir, r.file), r.start + 20); },
    keeps: (writes) => writes.filter((_, i) => i !== 50), refuses: true, names: /may be lost/,
  },
  {
    name: 'a 512-byte page of the active log zeroed',
    damage: (dir, writes) => zero(logPath(dir), recordOf(dir, writes[45].taskID).start + 7, 512),
    keeps: (writes, dir) => {
      // every record the zeroed bytes touched is lost, no other
      const from = recordOf(dir, writes[45].taskID).start + 7;
      const hit = new Set(logRecords(dir).filter((r) => r.file === 'log.bin' && r.end > from && r.start < from + 512).map((r) => r.taskID));
      return writes.filter((w) => !hit.has(w.taskID));
    },
    refuses: true, names: /may be lost/,
  },
  {
    name: 'the active log cut inside its last record (a torn write)',
    damage: (dir) => { truncateSync(logPath(dir), statSync(logPath(dir)).size - 5); asACrashLeavesIt(dir); },
    keeps: (writes) => writes.slice(0, -1), refuses: false, names: /torn/,
  },
  { name: 'both snapshots deleted', damage: (dir) => { for (const s of snapshotFiles(dir)) rmSync(s.path); }, keeps: (writes) => writes.filter((w) => w.phase !== 'a'), refuses: true, names: /missing.*no snapshot|no snapshot/ },
  {
    name: 'the closed log part after the older snapshot deleted, and the newest snapshot damaged',
    damage: (dir, writes) => { rmSync(join(dir, recordOf(dir, writes[25].taskID).file)); flip(newest(dir), 100); },
    keeps: (writes) => writes.filter((w) => w.phase !== 'b'), refuses: true, names: /missing/,
  },
  { name: 'the manifest made unreadable', damage: (dir) => writeFileSync(join(dir, 'manifest.json'), '{"format":1,"snaps'), keeps: everything, refuses: true, names: /manifest\.json is unreadable/ },
];

describe('seeded damage, reopened twice, against a perfect recovery', () => {
  for (const c of CASES) {
    it(`${c.name}: ${c.refuses ? 'refuses, then a repair keeps' : 'opens with a warning, keeping'} what a perfect recovery keeps`, async () => {
      const dir = tempDir();
      const writes = await history(dir);
      const expected = c.keeps(writes, dir);
      c.damage(dir, writes);

      if (c.refuses) {
        const before = directoryContents(dir);
        const { error } = await captureFailure(() => openAt(dir));
        expect(error, 'opened a store that lost acknowledged writes').toBeInstanceOf(StoreDamagedError);
        expect(error!.message).toMatch(c.names);
        expect(error!.message).toMatch(/repair/);
        expect(directoryContents(dir), 'a refused open changed the store').toEqual(before);
      }
      const { result: engine, warnings } = await captureWarnings(() => openAt(dir, { repair: c.refuses }));
      expect(warnings.join('\n')).toMatch(c.names);
      expect(await objectIDs(caller(engine))).toEqual(sorted(expected));
      // the next write goes after every task kept (a torn write's task was never acknowledged)
      const next = await caller(engine)('PUT', '/1/indexes/d/next', { phase: 'next' });
      expect(next.body.taskID).toBeGreaterThan(Math.max(...expected.map((w) => w.taskID)));
      await closeEngine(engine);

      // twice: the store is sound again, and opens quietly with the same records
      for (let reopen = 0; reopen < 2; reopen++) {
        const { result: again, warnings: quiet } = await captureWarnings(() => openAt(dir));
        expect(quiet, `reopen ${reopen + 1}`).toEqual([]);
        expect(await objectIDs(caller(again))).toEqual([...sorted(expected), 'next'].sort());
        await closeEngine(again);
      }
    });
  }
});

describe('an index that cannot be loaded', () => {
  /** Rewrites the only snapshot with index `name`'s core bytes damaged (its digests and the manifest made to match). */
  async function breakIndex(dir: string, name: string): Promise<void> {
    await rewriteSnapshot(dir, (state: { indexes: Array<{ name: string; core: Uint8Array[] }> }) => {
      const index = state.indexes.find((i) => i.name === name)!;
      index.core = [concat(index.core).fill(7, 0, 8)]; // no longer a core snapshot
    });
  }

  it('the others open; it is quarantined (503, kept as stored in later snapshots) until deleted', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (const name of ['good', 'bad']) for (let i = 0; i < 5; i++) await call('PUT', `/1/indexes/${name}/r${i}`, { text: `${name} record ${i}` });
    await engine.snapshot();
    await call('PUT', '/1/indexes/good/late', { text: 'good record late' });
    await call('PUT', '/1/indexes/bad/late', { text: 'bad record late' });
    await closeEngine(engine);
    await breakIndex(dir, 'bad');

    const { result: opened, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings.join('\n')).toMatch(/index "bad" .*quarantined/);
    let c = caller(opened);
    expect((await c('POST', '/1/indexes/good/query', { query: 'record' })).body.nbHits).toBe(6);
    const read = await c('POST', '/1/indexes/bad/query', { query: 'record' });
    expect(read.status).toBe(503);
    expect(read.body.message).toMatch(/quarantined.*Delete it/);
    expect((await c('PUT', '/1/indexes/bad/new', { text: 'x' })).status).toBe(503);
    // a later snapshot keeps it as it was stored
    await opened.snapshot();
    await closeEngine(opened);
    const { result: again, warnings: still } = await captureWarnings(() => openAt(dir));
    expect(still.join('\n')).toMatch(/index "bad" .*quarantined/);
    c = caller(again);
    expect((await c('POST', '/1/indexes/good/query', { query: 'record' })).body.nbHits).toBe(6);
    expect((await c('POST', '/1/indexes/bad/query', { query: 'record' })).status).toBe(503);
    // deleting it ends the quarantine
    const deleted = await c('DELETE', '/1/indexes/bad');
    expect(deleted.status).toBe(200);
    await again.waitForTasks();
    expect((await c('PUT', '/1/indexes/bad/new', { text: 'fresh' })).status).toBe(200);
    await again.waitForTasks();
    expect((await c('POST', '/1/indexes/bad/query', { query: 'fresh' })).body.nbHits).toBe(1);
  });
});
