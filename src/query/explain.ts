// explain: ['match.alternatives'] (or ['*']): how the query's words were
// read and matched, as the service answers it (docs/COMPATIBILITY.md,
// "explain"). Each query word as typed, folded, with its role; then the
// alternatives the plan gave it (plurals, decompositions, synonyms); the
// splits, concatenations and typos that records on the page matched (the
// core keeps a split only when its words are terms of the index, and
// reports no term it matched with a typo: the page's own tokens tell).
import { nextTextAt, TEXT_HEADER, TEXT_INDEXED, TOKEN_STRIDE, type CoreIndex } from '../core/core-index.js';
import { fold } from '../text/fold.js';
import { editDistance } from '../text/edit-distance.js';
import { MAX_SPLIT_HEAD } from '../core/abi.js';
import type { QueryPlan } from './query-plan.js';

export interface MatchAlternative {
  /** One of original, excluded, optional, stopWord, typo, split, concat, synonym, alternativeCorrection, plural, compound. */
  types: string[];
  /** The words that match, folded. */
  words: string[];
  typos: number;
  /** The first query word it stands for, and how many (counted in query words). */
  offset: number;
  length: number;
}

export interface Explain { match: { alternatives: MatchAlternative[] } }

/** Typos a matched token may count (the most any word is allowed). */
const MAX_TYPOS = 2;

/** Whether the `explain` parameter asks for match.alternatives. */
export function explainsMatch(explain: string[] | undefined): boolean {
  return explain !== undefined && (explain.includes('*') || explain.includes('match.alternatives'));
}

/** `explain.match.alternatives` of the last search of `core` (planned as `plan`), whose page of records holds `pageTexts`. */
export function explainMatch(plan: QueryPlan, core: CoreIndex, pageTexts: string[]): Explain {
  const query = plan.core.query;
  const words = plan.words.map(([s, e]) => fold(query.slice(s, e)));
  const alternatives: MatchAlternative[] = words.map((word, w) => ({ types: [roleOf(plan, w)], words: [word], typos: 0, offset: w, length: 1 }));
  const matched = matchedTokens(core, pageTexts);
  const planned = new Set(words);
  for (const { type, alternatives: given } of plan.alternativeSources) {
    for (const a of given) {
      planned.add(a.text);
      // a run broken into its words (wordBreaks) is what the service calls a split
      const shown = a.typos ? 'alternativeCorrection' : type === 'wordBreaks' ? 'split' : type;
      alternatives.push({ types: [shown], words: a.text.split(' '), typos: a.typos ?? 0, offset: a.word, length: 1 });
    }
  }
  alternatives.push(...splitsMatched(plan, words, matched, planned));
  for (const [token, mask] of matched) {
    const w = Math.log2(mask);
    if (!Number.isInteger(w) || w >= words.length || planned.has(token)) continue;
    const typos = typosOf(token, words[w], isPrefix(plan, w));
    if (typos > 0 && typos <= MAX_TYPOS) alternatives.push({ types: ['typo'], words: [token], typos, offset: w, length: 1 });
  }
  return { match: { alternatives } };
}

/**
 * The splits and concatenations of the query's words (the core makes them
 * where the plan allows, see assembly/split-words.ts) whose words the
 * page's records hold: a split once for its word, a concatenation once for
 * its first word. Each concatenation is `planned` (not listed as a typo).
 */
function splitsMatched(plan: QueryPlan, words: string[], matched: Map<string, number>, planned: Set<string>): MatchAlternative[] {
  const out: MatchAlternative[] = [];
  const { splitWords = 0, concatWords = 0 } = plan.core;
  words.forEach((word, w) => {
    if ((splitWords & (1 << w)) !== 0) {
      for (let i = 1; i < word.length && i <= MAX_SPLIT_HEAD; i++) {
        const parts = [word.slice(0, i), word.slice(i)];
        if (parts.every((part) => matched.has(part))) out.push({ types: ['split'], words: parts, typos: 0, offset: w, length: 1 });
      }
    }
    if ((concatWords & (1 << w)) === 0 || w + 1 >= words.length) return;
    const joined = word + words[w + 1];
    planned.add(joined);
    if (matched.has(joined)) out.push({ types: ['concat'], words: [joined], typos: 0, offset: w, length: 2 });
  });
  return out;
}

/** How the plan reads query word `w`. */
function roleOf(plan: QueryPlan, w: number): string {
  const bit = 1 << w;
  if ((plan.core.excludedWords ?? 0) & bit) return 'excluded';
  if (plan.stopWords & bit) return 'stopWord';
  if ((plan.core.optionalWords ?? 0) & bit) return 'optional';
  return 'original';
}

/** Whether query word `w` matches as a prefix. */
function isPrefix(plan: QueryPlan, w: number): boolean {
  if ((plan.core.noPrefixWords ?? 0) & (1 << w)) return false;
  const type = plan.core.queryType;
  return type === 'prefixAll' || (type !== 'prefixNone' && w === plan.words.length - 1);
}

/** Typos between a matched token and its query word: read as a prefix, against the token's start of about the word's length. */
function typosOf(token: string, word: string, prefix: boolean): number {
  if (!prefix) return editDistance(token, word, MAX_TYPOS);
  let best = MAX_TYPOS + 1;
  for (let n = Math.max(1, word.length - MAX_TYPOS); n <= Math.min(token.length, word.length + MAX_TYPOS); n++) {
    best = Math.min(best, editDistance(token.slice(0, n), word, MAX_TYPOS));
  }
  return best;
}

/** The folded tokens of `texts` that the last search's query words match, with the mask of the words each matches. */
function matchedTokens(core: CoreIndex, texts: string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (texts.length === 0) return out;
  const tokens = core.highlightTexts(texts, texts.map(() => TEXT_INDEXED));
  for (let at = 0, t = 0; t < texts.length; at = nextTextAt(tokens, at), t++) {
    for (let i = at + TEXT_HEADER; i < nextTextAt(tokens, at); i += TOKEN_STRIDE) {
      if (tokens[i + 2] === 0) continue;
      const token = fold(texts[t].slice(tokens[i], tokens[i + 1]));
      out.set(token, (out.get(token) ?? 0) | tokens[i + 2]);
    }
  }
  return out;
}
