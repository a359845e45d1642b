// Ranking criteria of one candidate record. Typo and exact come from the
// word bitmaps; proximity and attribute from one scan of the record's
// forward list; custom and sort criteria from rank arrays set by JS.
import { IntVec, readVarint, varintEnd } from './buffers';
import { attributeKey, docPtr, docLength, SEGMENT } from './store';
import { MAX_WORDS, wordCount } from './matcher';
import { exactBitmap, levelBitmap, testBit, isTermMatched, termWords, wholeValueBitmap } from './wordsets';

export const MAX_PROXIMITY = 8;


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
/** Best attribute key of the matched tokens (see store.ts attributeKey). */
export let bestAttribute: u32 = 0;

const lastAttribute = new StaticArray<i32>(MAX_WORDS);
const lastPosition = new StaticArray<i32>(MAX_WORDS);
const pairDistance = new StaticArray<i32>(MAX_WORDS);

/**
 * Reads the record's tokens once for proximity and attribute. Single-word
 * queries stop at the first matched token: segments come in rank order.
 */
export function scanRecord(doc: i32, minProximity: i32): void {
  for (let w = 0; w < wordCount; w++) {
    unchecked(lastAttribute[w] = -1);
    unchecked(pairDistance[w] = MAX_PROXIMITY);
  }
  bestAttribute = 0xffffffff;
  const stopAtFirst = wordCount == 1;
  let p = <usize>docPtr.get(doc);
  const end = p + <usize>docLength.get(doc);
  let attribute = -1;
  let position = 0;
  while (p < end) {
    const v = readVarint(p);
    p = varintEnd;
    if (v == SEGMENT) {
      attribute = <i32>readVarint(p); p = varintEnd;
      position = <i32>readVarint(p); p = varintEnd;
      continue;
    }
    const term = <i32>v - 1;
    if (isTermMatched(term)) {
      noteMatch(attribute, position, termWords.get(term), minProximity);
      if (stopAtFirst) break;
    }
    position++;
  }
  proximity = 0;
  for (let w = 0; w + 1 < wordCount; w++) proximity += unchecked(pairDistance[w]);
}

/** Words matched exactly; single-word queries follow exactOnSingleWordQuery (0 attribute, 1 none, 2 word). */
export function exactOf(doc: i32, exactSingle: i32): i32 {
  if (wordCount != 1 || exactSingle == 2) return exactWordsOf(doc);
  if (exactSingle == 1) return 0;
  return testBit(wholeValueBitmap(), doc) ? 1 : 0;
}

function noteMatch(attribute: i32, position: i32, mask: i32, minProximity: i32): void {
  const key = attributeKey(attribute, position);
  if (key < bestAttribute) bestAttribute = key;
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
