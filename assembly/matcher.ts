// Typo-tolerant matching of query words against terms: one row of a
// Damerau-Levenshtein matrix per trie depth (a transposition is one typo, a
// typo on the first letter costs two), pruned as soon as the row's minimum
// exceeds the word's typo budget. A row is held as sets of columns, one per
// typo count up to the budget (bit-parallel, as in Wu and Manber's agrep):
// a child's row is a few shifts, ands and ors of its parent's, whatever
// the word's length. Where a row's minimum is the budget, only children
// carrying one of a few characters can stay within it, and only those get
// a row. A term whose first letter differs from the word's has that budget
// raised by one (when it allows a typo at all): the first-letter typo
// counts two, and a word long enough for two typos may have one more
// (counted three). The same recurrence matches single tokens for
// highlighting, so highlighted words are exactly the matched ones, and
// the candidates of a whole word under other first letters, which are
// looked up rather than walked once the terms are listed
// (first-letter-typos.ts).
import { IntVec } from './buffers';
import { INNER_MARK, MAX_TOKEN_UNITS } from './text';
import {
  CHILD_CHAR, CHILD_FIELDS, CHILD_FROM, CHILD_MASK, CHILD_TERM, charBit, childEntries, childNode, orderTrieForSearch, orderedNode, rootChildrenEnd, rootChildrenFrom, subtreeTermsInto,
} from './trie-order';
import { MAX_TYPOS, recordMatch as emitTerm, recordSubtreeMatch as emitTerms } from './wordsets';
import { subtreeCacheKey } from './prefix-cache';
import { SEARCH_STEP, candidatesOf, termsListed } from './first-letter-typos';
import { termUnitLength, termUnitStart, termUnits } from './dictionary';

export const MAX_WORDS = 32;
export const NO_MATCH = 1000;

/** Query words: folded units, and per word its budget and whether it may match a prefix. */
export const queryUnits = new IntVec();
export const wordStart = new IntVec();
export const wordLength = new IntVec();
export const wordMaxTypos = new IntVec();
export const wordPrefix = new IntVec();
export let wordCount: i32 = 0;
export function setWordCount(n: i32): void { wordCount = n; }

let start: i32 = 0;
let length: i32 = 0;
let maxTypos: i32 = 0;
/** The word's own budget; `maxTypos` is it, raised by one under a first letter other than the word's. */
let wordBudget: i32 = 0;
let prefix: bool = false;
/**
 * Raw addresses of the selected word's units and of the trie's child entries
 * during a walk: the walk runs once per trie node visited, and a read
 * through a vector loads the vector's address first.
 */
let unitsAt: usize = 0;
let childrenAt: usize = 0;
/** Field `field` of child entry `k` (see childEntries). */
@inline function childField(k: i32, field: i32): i32 { return load<i32>(childrenAt + (<usize>(k * CHILD_FIELDS + field) << 2)); }

function selectWord(w: i32): void {
  start = wordStart.get(w);
  length = wordLength.get(w);
  wordBudget = wordMaxTypos.get(w);
  maxTypos = wordBudget;
  prefix = wordPrefix.get(w) != 0;
  unitsAt = queryUnits.ptr + (<usize>start << 2);
  columnsMask = length >= 64 ? <u64>-1 : ((<u64>1) << <u64>length) - 1;
  listUnits();
  // row 0: column j (the word's first j units against no term) costs j + 1 (the first two)
  for (let v = 0; v <= MAX_TYPOS; v++) store<u64>(levelAt(0, v), v >= 2 ? (((<u64>1) << <u64>(v - 1)) - 1) & columnsMask : 0);
  unchecked(fullRow[0] = length + 1);
}

/** The budget under a term starting with `c`: one more when the word allows a typo and starts otherwise. */
@inline function budgetUnder(c: i32): i32 {
  return wordBudget > 0 && c != load<i32>(unitsAt) ? wordBudget + 1 : wordBudget;
}

// --- Rows as sets of columns. Cell (depth, j) is the distance between the
// term's first `depth` units and the word's first j. Level v of a row is
// the set of its columns j >= 1 whose cell is at most v, bit j - 1 for
// column j; column 0, 2 * depth (every unit of the term before the word's
// first counts two), is implied. Levels go up to the budget only: a cell
// past it is in none.
const LEVELS = MAX_TYPOS + 1;
const levelRows = new StaticArray<u64>(LEVELS * (MAX_TOKEN_UNITS + 1));
/** The columns of the word (bit j - 1 for column j, 1 <= j <= length). */
let columnsMask: u64 = 0;
@inline function levelAt(depth: i32, v: i32): usize { return changetype<usize>(levelRows) + (<usize>(depth * LEVELS + v) << 3); }
@inline function level(depth: i32, v: i32): u64 { return load<u64>(levelAt(depth, v)); }
/** Per depth, the whole word's typos (see fullAt). */
const fullRow = new StaticArray<i32>(MAX_TOKEN_UNITS + 1);
/** Per depth, the columns of the word carrying the term's unit at that depth (for transpositions). */
const pathColumns = new StaticArray<u64>(MAX_TOKEN_UNITS + 1);
/** Column 0 of the row at `depth` is within `v` (as the bit it would carry into column 1). */
@inline function firstColumnWithin(depth: i32, v: i32): u64 { return 2 * depth <= v ? 1 : 0; }

/**
 * Where the word has each unit: the set of its columns, from a table
 * indexed by the unit for the first 128 (folded Latin letters and digits)
 * and a small open-addressed one for the others, filled once per word
 * (listUnits).
 */
const DIRECT_UNITS: u32 = 128;
const directColumns = new StaticArray<u64>(DIRECT_UNITS);
const UNIT_SLOTS = 2 * MAX_TOKEN_UNITS;
const unitKeys = new StaticArray<i32>(UNIT_SLOTS);
const unitColumns = new StaticArray<u64>(UNIT_SLOTS);
@inline function slotOf(c: i32): i32 { return <i32>((<u32>c * 0x9E3779B1) >> 25) & (UNIT_SLOTS - 1); }

/** The slot of unit `c`, or of the empty slot where it would go. */
function findSlot(c: i32): i32 {
  let s = slotOf(c);
  while (true) {
    const key = unchecked(unitKeys[s]);
    if (key == c || key == -1) return s;
    s = (s + 1) & (UNIT_SLOTS - 1);
  }
  return s;
}

function listUnits(): void {
  for (let s = 0; s < UNIT_SLOTS; s++) unchecked(unitKeys[s] = -1);
  for (let c: u32 = 0; c < DIRECT_UNITS; c++) unchecked(directColumns[c] = 0);
  for (let j = 1; j <= length; j++) {
    const c = unitAt(j);
    const column = (<u64>1) << <u64>(j - 1);
    if (<u32>c < DIRECT_UNITS) { unchecked(directColumns[c] |= column); continue; }
    const s = findSlot(c);
    if (unchecked(unitKeys[s]) == -1) { unchecked(unitKeys[s] = c); unchecked(unitColumns[s] = 0); }
    unchecked(unitColumns[s] |= column);
  }
}

/** The columns of the word carrying unit `c` (query units are never -1); the first 128 units from a table of their own. */
@inline function columnsOf(c: i32): u64 {
  if (<u32>c < DIRECT_UNITS) return unchecked(directColumns[c]);
  const s = findSlot(c);
  return unchecked(unitKeys[s]) == c ? unchecked(unitColumns[s]) : 0;
}

/** Column `j`'s unit of the word (1-based, as in a row). */
@inline function unitAt(j: i32): i32 { return load<i32>(unitsAt + (<usize>(j - 1) << 2)); }

/**
 * Fills the row at `depth` for term character `c`, whose parent's row has
 * no cell under `low` (nor will this one); returns the row minimum, or
 * NO_MATCH past the budget. Level v takes, by column: a match on the
 * diagonal from level v, a substitution from level v - 1 (v - 2 into
 * column 1: the first letter costs two), an insertion (the row above's
 * level v - 1), a deletion (this row's level v - 1, one column left; into
 * column 1 it costs more than the substitution from column 0), and a
 * transposition from two rows up. Inlined: a first-sight query steps
 * ~1,400 rows, and the call per row was a few per cent of the core.
 */
@inline function stepRow(depth: i32, c: i32, low: i32): i32 {
  const matches = columnsOf(c);
  unchecked(pathColumns[depth] = matches);
  // columns j where the term's last two units are the word's units j and j - 1 swapped
  const swapped = depth >= 2 ? (matches << 1) & unchecked(pathColumns[depth - 1]) : 0;
  // column 0 is never the row's minimum alone: column 1 is within its cell of the row above plus two
  let rowMin = NO_MATCH;
  let below: u64 = 0; // this row's level v - 1
  let full = NO_MATCH;
  const last = <u64>(length - 1);
  for (let v = 0; v < low; v++) store<u64>(levelAt(depth, v), 0);
  for (let v = low; v <= maxTypos; v++) {
    const up = v > 0 ? level(depth - 1, v - 1) : 0;
    let cells = ((level(depth - 1, v) << 1) | firstColumnWithin(depth - 1, v)) & matches;
    cells |= (up << 1) | firstColumnWithin(depth - 1, v - 2);
    cells |= up;
    cells |= below << 1;
    if (swapped != 0 && v > 0) cells |= ((level(depth - 2, v - 1) << 2) | (firstColumnWithin(depth - 2, v - 2) << 1)) & swapped;
    cells &= columnsMask;
    store<u64>(levelAt(depth, v), cells);
    if (cells != 0 && v < rowMin) rowMin = v;
    if (full == NO_MATCH && ((cells >> last) & 1) != 0) full = v;
    below = cells;
  }
  unchecked(fullRow[depth] = full);
  return rowMin;
}

/** The whole word's typos against the term at `depth`, or NO_MATCH past the budget. */
@inline function fullAt(depth: i32): i32 { return unchecked(fullRow[depth]); }

/**
 * The characters a child of the node whose row is at `depth` can carry
 * and stay within budget, when that row has no typo to spare, as a mask
 * (see charBit). Every edit then takes a cell past the budget, so a cell
 * of the next row stays within it only by a match on the diagonal from a
 * cell at the budget: the child carries the word's unit past that cell. A
 * transposition adds no character: it needs its cell two rows up under
 * the budget, so the cell below that one, in this row, is within budget
 * and lists the character the transposition needs. INNER_MARK's bit is
 * in: that child is always read. A child carrying no listed character
 * gets no row, so most children of such nodes are passed over.
 */
function nextCharsMask(depth: i32): i32 {
  let mask = charBit(<i32>INNER_MARK);
  for (let from = ((level(depth, maxTypos) << 1) | firstColumnWithin(depth, maxTypos)) & columnsMask; from != 0; from &= from - 1) {
    mask |= charBit(unitAt(<i32>ctz(from) + 1));
  }
  return mask;
}

// --- the trie walk (over its preorder copy): every matched term goes to `recordMatch` (wordsets.ts).
const subtreeTerms = new IntVec();

/** Emits every term under `node` (and the node's own with `withNode`) as a prefix match with `typos`. */
function emitSubtree(node: i32, typos: i32, highlightLength: i32, withNode: bool): void {
  subtreeTermsInto(node, withNode, subtreeTerms);
  emitTerms(subtreeCacheKey(orderedNode.get(node), withNode), subtreeTerms, typos, highlightLength);
}

/**
 * Walks the children of child entry `entry` (-1: the root; their entries
 * [from, end)), whose row is at `depth` with minimum `rowMin`. With no typo
 * to spare in that row, `reach` holds the characters a child can carry and
 * match (see nextCharsMask); with some, it is -1 (any child may match).
 */
function walkChildren(entry: i32, from: i32, end: i32, depth: i32, rowMin: i32, reach: i32, bestPrefix: i32, bestPrefixLength: i32): void {
  // the whole word is a prefix of the node with no typo: every descendant is a
  // prefix match with none, and none matches whole with none (it is longer
  // than the word), so none can match better. Emitted as one subtree (with a
  // typo budget too), its postings are cached or deferred as one (see
  // recordSubtreeMatch) instead of term by term.
  if (bestPrefix == 0) { emitSubtree(childNode.get(entry), 0, bestPrefixLength, false); return; }
  const d = depth + 1;
  for (let k = from; k < end; k++) {
    const c = childField(k, CHILD_CHAR);
    if (c == <i32>INNER_MARK) { emitInnerWord(childField(k, CHILD_TERM), fullAt(depth), depth, bestPrefix, bestPrefixLength); continue; }
    // the budget is set under each first letter, and holds in its subtree
    if (d == 1) maxTypos = budgetUnder(c);
    const childMin = (reach & charBit(c)) != 0 ? stepRow(d, c, rowMin) : NO_MATCH;
    if (childMin > maxTypos) {
      if (bestPrefix <= maxTypos) emitSubtree(childNode.get(k), bestPrefix, bestPrefixLength, true);
      continue;
    }
    const full = fullAt(d);
    const term = childField(k, CHILD_TERM);
    if (term >= 0) {
      if (full <= maxTypos && full <= bestPrefix) emitTerm(term, full, true, 0);
      else if (bestPrefix <= maxTypos) emitTerm(term, bestPrefix, false, bestPrefixLength);
    }
    let nextBest = bestPrefix;
    let nextBestLength = bestPrefixLength;
    if (prefix && full < nextBest) { nextBest = full; nextBestLength = d; }
    if (d >= MAX_TOKEN_UNITS) {
      if (nextBest <= maxTypos) emitSubtree(childNode.get(k), nextBest, nextBestLength, false);
      continue;
    }
    const nextReach = childMin == maxTypos ? nextCharsMask(d) : -1;
    // none of the child's children carries a listed character, and no prefix match is made
    // yet: they are never read (most children of a typo'd word's walk with no slack: at 1M
    // records each child's run is a cache miss)
    if (nextBest > maxTypos && (nextReach & childField(k, CHILD_MASK)) == 0) continue;
    // the child's run ends where the next entry's begins (see childEntries)
    walkChildren(k, childField(k, CHILD_FROM), childField(k + 1, CHILD_FROM), d, childMin, nextReach, nextBest, nextBestLength);
  }
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
  orderTrieForSearch();
  childrenAt = childEntries.ptr;
  const reach = maxTypos == 0 ? nextCharsMask(0) : -1;
  // a whole word allowed a typo: its own first letter walked, the others looked up (see first-letter-typos.ts)
  if (!prefix && wordBudget > 0 && termsListed(SEARCH_STEP)) {
    const own = rootChildOf(load<i32>(unitsAt));
    if (own >= 0) walkChildren(-1, own, own + 1, 0, 0, reach, NO_MATCH, 0);
    matchOtherFirstLetters();
    return;
  }
  walkChildren(-1, rootChildrenFrom, rootChildrenEnd, 0, 0, reach, NO_MATCH, 0);
}

/** The root's child entry carrying `c`, or -1. */
function rootChildOf(c: i32): i32 {
  for (let k = rootChildrenFrom; k < rootChildrenEnd; k++) if (childField(k, CHILD_CHAR) == c) return k;
  return -1;
}

/** Result of `matchToken`: typos (NO_MATCH when none), whether the whole token matched, highlight length. */
export let tokenTypos: i32 = NO_MATCH;
export let tokenFull: bool = false;
export let tokenHighlightLength: i32 = 0;

/** Matches the folded units `units[from, from + n)` against word `w` with the walk's rules. */
export function matchToken(w: i32, units: IntVec, from: i32, n: i32): void {
  selectWord(w);
  matchUnits(units.ptr + (<usize>from << 2), n);
}

const candidateTerms = new IntVec();

/**
 * Emits what the walk would of the selected whole word under every first
 * letter but its own (see first-letter-typos.ts): each candidate term
 * starting otherwise matched as a token, one found inside a longer word
 * as the walk matches it.
 */
function matchOtherFirstLetters(): void {
  candidatesOf(unitsAt, length, wordBudget, candidateTerms);
  const first = load<i32>(unitsAt);
  for (let i = 0; i < candidateTerms.length; i++) {
    const term = candidateTerms.get(i);
    const at = termUnits.ptr + (<usize>termUnitStart.get(term) << 2);
    if (load<i32>(at) == first) continue; // walked
    matchUnits(at, termUnitLength.get(term));
    if (tokenTypos != NO_MATCH) emitTerm(term, tokenTypos, tokenFull, tokenHighlightLength);
  }
}

/** Matches the `n` folded units at `at` against the selected word (see matchToken). */
function matchUnits(at: usize, n: i32): void {
  tokenTypos = NO_MATCH;
  if (length == 0) return;
  let bestPrefix = NO_MATCH;
  let bestPrefixLength = 0;
  let rowMin = 0;
  const depthLimit = n < MAX_TOKEN_UNITS ? n : MAX_TOKEN_UNITS;
  for (let d = 1; d <= depthLimit; d++) {
    const c = load<i32>(at + (<usize>(d - 1) << 2));
    if (c == <i32>INNER_MARK) {
      // a word found inside a longer word (see emitInnerWord): its last unit
      const whole = fullAt(d - 1);
      if (whole <= maxTypos && whole <= bestPrefix) { bestPrefix = whole; bestPrefixLength = d - 1; }
      break;
    }
    if (d == 1) maxTypos = budgetUnder(c);
    rowMin = stepRow(d, c, rowMin);
    if (rowMin > maxTypos) break;
    const full = fullAt(d);
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
