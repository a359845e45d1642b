// One search: tokenize the query, match each word against the dictionary
// into bitmaps, AND them into the candidates, compute the ranking criteria of
// every candidate, and select the requested page with a bounded ranked.
import { IntVec, results, scratchBase } from './buffers';
import { tokenize, tokens } from './text';
import { findTokenNode, nodeTerm, termCount } from './dictionary';
import { docCapacity, liveBits } from './store';
import {
  MAX_WORDS, matchWord, queryUnits, setWordCount, wordCount, wordLength, wordMaxTypos, wordPrefix, wordStart,
} from './matcher';
import {
  accumulateLevels, bitmapWords, candidateBitmap, levelBitmap, prepareWordsets, selectMatchWord,
} from './wordsets';
import {
  bestAttributePosition, bestAttributeRank, exactWordsOf, proximity, rankOf, scanRecord, setExactTerm,
  typosOf, wholeAttributeExact,
} from './ranking';

// Parameter slots (mirrored in src/core/abi.ts).
export const P_QUERY_LENGTH = 0;
export const P_QUERY_TYPE = 1;       // 0 prefixLast, 1 prefixAll, 2 prefixNone
export const P_TYPO_MODE = 2;        // 0 off, 1 on, 2 min, 3 strict
export const P_MIN_1_TYPO = 3;
export const P_MIN_2_TYPOS = 4;
export const P_TYPOS_ON_NUMBERS = 5;
export const P_EXACT_SINGLE = 6;     // 0 attribute, 1 none, 2 word
export const P_TOP_K = 7;
export const P_OFFSET = 8;
export const P_MIN_PROXIMITY = 9;
export const P_FILTER = 10;          // byte offset of a filter bitmap in scratch, or -1
export const P_CRITERIA_COUNT = 11;
export const P_CRITERIA = 12;        // up to 16 criterion codes
export const params = new StaticArray<i32>(32);

export const C_TYPO = 1, C_GEO = 2, C_WORDS = 3, C_FILTERS = 4, C_PROXIMITY = 5, C_ATTRIBUTE = 6, C_EXACT = 7, C_CUSTOM = 8;
export const C_SORT_SLOT = 16; // 16 + slot: an asc()/desc() entry of `ranking`

// Hit layout in results (mirrored in src/core/abi.ts).
export const HIT_STRIDE = 8;

const candidates = new IntVec();
const keys = new IntVec();
const ranked = new IntVec();
const typos = new IntVec();
let criteriaCount: i32 = 0;

function prepareWords(queryPtr: usize, queryLength: i32): void {
  tokenize(queryPtr, queryLength);
  const n = tokens.count < MAX_WORDS ? tokens.count : MAX_WORDS;
  setWordCount(n);
  queryUnits.length = 0;
  wordStart.resetZero(n); wordLength.resetZero(n); wordMaxTypos.resetZero(n); wordPrefix.resetZero(n);
  const queryType = unchecked(params[P_QUERY_TYPE]);
  const typoMode = unchecked(params[P_TYPO_MODE]);
  for (let w = 0; w < n; w++) {
    const len = tokens.foldLength.get(w);
    wordStart.set(w, queryUnits.length);
    wordLength.set(w, len);
    for (let i = 0; i < len; i++) queryUnits.push(tokens.unit(w, i));
    let budget = len >= unchecked(params[P_MIN_2_TYPOS]) ? 2 : len >= unchecked(params[P_MIN_1_TYPO]) ? 1 : 0;
    if (typoMode == 0) budget = 0;
    if (tokens.numeric.get(w) != 0 && unchecked(params[P_TYPOS_ON_NUMBERS]) == 0) budget = 0;
    wordMaxTypos.set(w, budget);
    wordPrefix.set(w, queryType == 1 || (queryType == 0 && w == n - 1) ? 1 : 0);
  }
}

function writeCandidates(): void {
  const target = candidateBitmap();
  const filterOffset = unchecked(params[P_FILTER]);
  const filter = filterOffset >= 0 ? scratchBase() + <usize>filterOffset : 0;
  candidates.length = 0;
  for (let i = 0; i < bitmapWords; i++) {
    const o = <usize>i << 2;
    let bits = <u32>liveBits.get(i);
    for (let w = 0; w < wordCount && bits != 0; w++) bits &= load<u32>(levelBitmap(w, 2) + o);
    if (filter != 0) bits &= load<u32>(filter + o);
    store<u32>(target + o, bits);
    while (bits != 0) {
      candidates.push((i << 5) + <i32>ctz(bits));
      bits &= bits - 1;
    }
  }
}

/** Keeps the candidates allowed by typoTolerance min (lowest typo count) or strict (two lowest). */
function applyTypoMode(): void {
  const mode = unchecked(params[P_TYPO_MODE]);
  if (mode < 2 || candidates.length == 0) return;
  let lowest = 0x7fffffff, second = 0x7fffffff;
  for (let i = 0; i < candidates.length; i++) {
    const t = typos.get(i);
    if (t < lowest) { second = lowest; lowest = t; } else if (t > lowest && t < second) second = t;
  }
  const limit = mode == 2 ? lowest : second;
  let kept = 0;
  for (let i = 0; i < candidates.length; i++) {
    if (typos.get(i) > limit) continue;
    candidates.set(kept, candidates.get(i));
    typos.set(kept++, typos.get(i));
  }
  candidates.length = kept;
}

function computeKeys(): void {
  const n = candidates.length;
  criteriaCount = unchecked(params[P_CRITERIA_COUNT]);
  typos.resetZero(n);
  for (let i = 0; i < n; i++) typos.set(i, typosOf(candidates.get(i)));
  applyTypoMode();
  const count = candidates.length;
  keys.resetZero(count * criteriaCount);
  let needsScan = false;
  for (let c = 0; c < criteriaCount; c++) {
    const code = unchecked(params[P_CRITERIA + c]);
    if (code == C_PROXIMITY || code == C_ATTRIBUTE || (code == C_EXACT && wordCount == 1)) needsScan = true;
  }
  needsScan = needsScan && wordCount > 0;
  const minProximity = unchecked(params[P_MIN_PROXIMITY]);
  const exactSingle = unchecked(params[P_EXACT_SINGLE]);
  for (let i = 0; i < count; i++) {
    const doc = candidates.get(i);
    if (needsScan) scanRecord(doc, minProximity, wordCount == 1, wordCount == 1 && exactSingle == 0);
    const base = i * criteriaCount;
    for (let c = 0; c < criteriaCount; c++) {
      const code = unchecked(params[P_CRITERIA + c]);
      let key = 0;
      if (code == C_TYPO) key = typos.get(i);
      else if (code == C_PROXIMITY) key = proximity;
      else if (code == C_ATTRIBUTE) key = (bestAttributeRank << 16) | (bestAttributePosition < 0xffff ? bestAttributePosition : 0xffff);
      else if (code == C_EXACT) key = wordCount - exactOf(doc, exactSingle);
      else if (code == C_CUSTOM) key = rankOf(0, doc);
      else if (code >= C_SORT_SLOT) key = rankOf(code - C_SORT_SLOT, doc);
      keys.set(base + c, key);
    }
  }
}

/** Exact words for the exact criterion; single-word queries follow exactOnSingleWordQuery. */
function exactOf(doc: i32, exactSingle: i32): i32 {
  if (wordCount != 1) return exactWordsOf(doc);
  if (exactSingle == 1) return 0;
  if (exactSingle == 2) return exactWordsOf(doc);
  return wholeAttributeExact;
}

/** True when candidate a ranks before candidate b. */
function before(a: i32, b: i32): bool {
  const ka = a * criteriaCount, kb = b * criteriaCount;
  for (let c = 0; c < criteriaCount; c++) {
    const x = keys.get(ka + c), y = keys.get(kb + c);
    if (x != y) return x < y;
  }
  return candidates.get(a) < candidates.get(b);
}

function siftDown(i: i32, size: i32): void {
  while (true) {
    const l = 2 * i + 1;
    if (l >= size) return;
    let worst = l;
    const r = l + 1;
    if (r < size && before(ranked.get(l), ranked.get(r))) worst = r;
    if (!before(ranked.get(i), ranked.get(worst))) return;
    const t = ranked.get(i); ranked.set(i, ranked.get(worst)); ranked.set(worst, t);
    i = worst;
  }
}

function siftUp(i: i32): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(ranked.get(parent), ranked.get(i))) return;
    const t = ranked.get(i); ranked.set(i, ranked.get(parent)); ranked.set(parent, t);
    i = parent;
  }
}

/** The best `k` candidates, best first, in `ranked` (a bounded max-heap, then heap-sorted). */
function selectTop(k: i32): void {
  ranked.length = 0;
  const n = candidates.length;
  for (let i = 0; i < n; i++) {
    if (ranked.length < k) { ranked.push(i); siftUp(ranked.length - 1); }
    else if (k > 0 && before(i, ranked.get(0))) { ranked.set(0, i); siftDown(0, k); }
  }
  for (let end = ranked.length - 1; end > 0; end--) {
    const t = ranked.get(0); ranked.set(0, ranked.get(end)); ranked.set(end, t);
    siftDown(0, end);
  }
}

function writeResults(queryPtr: usize): void {
  const k = unchecked(params[P_TOP_K]);
  const offset = unchecked(params[P_OFFSET]);
  const minProximity = unchecked(params[P_MIN_PROXIMITY]);
  const exactSingle = unchecked(params[P_EXACT_SINGLE]);
  results.length = 0;
  results.push(candidates.length);
  const returned = ranked.length > offset ? ranked.length - offset : 0;
  results.push(returned);
  results.push(wordCount);
  for (let w = 0; w < wordCount; w++) { results.push(tokens.start.get(w)); results.push(tokens.end.get(w)); }
  for (let i = offset; i < ranked.length && i < k; i++) {
    const doc = candidates.get(ranked.get(i));
    if (wordCount > 0) scanRecord(doc, minProximity, false, wordCount == 1 && exactSingle == 0);
    results.push(doc);
    results.push(typosOf(doc));
    results.push(wordCount);
    results.push(wordCount > 1 ? proximity : 0);
    results.push(wordCount > 0 ? bestAttributeRank : 0);
    results.push(wordCount > 0 ? bestAttributePosition : 0);
    results.push(exactOf(doc, exactSingle));
    results.push(rankOf(0, doc));
  }
}

function exactTermOfSingleWord(): i32 {
  if (wordCount != 1) return -1;
  const node = findTokenNode(0);
  return node < 0 ? -1 : nodeTerm.get(node);
}

/** Runs the query in scratch (UTF-16 units) with `params`; the answer goes to `results`. */
export function search(): void {
  const queryPtr = scratchBase();
  prepareWords(queryPtr, unchecked(params[P_QUERY_LENGTH]));
  prepareWordsets(wordCount, docCapacity, termCount);
  for (let w = 0; w < wordCount; w++) {
    selectMatchWord(w);
    matchWord(w);
    accumulateLevels(w);
  }
  setExactTerm(exactTermOfSingleWord());
  writeCandidates();
  computeKeys();
  selectTop(unchecked(params[P_TOP_K]));
  writeResults(queryPtr);
}
