// Relevance benchmark (issue #23): held-out queries built from the
// workspace's datasets (bench/relevance/queries.mjs: exact titles, one and
// two typos, a first-letter typo, reordered and missing words, diacritics,
// an extra stop word; titles typed keystroke by keystroke), run on Lantern
// (the service's defaults, the search-box recipe, allOptional alone) and on each peer as
// its documentation recommends. Prints, per class, recall@1/3/10, MRR and
// the share of queries with no hit, then keystrokes until the record is in
// the top 3, then the recipe against the best peer. Not a test: numbers.
//
//   npm run build && node bench/relevance.mjs [--seed 23] [--per-class 30] [--keystrokes 18]
//       [--corpora talks,speakers,recipes,airports,contacts] [--libraries minisearch,orama,flexsearch,lunr,fuse]
//       [--datasets /work/shared/datasets] [--dist dist] [--json FILE]
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DATASETS, relevanceCorpora } from './relevance/corpora.mjs';
import { relevanceQueries } from './relevance/queries.mjs';
import { PEERS, relevanceLibraries } from './relevance/libraries.mjs';
import { Tally, TypingTally, measure, measureTyping } from './relevance/metrics.mjs';

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string', default: '23' },
    'per-class': { type: 'string', default: '30' },
    keystrokes: { type: 'string', default: '18' },
    corpora: { type: 'string' },
    libraries: { type: 'string', default: Object.keys(PEERS).join(',') },
    datasets: { type: 'string', default: DEFAULT_DATASETS },
    dist: { type: 'string', default: 'dist' },
    json: { type: 'string' },
  },
});

const options = { seed: Number(args.seed), perClass: Number(args['per-class']), keystrokes: Number(args.keystrokes) };
const corpora = relevanceCorpora(args.datasets).filter((c) => !args.corpora || args.corpora.split(',').includes(c.name));
const libraries = await relevanceLibraries(resolve(args.dist), args.libraries.split(','));

/** @type {Map<string, Map<string, Tally>>} library → class → tally */
const tallies = new Map(libraries.map((l) => [l.name, new Map()]));
/** @type {Map<string, TypingTally>} */
const typing = new Map(libraries.map((l) => [l.name, new TypingTally()]));

for (const corpus of corpora) {
  const { classes, typed } = relevanceQueries(corpus, options);
  for (const library of libraries) {
    const started = performance.now();
    const searcher = await library.build(corpus);
    const byClass = /** @type {Map<string, Tally>} */ (tallies.get(library.name));
    for (const [name, queries] of Object.entries(classes)) {
      if (!byClass.has(name)) byClass.set(name, new Tally());
      await measure(searcher, queries, /** @type {Tally} */ (byClass.get(name)));
    }
    await measureTyping(searcher, typed, /** @type {TypingTally} */ (typing.get(library.name)));
    await searcher.close();
    process.stderr.write(`${corpus.name} (${corpus.records.length} records), ${library.name}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

/** @type {(x: number) => string} */
const pct = (x) => x.toFixed(2);
/** @type {(rows: string[][]) => string} */
const table = (rows) => [rows[0], rows[0].map(() => '---'), ...rows.slice(1)].map((r) => `| ${r.join(' | ')} |`).join('\n');
const classNames = [...(tallies.get(libraries[0].name)?.keys() ?? [])];
const figures = Object.fromEntries(libraries.map((l) => [l.name, Object.fromEntries(
  [...(tallies.get(l.name) ?? [])].map(([c, t]) => [c, t.figures()]),
)]));

const queryCount = classNames.reduce((n, c) => n + figures[libraries[0].name][c].queries, 0);
console.log(`Relevance, seed ${options.seed}: ${queryCount} queries in ${classNames.length} classes over ${corpora.map((c) => c.name).join(', ')}; `
  + `${typing.get(libraries[0].name)?.titles} titles typed.\n`);
for (const c of classNames) {
  console.log(`### ${c} (${figures[libraries[0].name][c].queries} queries)\n`);
  console.log(table([
    ['library', 'R@1', 'R@3', 'R@10', 'MRR', 'zero hits'],
    ...libraries.map((l) => {
      const f = figures[l.name][c];
      return [l.name, pct(f.recall1), pct(f.recall3), pct(f.recall10), pct(f.mrr), `${(f.zeroHits * 100).toFixed(0)}%`];
    }),
  ]));
  console.log('');
}

console.log('### As you type: keystrokes until the record is in the top 3\n');
console.log(table([
  ['library', 'keystrokes', 'reached'],
  ...libraries.map((l) => {
    const t = /** @type {TypingTally} */ (typing.get(l.name)).figures();
    return [l.name, t.keystrokes.toFixed(2), `${(t.reached * 100).toFixed(0)}%`];
  }),
]));

const peers = libraries.filter((l) => !l.name.startsWith('Lantern'));
const keystrokesOf = (/** @type {string} */ name) => /** @type {TypingTally} */ (typing.get(name)).figures().keystrokes;

/**
 * `name` against the best peer of each class: recall@3 within 0.02 of the
 * best peer's and a zero-hit share no higher than the lowest peer's, and
 * as many keystrokes as the best peer's at most.
 * @param {string} name
 */
function verdicts(name) {
  const rows = classNames.map((c) => {
    const mine = figures[name][c];
    const best = peers.reduce((a, b) => (figures[b.name][c].recall3 > figures[a.name][c].recall3 ? b : a));
    const fewest = peers.reduce((a, b) => (figures[b.name][c].zeroHits < figures[a.name][c].zeroHits ? b : a));
    const ok = mine.recall3 >= figures[best.name][c].recall3 - 0.02 && mine.zeroHits <= figures[fewest.name][c].zeroHits;
    return [
      c, pct(mine.recall3), `${pct(figures[best.name][c].recall3)} (${best.name})`,
      `${(mine.zeroHits * 100).toFixed(0)}%`, `${(figures[fewest.name][c].zeroHits * 100).toFixed(0)}% (${fewest.name})`, ok ? 'ok' : 'BELOW',
    ];
  });
  const fastest = peers.reduce((a, b) => (keystrokesOf(b.name) < keystrokesOf(a.name) ? b : a));
  const typed = keystrokesOf(name) <= keystrokesOf(fastest.name);
  rows.push(['as you type (keystrokes)', keystrokesOf(name).toFixed(2), `${keystrokesOf(fastest.name).toFixed(2)} (${fastest.name})`, '', '', typed ? 'ok' : 'BELOW']);
  return table([['class', 'R@3', 'best peer R@3', 'zero hits', 'fewest zero hits (peer)', 'verdict'], ...rows]);
}

if (peers.length > 0) {
  for (const name of libraries.map((l) => l.name).filter((n) => n.startsWith('Lantern (') && n !== 'Lantern (defaults)')) {
    console.log(`\n### ${name} against the best peer (R@3 within 0.02, zero hits no higher, keystrokes no more)\n`);
    console.log(verdicts(name));
  }
}

if (args.json) {
  const keystrokes = Object.fromEntries([...typing].map(([name, t]) => [name, t.figures()]));
  writeFileSync(args.json, JSON.stringify({ seed: options.seed, versions: Object.fromEntries(libraries.map((l) => [l.name, l.version])), figures, keystrokes }, null, 2));
}
