// _highlightResult and _snippetResult: the core says which tokens of a text
// match which query words (same rules as the search); this module marks them.
import { nextTextAt, TEXT_HEADER, TEXT_INDEXED, TEXT_SNIPPET_SHIFT, TOKEN_STRIDE, type CoreIndex } from '../core/core-index.js';
import { isPlainObject, type Json } from '../index/records.js';
import { fold } from '../text/fold.js';
import { isInsideRun } from '../text/word-breaks.js';
import { setOwn } from '../util/own-keys.js';

export interface HighlightOptions {
  preTag: string;
  postTag: string;
  /** The query words as typed, by word index. */
  words: string[];
  /** replaceSynonymsInHighlight: per query word, the folded words its synonyms bring, shown as the word itself. */
  synonyms?: Array<Set<string>>;
  /** Query words never marked nor counted in matchLevel (removeStopWords's stop words, as the service removes them). */
  unmarked?: number;
}

export interface HighlightLeaf {
  value: string;
  matchLevel: 'none' | 'partial' | 'full';
  matchedWords: string[];
  fullyHighlighted?: boolean;
}

export interface SnippetLeaf { value: string; matchLevel: 'none' | 'partial' | 'full' }

type Tree<T> = T | Tree<T>[] | { [k: string]: Tree<T> };

/**
 * A leaf with its value and match level (the caller adds the rest), made
 * by assignment, not from an object literal. V8 samples the objects of each
 * literal and, when those it sampled outlived a young-generation
 * collection, allocates the literal's later objects in the old generation
 * (allocation-site pretenuring). At 1M records, after a few hundred default
 * answers, the objects a page made from literals (these leaves, the hits'
 * drafts, the values to mark) were allocated there: dead once answered,
 * each kept the young objects it points to (hits, records, strings) alive
 * through every young collection until the next full one, which then
 * copied 3.2-4.8 MB instead of ~1 MB and paused 7-10 ms instead of 2.6-3.5
 * (bench/RESULTS.md, stop 36). Objects made by Object.create or by a
 * class's constructor have no allocation site.
 */
function newLeaf<T extends SnippetLeaf>(value: string, level: T['matchLevel']): T {
  const leaf = Object.create(Object.prototype) as T;
  leaf.value = value;
  leaf.matchLevel = level;
  return leaf;
}

function matchLevel(mask: number, o: HighlightOptions): HighlightLeaf['matchLevel'] {
  if (mask === 0) return 'none';
  const words = o.words.length;
  const full = (words >= 31 ? -1 : (1 << words) - 1) & ~(o.unmarked ?? 0);
  return (mask & full) === full ? 'full' : 'partial';
}

/**
 * Marks the matched parts of `text[from, to)` given its tokens as the core
 * lists them (see CoreIndex.highlightTexts): `count` tokens in all, `listed`
 * of them from `at` in `tokens`. The unlisted ones match no query word.
 */
function mark(text: string, tokens: Int32Array, at: number, listed: number, count: number, from: number, to: number, o: HighlightOptions): { value: string; mask: number; allMarked: boolean } {
  let value = '';
  let shownUpTo = from;
  let mask = 0;
  let allMarked = count > 0 && listed === count;
  let replaced = '';
  let plainMarkEnd = -1; // where the last mark of the text as it is (no synonym shown) ends
  const end = at + listed * TOKEN_STRIDE;
  for (let i = at; i < end; i += TOKEN_STRIDE) {
    // read one by one, not destructured from an array: code not yet optimised made and iterated the array
    const start = tokens[i], tokenEnd = tokens[i + 1], until = tokens[i + 3];
    const words = tokens[i + 2] & ~(o.unmarked ?? 0);
    if (start < from || tokenEnd > to) continue;
    if (words === 0) { allMarked = false; replaced = ''; continue; }
    mask |= words;
    // a word of a run after the run whole (both indexed: see src/text/word-breaks.ts): its mark may reach further
    if (start < shownUpTo) {
      if (until > shownUpTo && plainMarkEnd === shownUpTo) value = value.slice(0, -o.postTag.length) + text.slice(shownUpTo, until) + o.postTag;
      shownUpTo = plainMarkEnd = Math.max(shownUpTo, until);
      continue;
    }
    if (until < tokenEnd) allMarked = false;
    const shown = o.synonyms ? synonymShownAs(text.slice(start, tokenEnd), words, o) : undefined;
    if (shown !== undefined) {
      // the rest of a phrase synonym ("new york" for "ny") is already shown
      if (shown === replaced && text.slice(shownUpTo, start).trim() === '') { shownUpTo = tokenEnd; continue; }
      value += text.slice(shownUpTo, start) + o.preTag + shown + o.postTag;
      shownUpTo = tokenEnd;
      replaced = shown;
      continue;
    }
    replaced = '';
    // words of one unspaced run marked one after the other are marked as one, as they read
    if (start === plainMarkEnd && isInsideRun(text, start)) value = value.slice(0, -o.postTag.length) + text.slice(start, until) + o.postTag;
    else value += text.slice(shownUpTo, start) + o.preTag + text.slice(start, until) + o.postTag;
    shownUpTo = until;
    plainMarkEnd = until;
  }
  value += text.slice(shownUpTo, to);
  return { value, mask, allMarked };
}

/**
 * The query word a token is shown as when a synonym matched it. Only a
 * one-word query word replaces (a phrase in the record included): a phrase of
 * the query never replaces a shorter synonym, as the service does.
 */
function synonymShownAs(token: string, words: number, o: HighlightOptions): string | undefined {
  const folded = fold(token);
  const standsFor = o.words.filter((w, i) => (words & (1 << i)) !== 0 && o.synonyms![i]?.has(folded) && fold(w) !== folded);
  return standsFor.length === 1 ? standsFor[0] : undefined;
}

function matchedWords(mask: number, o: HighlightOptions): string[] {
  return o.words.filter((_, i) => (mask & (1 << i)) !== 0);
}

/**
 * `indexed`: `text` is a value of a searchable attribute (see TEXT_INDEXED).
 * The core lists every token of the text here, where markValues has it list
 * the matched ones only: the same leaf either way.
 */
export function highlightText(core: CoreIndex, text: string, o: HighlightOptions, indexed = false): HighlightLeaf {
  const tokens = core.highlight(text, indexed);
  const count = tokens.length / TOKEN_STRIDE;
  return highlightLeaf(text, tokens, 0, count, count, o);
}

/**
 * The values of a page to mark through the core, in the order they were
 * listed: each one's text and its TEXT_* flags (a snippet's size in words
 * from TEXT_SNIPPET_SHIFT up; 0: highlighted). Parallel arrays, not an
 * object per value: see newLeaf for what objects made per value from a
 * literal cost.
 */
export class ValuesToMark {
  readonly texts: string[] = [];
  readonly flags: number[] = [];

  /** A value to highlight, or with `snippetWords` to cut to a snippet of that many words. `indexed`: see highlightText. */
  add(text: string, indexed: boolean, snippetWords = 0): void {
    this.texts.push(text);
    this.flags.push((indexed ? TEXT_INDEXED : 0) | (snippetWords << TEXT_SNIPPET_SHIFT));
  }

  /**
   * Every text leaf of `value` (strings, and numbers as text), in the order
   * mapLeaves hands them to its `leaf` function, each as `add` takes it.
   */
  addLeaves(value: Json, indexed: boolean, snippetWords = 0): void {
    if (typeof value === 'string') this.add(value, indexed, snippetWords);
    else if (typeof value === 'number') this.add(String(value), indexed, snippetWords);
    else if (Array.isArray(value)) for (const v of value) this.addLeaves(v, indexed, snippetWords);
    else if (isPlainObject(value)) for (const key of Object.keys(value)) this.addLeaves(value[key] as Json, indexed, snippetWords);
  }

  get length(): number { return this.texts.length; }
}

/**
 * The highlights and snippets of a page's values, in order, from one call
 * into the core: for a highlight it lists the matched tokens only, for a
 * snippet the tokens of the window it shows.
 */
export function markValues(core: CoreIndex, values: ValuesToMark, o: HighlightOptions, ellipsis: string): Array<HighlightLeaf | SnippetLeaf> {
  if (values.length === 0) return [];
  const tokens = core.highlightTexts(values.texts, values.flags);
  const leaves: Array<HighlightLeaf | SnippetLeaf> = [];
  for (let at = 0, v = 0; v < values.length; at = nextTextAt(tokens, at), v++) {
    const text = values.texts[v], snippet = values.flags[v] >>> TEXT_SNIPPET_SHIFT !== 0;
    const count = tokens[at], listed = tokens[at + 1], first = tokens[at + 2];
    const from = at + TEXT_HEADER;
    leaves.push(snippet ? snippetLeaf(text, tokens, from, listed, count, first, ellipsis, o) : highlightLeaf(text, tokens, from, listed, count, o));
  }
  return leaves;
}

/** A text's highlight from its tokens as the core lists them (see mark). */
function highlightLeaf(text: string, tokens: Int32Array, at: number, listed: number, count: number, o: HighlightOptions): HighlightLeaf {
  const { value, mask, allMarked } = mark(text, tokens, at, listed, count, 0, text.length, o);
  const leaf = newLeaf<HighlightLeaf>(value, matchLevel(mask, o));
  leaf.matchedWords = matchedWords(mask, o);
  if (mask !== 0) leaf.fullyHighlighted = allMarked;
  return leaf;
}

/** The highlight of a text that matches no query word (what highlightText gives it, without the core). */
export function unmatchedLeaf(text: string): HighlightLeaf {
  const leaf = newLeaf<HighlightLeaf>(text, 'none');
  leaf.matchedWords = [];
  return leaf;
}

/**
 * A snippet: the window of a text's `count` tokens the core chose (a
 * quarter of its size before the first matched word, or from the start:
 * see assembly/highlight.ts snippetWindow), `listed` of them from `at` in
 * `tokens`, the first the `first`-th of the text; the ellipsis where text
 * was cut.
 */
export function snippetLeaf(text: string, tokens: Int32Array, at: number, listed: number, count: number, first: number, ellipsis: string, o: HighlightOptions): SnippetLeaf {
  const from = first === 0 ? 0 : tokens[at];
  const to = first + listed >= count ? text.length : tokens[at + (listed - 1) * TOKEN_STRIDE + 1];
  const { value, mask } = mark(text, tokens, at, listed, count, from, to, o);
  const prefix = from > 0 ? ellipsis : '';
  const suffix = to < text.length ? ellipsis : '';
  return newLeaf<SnippetLeaf>(prefix + value + suffix, matchLevel(mask, o));
}

/**
 * Applies `leaf` to every string (and number) of a value, keeping the value's
 * shape; `keepInArrays` drops array elements it rejects
 * (restrictHighlightAndSnippetArrays).
 */
export function mapLeaves<T>(value: Json, leaf: (text: string) => T, keepInArrays?: (mapped: T) => boolean): Tree<T> | undefined {
  if (typeof value === 'string') return leaf(value);
  if (typeof value === 'number') return leaf(String(value));
  if (Array.isArray(value)) {
    // a loop, not map then filter: a page maps every array of every highlighted attribute (TED's tags)
    const out: Tree<T>[] = [];
    for (const v of value) {
      const mapped = mapLeaves(v, leaf, keepInArrays);
      if (mapped !== undefined && (!keepInArrays || Array.isArray(mapped) || !isLeaf(mapped) || keepInArrays(mapped as T))) out.push(mapped);
    }
    return out;
  }
  if (isPlainObject(value)) {
    const out: Record<string, Tree<T>> = {};
    for (const key of Object.keys(value)) {
      const mapped = mapLeaves(value[key] as Json, leaf, keepInArrays);
      if (mapped !== undefined) setOwn(out, key, mapped);
    }
    return out;
  }
  return undefined;
}

const isLeaf = (v: unknown) => isPlainObject(v) && typeof (v as { value?: unknown }).value === 'string' && 'matchLevel' in (v as object);
