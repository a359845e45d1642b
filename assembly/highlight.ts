// Highlighting: which tokens of a text match which words of the last query,
// and where each token's highlighted part ends. The rules are the search's
// own (matchToken), so highlighted words are exactly the matched ones. A page
// of hits is highlighted in one call; the words a dictionary term matches are
// worked out once per call (a page's values repeat their matched terms:
// "people" in most of them), in a small table of the terms met.
import { results } from './buffers';
import { INNER_MARK, clearUnspacedBlockRead, tokenScreenKey, tokenize, tokens, unspacedBlockRead } from './text';
import { lookupToken } from './dictionary';
import { NO_MATCH, matchToken, tokenFull, tokenHighlightLength, tokenTypos, wordCount } from './matcher';
import { isExcluded, isStop, stopWords } from './ranking';
import { matchedTermsScreen, mayBeMatched } from './marked-filter';
import { isTermMatched, markedTerms, marksAreComplete, termWords } from './wordsets';
import { TEXT_EVERY_TOKEN, TEXT_INDEXED, TEXT_SNIPPET_SHIFT } from './params';

/** Slots of the table of terms met in one call; past MEMO_FULL of them, terms are matched without it. */
const MEMO_BITS = 9;
const MEMO_SLOTS = 1 << MEMO_BITS;
const MEMO_FULL = MEMO_SLOTS >> 1;
/** Per slot: the term + 1 (0: empty), the words it matches, and how its highlight ends (see TermMatch). */
const memoTerm = new StaticArray<i32>(MEMO_SLOTS);
const memoMask = new StaticArray<i32>(MEMO_SLOTS);
const memoEnd = new StaticArray<i32>(MEMO_SLOTS);
let memoUsed = 0;

/** How a matched token's highlight ends: at the token's end, or after the longest prefix of it some word matched. */
const WHOLE = -1;

/** The last `matchWords`: the words a token matches, and WHOLE or the longest matched prefix's length. */
let matchedMask = 0;
let matchedEnd = 0;

/**
 * Whether this call's tokens are screened by the filter of marked terms
 * (see marked-filter.ts). Building it reads every marked term's hash: a
 * one-letter prefix can mark thousands of terms (the cities starting with
 * "s"), where a page of ten short names holds a few dozen tokens, each
 * looked up in the dictionary for about what a marked term costs the
 * filter. The filter is built when the page's units (some four a token,
 * with the space after) outnumber the marked terms fourfold or more.
 */
let screened = false;

/**
 * Scratch: per text, as two i32, its length in UTF-16 units and its flags
 * (TEXT_INDEXED, TEXT_EVERY_TOKEN, a snippet's size from TEXT_SNIPPET_SHIFT
 * up); then the texts' units end to end. See
 * index.ts's highlightTexts for the results. Returns whether the texts held
 * a unit of the blocks of scripts written without spaces (see text.ts).
 */
export function highlightAll(base: usize, count: i32): bool {
  results.length = 0;
  clearMemo();
  clearUnspacedBlockRead();
  let units = 0;
  for (let i = 0; i < count; i++) units += load<i32>(base + (<usize>i << 3));
  screened = <i64>markedTerms.length << 2 <= <i64>units;
  let text = base + (<usize>count << 3);
  for (let i = 0; i < count; i++) {
    const length = load<i32>(base + (<usize>i << 3));
    const flags = load<i32>(base + (<usize>i << 3) + 4);
    const words = flags >>> TEXT_SNIPPET_SHIFT;
    if (words > 0) snippetWindow(text, length, (flags & TEXT_INDEXED) != 0, words);
    else highlightText(text, length, (flags & TEXT_INDEXED) != 0, (flags & TEXT_EVERY_TOKEN) == 0);
    text += <usize>length << 1;
  }
  return unspacedBlockRead;
}

function clearMemo(): void {
  if (memoUsed == 0) return;
  memory.fill(changetype<usize>(memoTerm), 0, MEMO_SLOTS << 2);
  memoUsed = 0;
}

function highlightText(ptr: usize, length: i32, indexed: bool, matchedOnly: bool): void {
  const complete = marksAreComplete();
  // the tokens the filter rules out are, in an indexed text, terms no query word matched: none is listed, so none is kept
  tokenize(ptr, length, screened && complete && indexed && matchedOnly ? matchedTermsScreen() : 0);
  results.push(tokens.read);
  const listedAt = results.length;
  results.push(0);
  results.push(0);
  let listed = 0;
  for (let t = 0; t < tokens.count; t++) {
    const mask = tokenMatch(t, indexed, complete);
    if (matchedOnly && mask == 0) continue;
    pushMatched(t, mask, 0);
    listed++;
  }
  results.set(listedAt, listed);
}

/**
 * Lists the tokens of the window of `words` tokens a snippet shows: from a
 * quarter of them before the first token that matches a query word (a stop
 * word aside), or the text's start when none does, the window kept within
 * the text. An indexed text is screened first, which finds that token and
 * the token count; it is then read again, every token, from the end of the
 * last token kept before the window (where a token may start) to the
 * window's last token: never past it, where a snippet listed every token of
 * its text.
 */
function snippetWindow(ptr: usize, length: i32, indexed: bool, words: i32): void {
  const complete = marksAreComplete();
  const screenedText = screened && complete && indexed;
  tokenize(ptr, length, screenedText ? matchedTermsScreen() : 0);
  const count = tokens.read;
  let first = 0;
  for (let t = 0; t < tokens.count; t++) {
    if ((tokenMatch(t, indexed, complete) & ~stopWords) == 0) continue;
    first = tokens.ordinal.get(t);
    break;
  }
  const from = count <= words ? 0 : max(0, min(first - (words >> 2), count - words));
  const to = min(count, from + words);
  results.push(count);
  results.push(to - from);
  results.push(from);
  let offset = 0;
  let base = 0;
  if (screenedText) {
    for (let t = 0; t < tokens.count && tokens.ordinal.get(t) < from; t++) {
      offset = tokens.end.get(t);
      base = tokens.ordinal.get(t) + 1;
    }
    tokenize(ptr + (<usize>offset << 1), length - offset, 0, to - base);
  }
  for (let t = 0; t < tokens.count; t++) {
    const ordinal = base + tokens.ordinal.get(t);
    if (ordinal >= from && ordinal < to) pushMatched(t, tokenMatch(t, indexed, complete), offset);
  }
}

/**
 * The query words token t matches (0: none; matchedEnd then says how its
 * highlight ends). A term of the dictionary the search did not mark matches
 * no query word, and no word need be tried (every token of an indexed text
 * is one).
 */
function tokenMatch(t: i32, indexed: bool, complete: bool): i32 {
  const maybe = !screened || mayBeMatched(tokenScreenKey(t));
  const term = maybe ? lookupToken(t) : -1;
  if (complete && (maybe ? (term >= 0 ? !isTermMatched(term) : indexed) : indexed || lookupToken(t) >= 0)) return 0;
  if (term >= 0) matchTerm(t, term);
  else matchWords(t);
  return matchedMask;
}

/** Lists token t with the words it matches (tokenMatch's), its offsets `offset` further on. */
function pushMatched(t: i32, mask: i32, offset: i32): void {
  const start = tokens.start.get(t) + offset;
  const end = tokens.end.get(t) + offset;
  // a prefix highlights alone where the token's units are its folded ones (not where folding changed its length)
  const partial = matchedEnd != WHOLE && end - start == textUnits(t);
  pushToken(start, end, mask, mask == 0 ? start : partial ? start + matchedEnd : end);
}

/** Token t's folded units that stand for its text: all but INNER_MARK, which ends a word found inside a longer word. */
function textUnits(t: i32): i32 {
  const n = tokens.foldLength.get(t);
  return n > 0 && <u32>tokens.unit(t, n - 1) == INNER_MARK ? n - 1 : n;
}

/** matchWords for token t, a dictionary term, and the words the search matched it by another way (whole): once per term per call. */
function matchTerm(t: i32, term: i32): void {
  let slot = <i32>((<u32>term * <u32>0x9e3779b1) >> (32 - MEMO_BITS));
  while (true) {
    const held = unchecked(memoTerm[slot]);
    if (held == term + 1) {
      matchedMask = unchecked(memoMask[slot]);
      matchedEnd = unchecked(memoEnd[slot]);
      return;
    }
    if (held == 0) break;
    slot = (slot + 1) & (MEMO_SLOTS - 1);
  }
  matchWords(t);
  // terms the search matched another way (word alternatives) highlight whole
  if (isTermMatched(term)) {
    const alternatives = termWords.get(term) & ~matchedMask;
    if (alternatives != 0) { matchedMask |= alternatives; matchedEnd = WHOLE; }
  }
  if (memoUsed >= MEMO_FULL) return;
  unchecked(memoTerm[slot] = term + 1);
  unchecked(memoMask[slot] = matchedMask);
  unchecked(memoEnd[slot] = matchedEnd);
  memoUsed++;
}

/** The query words token t matches by the search's rules (matchedMask), and how its highlight ends (matchedEnd). */
function matchWords(t: i32): void {
  matchedMask = 0;
  matchedEnd = 0;
  const foldedLength = tokens.foldLength.get(t);
  for (let w = 0; w < wordCount; w++) {
    if (isExcluded(w) || isStop(w)) continue;
    matchToken(w, tokens.units, tokens.foldStart.get(t), foldedLength);
    if (tokenTypos == NO_MATCH) continue;
    matchedMask |= 1 << w;
    if (tokenFull) matchedEnd = WHOLE;
    else if (matchedEnd != WHOLE && tokenHighlightLength > matchedEnd) matchedEnd = tokenHighlightLength;
  }
}

/** One token of the results: its start, end, words matched and the end of the part to highlight. */
@inline function pushToken(start: i32, end: i32, mask: i32, until: i32): void {
  results.push(start);
  results.push(end);
  results.push(mask);
  results.push(until);
}
