// The last word of a query bounded by the candidates the other words leave
// (issue #25: bound a broad expansion by the candidates already known; the
// words are not yet ordered by their cost). Each word is matched into
// bitmaps over every record, so a new prefix or typo'd last word decodes the
// postings of every term it reaches (at 1M records, a prefix such as "thei"
// holds hundreds of thousands) where the words before it may leave a few
// hundred records. Once those words are matched, their candidates are
// known: a term (or trie subtree) of the last word whose postings outweigh
// the candidates' forward lists is deferred (marked, not decoded), and the
// candidates' forward lists are then scanned for the deferred terms.
//
// The terms it does decode are read within those candidates too (see
// boundFor): their other records' bits and keys would never be read.
//
// The last word's bitmaps are then right for every candidate, the only
// records later steps read them for (candidates, typo levels, exact, lead
// and attribute keys); outside the candidates they miss records, so
// unmatchedWords reads the word's postings again (orSkippedInto).
// Bounding is armed only when every word is required (no optional,
// excluded or stop word: the candidates are then within the other words').
import { IntVec, readVarint, varintEnd } from './buffers';
import { LEAD_KEYS, SEGMENT, attributeKey, docLength, docPtr, liveBits, postings, setBit } from './store';
import { accumulateWordVector, exactBitmap, leadBitmap, levelBitmap, levelsAccumulated, oneTypoBitmap, testBit, typoFreeBitmap } from './wordsets';
import { noTypoOf, oneTypoAfter } from './candidates';
import { VECTOR_SHIFT, skipCount } from './skip-entries';

/** Whether the last word's matching may defer terms (see arm). */
let armed = false;
/** The other words' candidates have been computed (lazily: a narrow last word never pays for them). */
let measured = false;
/** Forward-list bytes of those candidates: a term with more posting bytes is deferred (0 with too many candidates). */
let scanBytes: f64 = 0;
/** Where the candidates' bitmap is (a bitmap later overwritten by the query's own candidates). */
let boundBitmap: usize = 0;
let boundWords: i32 = 0;
/** A bit per 128-bit vector of the candidates' bitmap holding some candidate: terms decoded within them skip the blocks of their lists with none (see skip-entries.ts). */
const boundVectorBits = new IntVec();
/** The filter bitmap (0: none) and its words. */
let filterBitmap: usize = 0;
let filterWords: i32 = 0;
/** Candidates beyond this share of the records are never scanned: a pass over their postings costs less. */
const MAX_SHARE_SHIFT = 4;

/**
 * The deferred terms as bits (32 terms a word: a lookup per token scanned
 * stays in cache), and per term its fewest typos and whether it matched as
 * the whole word with none (read for deferred terms only).
 */
const deferBits = new IntVec();
const deferTypos = new IntVec();
const deferExact = new IntVec();
/** The terms deferred by this search, in order. */
const deferredTerms = new IntVec();
/** The terms this search decoded within the candidates only (see boundFor). */
const boundTerms = new IntVec();

/** Per term, the record being scanned when the term was last met in it (a posting keeps a term's first occurrence only). */
const seenIn = new IntVec();
let recordStamp: i32 = 0;
/** The words before the last one (matched already: measure accumulates their typo levels). */
let otherWords: i32 = 0;

/**
 * Arms bounding for the last word, `others` being the words before it,
 * `scratch` a bitmap of `words` u32 words free until the query's candidates
 * are written.
 */
export function arm(others: i32, scratch: usize, words: i32, filter: usize, filterLength: i32, termTotal: i32): void {
  armed = true;
  measured = false;
  scanBytes = 0;
  otherWords = others;
  boundBitmap = scratch;
  boundWords = words;
  filterBitmap = filter;
  filterWords = filterLength;
  for (let i = 0; i < deferredTerms.length; i++) clearBit(deferBits.ptr, deferredTerms.get(i));
  deferredTerms.length = 0;
  boundTerms.length = 0;
  while (deferTypos.length < termTotal) { deferTypos.push(0); deferExact.push(0); seenIn.push(-1); }
  while (deferBits.length << 5 < termTotal) deferBits.push(0);
}

export function disarm(): void { armed = false; }

/**
 * After the bounded word's matching, a bitmap holding every candidate of
 * the query (the other words' candidates, see measure), or 0 when they were
 * not computed (the word matched no term).
 */
export function knownCandidates(): usize { return measured ? boundBitmap : 0; }

/**
 * While the last word is matched, the bitmap of the other words'
 * candidates once measured (else 0), to decode `term`'s postings within:
 * the query's candidates are among them, and no later step reads the bits
 * or keys of other records. The term is noted for orSkippedInto.
 */
export function boundFor(term: i32): usize {
  if (!armed || !measured) return 0;
  boundTerms.push(term);
  return boundBitmap;
}

/** With boundFor's bitmap, its summary: a bit per 128 records holding some candidate. */
export function boundVectors(): usize { return boundVectorBits.ptr; }

/** The u32 words of boundVectors. */
export function boundVectorWords(): i32 { return boundVectorBits.length; }

/**
 * -ln of the share of the summary's vectors holding no candidate: a block
 * of a term's list spanning v vectors holds none with the chance
 * exp(-v * this), the candidates spread evenly (bunched, more often).
 */
let heldVectorsLog: f64 = 0;
/** A block is worth a look when the chance it holds no candidate is a quarter or more (ln 4). */
const SKIP_WORTH: f64 = 1.3862943611198906;

/**
 * The summary for decoding `term` within the candidates (see
 * orIntoWithLead), or 0 when its blocks would seldom be jumped over: each
 * block looked up costs about what decoding a few of its postings does,
 * and at 100k records a typo'd first word leaves candidates in nearly
 * every 128 records (only 13% of the last word's blocks were jumped, and
 * decoding every block took the core's p50 down by 4%).
 */
export function boundVectorsFor(term: i32): usize {
  const blocks = skipCount(postings.skips.of(term));
  if (blocks == 0) return 0;
  const span = <f64>postings.lastPlusOneOf(term) / <f64>(blocks + 1);
  return (span / <f64>(1 << VECTOR_SHIFT) + 1) * heldVectorsLog <= SKIP_WORTH ? boundVectorBits.ptr : 0;
}

/** The last bounded word's bitmaps may miss records beyond the candidates: some term was deferred or decoded within them. */
export function skippedRecords(): bool { return deferredTerms.length > 0 || boundTerms.length > 0; }

/**
 * A forward-list byte scanned costs this many posting bytes decoded: a
 * posting list is read in order, where each candidate's forward list is a
 * block of its own and each of its tokens a lookup in the deferred terms.
 */
const SCAN_COST = 8;

/** Whether a term or subtree of `bytes` posting bytes should be deferred rather than decoded. */
export function shouldDefer(bytes: i32): bool {
  if (!armed) return false;
  if (!measured) measure();
  return scanBytes > 0 && <f64>bytes > scanBytes * SCAN_COST;
}

/** Notes `term` matched by the last word with `typos` typos (`full`: as the whole word) for the scan. */
export function defer(term: i32, typos: i32, full: bool): void {
  if (!testBit(deferBits.ptr, term)) {
    setBit(deferBits.ptr, <u32>term);
    deferTypos.set(term, typos);
    deferExact.set(term, 0);
    deferredTerms.push(term);
  } else if (deferTypos.get(term) > typos) deferTypos.set(term, typos);
  if (full && typos == 0) deferExact.set(term, 1);
}

/**
 * The candidates of the other words (live, filtered) into the scratch
 * bitmap, and their forward bytes when few enough. The pass reads every
 * level of the other words: it makes them cumulative (accumulateLevels'
 * work) and leaves their candidates with no typo and with one at most in
 * the typo bitmaps, free until the candidates are written (see
 * writeBoundedCandidates), so that no later pass reads the other words'
 * bitmaps over every record again.
 */
function measure(): void {
  measured = true;
  const end = <usize>boundWords << 2;
  const filterEnd = <usize>filterWords << 2;
  const live = liveBits.ptr;
  const free = typoFreeBitmap(), one = oneTypoBitmap();
  const all = i32x4.splat(-1);
  boundVectorBits.resetZero((boundWords >> VECTOR_SHIFT) + 1);
  const vectors = boundVectorBits.ptr;
  let count = 0, held = 0;
  for (let o: usize = 0; o < end; o += 16) {
    let bits = v128.load(live + o);
    let typoFree = all, oneTypo = all;
    for (let w = 0; w < otherWords; w++) {
      const matched = accumulateWordVector(w, o);
      bits = v128.and(bits, matched);
      const unmatched = v128.not(matched);
      const noTypo = noTypoOf(w, o, unmatched);
      oneTypo = oneTypoAfter(w, o, typoFree, oneTypo, unmatched, noTypo);
      typoFree = v128.and(typoFree, noTypo);
    }
    if (filterBitmap != 0) bits = o < filterEnd ? v128.and(bits, v128.load(filterBitmap + o)) : i32x4.splat(0);
    v128.store(boundBitmap + o, bits);
    v128.store(free + o, v128.and(bits, typoFree));
    v128.store(one + o, v128.and(bits, oneTypo));
    if (v128.any_true(bits)) { setBit(vectors, <u32>(o >> 4)); held++; }
    count += <i32>(popcnt(i64x2.extract_lane(bits, 0)) + popcnt(i64x2.extract_lane(bits, 1)));
  }
  levelsAccumulated(otherWords);
  const share = <f64>held / <f64>(boundWords >> 2);
  heldVectorsLog = share < 1 ? -Math.log(1 - share) : Infinity;
  if (count > (boundWords << 5) >> MAX_SHARE_SHIFT) return;
  // the candidates' forward bytes, estimated from the first few (summing them all cost as much as a scan)
  let sampled = 0;
  let bytes: f64 = 0;
  for (let i = 0; i < boundWords && sampled < SAMPLE; i++) {
    let bits = load<u32>(boundBitmap + (<usize>i << 2));
    while (bits != 0 && sampled < SAMPLE) {
      bytes += <f64>docLength.get((i << 5) + <i32>ctz(bits));
      bits &= bits - 1;
      sampled++;
    }
  }
  // at least a byte: a candidate-free query defers every term (nothing to scan)
  scanBytes = sampled > 0 ? bytes / <f64>sampled * <f64>count : 1;
}

/** Candidates whose forward bytes estimate all of theirs. */
const SAMPLE = 64;

/**
 * Scans the candidates' forward lists for the deferred terms: word `w`'s
 * typo level, exact and lead bitmaps and the key log (record, key pairs)
 * get what the terms' postings would have given them.
 */
export function scanDeferred(w: i32, keys: IntVec): void {
  if (deferredTerms.length == 0 || !measured) return;
  for (let i = 0; i < boundWords; i++) {
    let bits = load<u32>(boundBitmap + (<usize>i << 2));
    while (bits != 0) {
      const doc = (i << 5) + <i32>ctz(bits);
      bits &= bits - 1;
      scanRecordFor(doc, w, keys);
    }
  }
}

/**
 * One candidate: a posting holds a term's first occurrence in the record
 * (its key, hence the lead bit); the record's typo level is its fewest over
 * the terms met, exact when one of them matched whole with none, and the key
 * logged the lowest (what the log's max of packed keys keeps anyway).
 */
function scanRecordFor(doc: i32, w: i32, keys: IntVec): void {
  if (++recordStamp == 0x7fffffff) { seenIn.resetZero(seenIn.length); recordStamp = 1; }
  const deferred = deferBits.ptr;
  let p = <usize>docPtr.get(doc);
  const end = p + <usize>docLength.get(doc);
  let attribute = 0, position = 0;
  let best: u32 = 0xffffffff;
  let fewest = 0x7fffffff;
  let whole = false;
  while (p < end) {
    const v = readVarint(p);
    p = varintEnd;
    if (v == SEGMENT) {
      attribute = <i32>readVarint(p); p = varintEnd;
      position = <i32>readVarint(p); p = varintEnd;
      continue;
    }
    const term = <i32>v - 1;
    if (testBit(deferred, term) && seenIn.get(term) != recordStamp) {
      seenIn.set(term, recordStamp);
      const key = attributeKey(attribute, position);
      if (key < best) best = key;
      const typos = deferTypos.get(term);
      if (typos < fewest) fewest = typos;
      if (deferExact.get(term) != 0) whole = true;
    }
    position++;
  }
  if (fewest == 0x7fffffff) return;
  setBit(levelBitmap(w, fewest), <u32>doc);
  if (whole) setBit(exactBitmap(w), <u32>doc);
  // lead records rank by the lead bitmap, as orIntoWithLead leaves them out of the log
  if (best < LEAD_KEYS) { setBit(leadBitmap(), <u32>doc); return; }
  keys.push(doc);
  keys.push(<i32>best);
}

/**
 * Writes into `scratch` (cleared here) every record of the postings of the
 * terms deferred or decoded within the candidates: unmatchedWords reads
 * them for the bounded word, whose bitmaps may miss records outside the
 * candidates. After a query with no hits only.
 */
export function orSkippedInto(scratch: usize, words: i32): void {
  memory.fill(scratch, 0, <usize>words << 2);
  for (let i = 0; i < deferredTerms.length; i++) postings.orInto(deferredTerms.get(i), scratch);
  for (let i = 0; i < boundTerms.length; i++) postings.orInto(boundTerms.get(i), scratch);
}

@inline function clearBit(bitmap: usize, i: i32): void {
  const word = bitmap + (<usize>(i >> 5) << 2);
  store<u32>(word, load<u32>(word) & ~(<u32>1 << (i & 31)));
}
