// The benchmark harness (bench/run.mjs) on a tiny corpus: it runs every
// library end to end and writes figures of the right shape. No timing is
// asserted: only that each figure exists and the sanity checks pass.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'lantern-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench harness --smoke', () => {
  it('compares every library on the same queries and writes the JSON results', async () => {
    const json = join(dir, 'results.json');
    const { stdout } = await run(process.execPath, ['bench/run.mjs', '--smoke', '--sizes', '300', '--qps', '100', '--json', json], {
      cwd: join(import.meta.dirname, '../..'),
      maxBuffer: 16 << 20,
    });
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    expect(doc.mode).toBe('comparison');
    const [result] = doc.results;
    expect(result.dataset).toBe('synthetic-300');
    expect(result.records).toBe(300);
    const names = result.libraries.map((l: { library: string }) => l.library);
    expect(names).toEqual(['Lantern', 'Lantern core', 'MiniSearch', 'FlexSearch', 'Orama', 'Lunr', 'Fuse.js']);

    const byName = Object.fromEntries(result.libraries.map((l: { library: string }) => [l.library, l]));
    const lantern = byName.Lantern;
    expect(lantern.buildMs).toBeGreaterThan(0);
    expect(lantern.memoryBytes).toBeGreaterThan(0);
    expect(lantern.memoryQueriedBytes).toBeGreaterThan(0);
    expect(lantern.snapshotBytes).toBeGreaterThan(0);
    expect(lantern.snapshotSame).toBe(true);
    expect(lantern.qps).toBeGreaterThan(0);
    expect(lantern.workloads.exact.meanCount).toBeGreaterThan(0);
    expect(lantern.recall.typo1).toBeGreaterThan(0);
    for (const key of ['exact', 'asYouType', 'typo1', 'typo2', 'multi', 'filtered', 'faceted']) {
      expect(lantern.workloads[key].samples, key).toBeGreaterThan(0);
    }
    // where a peer cannot do the work, the result says why instead of a number
    expect(byName.FlexSearch.workloads.typo1).toEqual({ unsupported: 'no typo tolerance' });
    expect(byName.Lunr.workloads.filtered).toEqual({ unsupported: 'no filters' });
    expect(byName.MiniSearch.workloads.faceted).toEqual({ unsupported: 'no facet counts' });
    expect(byName.Orama.workloads.faceted.samples).toBeGreaterThan(0);
    // every peer that reloads its snapshot answers as before it was saved
    for (const l of result.libraries.filter((x: { snapshotSame?: boolean }) => x.snapshotSame !== undefined)) {
      expect(l.snapshotSame, l.library).toBe(true);
    }

    expect(stdout).toContain('as-you-type p50 (ms)');
    expect(stdout).toContain('recall@10, 2 typos');
    expect(stdout).toContain('no typo tolerance');

    // the chart script plots a line per library from these results
    const svgFile = join(dir, 'latency.svg');
    await run(process.execPath, ['bench/chart.mjs', '--out', svgFile, json], { cwd: join(import.meta.dirname, '../..') });
    const svg = readFileSync(svgFile, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(names.length);
    for (const name of names) expect(svg).toContain(`>${name}</text>`);
  }, 180_000);

  it('runs each corpus in a process of its own and gathers their results', async () => {
    const json = join(dir, 'two.json');
    const { stdout } = await run(process.execPath, [
      'bench/run.mjs', '--corpora', 'synthetic', '--sizes', '300,400', '--libraries', 'lantern', '--queries', '3',
      '--qps', '0', '--runs', '1', '--budget', '20', '--json', json,
    ], { cwd: join(import.meta.dirname, '../..'), maxBuffer: 16 << 20 });
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    expect(doc.results.map((r: { dataset: string }) => r.dataset)).toEqual(['synthetic-300', 'synthetic-400']);
    const pids = doc.results.map((r: { pid: number }) => r.pid);
    expect(new Set(pids).size).toBe(2);
    expect(stdout.match(/^Lantern bench — /gm)).toHaveLength(1);
    expect(stdout).toContain('== synthetic 300:');
    expect(stdout).toContain('== synthetic 400:');
  }, 120_000);
});
