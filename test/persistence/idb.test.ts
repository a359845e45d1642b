// idbStorage on fake-indexeddb: write, close, reopen, search; snapshots and
// log compaction inside IndexedDB; records tampered with through the raw
// IndexedDB API fail their SHA-256 and are dropped with what follows them.
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { idbStorage } from '../../src/storage/idb.js';
import { StoreDamagedError } from '../../src/storage/errors.js';
import { caller, captureFailure, captureWarnings, Lantern, readFixture, talksSettings, withoutTimings, type Call } from './helpers.js';

beforeAll(loadCore);

const open: Lantern[] = [];
afterEach(async () => {
  for (const engine of open.splice(0)) await engine.close().catch(() => {});
});

let counter = 0;
const dbName = () => `idb-test-${process.pid}-${counter++}`;

async function openIdb(name: string, options: { snapshotEvery?: number; repair?: boolean } = {}): Promise<Lantern> {
  const engine = await Lantern.open({ storage: idbStorage(name), ...options });
  open.push(engine);
  return engine;
}

async function closeIdb(engine: Lantern): Promise<void> {
  open.splice(open.indexOf(engine), 1);
  await engine.close();
}

// --- the raw database, around idbStorage

interface RawEntry { taskID: number; bytes: Uint8Array; sha256: Uint8Array }

function rawDatabase(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(`lantern-search:${name}`);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function rawEntries(name: string, store: 'log' | 'snapshots'): Promise<RawEntry[]> {
  const db = await rawDatabase(name);
  try {
    return await done(db.transaction(store).objectStore(store).getAll()) as RawEntry[];
  } finally {
    db.close();
  }
}

/** Rewrites one stored entry through the raw API. */
async function tamper(name: string, store: 'log' | 'snapshots', taskID: number, change: (entry: RawEntry) => RawEntry): Promise<void> {
  const db = await rawDatabase(name);
  try {
    const tx = db.transaction(store, 'readwrite');
    const entry = await done(tx.objectStore(store).get(taskID)) as RawEntry;
    expect(entry).toBeDefined();
    await done(tx.objectStore(store).put(change(entry)));
    await new Promise<void>((resolve, reject) => { tx.oncomplete = () => resolve(); tx.onerror = () => reject(tx.error); });
  } finally {
    db.close();
  }
}

const flipPayloadByte = (entry: RawEntry): RawEntry => {
  const bytes = new Uint8Array(entry.bytes);
  bytes[Math.floor(bytes.length / 2)] ^= 0x10;
  return { ...entry, bytes };
};

async function count(call: Call, indexName: string, query = ''): Promise<number> {
  const r = await call('POST', `/1/indexes/${indexName}/query`, { query, hitsPerPage: 0, distinct: false });
  return r.status === 404 ? 0 : r.body.nbHits;
}

describe('write, close, reopen', () => {
  it('records, settings and searches come back (TED talks subset)', async () => {
    const name = dbName();
    const talks = readFixture<any[]>('talks.json').slice(0, 400);
    const first = await openIdb(name, { snapshotEvery: 0 });
    const client = first.client();
    await client.setSettings({ indexName: 'talks', indexSettings: talksSettings() });
    await client.saveObjects({ indexName: 'talks', objects: talks, batchSize: 100, waitForTasks: true });
    await client.partialUpdateObject({ indexName: 'talks', objectID: talks[0].objectID, attributesToUpdate: { name: 'A renamed talk about lanterns' } });
    await client.deleteObject({ indexName: 'talks', objectID: talks[1].objectID });
    await first.waitForTasks();
    const call1 = caller(first);
    const queries = [
      { query: 'lantern', typoTolerance: false }, // "pattern" is "lantern" with its first letter and one more wrong (3 typos)
      { query: 'psycology', hitsPerPage: 5 },
      { query: '', facets: ['tags', 'speakers'], hitsPerPage: 3 },
      { query: 'world', filters: 'duration_range:2', page: 1, hitsPerPage: 4 },
    ];
    const expected = [];
    for (const q of queries) expected.push(withoutTimings((await call1('POST', '/1/indexes/talks/query', q)).body));
    expect(expected[0].nbHits).toBe(1);
    const settings = (await call1('GET', '/1/indexes/talks/settings')).body;
    await closeIdb(first);

    // no snapshot: everything comes back from the log
    expect(await rawEntries(name, 'snapshots')).toEqual([]);
    // settings, four batches, two single writes, and the searches' analytics events (logged as one record at close)
    expect((await rawEntries(name, 'log')).length).toBe(1 + 4 + 2 + 1);

    const second = await openIdb(name);
    const call2 = caller(second);
    for (const [i, q] of queries.entries()) expect(withoutTimings((await call2('POST', '/1/indexes/talks/query', q)).body)).toEqual(expected[i]);
    expect((await call2('GET', '/1/indexes/talks/settings')).body).toEqual(settings);
    expect((await call2('GET', `/1/indexes/talks/${talks[1].objectID}`)).status).toBe(404);
    expect(await count(call2, 'talks')).toBe(399);
    // and again from a snapshot
    await second.snapshot();
    await closeIdb(second);
    expect((await rawEntries(name, 'log')).length).toBe(0);
    const third = await openIdb(name);
    const call3 = caller(third);
    for (const [i, q] of queries.entries()) expect(withoutTimings((await call3('POST', '/1/indexes/talks/query', q)).body)).toEqual(expected[i]);
  });

  it('taskIDs continue after reopening', async () => {
    const name = dbName();
    const first = await openIdb(name);
    const last = (await caller(first)('PUT', '/1/indexes/t/1', { v: 1 })).body.taskID;
    await first.snapshot();
    await closeIdb(first);
    const second = await openIdb(name);
    expect((await caller(second)('PUT', '/1/indexes/t/2', { v: 2 })).body.taskID).toBeGreaterThan(last);
  });

  it('databases of different names are independent', async () => {
    const [a, b] = [dbName(), dbName()];
    const ea = await openIdb(a);
    const eb = await openIdb(b);
    await caller(ea)('PUT', '/1/indexes/x/only-a', { v: 'a' });
    await caller(eb)('PUT', '/1/indexes/x/only-b', { v: 'b' });
    await closeIdb(ea);
    await closeIdb(eb);
    const again = await openIdb(a);
    expect((await caller(again)('GET', '/1/indexes/x/only-a')).status).toBe(200);
    expect((await caller(again)('GET', '/1/indexes/x/only-b')).status).toBe(404);
  });
});

describe('snapshots and log compaction in IndexedDB', () => {
  it('automatic snapshots keep at most two, and the log holds only what the older one lacks', async () => {
    const name = dbName();
    const engine = await openIdb(name, { snapshotEvery: 4 });
    const call = caller(engine);
    for (let i = 0; i < 26; i++) {
      await call('PUT', `/1/indexes/auto/r${i}`, { i, text: `record ${i}` });
      await engine.waitForTasks();
      expect((await rawEntries(name, 'snapshots')).length).toBeLessThanOrEqual(2);
    }
    await closeIdb(engine);
    const snapshots = (await rawEntries(name, 'snapshots')).map((s) => s.taskID).sort((a, b) => b - a);
    expect(snapshots.length).toBe(2);
    const log = (await rawEntries(name, 'log')).map((e) => e.taskID);
    expect(log.every((t) => t > snapshots[1])).toBe(true);
    expect(log.length).toBeLessThanOrEqual(2 * 4);
    const reopened = await openIdb(name);
    expect(await count(caller(reopened), 'auto', 'record')).toBe(26);
  });

  it('an explicit snapshot compacts the log in the same transaction', async () => {
    const name = dbName();
    const engine = await openIdb(name, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 5; i++) await call('PUT', `/1/indexes/e/${i}`, { i });
    await engine.snapshot();
    expect((await rawEntries(name, 'log')).length).toBe(0);
    for (let i = 5; i < 8; i++) await call('PUT', `/1/indexes/e/${i}`, { i });
    await engine.snapshot();
    // the previous snapshot is kept, and the writes after it (it does not contain them)
    expect((await rawEntries(name, 'snapshots')).map((s) => s.taskID)).toEqual([5, 8]);
    expect((await rawEntries(name, 'log')).map((e) => e.taskID)).toEqual([6, 7, 8]);
    await closeIdb(engine);
    const reopened = await openIdb(name);
    expect(await count(caller(reopened), 'e')).toBe(8);
  });
});

describe('a second open of the same database', () => {
  const hasLocks = Boolean((globalThis as any).navigator?.locks);
  it.skipIf(!hasLocks)('fails with a clear error while the first is open (Web Locks; Node 20 has none: see browser.test.ts)', async () => {
    const name = dbName();
    const first = await openIdb(name);
    const { error } = await captureFailure(() => openIdb(name));
    expect(error?.message).toMatch(/already open for writing/);
    await closeIdb(first);
    await closeIdb(await openIdb(name));
  });
});

describe('checksum mismatch', () => {
  async function seed(name: string): Promise<number[]> {
    const engine = await openIdb(name, { snapshotEvery: 0 });
    const call = caller(engine);
    const ids: number[] = [];
    for (let i = 1; i <= 6; i++) ids.push((await call('PUT', `/1/indexes/c/r${i}`, { i })).body.taskID);
    await closeIdb(engine);
    return ids;
  }

  for (const [what, change] of [
    ['its bytes changed', flipPayloadByte],
    ['its checksum changed', (e: RawEntry) => ({ ...e, sha256: new Uint8Array(e.sha256).map((b, i) => (i === 0 ? b ^ 1 : b)) })],
    ['its checksum missing', (e: RawEntry) => ({ taskID: e.taskID, bytes: e.bytes }) as RawEntry],
  ] as Array<[string, (e: RawEntry) => RawEntry]>) {
    it(`a middle log record with ${what}: the open refuses and changes nothing; a repair drops that record only`, async () => {
      const name = dbName();
      const ids = await seed(name);
      await tamper(name, 'log', ids[3], change);
      const before = await rawEntries(name, 'log');
      const { error } = await captureFailure(() => openIdb(name));
      expect(error).toBeInstanceOf(StoreDamagedError);
      expect(error!.message).toMatch(new RegExp(`task ${ids[3]}.*checksum.*may be lost`));
      expect(await rawEntries(name, 'log')).toEqual(before);

      const { result: engine, warnings } = await captureWarnings(() => openIdb(name, { repair: true }));
      expect(warnings.join('\n')).toMatch(new RegExp(`${ids[3]}.*checksum|checksum.*${ids[3]}`));
      const call = caller(engine);
      for (const i of [1, 2, 3, 5, 6]) expect((await call('GET', `/1/indexes/c/r${i}`)).status).toBe(200);
      expect((await call('GET', '/1/indexes/c/r4')).status).toBe(404);
      // the repair stands on a snapshot of what was kept; the damaged record is gone from the log
      expect((await rawEntries(name, 'log')).map((e) => e.taskID)).not.toContain(ids[3]);
      const next = (await call('PUT', '/1/indexes/c/next', { v: 'next' })).body.taskID;
      expect(next).toBeGreaterThan(ids[5]);
      await closeIdb(engine);
      const { result: again, warnings: quiet } = await captureWarnings(() => openIdb(name));
      expect(quiet).toEqual([]);
      expect(await count(caller(again), 'c')).toBe(6);
    });
  }

  it('the last log record tampered: an acknowledged write, so the open refuses; a repair drops only it', async () => {
    const name = dbName();
    const ids = await seed(name);
    await tamper(name, 'log', ids[5], flipPayloadByte);
    const { error } = await captureFailure(() => openIdb(name));
    expect(error).toBeInstanceOf(StoreDamagedError);
    const { result: engine, warnings } = await captureWarnings(() => openIdb(name, { repair: true }));
    expect(warnings.join('\n')).toMatch(/checksum/);
    expect(await count(caller(engine), 'c')).toBe(5);
  });

  it('the newest snapshot tampered: the previous one plus the log, with a warning', async () => {
    const name = dbName();
    const engine = await openIdb(name, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 4; i++) await call('PUT', `/1/indexes/s/a${i}`, { i });
    await engine.snapshot();
    for (let i = 0; i < 4; i++) await call('PUT', `/1/indexes/s/b${i}`, { i });
    await call('DELETE', '/1/indexes/s/a0');
    await engine.snapshot();
    await call('PUT', '/1/indexes/s/c0', { v: 'c' });
    await closeIdb(engine);
    const [newest] = (await rawEntries(name, 'snapshots')).map((s) => s.taskID).sort((a, b) => b - a);
    await tamper(name, 'snapshots', newest, flipPayloadByte);
    const { result: reopened, warnings } = await captureWarnings(() => openIdb(name));
    expect(warnings.join('\n')).toMatch(/snapshot/);
    const c = caller(reopened);
    expect(await count(c, 's')).toBe(8);
    expect((await c('GET', '/1/indexes/s/a0')).status).toBe(404);
    expect((await c('GET', '/1/indexes/s/c0')).body).toEqual({ objectID: 'c0', v: 'c' });
  });

  it('every snapshot tampered and the log compacted: the open fails with a clear error', async () => {
    const name = dbName();
    const engine = await openIdb(name, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 4; i++) await call('PUT', `/1/indexes/s/a${i}`, { i });
    await engine.snapshot();
    for (let i = 0; i < 4; i++) await call('PUT', `/1/indexes/s/b${i}`, { i });
    await engine.snapshot();
    await call('PUT', '/1/indexes/s/c0', { v: 'c' });
    await closeIdb(engine);
    for (const s of await rawEntries(name, 'snapshots')) await tamper(name, 'snapshots', s.taskID, flipPayloadByte);
    const { error } = await captureFailure(() => openIdb(name));
    expect(error?.message ?? 'opened without an error (and without the data)').toMatch(/snapshot/i);
  });
});

describe('read-only', () => {
  /** A new database a writing tab left: five notes in five writes, snapshots every two. */
  async function writtenNotes(): Promise<string> {
    const name = dbName();
    const writer = await openIdb(name, { snapshotEvery: 2 });
    const write = caller(writer);
    for (let i = 0; i < 5; i++) await write('POST', '/1/indexes/notes/batch', { requests: [{ action: 'addObject', body: { objectID: String(i), text: `amber note ${i}` } }] });
    await writer.waitForTasks();
    await closeIdb(writer);
    return name;
  }

  it('searches what the database holds, refuses writes with a 503, and changes nothing', async () => {
    const name = await writtenNotes();

    const reader = await Lantern.open({ storage: idbStorage(name, { readOnly: true }) });
    open.push(reader);
    const read = caller(reader);
    const found = await read('POST', '/1/indexes/notes/query', { query: 'amber' });
    expect(found.body.nbHits).toBe(5);
    const refused = await read('POST', '/1/indexes/notes/batch', { requests: [{ action: 'addObject', body: { objectID: 'x', text: 'amber' } }] });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/open read-only here: another tab or worker writes to it/);
    await reader.snapshot();
    await closeIdb(reader);
    expect(await rawEntries(name, 'snapshots')).toHaveLength(2);

    // the database is as the writer left it
    const again = await openIdb(name);
    expect((await caller(again)('POST', '/1/indexes/notes/query', { query: 'amber' })).body.nbHits).toBe(5);
  });

  it('leaves a damaged record where it is: only the writing tab repairs the database', async () => {
    const name = await writtenNotes();
    // a log record a newer snapshot already holds: damaged, nothing is lost
    const covered = Math.min(...(await rawEntries(name, 'log')).map((e) => e.taskID));
    expect(Math.max(...(await rawEntries(name, 'snapshots')).map((s) => s.taskID))).toBeGreaterThanOrEqual(covered);
    await tamper(name, 'log', covered, flipPayloadByte);
    const before = await rawEntries(name, 'log');

    const reader = await Lantern.open({ storage: idbStorage(name, { readOnly: true }) });
    open.push(reader);
    expect(await count(caller(reader), 'notes', 'amber')).toBe(5);
    await closeIdb(reader);
    expect(await rawEntries(name, 'log')).toEqual(before);
  });
});
