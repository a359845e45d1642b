// Damaged files on fsStorage: the log torn at every byte of its last record, a
// flipped byte in a middle record, garbage after the last record, empty logs,
// truncated snapshots, leftovers of an interrupted snapshot. Each gives the
// documented recovery (the valid prefix kept, the rest dropped, reported and
// truncated away so the next write lands cleanly) or a clear error.
import { appendFileSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { StoreDamagedError } from '../../src/storage/errors.js';
import { asACrashLeavesIt } from '../support/crash.js';
import {
  caller, captureFailure, captureWarnings, cleanup, closeEngine, directoryContents, logPath, logRecords, logSize, openAt, prng,
  snapshotFiles, tempDir, type Call,
} from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

async function count(call: Call, indexName: string, query = ''): Promise<number> {
  // a probe, not a user's search: kept out of analytics (and so out of the log)
  const r = await call('POST', `/1/indexes/${indexName}/query`, { query, hitsPerPage: 0, analytics: false });
  return r.status === 404 ? 0 : r.body.nbHits;
}

/** Five single-record writes, then a batch of six records as the last log record. */
async function seed(dir: string): Promise<{ taskIDs: number[] }> {
  const engine = await openAt(dir, { snapshotEvery: 0 });
  const call = caller(engine);
  const taskIDs: number[] = [];
  for (let i = 1; i <= 5; i++) taskIDs.push((await call('PUT', `/1/indexes/t/r${i}`, { v: i, text: `early record ${i}` })).body.taskID);
  const requests = Array.from({ length: 6 }, (_, i) => ({ action: 'addObject', body: { objectID: `torn${i}`, text: `torn batch member ${i}` } }));
  taskIDs.push((await call('POST', '/1/indexes/t/batch', { requests })).body.taskID);
  await closeEngine(engine);
  return { taskIDs };
}

async function expectEarlyRecords(call: Call): Promise<void> {
  for (let i = 1; i <= 5; i++) expect((await call('GET', `/1/indexes/t/r${i}`)).body).toEqual({ objectID: `r${i}`, v: i, text: `early record ${i}` });
}

describe('a torn last record', () => {
  it('truncated at every byte: earlier records kept, the torn batch wholly gone, the file truncated, the next write clean', async () => {
    const dir = tempDir();
    const { taskIDs } = await seed(dir);
    const intact = readFileSync(logPath(dir));
    const records = logRecords(dir);
    expect(records.map((r) => r.taskID)).toEqual(taskIDs);
    const last = records.at(-1)!;
    expect(last.end).toBe(intact.length);

    for (let cut = last.start; cut < intact.length; cut++) {
      writeFileSync(logPath(dir), intact.subarray(0, cut));
      asACrashLeavesIt(dir);
      const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
      const call = caller(engine);
      // the torn record is reported (a cut right at its start leaves a clean log: nothing to report)
      if (cut > last.start) expect(warnings.join('\n')).toMatch(/torn|corrupt|truncat/i);
      else expect(warnings).toEqual([]);
      expect(statSync(logPath(dir)).size).toBe(last.start);
      await expectEarlyRecords(call);
      // no member of the torn batch is visible: all or nothing
      expect(await count(call, 't')).toBe(5);
      expect(await count(call, 't', 'torn')).toBe(0);

      // the next write lands right after the valid prefix, and survives a reopen
      const next = (await call('PUT', '/1/indexes/t/next', { cut })).body.taskID;
      expect(next).toBe(taskIDs[4] + 1);
      await closeEngine(engine);
      const after = logRecords(dir);
      expect(after.map((r) => [r.taskID, r.crcOk])).toEqual([...taskIDs.slice(0, 5), next].map((id) => [id, true]));
      expect(statSync(logPath(dir)).size).toBe(after.at(-1)!.end);
      const { result: again, warnings: quiet } = await captureWarnings(() => openAt(dir));
      expect(quiet).toEqual([]);
      expect((await caller(again)('GET', '/1/indexes/t/next')).body).toEqual({ objectID: 'next', cut });
      await closeEngine(again);
    }
  });

  it('a torn record after a snapshot: the snapshot plus the valid log prefix', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 4; i++) await call('PUT', `/1/indexes/s/pre${i}`, { i });
    await engine.snapshot();
    for (let i = 0; i < 3; i++) await call('PUT', `/1/indexes/s/post${i}`, { i });
    await closeEngine(engine);
    const intact = readFileSync(logPath(dir));
    const last = logRecords(dir).at(-1)!;
    for (const cut of [last.start + 1, last.start + 8, last.start + 16, last.end - 1]) {
      writeFileSync(logPath(dir), intact.subarray(0, cut));
      asACrashLeavesIt(dir);
      const { result: reopened } = await captureWarnings(() => openAt(dir));
      const c = caller(reopened);
      expect(await count(c, 's')).toBe(6);
      expect((await c('GET', '/1/indexes/s/post2')).status).toBe(404);
      expect((await c('GET', '/1/indexes/s/post1')).status).toBe(200);
      expect(statSync(logPath(dir)).size).toBe(last.start);
      await closeEngine(reopened);
    }
  });
});

describe('a damaged middle record', () => {
  for (const [field, offset] of [['length', 1], ['checksum', 5], ['taskID', 12], ['payload', 20]] as Array<[string, number]>) {
    it(`a byte flipped in its ${field}: the open refuses and changes nothing; a repair loses that record only`, async () => {
      const dir = tempDir();
      const { taskIDs } = await seed(dir);
      const records = logRecords(dir);
      const middle = records[2];
      const bytes = readFileSync(logPath(dir));
      bytes[middle.start + offset] ^= 0x41;
      writeFileSync(logPath(dir), bytes);

      // an acknowledged write is gone: no silent start without it
      const before = directoryContents(dir);
      const { error } = await captureFailure(() => openAt(dir));
      expect(error).toBeInstanceOf(StoreDamagedError);
      expect(error!.message).toMatch(new RegExp(`task ${taskIDs[2]} may be lost.*repair`));
      expect(directoryContents(dir)).toEqual(before);

      // the repair resynchronises at the next frame: every other record is kept
      const { result: engine, warnings } = await captureWarnings(() => openAt(dir, { repair: true }));
      expect(warnings.join('\n')).toMatch(new RegExp(`damaged bytes at offset ${middle.start}`));
      const call = caller(engine);
      for (const id of ['r1', 'r2', 'r4', 'r5']) expect((await call('GET', `/1/indexes/t/${id}`)).status).toBe(200);
      expect((await call('GET', '/1/indexes/t/r3')).status).toBe(404);
      expect(await count(call, 't', 'torn')).toBe(6);
      // the damaged bytes are moved aside, not deleted
      const aside = readdirSync(join(dir, 'damaged'));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(dir, 'damaged', aside[0]))).toEqual(bytes.subarray(middle.start, middle.end));

      // the next write continues after everything kept, and the store is clean again
      const next = (await call('PUT', '/1/indexes/t/next', { v: 'next' })).body.taskID;
      expect(next).toBe(taskIDs[5] + 1);
      await closeEngine(engine);
      expect(logRecords(dir).every((r) => r.crcOk)).toBe(true);
      const { result: again, warnings: quiet } = await captureWarnings(() => openAt(dir));
      expect(quiet).toEqual([]);
      expect(await count(caller(again), 't')).toBe(11);
    });
  }

  it('a damaged record the snapshot already holds: opens with a warning, nothing lost', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 1; i <= 5; i++) await call('PUT', `/1/indexes/t/r${i}`, { v: i });
    await engine.snapshot();
    // the previous snapshot keeps the log after it: a second snapshot leaves the first one's writes in the log
    for (let i = 6; i <= 8; i++) await call('PUT', `/1/indexes/t/r${i}`, { v: i });
    await engine.snapshot();
    for (let i = 9; i <= 10; i++) await call('PUT', `/1/indexes/t/r${i}`, { v: i });
    await closeEngine(engine);
    const covered = logRecords(dir).find((r) => r.taskID === 6)!;
    const path = join(dir, covered.file);
    const bytes = readFileSync(path);
    bytes[covered.start + 20] ^= 0x41;
    writeFileSync(path, bytes);
    const { result: reopened, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings.join('\n')).toMatch(/damaged bytes/);
    expect(await count(caller(reopened), 't')).toBe(10);
  });
});

describe('garbage after the last record', () => {
  const random = prng(0xc0ffee);
  const garbage = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
  const cases: Array<[string, Buffer]> = [
    ['one byte', garbage(1)],
    ['15 random bytes', garbage(15)],
    ['exactly a header', garbage(16)],
    ['a header of zeros', Buffer.alloc(16)],
    ['4 KiB of random bytes', garbage(4096)],
    ['a header claiming a huge payload', (() => { const b = Buffer.alloc(40); b.writeUInt32LE(0xfffffff0, 0); return b; })()],
    ['a header claiming 8 bytes, with a wrong checksum', (() => { const b = Buffer.alloc(24, 7); b.writeUInt32LE(8, 0); return b; })()],
    ['text', Buffer.from('{"type":"batch","indexName":"t","actions":[]}\n')],
  ];
  for (const [what, junk] of cases) {
    it(`${what}: every record kept, the garbage reported and cut off`, async () => {
      const dir = tempDir();
      await seed(dir);
      const size = statSync(logPath(dir)).size;
      appendFileSync(logPath(dir), junk);
      const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
      expect(warnings.join('\n')).toMatch(/torn|corrupt|truncat/i);
      expect(statSync(logPath(dir)).size).toBe(size);
      const call = caller(engine);
      await expectEarlyRecords(call);
      expect(await count(call, 't', 'torn')).toBe(6);
      await call('PUT', '/1/indexes/t/after', { v: 1 });
      await closeEngine(engine);
      const again = await openAt(dir);
      expect(await count(caller(again), 't')).toBe(12);
    });
  }
});

describe('empty logs', () => {
  it('a zero-length log in a fresh directory opens empty, silently, and takes writes', async () => {
    const dir = tempDir();
    writeFileSync(logPath(dir), Buffer.alloc(0));
    const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings).toEqual([]);
    const call = caller(engine);
    expect((await call('GET', '/1/indexes')).body.items).toEqual([]);
    expect((await call('PUT', '/1/indexes/e/1', { v: 1 })).body.taskID).toBe(1);
    await closeEngine(engine);
    const again = await openAt(dir);
    expect((await caller(again)('GET', '/1/indexes/e/1')).body).toEqual({ objectID: '1', v: 1 });
  });

  it('a log holding only part of a header is truncated to nothing', async () => {
    const dir = tempDir();
    writeFileSync(logPath(dir), Buffer.from([3, 0, 0]));
    const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings.join('\n')).toMatch(/torn|corrupt|truncat/i);
    expect(statSync(logPath(dir)).size).toBe(0);
    expect((await caller(engine)('GET', '/1/indexes')).body.items).toEqual([]);
  });

  it('a snapshot with a zero-length log loads the snapshot, silently', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    let last = 0;
    for (let i = 0; i < 5; i++) last = (await call('PUT', `/1/indexes/z/${i}`, { i })).body.taskID;
    await engine.snapshot();
    await closeEngine(engine);
    expect(logSize(dir)).toBe(0);
    writeFileSync(logPath(dir), Buffer.alloc(0));
    const { result: reopened, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings).toEqual([]);
    const c = caller(reopened);
    expect(await count(c, 'z')).toBe(5);
    expect((await c('PUT', '/1/indexes/z/more', { more: true })).body.taskID).toBe(last + 1);
  });

  it('a snapshot and a log file that was deleted: the snapshot loads', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    await caller(engine)('PUT', '/1/indexes/z/1', { v: 1 });
    await engine.snapshot();
    await closeEngine(engine);
    for (const { file } of logRecords(dir)) rmSync(join(dir, file), { force: true });
    rmSync(logPath(dir), { force: true });
    const { result: reopened, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings).toEqual([]);
    expect((await caller(reopened)('GET', '/1/indexes/z/1')).body).toEqual({ objectID: '1', v: 1 });
  });
});

describe('a truncated snapshot', () => {
  async function twoSnapshots(dir: string): Promise<void> {
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 20; i++) await call('PUT', `/1/indexes/ts/a${i}`, { i, text: `first half ${i}` });
    await engine.snapshot();
    for (let i = 0; i < 20; i++) await call('PUT', `/1/indexes/ts/b${i}`, { i, text: `second half ${i}` });
    await engine.snapshot();
    for (let i = 0; i < 5; i++) await call('PUT', `/1/indexes/ts/c${i}`, { i, text: `tail ${i}` });
    await closeEngine(engine);
  }

  for (const [what, keep] of [
    ['to zero bytes', () => 0],
    ['inside its magic', () => 3],
    ['inside its checksum', () => 20],
    ['to its header alone', () => 36],
    ['to half', (n: number) => Math.floor(n / 2)],
    ['by one byte', (n: number) => n - 1],
  ] as Array<[string, (n: number) => number]>) {
    it(`the newest truncated ${what}: the previous one plus the log, with a warning`, async () => {
      const dir = tempDir();
      await twoSnapshots(dir);
      const [newest] = snapshotFiles(dir);
      truncateSync(newest.path, keep(statSync(newest.path).size));
      const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
      expect(warnings.join('\n')).toMatch(/snapshot/i);
      const call = caller(engine);
      expect(await count(call, 'ts')).toBe(45);
      expect(await count(call, 'ts', 'second')).toBe(20);
      expect((await call('GET', '/1/indexes/ts/c4')).body).toEqual({ objectID: 'c4', i: 4, text: 'tail 4' });
    });
  }

  it('the only snapshot truncated, the log after it present: a clear error, nothing changed on disk', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 5; i++) await call('PUT', `/1/indexes/one/${i}`, { i });
    await engine.snapshot();
    await call('PUT', '/1/indexes/one/late', { late: true });
    await closeEngine(engine);
    const [only] = snapshotFiles(dir);
    truncateSync(only.path, Math.floor(statSync(only.path).size / 2));
    const before = directoryContents(dir);
    const { error } = await captureFailure(() => openAt(dir));
    expect(error?.message ?? 'opened without an error').toMatch(/snapshot/i);
    expect(directoryContents(dir)).toEqual(before);
  });
});

describe('leftovers of an interrupted snapshot', () => {
  it('a half-written temporary snapshot or log file is ignored', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 5; i++) await call('PUT', `/1/indexes/l/${i}`, { i });
    await engine.snapshot();
    await call('PUT', '/1/indexes/l/after', { v: 1 });
    await closeEngine(engine);
    const [snap] = snapshotFiles(dir);
    // what a crash between write and rename leaves behind: a newer-looking temp file with half a snapshot
    const newerName = `snapshot-${String(snap.taskID + 50).padStart(16, '0')}.bin.tmp`;
    writeFileSync(join(dir, newerName), readFileSync(snap.path).subarray(0, 100));
    writeFileSync(join(dir, 'log.bin.tmp'), Buffer.from('half a compacted log'));
    const { result: reopened, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings).toEqual([]);
    const c = caller(reopened);
    expect(await count(c, 'l')).toBe(6);
    // and the next snapshot is not disturbed by them
    await c('PUT', '/1/indexes/l/later', { v: 2 });
    await reopened.snapshot();
    await closeEngine(reopened);
    const again = await openAt(dir);
    expect(await count(caller(again), 'l')).toBe(7);
  });
});
