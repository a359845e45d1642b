// `lantern import` (dist/cli.js) on real files in temp dirs: what it says
// when it stops (how many records are in, the command that goes on, which
// works as printed), the records it sets aside with --rejects, and a store
// left consistent by Ctrl-C or kill -9 midway.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/serve.js';
import { runLantern, runPrinted, type Run } from '../support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'lantern-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh directory for one test; the commands run in it (the files and stores are named relative to it). */
function workDir(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  return dir;
}

/** The number of records of INDEX in the store, by a search that matches them all. */
async function hits(cwd: string, store: string, index: string, query = 'amber'): Promise<number> {
  const r = await runLantern(['search', index, query, '--data', store, '--hits', '0'], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return Number(r.stdout.split(' ')[0]);
}

/** The objectIDs of INDEX in the store, from `lantern export`. */
async function exportedIds(cwd: string, store: string, index: string): Promise<Set<string>> {
  const r = await runLantern(['export', index, '--data', store], { cwd, timeoutMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
  return new Set(r.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { objectID: string }).objectID));
}

/** The command an interrupted or stopped import printed to go on with. */
function printedResume(r: Run): string {
  const command = /to go on from record [\d,]+: (lantern .*)$/m.exec(r.stdout)?.[1];
  expect(command, r.stdout).toBeDefined();
  return command!;
}

/** NDJSON records "amber w0" ... with a blank line every 400 lines, so that record and line numbers differ. */
function ndjson(count: number, line: (i: number) => string = (i) => JSON.stringify({ objectID: String(i), t: `amber w${i}` })): string {
  return Array.from({ length: count }, (_, i) => `${i > 0 && i % 400 === 0 ? '\n' : ''}${line(i)}`).join('\n');
}

/** The line of the file record `position` (1-based) starts on, in ndjson()'s layout. */
const lineOf = (position: number) => position + Math.floor((position - 1) / 400);

describe('an import stopped by a bad line', () => {
  it('says how many records are in and goes on with the printed command: past the line, or once it is fixed', async () => {
    const cwd = workDir('bad-line');
    const good = ndjson(3000);
    const bad = good.replace('{"objectID":"1500","t":"amber w1500"}', '{"objectID": oops}');
    writeFileSync(join(cwd, 'talks.ndjson'), bad);
    const store = 'my store';
    const args = ['import', 'nd', 'talks.ndjson', '--format', 'ndjson', '--types', 'n:number', '--data', store];

    const stopped = await runLantern(args, { cwd });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr.trim().split('\n').filter((l) => !l.startsWith('settings inferred'))).toEqual([
      `lantern: talks.ndjson: record 1,501 (line ${lineOf(1501).toLocaleString('en')}): not JSON: Unexpected token 'o', "{"objectID": oops}" is not valid JSON`,
    ]);
    expect(stopped.stdout).toMatch(/^imported 1,500 records into "nd"/);
    // every flag given is kept, the store's name quoted for the shell
    const resume = printedResume(stopped);
    expect(resume).toBe("lantern import nd talks.ndjson --format ndjson --types n:number --data 'my store' --skip 1500");
    expect(stopped.stdout).toMatch(/--skip 1501 passes over it/);
    expect(await hits(cwd, store, 'nd')).toBe(1500);

    // as printed, it stops on the same line (nothing more written), and says so again
    const again = await runPrinted(resume, { cwd });
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^imported 0 records/);
    expect(printedResume(again)).toBe(resume);
    // --skip 1501 passes over it: every other record is in
    const past = await runPrinted(resume.replace('--skip 1500', '--skip 1501'), { cwd });
    expect(past.code, past.stderr).toBe(0);
    expect(past.stdout).toMatch(/^imported 1,499 records/);
    expect(await hits(cwd, store, 'nd')).toBe(2999);
    expect((await exportedIds(cwd, store, 'nd')).has('1500')).toBe(false);

    // once it is fixed, the printed command imports it and the rest
    writeFileSync(join(cwd, 'talks.ndjson'), good);
    const fixed = await runPrinted(resume, { cwd });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/^imported 1,500 records/);
    expect(await hits(cwd, store, 'nd')).toBe(3000);
  }, 60_000);

  it('a record the engine refuses: the batches before it are in, and the printed command goes on from its batch', async () => {
    const cwd = workDir('refused');
    const file = ndjson(2500, (i) => (i === 1200 ? '{"objectID":"1200","t":"amber w1200","n":1e999}' : JSON.stringify({ objectID: String(i), t: `amber w${i}` })));
    writeFileSync(join(cwd, 'r.ndjson'), file);
    const stopped = await runLantern(['import', 'r', 'r.ndjson', '--data', 'store'], { cwd });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/^lantern: r\.ndjson: records 1,001 to 2,000 \(lines 1,003 to 2,004\) were not imported: Record "1200" .*Infinity/m);
    expect(printedResume(stopped)).toBe('lantern import r r.ndjson --data store --skip 1000');
    expect(await hits(cwd, 'store', 'r')).toBe(1000);
    writeFileSync(join(cwd, 'r.ndjson'), file.replace(',"n":1e999', ''));
    expect((await runPrinted(printedResume(stopped), { cwd })).code).toBe(0);
    expect(await hits(cwd, 'store', 'r')).toBe(2500);
  }, 60_000);
});

describe('--rejects FILE', () => {
  it('imports the good records and sets the others aside, as the file holds them, with their line and the reason', async () => {
    const cwd = workDir('rejects');
    const bad = new Map<number, string>([
      [10, '{"objectID": oops'], // not JSON
      [1200, '{"objectID":"1200","t":"amber w1200","n":1e999}'], // refused by the engine, in a batch of good records
      [1201, '{"objectID":"1201","t":"amber w1201","n":-1e999}'], // and the one after it
      [2400, 'not json either'],
    ]);
    writeFileSync(join(cwd, 'mixed.ndjson'), ndjson(2500, (i) => bad.get(i) ?? JSON.stringify({ objectID: String(i), t: `amber w${i}` })));
    const r = await runLantern(['import', 'm', 'mixed.ndjson', '--data', 'store', '--rejects', 'rejects.ndjson'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^imported 2,496 records into "m"/);
    expect(r.stdout).toMatch(/^rejected 4 records: set aside in rejects\.ndjson, each with its line and the reason$/m);
    const rejected = readFileSync(join(cwd, 'rejects.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(rejected).toEqual([...bad].map(([i, text]) => ({ record: i + 1, line: lineOf(i + 1), reason: expect.any(String), text })));
    expect(rejected.map((x) => x.reason)).toEqual([
      expect.stringMatching(/^not JSON/), expect.stringMatching(/Record "1200" .*Infinity/), expect.stringMatching(/Record "1201" .*Infinity/), expect.stringMatching(/^not JSON/),
    ]);
    expect(await hits(cwd, 'store', 'm')).toBe(2496);
    const ids = await exportedIds(cwd, 'store', 'm');
    expect([...bad.keys()].filter((i) => ids.has(String(i)))).toEqual([]);
    expect(ids.has('1199') && ids.has('1202')).toBe(true);

    // a resumed import (--skip) adds to the rejects; a new one starts them again
    const resumed = await runLantern(['import', 'm', 'mixed.ndjson', '--data', 'store', '--rejects', 'rejects.ndjson', '--skip', '1500'], { cwd });
    expect(resumed.stdout).toMatch(/^rejected 1 records/m);
    expect(readFileSync(join(cwd, 'rejects.ndjson'), 'utf8').trim().split('\n')).toHaveLength(5);
    await runLantern(['import', 'm', 'mixed.ndjson', '--data', 'store', '--rejects', 'rejects.ndjson'], { cwd });
    expect(readFileSync(join(cwd, 'rejects.ndjson'), 'utf8').trim().split('\n')).toHaveLength(4);
  }, 60_000);

  it('CSV: the rows named by the line they start on (a quoted field may span lines), and JSON records as written', async () => {
    const cwd = workDir('rejects-csv');
    writeFileSync(join(cwd, 'p.csv'), 'objectID,t,n\np1,"amber\nlamp",1\np2,"amber\ndesk\nwide",x\np3,amber,3,extra\np4,amber,4\n');
    const r = await runLantern(['import', 'p', 'p.csv', '--types', 'n:number', '--data', 'store', '--rejects', 'rejects.ndjson'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'rejects.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { record: 2, line: 4, reason: 'column "n": "x" is not a number', text: 'p2,"amber\ndesk\nwide",x' },
      { record: 3, line: 7, reason: expect.stringMatching(/^Invalid Record Length/), text: 'p3,amber,3,extra' },
    ]);
    expect(await hits(cwd, 'store', 'p')).toBe(2);
    // without --rejects, the same row stops the import, named by its record and line
    const stopped = await runLantern(['import', 'p', 'p.csv', '--types', 'n:number', '--data', 'other'], { cwd });
    expect(stopped.stderr).toMatch(/^lantern: p\.csv: record 2 \(line 4\): column "n": "x" is not a number$/m);

    writeFileSync(join(cwd, 'a.json'), '[\n  {"objectID": "1", "t": "amber"},\n  {"objectID": "2", "n": 1e999}\n]');
    const json = await runLantern(['import', 'a', 'a.json', '--data', 'store', '--rejects', 'json-rejects.ndjson'], { cwd });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'json-rejects.ndjson'), 'utf8'))).toEqual({ record: 2, reason: expect.stringMatching(/Infinity/), text: '{"objectID": "2", "n": 1e999}' });
  }, 60_000);
});

describe('an import stopped midway by a signal', () => {
  const N = 200_000;

  /** Starts an import of N records into `store` and sends `signal` once its first batches are in the store's log. */
  async function importInterrupted(cwd: string, signal: NodeJS.Signals): Promise<Run> {
    const child = spawn(process.execPath, [CLI, 'import', 'big', 'big.ndjson', '--format', 'ndjson', '--data', 'store'], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const log = join(cwd, 'store', 'log.bin');
    while (!existsSync(log) || statSync(log).size < 300_000) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill(signal);
    return { code: await closed, stdout, stderr };
  }

  /** The store holds the first `count` records of the file, and none after. */
  async function expectFirstRecords(cwd: string, count: number): Promise<void> {
    const ids = await exportedIds(cwd, 'store', 'big');
    expect(ids.size).toBe(count);
    expect(Array.from({ length: count }, (_, i) => String(i)).every((id) => ids.has(id))).toBe(true);
  }

  it('Ctrl-C: the records before the batch in flight are in, and the printed command imports the rest', async () => {
    const cwd = workDir('sigint');
    writeFileSync(join(cwd, 'big.ndjson'), ndjson(N));
    const r = await importInterrupted(cwd, 'SIGINT');
    expect(r.code, r.stderr).toBe(0);
    const done = Number(/the first ([\d,]+) records of the file are done with/.exec(r.stdout)?.[1]?.replaceAll(',', ''));
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(N);
    expect(done % 1000).toBe(0);
    await expectFirstRecords(cwd, done);
    const resume = printedResume(r);
    expect(resume).toBe(`lantern import big big.ndjson --format ndjson --data store --skip ${done}`);
    const rest = await runPrinted(resume, { cwd, timeoutMs: 120_000 });
    expect(rest.code, rest.stderr).toBe(0);
    expect(await hits(cwd, 'store', 'big')).toBe(N);
  }, 180_000);

  it('kill -9: the store opens as it was, whole batches in, and --skip with their count imports the rest', async () => {
    const cwd = workDir('sigkill');
    writeFileSync(join(cwd, 'big.ndjson'), ndjson(N));
    const r = await importInterrupted(cwd, 'SIGKILL');
    expect(r.code).toBeNull();
    // no repair needed: the next command opens the store
    const done = await hits(cwd, 'store', 'big');
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(N);
    expect(done % 1000).toBe(0);
    await expectFirstRecords(cwd, done);
    const rest = await runLantern(['import', 'big', 'big.ndjson', '--format', 'ndjson', '--data', 'store', '--skip', String(done)], { cwd, timeoutMs: 120_000 });
    expect(rest.code, rest.stderr).toBe(0);
    expect(await hits(cwd, 'store', 'big')).toBe(N);
  }, 180_000);
});
