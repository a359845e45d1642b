// Relevant sorting, the way virtual replicas sort: among the hits relevant
// enough (relevancyStrictness, 0-100), the replica's customRanking decides
// the order; the others are left out. A standard replica sorts every hit
// (its ranking puts the sort first); a virtual one keeps the primary's
// relevance as a gate.
//
// What "relevant enough" means is Lantern's: the hits within `slack` of the
// best hit on the two coarse relevance criteria, typos and words matched,
// where slack grows by one for every 25 points under 100. At 100 only the
// hits as good as the best on both count; at 0 every hit does (the
// exhaustive sort of a standard replica).
import type { CoreHit } from '../core/core-index.js';

/** The relevance window a relevant sort looks at: the first hits in relevance order. */
export const RELEVANT_SORT_WINDOW = 1000;

/** How much worse than the best hit (in typos, in words matched) a hit may be at `strictness`. */
export function slackOf(strictness: number): number {
  return Math.round((100 - strictness) / 25);
}

/**
 * The hits relevant at `strictness`, in the order of their custom rank (the
 * relevance order breaks ties): `hits` come in relevance order.
 */
export function relevantSorted(hits: readonly CoreHit[], strictness: number): CoreHit[] {
  if (hits.length === 0) return [];
  let relevant = [...hits];
  if (strictness > 0) {
    const slack = slackOf(strictness);
    const fewestTypos = Math.min(...hits.map((h) => h.typos));
    const mostWords = Math.max(...hits.map((h) => h.words));
    relevant = relevant.filter((h) => h.typos <= fewestTypos + slack && h.words >= mostWords - slack);
  }
  return relevant.sort((a, b) => a.customRank - b.customRank); // stable: relevance order among equals
}
