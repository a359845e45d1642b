// The shared-log seam of durability (src/durability/shared-log.ts), in
// process: engines that share a log in memory (the shape the NATS stream
// has: the log numbers entries, every engine is handed every entry in
// order, its own included) write on any of them, apply every entry under
// the taskID the log gave it, and answer alike. The real log is NATS
// JetStream (test/cluster/).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { ApiError } from '../../src/util/errors.js';
import { fsStorage } from '../../src/storage/fs.js';
import { LogTrimmedError, SharedOperationLog, type NewEntry, type SharedEntry, type SharedLog } from '../../src/durability/shared-log.js';
import { Codec } from '../../src/durability/persistence.js';
import { WritePacer } from '../../src/engine/write-pacer.js';

/** A log in memory shared by engines: each `node()` is one engine's view of it. */
class MemoryLog {
  readonly entries: Array<Omit<SharedEntry, 'own'> & { writer: number }> = [];
  readonly followers: Array<{ node: number; next: number; deliver: (e: SharedEntry) => Promise<void>; busy: boolean }> = [];
  unavailable: string | undefined;
  first = 1;
  /** Entries are handed over only while not paused. */
  paused = false;

  node(id: number): SharedLog { return viewOf(this, id); }

  /** Hands every follower the entries it has not had, in order. */
  async pump(): Promise<void> {
    if (this.paused) return;
    await Promise.all(this.followers.map(async (f) => {
      if (f.busy) return;
      f.busy = true;
      while (f.next <= this.entries.length) {
        const { writer, ...entry } = this.entries[f.next - 1];
        await f.deliver({ ...entry, own: writer === f.node });
        f.next++;
      }
      f.busy = false;
    }));
  }
}

/** Engine `id`'s view of `log`. */
function viewOf(log: MemoryLog, id: number): SharedLog {
  return {
    get unavailable() { return log.unavailable; },
    append: async (entry: NewEntry) => {
      if (log.unavailable) throw new ApiError('unavailable', log.unavailable);
      const taskID = log.entries.length + 1;
      log.entries.push({ ...entry, taskID, writer: id });
      setTimeout(() => void log.pump(), 1);
      return taskID;
    },
    follow: async (after, deliver) => {
      if (after + 1 < log.first && log.entries.length > after) throw new LogTrimmedError(after, log.first);
      log.followers.push({ node: id, next: after + 1, deliver, busy: false });
      await log.pump();
    },
    holds: async (taskID) => taskID <= log.entries.length,
    close: async () => {},
  };
}

const opened: Lantern[] = [];
afterEach(async () => { await Promise.all(opened.splice(0).map((e) => e.close())); });

async function open(log: SharedLog, dir?: string): Promise<Lantern> {
  const engine = await Lantern.open({ log, ...(dir ? { storage: fsStorage(dir) } : {}) });
  opened.push(engine);
  return engine;
}

const records = (from: number, count: number, word: string) =>
  Array.from({ length: count }, (_, i) => ({ objectID: String(from + i), title: `${word} ${from + i}` }));

async function published(engine: Lantern, taskID: number): Promise<void> {
  const status = async () => ((await engine.request({ method: 'GET', path: `/1/task/${taskID}` })).body as { status?: string }).status;
  while (await status() !== 'published') await new Promise((r) => setTimeout(r, 2));
}

describe('engines sharing a log', () => {
  it('apply every write, whichever engine took it, under the taskID the log gave it', async () => {
    const log = new MemoryLog();
    const [a, b] = [await open(log.node(1)), await open(log.node(2))];
    const tasks: number[] = [];
    for (let round = 0; round < 4; round++) {
      const [writer, reader] = round % 2 ? [b, a] : [a, b];
      const [{ taskID }] = await writer.client().saveObjects({ indexName: 'items', objects: records(round * 150, 150, `w${round}`) });
      tasks.push(taskID);
      await published(reader, taskID);
      const found = await reader.client().searchSingleIndex({ indexName: 'items', searchParams: { query: `w${round}`, hitsPerPage: 0 } });
      expect(found.nbHits).toBe(150);
    }
    expect(tasks).toEqual(log.entries.filter((e) => e.queued).map((e) => e.taskID));
    // a key is applied on the engine that made it when the call returns, and reaches the other from the log
    const { key } = await b.client().addApiKey({ acl: ['search'] });
    expect(b.keys.has(key)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(a.keys.has(key)).toBe(true);
    const answers = await Promise.all([a, b].map((e) => e.client().searchSingleIndex({ indexName: 'items', searchParams: { query: '1', hitsPerPage: 20 } })));
    expect(answers[1].hits).toEqual(answers[0].hits);
  });

  it('know a task of the log they were not handed yet, and refuse writes while the log is unavailable', async () => {
    const log = new MemoryLog();
    const a = await open(log.node(1));
    log.paused = true;
    // as the codec writes an operation unencrypted: a 0, then its JSON
    const bytes = new Uint8Array([0, ...new TextEncoder().encode(JSON.stringify({ type: 'deleteIndex', indexName: 'x', at: 0 }))]);
    const entry = await log.node(9).append({ bytes, queued: true, weight: 1 });
    expect((await a.request({ method: 'GET', path: `/1/task/${entry}` })).body).toEqual({ status: 'notPublished' });
    expect((await a.request({ method: 'GET', path: `/1/task/${entry + 5}` })).status).toBe(404);
    log.paused = false;
    await log.pump();
    await published(a, entry);
    log.unavailable = 'the log cannot be reached';
    const refused = await a.request({ method: 'POST', path: '/1/indexes/items/batch', body: { requests: [{ action: 'addObject', body: { objectID: '1' } }] } });
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([503, 'the log cannot be reached']);
    expect((await a.request({ method: 'POST', path: '/1/indexes/items/query', body: {} })).status).toBe(404);
  });

  it('name a snapshot past a queued entry they cannot read (a restart would apply again what followed it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-shared-'));
    try {
      const log = new MemoryLog();
      const a = await open(log.node(1), dir);
      // another node's batch under a key this one lacks: not the codec's framing
      const unreadable = await log.node(9).append({ bytes: new Uint8Array([9, 9, 9]), queued: true, weight: 1 });
      await log.pump();
      await a.waitForTasks();
      const { key } = await a.client().addApiKey({ acl: ['search'] });
      const last = log.entries.length;
      expect(last).toBeGreaterThan(unreadable);
      await a.snapshot();
      await a.close();
      opened.splice(opened.indexOf(a), 1);
      const stored = fsStorage(dir);
      expect((await stored.open()).snapshots.map((s) => s.taskID)).toEqual([last]);
      await stored.close();
      const again = await open(log.node(1), dir);
      expect(again.keys.has(key)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('append the entries written together in the order they were written, encrypted too', async () => {
    const log = new MemoryLog();
    log.paused = true;
    const shared = new SharedOperationLog<object>(log.node(1), await Codec.create('k'.repeat(32)), new WritePacer());
    await shared.follow(0, async () => {});
    // the first the slowest to encrypt: 4 MB of events, then an entry of a few bytes
    const ops = [{ type: 'analytics', searches: ['y'.repeat(1 << 22)] }, { type: 'analytics', searches: ['z'] }];
    const appends = ops.map((op) => shared.append(op, { queued: false, weight: 1, applied: true }));
    while (log.entries.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(log.entries.map((e) => e.bytes.length > 1 << 22)).toEqual([true, false]);
    log.paused = false;
    await log.pump();
    expect(await Promise.all(appends)).toEqual([1, 2]);
  });

  it('a late engine catches up from the log before it opens', async () => {
    const log = new MemoryLog();
    const a = await open(log.node(1));
    let last = 0;
    for (let i = 0; i < 5; i++) [{ taskID: last }] = await a.client().saveObjects({ indexName: 'items', objects: records(i * 100, 100, 'late') });
    const c = await open(log.node(3));
    expect(c.tasks.status(last)).toBe('published');
    expect((await c.client().searchSingleIndex({ indexName: 'items', searchParams: { query: '', hitsPerPage: 0 } })).nbHits).toBe(500);
  });
});
