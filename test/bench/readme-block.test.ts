// The README's benchmark block is made by bench/readme.mjs from the committed
// results (bench/RESULTS.md, bench/latency.svg), never typed: the README must
// hold what the script makes from them now (`node bench/readme.mjs` rewrites it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchmarkBlock, END, readTable, START, withBlock } from '../../bench/readme.mjs';
import { ROOT } from '../support/serve.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const results = readFileSync(join(ROOT, 'bench', 'RESULTS.md'), 'utf8');

describe('the README benchmark block', () => {
  it('is what bench/readme.mjs makes from bench/RESULTS.md', () => {
    expect(readme).toContain(START);
    expect(readme).toContain(END);
    expect(withBlock(readme, benchmarkBlock(results))).toBe(readme);
  });

  it('shows the committed figures: a result changed in RESULTS.md changes the block', () => {
    const synthetic = readTable(results, '## Synthetic 100k (default run)');
    const lanternBuild = synthetic.rows.get('build (ms)')?.[0];
    expect(lanternBuild).toMatch(/^\d+$/);
    expect(benchmarkBlock(results)).toContain(`| build (ms) | ${lanternBuild} |`);
    const changed = results.replace(/(## Synthetic 100k \(default run\)[\s\S]*?\nbuild \(ms\) +)\d+/, (_m, before: string) => `${before}9999`);
    expect(benchmarkBlock(changed)).toContain('| build (ms) | 9999 |');
  });

  it('draws the chart bench/chart.mjs wrote', () => {
    expect(benchmarkBlock(results)).toContain('](bench/latency.svg)');
    expect(readFileSync(join(ROOT, 'bench', 'latency.svg'), 'utf8')).toMatch(/^<svg [\s\S]*Lantern/);
  });
});
