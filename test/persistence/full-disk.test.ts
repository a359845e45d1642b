// A full disk: no acknowledged write is lost, and no write is acknowledged
// that was not stored. On a small tmpfs where this process may mount one
// (root), space also comes back and the writes after it are kept; elsewhere
// a child process runs under a file size limit (`ulimit -f`: writes past it
// fail with EFBIG, as on a full disk).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { caller, captureWarnings, cleanup, closeEngine, logRecords, openAt, type Call } from './helpers.js';

beforeAll(loadCore);
afterAll(cleanup);

const WRITER = fileURLToPath(new URL('./fixtures/full-disk-writer.mjs', import.meta.url));

function batch(n: number): { requests: unknown[] } {
  return {
    requests: Array.from({ length: 20 }, (_, i) => ({
      action: 'addObject', body: { objectID: `b${n}-${i}`, batch: n, text: `filler text for batch ${n} record ${i} `.repeat(4) },
    })),
  };
}

async function batchesPresent(call: Call): Promise<Map<number, number>> {
  const present = new Map<number, number>();
  let cursor: string | undefined;
  do {
    const r = await call('POST', '/1/indexes/full/browse', cursor ? { cursor } : { hitsPerPage: 1000 });
    if (r.status === 404) return present;
    for (const hit of r.body.hits) present.set(hit.batch, (present.get(hit.batch) ?? 0) + 1);
    cursor = r.body.cursor;
  } while (cursor);
  return present;
}

/** A fresh tmpfs of `size`, or undefined where this process may not mount one. */
function smallDisk(size: string): string | undefined {
  const at = mkdtempSync(join(tmpdir(), 'lantern-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at], { stdio: 'ignore' });
    return at;
  } catch {
    rmSync(at, { recursive: true, force: true });
    return undefined;
  }
}

describe('a full disk', () => {
  const disk = process.env.LANTERN_FULL_DISK === 'fsize' ? undefined : smallDisk('1m');
  afterAll(() => {
    if (!disk) return;
    execFileSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  it.runIf(disk)('refuses with 507 what it cannot store, keeps every acknowledged batch, and takes writes again once space is back', async () => {
    const dir = join(disk!, 'store');
    mkdirSync(dir);
    const engine = await openAt(dir, { snapshotEvery: 0 });
    const call = caller(engine);
    // fill the disk but for ~48 KB
    const filler = join(disk!, 'filler');
    const { bavail, bsize } = statfsSync(disk!);
    writeFileSync(filler, Buffer.alloc(bavail * bsize - 48 * 1024));

    const acked: number[] = [];
    const refused: number[] = [];
    let n = 0;
    while (refused.length < 3) {
      const r = await call('POST', '/1/indexes/full/batch', batch(++n));
      if (r.status === 200) { acked.push(n); continue; }
      expect(r.status).toBe(507);
      expect(r.body.message).toMatch(/disk is full.*not stored/);
      refused.push(n);
    }
    expect(acked.length).toBeGreaterThan(3);
    // the log is cut back to its last whole record after each failure
    expect(logRecords(dir).every((r) => r.crcOk)).toBe(true);

    rmSync(filler);
    const after: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call('POST', '/1/indexes/full/batch', batch(++n));
      expect(r.status).toBe(200);
      after.push(n);
    }
    await engine.waitForTasks();
    await closeEngine(engine);

    const { result: reopened, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings).toEqual([]);
    const present = await batchesPresent(caller(reopened));
    for (const b of [...acked, ...after]) expect(present.get(b), `batch ${b}`).toBe(20);
    for (const b of refused) expect(present.has(b), `refused batch ${b}`).toBe(false);
    await closeEngine(reopened);
  });

  it.runIf(!disk)('under a file size limit: refuses what it cannot store, keeps every acknowledged batch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-fsize-'));
    const child = spawnSync('bash', ['-c', `ulimit -f 128 && exec "${process.execPath}" "${WRITER}" "${dir}"`], { encoding: 'utf8' });
    const lines = child.stdout.split('\n');
    expect(lines, child.stderr).toContain('done');
    const acked = lines.filter((l) => l.startsWith('ack ')).map((l) => Number(l.split(' ')[2]));
    const refused = lines.filter((l) => l.startsWith('refused ')).map((l) => l.split(' '));
    expect(acked.length).toBeGreaterThan(3);
    for (const [, status] of refused) expect(Number(status)).toBe(507);
    const { result: reopened, warnings } = await captureWarnings(() => openAt(dir));
    expect(warnings).toEqual([]);
    const present = await batchesPresent(caller(reopened));
    for (const b of acked) expect(present.get(b), `batch ${b}`).toBe(20);
    for (const [, , b] of refused) expect(present.has(Number(b)), `refused batch ${b}`).toBe(false);
    await closeEngine(reopened);
    rmSync(dir, { recursive: true, force: true });
  });
});
