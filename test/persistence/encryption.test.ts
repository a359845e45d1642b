// Encryption at rest (AES-GCM): with `encryptionKey` (a passphrase, or a raw
// 16/32-byte key) the data survives reopening, no plaintext of the records
// reaches the disk (log and snapshots, fsStorage and idbStorage), and opening
// with a wrong key or none fails with a clear error, changes nothing, and
// leaves the storage openable with the right key.
import 'fake-indexeddb/auto';
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { idbStorage } from '../../src/storage/idb.js';
import { MissingEncryptionKeyError, StoreDamagedError, WrongEncryptionKeyError } from '../../src/storage/errors.js';
import { asACrashLeavesIt } from '../support/crash.js';
import {
  caller, captureFailure, captureWarnings, cleanup, closeEngine, directoryContents, Lantern, logPath, logRecords, openAt,
  snapshotFiles, tempDir, type Call,
} from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

const PASSPHRASE = 'correct horse battery staple';
const RAW_KEY = new Uint8Array(randomBytes(32));

/** Words and values that must never appear on disk in clear. */
const SECRETS = ['zanzibarquokka', 'Quetzalcoatl Memorandum', 'obj-secret-4711', 'classifiedfield', 'vaultindex', '8675309123'];

function secretRecords(prefix: string) {
  return Array.from({ length: 12 }, (_, i) => ({
    objectID: `obj-secret-47${10 + i}`,
    title: `Quetzalcoatl Memorandum ${prefix} ${i}`,
    classifiedfield: `zanzibarquokka number ${i}`,
    code: 8675309123 + i,
    tags: ['zanzibarquokka', `${prefix}tag`],
  }));
}

async function writeSecrets(call: Call, prefix: string): Promise<void> {
  await call('PUT', '/1/indexes/vaultindex/settings', { searchableAttributes: ['title', 'classifiedfield'], attributesForFaceting: ['tags'] });
  await call('POST', '/1/indexes/vaultindex/batch', { requests: secretRecords(prefix).map((body) => ({ action: 'addObject', body })) });
  await call('POST', '/1/indexes/vaultindex/obj-secret-4711/partial', { classifiedfield: 'zanzibarquokka patched' });
}

async function expectSecrets(call: Call, prefixes: string[]): Promise<void> {
  const search = (await call('POST', '/1/indexes/vaultindex/query', { query: 'zanzibarquokka', hitsPerPage: 100, facets: ['tags'] })).body;
  expect(search.nbHits).toBe(12 * prefixes.length);
  expect((await call('GET', '/1/indexes/vaultindex/obj-secret-4711')).body.classifiedfield).toBe('zanzibarquokka patched');
  expect((await call('GET', '/1/indexes/vaultindex/settings')).body.searchableAttributes).toEqual(['title', 'classifiedfield']);
  // a typo still finds them: the index structures came back, not just the records
  expect((await call('POST', '/1/indexes/vaultindex/query', { query: 'quetzalcoatl memorandm' })).body.nbHits).toBe(12 * prefixes.length);
}

function plaintextFound(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return SECRETS.flatMap((s) => [s, s.toLowerCase()]).filter((s) => buffer.includes(s) || buffer.includes(Buffer.from(s, 'utf16le')));
}

function plaintextOnDisk(dir: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const f of readdirSync(dir)) {
    const hits = plaintextFound(readFileSync(join(dir, f)));
    if (hits.length) found[f] = hits;
  }
  return found;
}

const KEYS: Array<[string, string | Uint8Array, string | Uint8Array]> = [
  ['a passphrase', PASSPHRASE, 'correct horse battery stapler'],
  ['a raw 32-byte key', RAW_KEY, new Uint8Array(randomBytes(32))],
  ['a raw 16-byte key', new Uint8Array(randomBytes(16)), new Uint8Array(randomBytes(16))],
];

describe('fsStorage', () => {
  for (const [what, key, wrongKey] of KEYS) {
    describe(`with ${what}`, () => {
      it('the log and snapshots survive reopening, and hold no plaintext', async () => {
        const dir = tempDir();
        const first = await openAt(dir, { encryptionKey: key, snapshotEvery: 0 });
        await writeSecrets(caller(first), 'one');
        await first.waitForTasks();
        await closeEngine(first);
        // the log alone
        expect(logRecords(dir).length).toBe(3);
        expect(plaintextOnDisk(dir)).toEqual({});
        const second = await openAt(dir, { encryptionKey: key, snapshotEvery: 0 });
        await expectSecrets(caller(second), ['one']);
        // a snapshot, then more writes in the log after it
        await second.snapshot();
        await caller(second)('POST', '/1/indexes/vaultindex/batch', { requests: secretRecords('two').map((body) => ({ action: 'updateObject', body: { ...body, objectID: `${body.objectID}-two` } })) });
        await closeEngine(second);
        expect(snapshotFiles(dir).length).toBe(1);
        expect(logRecords(dir).length).toBe(1);
        expect(plaintextOnDisk(dir)).toEqual({});
        const third = await openAt(dir, { encryptionKey: key });
        await expectSecrets(caller(third), ['one', 'two']);
      });

      it('a wrong key or no key: a clear error, nothing changed on disk, the right key opens it afterwards', async () => {
        const dir = tempDir();
        const first = await openAt(dir, { encryptionKey: key, snapshotEvery: 0 });
        await writeSecrets(caller(first), 'one');
        await first.snapshot();
        await caller(first)('PUT', '/1/indexes/vaultindex/late', { title: 'a late record', classifiedfield: 'written after the snapshot' });
        await closeEngine(first);
        const before = directoryContents(dir);
        expect(Object.keys(before)).toEqual(['log.bin', 'manifest.json', snapshotFiles(dir)[0].file]);

        for (const [label, attempt, kind] of [['a wrong key', wrongKey, WrongEncryptionKeyError], ['no key', undefined, MissingEncryptionKeyError]] as const) {
          const { error, warnings } = await captureFailure(() => openAt(dir, { encryptionKey: attempt }));
          expect(error, label).toBeInstanceOf(kind);
          expect(error!.message, label).toMatch(/encryptionKey/);
          // never a fallback to an older snapshot or to an empty engine
          expect(warnings, label).toEqual([]);
          expect(directoryContents(dir), label).toEqual(before);
        }
        const right = await openAt(dir, { encryptionKey: key });
        const call = caller(right);
        await expectSecrets(call, ['one']);
        expect((await call('GET', '/1/indexes/vaultindex/late')).status).toBe(200);
      });
    });
  }

  it('a wrong key on a log without snapshot fails the same way', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { encryptionKey: PASSPHRASE });
    await writeSecrets(caller(first), 'one');
    await closeEngine(first);
    const before = directoryContents(dir);
    for (const attempt of ['wrong passphrase', undefined, RAW_KEY]) {
      const { error } = await captureFailure(() => openAt(dir, { encryptionKey: attempt }));
      expect(error).toBeInstanceOf(attempt === undefined ? MissingEncryptionKeyError : WrongEncryptionKeyError);
      expect(directoryContents(dir)).toEqual(before);
    }
    await expectSecrets(caller(await openAt(dir, { encryptionKey: PASSPHRASE })), ['one']);
  });

  it('a wrong key does not repair (truncate) a torn log either: nothing changes until the right key opens it', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { encryptionKey: PASSPHRASE });
    await writeSecrets(caller(first), 'one');
    await caller(first)('PUT', '/1/indexes/vaultindex/torn', { title: 'torn' });
    await closeEngine(first);
    const bytes = readFileSync(logPath(dir));
    writeFileSync(logPath(dir), bytes.subarray(0, bytes.length - 5));
    const before = directoryContents(dir);
    const { error } = await captureFailure(() => openAt(dir, { encryptionKey: 'wrong passphrase' }));
    expect(error).toBeInstanceOf(WrongEncryptionKeyError);
    expect(directoryContents(dir)).toEqual(before);
  });

  it('the same record written twice is stored as different bytes (a fresh IV per record)', async () => {
    const dir = tempDir();
    const engine = await openAt(dir, { encryptionKey: RAW_KEY });
    const call = caller(engine);
    await call('PUT', '/1/indexes/vaultindex/same', { v: 'zanzibarquokka' });
    await call('PUT', '/1/indexes/vaultindex/same', { v: 'zanzibarquokka' });
    await closeEngine(engine);
    const [a, b] = logRecords(dir);
    expect(a.payload.length).toBe(b.payload.length);
    expect(a.payload.equals(b.payload)).toBe(false);
  });

  it('an encrypted log torn at every byte of its last record recovers like a plain one', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { encryptionKey: RAW_KEY });
    const call = caller(first);
    for (let i = 0; i < 3; i++) await call('PUT', `/1/indexes/vaultindex/r${i}`, { i, title: 'zanzibarquokka' });
    await closeEngine(first);
    const intact = readFileSync(logPath(dir));
    const last = logRecords(dir).at(-1)!;
    for (let cut = last.start; cut < intact.length; cut++) {
      writeFileSync(logPath(dir), intact.subarray(0, cut));
      asACrashLeavesIt(dir);
      const { result: engine } = await captureWarnings(() => openAt(dir, { encryptionKey: RAW_KEY }));
      const c = caller(engine);
      expect((await c('POST', '/1/indexes/vaultindex/query', { query: '', hitsPerPage: 0 })).body.nbHits).toBe(2);
      expect(statSync(logPath(dir)).size).toBe(last.start);
      await closeEngine(engine);
    }
  });
});

// --- IndexedDB (fake-indexeddb): the raw stores read around idbStorage

function rawDatabase(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(`lantern-search:${name}`);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function rawDump(name: string): Promise<Record<string, Array<{ taskID: number; bytes: string; sha256: string }>>> {
  const db = await rawDatabase(name);
  try {
    const dump: Record<string, any[]> = {};
    for (const store of [...db.objectStoreNames].sort()) {
      dump[store] = await new Promise((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result.map((r: any) => ({
          taskID: r.taskID,
          bytes: Buffer.from(r.bytes).toString('base64'),
          sha256: Buffer.from(r.sha256).toString('base64'),
        })));
        request.onerror = () => reject(request.error);
      });
    }
    return dump;
  } finally {
    db.close();
  }
}

/** Deletes the database; fails if a connection is still open (a failed open must close its own). */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(`lantern-search:${name}`);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error(`database ${name} is still held open by a connection`));
  });
}

describe('fsStorage: tampering that keeps its checksums (an authentication failure is damage, not a wrong key)', () => {
  /** Secrets, snapshot A, more secrets, snapshot B, then one record at a time in the log. */
  async function encryptedHistory(dir: string): Promise<number[]> {
    const engine = await openAt(dir, { encryptionKey: PASSPHRASE, snapshotEvery: 0 });
    const call = caller(engine);
    await writeSecrets(call, 'one');
    await engine.snapshot();
    await writeSecrets(call, 'two');
    await engine.snapshot();
    const late: number[] = [];
    for (let i = 0; i < 3; i++) late.push((await call('PUT', `/1/indexes/vaultindex/late${i}`, { title: `late ${i}` })).body.taskID);
    await closeEngine(engine);
    return late;
  }

  it('a log record re-sealed with a valid CRC: the open refuses as damaged (not as a wrong key); a repair drops only it', async () => {
    const dir = tempDir();
    const late = await encryptedHistory(dir);
    const record = logRecords(dir).find((r) => r.taskID === late[1])!;
    const bytes = readFileSync(join(dir, record.file));
    bytes[record.end - 3] ^= 0x01; // in the AES-GCM tag
    bytes.writeUInt32LE(crc32(bytes.subarray(record.start + 8, record.end)), record.start + 4);
    writeFileSync(join(dir, record.file), bytes);

    const { error } = await captureFailure(() => openAt(dir, { encryptionKey: PASSPHRASE }));
    expect(error).toBeInstanceOf(StoreDamagedError);
    expect(error).not.toBeInstanceOf(WrongEncryptionKeyError);
    expect(error!.message).toMatch(new RegExp(`task ${late[1]} is unreadable`));
    const { result: engine } = await captureWarnings(() => openAt(dir, { encryptionKey: PASSPHRASE, repair: true }));
    const call = caller(engine);
    await expectSecrets(call, ['two']); // the second round overwrote the first
    expect((await call('GET', '/1/indexes/vaultindex/late0')).status).toBe(200);
    expect((await call('GET', '/1/indexes/vaultindex/late1')).status).toBe(404);
    expect((await call('GET', '/1/indexes/vaultindex/late2')).status).toBe(200);
  });

  it('the newest snapshot re-sealed with its digests recomputed: falls back to the older one plus the log', async () => {
    const dir = tempDir();
    await encryptedHistory(dir);
    const newest = snapshotFiles(dir)[0];
    const bytes = readFileSync(newest.path);
    // the last section (after the magic, each: u32 length, SHA-256, sealed bytes): a byte of it flipped, its digest made to match
    let last = 4;
    while (last + 36 + bytes.readUInt32LE(last) < bytes.length) last += 36 + bytes.readUInt32LE(last);
    bytes[bytes.length - 3] ^= 0x01;
    createHash('sha256').update(bytes.subarray(last + 36)).digest().copy(bytes, last + 4);
    writeFileSync(newest.path, bytes);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.snapshots[0].sha256 = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));

    const { result: engine, warnings } = await captureWarnings(() => openAt(dir, { encryptionKey: PASSPHRASE }));
    expect(warnings.join('\n')).toMatch(new RegExp(`snapshot of task ${newest.taskID} cannot be used.*decrypt`));
    const call = caller(engine);
    await expectSecrets(call, ['two']); // the second round overwrote the first
    for (let i = 0; i < 3; i++) expect((await call('GET', `/1/indexes/vaultindex/late${i}`)).status).toBe(200);
  });
});

describe('idbStorage', () => {
  let counter = 0;
  const dbName = () => `enc-${process.pid}-${counter++}`;

  for (const [what, key, wrongKey] of KEYS.slice(0, 2)) {
    it(`with ${what}: survives reopening, no plaintext in IndexedDB, a wrong key or none fails and changes nothing`, async () => {
      const name = dbName();
      const first = await Lantern.open({ storage: idbStorage(name), encryptionKey: key, snapshotEvery: 0 });
      await writeSecrets(caller(first), 'one');
      await first.snapshot();
      await caller(first)('POST', '/1/indexes/vaultindex/batch', { requests: secretRecords('two').map((body) => ({ action: 'addObject', body: { ...body, objectID: `${body.objectID}-two` } })) });
      await first.close();

      const before = await rawDump(name);
      expect(before.snapshots.length).toBe(1);
      expect(before.log.length).toBe(1);
      for (const store of Object.values(before)) {
        for (const record of store) expect(plaintextFound(Buffer.from(record.bytes, 'base64'))).toEqual([]);
      }

      for (const attempt of [wrongKey, undefined]) {
        const { error, warnings } = await captureFailure(() => Lantern.open({ storage: idbStorage(name), encryptionKey: attempt }));
        expect(error).toBeInstanceOf(attempt === undefined ? MissingEncryptionKeyError : WrongEncryptionKeyError);
        expect(error!.message).toMatch(/encryptionKey/);
        expect(warnings).toEqual([]);
        expect(await rawDump(name)).toEqual(before);
      }

      const right = await Lantern.open({ storage: idbStorage(name), encryptionKey: key });
      await expectSecrets(caller(right), ['one', 'two']);
      await right.close();
      // every connection, the failed opens' included, was closed
      await deleteDatabase(name);
    });
  }
});
