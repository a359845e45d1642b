// The file store's group commit (src/storage/group-commit.ts), on real
// files with the real fsync, which a test may hold back or make fail (the
// one thing a disk will not do on demand): records appended while an fsync
// is under way share the next one; a failed fsync fails every record not
// durable yet and cuts them from the log, so that none of them comes back
// at the next open; an importing engine places a write in the log while
// the one before it waits for the disk, and one answering searches waits
// for the disk on its own thread as before.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fsStorage } from '../../src/storage/fs.js';
import { StorageWriteError } from '../../src/storage/errors.js';
import type { Entry, Storage, StoredState } from '../../src/storage/storage.js';
import { loadCore } from '../../src/core/wasm.js';
import { caller, cleanup, closeEngine, logRecords, openAt, tempDir } from '../persistence/helpers.js';
import { StorageLog } from '../../src/durability/storage-log.js';
import { Codec } from '../../src/durability/persistence.js';
import { WritePacer } from '../../src/engine/write-pacer.js';

/** What the next fsyncs of the log do: `fail` makes the next one fail (EIO); `hold` keeps them from finishing until released. */
const disk = vi.hoisted(() => ({
  calls: 0, fail: false, held: undefined as Promise<void> | undefined,
  /** Each fsync's file (inode) and the bytes it held when the fsync began. */
  synced: [] as Array<{ ino: number; size: number }>,
}));

vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const fsync = (fd: number, done: (e: NodeJS.ErrnoException | null) => void) => {
    disk.calls++;
    const { ino, size } = fs.fstatSync(fd);
    disk.synced.push({ ino, size });
    const failing = disk.fail;
    disk.fail = false;
    const held = disk.held ?? Promise.resolve();
    fs.fsync(fd, (e) => {
      void held.then(() => done(e ?? (failing ? Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }) : null)));
    });
  };
  return { ...fs, default: { ...fs, fsync }, fsync };
});

beforeAll(loadCore);
afterAll(cleanup);
afterEach(() => { Object.assign(disk, { calls: 0, fail: false, held: undefined, synced: [] }); });

const entry = (taskID: number): Entry => ({ taskID, bytes: new TextEncoder().encode(`operation ${taskID}`) });

async function reopened(dir: string): Promise<StoredState> {
  const storage = fsStorage(dir);
  try {
    return await storage.open();
  } finally {
    await storage.close();
  }
}

async function opened(dir: string): Promise<Storage> {
  const storage = fsStorage(dir);
  await storage.open();
  return storage;
}

/** Holds the fsyncs that start from now on until the function it returns is called. */
function holdFsyncs(): () => void {
  let release!: () => void;
  disk.held = new Promise((resolve) => { release = resolve; });
  return () => { disk.held = undefined; release(); };
}

describe('the file store commits records in groups', () => {
  it('records appended together are made durable by fewer fsyncs than records, and all come back in order', async () => {
    const dir = tempDir();
    const storage = await opened(dir);
    const appended = Array.from({ length: 20 }, (_, i) => storage.append!(entry(i + 1)));
    await Promise.all(appended);
    // the first record waits for one fsync, the nineteen written during it for the next
    expect(disk.calls).toBeLessThanOrEqual(3);
    await storage.close();
    expect((await reopened(dir)).log.map((e) => e.taskID)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a failed fsync fails every record not durable yet, frames written during it included; none of them comes back', async () => {
    const dir = tempDir();
    const storage = await opened(dir);
    await storage.append!(entry(1));
    const release = holdFsyncs();
    disk.fail = true;
    const calls = disk.calls;
    const failing = storage.append!(entry(2)); // its fsync is held, then fails
    await vi.waitFor(() => expect(disk.calls).toBe(calls + 1));
    const during = storage.append!(entry(3)); // written while that fsync is under way
    release();
    await expect(failing).rejects.toBeInstanceOf(StorageWriteError);
    await expect(during).rejects.toBeInstanceOf(StorageWriteError);
    await storage.append!(entry(4));
    await storage.close();
    const state = await reopened(dir);
    expect(state.log.map((e) => e.taskID)).toEqual([1, 4]);
    expect(state.damage).toEqual([]);
  });

  it('a snapshot started while records wait for their fsync splits the log once they are durable; nothing is lost', async () => {
    const dir = tempDir();
    const storage = await opened(dir);
    const release = holdFsyncs();
    const first = [1, 2, 3].map((t) => storage.append!(entry(t)));
    storage.snapshotStarted!(2);
    const after = [4, 5].map((t) => storage.append!(entry(t)));
    release();
    await Promise.all([...first, ...after]);
    await storage.writeSnapshot({ taskID: 2, pieces: [new TextEncoder().encode('state at 2')] }, async () => {});
    await storage.close();
    // each part of the log was fsync'd whole before its records were acknowledged
    for (const file of ['log-0000000000000001.bin', 'log.bin']) {
      const { ino, size } = statSync(join(dir, file));
      expect(disk.synced.some((s) => s.ino === ino && s.size === size), file).toBe(true);
    }
    expect(logRecords(dir).map((r) => [r.file, r.taskID])).toEqual([
      ['log-0000000000000001.bin', 1], ['log-0000000000000001.bin', 2], ['log-0000000000000001.bin', 3], ['log.bin', 4], ['log.bin', 5],
    ]);
    const state = await reopened(dir);
    expect(state.damage).toEqual([]);
    expect(state.log.map((e) => e.taskID)).toEqual([1, 2, 3, 4, 5]);
  });
});

const batch = (call: ReturnType<typeof caller>, n: number) => call('POST', '/1/indexes/items/batch', {
  requests: [{ action: 'addObject', body: { objectID: String(n), title: `item ${n}` } }],
});

describe('the engine on the file store', () => {
  it('with no search arriving, makes a write durable on its own thread (no fsync on the thread pool)', async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = caller(engine);
    for (let n = 1; n <= 3; n++) expect((await batch(call, n)).status).toBe(200);
    expect(disk.calls).toBe(0);
    expect(logRecords(dir).map((r) => r.taskID)).toEqual([1, 2, 3]);
    await closeEngine(engine);
  });

  it('while searches arrive, a write waits for the disk on its own thread (it keeps its turn, pacing writes against searches)', async () => {
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = caller(engine);
    expect((await call('POST', '/1/indexes/items/query', { query: '' })).status).toBe(404);
    for (let n = 1; n <= 3; n++) expect((await batch(call, n)).status).toBe(200);
    expect(disk.calls).toBe(0);
    await closeEngine(engine);
  });

});

describe('the log of an engine importing (many records queued to be applied)', () => {
  it('places the next write while the one before waits for the disk, and hands both back in order once durable', async () => {
    const dir = tempDir();
    const storage = await opened(dir);
    const pacer = new WritePacer(() => 10_000);
    const log = new StorageLog<{ n: number }>(storage.append!.bind(storage), await Codec.create(), pacer, storage.appendsInCallOrder === true);
    const handed: number[] = [];
    await log.follow(0, async (entry) => { handed.push(entry.taskID); });
    const release = holdFsyncs();
    const shape = { queued: true, weight: 1 };
    const first = log.append({ n: 1 }, shape);
    const second = log.append({ n: 2 }, shape);
    // the second is in the log while the first one's fsync is held; neither is handed back
    await vi.waitFor(() => expect(logRecords(dir).map((r) => r.taskID)).toEqual([1, 2]));
    expect(handed).toEqual([]);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(handed).toEqual([1, 2]);
    await log.close();
    await storage.close();
  });
});
