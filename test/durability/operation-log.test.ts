// One contract, every operation log (src/durability/operation-log.ts), the
// way the storage contract runs against every storage: a log that takes
// writes gives each its taskID, hands it back to the engine (in order, once,
// with how it is applied and the operation itself) before the append
// resolves, refuses what JSON cannot hold without spending a taskID, and a
// log that persists still holds what it took once opened again; a log that
// refuses writes refuses them with the error the caller gets, and a
// follower's still records what its server sends. The logs: the storage's
// (files, IndexedDB), a memory store's, a follower's and a read-only store's,
// and a cluster's shared log on a real nats-server.
import 'fake-indexeddb/auto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLog, RefusingLog, type HandedEntry, type OperationLog } from '../../src/durability/operation-log.js';
import { StorageLog } from '../../src/durability/storage-log.js';
import { SharedOperationLog } from '../../src/durability/shared-log.js';
import { Codec } from '../../src/durability/persistence.js';
import { WritePacer } from '../../src/engine/write-pacer.js';
import { fsStorage } from '../../src/storage/fs.js';
import { idbStorage } from '../../src/storage/idb.js';
import type { Storage } from '../../src/storage/storage.js';
import { natsCluster } from '../../src/nats/cluster.js';
import { ApiError } from '../../src/util/errors.js';
import { natsServerFor, startNats, type NatsGroup } from '../support/nats.js';

type Op = { type: string; n: number; big?: bigint };

/** An open log, what it handed over, and how to read back what it keeps. */
interface Opened {
  log: OperationLog<Op>;
  handed: Array<HandedEntry<Op>>;
  /** The operations the log keeps, by taskID, read back from where it keeps them (a new reader). */
  kept(): Promise<Map<number, Op>>;
  close(): Promise<void>;
}

interface Implementation {
  name: string;
  /** It takes the engine's own writes. */
  writes: boolean;
  /** What it takes survives it (read back by `kept`). */
  persists: boolean;
  /** It gives taskIDs of its own (a shared log's are the stream's). */
  local: boolean;
  open(): Promise<Opened>;
}

const dirs: string[] = [];
let databases = 0;
let nats: NatsGroup | undefined;
const runNats = natsServerFor('test/durability/operation-log.test.ts');

beforeAll(async () => { if (runNats) nats = await startNats(1); }, 30_000);
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await nats?.close();
});

/** Follows `log` from the start, noting what it hands over. */
async function following(log: OperationLog<Op>, after = 0): Promise<Array<HandedEntry<Op>>> {
  const handed: Array<HandedEntry<Op>> = [];
  await log.follow(after, async (entry) => { handed.push(entry); });
  return handed;
}

/** The storage's log over `storage()` (opened anew by `kept` to read back what it holds). */
function overStorage(storage: () => Storage): () => Promise<Opened> {
  return async () => {
    const codec = await Codec.create('a passphrase');
    let open = storage();
    await open.open();
    const log = new StorageLog<Op>(open.append!.bind(open), codec, new WritePacer());
    const handed = await following(log);
    return {
      log, handed,
      async kept() {
        await log.close();
        await open.close();
        open = storage();
        const { log: entries } = await open.open();
        const ops = new Map<number, Op>();
        for (const entry of entries) ops.set(entry.taskID, await codec.decodeOperation(entry.bytes) as Op);
        return ops;
      },
      close: async () => { await log.close(); await open.close(); },
    };
  };
}

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-oplog-'));
  dirs.push(dir);
  return dir;
}

const IMPLEMENTATIONS: Implementation[] = [
  { name: 'StorageLog on files', writes: true, persists: true, local: true, open: () => { const dir = newDir(); return overStorage(() => fsStorage(dir))(); } },
  { name: 'StorageLog on IndexedDB', writes: true, persists: true, local: true, open: () => { const name = `oplog-${process.pid}-${databases++}`; return overStorage(() => idbStorage(name))(); } },
  {
    name: 'MemoryLog', writes: true, persists: false, local: true,
    async open() {
      const log = new MemoryLog<Op>();
      return { log, handed: await following(log), kept: async () => new Map(), close: () => log.close() };
    },
  },
  {
    name: 'RefusingLog of a read-only store', writes: false, persists: false, local: true,
    async open() {
      const log = new RefusingLog<Op>(() => new ApiError('unavailable', 'the store is open read-only'));
      return { log, handed: await following(log), kept: async () => new Map(), close: () => log.close() };
    },
  },
  {
    name: 'RefusingLog of a follower, recording in its storage\'s log', writes: false, persists: true, local: true,
    async open() {
      const dir = newDir();
      const inner = await overStorage(() => fsStorage(dir))();
      const log = new RefusingLog<Op>(() => new ApiError('follower', 'this engine follows a server'), inner.log);
      return { log, handed: await following(log), kept: () => inner.kept(), close: () => inner.close() };
    },
  },
  ...(runNats ? [{
    name: 'SharedOperationLog on nats-server', writes: true, persists: true, local: false,
    async open(): Promise<Opened> {
      const appId = `oplog${databases++}`;
      const codec = await Codec.create();
      const cluster = await natsCluster({ servers: [nats!.urls], appId, report: () => {} });
      const log = new SharedOperationLog<Op>(cluster.log, codec, new WritePacer());
      const handed = await following(log);
      return {
        log, handed,
        async kept() {
          // another node of the same application reads the stream from its start
          const other = await natsCluster({ servers: [nats!.urls], appId, report: () => {} });
          const reader = new SharedOperationLog<Op>(other.log, codec, new WritePacer());
          const ops = new Map<number, Op>();
          for (const entry of await following(reader)) ops.set(entry.taskID, await entry.operation());
          await reader.close();
          await other.storage.close();
          return ops;
        },
        close: async () => { await log.close(); await cluster.storage.close(); },
      };
    },
  }] : []),
];

describe.each(IMPLEMENTATIONS)('$name', ({ writes, persists, local, open: openLog }) => {
  it.skipIf(!writes)('hands every append back before it resolves, once, in order, with its shape and operation', async () => {
    const { log, handed, kept, close } = await openLog();
    try {
      const queued = await log.append({ type: 'add', n: 1, at: 5 } as Op, { queued: true, weight: 3, group: 'books' });
      expect(handed.map((e) => e.taskID)).toEqual([queued]);
      const now = await log.append({ type: 'key', n: 2 }, { queued: false, weight: 1 });
      expect(now).toBeGreaterThan(queued);
      // many at once: each handed over once, taskIDs rising in the order they are handed over
      const more = await Promise.all(Array.from({ length: 20 }, (_, i) => log.append({ type: 'add', n: 10 + i }, { queued: true, weight: 1 })));
      expect(new Set(more).size).toBe(20);
      const ids = handed.map((e) => e.taskID);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids).toEqual([queued, now, ...[...more].sort((a, b) => a - b)]);
      const [first, second] = handed;
      expect({ queued: first.queued, weight: first.weight, group: first.group, own: first.own }).toEqual({ queued: true, weight: 3, group: 'books', own: true });
      expect({ queued: second.queued, weight: second.weight, own: second.own }).toEqual({ queued: false, weight: 1, own: true });
      expect(await first.operation()).toEqual({ type: 'add', n: 1, at: 5 });
      if (local) expect(more.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => now + 1 + i));
      if (persists) {
        const ops = await kept();
        expect([...ops.keys()]).toEqual(ids);
        expect(ops.get(now)).toEqual({ type: 'key', n: 2 });
      }
    } finally {
      await close();
    }
  });

  it.skipIf(!writes)('an operation JSON cannot hold is a 400, handed to nobody, and spends no taskID', async () => {
    const { log, handed, close } = await openLog();
    try {
      const before = await log.append({ type: 'add', n: 1 }, { queued: true, weight: 1 });
      const refused = await log.append({ type: 'add', n: 2, big: 10n }, { queued: true, weight: 1 }).then(() => undefined, (e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(400);
      const after = await log.append({ type: 'add', n: 3 }, { queued: true, weight: 1 });
      expect(after).toBe(before + 1);
      expect(await Promise.all(handed.map((e) => e.operation()))).toEqual([{ type: 'add', n: 1 }, { type: 'add', n: 3 }]);
    } finally {
      await close();
    }
  });

  it.skipIf(!local || !writes)('a local log goes on after the task it is told to follow from', async () => {
    const { log, close } = await openLog();
    try {
      await log.follow(41, async () => {});
      expect(await log.append({ type: 'add', n: 1 }, { queued: true, weight: 1 })).toBe(42);
    } finally {
      await close();
    }
  });

  it.skipIf(writes)('refuses the engine\'s own writes with the caller\'s error; a follower\'s records what its server sends', async () => {
    const { log, handed, kept, close } = await openLog();
    try {
      const refusal = log.refusal();
      expect(refusal).toBeInstanceOf(ApiError);
      await expect(log.append({ type: 'add', n: 1 }, { queued: true, weight: 1 })).rejects.toMatchObject({ status: refusal!.status, message: refusal!.message });
      await log.record(7, { type: 'add', n: 7 });
      await log.record(9, { type: 'add', n: 9 });
      expect(handed).toEqual([]);
      expect(log.keeps).toBe(persists);
      if (persists) expect([...(await kept()).entries()]).toEqual([[7, { type: 'add', n: 7 }], [9, { type: 'add', n: 9 }]]);
    } finally {
      await close();
    }
  });
});
