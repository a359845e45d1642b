// Ranking criteria of one candidate record. Typo and exact come from the
// word bitmaps; proximity and attribute from one scan of the record's
// forward list; custom and sort criteria from rank arrays set by JS.
import { IntVec, readVarint, varintEnd } from './buffers';
import { docPtr, docLength, SEGMENT } from './store';
import { MAX_WORDS, wordCount } from './matcher';
import { exactBitmap, levelBitmap, testBit, isTermMatched, termWords } from './wordsets';

export const MAX_PROXIMITY = 8;

/** Per searchable attribute id: its rank and 1 when declared unordered(). */
export const attributeRank = new IntVec();
export const attributeUnordered = new IntVec();

/** Rank arrays per slot (slot 0 = customRanking), indexed by record id; lower ranks first. */
export const rankSlots = new Array<IntVec>(8);
for (let i = 0; i < 8; i++) rankSlots[i] = new IntVec();

export function rankOf(slot: i32, doc: i32): i32 {
  const ranks = unchecked(rankSlots[slot]);
  return doc < ranks.length ? ranks.get(doc) : 0;
}

export function typosOf(doc: i32): i32 {
  let total = 0;
  for (let w = 0; w < wordCount; w++) {
    if (testBit(levelBitmap(w, 0), doc)) continue;
    total += testBit(levelBitmap(w, 1), doc) ? 1 : 2;
  }
  return total;
}

export function exactWordsOf(doc: i32): i32 {
  let total = 0;
  for (let w = 0; w < wordCount; w++) if (testBit(exactBitmap(w), doc)) total++;
  return total;
}

// --- results of `scanRecord`
export let proximity: i32 = 0;
export let bestAttributeRank: i32 = 0;
export let bestAttributePosition: i32 = 0;
/** 1 when some attribute value is exactly the single query word. */
export let wholeAttributeExact: i32 = 0;

const lastAttribute = new StaticArray<i32>(MAX_WORDS);
const lastPosition = new StaticArray<i32>(MAX_WORDS);
const pairDistance = new StaticArray<i32>(MAX_WORDS);

/**
 * Reads the record's tokens once. `stopAtFirst` ends the scan at the first
 * matched token, enough for single-word queries (segments come in rank order).
 */
export function scanRecord(doc: i32, minProximity: i32, stopAtFirst: bool, wantWholeAttribute: bool): void {
  for (let w = 0; w < wordCount; w++) {
    unchecked(lastAttribute[w] = -1);
    unchecked(pairDistance[w] = MAX_PROXIMITY);
  }
  bestAttributeRank = 0x7fffffff;
  bestAttributePosition = 0x7fffffff;
  wholeAttributeExact = 0;
  let p = <usize>docPtr.get(doc);
  const end = p + <usize>docLength.get(doc);
  let attribute = -1;
  let position = 0;
  let segmentTokens = 0;
  let segmentExactSingle = false;
  while (p < end) {
    const v = readVarint(p);
    p = varintEnd;
    if (v == SEGMENT) {
      if (wantWholeAttribute && segmentTokens == 1 && segmentExactSingle) wholeAttributeExact = 1;
      attribute = <i32>readVarint(p); p = varintEnd;
      position = <i32>readVarint(p); p = varintEnd;
      segmentTokens = 0;
      segmentExactSingle = false;
      continue;
    }
    const term = <i32>v - 1;
    segmentTokens++;
    if (isTermMatched(term)) {
      const mask = termWords.get(term);
      if (segmentTokens == 1 && wantWholeAttribute) segmentExactSingle = isExactTerm(term);
      noteMatch(attribute, position, mask, minProximity);
      if (stopAtFirst && !wantWholeAttribute) break;
    }
    position++;
  }
  if (wantWholeAttribute && segmentTokens == 1 && segmentExactSingle) wholeAttributeExact = 1;
  proximity = 0;
  for (let w = 0; w + 1 < wordCount; w++) proximity += unchecked(pairDistance[w]);
}

/** Exact terms of the single-word query, recorded by the search before the scans. */
export let exactTerm: i32 = -1;
export function setExactTerm(term: i32): void { exactTerm = term; }
@inline function isExactTerm(term: i32): bool { return term == exactTerm; }

function noteMatch(attribute: i32, position: i32, mask: i32, minProximity: i32): void {
  const rank = attributeRank.get(attribute);
  const rankedPosition = attributeUnordered.get(attribute) != 0 ? 0 : position;
  if (rank < bestAttributeRank || (rank == bestAttributeRank && rankedPosition < bestAttributePosition)) {
    bestAttributeRank = rank;
    bestAttributePosition = rankedPosition;
  }
  for (let w = 0; w < wordCount; w++) {
    if ((mask & (1 << w)) == 0) continue;
    if (w > 0 && unchecked(lastAttribute[w - 1]) == attribute) {
      notePair(w - 1, position - unchecked(lastPosition[w - 1]), minProximity);
    }
    if (w + 1 < wordCount && unchecked(lastAttribute[w + 1]) == attribute) {
      notePair(w, position - unchecked(lastPosition[w + 1]) + 1, minProximity);
    }
    unchecked(lastAttribute[w] = attribute);
    unchecked(lastPosition[w] = position);
  }
}

@inline function notePair(pair: i32, distance: i32, minProximity: i32): void {
  let d = distance < minProximity ? minProximity : distance;
  if (d > MAX_PROXIMITY) d = MAX_PROXIMITY;
  if (d < unchecked(pairDistance[pair])) unchecked(pairDistance[pair] = d);
}
