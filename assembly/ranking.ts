// Ranking criteria of one candidate record. Typo and exact come from the
// word bitmaps; proximity and attribute from one scan of the record's
// forward list; custom and sort criteria from rank arrays set by JS.
import { IntVec, readVarint, varintEnd } from './buffers';
import { attributeKey, docPtr, docLength, SEGMENT } from './store';
import { MAX_WORDS, wordCount } from './matcher';
import { dropGatheredTokens, gatherMarkedTokens, gatheredAttribute, gatheredPosition, gatheredTerm, nextMarkedToken, placeOrdinal, startPlacing, termIndexToRead } from './record-terms';
import { tokenOrdinal, tokenTerm } from './term-positions';
import { EXACT_SINGLE_NONE, EXACT_SINGLE_WORD } from './params';
import {
  bitmapWords, exactBitmap, levelBitmap, markedBits, markedTerms, matchedBitmap, sortedMarkedTerms, testBit, termFullWords, termWords, termZeroTypoWords, wholeValueBitmap,
} from './wordsets';

export const MAX_PROXIMITY = 8;


/** Rank arrays per slot (0 = customRanking, 1-MAX_SORT_SLOTS = asc/desc entries of `ranking`, then per-query geo and filter scores). */
export const MAX_SORT_SLOTS = 7;
export const GEO_SLOT = 8;
export const FILTERS_SLOT = 9;
/** Per record: its attributeForDistinct group (-1: none). */
export const GROUP_SLOT = 10;
/**
 * Per record: its place by objectID, descending, which orders the records
 * every criterion ties (the service's tie order, docs/COMPATIBILITY.md);
 * while empty, ties come by record id.
 */
export const TIE_SLOT = 11;
export const rankSlots = new Array<IntVec>(12);
for (let i = 0; i < 12; i++) rankSlots[i] = new IntVec();

// Per-attribute rules of the current query, as 64-bit masks over attribute ids
// (ids past 63 always allowed): restrictSearchableAttributes,
// disableTypoToleranceOnAttributes, disablePrefixOnAttributes.
let allowedAttributes: u64 = 0xffffffffffffffff;
let noTypoAttributes: u64 = 0;
let noPrefixAttributes: u64 = 0;
let noExactAttributes: u64 = 0;
export let attributeRulesActive = false;
/** disableExactOnAttributes is set: the exact criterion comes from the scan, not the bitmaps. */
export let exactFromScan = false;

export function setAttributeRules(allowed: u64, noTypo: u64, noPrefix: u64, noExact: u64): void {
  allowedAttributes = allowed;
  noTypoAttributes = noTypo;
  noPrefixAttributes = noPrefix;
  noExactAttributes = noExact;
  attributeRulesActive = allowed != 0xffffffffffffffff || noTypo != 0 || noPrefix != 0;
  exactFromScan = noExact != 0;
}

@inline function inMask(mask: u64, attribute: i32): bool {
  return attribute >= 64 || (mask & (<u64>1 << <u64>attribute)) != 0;
}

/** The query words a matched token counts for in `attribute`, after the per-attribute rules. */
function wordsCounted(term: i32, attribute: i32): i32 {
  let mask = termWords.get(term);
  if (!attributeRulesActive) return mask;
  if (!inMask(allowedAttributes, attribute)) return 0;
  if (attribute < 64 && (noTypoAttributes & (<u64>1 << <u64>attribute)) != 0) mask &= termZeroTypoWords.get(term);
  if (attribute < 64 && (noPrefixAttributes & (<u64>1 << <u64>attribute)) != 0) mask &= termFullWords.get(term);
  return mask;
}

// Word roles of the current query: optional words may be missing, excluded
// words must be, light words count less in the words criterion. Stop words
// (P_STOP_WORDS: optional words removeStopWords keeps for ranking) never
// make a record a candidate alone and count in proximity only: each by its
// distance to its anchor, the next other word of the query (else the
// previous one), 8 when the record lacks it or has it farther; the words,
// attribute and exact criteria leave them out, as the service removes them.
let optionalWords: i32 = 0;
let excludedWords: i32 = 0;
let lightWords: i32 = 0;
export let stopWords: i32 = 0;
export let stopWordCount: i32 = 0;
/** Per stop word, its anchor word (-1: none); per other word, the stop words anchored to it. */
const stopAnchor = new StaticArray<i32>(MAX_WORDS);
const anchoredStops = new StaticArray<i32>(MAX_WORDS);
/** Query words that count for ranking (all but the excluded), and the light ones among them. */
export let rankedWordCount: i32 = 0;
let lightWordCount: i32 = 0;

export function setWordRoles(optional: i32, excluded: i32, light: i32, stop: i32): void {
  optionalWords = optional;
  excludedWords = excluded;
  stopWords = stop & optional & ~excluded;
  lightWords = light & ~excluded & ~stopWords;
  rankedWordCount = 0;
  lightWordCount = 0;
  stopWordCount = 0;
  for (let w = 0; w < wordCount; w++) {
    unchecked(anchoredStops[w] = 0);
    unchecked(stopAnchor[w] = -1);
    if (isExcluded(w)) continue;
    rankedWordCount++;
    if ((lightWords & (1 << w)) != 0) lightWordCount++;
  }
  if (stopWords != 0) anchorStopWords();
  // every candidate matches every ranked word unless some are optional: link them once for the query
  if (optional == 0) linkWords(-1);
}

/** Gives each stop word its anchor: the next ranked word that is no stop word, else the previous one. */
function anchorStopWords(): void {
  for (let w = 0; w < wordCount; w++) {
    if (!isStop(w)) continue;
    stopWordCount++;
    let anchor = -1;
    for (let a = w + 1; a < wordCount && anchor < 0; a++) if (!isExcluded(a) && !isStop(a)) anchor = a;
    for (let a = w - 1; a >= 0 && anchor < 0; a--) if (!isExcluded(a) && !isStop(a)) anchor = a;
    unchecked(stopAnchor[w] = anchor);
    if (anchor >= 0) unchecked(anchoredStops[anchor] |= 1 << w);
  }
}
@inline export function isOptional(w: i32): bool { return (optionalWords & (1 << w)) != 0; }
@inline export function isExcluded(w: i32): bool { return (excludedWords & (1 << w)) != 0; }
@inline export function isStop(w: i32): bool { return (stopWords & (1 << w)) != 0; }
/** Words the words, attribute and exact criteria leave out: the excluded and the stop words. */
@inline export function isUncounted(w: i32): bool { return ((excludedWords | stopWords) & (1 << w)) != 0; }

export function matchedWordsOf(doc: i32): i32 {
  let total = 0;
  for (let w = 0; w < wordCount; w++) if (!isUncounted(w) && testBit(matchedBitmap(w), doc)) total++;
  return total;
}

/**
 * The words criterion's key (lower first): the ranked words `doc` misses,
 * a light word (a stop word once words are relaxed: P_LIGHT_WORDS) weighing
 * less than any other, so that a record matching one more content word
 * ranks first whatever stop words it matches ("skiathos the": Skiathos's
 * airport before the ones named "The ..."). Without light words, the
 * number of words missed.
 */
export function wordsKeyOf(doc: i32): i32 {
  let heavyMissed = 0, lightMissed = 0;
  for (let w = 0; w < wordCount; w++) {
    if (isUncounted(w) || testBit(matchedBitmap(w), doc)) continue;
    if ((lightWords & (1 << w)) != 0) lightMissed++; else heavyMissed++;
  }
  return heavyMissed * (lightWordCount + 1) + lightMissed;
}

export function rankOf(slot: i32, doc: i32): i32 {
  const ranks = unchecked(rankSlots[slot]);
  return doc < ranks.length ? ranks.get(doc) : 0;
}

export function typosOf(doc: i32): i32 {
  let total: u32 = 0;
  for (let w = 0; w < wordCount; w++) if (!isExcluded(w)) total += typosIn(levelBitmap(w, 0), doc);
  return <i32>total;
}

/**
 * The typos of a word's match in `doc`, from the word's level bitmaps
 * (`levels`: level 0; the others follow, `bitmapWords` words apart). The
 * levels are cumulative (level t: at most t typos), so a matched record is
 * in level 3 and in as many of levels 0-2 as it has typos fewer than 3; an
 * unmatched one (an optional word) is in none and counts 0. No branch:
 * candidates mix typo counts.
 */
@inline export function typosIn(levels: usize, doc: i32): u32 {
  const word = levels + (<usize>(doc >> 5) << 2);
  const stride = <usize>bitmapWords << 2;
  const bit = <u32>(doc & 31);
  const l0 = (load<u32>(word) >> bit) & 1;
  const l1 = (load<u32>(word + stride) >> bit) & 1;
  const l2 = (load<u32>(word + stride * 2) >> bit) & 1;
  const l3 = (load<u32>(word + stride * 3) >> bit) & 1;
  return l3 * 3 - l0 - l1 - l2;
}

export function exactWordsOf(doc: i32): i32 {
  let total = 0;
  for (let w = 0; w < wordCount; w++) if (!isUncounted(w) && testBit(exactBitmap(w), doc)) total++;
  return total;
}

// --- results of `scanRecord`
export let proximity: i32 = 0;
/** Best attribute key of the matched tokens (see store.ts attributeKey). */
export let bestAttribute: u32 = 0;

const lastAttribute = new StaticArray<i32>(MAX_WORDS);
const lastPosition = new StaticArray<i32>(MAX_WORDS);
/** Per word: the distance to the next word the record matches (indexed by the pair's first word). */
const pairDistance = new StaticArray<i32>(MAX_WORDS);
/**
 * Per word the record matches, the matched word before and after it in the
 * query (-1: none). Proximity counts consecutive *matched* words
 * (compatibility.md, ranking): an optional word the record lacks, or an
 * excluded word, does not break the chain ("barbara and block" on "barbara
 * block" is one pair at distance 1, not two pairs at 8).
 */
const previousMatched = new StaticArray<i32>(MAX_WORDS);
const nextMatched = new StaticArray<i32>(MAX_WORDS);
/** Pairs of consecutive matched words in the record being scanned. */
let matchedPairs: i32 = 0;

/**
 * Links the ranked words record `doc` matches, in query order (see
 * previousMatched); with `doc` -1, every ranked word (no optional word: a
 * candidate matches them all), once per query instead of once per record.
 */
function linkWords(doc: i32): void {
  let last = -1;
  matchedPairs = 0;
  for (let w = 0; w < wordCount; w++) {
    unchecked(previousMatched[w] = -1);
    unchecked(nextMatched[w] = -1);
    if (isExcluded(w) || (doc >= 0 && !testBit(matchedBitmap(w), doc))) continue;
    if (isStop(w)) {
      // a stop word is no link of the chain: one pair with its anchor, when the record has both
      const anchor = unchecked(stopAnchor[w]);
      if (anchor >= 0 && testBit(matchedBitmap(anchor), doc)) matchedPairs++;
      continue;
    }
    unchecked(previousMatched[w] = last);
    if (last >= 0) { unchecked(nextMatched[last] = w); matchedPairs++; }
    last = w;
  }
}

/**
 * The smallest proximity of a record matching `matched` ranked words (stop
 * words aside): each pair at minProximity, each stop word next to its anchor.
 */
export function bestProximityOf(matched: i32, minProximity: i32): i32 {
  const best = minProximity < MAX_PROXIMITY ? minProximity : MAX_PROXIMITY;
  return (matched < 2 ? 0 : (matched - 1) * best) + stopWordCount * best;
}

/** Words matched by the last scan (after the per-attribute rules), and those matched exactly outside disableExactOnAttributes. */
export let scannedWords: i32 = 0;
export let scannedExactWords: i32 = 0;

/**
 * Reads the record's matched tokens once for proximity and attribute: from
 * its term index when it is long and the query marks few terms, else its
 * whole forward list. Single-word queries stop at the first matched token:
 * segments come in rank order.
 */
export function scanRecord(doc: i32, minProximity: i32, complete: bool = false): void {
  beginScan(doc, complete);
  if (!readIndexedTokens(doc, minProximity)) readTokens(doc, minProximity);
  endScan();
}

/**
 * scanRecord of a long record whose marked tokens the position lists gave
 * (term-positions.ts): the `count` tokens whose ids are at `tokens` (u32
 * each), in the list's order; `index` the record's term index, whose
 * segments place them. The same tokens as its index gives, the same notes.
 */
export function scanGatheredRecord(doc: i32, index: usize, tokens: usize, count: i32, minProximity: i32): void {
  beginScan(doc, false);
  startPlacing(index);
  for (let k = 0; k < count; k++) {
    const token = load<i32>(tokens + (<usize>k << 2));
    placeOrdinal(tokenOrdinal(token));
    if (matchToken(tokenTerm(token), gatheredAttribute, gatheredPosition, minProximity)) break;
  }
  endScan();
}

function beginScan(doc: i32, complete: bool): void {
  for (let w = 0; w < wordCount; w++) {
    unchecked(lastAttribute[w] = -1);
    unchecked(pairDistance[w] = MAX_PROXIMITY + 1);
  }
  if (optionalWords != 0) linkWords(doc);
  pairsAtBest = 0;
  bestAttribute = 0xffffffff;
  scannedWords = 0;
  scannedExactWords = 0;
  stopAtFirst = rankedWordCount == 1 && !complete && !attributeRulesActive && !exactFromScan;
  stopWhenAdjacent = !complete && !attributeRulesActive && !exactFromScan;
}

/** The proximity of the pairs the scan noted. */
function endScan(): void {
  proximity = 0;
  for (let w = 0; w < wordCount; w++) {
    if (unchecked(nextMatched[w]) < 0 && !isStop(w)) continue;
    const d = unchecked(pairDistance[w]);
    proximity += d > MAX_PROXIMITY ? MAX_PROXIMITY : d;
  }
}

/**
 * Whether the scan may stop at the first matched token (the first holds the
 * best attribute: segments come in rank order), or once every pair is as
 * close as it can be (nothing later can improve).
 */
let stopAtFirst = false;
let stopWhenAdjacent = false;

/** Notes a token of marked term `term`; true when the scan can stop. */
@inline function matchToken(term: i32, attribute: i32, position: i32, minProximity: i32): bool {
  const mask = wordsCounted(term, attribute);
  if (mask == 0) return false;
  scannedWords |= mask;
  if (exactFromScan && !(attribute < 64 && (noExactAttributes & (<u64>1 << <u64>attribute)) != 0)) {
    scannedExactWords |= mask & ~stopWords & termFullWords.get(term) & termZeroTypoWords.get(term);
  }
  noteMatch(attribute, position, mask, minProximity);
  return stopAtFirst || (stopWhenAdjacent && pairsAtBest >= matchedPairs);
}

/**
 * Reads the marked terms' tokens of record `doc` from its term index
 * (record-terms.ts), in the list's order; false when it has none or
 * reading the list costs less.
 */
function readIndexedTokens(doc: i32, minProximity: i32): bool {
  const index = termIndexToRead(doc, markedTerms.length);
  if (index == 0) return false;
  const marks = sortedMarkedTerms();
  if (!gatherMarkedTokens(index, marks.ptr, marks.length)) return false;
  while (nextMarkedToken()) {
    if (matchToken(gatheredTerm, gatheredAttribute, gatheredPosition, minProximity)) {
      dropGatheredTokens();
      break;
    }
  }
  return true;
}

/** Reads record `doc`'s forward list token by token. */
function readTokens(doc: i32, minProximity: i32): void {
  let p = <usize>docPtr.get(doc);
  const end = p + <usize>docLength.get(doc);
  let attribute = -1;
  let position = 0;
  const marked = markedBits.ptr;
  while (p < end) {
    // inline varint decoding: this loop is the hot path of multi-word ranking.
    // Up to three bytes come from one load, with no branch on how many:
    // term ids of one and two bytes mix in every record, and the branch on
    // their length cost more than this arithmetic (broad queries -2 to -6%).
    // A list's last three bytes, and ids of four bytes (two million terms
    // on), go byte by byte.
    const x = p + 4 <= end ? load<u32>(p) : 0x80808080;
    const second = (x >> 7) & 1;
    const third = second & (x >> 15);
    let v: u32;
    if ((third & (x >> 23)) == 0) {
      v = (x & 0x7f) | ((x >> 1) & 0x3f80 & (0 - second)) | ((x >> 2) & 0x1fc000 & (0 - third));
      p += 1 + second + third;
    } else {
      v = <u32>load<u8>(p++);
      if (v >= 0x80) {
        v &= 0x7f;
        let shift: u32 = 7;
        let b: u32;
        do { b = <u32>load<u8>(p++); v |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
      }
    }
    if (v == SEGMENT) {
      attribute = <i32>readVarint(p); p = varintEnd;
      position = <i32>readVarint(p); p = varintEnd;
      continue;
    }
    const term = <i32>v - 1;
    if (testBit(marked, term) && matchToken(term, attribute, position, minProximity)) break;
    position++;
  }
}

/** Words matched exactly; single-word queries follow exactOnSingleWordQuery (0 attribute, 1 none, 2 word). */
export function exactOf(doc: i32, exactSingle: i32): i32 {
  if (rankedWordCount != 1 || exactSingle == EXACT_SINGLE_WORD) return exactWordsOf(doc);
  if (exactSingle == EXACT_SINGLE_NONE) return 0;
  return testBit(wholeValueBitmap(), doc) ? 1 : 0;
}

function noteMatch(attribute: i32, position: i32, mask: i32, minProximity: i32): void {
  const key = attributeKey(attribute, position);
  if (key < bestAttribute && (mask & ~stopWords) != 0) bestAttribute = key;
  for (let w = 0; w < wordCount; w++) {
    if ((mask & (1 << w)) == 0) continue;
    if (stopWords != 0) noteStopPairs(w, attribute, position, minProximity);
    if (isStop(w)) {
      unchecked(lastAttribute[w] = attribute);
      unchecked(lastPosition[w] = position);
      continue;
    }
    const before = unchecked(previousMatched[w]);
    if (before >= 0 && unchecked(lastAttribute[before]) == attribute) {
      notePair(before, position - unchecked(lastPosition[before]), minProximity);
    }
    const after = unchecked(nextMatched[w]);
    if (after >= 0 && unchecked(lastAttribute[after]) == attribute) {
      notePair(w, position - unchecked(lastPosition[after]) + 1, minProximity);
    }
    unchecked(lastAttribute[w] = attribute);
    unchecked(lastPosition[w] = position);
  }
}

/**
 * The pairs of stop words with their anchors that word `w`, met at
 * `position`, closes: a stop word with its anchor met before in the same
 * attribute, or the anchor with its stop words; out of query order costs
 * one more, as for the other pairs.
 */
function noteStopPairs(w: i32, attribute: i32, position: i32, minProximity: i32): void {
  if (isStop(w)) {
    const anchor = unchecked(stopAnchor[w]);
    if (anchor >= 0 && unchecked(lastAttribute[anchor]) == attribute) {
      notePair(w, position - unchecked(lastPosition[anchor]) + (anchor > w ? 1 : 0), minProximity);
    }
    return;
  }
  let stops = unchecked(anchoredStops[w]);
  while (stops != 0) {
    const s = ctz(stops);
    stops &= stops - 1;
    if (unchecked(lastAttribute[s]) == attribute) notePair(s, position - unchecked(lastPosition[s]) + (s > w ? 1 : 0), minProximity);
  }
}

/** True when the last scan found word w and the next matched word adjacent and in order. */
export function isAdjacentPair(w: i32): bool { return unchecked(pairDistance[w]) == 1; }

/** Pairs of consecutive matched words already at minProximity. */
let pairsAtBest: i32 = 0;

@inline function notePair(pair: i32, distance: i32, minProximity: i32): void {
  let d = distance < minProximity ? minProximity : distance;
  if (d > MAX_PROXIMITY) d = MAX_PROXIMITY;
  const previous = unchecked(pairDistance[pair]);
  if (d >= previous) return;
  unchecked(pairDistance[pair] = d);
  if (d == minProximity) pairsAtBest++;
}
