// A read worker that dies (here ended the way a crash ends it) while reads
// are in flight: they are answered elsewhere, the death is reported, the
// worker is started again from the writer's state, and from then on both
// workers answer what was published meanwhile. The writer runs in this
// process (src/), the workers are the Node build's (dist/read-worker.js,
// which `npm test` builds first).
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { Lantern } from '../../src/lantern.js';
import { ReadPool, WORKER_HEADER } from '../../src/replication/read-pool.js';

const SCRIPT = new URL('../../dist/read-worker.js', import.meta.url);

let engine: Lantern | undefined;
let pool: ReadPool | undefined;

afterEach(async () => {
  await pool?.close();
  await engine?.close();
});

const records = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ objectID: String(from + i), title: `crash test ${from + i}` }));

async function search(lantern: Lantern) {
  const response = await lantern.request({ method: 'POST', path: '/1/indexes/crash/query', body: { query: 'crash', hitsPerPage: 1 } });
  return { status: response.status, nbHits: (response.body as { nbHits?: number }).nbHits, worker: response.headers?.[WORKER_HEADER] };
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a read worker that dies', () => {
  it('is reported and started again from the writer\'s state; no read is lost or wrong', async () => {
    expect(existsSync(SCRIPT), 'dist/read-worker.js is missing: run `npm run build`').toBe(true);
    engine = await Lantern.open();
    const client = engine.client();
    await client.saveObjects({ indexName: 'crash', objects: records(0, 2000), waitForTasks: true });
    const reports: string[] = [];
    pool = await ReadPool.start(engine, { workers: 2, script: SCRIPT, report: (line) => reports.push(line) });
    const lantern = engine;

    // reads in flight on both workers when worker 1 dies
    const inFlight = Array.from({ length: 40 }, () => search(lantern));
    pool.crash(0);
    const answers = await Promise.all(inFlight);
    expect(answers.filter((a) => a.status !== 200 || a.nbHits !== 2000)).toEqual([]);
    await until(() => reports.length > 0);
    expect(reports[0]).toMatch(/^read worker 1 stopped \(.+\): starting it again from the writer's state/);

    // a write while it starts again: published once every worker (the new one too) has it
    const [{ taskID }] = await client.saveObjects({ indexName: 'crash', objects: records(2000, 500) });
    await client.waitForTask({ indexName: 'crash', taskID });
    await until(() => pool!.ready === 2);
    expect(reports).toContain('read worker 1 started again');
    const after = [];
    for (let i = 0; i < 6; i++) after.push(await search(lantern));
    expect(new Set(after.map((a) => a.worker))).toEqual(new Set(['1', '2']));
    expect(after.map((a) => a.nbHits)).toEqual(new Array(6).fill(2500));
  }, 30_000);

  it('while no worker is ready, the writer answers reads itself', async () => {
    engine = await Lantern.open();
    await engine.client().saveObjects({ indexName: 'crash', objects: records(0, 10), waitForTasks: true });
    const reports: string[] = [];
    pool = await ReadPool.start(engine, { workers: 2, script: SCRIPT, report: (line) => reports.push(line) });
    pool.crash(0);
    pool.crash(1);
    await until(() => pool!.ready === 0 && reports.length === 2);
    expect(reports[1]).toMatch(/meanwhile the main thread answers reads/);
    const answer = await search(engine);
    expect([answer.status, answer.nbHits, answer.worker]).toEqual([200, 10, undefined]);
    await until(() => pool!.ready === 2);
  }, 30_000);
});
