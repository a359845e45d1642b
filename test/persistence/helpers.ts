// Shared helpers of the persistence suites: temporary directories, engines on
// fsStorage that are closed after each test, the binary log format read
// independently of src/storage/fs.ts, response normalisation, warnings caught.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { vi } from 'vitest';
import { Lantern, type LanternOptions } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import { Codec } from '../../src/durability/persistence.js';
import { wholeSnapshot } from '../support/snapshot-bytes.js';
export { readFixture, talksSettings } from '../support/fixtures.js';

export { Lantern, fsStorage };

const dirs: string[] = [];
const engines = new Set<Lantern>();

export function tempDir(prefix = 'lantern-persist-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Opens an engine on fsStorage(dir); it is closed by `cleanup()` if the test does not close it. */
export async function openAt(dir: string, options: Omit<LanternOptions, 'storage'> = {}): Promise<Lantern> {
  const engine = await Lantern.open({ ...options, storage: fsStorage(dir) });
  engines.add(engine);
  return engine;
}

export async function closeEngine(engine: Lantern): Promise<void> {
  engines.delete(engine);
  await engine.close();
}

export async function cleanup(): Promise<void> {
  for (const engine of [...engines]) {
    engines.delete(engine);
    await engine.close().catch(() => {});
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export function caller(engine: { request: Lantern['request'] }): Call {
  return async (method, path, body) => {
    const r = await engine.request({ method, path, body });
    return { status: r.status, body: r.body as any };
  };
}

/** Deep copy without the fields that measure time (processingTimeMS, serverTimeMS…). */
export function withoutTimings<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'processingTimeMS' || k === 'serverTimeMS' || k === 'processingTimingsMS' ? undefined : v)));
}

/** As `withoutTimings`, and dates replaced by a placeholder (two engines never answer at the same millisecond). */
export function normalized<T>(value: T): T {
  return JSON.parse(JSON.stringify(withoutTimings(value), (k, v) => (/At$/.test(k) && typeof v === 'string' ? '<date>' : v)));
}

// --- the binary log, read independently: u32 payload length, u32 crc32 (bytes 8..end), f64 taskID, payload

export const LOG_HEADER = 16;

export interface LogRecord { start: number; end: number; taskID: number; payload: Buffer; crcOk: boolean }

export function parseLog(bytes: Buffer): LogRecord[] {
  const out: LogRecord[] = [];
  let at = 0;
  while (at + LOG_HEADER <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    const end = at + LOG_HEADER + length;
    if (end > bytes.length) break;
    out.push({
      start: at,
      end,
      taskID: bytes.readDoubleLE(at + 8),
      payload: bytes.subarray(at + LOG_HEADER, end),
      crcOk: crc32(bytes.subarray(at + 8, end)) === bytes.readUInt32LE(at + 4),
    });
    at = end;
  }
  return out;
}

export const logPath = (dir: string) => join(dir, 'log.bin');

/** The log's records across its files (closed parts log-<task>.bin by name, then log.bin), with offsets in their file. */
export function logRecords(dir: string): Array<LogRecord & { file: string }> {
  const files = [...readdirSync(dir).filter((f) => /^log-\d{16}\.bin$/.test(f)).sort(), 'log.bin'];
  return files.flatMap((file) => {
    try {
      return parseLog(readFileSync(join(dir, file))).map((r) => ({ ...r, file }));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  });
}

export function logSize(dir: string): number {
  try { return statSync(logPath(dir)).size; } catch { return 0; }
}

const SNAPSHOT = /^snapshot-(\d{16})\.bin$/;

/** Snapshot files, newest first, with the taskID their name carries. */
export function snapshotFiles(dir: string): Array<{ file: string; path: string; taskID: number }> {
  return readdirSync(dir)
    .filter((f) => SNAPSHOT.test(f))
    .sort()
    .reverse()
    .map((file) => ({ file, path: join(dir, file), taskID: Number(SNAPSHOT.exec(file)![1]) }));
}

/**
 * Rewrites the newest snapshot of a closed store with `change` made to its
 * decoded state (as stored: before any upgrade), its digests and the
 * manifest made to match: a store that looks as if it was written so.
 */
export async function rewriteSnapshot(dir: string, change: (state: any) => void): Promise<void> {
  const codec = await Codec.create();
  const [file] = snapshotFiles(dir);
  const state = await codec.decodeSnapshot(new Uint8Array(readFileSync(file.path)));
  change(state);
  const bytes = await wholeSnapshot(await codec.encodeSnapshot(state));
  writeFileSync(file.path, bytes);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  manifest.snapshots[0] = { ...manifest.snapshots[0], bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
}

/** Every file of the directory with its bytes (to compare a directory before and after). */
export function directoryContents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) out[f] = readFileSync(join(dir, f)).toString('base64');
  return out;
}

/** Runs `work` with console.warn and console.error captured (silenced); returns what they printed. */
export async function captureWarnings<T>(work: () => Promise<T>): Promise<{ result: T; warnings: string[]; errors: string[] }> {
  const warnings: string[] = [];
  const errors: string[] = [];
  const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => { warnings.push(args.map(String).join(' ')); });
  const error = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => { errors.push(args.map(String).join(' ')); });
  try {
    return { result: await work(), warnings, errors };
  } finally {
    warn.mockRestore();
    error.mockRestore();
  }
}

/** Like `captureWarnings`, for work that is expected to throw: returns the error. */
export async function captureFailure(work: () => Promise<unknown>): Promise<{ error: Error | undefined; warnings: string[]; errors: string[] }> {
  let failure: Error | undefined;
  const { warnings, errors } = await captureWarnings(async () => {
    try { await work(); } catch (e) { failure = e as Error; }
  });
  return { error: failure, warnings, errors };
}

export { prng } from '../support/random.js';
