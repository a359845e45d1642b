// Snapshots on fsStorage in real temporary directories: a snapshot and a
// reopen give the same engine (TED talks: searches, facets, settings,
// records), the log after a snapshot is replayed, automatic snapshots keep
// two files and compact the log, a corrupt snapshot falls back to the
// previous one plus the log (with a warning) or fails the open clearly.
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Codec } from '../../src/durability/persistence.js';
import { loadCore } from '../../src/core/wasm.js';
import {
  caller, captureFailure, captureWarnings, cleanup, closeEngine, directoryContents, Lantern, logRecords, logSize, openAt, readFixture,
  snapshotFiles, talksSettings, tempDir, withoutTimings, type Call,
} from './helpers.js';

const talks = readFixture<any[]>('talks.json');

beforeAll(loadCore);
afterEach(cleanup);
afterEach(() => { vi.restoreAllMocks(); }); // the spy that slows a snapshot's encoding

/** Every record of an index through browse (cursor pages), sorted by objectID. */
async function allRecords(call: Call, indexName: string): Promise<any[]> {
  const records: any[] = [];
  let cursor: string | undefined;
  do {
    const r = await call('POST', `/1/indexes/${indexName}/browse`, cursor ? { cursor } : { hitsPerPage: 1000 });
    expect(r.status).toBe(200);
    records.push(...r.body.hits);
    cursor = r.body.cursor;
  } while (cursor);
  return records.sort((a, b) => (a.objectID < b.objectID ? -1 : a.objectID > b.objectID ? 1 : 0));
}

const TALK_QUERIES: Array<Record<string, unknown>> = [
  { query: 'giver' },
  { query: 'gvier', hitsPerPage: 5 },
  { query: 'psycology', hitsPerPage: 10 },
  { query: '', hitsPerPage: 5, facets: ['tags', 'speakers', 'event_name', 'languages', 'duration_range'], maxValuesPerFacet: 25 },
  { query: 'love', filters: 'duration_range:2', page: 1, hitsPerPage: 8 },
  { query: 'the future', facets: ['*'], facetFilters: [['tags:technology', 'tags:science']], numericFilters: ['viewed_count > 100000'], hitsPerPage: 7 },
  { query: 'ted', distinct: false, attributesToRetrieve: ['name', 'speakers'], hitsPerPage: 50 },
  { query: 'adam grant', getRankingInfo: true },
  { query: 'brain', attributesToSnippet: ['description:10'], attributesToHighlight: ['name', 'description'] },
];

/** What the engine answers about the talks index: searches, a facet search, settings, every record, the index list. */
async function talksFingerprint(call: Call, indexName = 'talks') {
  const searches = [];
  for (const params of TALK_QUERIES) {
    const r = await call('POST', `/1/indexes/${indexName}/query`, params);
    expect(r.status).toBe(200);
    searches.push(withoutTimings(r.body));
  }
  const facetSearch = await call('POST', `/1/indexes/${indexName}/facets/tags/query`, { facetQuery: 'psy' });
  expect(facetSearch.status).toBe(200);
  const settings = await call('GET', `/1/indexes/${indexName}/settings`);
  return {
    searches,
    facetSearch: withoutTimings(facetSearch.body),
    settings: settings.body,
    records: await allRecords(call, indexName),
    indexes: await indexList(call),
  };
}

/** The index list without the memory figures (dataSize/fileSize measure the WebAssembly memory, not the data). */
async function indexList(call: Call) {
  const r = await call('GET', '/1/indexes');
  expect(r.status).toBe(200);
  return r.body.items.map((i: any) => ({ name: i.name, entries: i.entries, createdAt: i.createdAt, updatedAt: i.updatedAt }));
}

const withoutIndexDates = <T extends { indexes: any[] }>(fp: T): T => ({
  ...fp, indexes: fp.indexes.map(({ name, entries }) => ({ name, entries })),
});

async function loadTalks(engine: Lantern): Promise<void> {
  const client = engine.client();
  await client.setSettings({ indexName: 'talks', indexSettings: talksSettings() });
  await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
  await engine.waitForTasks();
}

describe('snapshot and reopen', () => {
  it('gives identical searches, facets, settings, records and index list (TED talks)', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { snapshotEvery: 0 });
    await loadTalks(first);
    const call1 = caller(first);
    const before = await talksFingerprint(call1);
    expect(before.records.length).toBe(talks.length);
    expect(before.searches[1].hits[0]).toMatchObject({ objectID: '2652' }); // the typo still finds the giver talk
    expect(Object.keys(before.searches[3].facets).sort()).toEqual(['duration_range', 'event_name', 'languages', 'speakers', 'tags']);

    await first.snapshot();
    const snaps = snapshotFiles(dir);
    expect(snaps.length).toBe(1);
    const lastTask = logRecords(dir).at(-1)?.taskID;
    // the one snapshot holds everything: the log is compacted to nothing
    expect(logSize(dir)).toBe(0);
    expect(lastTask).toBeUndefined();
    // the engine that took the snapshot still answers the same
    expect(await talksFingerprint(call1)).toEqual(before);
    await closeEngine(first);

    // the snapshot is binary, not JSON, and no larger than the raw records
    const bytes = readFileSync(snaps[0].path);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('LNT2');
    expect(bytes.length).toBeLessThan(Buffer.byteLength(JSON.stringify(talks)));

    const second = await openAt(dir);
    expect(await talksFingerprint(caller(second))).toEqual(before);
  });

  it('the snapshot file is named after the last applied taskID', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    let last = 0;
    for (let i = 0; i < 5; i++) last = (await call('PUT', `/1/indexes/n/${i}`, { i })).body.taskID;
    await engine.snapshot();
    expect(snapshotFiles(dir).map((s) => s.taskID)).toEqual([last]);
  });

  it('writes after a snapshot are in the log and replayed on reopen', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { snapshotEvery: 0 });
    await loadTalks(first);
    await first.snapshot();
    const snapshotTask = snapshotFiles(dir)[0].taskID;
    const client = first.client();
    const call = caller(first);
    const added = await client.saveObject({ indexName: 'talks', body: { objectID: 'after-1', name: 'Lighthouse keepers of the northern sea', speakers: ['Zed Quill'], tags: ['oceans'], date: 1600000000 } });
    await client.partialUpdateObject({ indexName: 'talks', objectID: '2652', attributesToUpdate: { name: 'Are you a giver or a taker? (updated)', viewed_count: { _operation: 'Increment', value: 1 } } });
    await client.deleteObject({ indexName: 'talks', objectID: talks[1].objectID });
    await client.setSettings({ indexName: 'talks', indexSettings: { customRanking: ['desc(viewed_count)'] } });
    await client.batch({ indexName: 'extra', batchWriteParams: { requests: [{ action: 'addObject', body: { objectID: 'x1', title: 'lighthouse' } }] } });
    await first.waitForTasks();
    const expected = await talksFingerprint(call);
    expect(expected.records.length).toBe(talks.length); // one added, one deleted
    await closeEngine(first);

    const tail = logRecords(dir);
    // the five writes, then the fingerprint's searches (analytics events, logged as one record at close)
    expect(tail.length).toBe(6);
    expect(tail.every((r) => r.crcOk && r.taskID > snapshotTask)).toBe(true);
    expect(tail[0].taskID).toBe(added.taskID);

    const second = await openAt(dir);
    const call2 = caller(second);
    // replay stamps nothing new on records, settings or searches
    expect(withoutIndexDates(await talksFingerprint(call2))).toEqual(withoutIndexDates(expected));
    expect((await call2('GET', '/1/indexes/talks/2652')).body.name).toBe('Are you a giver or a taker? (updated)');
    expect((await call2('GET', `/1/indexes/talks/${talks[1].objectID}`)).status).toBe(404);
    expect((await call2('POST', '/1/indexes/talks/query', { query: 'lighthouse' })).body.hits.map((h: any) => h.objectID)).toEqual(['after-1']);
    expect((await call2('GET', '/1/indexes/extra/x1')).body).toEqual({ objectID: 'x1', title: 'lighthouse' });
  });

  it('ranks not yet computed when the snapshot is taken (writes, or a virtual replica searched last) are computed after the restart', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(first);
    await call('PUT', '/1/indexes/ranked/settings', { customRanking: ['desc(score)'], replicas: ['virtual(ranked_asc)'] });
    await call('PUT', '/1/indexes/ranked_asc/settings', { customRanking: ['asc(score)'] });
    const scores = [5, 1, 9, 3, 7];
    await call('POST', '/1/indexes/ranked/batch', { requests: scores.map((score, i) => ({ action: 'addObject', body: { objectID: `r${i}`, title: 'lamp', score } })) });
    await first.waitForTasks();
    const order = async (c: Call, index: string) => (await c('POST', `/1/indexes/${index}/query`, { query: 'lamp' })).body.hits.map((h: any) => h.score);
    const descending = [...scores].sort((a, b) => b - a);
    expect(await order(call, 'ranked_asc')).toEqual([...descending].reverse()); // the shared core holds the replica's ranks now
    await call('POST', '/1/indexes/ranked/batch', { requests: [{ action: 'addObject', body: { objectID: 'late', title: 'lamp', score: 8 } }] });
    await first.waitForTasks();
    await first.snapshot(); // no search since the last write: no ranks computed for it
    await closeEngine(first);
    rmSync(join(dir, 'log.bin'), { force: true }); // the snapshot alone
    const second = await openAt(dir);
    const call2 = caller(second);
    const withLate = [9, 8, 7, 5, 3, 1];
    expect(await order(call2, 'ranked')).toEqual(withLate);
    expect(await order(call2, 'ranked_asc')).toEqual([...withLate].reverse());
    expect(await order(call2, 'ranked')).toEqual(withLate);
    await closeEngine(second);
  });

  it('index metadata (createdAt, updatedAt) is the same after a reopen that replays the log', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(first);
    await call('PUT', '/1/indexes/meta/1', { v: 1 });
    await first.waitForTasks();
    const before = await indexList(call);
    await closeEngine(first);
    await new Promise((r) => setTimeout(r, 20));
    const second = await openAt(dir);
    expect(await indexList(caller(second))).toEqual(before);
  });
});

describe('automatic snapshots', () => {
  it('appear every `snapshotEvery` writes, at most two are kept, and the log shrinks', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 5 });
    const call = caller(engine);
    const writes = 37;
    let maxLog = 0;
    const seenSnapshots = new Set<number>();
    for (let i = 0; i < writes; i++) {
      await call('PUT', `/1/indexes/auto/r${i}`, { i, text: `record number ${i} with some words to make the log grow` });
      await engine.waitForTasks();
      const snaps = snapshotFiles(dir);
      expect(snaps.length).toBeLessThanOrEqual(2);
      for (const s of snaps) seenSnapshots.add(s.taskID);
      maxLog = Math.max(maxLog, logRecords(dir).length);
      // compaction keeps the log to the writes after the older kept snapshot: two intervals between
      // snapshots, then the writes of one in flight. An interval is 5 writes, or 6 when a write due for the
      // next snapshot waited for the one in flight (the write stall)
      expect(logRecords(dir).length).toBeLessThanOrEqual(6 + 6 + 5);
    }
    await closeEngine(engine); // waits for a snapshot in flight
    const snaps = snapshotFiles(dir);
    expect(snaps.length).toBe(2);
    for (const s of snaps) seenSnapshots.add(s.taskID);
    expect(seenSnapshots.size).toBeGreaterThanOrEqual(Math.floor(writes / 5) - 1);
    // the log keeps only what the older kept snapshot does not contain
    const oldestKept = snaps[1].taskID;
    const log = logRecords(dir);
    expect(log.every((r) => r.crcOk && r.taskID > oldestKept)).toBe(true);
    expect(log.length).toBeLessThanOrEqual(2 * 5);
    expect(maxLog).toBeLessThan(writes);

    const reopened = await openAt(dir);
    const search = await caller(reopened)('POST', '/1/indexes/auto/query', { query: 'record', hitsPerPage: 100 });
    expect(search.body.nbHits).toBe(writes);
  });

  it('still happen while writes keep arriving (a sustained load does not postpone them forever)', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 10 });
    const client = engine.client();
    let n = 0;
    let snapshotsDuringLoad = 0;
    let maxLogRecords = 0;
    let logShrank = false;
    // at least 1.5 s of load, and on until the log was compacted during it (a busy machine takes longer), 10 s at most
    const started = performance.now();
    const loading = () => performance.now() - started < 1500 || (!logShrank && performance.now() - started < 10_000);
    // two clients, each sending its next write once the previous one is acknowledged, on a new turn of the event loop
    const writer = async () => {
      while (loading()) {
        await new Promise((resolve) => setImmediate(resolve));
        const i = n++;
        await client.saveObject({ indexName: 'load', body: { objectID: `o${i}`, i } });
        snapshotsDuringLoad = Math.max(snapshotsDuringLoad, snapshotFiles(dir).length);
        const logged = logRecords(dir).length;
        if (logged < maxLogRecords) logShrank = true;
        maxLogRecords = Math.max(maxLogRecords, logged);
      }
    };
    await Promise.all([writer(), writer()]);
    expect(n).toBeGreaterThan(100);
    expect(snapshotsDuringLoad, `${n} writes with snapshotEvery: 10; the log grew to ${maxLogRecords} records, ${engine.tasks.pendingCount} tasks still queued`).toBeGreaterThanOrEqual(1);
    expect(logShrank, `the log was compacted while ${n} writes kept arriving`).toBe(true);
    expect(maxLogRecords).toBeLessThan(n);
  });

  it('a snapshot due while the one before it is still being encoded holds later writes until it is stored', async () => {
    const dir = tempDir();
    // a slow machine: the first snapshot's encoding is held until released
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const encode = Codec.prototype.encodeSnapshot;
    let encodings = 0;
    vi.spyOn(Codec.prototype, 'encodeSnapshot').mockImplementation(async function (this: Codec, state: unknown) {
      if (++encodings === 1) await held;
      return encode.call(this, state);
    });
    const engine = await openAt(dir, { snapshotEvery: 2 });
    const call = caller(engine);
    const status = async (taskID: number) => (await call('GET', `/1/indexes/slow/task/${taskID}`)).body.status;
    const put = async (i: number) => (await call('PUT', `/1/indexes/slow/r${i}`, { text: `stalled record ${i}` })).body.taskID as number;
    const hits = async () => (await call('POST', '/1/indexes/slow/query', { query: 'stalled', hitsPerPage: 10 })).body.nbHits;
    const ids: number[] = [];
    for (let i = 1; i <= 4; i++) {
      ids.push(await put(i));
      await engine.waitForTasks();
    }
    expect(encodings).toBe(1); // the snapshot after the second write, held
    ids.push(await put(5), await put(6));
    await new Promise((resolve) => setTimeout(resolve, 50));

    // the third and fourth writes went on; the fifth is the first past the due snapshot, and waits with the sixth
    expect(await Promise.all(ids.map(status))).toEqual(['published', 'published', 'published', 'published', 'notPublished', 'notPublished']);
    expect(await hits()).toBe(4);
    expect(snapshotFiles(dir)).toEqual([]);

    release();
    await engine.waitForTasks();
    expect(await Promise.all(ids.map(status))).toEqual(ids.map(() => 'published'));
    expect(await hits()).toBe(6);
    await closeEngine(engine);
    // the held snapshot (after 2), then the one that was due, taken after the writes queued when it started
    expect(snapshotFiles(dir).map((s) => s.taskID)).toEqual([6, 2]);
    // the log keeps what the older snapshot lacks: the four writes, then the searches' analytics events (logged at close)
    expect(logRecords(dir).map((r) => r.taskID)).toEqual([3, 4, 5, 6, 7]);
  });

  it('come from searches alone: their analytics events are logged, and the log does not grow for good', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 2 });
    const call = caller(engine);
    await call('PUT', '/1/indexes/read/r1', { text: 'a record read many times' });
    await engine.waitForTasks();
    const searches = 6_000; // logged 500 at a time: a dozen entries
    for (let i = 0; i < searches; i++) {
      expect((await call('POST', '/1/indexes/read/query', { query: `record ${i}` })).status).toBe(200);
      if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve)); // the turns a server's requests come on
    }
    await vi.waitFor(() => expect(snapshotFiles(dir).length).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 50 });
    expect(snapshotFiles(dir)[0].taskID).toBeGreaterThan(1); // taken after the record's write, by search events
    await closeEngine(engine);
    // the log is cut back as snapshots hold its entries: the record's write and the first searches' events are gone
    // (a part of the log goes once both kept snapshots hold all of it; entries go on arriving while one is taken)
    const log = logRecords(dir);
    const described = `log ${log.map((r) => r.taskID)}; snapshots ${snapshotFiles(dir).map((s) => s.taskID)}`;
    expect(snapshotFiles(dir), described).toHaveLength(2);
    expect(log[0]!.taskID, described).toBeGreaterThan(1);
    const reopened = await openAt(dir);
    expect(reopened.analytics.store.searches).toHaveLength(searches);
  });

  it('snapshotEvery: 0 never snapshots on its own', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 30; i++) await call('PUT', `/1/indexes/manual/r${i}`, { i });
    await closeEngine(engine);
    expect(snapshotFiles(dir)).toEqual([]);
    expect(logRecords(dir).length).toBe(30);
  });

  it('two explicit snapshots keep two files; a third drops the oldest and the log before the second', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    const taskIDs: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) await call('PUT', `/1/indexes/three/r${round}-${i}`, { round, i });
      await engine.snapshot();
      taskIDs.push(snapshotFiles(dir)[0].taskID);
    }
    expect(snapshotFiles(dir).map((s) => s.taskID)).toEqual([taskIDs[2], taskIDs[1]]);
    // everything up to the older kept snapshot is compacted away; what is after it stays
    expect(logRecords(dir).map((r) => r.taskID)).toEqual([taskIDs[1] + 1, taskIDs[1] + 2, taskIDs[1] + 3, taskIDs[1] + 4]);
    // what was superseded is deleted in the background, and gone once the engine is closed
    await closeEngine(engine);
    expect(readdirSync(dir).filter((f) => !/^(manifest\.json|log(-\d{16})?\.bin|snapshot-\d{16}\.bin)$/.test(f))).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.startsWith('snapshot-'))).toHaveLength(2);
  });
});

describe('a corrupt snapshot', () => {
  /** Three rounds of writes: snapshot A, more writes, snapshot B, more writes (only in the log). */
  async function history(dir: string): Promise<{ expected: any[]; a: number; b: number }> {
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 5; i++) await call('PUT', `/1/indexes/h/a${i}`, { phase: 'a', i, text: 'alpha words' });
    await engine.snapshot();
    for (let i = 0; i < 5; i++) await call('PUT', `/1/indexes/h/b${i}`, { phase: 'b', i, text: 'bravo words' });
    await call('DELETE', '/1/indexes/h/a0');
    await engine.snapshot();
    for (let i = 0; i < 5; i++) await call('PUT', `/1/indexes/h/c${i}`, { phase: 'c', i, text: 'charlie words' });
    await call('POST', '/1/indexes/h/a1/partial', { text: 'alpha words patched' });
    await engine.waitForTasks();
    const expected = await allRecords(call, 'h');
    await closeEngine(engine);
    const [b, a] = snapshotFiles(dir).map((s) => s.taskID);
    return { expected, a, b };
  }

  function flipByte(path: string, at: (length: number) => number): void {
    const bytes = readFileSync(path);
    bytes[at(bytes.length)] ^= 0x5a;
    writeFileSync(path, bytes);
  }

  for (const [where, at] of [
    ['in the header', () => 2],
    ['in the checksum', () => 10],
    ['in the middle', (n: number) => Math.floor(n / 2)],
    ['at the end', (n: number) => n - 1],
  ] as Array<[string, (n: number) => number]>) {
    it(`newest snapshot with a byte flipped ${where}: falls back to the previous one plus the log, with a warning`, async () => {
      const dir = tempDir();
      const { expected, a, b } = await history(dir);
      expect(b).toBeGreaterThan(a);
      const newest = snapshotFiles(dir)[0];
      flipByte(newest.path, at);
      const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
      expect(warnings.join('\n')).toMatch(new RegExp(`snapshot.*${b}|${b}.*snapshot`, 'i'));
      const call = caller(engine);
      expect(await allRecords(call, 'h')).toEqual(expected);
      expect((await call('GET', '/1/indexes/h/a0')).status).toBe(404);
      expect((await call('POST', '/1/indexes/h/query', { query: 'charlie' })).body.nbHits).toBe(5);
      // the next write gets a taskID after everything the log held
      const next = await call('PUT', '/1/indexes/h/d0', { phase: 'd' });
      expect(next.body.taskID).toBeGreaterThan(logRecords(dir).at(-2)!.taskID);
    });
  }

  it('every snapshot corrupt and the log compacted: the open fails with a clear error', async () => {
    const dir = tempDir();
    await history(dir);
    for (const s of snapshotFiles(dir)) flipByte(s.path, (n) => Math.floor(n / 2));
    const before = directoryContents(dir);
    const { error } = await captureFailure(() => openAt(dir));
    expect(directoryContents(dir)).toEqual(before);
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/snapshot/i);
    // the failed open released the lock and left the files as they were
    const again = await captureFailure(() => openAt(dir));
    expect(again.error?.message).toBe(error!.message);
  });

  it('the only snapshot corrupt and the log compacted to nothing: the open fails, it does not start empty', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 4; i++) await call('PUT', `/1/indexes/only/r${i}`, { i });
    await engine.snapshot();
    await closeEngine(engine);
    expect(logSize(dir)).toBe(0);
    const [only] = snapshotFiles(dir);
    flipByte(only.path, (n) => Math.floor(n / 2));
    const { error } = await captureFailure(() => openAt(dir));
    expect(error?.message ?? 'opened with no error (and no data)').toMatch(/snapshot/i);
  });

  it('the only snapshot corrupt and the log holding writes after it: the open fails', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    for (let i = 0; i < 4; i++) await call('PUT', `/1/indexes/only/r${i}`, { i });
    await engine.snapshot();
    await call('PUT', '/1/indexes/only/after', { after: true });
    await closeEngine(engine);
    const [only] = snapshotFiles(dir);
    flipByte(only.path, (n) => n - 5);
    const { error } = await captureFailure(() => openAt(dir));
    expect(error?.message ?? 'opened with no error').toMatch(/snapshot/i);
  });

  it('a corrupt older snapshot is never needed while the newest is intact (no warning)', async () => {
    const dir = tempDir();
    const { expected } = await history(dir);
    flipByte(snapshotFiles(dir)[1].path, (n) => Math.floor(n / 2));
    const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings).toEqual([]);
    expect(await allRecords(caller(engine), 'h')).toEqual(expected);
  });
});

describe('what a snapshot holds', () => {
  it('a write handed over while a snapshot waits for the tasks before it, then a change applied at once: the write is not skipped', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    // a batch the queue takes a while to index: the snapshot asked for next waits for it
    const records = Array.from({ length: 10_000 }, (_, i) => ({ action: 'addObject', body: { objectID: `r${i}`, text: `record ${i} of a batch that takes its time` } }));
    expect((await call('POST', '/1/indexes/held/batch', { requests: records })).status).toBe(200);
    const snapshot = engine.snapshot();
    // queued after the snapshot's capture, then a key (applied at once) handed over after it
    const late = await call('PUT', '/1/indexes/held/late', { text: 'the write after the snapshot was asked for' });
    expect(late.status).toBe(200);
    expect((await call('POST', '/1/keys', { acl: ['search'] })).status).toBe(200);
    // the interleaving took place: the write waits behind the batch and the snapshot while the key is applied
    expect((await call('GET', `/1/indexes/held/task/${late.body.taskID}`)).body.status).toBe('notPublished');
    await snapshot;
    expect(snapshotFiles(dir)[0]!.taskID).toBeLessThan(late.body.taskID);
    await closeEngine(engine);
    const reopened = await openAt(dir);
    expect((await caller(reopened)('GET', '/1/indexes/held/late')).status).toBe(200);
  });

  /** The same scenario checked twice: once reopened from a snapshot, once replayed from the log after it. */
  async function scenario(call: Call): Promise<void> {
    await call('PUT', '/1/indexes/s/settings', { searchableAttributes: ['title', 'body'], attributesForFaceting: ['kind'], customRanking: ['desc(score)'] });
    await call('POST', '/1/indexes/s/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'keep', title: 'lantern keeper', kind: 'a', score: 1, n: 1 } },
        { action: 'addObject', body: { objectID: 'gone', title: 'lantern gone', kind: 'b', score: 2 } },
        { action: 'addObject', body: { objectID: 'patched', title: 'lantern patched', kind: 'a', score: 3, tags: ['x'] } },
      ],
    });
    await call('DELETE', '/1/indexes/s/gone');
    await call('POST', '/1/indexes/s/patched/partial', { score: { _operation: 'Increment', value: 10 }, tags: { _operation: 'Add', value: 'y' }, title: 'lantern patched twice' });
    await call('POST', '/1/indexes/s/keep/partial', { n: { _operation: 'Decrement', value: 5 } });
    await call('POST', '/1/indexes/s/deleteByQuery', { filters: 'kind:b' });
    // an index cleared, then refilled
    await call('PUT', '/1/indexes/cleared/old', { v: 'old' });
    await call('POST', '/1/indexes/cleared/clear');
    await call('PUT', '/1/indexes/cleared/new', { v: 'new' });
    // an index deleted, and one deleted then recreated
    await call('PUT', '/1/indexes/dropped/1', { v: 1 });
    await call('DELETE', '/1/indexes/dropped');
    await call('PUT', '/1/indexes/reborn/old', { v: 'old' });
    await call('PUT', '/1/indexes/reborn/settings', { searchableAttributes: ['v'] });
    await call('DELETE', '/1/indexes/reborn');
    await call('PUT', '/1/indexes/reborn/new', { v: 'new' });
    // settings changed twice, then one reset to its default
    await call('PUT', '/1/indexes/s/settings', { hitsPerPage: 7, unretrievableAttributes: ['n'] });
    await call('PUT', '/1/indexes/s/settings', { unretrievableAttributes: null });
  }

  async function check(call: Call, otherIndexes: string[] = []): Promise<void> {
    expect((await call('GET', '/1/indexes/s/gone')).status).toBe(404);
    expect((await call('GET', '/1/indexes/s/keep')).body).toEqual({ objectID: 'keep', title: 'lantern keeper', kind: 'a', score: 1, n: -4 });
    expect((await call('GET', '/1/indexes/s/patched')).body).toEqual({ objectID: 'patched', title: 'lantern patched twice', kind: 'a', score: 13, tags: ['x', 'y'] });
    const search = (await call('POST', '/1/indexes/s/query', { query: 'lantern', facets: ['kind'] })).body;
    expect(search.hits.map((h: any) => h.objectID)).toEqual(['patched', 'keep']);
    expect(search.facets).toEqual({ kind: { a: 2 } });
    expect(search.hitsPerPage).toBe(7);
    expect((await call('POST', '/1/indexes/s/query', { query: 'gone' })).body.nbHits).toBe(0);
    const settings = (await call('GET', '/1/indexes/s/settings')).body;
    expect(settings).toMatchObject({ searchableAttributes: ['title', 'body'], attributesForFaceting: ['kind'], customRanking: ['desc(score)'], hitsPerPage: 7 });
    expect(settings.unretrievableAttributes ?? null).toBeNull();
    expect((await call('POST', '/1/indexes/cleared/query', { query: '' })).body.hits.map((h: any) => h.objectID)).toEqual(['new']);
    expect((await call('GET', '/1/indexes/dropped/1')).status).toBe(404);
    expect((await call('GET', '/1/indexes/reborn/old')).status).toBe(404);
    expect((await call('GET', '/1/indexes/reborn/new')).body).toEqual({ objectID: 'new', v: 'new' });
    expect((await call('GET', '/1/indexes/reborn/settings')).body.searchableAttributes ?? null).toBeNull();
    const names = (await call('GET', '/1/indexes')).body.items.map((i: any) => i.name).sort();
    expect(names).toEqual(['cleared', 'reborn', 's', ...otherIndexes].sort());
  }

  it('deletes, partial updates, clear, deleteIndex and settings changes survive a snapshot', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { snapshotEvery: 0 });
    await scenario(caller(first));
    await first.waitForTasks();
    await check(caller(first));
    await first.snapshot();
    await closeEngine(first);
    expect(logSize(dir)).toBe(0);
    const second = await openAt(dir);
    await check(caller(second));
    // and a snapshot of a reopened snapshot is just as good
    await second.snapshot();
    await closeEngine(second);
    const third = await openAt(dir);
    await check(caller(third));
  });

  it('the same changes survive when replayed from the log after a snapshot', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { snapshotEvery: 0 });
    await caller(first)('PUT', '/1/indexes/unrelated/1', { v: 1 });
    await first.snapshot();
    await scenario(caller(first));
    await closeEngine(first);
    expect(logRecords(dir).length).toBeGreaterThan(10);
    const second = await openAt(dir);
    const call = caller(second);
    await check(call, ['unrelated']);
    expect((await call('GET', '/1/indexes/unrelated/1')).body).toEqual({ objectID: '1', v: 1 });
  });

  it('taskIDs keep increasing after reopening from a snapshot with an empty log', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(first);
    let last = 0;
    for (let i = 0; i < 6; i++) last = (await call('PUT', `/1/indexes/t/${i}`, { i })).body.taskID;
    await first.snapshot();
    await closeEngine(first);
    expect(logSize(dir)).toBe(0);

    const second = await openAt(dir);
    const call2 = caller(second);
    expect((await call2('GET', `/1/indexes/t/task/${last}`)).body.status).toBe('published');
    const next = (await call2('PUT', '/1/indexes/t/next', { v: 1 })).body.taskID;
    expect(next).toBeGreaterThan(last);
    await closeEngine(second);

    const third = await openAt(dir);
    const after = (await caller(third)('PUT', '/1/indexes/t/after', { v: 2 })).body.taskID;
    expect(after).toBeGreaterThan(next);
  });

  it('taskIDs keep increasing across many reopen cycles mixing snapshots and log replay', async () => {
    const dir = tempDir();
    let previous = 0;
    for (let round = 0; round < 6; round++) {
      const engine = await openAt(dir, { snapshotEvery: 3 });
      const call = caller(engine);
      for (let i = 0; i < round + 1; i++) {
        const { taskID } = (await call('PUT', `/1/indexes/cycles/r${round}-${i}`, { round, i })).body;
        expect(taskID).toBeGreaterThan(previous);
        previous = taskID;
      }
      if (round % 2 === 1) await engine.snapshot();
      await closeEngine(engine);
    }
    const engine = await openAt(dir);
    expect((await caller(engine)('POST', '/1/indexes/cycles/query', { query: '' })).body.nbHits).toBe(21);
  });
});
