// One contract, every storage (the model: Tantivy's directory tests, one test
// body for each implementation). A storage that persists must give back what
// was appended, in order, across a close; store a snapshot only once its
// bytes are proven, and drop what a proven snapshot supersedes (all but the
// two newest snapshots, and the log the older of them holds); keep
// everything when a proof fails; set aside, never delete, what the engine
// could not use. memoryStorage keeps nothing by design.
import 'fake-indexeddb/auto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fsStorage } from '../../src/storage/fs.js';
import { idbStorage } from '../../src/storage/idb.js';
import { memoryStorage, SNAPSHOTS_KEPT, type Entry, type Storage, type StoredSnapshot, type StoredState } from '../../src/storage/storage.js';

interface Implementation {
  name: string;
  persists: boolean;
  /** A new storage over a new place; each call of the function it returns opens that same place again. */
  place(): () => Storage;
}

const dirs: string[] = [];
let databases = 0;

const IMPLEMENTATIONS: Implementation[] = [
  { name: 'memoryStorage', persists: false, place: () => () => memoryStorage() },
  {
    name: 'fsStorage', persists: true,
    place: () => {
      const dir = mkdtempSync(join(tmpdir(), 'lantern-contract-'));
      dirs.push(dir);
      return () => fsStorage(dir);
    },
  },
  {
    name: 'idbStorage', persists: true,
    place: () => {
      const name = `contract-${process.pid}-${databases++}`;
      return () => idbStorage(name);
    },
  },
];

afterAll(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

const entry = (taskID: number): Entry => ({ taskID, bytes: new TextEncoder().encode(`operation ${taskID} ${'x'.repeat(taskID * 7)}`) });
const bytesOf = (text: string) => new TextEncoder().encode(text);

/** Opens the place, runs `use`, closes. */
async function session<T>(open: () => Storage, use: (storage: Storage, state: StoredState) => Promise<T>): Promise<T> {
  const storage = open();
  const state = await storage.open();
  try {
    return await use(storage, state);
  } finally {
    await storage.close();
  }
}

/** Appends, as the engine does, then stores a snapshot of everything up to `taskID`. */
async function snapshotAt(storage: Storage, taskID: number, text: string, prove: (stored: StoredSnapshot) => Promise<void> = async () => {}): Promise<void> {
  storage.snapshotStarted?.(taskID);
  const bytes = bytesOf(text);
  await storage.writeSnapshot({ taskID, pieces: [bytes.subarray(0, 3), bytes.subarray(3)] }, prove);
}

const taskIDs = (state: StoredState) => state.log.map((e) => e.taskID);
const texts = async (state: StoredState) => Promise.all(state.snapshots.map(async (s) => [s.taskID, new TextDecoder().decode(await s.read())]));

describe.each(IMPLEMENTATIONS)('$name', ({ persists, place }) => {
  it('opens a new place empty', async () => {
    await session(place(), async (_, state) => {
      expect(state.snapshots).toEqual([]);
      expect(state.log).toEqual([]);
      expect(state.damage).toEqual([]);
      expect(state.needsSnapshot).toBe(false);
    });
  });

  it.skipIf(persists)('keeps nothing: a snapshot stored and the place opened again, it is empty', async () => {
    const open = place();
    await session(open, async (storage) => {
      expect(storage.append).toBeUndefined();
      await snapshotAt(storage, 1, 'state at 1');
    });
    await session(open, async (_, state) => {
      expect(state.snapshots).toEqual([]);
      expect(state.log).toEqual([]);
    });
  });

  it.skipIf(!persists)('gives back the appended records, in order and byte for byte, after a close', async () => {
    const open = place();
    const written = [1, 2, 3, 4].map(entry);
    await session(open, async (storage) => { for (const e of written) await storage.append!(e); });
    await session(open, async (_, state) => {
      expect(state.log.map((e) => ({ taskID: e.taskID, bytes: [...e.bytes] }))).toEqual(written.map((e) => ({ taskID: e.taskID, bytes: [...e.bytes] })));
      expect(state.damage).toEqual([]);
    });
    // and again: opening changes nothing
    await session(open, async (_, state) => expect(taskIDs(state)).toEqual([1, 2, 3, 4]));
  });

  it.skipIf(!persists)('hands the stored snapshot to the proof, and keeps the two newest snapshots and the log after the older one', async () => {
    const open = place();
    const proven: string[] = [];
    const prove = async (stored: StoredSnapshot) => {
      const bytes = await stored.read();
      // a file named for the proof (a worker thread may read it) holds the same bytes
      if (stored.file !== undefined) expect(new Uint8Array(readFileSync(stored.file))).toEqual(bytes);
      proven.push(`${stored.taskID}: ${new TextDecoder().decode(bytes)}`);
    };
    await session(open, async (storage) => {
      for (const t of [1, 2]) await storage.append!(entry(t));
      await snapshotAt(storage, 2, 'state at 2', prove);
      for (const t of [3, 4]) await storage.append!(entry(t));
      await snapshotAt(storage, 4, 'state at 4', prove);
      for (const t of [5, 6]) await storage.append!(entry(t));
      await snapshotAt(storage, 6, 'state at 6', prove);
      await storage.append!(entry(7));
    });
    expect(proven).toEqual(['2: state at 2', '4: state at 4', '6: state at 6']);
    await session(open, async (_, state) => {
      expect(await texts(state)).toEqual([[6, 'state at 6'], [4, 'state at 4']].slice(0, SNAPSHOTS_KEPT));
      expect(state.needsSnapshot).toBe(true);
      // what the older kept snapshot holds may go; what follows it must stay
      expect(taskIDs(state).filter((t) => t > 4)).toEqual([5, 6, 7]);
      expect(taskIDs(state).every((t) => t > 2)).toBe(true);
    });
  });

  it.skipIf(!persists)('a snapshot whose proof fails is not kept, and nothing it would supersede goes', async () => {
    const open = place();
    await session(open, async (storage) => {
      for (const t of [1, 2, 3]) await storage.append!(entry(t));
      await snapshotAt(storage, 2, 'state at 2');
      for (const t of [4, 5]) await storage.append!(entry(t));
      await snapshotAt(storage, 4, 'state at 4');
      await storage.append!(entry(6));
      await expect(snapshotAt(storage, 6, 'state at 6', async () => { throw new Error('does not load'); })).rejects.toThrow('does not load');
      await storage.append!(entry(7));
    });
    await session(open, async (_, state) => {
      expect(await texts(state)).toEqual([[4, 'state at 4'], [2, 'state at 2']]);
      expect(taskIDs(state).filter((t) => t > 2)).toEqual([3, 4, 5, 6, 7]);
    });
  });

  it.skipIf(!persists)('a repair sets aside the snapshot and log record the engine could not use: given back no more, said where, the rest kept', async () => {
    const open = place();
    await session(open, async (storage) => {
      for (const t of [1, 2]) await storage.append!(entry(t));
      await snapshotAt(storage, 2, 'state at 2');
      for (const t of [3, 4]) await storage.append!(entry(t));
      await snapshotAt(storage, 4, 'state at 4');
      for (const t of [5, 6, 7]) await storage.append!(entry(t));
    });
    const setAside = await session(open, async (_, state) => {
      expect(taskIDs(state).filter((t) => t > 4)).toEqual([5, 6, 7]);
      // 4 ends a closed part of the log, 6 is in the part being appended to
      return state.repair!({ snapshots: [4], logRecords: [4, 6] });
    });
    expect(setAside).toHaveLength(3);
    expect(setAside.join('\n')).toMatch(/snapshot/);
    expect(setAside.join('\n')).toMatch(/damaged/);
    await session(open, async (_, state) => {
      expect(await texts(state)).toEqual([[2, 'state at 2']]);
      expect(taskIDs(state).filter((t) => t > 2)).toEqual([3, 5, 7]);
      expect(state.damage).toEqual([]);
      // opening again sets nothing more aside
      expect(await state.repair!({ snapshots: [], logRecords: [] })).toEqual([]);
    });
  });
});
