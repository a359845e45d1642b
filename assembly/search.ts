// One search, the pipeline: tokenize the query, match each word against the
// dictionary into bitmaps (wordsets.ts; the first words of a query being
// typed through word-memo.ts), AND them into the candidates (candidates.ts),
// list them (only a page-sized part when the first deciding criterion
// allows it), check what needs the records themselves, and rank the
// requested page (bucket-sort.ts).
import { IntVec, results, scratchBase } from './buffers';
import { tokenize, tokens } from './text';
import { lookupToken, termCount } from './dictionary';
import { docCapacity, liveBits, POSITION_BITS, attributeRank } from './store';
import {
  MAX_WORDS, matchWord, queryUnits, setWordCount, wordCount, wordLength, wordMaxTypos, wordPrefix, wordStart,
} from './matcher';
import {
  abandonSlot, accumulateLevels, bitmapWords, candidateBitmap, matchDeferred, matchedBitmap, fillSlot, finishSlot, invalidateMarks, marksCompleted, prepareWordsets, recordMatch, recordPhraseMatch, selectMatchWord, testBit, typoFreeBitmap, useSlot,
} from './wordsets';
import { endQuery } from './written-bitmaps';
import { matchSplitsAndConcatenations } from './split-words';
import {
  attributeRulesActive, exactFromScan, exactOf, isAdjacentPair, isExcluded, isStop, matchedWordsOf, rankOf, scanRecord, scannedWords, setAttributeRules, setWordRoles, stopWords, typosOf,
} from './ranking';
import {
  ALL_CANDIDATES, ONE_TYPO_AT_MOST, TYPO_FREE, anyOfWords, bucketCount, candidateCount, candidates, listCandidates, oneTypoCount, requiredWords, typoFreeCount, typoTiedIn, writeBoundedCandidates, writeCandidates,
} from './candidates';
import {
  countGroupsIn, countHits, criteriaCount, distinctLimit, emitInOrder, isConstant, prepareCriteria, rankCandidates, ranked, rankedGroup, scanOnce, scannedAttribute, scannedExact, scannedProximity, setDistinctLimit, startRanking,
} from './bucket-sort';
import { MEMO_WORDS, claimSlot, findSlot, metBefore } from './word-memo';
import { arm as armBound, disarm as disarmBound, knownCandidates, orSkippedInto, skippedRecords } from './bounded-match';
import {
  C_ATTRIBUTE, C_TYPO, P_BOUND_LAST_WORD, QUERY_TYPE_PREFIX_ALL, QUERY_TYPE_PREFIX_LAST, TYPO_MODE_MIN, TYPO_MODE_OFF, P_ALLOWED_ATTRIBUTES, P_ALTERNATIVES, P_CRITERIA, P_CRITERIA_COUNT, P_DISTINCT, P_EXACT_SINGLE, P_EXCLUDED_WORDS, P_FILTER, P_FILTER_SCORES_ACTIVE, P_FILTER_WORDS, P_GEO_ACTIVE, P_LIGHT_WORDS, P_MIN_1_TYPO, P_MIN_2_TYPOS, P_NO_EXACT_ATTRIBUTES, P_NO_PREFIX_ATTRIBUTES, P_NO_PREFIX_WORDS, P_NO_TYPO_ATTRIBUTES, P_NO_TYPO_WORDS, P_OFFSET, P_OPTIONAL_WORDS, P_PHRASE_PAIRS, P_QUERY_LENGTH, P_RAISED_TYPO_WORDS, P_QUERY_TYPE, P_STOP_WORDS, P_TOP_K, P_TYPOS_ON_NUMBERS, P_TYPO_MODE, mask64, params,
} from './params';

/** Words shorter than this never get a raised budget (P_RAISED_TYPO_WORDS): one typo would make them any short word. */
const SHORTEST_RAISED_WORD = 3;

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
    if ((unchecked(params[P_RAISED_TYPO_WORDS]) & bit) != 0 && len >= SHORTEST_RAISED_WORD && budget < 2) budget++;
    if (typoMode == TYPO_MODE_OFF || exactOnly || (unchecked(params[P_NO_TYPO_WORDS]) & bit) != 0) budget = 0;
    if (tokens.numeric.get(w) != 0 && unchecked(params[P_TYPOS_ON_NUMBERS]) == 0) budget = 0;
    wordMaxTypos.set(w, budget);
    const prefix = queryType == QUERY_TYPE_PREFIX_ALL || (queryType == QUERY_TYPE_PREFIX_LAST && w == n - 1);
    wordPrefix.set(w, prefix && !exactOnly && (unchecked(params[P_NO_PREFIX_WORDS]) & bit) == 0 ? 1 : 0);
  }
  setWordRoles(
    unchecked(params[P_OPTIONAL_WORDS]), unchecked(params[P_EXCLUDED_WORDS]), unchecked(params[P_LIGHT_WORDS]), unchecked(params[P_STOP_WORDS]),
  );
  setAttributeRules(
    mask64(P_ALLOWED_ATTRIBUTES), mask64(P_NO_TYPO_ATTRIBUTES), mask64(P_NO_PREFIX_ATTRIBUTES), mask64(P_NO_EXACT_ATTRIBUTES),
  );
}

/**
 * Writes the query's candidates, through its filter bitmap in scratch
 * (padded to whole vectors) when it has one, within the bounded word's
 * known candidates when it has some.
 */
function writeQueryCandidates(): void {
  if (boundedWord >= 0 && knownCandidates() != 0) { writeBoundedCandidates(boundedWord); return; }
  const offset = unchecked(params[P_FILTER]);
  writeCandidates(offset >= 0 ? scratchBase() + <usize>offset : 0, unchecked(params[P_FILTER_WORDS]));
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
  prepareCriteria();
  for (let c = 0; c < criteriaCount; c++) {
    const code = unchecked(params[P_CRITERIA + c]);
    if (!isConstant(c) && !(typoTied && code == C_TYPO)) return code;
  }
  return -1;
}

/**
 * The candidates the page lies among (see ALL_CANDIDATES): when typo is the
 * first criterion that can tell records apart and no later step (record
 * checks, typo modes, distinct) changes the candidates, the fewest-typo
 * bucket holding a page. Ranking then lists only those.
 */
function pageBucket(): i32 {
  if (!mayListPart() || firstDecidingCriterion(false) != C_TYPO) return ALL_CANDIDATES;
  const wanted = unchecked(params[P_TOP_K]);
  if (typoFreeCount >= wanted) return TYPO_FREE;
  return oneTypoCount >= wanted ? ONE_TYPO_AT_MOST : ALL_CANDIDATES;
}

/**
 * The page size when only the candidates with the best attribute keys need
 * listing (see listCandidates): many candidates in `bucket`, ranked first by
 * attribute (typo ties them or is not asked), nothing after listing changes
 * them; else 0.
 */
function attributeCutWanted(bucket: i32): i32 {
  const wanted = unchecked(params[P_TOP_K]);
  const count = bucketCount(bucket);
  if (count < 4096 || wanted * 4 > count || !mayListPart() || firstDecidingCriterion(typoTiedIn(bucket)) != C_ATTRIBUTE) return 0;
  return wanted;
}

// --- empty queries: every text criterion ties, so the order is the static
// one (custom ranking, asc/desc), computed once after writes and walked.
const staticOrder = new IntVec();
const staticCriteria = new IntVec();
let staticOrderValid = false;

export function invalidateStaticOrder(): void { staticOrderValid = false; }

function isStaticQuery(): bool {
  return wordCount == 0 && unchecked(params[P_GEO_ACTIVE]) == 0 && unchecked(params[P_FILTER_SCORES_ACTIVE]) == 0;
}

function sameStaticCriteria(): bool {
  const n = unchecked(params[P_CRITERIA_COUNT]);
  if (staticCriteria.length != n) return false;
  for (let c = 0; c < n; c++) if (staticCriteria.get(c) != unchecked(params[P_CRITERIA + c])) return false;
  return true;
}

/** Per record id, its position in staticOrder (i32.MAX_VALUE: not in it). */
const staticRank = new IntVec();

/** Sorts every live record by the criteria once; later empty queries reuse the order. */
function buildStaticOrder(): void {
  candidates.length = 0;
  for (let i = 0; i < liveBits.length; i++) {
    let bits = <u32>liveBits.get(i);
    while (bits != 0) { candidates.push((i << 5) + <i32>ctz(bits)); bits &= bits - 1; }
  }
  setDistinctLimit(0);
  rankCandidates(candidates.length);
  staticOrder.resetZero(ranked.length);
  for (let i = 0; i < ranked.length; i++) staticOrder.set(i, candidates.get(ranked.get(i)));
  staticRank.resetZero(liveBits.length << 5);
  memory.fill(staticRank.ptr, 0xff, <usize>staticRank.length << 2);
  for (let i = 0; i < staticOrder.length; i++) staticRank.set(staticOrder.get(i), i);
  const n = unchecked(params[P_CRITERIA_COUNT]);
  staticCriteria.resetZero(n);
  for (let c = 0; c < n; c++) staticCriteria.set(c, unchecked(params[P_CRITERIA + c]));
  staticOrderValid = true;
}

/**
 * The page of an empty query: the static order filtered by the candidate
 * bitmap, walked until the page is full; or, when few records pass (a
 * filter, a recommend model's candidates), those records sorted by their
 * place in the static order: a walk finds k of c candidates after about
 * n·k/c steps, all n of them when fewer than k pass. With distinct, k
 * counts groups and the walk goes further than that estimate (to the end
 * when a group of the page holds fewer candidates than distinct allows,
 * as it cannot be known full before): the choice may then walk where a
 * sort would have been cheaper, never answer otherwise.
 */
function searchStatic(): void {
  if (!staticOrderValid || !sameStaticCriteria()) buildStaticOrder();
  // the static order is every record's, distinct or not; the page applies this query's
  setDistinctLimit(unchecked(params[P_DISTINCT]));
  candidates.length = 0;
  writeQueryCandidates();
  const count = candidateCount;
  const nbHits = distinctLimit > 0 ? countGroupsIn(candidateBitmap(), bitmapWords) : count;
  const k = unchecked(params[P_TOP_K]);
  startRanking(k);
  if (count > 0 && k > 0) {
    if (sortingIsCheaper(count, k)) rankFewStatic(count);
    else walkStaticOrder();
  }
  writeResults(nbHits);
}

function sortingIsCheaper(count: i32, k: i32): bool {
  const n = <f64>staticOrder.length;
  const walk = Math.min(n, n * <f64>k / <f64>count);
  const sort = <f64>bitmapWords + <f64>count * (Math.log2(<f64>count) + 1) * 4;
  return sort < walk;
}

function walkStaticOrder(): void {
  const bitmap = candidateBitmap();
  for (let i = 0; i < staticOrder.length; i++) {
    const doc = staticOrder.get(i);
    if (!testBit(bitmap, doc)) continue;
    candidates.push(doc);
    if (!emitInOrder(candidates.length - 1, doc)) return;
  }
}

/** The `count` candidates of the bitmap by static rank, each keyed (rank, id), heap-sorted, ranked in that order until the page is full. */
function rankFewStatic(count: i32): void {
  const bitmap = candidateBitmap();
  const keys = heap.alloc(<usize>count << 3);
  let m = 0;
  for (let w = 0; w < bitmapWords; w++) {
    let bits = load<u32>(bitmap + (<usize>w << 2));
    while (bits != 0 && m < count) {
      const doc = (w << 5) + <i32>ctz(bits);
      const rank = doc < staticRank.length ? <u32>staticRank.get(doc) : <u32>0xffffffff;
      store<u64>(keys + (<usize>m << 3), (<u64>rank << 32) | <u64><u32>doc);
      m++;
      bits &= bits - 1;
    }
  }
  heapSortU64(keys, m);
  for (let i = 0; i < m; i++) {
    const doc = <i32>(load<u64>(keys + (<usize>i << 3)) & 0xffffffff);
    candidates.push(doc);
    if (!emitInOrder(i, doc)) break;
  }
  heap.free(keys);
}

/** Sorts `count` u64 at `at` ascending, in place. */
function heapSortU64(at: usize, count: i32): void {
  for (let i = (count >> 1) - 1; i >= 0; i--) siftDown(at, i, count);
  for (let end = count - 1; end > 0; end--) {
    const top = load<u64>(at);
    store<u64>(at, load<u64>(at + (<usize>end << 3)));
    store<u64>(at + (<usize>end << 3), top);
    siftDown(at, 0, end);
  }
}

function siftDown(at: usize, from: i32, count: i32): void {
  let i = from;
  const value = load<u64>(at + (<usize>i << 3));
  while (true) {
    let child = (i << 1) + 1;
    if (child >= count) break;
    if (child + 1 < count && load<u64>(at + (<usize>(child + 1) << 3)) > load<u64>(at + (<usize>child << 3))) child++;
    const c = load<u64>(at + (<usize>child << 3));
    if (c <= value) break;
    store<u64>(at + (<usize>i << 3), c);
    i = child;
  }
  store<u64>(at + (<usize>i << 3), value);
}

/** Keeps the candidates allowed by typoTolerance min (lowest typo count) or strict (two lowest). */
function applyTypoMode(): void {
  const mode = unchecked(params[P_TYPO_MODE]);
  if (mode < TYPO_MODE_MIN || candidates.length == 0) return;
  let lowest = 0x7fffffff, second = 0x7fffffff;
  for (let i = 0; i < candidates.length; i++) {
    const t = typosOf(candidates.get(i));
    if (t < lowest) { second = lowest; lowest = t; } else if (t > lowest && t < second) second = t;
  }
  const limit = mode == TYPO_MODE_MIN ? lowest : second;
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
    results.push(wordCount == 0 ? 0 : exactFromScan ? scannedExact.get(position) : exactOf(doc, unchecked(params[P_EXACT_SINGLE])));
    results.push(rankOf(0, doc));
  }
}

/**
 * The ranked words of the last search that match no live record (bit w =
 * word w), through a typo, a prefix or an alternative included: the words
 * a query with no hits may retry with a raised budget before dropping them.
 */
export function unmatchedWords(): i32 {
  let mask = 0;
  for (let w = 0; w < wordCount; w++) {
    if (isExcluded(w) || matchesLive(matchedBitmap(w))) continue;
    // a bounded word's bitmaps hold the candidates' matches only: its terms may match records beyond them
    if (w == boundedWord && skippedRecords()) {
      orSkippedInto(typoFreeBitmap(), bitmapWords);
      if (matchesLive(typoFreeBitmap())) continue;
    }
    mask |= 1 << w;
  }
  return mask;
}

function matchesLive(bitmap: usize): bool {
  const live = liveBits.ptr;
  const n = liveBits.length < bitmapWords ? liveBits.length : bitmapWords;
  for (let i = 0; i < n; i++) if ((load<u32>(bitmap + (<usize>i << 2)) & load<u32>(live + (<usize>i << 2))) != 0) return true;
  return false;
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
    selectMatchWord(w, unchecked(params[P_EXCLUDED_WORDS]), unkeyedWords());
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
 * memo while the attribute keys fit its 16 bits, from their second sight on.
 */
function isMemoized(w: i32): bool {
  if (wordCount < 2 || w >= wordCount - 1 || w >= MEMO_WORDS || isExcluded(w) || isStop(w) || wordLength.get(w) == 0) return false;
  for (let a = 0; a < attributeRank.length; a++) if (attributeRank.get(a) >= 63) return false;
  return true;
}

/**
 * The query's last word has just been started (one letter): someone is
 * typing it, and the next keystroke comes back with the words before it, so
 * they are worth a memo slot at first sight (see metBefore).
 */
function typingNextWord(): bool { return wordLength.get(wordCount - 1) <= 1; }

/** The words whose matches never feed the attribute keys: the excluded and the stop words (see ranking.ts). */
function unkeyedWords(): i32 { return unchecked(params[P_EXCLUDED_WORDS]) | stopWords; }

function matchQueryWord(w: i32): void {
  selectMatchWord(w, unchecked(params[P_EXCLUDED_WORDS]), unkeyedWords());
  if (!isMemoized(w)) { matchWord(w); return; }
  const from = wordStart.get(w), length = wordLength.get(w), budget = wordMaxTypos.get(w), prefix = wordPrefix.get(w) != 0;
  const known = findSlot(queryUnits, from, length, budget, prefix);
  if (known) { useSlot(known); return; }
  if (!typingNextWord() && !metBefore(queryUnits, from, length, budget, prefix)) { matchWord(w); return; }
  fillSlot(claimSlot(queryUnits, from, length, budget, prefix));
  matchWord(w);
  finishSlot();
}

/**
 * The last word, bounded by the other words' candidates (see
 * bounded-match.ts) when every word is required: no optional, excluded or
 * stop word, so the query's candidates are within theirs.
 */
function matchLastWord(w: i32): void {
  const bounded = w > 0 && unchecked(params[P_BOUND_LAST_WORD]) != 0 && unchecked(params[P_OPTIONAL_WORDS]) == 0 && unchecked(params[P_EXCLUDED_WORDS]) == 0 && stopWords == 0;
  if (bounded) {
    const offset = unchecked(params[P_FILTER]);
    armBound(w, candidateBitmap(), bitmapWords, offset >= 0 ? scratchBase() + <usize>offset : 0, unchecked(params[P_FILTER_WORDS]), termCount);
  }
  matchQueryWord(w);
  if (!bounded) return;
  disarmBound();
  matchDeferred(w);
  boundedWord = w;
}

/** The word whose bitmaps hold only the candidates' matches of its terms deferred or decoded within them (-1: none), see unmatchedWords. */
let boundedWord = -1;

/** Runs the query in scratch (UTF-16 units) with `params`; the answer goes to `results`. */
export function search(): void {
  // a query the core aborted may have left its last word bounded, a memo slot filling, and bits it never noted (see endQuery)
  disarmBound();
  abandonSlot();
  runQuery();
  endQuery();
}

function runQuery(): void {
  boundedWord = -1;
  const queryPtr = scratchBase();
  prepareWords(queryPtr, unchecked(params[P_QUERY_LENGTH]));
  prepareWordsets(wordCount, docCapacity, termCount);
  // the last word after every other match (its alternatives' included): it may be bounded by their candidates
  for (let w = 0; w < wordCount - 1; w++) matchQueryWord(w);
  matchAlternatives();
  matchSplitsAndConcatenations(unchecked(params[P_EXCLUDED_WORDS]), unkeyedWords());
  if (wordCount > 0) matchLastWord(wordCount - 1);
  marksCompleted();
  for (let w = 0; w < wordCount; w++) accumulateLevels(w);
  setDistinctLimit(unchecked(params[P_DISTINCT]));
  if (isStaticQuery()) { searchStatic(); return; }
  writeQueryCandidates();
  const total = candidateCount;
  const bucket = pageBucket();
  listCandidates(bucket, attributeCutWanted(bucket));
  // a page-sized subset is listed: its steps below change nothing (see pageBucket, attributeCut)
  const listedAll = candidates.length == total;
  verifyCandidates();
  applyTypoMode();
  const nbHits = listedAll ? countHits() : total;
  rankCandidates(unchecked(params[P_TOP_K]));
  writeResults(nbHits);
}
