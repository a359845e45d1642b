// Typo-tolerant matching of query words against terms: one row of a bounded
// Damerau-Levenshtein matrix per trie depth (a transposition is one typo, a
// typo on the first letter costs two), pruned as soon as the row's minimum
// exceeds the word's typo budget; where a row's minimum is the budget, only
// children carrying one of a few characters can stay within it, and only
// those get a row. A term whose first letter differs from the word's has
// that budget raised by one (when it allows a typo at all): the
// first-letter typo counts two, and a word long enough for two typos may
// have one more (counted three). The same recurrence matches single tokens
// for highlighting, so highlighted words are exactly the matched ones.
import { IntVec } from './buffers';
import { INNER_MARK, MAX_TOKEN_UNITS } from './text';
import {
  CHILD_CHAR, CHILD_END, CHILD_FIELDS, CHILD_FROM, CHILD_MASK, CHILD_NODE, CHILD_TERM, charBit, childEntries, orderTrie, orderedEnd, orderedNode, orderedTerm, rootChildrenEnd, rootChildrenFrom,
} from './trie-order';
import { recordMatch as emitTerm, recordSubtreeMatch as emitTerms } from './wordsets';
import { postings } from './store';
import { subtreeCacheKey } from './prefix-cache';

export const MAX_WORDS = 32;
const STRIDE = MAX_TOKEN_UNITS + 1;
export const NO_MATCH = 1000;

/** Query words: folded units, and per word its budget and whether it may match a prefix. */
export const queryUnits = new IntVec();
export const wordStart = new IntVec();
export const wordLength = new IntVec();
export const wordMaxTypos = new IntVec();
export const wordPrefix = new IntVec();
export let wordCount: i32 = 0;
export function setWordCount(n: i32): void { wordCount = n; }

const rows = new IntVec();
const pathChar = new IntVec();
let start: i32 = 0;
let length: i32 = 0;
let maxTypos: i32 = 0;
/** The word's own budget; `maxTypos` is it, raised by one under a first letter other than the word's. */
let wordBudget: i32 = 0;
let prefix: bool = false;
/**
 * Raw addresses of the rows, the path's characters and the selected word's
 * units, and of the preorder trie during a walk: the walk runs once per trie
 * node visited, and a read through a vector loads the vector's address first.
 */
let rowsAt: usize = 0;
let pathAt: usize = 0;
let unitsAt: usize = 0;
let termAt: usize = 0;
let endAt: usize = 0;
let childrenAt: usize = 0;
@inline function rowCell(i: i32): i32 { return load<i32>(rowsAt + (<usize>i << 2)); }
@inline function nodeEnd(node: i32): i32 { return load<i32>(endAt + (<usize>node << 2)); }
/** Field `field` of child entry `k` (see childEntries). */
@inline function childField(k: i32, field: i32): i32 { return load<i32>(childrenAt + (<usize>(k * CHILD_FIELDS + field) << 2)); }

function selectWord(w: i32): void {
  start = wordStart.get(w);
  length = wordLength.get(w);
  wordBudget = wordMaxTypos.get(w);
  maxTypos = wordBudget;
  prefix = wordPrefix.get(w) != 0;
  rows.reserve((MAX_TOKEN_UNITS + 1) * STRIDE);
  pathChar.reserve(MAX_TOKEN_UNITS + 1);
  rowsAt = rows.ptr;
  pathAt = pathChar.ptr;
  unitsAt = queryUnits.ptr + (<usize>start << 2);
  rows.set(0, 0);
  for (let j = 1; j <= length; j++) rows.set(j, rows.get(j - 1) + (j == 1 ? 2 : 1));
}

/** The budget under a term starting with `c`: one more when the word allows a typo and starts otherwise. */
@inline function budgetUnder(c: i32): i32 {
  return wordBudget > 0 && c != load<i32>(unitsAt) ? wordBudget + 1 : wordBudget;
}

/**
 * Fills the row at `depth` for term character `c`; returns the row minimum.
 * A cell (depth, j) costs at least |depth - j|, so only the band within
 * `maxTypos` of the diagonal can stay within budget: the row computes that
 * band alone and writes `maxTypos + 1` just past it and in the last column
 * (what the next row and the caller read). Every cell within budget holds
 * its exact distance; every other one more than the budget, as before.
 */
function computeRow(depth: i32, c: i32): i32 {
  store<i32>(pathAt + (<usize>depth << 2), c);
  // the term's previous character, for transpositions (none above depth 2: query units are never -1)
  const before = depth >= 2 ? load<i32>(pathAt + (<usize>(depth - 1) << 2)) : -1;
  const over = maxTypos + 1;
  const units = unitsAt;
  const cur = rowsAt + (<usize>(depth * STRIDE) << 2);
  const prev = cur - (<usize>STRIDE << 2);
  const firstColumn = load<i32>(prev) + 2;
  store<i32>(cur, firstColumn);
  const lo = depth - maxTypos > 1 ? depth - maxTypos : 1;
  const hi = depth + maxTypos < length ? depth + maxTypos : length;
  let rowMin = firstColumn;
  let diagonal = load<i32>(prev + (<usize>(lo - 1) << 2));
  let left = firstColumn;
  if (lo > 1) { left = over; store<i32>(cur + (<usize>(lo - 1) << 2), over); }
  let previousUnit = lo >= 2 ? load<i32>(units + (<usize>(lo - 2) << 2)) : -1;
  for (let j = lo; j <= hi; j++) {
    const qc = load<i32>(units + (<usize>(j - 1) << 2));
    const cost = j == 1 ? 2 : 1;
    const up = load<i32>(prev + (<usize>j << 2));
    let v = diagonal + (qc == c ? 0 : cost);
    if (left + cost < v) v = left + cost;
    if (up + 1 < v) v = up + 1;
    if (c == previousUnit && before == qc) {
      const transposition = load<i32>(prev - (<usize>STRIDE << 2) + (<usize>(j - 2) << 2)) + (j == 2 ? 2 : 1);
      if (transposition < v) v = transposition;
    }
    store<i32>(cur + (<usize>j << 2), v);
    if (v < rowMin) rowMin = v;
    diagonal = up;
    left = v;
    previousUnit = qc;
  }
  if (hi < length) store<i32>(cur + (<usize>(hi + 1) << 2), over);
  if (hi < length || lo > length) store<i32>(cur + (<usize>length << 2), over);
  return rowMin;
}

// --- the trie walk (over its preorder copy): every matched term goes to `recordMatch` (wordsets.ts).
const subtreeTerms = new IntVec();

/** Emits every term under `node` (and the node's own with `withNode`) as a prefix match with `typos`. */
function emitSubtree(node: i32, typos: i32, highlightLength: i32, withNode: bool): void {
  subtreeTerms.length = 0;
  let bytes = 0;
  for (let n = withNode ? node : node + 1, end = nodeEnd(node); n < end; n++) {
    const term = load<i32>(termAt + (<usize>n << 2));
    if (term >= 0) { subtreeTerms.push(term); bytes += postings.bytes(term); }
  }
  emitTerms(subtreeCacheKey(orderedNode.get(node), withNode), subtreeTerms, bytes, typos, highlightLength);
}

/**
 * Walks the children of `node` (child entries [from, end)), whose row is at
 * `depth` and has a typo to spare: every child gets a row. A child whose
 * row has none left is walked on without rows (see walkNoSlack), when the
 * word's columns fit the 64 bits of a column set.
 */
function walkChildren(node: i32, from: i32, end: i32, depth: i32, bestPrefix: i32, bestPrefixLength: i32): void {
  // the whole word is a prefix of the node with no typo: every descendant is a
  // prefix match with none, and none matches whole with none (it is longer
  // than the word), so none can match better. Emitted as one subtree (with a
  // typo budget too), its postings are cached or deferred as one (see
  // recordSubtreeMatch) instead of term by term.
  if (bestPrefix == 0) { emitSubtree(node, 0, bestPrefixLength, false); return; }
  const d = depth + 1;
  for (let k = from; k < end; k++) {
    const c = childField(k, CHILD_CHAR);
    const child = childField(k, CHILD_NODE);
    if (c == <i32>INNER_MARK) { emitInnerWord(childField(k, CHILD_TERM), rowCell(depth * STRIDE + length), depth, bestPrefix, bestPrefixLength); continue; }
    // the budget is set under each first letter, and holds in its subtree
    if (d == 1) maxTypos = budgetUnder(c);
    const rowMin = computeRow(d, c);
    if (rowMin > maxTypos) {
      if (bestPrefix <= maxTypos) emitSubtree(child, bestPrefix, bestPrefixLength, true);
      continue;
    }
    const full = rowCell(d * STRIDE + length);
    emitChildTerm(childField(k, CHILD_TERM), full, bestPrefix, bestPrefixLength);
    let nextBest = bestPrefix;
    let nextBestLength = bestPrefixLength;
    if (prefix && full < nextBest) { nextBest = full; nextBestLength = d; }
    if (d >= MAX_TOKEN_UNITS) {
      if (nextBest <= maxTypos) emitSubtree(child, nextBest, nextBestLength, false);
      continue;
    }
    if (rowMin < maxTypos || length >= COLUMN_SET_BITS) {
      walkChildren(child, childField(k, CHILD_FROM), childField(k, CHILD_END), d, nextBest, nextBestLength);
      continue;
    }
    const columns = columnsWithinBudget(d);
    // no grandchild carries a character that can match, and no prefix match is made
    // yet: the child's children are never read (at 1M records each run is a cache miss)
    if (nextBest > maxTypos && (nextCharsMask(columns) & childField(k, CHILD_MASK)) == 0) continue;
    walkNoSlack(child, childField(k, CHILD_FROM), childField(k, CHILD_END), d, columns, transpositionsFrom(d, c), nextBest, nextBestLength);
  }
}

// --- The walk below a row with no typo to spare. Every edit then takes a
// cell past the budget, so a cell of the next row stays within it only by
// a match on the diagonal from a cell at the budget, or (one row below the
// last row with a typo to spare) by a transposition from a cell two rows up
// under the budget. The rows are then sets of columns whose cells are at
// the budget (every other cell is past it): bit j for column j, stepped by
// the child's character without a row of distances.
const COLUMN_SET_BITS = 64;

/** Column `j`'s unit of the word (1-based, as in a row). */
@inline function unitAt(j: i32): i32 { return load<i32>(unitsAt + (<usize>(j - 1) << 2)); }

/** The columns of the row at `depth` whose cells are within budget (the row has no typo to spare). */
function columnsWithinBudget(depth: i32): u64 {
  const lo = depth - maxTypos > 1 ? depth - maxTypos : 1;
  const hi = depth + maxTypos < length ? depth + maxTypos : length;
  const row = rowsAt + (<usize>(depth * STRIDE) << 2);
  let columns: u64 = load<i32>(row) <= maxTypos ? 1 : 0;
  for (let j = lo; j <= hi; j++) if (load<i32>(row + (<usize>j << 2)) <= maxTypos) columns |= (<u64>1) << <u64>j;
  return columns;
}

/**
 * The columns j of the row below `depth` that a transposition can keep
 * within budget under a child carrying unit j - 1: the row at `depth`
 * carries c, unit j, and the cell two rows up, at column j - 2, is within
 * budget with the transposition's cost (two on the first letter).
 */
function transpositionsFrom(depth: i32, c: i32): u64 {
  const d = depth + 1;
  const lo = d - maxTypos > 2 ? d - maxTypos : 2;
  const hi = d + maxTypos < length ? d + maxTypos : length;
  const twoUp = rowsAt + (<usize>((depth - 1) * STRIDE) << 2);
  let columns: u64 = 0;
  for (let j = lo; j <= hi; j++) {
    if (unitAt(j) != c) continue;
    if (load<i32>(twoUp + (<usize>(j - 2) << 2)) + (j == 2 ? 2 : 1) <= maxTypos) columns |= (<u64>1) << <u64>j;
  }
  return columns;
}

/**
 * The columns within budget under a child carrying `c`: a match on the
 * diagonal from `columns`, or a transposition listed in `transpositions`.
 */
function stepColumns(columns: u64, transpositions: u64, c: i32): u64 {
  let next: u64 = 0;
  for (let from = columns & ~((<u64>1) << <u64>length); from != 0; from &= from - 1) {
    const j = <i32>ctz(from) + 1;
    if (unitAt(j) == c) next |= (<u64>1) << <u64>j;
  }
  for (let from = transpositions; from != 0; from &= from - 1) {
    const j = <i32>ctz(from);
    if (unitAt(j - 1) == c) next |= (<u64>1) << <u64>j;
  }
  return next;
}

/**
 * The characters a child can carry and stay within budget under a row
 * with these columns, as a mask (see charBit): the word's unit after
 * each. INNER_MARK's bit is in: that child is always read. A
 * transposition needs no other character: its cell two rows up is within
 * budget, so the cell below it in this row is too, and lists it.
 */
function nextCharsMask(columns: u64): i32 {
  let mask = charBit(<i32>INNER_MARK);
  for (let from = columns & ~((<u64>1) << <u64>length); from != 0; from &= from - 1) mask |= charBit(unitAt(<i32>ctz(from) + 1));
  return mask;
}

/**
 * Walks the children of `node` (child entries [from, end)), whose row is at
 * `depth` with no typo to spare, as the columns within budget (see
 * stepColumns); `transpositions` are those a transposition can add one row
 * down. A child's row keeps no typo to spare, so the walk goes on alike.
 */
function walkNoSlack(node: i32, from: i32, end: i32, depth: i32, columns: u64, transpositions: u64, bestPrefix: i32, bestPrefixLength: i32): void {
  if (bestPrefix == 0) { emitSubtree(node, 0, bestPrefixLength, false); return; }
  const d = depth + 1;
  const reach = nextCharsMask(columns);
  for (let k = from; k < end; k++) {
    const c = childField(k, CHILD_CHAR);
    if (c == <i32>INNER_MARK) { emitInnerWord(childField(k, CHILD_TERM), fullOf(columns), depth, bestPrefix, bestPrefixLength); continue; }
    const child = childField(k, CHILD_NODE);
    const next = (reach & charBit(c)) != 0 ? stepColumns(columns, transpositions, c) : 0;
    if (next == 0) {
      if (bestPrefix <= maxTypos) emitSubtree(child, bestPrefix, bestPrefixLength, true);
      continue;
    }
    const full = fullOf(next);
    emitChildTerm(childField(k, CHILD_TERM), full, bestPrefix, bestPrefixLength);
    let nextBest = bestPrefix;
    let nextBestLength = bestPrefixLength;
    if (prefix && full < nextBest) { nextBest = full; nextBestLength = d; }
    if (d >= MAX_TOKEN_UNITS) {
      if (nextBest <= maxTypos) emitSubtree(child, nextBest, nextBestLength, false);
      continue;
    }
    if (nextBest > maxTypos && (nextCharsMask(next) & childField(k, CHILD_MASK)) == 0) continue;
    walkNoSlack(child, childField(k, CHILD_FROM), childField(k, CHILD_END), d, next, 0, nextBest, nextBestLength);
  }
}

/** The whole word's typos under a row with these columns: the budget, or NO_MATCH past it. */
@inline function fullOf(columns: u64): i32 {
  return ((columns >> <u64>length) & 1) != 0 ? maxTypos : NO_MATCH;
}

/** Emits the term of a child within budget: whole with `full` typos, or as the best prefix above it. */
@inline function emitChildTerm(term: i32, full: i32, bestPrefix: i32, bestPrefixLength: i32): void {
  if (term < 0) return;
  if (full <= maxTypos && full <= bestPrefix) emitTerm(term, full, true, 0);
  else if (bestPrefix <= maxTypos) emitTerm(term, bestPrefix, false, bestPrefixLength);
}

/**
 * A word found inside a longer word (its term ends with INNER_MARK, the only
 * unit of the child holding `term`): matched as its parent, the word, would
 * be (`whole`: the parent's typos for the whole word), but never whole, so
 * never exact (a word typed whole ranks the records holding it as a word of
 * its own first).
 */
function emitInnerWord(term: i32, whole: i32, depth: i32, bestPrefix: i32, bestPrefixLength: i32): void {
  if (term < 0) return;
  if (whole <= maxTypos && whole <= bestPrefix) emitTerm(term, whole, false, depth);
  else if (bestPrefix <= maxTypos) emitTerm(term, bestPrefix, false, bestPrefixLength);
}

/** Emits every dictionary term that word `w` matches. */
export function matchWord(w: i32): void {
  selectWord(w);
  if (length == 0) return;
  orderTrie();
  termAt = orderedTerm.ptr;
  endAt = orderedEnd.ptr;
  childrenAt = childEntries.ptr;
  walkChildren(0, rootChildrenFrom, rootChildrenEnd, 0, NO_MATCH, 0);
}

/** Result of `matchToken`: typos (NO_MATCH when none), whether the whole token matched, highlight length. */
export let tokenTypos: i32 = NO_MATCH;
export let tokenFull: bool = false;
export let tokenHighlightLength: i32 = 0;

/** Matches the folded units `units[from, from + n)` against word `w` with the walk's rules. */
export function matchToken(w: i32, units: IntVec, from: i32, n: i32): void {
  selectWord(w);
  tokenTypos = NO_MATCH;
  if (length == 0) return;
  let bestPrefix = NO_MATCH;
  let bestPrefixLength = 0;
  const depthLimit = n < MAX_TOKEN_UNITS ? n : MAX_TOKEN_UNITS;
  for (let d = 1; d <= depthLimit; d++) {
    const c = units.get(from + d - 1);
    if (c == <i32>INNER_MARK) {
      // a word found inside a longer word (see emitInnerWord): its last unit
      const whole = rowCell((d - 1) * STRIDE + length);
      if (whole <= maxTypos && whole <= bestPrefix) { bestPrefix = whole; bestPrefixLength = d - 1; }
      break;
    }
    if (d == 1) maxTypos = budgetUnder(c);
    const rowMin = computeRow(d, c);
    if (rowMin > maxTypos) break;
    const full = rowCell(d * STRIDE + length);
    if (d == depthLimit && full <= maxTypos && full <= bestPrefix) {
      tokenTypos = full; tokenFull = true; tokenHighlightLength = 0;
      return;
    }
    if (prefix && full < bestPrefix) { bestPrefix = full; bestPrefixLength = d; }
  }
  if (bestPrefix <= maxTypos) {
    tokenTypos = bestPrefix; tokenFull = false; tokenHighlightLength = bestPrefixLength;
  }
}
