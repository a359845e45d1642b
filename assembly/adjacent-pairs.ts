// Which candidates may have the query's words at the best proximity, told
// from the records' adjacent-pair sketches (store.ts) without reading their
// forward lists. With every word required, no stop word and minProximity 1,
// a record is at the best proximity only when each pair of consecutive
// ranked words is side by side in it, in query order: a term of the first
// followed by a term of the second. Its sketch then holds both bits of that
// (term, class of the second term) pair, so a record whose sketch lacks
// every such pair of a query's pair of words is not at the best proximity.
// A Bloom filter errs the other way only: a record that passes is scanned.
//
// A token matching both words of a pair is at distance 0, which counts as
// the best: such queries are not filtered.
import { MAX_WORDS, wordCount } from './matcher';
import { pairBits, sketchOf, testBit } from './store';
import { termClass } from './dictionary';
import { isExcluded, rankedWordCount, stopWords } from './ranking';
import { markedTerms, termWords } from './wordsets';

/**
 * Per pair of consecutive ranked words, up to MAX_ELEMENTS (term, class)
 * elements' sketch bits: a record passes the pair when it holds both bits
 * of one. More elements would pass most records: such a pair is not tested.
 */
const MAX_ELEMENTS = 16;
const elements = new StaticArray<u32>(MAX_WORDS * MAX_ELEMENTS);
const elementCount = new StaticArray<i32>(MAX_WORDS);
let pairCount = 0;
/** The classes of a pair's second word. */
const classes = new StaticArray<u32>(MAX_ELEMENTS);

/**
 * Sets up the pairs of the current query's marked terms; false when the
 * query cannot be filtered (see the header) or no pair would tell records
 * apart. `optionalWords` is the optional words' mask.
 */
export function preparePairs(minProximity: i32, optionalWords: i32): bool {
  pairCount = 0;
  if (minProximity != 1 || optionalWords != 0 || stopWords != 0 || rankedWordCount < 2) return false;
  let previous = -1;
  for (let w = 0; w < wordCount; w++) {
    if (isExcluded(w)) continue;
    if (previous >= 0 && !addPair(previous, w)) return false;
    previous = w;
  }
  return pairCount > 0;
}

/** The elements of the pair (a, b) of consecutive ranked words; false when a term matches both. */
function addPair(a: i32, b: i32): bool {
  const first = 1 << a, second = 1 << b;
  let classCount = 0;
  for (let i = 0; i < markedTerms.length; i++) {
    const term = markedTerms.get(i);
    const words = termWords.get(term);
    if ((words & second) == 0) continue;
    if ((words & first) != 0) return false;
    const found = <u32>termClass.get(term);
    let known = false;
    for (let k = 0; k < classCount && k < MAX_ELEMENTS; k++) if (unchecked(classes[k]) == found) known = true;
    if (known) continue;
    if (classCount < MAX_ELEMENTS) unchecked(classes[classCount] = found);
    classCount++;
  }
  // too many elements: this pair tests nothing (the others may)
  if (classCount > MAX_ELEMENTS) return true;
  const from = pairCount * MAX_ELEMENTS;
  let count = 0;
  for (let i = 0; i < markedTerms.length; i++) {
    const term = markedTerms.get(i);
    if ((termWords.get(term) & first) == 0) continue;
    if (count + classCount > MAX_ELEMENTS) return true;
    for (let k = 0; k < classCount; k++) unchecked(elements[from + count++] = pairBits(term, unchecked(classes[k])));
  }
  unchecked(elementCount[pairCount++] = count);
  return true;
}

/** A byte of record `doc`'s sketch: touched ahead, a batch's cache misses overlap. */
@inline export function touchSketch(doc: i32): u32 {
  return <u32>load<u8>(sketchOf(doc));
}

/** Whether record `doc`'s sketch holds an element of every pair (see preparePairs, which must have returned true). */
export function mayBeAdjacent(doc: i32): bool {
  const sketch = sketchOf(doc);
  for (let p = 0; p < pairCount; p++) {
    const from = p * MAX_ELEMENTS, to = from + unchecked(elementCount[p]);
    let held = false;
    for (let e = from; e < to && !held; e++) {
      const bits = unchecked(elements[e]);
      held = testBit(sketch, <i32>(bits & 0xff)) && testBit(sketch, <i32>(bits >> 8));
    }
    if (!held) return false;
  }
  return true;
}
