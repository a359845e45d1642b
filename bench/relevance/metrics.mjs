// Relevance figures of one library over a set of queries: recall at 1, 3
// and 10 (the looked-for record, or one with the same title, among the
// first k hits), mean reciprocal rank over the first 10, the share of
// queries with no hit at all; and for titles typed keystroke by keystroke,
// the keystrokes until the record is among the first 3.

/**
 * @typedef {import('./queries.mjs').RelevanceQuery} RelevanceQuery
 * @typedef {import('./libraries.mjs').Searcher} Searcher
 * @typedef {{ queries: number, recall1: number, recall3: number, recall10: number, mrr: number, zeroHits: number }} Figures
 * @typedef {{ titles: number, keystrokes: number, reached: number }} TypingFigures
 */

/** The rank (1-based) of the first relevant hit, 0 when none is in `ids`. @type {(ids: string[], relevant: Set<string>) => number} */
const rankOf = (ids, relevant) => ids.findIndex((id) => relevant.has(id)) + 1;

/** Running sums of the figures, added to query by query and over corpora. */
export class Tally {
  queries = 0;
  at1 = 0;
  at3 = 0;
  at10 = 0;
  reciprocal = 0;
  zero = 0;

  /** @param {string[]} ids @param {number} count @param {Set<string>} relevant */
  add(ids, count, relevant) {
    const rank = rankOf(ids, relevant);
    this.queries++;
    if (rank === 1) this.at1++;
    if (rank >= 1 && rank <= 3) this.at3++;
    if (rank >= 1) { this.at10++; this.reciprocal += 1 / rank; }
    if (count === 0) this.zero++;
  }

  /** @returns {Figures} */
  figures() {
    const n = this.queries || 1;
    return {
      queries: this.queries, recall1: this.at1 / n, recall3: this.at3 / n, recall10: this.at10 / n,
      mrr: this.reciprocal / n, zeroHits: this.zero / n,
    };
  }
}

/** Runs `queries` on `searcher` into `tally`. @type {(searcher: Searcher, queries: RelevanceQuery[], tally: Tally) => Promise<void>} */
export async function measure(searcher, queries, tally) {
  for (const q of queries) {
    const { ids, count } = await searcher.search(q.query);
    tally.add(ids, count, q.relevant);
  }
}

/** Keystrokes until a title's record is in the top 3 (a title never reached counts its length plus one). */
export class TypingTally {
  titles = 0;
  keystrokes = 0;
  reached = 0;

  /** @returns {TypingFigures} */
  figures() {
    return { titles: this.titles, keystrokes: this.keystrokes / (this.titles || 1), reached: this.reached / (this.titles || 1) };
  }
}

/** Types each title one character at a time on `searcher` into `tally`. @type {(searcher: Searcher, titles: RelevanceQuery[], tally: TypingTally) => Promise<void>} */
export async function measureTyping(searcher, titles, tally) {
  for (const t of titles) {
    let typed = t.query.length + 1;
    for (let k = 1; k <= t.query.length; k++) {
      if (t.query[k - 1] === ' ') continue; // a space alone is not a new query to look at
      const { ids } = await searcher.search(t.query.slice(0, k));
      const rank = rankOf(ids, t.relevant);
      if (rank >= 1 && rank <= 3) { typed = k; break; }
    }
    tally.titles++;
    tally.keystrokes += typed;
    if (typed <= t.query.length) tally.reached++;
  }
}
