// Nothing deletes what it could not read. An encrypted store opened, or
// repaired, with a wrong key or none fails with the key's own error class and
// keeps every byte; a repair with the key sets aside (never deletes) what it
// cannot use and says where it put it; the manifest knows the log parts the
// store needs, so a deleted or cut part is reported, never opened silently.
// In-process and through `lantern repair` / `lantern serve` (dist/cli.js).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
// from the package's entry point: what a user catches
import { MissingEncryptionKeyError, StoreDamagedError, WrongEncryptionKeyError } from '../../src/index.js';
import { CLI, ROOT, startServe } from '../support/serve.js';
import {
  caller, captureFailure, captureWarnings, cleanup, closeEngine, directoryContents, logRecords, openAt, snapshotFiles, tempDir,
} from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

const KEY = 'right';

/** The store: 100 records, a snapshot, one more record in the log after it. */
async function encryptedStore(dir: string, key: string | undefined = KEY): Promise<void> {
  const engine = await openAt(dir, { encryptionKey: key, snapshotEvery: 0 });
  const call = caller(engine);
  await call('POST', '/1/indexes/things/batch', {
    requests: Array.from({ length: 100 }, (_, i) => ({ action: 'addObject', body: { objectID: `r${i}`, title: `thing number ${i}` } })),
  });
  await engine.snapshot();
  await call('PUT', '/1/indexes/things/late', { title: 'written after the snapshot' });
  await closeEngine(engine);
}

async function recordCount(dir: string, options: { encryptionKey?: string; repair?: boolean } = { encryptionKey: KEY }): Promise<number> {
  const engine = await openAt(dir, options);
  const { body } = await caller(engine)('POST', '/1/indexes/things/query', { query: '', hitsPerPage: 0 });
  await closeEngine(engine);
  return body.nbHits;
}

/**
 * A store whose closed log part (b, c, d, kept while the first snapshot is)
 * is cut after its first record, at a record boundary: what is left is a
 * whole, valid log. The part's file name and its records as they were.
 */
async function closedPartCut() {
  const dir = tempDir();
  const engine = await openAt(dir, { snapshotEvery: 0 });
  const call = caller(engine);
  await call('PUT', '/1/indexes/things/a', { title: 'a' });
  await engine.snapshot();
  for (const id of ['b', 'c', 'd']) await call('PUT', `/1/indexes/things/${id}`, { title: id });
  await engine.snapshot();
  await closeEngine(engine);
  const part = readdirSync(dir).find((f) => /^log-\d{16}\.bin$/.test(f))!;
  const records = logRecords(dir).filter((r) => r.file === part);
  expect(records.map((r) => r.taskID)).toHaveLength(3);
  writeFileSync(join(dir, part), readFileSync(join(dir, part)).subarray(0, records[0].end));
  return { dir, part, records };
}

interface Run { code: number | null; stdout: string; stderr: string }

/** Runs the command line with exactly the environment variables given added (LANTERN_ENCRYPTION_KEY only when given). */
function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = { ...process.env };
  delete base.LANTERN_ENCRYPTION_KEY;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a wrong or missing key is a key error, never damage, and changes nothing', () => {
  it('opened or repaired in-process: the key\'s class, no byte changed, the right key opens all 101 records', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    const before = directoryContents(dir);
    for (const repair of [false, true]) {
      for (const [key, kind] of [['wrong', WrongEncryptionKeyError], [undefined, MissingEncryptionKeyError]] as const) {
        const { error, warnings } = await captureFailure(() => openAt(dir, { encryptionKey: key, repair }));
        expect(error, `${key ?? 'no key'}, repair ${repair}`).toBeInstanceOf(kind);
        expect(error).not.toBeInstanceOf(StoreDamagedError);
        expect(warnings).toEqual([]);
        expect(directoryContents(dir)).toEqual(before);
      }
    }
    expect(await recordCount(dir)).toBe(101);
  });

  it('a key that opens only plain pieces of a store encrypted later is still wrong: its sealed records are not dropped', async () => {
    const dir = tempDir();
    await encryptedStore(dir, undefined); // written plain
    const engine = await openAt(dir, { encryptionKey: KEY });
    await caller(engine)('PUT', '/1/indexes/things/sealed', { title: 'written encrypted' });
    await closeEngine(engine);
    const before = directoryContents(dir);
    const { error } = await captureFailure(() => openAt(dir, { encryptionKey: 'wrong', repair: true }));
    expect(error).toBeInstanceOf(WrongEncryptionKeyError);
    expect(directoryContents(dir)).toEqual(before);
    expect(await recordCount(dir)).toBe(102);
  });

  it('lantern repair without the key, or with a wrong one: exit 1, one line naming where the key comes from, no byte changed', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    const before = directoryContents(dir);
    const keyFile = join(dir, '..', `${dir.split('/').at(-1)}.key`);
    writeFileSync(keyFile, 'wrong\n');
    for (const [args, env, kind] of [
      [[], {}, /the data is encrypted/],
      [[], { LANTERN_ENCRYPTION_KEY: 'wrong' }, /wrong encryptionKey/],
      [['--key-file', keyFile], {}, /wrong encryptionKey/],
    ] as const) {
      const repaired = await run(['repair', '--data', dir, ...args], env);
      expect(repaired.code, repaired.stdout).toBe(1);
      expect(repaired.stdout).toBe('');
      expect(repaired.stderr.trim().split('\n')).toHaveLength(1);
      expect(repaired.stderr).toMatch(kind);
      expect(repaired.stderr).toMatch(/LANTERN_ENCRYPTION_KEY or pass --key-file/);
      expect(directoryContents(dir)).toEqual(before);
    }
    rmSync(keyFile);
    expect(await recordCount(dir)).toBe(101);
  });

  it('LANTERN_ENCRYPTION_KEY set but empty, or an empty key file: one line, nothing opened', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    const keyFile = join(dir, '..', `${dir.split('/').at(-1)}.empty`);
    writeFileSync(keyFile, '');
    const empty = await run(['repair', '--data', dir], { LANTERN_ENCRYPTION_KEY: '' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^lantern: LANTERN_ENCRYPTION_KEY is set but empty/);
    const emptyFile = await run(['search', 'things', 'thing', '--data', dir, '--key-file', keyFile]);
    expect(emptyFile.code).toBe(1);
    expect(emptyFile.stderr).toMatch(/^lantern: the key file .* is empty/);
    rmSync(keyFile);
  });
});

describe('a repair with the key sets aside what it cannot use, and says where', () => {
  it('a damaged newest snapshot: moved under damaged/ whole, every record kept, and what lantern repair prints is true', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    // a second snapshot, then damage it: the store falls back to the first and the log after it
    const engine = await openAt(dir, { encryptionKey: KEY, snapshotEvery: 0 });
    await caller(engine)('PUT', '/1/indexes/things/later', { title: 'after the second snapshot' });
    await engine.snapshot();
    await caller(engine)('PUT', '/1/indexes/things/last', { title: 'the last one' });
    await closeEngine(engine);
    const newest = snapshotFiles(dir)[0];
    const bytes = readFileSync(newest.path);
    bytes[bytes.length - 40] ^= 0xff;
    writeFileSync(newest.path, bytes);

    const repaired = await run(['repair', '--data', dir], { LANTERN_ENCRYPTION_KEY: KEY });
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(/repaired/);
    expect(repaired.stdout).toMatch(/nothing acknowledged was lost/);
    const moved = /set aside: (\S+), which could not be used, moved to (\S+)/.exec(repaired.stdout);
    expect(moved, repaired.stdout).not.toBeNull();
    expect(moved![1]).toBe(newest.path);
    expect(moved![2].startsWith(join(dir, 'damaged'))).toBe(true);
    expect(readFileSync(moved![2]).equals(bytes)).toBe(true);
    expect(await recordCount(dir)).toBe(103);
  });

  it('a plain open that falls back from a damaged snapshot moves it aside too, rather than deleting it', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    const engine = await openAt(dir, { encryptionKey: KEY, snapshotEvery: 0 });
    await engine.snapshot();
    await closeEngine(engine);
    const newest = snapshotFiles(dir)[0];
    const bytes = readFileSync(newest.path);
    bytes[bytes.length - 40] ^= 0xff;
    writeFileSync(newest.path, bytes);
    const { result: reopened } = await captureWarnings(() => openAt(dir, { encryptionKey: KEY }));
    expect(reopened.recovery.fellBack).toBe(true);
    expect(reopened.recovery.setAside).toHaveLength(1);
    await closeEngine(reopened);
    const aside = readdirSync(join(dir, 'damaged'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, 'damaged', aside[0])).equals(bytes)).toBe(true);
    expect(await recordCount(dir)).toBe(101);
  });

  it('lantern repair with --key-file and lantern serve with LANTERN_ENCRYPTION_KEY open the store; serve without it stops with one line', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    const keyFile = join(dir, '..', `${dir.split('/').at(-1)}.key`);
    writeFileSync(keyFile, `${KEY}\n`);
    const repaired = await run(['repair', '--data', dir, '--key-file', keyFile]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(/nothing to repair/);
    rmSync(keyFile);

    const refused = await run(['serve', '--port', '0', '--data', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^lantern: the data is encrypted.*LANTERN_ENCRYPTION_KEY/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);

    const served = await startServe(['--data', dir], { LANTERN_ENCRYPTION_KEY: KEY });
    try {
      const answer = await fetch(`${served.url}/1/indexes/things/query`, { method: 'POST', body: JSON.stringify({ query: 'after the snapshot', attributesToRetrieve: ['title'] }) });
      const body = await answer.json() as { hits: Array<{ title: string }> };
      expect(body.hits.map((h) => h.title)).toEqual(['written after the snapshot']);
    } finally {
      await served.stop();
    }
  });
});

describe('the manifest knows the log the store needs', () => {
  it('log.bin deleted after a snapshot: the open refuses, naming it; a repair says what was lost; the next open is clean', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).openPart.first).toBe(logRecords(dir)[0].taskID);
    rmSync(join(dir, 'log.bin'));
    const { error } = await captureFailure(() => openAt(dir, { encryptionKey: KEY }));
    expect(error).toBeInstanceOf(StoreDamagedError);
    expect(error!.message).toMatch(/log\.bin is missing: the writes it held from task \d+ on/);

    const { result: repaired } = await captureWarnings(() => openAt(dir, { encryptionKey: KEY, repair: true }));
    expect(repaired.recovery.lost.join('\n')).toMatch(/log\.bin is missing/);
    await closeEngine(repaired);
    const { result: clean, warnings } = await captureWarnings(() => openAt(dir, { encryptionKey: KEY }));
    expect(warnings).toEqual([]);
    expect(clean.recovery.problems).toEqual([]);
    const { body } = await caller(clean)('POST', '/1/indexes/things/query', { query: '', hitsPerPage: 0 });
    expect(body.nbHits).toBe(100);
  });

  it('log.bin cut to nothing is reported the same way', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    writeFileSync(join(dir, 'log.bin'), Buffer.alloc(0));
    const { error } = await captureFailure(() => openAt(dir, { encryptionKey: KEY }));
    expect(error).toBeInstanceOf(StoreDamagedError);
    expect(error!.message).toMatch(/log\.bin holds none of the writes from task \d+ on/);
  });

  it('log.bin cut after a clean close, at a record boundary or inside a record: refused as lost writes, not taken for a torn write', async () => {
    const dir = tempDir();
    await encryptedStore(dir);
    const engine = await openAt(dir, { encryptionKey: KEY });
    for (const id of ['x', 'y', 'z']) await caller(engine)('PUT', `/1/indexes/things/${id}`, { title: id });
    await closeEngine(engine);
    const records = logRecords(dir).filter((r) => r.file === 'log.bin');
    const intact = readFileSync(join(dir, 'log.bin'));
    for (const cut of [records[1].end, records[2].start + 7]) {
      writeFileSync(join(dir, 'log.bin'), intact.subarray(0, cut));
      const { error } = await captureFailure(() => openAt(dir, { encryptionKey: KEY }));
      expect(error).toBeInstanceOf(StoreDamagedError);
      expect(error!.message).toMatch(new RegExp(`log\\.bin is cut: it ends at task ${records[1].taskID}, where it held tasks up to ${records[3].taskID}`));
    }
    writeFileSync(join(dir, 'log.bin'), intact);
    expect(await recordCount(dir)).toBe(104);
  });

  it('a closed log part cut at a record boundary is reported, and loses writes once the snapshot after it is gone', async () => {
    const { dir, part, records } = await closedPartCut();

    // the newest snapshot holds b, c, d: reported, nothing lost
    const { result: sound, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings.join('\n')).toMatch(new RegExp(`${part} is cut: it ends at task ${records[0].taskID}, where it held tasks up to ${records[2].taskID}`));
    expect(sound.recovery.lost).toEqual([]);
    await closeEngine(sound);
  });

  it('a closed log part cut, with the snapshot after it damaged: refused as lost writes, never opened without them', async () => {
    const { dir, records } = await closedPartCut();
    const newest = snapshotFiles(dir)[0];
    const bytes = readFileSync(newest.path);
    bytes[bytes.length - 10] ^= 0xff;
    writeFileSync(newest.path, bytes);

    const { error } = await captureFailure(() => openAt(dir));
    expect(error).toBeInstanceOf(StoreDamagedError);
    expect(error!.message).toMatch(new RegExp(`tasks ${records[1].taskID} to ${records[2].taskID} may be lost`));
    expect(existsSync(newest.path)).toBe(true);
  });
});
