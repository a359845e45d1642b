// A snapshot's proof in a worker thread (src/engine/snapshot-proof.ts), as
// the Node build runs it: the built package (dist/, which `npm test` builds
// first) with its proof-worker.js. The worker loads a snapshot file into an
// engine of its own and answers whether it loads; the engine proves its
// large snapshots there (a snapshot stored elsewhere than in a file, as in a
// NATS object store, handed over as bytes), and a snapshot the worker
// refuses replaces nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type * as Package from '../../src/index.js';
import type * as NodePackage from '../../src/node.js';

const dist = (file: string) => new URL(`../../dist/${file}`, import.meta.url);
const { Lantern } = await import(dist('index.js').href) as typeof Package;
const { fsStorage } = await import(dist('node.js').href) as typeof NodePackage;

const dirs: string[] = [];
afterAll(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-proof-'));
  dirs.push(dir);
  return dir;
}

/** Runs dist/proof-worker.js on `file` and returns its answer. */
function proveInWorker(file: string, taskID: number, encryptionKey?: string): Promise<{ ok: boolean; message?: string }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(dist('proof-worker.js'), { workerData: { file, taskID, encryptionKey } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/**
 * Records past the size from which snapshots are proven in a worker (16 MB):
 * 400 with 64 KB of random text each in an attribute that is not searchable
 * (base64 of random bytes deflates by a quarter at most; indexing them would only take time).
 */
function bulkyRecords(): Array<{ objectID: string; title: string; blob: string }> {
  return Array.from({ length: 400 }, (_, i) => ({ objectID: `r${i}`, title: `record number ${i}`, blob: randomBytes(48 * 1024).toString('base64') }));
}

/** An engine on `dir` holding `records` (title searchable), snapshotted; returns the snapshot file's path. */
async function storeSnapshot(dir: string, records: object[], encryptionKey?: string) {
  const engine = await Lantern.open({ storage: fsStorage(dir), snapshotEvery: 0, ...(encryptionKey ? { encryptionKey } : {}) });
  await engine.request({ method: 'PUT', path: '/1/indexes/things/settings', body: { searchableAttributes: ['title'] } });
  await engine.request({ method: 'POST', path: '/1/indexes/things/batch', body: { requests: records.map((body) => ({ action: 'addObject', body })) } });
  await engine.waitForTasks();
  await engine.snapshot();
  const proofs = { ...(engine as unknown as { durability: { proofs: { elsewhere: number; here: number } } }).durability.proofs };
  await engine.close();
  const snapshots = readdirSync(dir).filter((f) => /^snapshot-\d+\.bin$/.test(f)).sort();
  return { proofs, file: join(dir, snapshots.at(-1)!), taskID: Number(/\d+/.exec(snapshots.at(-1)!)![0]) };
}

describe('the snapshot proof worker', () => {
  it('proves a large snapshot in the worker, and the store reopens from it with every record as written', async () => {
    const dir = tempDir();
    const records = bulkyRecords();
    const { proofs } = await storeSnapshot(dir, records);
    expect(proofs).toEqual({ elsewhere: 1, here: 0 });
    const engine = await Lantern.open({ storage: fsStorage(dir), snapshotEvery: 0 });
    try {
      for (const record of [records[0], records[399]]) {
        expect((await engine.request({ method: 'GET', path: `/1/indexes/things/${record.objectID}` })).body).toEqual(record);
      }
      const found = await engine.request({ method: 'POST', path: '/1/indexes/things/query', body: { query: 'number 17' } });
      expect((found.body as { hits: Array<{ objectID: string }> }).hits[0].objectID).toBe('r17');
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('proves a large snapshot stored elsewhere than in a file (an object store) in the worker, from its bytes', async () => {
    const kept: Array<{ taskID: number; bytes: Uint8Array }> = [];
    // a storage of snapshots in memory, as the NATS object store is: a size, and bytes to read, but no file
    const storage: Package.Storage = {
      open: async () => ({ snapshots: kept.map(({ taskID, bytes }) => ({ taskID, bytes: bytes.length, read: async () => bytes.slice() })), log: [], damage: [], needsSnapshot: false }),
      writeSnapshot: async ({ taskID, pieces }, prove) => {
        const read: Uint8Array[] = [];
        for await (const piece of pieces) read.push(piece);
        const bytes = new Uint8Array(Buffer.concat(read));
        await prove({ taskID, bytes: bytes.length, read: async () => bytes.slice() });
        kept.unshift({ taskID, bytes });
      },
      close: async () => {},
    };
    const records = bulkyRecords();
    const engine = await Lantern.open({ storage, snapshotEvery: 0 });
    await engine.request({ method: 'PUT', path: '/1/indexes/things/settings', body: { searchableAttributes: ['title'] } });
    await engine.request({ method: 'POST', path: '/1/indexes/things/batch', body: { requests: records.map((body) => ({ action: 'addObject', body })) } });
    await engine.waitForTasks();
    await engine.snapshot();
    expect((engine as unknown as { durability: { proofs: object } }).durability.proofs).toEqual({ elsewhere: 1, here: 0 });
    await engine.close();
    // what was proven there is what a restart reads back
    const reopened = await Lantern.open({ storage, snapshotEvery: 0 });
    expect((await reopened.request({ method: 'GET', path: '/1/indexes/things/r399' })).body).toEqual(records[399]);
    await reopened.close();
  }, 60_000);

  it('a small snapshot is proven on the main thread (cheaper than starting a worker)', async () => {
    const { proofs } = await storeSnapshot(tempDir(), [{ objectID: 'a', title: 'small' }]);
    expect(proofs).toEqual({ elsewhere: 0, here: 1 });
  });

  it('answers ok for a sound snapshot file, and the reason for a damaged one or a wrong key', async () => {
    const plain = await storeSnapshot(tempDir(), [{ objectID: 'a', title: 'hello' }, { objectID: 'b', title: 'world' }]);
    expect(await proveInWorker(plain.file, plain.taskID)).toEqual({ ok: true });
    // the snapshot of another task is not the one asked for
    expect((await proveInWorker(plain.file, plain.taskID + 1)).ok).toBe(false);

    const damaged = readFileSync(plain.file);
    damaged[damaged.length - 5] ^= 0x20;
    writeFileSync(plain.file, damaged);
    const answer = await proveInWorker(plain.file, plain.taskID);
    expect(answer.ok).toBe(false);
    expect(answer.message).toMatch(/checksum/);

    const sealed = await storeSnapshot(tempDir(), [{ objectID: 'a', title: 'secret' }], 'the right key');
    expect(await proveInWorker(sealed.file, sealed.taskID, 'the right key')).toEqual({ ok: true });
    const wrongKey = await proveInWorker(sealed.file, sealed.taskID, 'a wrong key');
    expect(wrongKey.ok).toBe(false);
    expect(wrongKey.message).toMatch(/encryptionKey/);
  });
});
