// Every measured figure the docs pages quote comes from bench/RESULTS.md:
// a number with a unit of time, speed, size or ratio (ms, s, /s, %, MB, ×...)
// or a ratio such as a recall (0.96) in a page's prose must appear in
// RESULTS.md, each end of a range on its own. Figures that are not
// measurements (defaults, limits, budgets) are listed below with what they
// are, so a figure typed from memory fails here, and so does a listed one
// the page no longer says. Code blocks (commands, sample output) are left out.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/serve.js';

/** The docs pages moved out of the README; DESIGN.md and COMPATIBILITY.md keep their own history, client-methods.md and api/ are generated. */
const NOT_CHECKED = new Set(['DESIGN.md', 'COMPATIBILITY.md', 'client-methods.md']);

/** Figures that are settings or limits, not measurements: page, figure as written, what it is. */
const NOT_MEASURED: Array<[page: string, figure: string, what: string]> = [
  ['persistence.md', '64 MB', 'the records kept inflated per index, a limit'],
  ['persistence.md', '2 s', 'lantern serve\'s maxWriteWaitMs'],
  ['recommend.md', '5 s', 'recommend.freshnessMs, its default'],
  ['scaling-out.md', '±10%', 'what "within noise" means there'],
  ['scaling-out.md', '30 s', 'how long the stream keeps a follower\'s place'],
  ['scaling-out.md', '1 MB', 'NATS\'s default max_payload'],
  ['scaling-out.md', '5 s', 'freshnessMs, its default'],
  ['scaling-out.md', '1%', 'the budget for writing models'],
  ['scaling-out.md', '~40 s', 'the 0.38 s RESULTS.md measured to write 26 MB of models, at that 1% budget'],
  ['typescript-and-bundlers.md', '22 KB', 'the page bundle, held to its measure by test/package/packed.test.ts'],
  ['vectors.md', '2,000 ms', 'queryEmbeddingTimeoutMs, its default'],
];

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const RANGE = String.raw`(?:${NUMBER})(?:\s?[-–]\s?(?:${NUMBER}))?`;
/** A number (or range) with a unit, ×N, or a ratio with two decimals (a recall). */
const FIGURE = new RegExp(
  String.raw`[±~]?(?:${RANGE})\s?(?:ms|µs|s|%|KB|MB|GB|×|x|/s|searches/s|queries/s|records/s|writes/s)(?![\w/])|×(?:${NUMBER})|\b\d\.\d\d(?:\s?[-–]\s?\d\.\d\d)?\b`,
  'g',
);

/** A page's prose: fenced code blocks and inline code left out. */
const proseOf = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** The figures of `prose`, as written. */
export const figuresOf = (prose: string) => [...prose.matchAll(FIGURE)].map((m) => m[0].trim());

/** The numbers of a figure ("2,775-2,853 searches/s": 2,775 and 2,853). */
const numbersOf = (figure: string) => figure.match(new RegExp(NUMBER, 'g')) ?? [];

const results = readFileSync(join(ROOT, 'bench', 'RESULTS.md'), 'utf8');
const escaped = (text: string) => text.replace(/[.,*+?^${}()|[\]\\]/g, '\\$&');
/** RESULTS.md holds `text` on its own (not inside a longer number). */
const resultsHold = (text: string) => new RegExp(String.raw`(?<![\d.,])${escaped(text)}(?![\d]|[.,]\d)`).test(results);

/**
 * RESULTS.md holds the figure's numbers. A plain number under 1,000 ("22 KB",
 * "40 s") is found anywhere in so long a file, so it must be there with its
 * unit; a number with decimals or thousands is telling enough alone (tables
 * put the unit in their heading).
 */
function founded(figure: string): boolean {
  const unit = /(?:ms|µs|s|%|KB|MB|GB|×|x|\/s|searches\/s|queries\/s|records\/s|writes\/s)$/.exec(figure)?.[0];
  return numbersOf(figure).every((n) => (/^\d{1,3}$/.test(n) && unit ? resultsHold(`${n} ${unit}`) || resultsHold(`${n}${unit}`) : resultsHold(n)));
}

const docs = join(ROOT, 'docs');
const pages = readdirSync(docs).filter((f) => f.endsWith('.md') && !NOT_CHECKED.has(f));

describe('figures in the docs pages', () => {
  it('finds the figures it looks for', () => {
    expect(figuresOf(proseOf('took 0.9-1.0 s, 2,775-2,853 searches/s, ×4.75, 26 MB, recall@10 0.96-1.00, 1% and `5 s` in code')))
      .toEqual(['0.9-1.0 s', '2,775-2,853 searches/s', '×4.75', '26 MB', '0.96-1.00', '1%']);
  });

  for (const page of pages) {
    it(`${page}: every measured figure is in bench/RESULTS.md`, () => {
      const listed = NOT_MEASURED.filter(([p]) => p === page).map(([, figure]) => figure);
      const figures = figuresOf(proseOf(readFileSync(join(docs, page), 'utf8')));
      const unfounded = figures
        .filter((figure) => !listed.includes(figure))
        .filter((figure) => !founded(figure));
      expect(unfounded, `figures of docs/${page} not in bench/RESULTS.md`).toEqual([]);
      for (const figure of listed) expect(figures, `docs/${page} no longer says ${figure}: take it out of NOT_MEASURED`).toContain(figure);
    });
  }
});
