// Crash test with real processes: a child (fixtures/crash-writer.mjs, the
// built package on fsStorage) writes batches and prints each acknowledged
// taskID as soon as the write call resolves; the parent kills it with SIGKILL
// at random points (seeded), reopens the directory, and checks that every
// acknowledged batch is present and searchable and that no batch is partly
// visible. The directory is reused, so history (log, snapshots) accumulates.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import {
  caller, captureWarnings, cleanup, closeEngine, logRecords, openAt, prng, snapshotFiles, tempDir, type Call,
} from './helpers.js';

const SEED = Number(process.env.LANTERN_CRASH_SEED ?? 20261122);
const ROUNDS = Number(process.env.LANTERN_CRASH_ROUNDS ?? 60);
const WRITER = fileURLToPath(new URL('./fixtures/crash-writer.mjs', import.meta.url));

beforeAll(loadCore);
afterAll(cleanup);

interface Ack { taskID: number; batch: number; size: number }
interface RoundResult { acks: Ack[]; lines: string[]; exit: { code: number | null; signal: NodeJS.Signals | null }; stderr: string }

/**
 * Runs the writer and kills it `delay` ms after it is spawned, after it is
 * ready, or after its first snapshot is written (so that snapshots are
 * taken however slow the machine: a kill soon after `ready` may land before
 * any).
 */
function runWriter(args: string[], kill: { after: 'spawn' | 'ready' | 'snapshot'; delay: number }): Promise<RoundResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffered = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const killLater = () => { timer ??= setTimeout(() => child.kill('SIGKILL'), kill.delay); };
    if (kill.after === 'spawn') killLater();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        if (line === kill.after) killLater();
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => { stderr += chunk; });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // a partial last line was never fully acknowledged: ignore it
      const acks = lines.filter((l) => l.startsWith('ack ')).map((l) => {
        const [, taskID, batch, size] = l.split(' ').map(Number);
        return { taskID, batch, size };
      });
      resolve({ acks, lines, exit: { code, signal }, stderr });
    });
  });
}

async function allRecords(call: Call): Promise<any[]> {
  const records: any[] = [];
  let cursor: string | undefined;
  do {
    const r = await call('POST', '/1/indexes/crash/browse', cursor ? { cursor } : { hitsPerPage: 1000 });
    if (r.status === 404) return [];
    expect(r.status).toBe(200);
    records.push(...r.body.hits);
    cursor = r.body.cursor;
  } while (cursor);
  return records;
}

describe('SIGKILL at random points', () => {
  it(`${ROUNDS} rounds: every acknowledged batch is present and searchable, no batch is partial`, async () => {
    const random = prng(SEED);
    const dir = tempDir('lantern-crash-');
    const acked = new Map<number, Ack>();
    let lastAckedTask = 0;
    let nextBatch = 1;
    const stats = { killedMidWrite: 0, killedBeforeReady: 0, finished: 0, tornTails: 0, snapshotsSeen: 0, acks: 0, fallbacks: 0 };

    for (let round = 0; round < ROUNDS; round++) {
      const concurrency = 1 + Math.floor(random() * 3);
      const snapshotEvery = [0, 7, 25][Math.floor(random() * 3)];
      const fromSpawn = random() < 0.12;
      const delay = fromSpawn ? Math.floor(random() * 250) : random() < 0.15 ? 0 : Math.floor(random() * 80);
      const after = fromSpawn ? 'spawn' : round % 5 === 4 ? 'snapshot' : 'ready';
      const context = `round ${round} (seed ${SEED}, concurrency ${concurrency}, snapshotEvery ${snapshotEvery}, kill ${delay}ms after ${after})`;

      const result = await runWriter(
        [dir, String(nextBatch), String(Math.floor(random() * 2 ** 31)), String(concurrency), String(snapshotEvery), '300'],
        { after, delay },
      );
      if (result.lines.includes('done')) stats.finished++;
      else {
        expect(result.exit.signal, `${context}: the writer died on its own: ${result.stderr}`).toBe('SIGKILL');
        if (!result.lines.includes('ready')) stats.killedBeforeReady++;
        else if (result.acks.length > 0) stats.killedMidWrite++;
      }
      expect(result.lines.filter((l) => l.startsWith('snapshot-failed')), context).toEqual([]);
      stats.snapshotsSeen += result.lines.filter((l) => l === 'snapshot').length;

      // acknowledgements come in taskID order, after every earlier acknowledged task
      for (const ack of result.acks) {
        expect(ack.taskID, context).toBeGreaterThan(lastAckedTask);
        lastAckedTask = ack.taskID;
        acked.set(ack.batch, ack);
      }
      stats.acks += result.acks.length;

      // reopen in this process and check
      const { result: engine, warnings } = await captureWarnings(() => openAt(dir));
      if (warnings.some((w) => /torn|corrupt|truncat/i.test(w))) stats.tornTails++;
      if (warnings.some((w) => /snapshot/i.test(w))) stats.fallbacks++;
      const call = caller(engine);
      const records = await allRecords(call);
      const byBatch = new Map<number, any[]>();
      let latest: any;
      for (const r of records) {
        if (r.objectID === 'latest') { latest = r; continue; }
        if (!byBatch.has(r.batch)) byBatch.set(r.batch, []);
        byBatch.get(r.batch)!.push(r);
      }
      // no partial batch: every batch present has all its members, each once
      for (const [batch, members] of byBatch) {
        const size = members[0].size;
        expect(members.map((m) => m.member).sort((a, b) => a - b), `${context}: batch ${batch}`).toEqual(Array.from({ length: size }, (_, i) => i));
        expect(members.every((m) => m.size === size && m.objectID === `b${batch}-${m.member}`), `${context}: batch ${batch}`).toBe(true);
      }
      // every acknowledged batch is there, whole
      const present = [...byBatch.keys()].sort((a, b) => a - b);
      const missing = [...acked.keys()].filter((b) => !byBatch.has(b));
      expect(missing, `${context}: acknowledged batches missing after the kill`).toEqual([]);
      for (const [batch, ack] of acked) expect(byBatch.get(batch)!.length, `${context}: batch ${batch}`).toBe(ack.size);
      // the log is a prefix: batches present are 1..M without a gap, and `latest` points at M
      const maxPresent = present.at(-1) ?? 0;
      expect(present, context).toEqual(Array.from({ length: maxPresent }, (_, i) => i + 1));
      if (maxPresent > 0) expect(latest?.batch, context).toBe(maxPresent);

      // searchable: this round's acknowledged batches (up to 8) and a few older ones, through the index
      const sample = [...result.acks.slice(-8).map((a) => a.batch)];
      for (let i = 0; i < 4 && acked.size > 0; i++) sample.push(1 + Math.floor(random() * Math.max(...acked.keys())));
      for (const batch of sample) {
        const expected = acked.get(batch)?.size ?? byBatch.get(batch)?.length;
        if (expected === undefined) continue;
        const search = await call('POST', '/1/indexes/crash/query', {
          query: `x${batch}x`, typoTolerance: false, queryType: 'prefixNone', hitsPerPage: 20,
        });
        expect(search.body.nbHits, `${context}: search for batch ${batch}`).toBe(expected);
        expect(search.body.hits.every((h: any) => h.batch === batch), context).toBe(true);
      }
      if (acked.size > 0) {
        const everything = await call('POST', '/1/indexes/crash/query', { query: '', hitsPerPage: 0 });
        expect(everything.body.nbHits, context).toBe(records.length);
      }
      // acknowledged tasks read as published
      for (const ack of result.acks.slice(-3)) {
        expect((await call('GET', `/1/indexes/crash/task/${ack.taskID}`)).body.status, context).toBe('published');
      }
      await closeEngine(engine);

      expect(snapshotFiles(dir).length, context).toBeLessThanOrEqual(2);
      expect(logRecords(dir).every((r) => r.crcOk), context).toBe(true);
      nextBatch = Math.max(maxPresent, ...acked.keys(), 0) + 1;
    }

    console.log(`crash test (seed ${SEED}): ${JSON.stringify(stats)}, ${nextBatch - 1} batches in the end, ${snapshotFiles(dir).length} snapshots, ${logRecords(dir).length} log records`);
    expect(stats.killedMidWrite).toBeGreaterThanOrEqual(Math.floor(ROUNDS / 2));
    expect(stats.acks).toBeGreaterThan(ROUNDS);
    expect(snapshotFiles(dir).length).toBeGreaterThan(0);
  }, 110_000);
});
