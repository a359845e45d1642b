// IndexedDB storage (browsers, workers): one transaction per log append, a
// SHA-256 per record; a snapshot is proven, then stored in the one
// transaction that drops what it supersedes; a Web Lock keeps a second tab or
// worker from writing to the same database. Read-only, it takes no lock and
// reads the database as it is: a second tab's view (its writes are refused).
// What recovery cannot use (a record failing its checksum, a snapshot that
// does not load) is moved to the `damaged` store, never deleted.
import { openDB, type IDBPDatabase } from 'idb';
import { concat } from '../util/bytes.js';
import { SNAPSHOTS_KEPT, type Damage, type Entry, type Storage, type StoredSnapshot, type Unusable } from './storage.js';
import { StorageWriteError } from './errors.js';

interface StoredEntry { taskID: number; bytes: Uint8Array; sha256: Uint8Array }

const LOG = 'log';
const SNAPSHOTS = 'snapshots';
const DAMAGED = 'damaged';
/** 2: the `damaged` store. */
const VERSION = 2;

/** A record set aside: what it was, and its bytes as stored. */
interface DamagedRecord { from: typeof LOG | typeof SNAPSHOTS; taskID: number; at: string; record: StoredEntry }

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

async function sealed(entry: Entry): Promise<StoredEntry> {
  return { taskID: entry.taskID, bytes: entry.bytes, sha256: await sha256(entry.bytes) };
}

async function intact(entry: StoredEntry): Promise<boolean> {
  const sum = await sha256(entry.bytes);
  return sum.length === entry.sha256?.length && sum.every((b, i) => b === entry.sha256[i]);
}

/** Holds the database's Web Lock (where the platform has Web Locks) until released. */
function acquireLock(name: string): Promise<() => void> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolve, reject) => {
    locks.request(`lantern-search:${name}`, { ifAvailable: true }, (lock) => {
      if (!lock) {
        reject(new Error(`IndexedDB database "${name}" is already open for writing in another tab or worker`));
        return undefined;
      }
      return new Promise<void>((release) => resolve(release));
    }).catch(reject);
  });
}

/** Options of `idbStorage(name, options)`. */
export interface IdbStorageOptions {
  /**
   * Opens the database without its Web Lock and never writes to it: the
   * engine answers searches from what the database held when it opened, and
   * refuses writes (503). For a second tab while another one writes.
   */
  readOnly?: boolean;
}

/** Moves records to the `damaged` store in one transaction (all of them, or none); a line each. */
async function setAside(db: IDBPDatabase, name: string, what: Array<{ from: typeof LOG | typeof SNAPSHOTS; taskID: number }>): Promise<string[]> {
  if (what.length === 0) return [];
  const tx = db.transaction([LOG, SNAPSHOTS, DAMAGED], 'readwrite');
  const at = new Date().toISOString();
  const moved: string[] = [];
  for (const { from, taskID } of what) {
    const record = (await tx.objectStore(from).get(taskID)) as StoredEntry | undefined;
    if (!record) continue;
    await tx.objectStore(DAMAGED).add({ from, taskID, at, record } satisfies DamagedRecord);
    await tx.objectStore(from).delete(taskID);
    moved.push(`the ${from === LOG ? 'log record' : 'snapshot'} of task ${taskID} in "${name}" moved to its "${DAMAGED}" store`);
  }
  await tx.done;
  return moved;
}

/** The engine's data in the IndexedDB database `lantern-search:<name>`. */
export function idbStorage(name: string, options: IdbStorageOptions = {}): Storage {
  const readOnly = options.readOnly ?? false;
  const refusal = `IndexedDB database "${name}" is open read-only here: another tab or worker writes to it`;
  let db: IDBPDatabase | undefined;
  let release: (() => void) | undefined;
  const database = () => {
    if (!db) throw new Error('idbStorage: not open');
    return db;
  };

  return {
    ...(readOnly ? { readOnly: refusal } : {}),

    async open() {
      if (!readOnly) release = await acquireLock(name);
      db = await openDB(`lantern-search:${name}`, VERSION, {
        upgrade(upgrading, from) {
          if (from < 1) {
            upgrading.createObjectStore(LOG, { keyPath: 'taskID' });
            upgrading.createObjectStore(SNAPSHOTS, { keyPath: 'taskID' });
          }
          if (from < 2) upgrading.createObjectStore(DAMAGED, { autoIncrement: true });
        },
      });
      const damage: Damage[] = [];
      const snapshots: StoredSnapshot[] = ((await db.getAllKeys(SNAPSHOTS)) as number[]).sort((a, b) => b - a).map((taskID) => ({
        taskID,
        read: async () => {
          const s = (await database().get(SNAPSHOTS, taskID)) as StoredEntry | undefined;
          if (!s || !(await intact(s))) throw new Error(`the snapshot at task ${taskID} in "${name}" fails its checksum`);
          return s.bytes;
        },
      }));
      // a damaged record is skipped, not the rest of the log (its key still says which task it held)
      const log: Entry[] = [];
      const damagedKeys: number[] = [];
      for (const e of (await db.getAll(LOG)) as StoredEntry[]) {
        if (await intact(e)) { log.push({ taskID: e.taskID, bytes: e.bytes }); continue; }
        damagedKeys.push(e.taskID);
        damage.push({ what: `the log record of task ${e.taskID} in "${name}" fails its checksum`, log: { after: e.taskID - 1, before: e.taskID + 1 } });
      }
      const repair = async (unusable: Unusable) => setAside(database(), name, [
        ...[...damagedKeys, ...unusable.logRecords].map((taskID) => ({ from: LOG, taskID }) as const),
        ...unusable.snapshots.map((taskID) => ({ from: SNAPSHOTS, taskID }) as const),
      ]);
      // every transaction commits whole: a store that ever had a snapshot keeps one
      // (read-only, the damaged records stay: the database is the writing tab's)
      return { snapshots, log, damage, needsSnapshot: snapshots.length > 0, ...(readOnly ? {} : { repair }) };
    },

    async append(entry) {
      // the engine refuses writes before this (see readOnly); a caller of the storage itself is refused here
      if (readOnly) throw new StorageWriteError(refusal, false);
      const record = await sealed(entry);
      const tx = database().transaction(LOG, 'readwrite');
      await tx.store.put(record);
      await tx.done;
    },

    async writeSnapshot(snapshot, prove) {
      // read-only: nothing was written here, so there is nothing to compact
      if (readOnly) return;
      // a transaction stores whole or not at all: the bytes are proven before it, then stored with the compaction
      // (one array: IndexedDB holds a value whole, so a large snapshot is copied once here)
      const pieces: Uint8Array[] = [];
      for await (const piece of snapshot.pieces) pieces.push(piece);
      const bytes = concat(pieces);
      await prove({ taskID: snapshot.taskID, read: async () => bytes });
      const record = await sealed({ taskID: snapshot.taskID, bytes });
      const tx = database().transaction([SNAPSHOTS, LOG], 'readwrite');
      const snapshots = tx.objectStore(SNAPSHOTS);
      await snapshots.put(record);
      const keys = ((await snapshots.getAllKeys()) as number[]).sort((a, b) => b - a);
      for (const old of keys.slice(SNAPSHOTS_KEPT)) await snapshots.delete(old);
      const oldestKept = keys[Math.min(keys.length, SNAPSHOTS_KEPT) - 1];
      await tx.objectStore(LOG).delete(IDBKeyRange.upperBound(oldestKept));
      await tx.done;
    },

    async close() {
      db?.close();
      db = undefined;
      release?.();
      release = undefined;
    },
  };
}
