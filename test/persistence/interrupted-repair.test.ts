// A repair stopped anywhere (kill -9, or Ctrl-C: SIGINT) loses nothing: run
// again, it finishes, and the store holds every record a perfect recovery
// keeps; the snapshot it could not use is under damaged/ whole. The store:
// 10,000 records, two snapshots, the newest damaged, writes after both; the
// repair (`lantern repair`, dist/cli.js) is stopped at times spread over
// how long a whole one takes.
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { CLI, ROOT } from '../support/serve.js';
import { caller, captureWarnings, cleanup, closeEngine, openAt, snapshotFiles, tempDir } from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

const RECORDS = 10_000;

/** 10 batches of 1,000 records, snapshots after the 5th and the 8th; the newest snapshot then damaged. */
async function damagedStore(dir: string): Promise<Buffer> {
  const engine = await openAt(dir, { snapshotEvery: 0 });
  const call = caller(engine);
  for (let b = 0; b < RECORDS / 1000; b++) {
    const requests = Array.from({ length: 1000 }, (_, i) => ({ action: 'addObject', body: { objectID: `r${b * 1000 + i}`, title: `record ${b * 1000 + i} of batch ${b}` } }));
    await call('POST', '/1/indexes/t/batch', { requests });
    if (b === 4 || b === 7) {
      await engine.waitForTasks();
      await engine.snapshot();
    }
  }
  await engine.waitForTasks();
  await closeEngine(engine);
  const newest = snapshotFiles(dir)[0];
  const bytes = readFileSync(newest.path);
  bytes[Math.floor(bytes.length / 2)] ^= 0xff;
  writeFileSync(newest.path, bytes);
  return bytes;
}

/** `lantern repair --data dir`, stopped with `signal` after `ms` (never, without a signal); resolves with its exit and output. */
function repair(dir: string, signal?: NodeJS.Signals, ms = 0): Promise<{ code: number | null; stdout: string; took: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'repair', '--data', dir], { cwd: ROOT });
    let stdout = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.resume();
    const timer = signal ? setTimeout(() => child.kill(signal), ms) : undefined;
    child.once('error', reject);
    child.once('close', (code) => { clearTimeout(timer); resolve({ code, stdout, took: performance.now() - started }); });
  });
}

async function records(dir: string): Promise<number> {
  const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
  expect(warnings).toEqual([]);
  const { body } = await caller(engine)('POST', '/1/indexes/t/query', { query: '', hitsPerPage: 0, analytics: false });
  await closeEngine(engine);
  return body.nbHits;
}

describe('a repair stopped anywhere', () => {
  it('kill -9 or SIGINT at any point: run again, it finishes with every record, the damaged snapshot set aside whole', async () => {
    const pristine = tempDir('lantern-repair-pristine-');
    const damaged = await damagedStore(pristine);
    // how long a whole repair takes here
    const whole = tempDir('lantern-repair-whole-');
    cpSync(pristine, whole, { recursive: true });
    const uninterrupted = await repair(whole);
    expect(uninterrupted.code).toBe(0);
    expect(await records(whole)).toBe(RECORDS);

    for (const signal of ['SIGKILL', 'SIGINT'] as const) {
      for (const share of [0.3, 0.6, 0.9]) {
        const dir = tempDir('lantern-repair-stopped-');
        cpSync(pristine, dir, { recursive: true });
        const stopped = await repair(dir, signal, uninterrupted.took * share);
        const label = `${signal} at ${Math.round(uninterrupted.took * share)} ms (exit ${stopped.code})`;
        const again = await repair(dir);
        expect(again.code, label).toBe(0);
        expect(await records(dir), label).toBe(RECORDS);
        // the snapshot it could not use is somewhere under damaged/, whole, whichever run moved it
        const aside = readdirSync(join(dir, 'damaged')).map((f) => readFileSync(join(dir, 'damaged', f)));
        expect(aside.some((b) => b.equals(damaged)), label).toBe(true);
      }
    }
  }, 120_000);
});
