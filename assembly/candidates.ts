// The candidates of a query: the live records every required word matches
// (some optional one, when every word is optional), no excluded word matches
// and the filter keeps, as a bitmap, with the part of them matched with no
// typo beside it; then listed ascending, all of them or only the part the
// page can come from.
import { IntVec } from './buffers';
import { liveBits } from './store';
import { wordCount } from './matcher';
import {
  bitmapWords, candidateBitmap, foldKeysAhead, foldKeysLater, foldedBestAttribute, keysFolded, leadBitmap, levelBitmap, matchedBitmap, oneTypoBitmap, typoFreeBitmap,
} from './wordsets';
import { isExcluded, isOptional, stopWords } from './ranking';
import { boundVectorWords, boundVectors } from './bounded-match';

/**
 * Words every candidate matches; words of which it matches one at least (all
 * words optional: the words other than the stop words, when there are some).
 */
export let requiredWords: i32 = 0;
export let anyOfWords: i32 = 0;
/**
 * Candidates; those every ranked word they match matches with no typo; those
 * with one typo at most over all their words.
 */
export let candidateCount: i32 = 0;
export let typoFreeCount: i32 = 0;
export let oneTypoCount: i32 = 0;

/**
 * The candidates a page may be listed from (see listCandidates): all, the
 * typo-free ones, or those with one typo at most. When the typo criterion is
 * the first to tell candidates apart and a page of them has fewer typos, the
 * page lies among those.
 */
export const ALL_CANDIDATES = 0, TYPO_FREE = 1, ONE_TYPO_AT_MOST = 2;

@inline function popcount128(v: v128): i32 {
  return <i32>(popcnt(i64x2.extract_lane(v, 0)) + popcnt(i64x2.extract_lane(v, 1)));
}

/** Sets requiredWords and anyOfWords from the words' roles. */
function assignWordRoles(): void {
  let required = 0, anyOf = 0;
  for (let w = 0; w < wordCount; w++) {
    if (isExcluded(w)) continue;
    if (isOptional(w)) anyOf |= 1 << w; else required |= 1 << w;
  }
  requiredWords = required;
  const content = anyOf & ~stopWords;
  anyOfWords = required != 0 ? 0 : content != 0 ? content : anyOf;
}

/**
 * With the records of a vector matched with no typo and with one at most
 * over the words before, `oneTypo` after word w (at byte `o`) too; a word
 * counts 0 typos where it matches with none or not at all.
 */
@inline export function oneTypoAfter(w: i32, o: usize, typoFree: v128, oneTypo: v128, unmatched: v128, noTypo: v128): v128 {
  return v128.or(v128.and(oneTypo, noTypo), v128.and(typoFree, v128.or(v128.load(levelBitmap(w, 1) + o), unmatched)));
}

/** The records of a vector (at byte `o`) word w matches with no typo or not at all. */
@inline export function noTypoOf(w: i32, o: usize, unmatched: v128): v128 {
  return v128.or(v128.load(levelBitmap(w, 0) + o), unmatched);
}

/**
 * Writes the candidate bitmap and the bitmaps of the candidates with no typo
 * and with one at most, 128 records at a time (bitmaps are padded to whole
 * vectors), and counts them. A word counts 0 typos where it matches with
 * none or not at all (an optional word): the sum of typosOf. `filter` is the
 * address of a filter bitmap of `filterWords` u32 words (a multiple of 4;
 * records past them are filtered out), or 0.
 */
export function writeCandidates(filter: usize, filterWords: i32): void {
  startCandidates();
  const live = liveBits.ptr;
  const end = <usize>bitmapWords << 2;
  const filterEnd = <usize>filterWords << 2;
  const none = i32x4.splat(0), all = i32x4.splat(-1);
  for (let o: usize = 0; o < end; o += 16) {
    let bits = v128.load(live + o);
    // records with no typo so far, and with one at most so far
    let typoFree = all, oneTypo = all, some = none;
    for (let w = 0; w < wordCount && v128.any_true(bits); w++) {
      const bit = 1 << w;
      const matched = v128.load(matchedBitmap(w) + o);
      if (isExcluded(w)) { bits = v128.andnot(bits, matched); continue; }
      const unmatched = v128.not(matched);
      const noTypo = noTypoOf(w, o, unmatched);
      oneTypo = oneTypoAfter(w, o, typoFree, oneTypo, unmatched, noTypo);
      typoFree = v128.and(typoFree, noTypo);
      if ((requiredWords & bit) != 0) bits = v128.and(bits, matched);
      else if ((anyOfWords & bit) != 0) some = v128.or(some, matched);
    }
    if (anyOfWords != 0) bits = v128.and(bits, some);
    if (filter != 0) bits = o < filterEnd ? v128.and(bits, v128.load(filter + o)) : none;
    storeCandidates(o, bits, v128.and(bits, typoFree), v128.and(bits, oneTypo));
  }
}

/** Starts the candidates' counts (see storeCandidates). */
function startCandidates(): void {
  assignWordRoles();
  listedTypoTied = false;
  candidateCount = 0;
  typoFreeCount = 0;
  oneTypoCount = 0;
}

/** The candidates of one vector (at byte `o`), with no typo and with one at most: stored and counted. */
@inline function storeCandidates(o: usize, bits: v128, freeBits: v128, oneBits: v128): void {
  v128.store(candidateBitmap() + o, bits);
  v128.store(typoFreeBitmap() + o, freeBits);
  v128.store(oneTypoBitmap() + o, oneBits);
  candidateCount += popcount128(bits);
  typoFreeCount += popcount128(freeBits);
  oneTypoCount += popcount128(oneBits);
}

/**
 * writeCandidates when the last word w was bounded (see bounded-match.ts):
 * every word is required, and the bound's measure left the other words'
 * candidates (live, filtered) in the candidate bitmap and their typo-free
 * and one-typo records among them in the typo bitmaps, zero outside the
 * vectors of the bound summary. Only those vectors are read, and only w's
 * bitmaps.
 */
export function writeBoundedCandidates(w: i32): void {
  startCandidates();
  const target = candidateBitmap(), free = typoFreeBitmap(), one = oneTypoBitmap();
  const vectors = boundVectors(), vectorWords = boundVectorWords();
  for (let i = 0; i < vectorWords; i++) {
    let held = load<u32>(vectors + (<usize>i << 2));
    while (held != 0) {
      const o = (<usize>(i << 5) + <usize>ctz(held)) << 4;
      held &= held - 1;
      const matched = v128.load(matchedBitmap(w) + o);
      const bits = v128.and(v128.load(target + o), matched);
      const unmatched = v128.not(matched);
      const noTypo = noTypoOf(w, o, unmatched);
      const typoFree = v128.load(free + o);
      const oneTypo = oneTypoAfter(w, o, typoFree, v128.load(one + o), unmatched, noTypo);
      storeCandidates(o, bits, v128.and(bits, v128.and(typoFree, noTypo)), v128.and(bits, oneTypo));
    }
  }
}

/** How many candidates `bucket` holds. */
export function bucketCount(bucket: i32): i32 {
  return bucket == TYPO_FREE ? typoFreeCount : bucket == ONE_TYPO_AT_MOST ? oneTypoCount : candidateCount;
}

/** The bitmap of `bucket`'s candidates. */
function bucketBitmap(bucket: i32): usize {
  return bucket == TYPO_FREE ? typoFreeBitmap() : bucket == ONE_TYPO_AT_MOST ? oneTypoBitmap() : candidateBitmap();
}

/** Whether the candidates of `bucket` all have the same typo count: the typo criterion ties them. */
export function typoTiedIn(bucket: i32): bool {
  return bucket == TYPO_FREE || (bucket == ONE_TYPO_AT_MOST && typoFreeCount == 0);
}

export const candidates = new IntVec();
/** The listed candidates all have the same typo count: the typo criterion ties them. */
export let listedTypoTied = false;

const HISTOGRAM_KEYS = 4096;
const keyHistogram = new IntVec();
const listedKeys = new IntVec();

/**
 * Lists the candidates of `bucket` (see ALL_CANDIDATES), ascending. With
 * `cutWanted` > 0 (many candidates, ranked first by attribute), each is
 * listed with its best attribute key, and only those
 * with a key up to the smallest one at least `cutWanted` of them reach are
 * kept: the page lies among them. When enough of them match in the lead
 * place (see LEAD_KEYS), only those are listed (the others' keys are larger).
 */
export function listCandidates(bucket: i32, cutWanted: i32): void {
  const source = bucketBitmap(bucket);
  listedTypoTied = typoTiedIn(bucket);
  candidates.reserve(bitmapWords << 5);
  if (cutWanted <= 0) { listBitmap(source, 0); foldKeysLater(source); return; }
  // the lead place's records share the best key (0): when they fill the page, the page lies among them
  if (countBoth(source, leadBitmap()) >= cutWanted) { listBitmap(source, leadBitmap()); keysFolded(); return; }
  // keys of cached entries: folded into every record at once when most are listed, else one by one
  const foldEach = !foldKeysAhead(bucketCount(bucket), source);
  listBitmap(source, 0);
  const n = candidates.length;
  listedKeys.reserve(n);
  keyHistogram.resetZero(HISTOGRAM_KEYS + 1);
  const list = candidates.ptr, keys = listedKeys.ptr;
  for (let i = 0; i < n; i++) {
    const key = foldedBestAttribute(load<i32>(list + (<usize>i << 2)), foldEach);
    const bucket = key < HISTOGRAM_KEYS ? key : HISTOGRAM_KEYS;
    keyHistogram.set(bucket, keyHistogram.get(bucket) + 1);
    store<i32>(keys + (<usize>i << 2), key);
  }
  keysFolded();
  const cut = keyCut(cutWanted);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    if (load<i32>(keys + (<usize>i << 2)) > cut) continue;
    store<i32>(list + (<usize>kept << 2), load<i32>(list + (<usize>i << 2)));
    kept++;
  }
  candidates.length = kept;
}

/** Records in both bitmaps. */
export function countBoth(a: usize, b: usize): i32 {
  const end = <usize>bitmapWords << 2;
  let count = 0;
  for (let o: usize = 0; o < end; o += 16) count += popcount128(v128.and(v128.load(a + o), v128.load(b + o)));
  return count;
}

/** The smallest key at least `wanted` listed candidates reach (every key when none does). */
function keyCut(wanted: i32): i32 {
  let seen = 0;
  for (let key = 0; key < HISTOGRAM_KEYS; key++) {
    seen += keyHistogram.get(key);
    if (seen >= wanted) return key;
  }
  return 0x7fffffff;
}

/**
 * Lists the records of `source` (and of `also`, unless 0), ascending, 128
 * records at a time: at 1M records most vectors of a narrow query's
 * bitmap are empty, and one test passes over each.
 */
function listBitmap(source: usize, also: usize): void {
  const list = candidates.ptr;
  const end = <usize>bitmapWords << 2;
  let n = 0;
  for (let o: usize = 0; o < end; o += 16) {
    let v = v128.load(source + o);
    if (also != 0) v = v128.and(v, v128.load(also + o));
    if (!v128.any_true(v)) continue;
    for (let lane: usize = 0; lane < 16; lane += 4) {
      let bits = load<u32>(source + o + lane);
      if (also != 0) bits &= load<u32>(also + o + lane);
      const first = <i32>((o + lane) << 3);
      while (bits != 0) {
        store<i32>(list + (<usize>n << 2), first + <i32>ctz(bits));
        bits &= bits - 1;
        n++;
      }
    }
  }
  candidates.length = n;
}
