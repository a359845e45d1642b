// One search: tokenize the query, match each word against the dictionary
// into bitmaps, AND them into the candidates, list them (only a page-sized
// part when the first deciding criterion allows it), and rank the requested
// page by bucket sort, computing each criterion only for the records still
// tied (proximity lazily, in the order of the criteria after it).
import { IntVec, results, scratchBase } from './buffers';
import { tokenize, tokens } from './text';
import { lookupToken, termCount } from './dictionary';
import { docCapacity, liveBits } from './store';
import {
  MAX_WORDS, matchWord, queryUnits, setWordCount, wordCount, wordLength, wordMaxTypos, wordPrefix, wordStart,
} from './matcher';
import {
  accumulateLevels, anyTypoMatch, bestAttributeOf, bitmapWords, cachedKeysFolded, candidateBitmap, foldCachedKeys,
  foldCachedKeysAhead, foldedBestAttribute, invalidateMarks, levelBitmap, prepareWordsets, recordMatch, recordPhraseMatch,
  selectMatchWord, testBit, wholeValueBitmap, fillSlot, finishSlot, useSlot,
} from './wordsets';
import {
  FILTERS_SLOT, GEO_SLOT, GROUP_SLOT, MAX_PROXIMITY, attributeRulesActive, exactFromScan, rankSlots, scannedExactWords, bestAttribute, exactOf, isAdjacentPair, isExcluded,
  isOptional, matchedWordsOf, proximity, rankOf, rankedWordCount, scanRecord, scannedWords, setAttributeRules,
  setWordRoles, typosOf,
} from './ranking';
import { POSITION_BITS, attributeRank } from './store';
import { MEMO_WORDS, claimSlot, findSlot } from './word-memo';
import {
  anyOfWords, candidateCount, candidates, listCandidates, listedTypoFree, requiredWords, typoFreeCount, writeCandidates,
} from './candidates';

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
export const P_GEO_ACTIVE = 28;      // 1: rank slot GEO_SLOT holds this query's geo buckets
export const P_FILTER_SCORES_ACTIVE = 29; // 1: rank slot FILTERS_SLOT holds this query's filter scores
export const P_OPTIONAL_WORDS = 30;  // bit mask of optional query words
export const P_NO_TYPO_WORDS = 31;   // bit mask of words matched without typos
export const P_EXCLUDED_WORDS = 32;  // bit mask of excluded words (advancedSyntax -word): exact, removed
export const P_NO_PREFIX_WORDS = 33; // bit mask of words never matched as a prefix
export const P_DISTINCT = 34;        // records kept per attributeForDistinct group (0: off); groups in GROUP_SLOT
export const P_PHRASE_PAIRS = 35;    // bit w: words w and w+1 must be adjacent, in order (advancedSyntax "...")
export const P_ALLOWED_ATTRIBUTES = 36;   // 2 slots (low, high 32 bits): attributes that may match
export const P_NO_TYPO_ATTRIBUTES = 38;   // 2 slots: attributes matched without typos
export const P_NO_PREFIX_ATTRIBUTES = 40; // 2 slots: attributes matched without prefixes
export const P_ALTERNATIVES = 42;    // byte offset in scratch of the word alternatives block, or -1
export const P_NO_EXACT_ATTRIBUTES = 44;  // 2 slots: attributes whose matches never count as exact
export const P_FILTER_WORDS = 46;    // u32 words of the filter bitmap (a multiple of 4); records past it are filtered out
export const params = new StaticArray<i32>(48);

function mask64(slot: i32): u64 {
  return (<u64>(<u32>unchecked(params[slot + 1])) << 32) | <u64>(<u32>unchecked(params[slot]));
}

export const C_TYPO = 1, C_GEO = 2, C_WORDS = 3, C_FILTERS = 4, C_PROXIMITY = 5, C_ATTRIBUTE = 6, C_EXACT = 7, C_CUSTOM = 8;
export const C_SORT_SLOT = 16; // 16 + slot: an asc()/desc() entry of `ranking`

// Hit layout in results (mirrored in src/core/abi.ts).
export const HIT_STRIDE = 8;

/** Per candidate position: 1 once scanned, and the scan's proximity and attribute key. */
const scanned = new IntVec();
const scannedProximity = new IntVec();
const scannedAttribute = new IntVec();
const scannedExact = new IntVec();
/** Work area of the bucket sort: (key << 32) | candidate position. */
let work = new StaticArray<u64>(0);
const ranked = new IntVec();
let criteriaCount: i32 = 0;
let wanted: i32 = 0;
let minProximity: i32 = 1;
let exactSingle: i32 = 0;

/** [start, end) of each query word in the query text. */
const wordOffsetStart = new IntVec();
const wordOffsetEnd = new IntVec();

function prepareWords(queryPtr: usize, queryLength: i32): void {
  tokenize(queryPtr, queryLength);
  const n = tokens.count < MAX_WORDS ? tokens.count : MAX_WORDS;
  setWordCount(n);
  wordOffsetStart.resetZero(n);
  wordOffsetEnd.resetZero(n);
  for (let w = 0; w < n; w++) { wordOffsetStart.set(w, tokens.start.get(w)); wordOffsetEnd.set(w, tokens.end.get(w)); }
  queryUnits.length = 0;
  wordStart.resetZero(n); wordLength.resetZero(n); wordMaxTypos.resetZero(n); wordPrefix.resetZero(n);
  const queryType = unchecked(params[P_QUERY_TYPE]);
  const typoMode = unchecked(params[P_TYPO_MODE]);
  for (let w = 0; w < n; w++) {
    const len = tokens.foldLength.get(w);
    wordStart.set(w, queryUnits.length);
    wordLength.set(w, len);
    for (let i = 0; i < len; i++) queryUnits.push(tokens.unit(w, i));
    const bit = 1 << w;
    const exactOnly = (unchecked(params[P_EXCLUDED_WORDS]) & bit) != 0;
    let budget = len >= unchecked(params[P_MIN_2_TYPOS]) ? 2 : len >= unchecked(params[P_MIN_1_TYPO]) ? 1 : 0;
    if (typoMode == 0 || exactOnly || (unchecked(params[P_NO_TYPO_WORDS]) & bit) != 0) budget = 0;
    if (tokens.numeric.get(w) != 0 && unchecked(params[P_TYPOS_ON_NUMBERS]) == 0) budget = 0;
    wordMaxTypos.set(w, budget);
    const prefix = queryType == 1 || (queryType == 0 && w == n - 1);
    wordPrefix.set(w, prefix && !exactOnly && (unchecked(params[P_NO_PREFIX_WORDS]) & bit) == 0 ? 1 : 0);
  }
  setWordRoles(unchecked(params[P_OPTIONAL_WORDS]), unchecked(params[P_EXCLUDED_WORDS]));
  setAttributeRules(
    mask64(P_ALLOWED_ATTRIBUTES), mask64(P_NO_TYPO_ATTRIBUTES), mask64(P_NO_PREFIX_ATTRIBUTES), mask64(P_NO_EXACT_ATTRIBUTES),
  );
}

/** The query's filter bitmap in scratch (padded to whole vectors), or 0. */
function filterBitmap(): usize {
  const offset = unchecked(params[P_FILTER]);
  return offset >= 0 ? scratchBase() + <usize>offset : 0;
}

/**
 * No step after listing changes the candidate set (record checks for
 * per-attribute rules and phrases, typo modes min/strict, distinct groups),
 * so a page-sized part of the candidates may be listed instead of all.
 */
function mayListPart(): bool {
  return distinctLimit == 0 && unchecked(params[P_TYPO_MODE]) < 2 && !attributeRulesActive && unchecked(params[P_PHRASE_PAIRS]) == 0;
}

/** The code of the first criterion that can tell candidates apart (typo tied with `typoTied`), or -1. */
function firstDecidingCriterion(typoTied: bool): i32 {
  criteriaCount = unchecked(params[P_CRITERIA_COUNT]);
  for (let c = 0; c < criteriaCount; c++) {
    const code = unchecked(params[P_CRITERIA + c]);
    if (!isConstant(c) && !(typoTied && code == C_TYPO)) return code;
  }
  return -1;
}

/**
 * The page lies among the candidates matched with no typo: typo is the first
 * criterion that can tell records apart, at least a page of candidates has no
 * typo, and no later step (record checks, typo modes, distinct) changes the
 * candidates. Ranking then lists only those.
 */
function pageIsTypoFree(): bool {
  return mayListPart() && firstDecidingCriterion(false) == C_TYPO && typoFreeCount >= unchecked(params[P_TOP_K]);
}

/**
 * The page size when only the candidates with the best attribute keys need
 * listing (see listCandidates): many candidates, ranked first by attribute
 * (typo ties them or is not asked), nothing after listing changes them; else 0.
 */
function attributeCutWanted(typoFree: bool): i32 {
  const wanted = unchecked(params[P_TOP_K]);
  const count = typoFree ? typoFreeCount : candidateCount;
  if (count < 4096 || wanted * 4 > count || !mayListPart() || firstDecidingCriterion(typoFree) != C_ATTRIBUTE) return 0;
  return wanted;
}

// --- empty queries: every text criterion ties, so the order is the static
// one (custom ranking, asc/desc), computed once after writes and walked.
const staticOrder = new IntVec();
const staticCriteria = new IntVec();
let staticOrderValid = false;

export function invalidateStaticOrder(): void { staticOrderValid = false; }

function isStaticQuery(): bool {
  return wordCount == 0 && unchecked(params[P_GEO_ACTIVE]) == 0 && unchecked(params[P_FILTER_SCORES_ACTIVE]) == 0
    && unchecked(params[P_DISTINCT]) == 0;
}

function sameStaticCriteria(): bool {
  const n = unchecked(params[P_CRITERIA_COUNT]);
  if (staticCriteria.length != n) return false;
  for (let c = 0; c < n; c++) if (staticCriteria.get(c) != unchecked(params[P_CRITERIA + c])) return false;
  return true;
}

/** Sorts every live record by the criteria once; later empty queries reuse the order. */
function buildStaticOrder(): void {
  candidates.length = 0;
  for (let i = 0; i < liveBits.length; i++) {
    let bits = <u32>liveBits.get(i);
    while (bits != 0) { candidates.push((i << 5) + <i32>ctz(bits)); bits &= bits - 1; }
  }
  distinctLimit = 0;
  rankCandidates(candidates.length);
  staticOrder.resetZero(ranked.length);
  for (let i = 0; i < ranked.length; i++) staticOrder.set(i, candidates.get(ranked.get(i)));
  const n = unchecked(params[P_CRITERIA_COUNT]);
  staticCriteria.resetZero(n);
  for (let c = 0; c < n; c++) staticCriteria.set(c, unchecked(params[P_CRITERIA + c]));
  staticOrderValid = true;
}

/** The page of an empty query: the static order filtered by the candidate bitmap. */
function searchStatic(): void {
  if (!staticOrderValid || !sameStaticCriteria()) buildStaticOrder();
  candidates.length = 0;
  writeCandidates(filterBitmap(), unchecked(params[P_FILTER_WORDS]));
  const nbHits = candidateCount;
  const bitmap = candidateBitmap();
  const k = unchecked(params[P_TOP_K]);
  ranked.length = 0;
  for (let i = 0; i < staticOrder.length && ranked.length < k; i++) {
    const doc = staticOrder.get(i);
    if (!testBit(bitmap, doc)) continue;
    candidates.push(doc);
    ranked.push(candidates.length - 1);
  }
  writeResults(nbHits);
}

/** Keeps the candidates allowed by typoTolerance min (lowest typo count) or strict (two lowest). */
function applyTypoMode(): void {
  const mode = unchecked(params[P_TYPO_MODE]);
  if (mode < 2 || candidates.length == 0) return;
  let lowest = 0x7fffffff, second = 0x7fffffff;
  for (let i = 0; i < candidates.length; i++) {
    const t = typosOf(candidates.get(i));
    if (t < lowest) { second = lowest; lowest = t; } else if (t > lowest && t < second) second = t;
  }
  const limit = mode == 2 ? lowest : second;
  let kept = 0;
  const bitmap = candidateBitmap();
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates.get(i);
    if (typosOf(doc) <= limit) { candidates.set(kept++, doc); continue; }
    const word = bitmap + (<usize>(doc >> 5) << 2);
    store<u32>(word, load<u32>(word) & ~(<u32>1 << (doc & 31)));
  }
  candidates.length = kept;
}

/**
 * Drops the candidates a record-level check rejects: per-attribute rules
 * (a word must match in an allowed attribute) and phrases (adjacent words).
 */
function verifyCandidates(): void {
  const phrases = unchecked(params[P_PHRASE_PAIRS]);
  if (!attributeRulesActive && phrases == 0) return;
  const bitmap = candidateBitmap();
  let kept = 0;
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates.get(i);
    scanRecord(doc, 1, true);
    let ok = (requiredWords & ~scannedWords) == 0 && (anyOfWords == 0 || (anyOfWords & scannedWords) != 0);
    for (let w = 0; ok && w + 1 < wordCount; w++) if ((phrases & (1 << w)) != 0 && !isAdjacentPair(w)) ok = false;
    if (ok) { candidates.set(kept++, doc); continue; }
    const word = bitmap + (<usize>(doc >> 5) << 2);
    store<u32>(word, load<u32>(word) & ~(<u32>1 << (doc & 31)));
  }
  candidates.length = kept;
}

/** nbHits: candidates, or with distinct the groups they form (a record without a group is its own). */
function countHits(): i32 {
  if (distinctLimit == 0) return candidates.length;
  groupEpoch++;
  let count = 0;
  for (let i = 0; i < candidates.length; i++) {
    const group = groupOf(candidates.get(i));
    if (group < 0) { count++; continue; }
    ensureGroup(group);
    if (groupStamp.get(group) != groupEpoch) { groupStamp.set(group, groupEpoch); count++; }
  }
  return count;
}

// distinct: records emitted per group in this search
let distinctLimit: i32 = 0;
const groupStamp = new IntVec();
const groupEmitted = new IntVec();
let groupEpoch: i32 = 0;

function groupOf(doc: i32): i32 {
  const groups = unchecked(rankSlots[GROUP_SLOT]);
  return doc < groups.length ? groups.get(doc) : -1;
}

const groupOrdinal = new IntVec();

function ensureGroup(group: i32): void {
  while (groupStamp.length <= group) { groupStamp.push(0); groupEmitted.push(0); groupOrdinal.push(0); }
}

/** With distinct, pages count groups: the ordinal of each ranked record's group. */
const rankedGroup = new IntVec();
let groupsStarted: i32 = 0;
let groupsFull: i32 = 0;

/**
 * Adds a candidate to the ranking. With distinct, a record joins its group
 * while the group has room; a new group is started only while fewer than
 * `wanted` groups exist (a record without a group is a full group of its own).
 */
function emit(position: i32): void {
  if (distinctLimit == 0) { ranked.push(position); return; }
  const group = groupOf(candidates.get(position));
  if (group < 0) {
    if (groupsStarted >= wanted) return;
    rankedGroup.push(groupsStarted++);
    groupsFull++;
    ranked.push(position);
    return;
  }
  ensureGroup(group);
  if (groupStamp.get(group) != groupEpoch) {
    if (groupsStarted >= wanted) return;
    groupStamp.set(group, groupEpoch);
    groupEmitted.set(group, 0);
    groupOrdinal.set(group, groupsStarted++);
  }
  const emitted = groupEmitted.get(group);
  if (emitted >= distinctLimit) return;
  groupEmitted.set(group, emitted + 1);
  if (emitted + 1 == distinctLimit) groupsFull++;
  rankedGroup.push(groupOrdinal.get(group));
  ranked.push(position);
}

/** The ranking has what the page needs. */
@inline function rankingDone(): bool {
  return distinctLimit == 0 ? ranked.length >= wanted : groupsStarted >= wanted && groupsFull == groupsStarted;
}

function scanOnce(position: i32): void {
  if (scanned.get(position) != 0) return;
  scanRecord(candidates.get(position), minProximity);
  scanned.set(position, 1);
  scannedProximity.set(position, proximity);
  scannedAttribute.set(position, <i32>bestAttribute);
  scannedExact.set(position, <i32>popcnt(scannedExactWords));
}

/** The key of criterion `c` (index into the criteria list; c == count: record id) for a candidate. */
function keyOf(c: i32, position: i32): i32 {
  if (c == criteriaCount) return position;
  const doc = candidates.get(position);
  const code = unchecked(params[P_CRITERIA + c]);
  if (code == C_TYPO) return typosOf(doc);
  if (code == C_PROXIMITY) { if (wordCount < 2) return 0; scanOnce(position); return scannedProximity.get(position); }
  if (code == C_ATTRIBUTE) {
    if (attributeFromPostings()) return bestAttributeOf(doc);
    scanOnce(position);
    return scannedAttribute.get(position);
  }
  if (code == C_EXACT) {
    if (!exactFromScan) return rankedWordCount - exactOf(doc, exactSingle);
    scanOnce(position);
    return rankedWordCount - scannedExact.get(position);
  }
  if (code == C_WORDS) return rankedWordCount - matchedWordsOf(doc);
  if (code == C_GEO) return rankOf(GEO_SLOT, doc);
  if (code == C_FILTERS) return rankOf(FILTERS_SLOT, doc);
  if (code == C_CUSTOM) return rankOf(0, doc);
  if (code >= C_SORT_SLOT) return rankOf(code - C_SORT_SLOT, doc);
  return 0;
}

/** The attribute criterion reads the best keys the postings gave (no per-attribute rule to apply per token). */
@inline function attributeFromPostings(): bool { return wordCount == 1 || !attributeRulesActive; }

/** Criterion `c` costs no scan of the record's forward list. */
function isCheap(c: i32): bool {
  if (c >= criteriaCount) return true;
  const code = unchecked(params[P_CRITERIA + c]);
  if (code == C_PROXIMITY) return isConstant(c);
  if (code == C_ATTRIBUTE) return attributeFromPostings() || isConstant(c);
  if (code == C_EXACT) return !exactFromScan || isConstant(c);
  return true;
}

/** The smallest proximity a record can have: every ranked pair of consecutive words at minProximity. */
function bestProximity(): i32 {
  let pairs = 0;
  for (let w = 0; w + 1 < wordCount; w++) if (!isExcluded(w) && !isExcluded(w + 1)) pairs++;
  return pairs * (minProximity < MAX_PROXIMITY ? minProximity : MAX_PROXIMITY);
}

/** Ranges smaller than this are ranked by proximity directly. */
const LAZY_PROXIMITY_RANGE = 512;
const lazyOrder = new IntVec();

/**
 * Proximity needs a scan per record, so for a large tied range it is read
 * lazily: the range is ordered by the (cheap) criteria after proximity, and
 * records are scanned in that order until `need` of them have the best
 * possible proximity; no record left unscanned can then enter the page.
 * Returns false (nothing emitted) when the range should be ranked directly.
 */
function rankProximityLazily(from: i32, to: i32, c: i32): bool {
  const need = wanted - ranked.length;
  if (distinctLimit != 0 || to - from < LAZY_PROXIMITY_RANGE || need * 8 > to - from) return false;
  for (let next = c + 1; next <= criteriaCount; next++) if (!isCheap(next)) return false;
  const best = bestProximity();
  const base = ranked.length;
  const outerWanted = wanted;
  for (let m = need * 4 > 64 ? need * 4 : 64; m * 2 < to - from; m <<= 2) {
    wanted = base + m;
    rankRange(from, to, c + 1);
    wanted = outerWanted;
    lazyOrder.length = 0;
    let atBest = 0;
    for (let i = base; i < ranked.length; i++) {
      const position = ranked.get(i);
      lazyOrder.push(position);
      scanOnce(position);
      if (scannedProximity.get(position) == best) atBest++;
    }
    ranked.length = base;
    if (atBest < need) continue;
    for (let i = 0; i < lazyOrder.length && !rankingDone(); i++) {
      const position = lazyOrder.get(i);
      if (scannedProximity.get(position) == best) emit(position);
    }
    return true;
  }
  return false;
}

/** Criteria that cannot tell candidates apart for this query. */
function isConstant(c: i32): bool {
  if (c == criteriaCount) return false;
  const code = unchecked(params[P_CRITERIA + c]);
  if (code == C_GEO) return unchecked(params[P_GEO_ACTIVE]) == 0;
  if (code == C_FILTERS) return unchecked(params[P_FILTER_SCORES_ACTIVE]) == 0;
  if (code == C_WORDS) return unchecked(params[P_OPTIONAL_WORDS]) == 0;
  if (code == C_TYPO && (!anyTypoMatch() || listedTypoFree)) return true;
  return (code == C_PROXIMITY && rankedWordCount < 2)
    || ((code == C_ATTRIBUTE || code == C_TYPO || code == C_EXACT) && rankedWordCount == 0);
}

@inline function keyAt(i: i32): u32 { return <u32>(unchecked(work[i]) >> 32); }
@inline function swap(i: i32, j: i32): void {
  const t = unchecked(work[i]); unchecked(work[i] = work[j]); unchecked(work[j] = t);
}

/** The key of the element of rank `nth` (0-based) in work[from, to), by quickselect. */
function selectKey(from: i32, to: i32, nth: i32): u32 {
  let lo = from, hi = to - 1;
  const target = from + nth;
  while (lo < hi) {
    const pivot = keyAt((lo + hi) >>> 1);
    let i = lo, j = hi;
    while (i <= j) {
      while (keyAt(i) < pivot) i++;
      while (keyAt(j) > pivot) j--;
      if (i <= j) { swap(i, j); i++; j--; }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return keyAt(target);
  }
  return keyAt(target);
}

/** Insertion sort for short runs, else the runtime's sort, on work[from, to). */
function sortRange(from: i32, to: i32): void {
  if (to - from < 32) {
    for (let i = from + 1; i < to; i++) {
      const v = unchecked(work[i]);
      let j = i - 1;
      while (j >= from && unchecked(work[j]) > v) { unchecked(work[j + 1] = work[j]); j--; }
      unchecked(work[j + 1] = v);
    }
    return;
  }
  const part = new StaticArray<u64>(to - from);
  memory.copy(changetype<usize>(part), changetype<usize>(work) + (<usize>from << 3), <usize>(to - from) << 3);
  part.sort((a: u64, b: u64): i32 => (a < b ? -1 : a > b ? 1 : 0));
  memory.copy(changetype<usize>(work) + (<usize>from << 3), changetype<usize>(part), <usize>(to - from) << 3);
}

/**
 * Bucket sort by tie-breaking criteria (Algolia-style): criterion `c` is
 * computed only for the candidates still tied, and only the best `wanted`
 * overall are ordered, so a broad query never sorts all its candidates.
 */
function rankRange(from: i32, to: i32, c: i32): void {
  if (from >= to || rankingDone()) return;
  if (c > criteriaCount || to - from == 1) {
    for (let i = from; i < to && !rankingDone(); i++) emit(<i32>(unchecked(work[i]) & 0xffffffff));
    return;
  }
  if (isConstant(c)) { rankRange(from, to, c + 1); return; }
  if (unchecked(params[P_CRITERIA + c]) == C_PROXIMITY && rankProximityLazily(from, to, c)) return;
  fillKeys(from, to, c);
  const lowest = keysLowest, highest = keysHighest;
  if (lowest == highest) { rankRange(from, to, c + 1); return; }
  if (to - from >= 64 && highest - lowest < <u32>(to - from)) {
    // few distinct keys: count them, keep the keys the page needs, counting-sort those
    const kept = countKeys(from, to, lowest, highest);
    countingSort(from, from + kept, lowest);
    rankGroups(from, from + kept, c);
    return;
  }
  const need = wanted - ranked.length;
  // with distinct, records of full groups are skipped, so no candidate may be cut early
  const threshold = distinctLimit == 0 && to - from > need ? selectKey(from, to, need - 1) : 0xffffffff;
  // three-way partition: below threshold, equal to it, above (dropped)
  let lt = from, i = from, gt = to - 1;
  while (i <= gt) {
    const k = keyAt(i);
    if (k < threshold) { swap(lt, i); lt++; i++; }
    else if (k > threshold) { swap(i, gt); gt--; }
    else i++;
  }
  sortRange(from, lt);
  rankGroups(from, lt, c);
  if (threshold == 0xffffffff) {
    // no cut: [lt, gt] holds the largest key group(s); sort and walk them too
    sortRange(lt, gt + 1);
    rankGroups(lt, gt + 1, c);
    return;
  }
  rankRange(lt, gt + 1, c + 1);
}

/** Ranks each run of equal keys of the sorted work[from, to) by the next criteria, in order. */
function rankGroups(from: i32, to: i32, c: i32): void {
  let g = from;
  while (g < to && !rankingDone()) {
    let e = g + 1;
    const key = keyAt(g);
    while (e < to && keyAt(e) == key) e++;
    rankRange(g, e, c + 1);
    g = e;
  }
}

const keyCounts = new IntVec();
let sortBuffer = new StaticArray<u64>(0);

/**
 * Counts the keys of work[from, to) (in [lowest, highest], a span no longer
 * than the range) and moves the records with the keys the page needs to the
 * front (all of them with distinct, where groups may skip records); returns
 * their count. Leaves each kept key's start offset in keyCounts.
 */
function countKeys(from: i32, to: i32, lowest: u32, highest: u32): i32 {
  const span = <i32>(highest - lowest) + 1;
  keyCounts.resetZero(span);
  for (let i = from; i < to; i++) {
    const k = <i32>(keyAt(i) - lowest);
    keyCounts.set(k, keyCounts.get(k) + 1);
  }
  const need = distinctLimit == 0 ? wanted - ranked.length : 0x7fffffff;
  let kept = 0;
  let last = 0;
  for (; last < span; last++) {
    const n = keyCounts.get(last);
    keyCounts.set(last, kept);
    kept += n;
    if (kept >= need) break;
  }
  if (kept < to - from) {
    const cut = lowest + <u32>last;
    let front = from;
    for (let i = from; i < to; i++) if (keyAt(i) <= cut) { swap(front, i); front++; }
  }
  return kept;
}

/** Sorts work[from, to) by key, with keyCounts holding each key's start offset (see countKeys). */
function countingSort(from: i32, to: i32, lowest: u32): void {
  if (sortBuffer.length < to - from) sortBuffer = new StaticArray<u64>(to - from);
  for (let i = from; i < to; i++) {
    const v = unchecked(work[i]);
    const k = <i32>(<u32>(v >> 32) - lowest);
    const at = keyCounts.get(k);
    keyCounts.set(k, at + 1);
    unchecked(sortBuffer[at] = v);
  }
  memory.copy(changetype<usize>(work) + (<usize>from << 3), changetype<usize>(sortBuffer), <usize>(to - from) << 3);
}

// --- keys of one criterion over a range, into work's high halves
let keysLowest: u32 = 0;
let keysHighest: u32 = 0;

@inline function putKey(i: i32, position: i32, key: u32): void {
  if (key < keysLowest) keysLowest = key;
  if (key > keysHighest) keysHighest = key;
  unchecked(work[i] = (<u64>key << 32) | <u64>position);
}

@inline function positionAt(i: i32): i32 { return <i32>(unchecked(work[i]) & 0xffffffff); }

/** Computes criterion `c`'s key for work[from, to); the common criteria without the per-record dispatch of keyOf. */
function fillKeys(from: i32, to: i32, c: i32): void {
  keysLowest = 0xffffffff;
  keysHighest = 0;
  const code = c == criteriaCount ? -1 : unchecked(params[P_CRITERIA + c]);
  const slot = code == C_CUSTOM ? 0 : code == C_GEO ? GEO_SLOT : code == C_FILTERS ? FILTERS_SLOT : code >= C_SORT_SLOT ? code - C_SORT_SLOT : -1;
  if (slot >= 0) {
    const ranks = unchecked(rankSlots[slot]);
    const n = ranks.length;
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      const doc = candidates.get(position);
      putKey(i, position, <u32>(doc < n ? ranks.get(doc) : 0));
    }
  } else if (code == C_ATTRIBUTE && attributeFromPostings()) {
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      putKey(i, position, <u32>bestAttributeOf(candidates.get(position)));
    }
  } else if (code == C_EXACT && !exactFromScan && rankedWordCount == 1 && exactSingle == 0) {
    // exactOnSingleWordQuery=attribute: whether the word is a whole attribute value
    const whole = wholeValueBitmap();
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      putKey(i, position, testBit(whole, candidates.get(position)) ? 0 : 1);
    }
  } else if (code == C_TYPO && wordCount == 1) {
    const zero = levelBitmap(0, 0), one = levelBitmap(0, 1);
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      const doc = candidates.get(position);
      putKey(i, position, testBit(zero, doc) ? 0 : testBit(one, doc) ? 1 : 2);
    }
  } else {
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      putKey(i, position, <u32>keyOf(c, position));
    }
  }
}

function rankCandidates(k: i32): void {
  const n = candidates.length;
  criteriaCount = unchecked(params[P_CRITERIA_COUNT]);
  minProximity = unchecked(params[P_MIN_PROXIMITY]);
  exactSingle = unchecked(params[P_EXACT_SINGLE]);
  wanted = k < n ? k : n;
  scanned.resetZero(n);
  scannedProximity.reserve(n);
  scannedAttribute.reserve(n);
  scannedExact.reserve(n);
  if (work.length < n) work = new StaticArray<u64>(n);
  for (let i = 0; i < n; i++) unchecked(work[i] = <u64>i);
  ranked.length = 0;
  rankedGroup.length = 0;
  groupsStarted = 0;
  groupsFull = 0;
  groupEpoch++;
  rankRange(0, n, 0);
}

function writeResults(nbHits: i32): void {
  const offset = unchecked(params[P_OFFSET]);
  results.length = 0;
  results.push(nbHits);
  // the page: [offset, k) of the ranked records, or of their groups with distinct
  const grouped = distinctLimit > 0 && rankedGroup.length == ranked.length;
  let first = 0;
  while (first < ranked.length && (grouped ? rankedGroup.get(first) : first) < offset) first++;
  let returned = 0;
  for (let i = first; i < ranked.length; i++) if (!grouped || rankedGroup.get(i) >= offset) returned++;
  results.push(returned);
  results.push(wordCount);
  for (let w = 0; w < wordCount; w++) { results.push(wordOffsetStart.get(w)); results.push(wordOffsetEnd.get(w)); }
  for (let i = first; i < ranked.length; i++) {
    if (grouped && rankedGroup.get(i) < offset) continue;
    const position = ranked.get(i);
    const doc = candidates.get(position);
    if (wordCount > 0) scanOnce(position);
    results.push(doc);
    results.push(typosOf(doc));
    results.push(matchedWordsOf(doc));
    results.push(wordCount > 1 ? scannedProximity.get(position) : 0);
    results.push(wordCount > 0 ? scannedAttribute.get(position) >>> POSITION_BITS : 0);
    results.push(wordCount > 0 ? scannedAttribute.get(position) & ((1 << POSITION_BITS) - 1) : 0);
    results.push(wordCount == 0 ? 0 : exactFromScan ? scannedExact.get(position) : exactOf(doc, exactSingle));
    results.push(rankOf(0, doc));
  }
}

/** Reads the query in scratch into words without searching (facet value search matches against them). */
export function prepareQuery(): void {
  prepareWords(scratchBase(), unchecked(params[P_QUERY_LENGTH]));
  results.length = 0;
  results.push(wordCount);
  for (let w = 0; w < wordCount; w++) { results.push(wordOffsetStart.get(w)); results.push(wordOffsetEnd.get(w)); }
  invalidateMarks();
}

/**
 * Word alternatives (plurals, synonyms): scratch at P_ALTERNATIVES holds a
 * count, then per alternative its word index, flags (bit 0: counts as exact,
 * bits 8-9: typos it counts as) and
 * length, then its UTF-16 units padded to 4 bytes. An alternative of several
 * words (a multi-word synonym) matches the records holding all of them.
 */
function matchAlternatives(): void {
  const offset = unchecked(params[P_ALTERNATIVES]);
  if (offset < 0) return;
  let p = scratchBase() + <usize>offset;
  const count = load<i32>(p);
  p += 4;
  for (let a = 0; a < count; a++) {
    const w = load<i32>(p);
    const flags = load<i32>(p + 4);
    const asExact = (flags & 1) != 0;
    const typos = (flags >> 8) & 3;
    const length = load<i32>(p + 8);
    p += 12;
    tokenize(p, length);
    p += (<usize>(length * 2 + 3)) & ~(<usize>3);
    if (w >= wordCount || tokens.count == 0) continue;
    selectMatchWord(w, unchecked(params[P_EXCLUDED_WORDS]));
    if (tokens.count == 1) {
      const term = lookupToken(0);
      if (term >= 0) recordMatch(term, typos, asExact && typos == 0, 0);
      continue;
    }
    const terms = new StaticArray<i32>(tokens.count);
    let known = true;
    for (let t = 0; t < tokens.count; t++) {
      terms[t] = lookupToken(t);
      if (terms[t] < 0) known = false;
    }
    if (known) recordPhraseMatch(terms, asExact);
  }
}

/**
 * The complete words of a query being typed come back at every keystroke:
 * the first words (of several, not excluded) are matched through the word
 * memo while the attribute keys fit its 16 bits.
 */
function isMemoized(w: i32): bool {
  if (wordCount < 2 || w >= wordCount - 1 || w >= MEMO_WORDS || isExcluded(w) || wordLength.get(w) == 0) return false;
  for (let a = 0; a < attributeRank.length; a++) if (attributeRank.get(a) >= 63) return false;
  return true;
}

function matchQueryWord(w: i32): void {
  selectMatchWord(w, unchecked(params[P_EXCLUDED_WORDS]));
  if (!isMemoized(w)) { matchWord(w); return; }
  const from = wordStart.get(w), length = wordLength.get(w), budget = wordMaxTypos.get(w), prefix = wordPrefix.get(w) != 0;
  const known = findSlot(bitmapWords, queryUnits, from, length, budget, prefix);
  if (known) { useSlot(known); return; }
  fillSlot(claimSlot(bitmapWords, queryUnits, from, length, budget, prefix));
  matchWord(w);
  finishSlot();
}

/** Runs the query in scratch (UTF-16 units) with `params`; the answer goes to `results`. */
export function search(): void {
  const queryPtr = scratchBase();
  prepareWords(queryPtr, unchecked(params[P_QUERY_LENGTH]));
  prepareWordsets(wordCount, docCapacity, termCount);
  for (let w = 0; w < wordCount; w++) matchQueryWord(w);
  matchAlternatives();
  for (let w = 0; w < wordCount; w++) accumulateLevels(w);
  distinctLimit = unchecked(params[P_DISTINCT]);
  if (isStaticQuery()) { searchStatic(); return; }
  writeCandidates(filterBitmap(), unchecked(params[P_FILTER_WORDS]));
  const total = candidateCount;
  const typoFree = pageIsTypoFree();
  listCandidates(typoFree, attributeCutWanted(typoFree));
  // a page-sized subset is listed: its steps below change nothing (see pageIsTypoFree, attributeCut)
  const listedAll = candidates.length == total;
  foldCachedKeys(candidates);
  verifyCandidates();
  applyTypoMode();
  const nbHits = listedAll ? countHits() : total;
  rankCandidates(unchecked(params[P_TOP_K]));
  writeResults(nbHits);
}
