// Ranking the listed candidates: a bucket sort by tie-breaking criteria
// (Algolia-style). Each criterion's key is computed only for the candidates
// still tied after the ones before it, only the best `wanted` overall are
// ordered, and proximity (a scan of the record) is read lazily, in the order
// of the cheaper criteria after it. Distinct groups count as one hit each.
// The work area it orders, and the sorts of its ranges, are in work.ts.
import { IntVec } from './buffers';
import { mayBeAdjacent, preparePairs, touchSketch } from './adjacent-pairs';
import {
  countingSortKept, ensureWork, keyAt, keysHighest, keysLowest, positionAt, putKey, selectKey, setWord, sortRange, startKeys, swap, wordAt,
} from './work';
import { MAX_WORDS, wordCount } from './matcher';
import { docCapacity, docLength, docPtr } from './store';
import { lookedUp, recordTermsOf, termIndexToRead, touchRecordTerms } from './record-terms';
import { addToRange, beginRange, gatherRange, isListed, listedRecords, positionBytesOf, slotTokens, slotTokensInOrder } from './term-positions';
import { candidates, countBoth, listedTypoTied } from './candidates';
import {
  FILTERS_SLOT, GEO_SLOT, GROUP_SLOT, TIE_SLOT, attributeRulesActive, bestProximityOf, exactFromScan, rankSlots, scannedExactWords, bestAttribute, exactOf, isUncounted, matchedWordsOf, proximity, isExcluded, rankedWordCount, scanGatheredRecord, scanRecord, stopWordCount, stopWords, typosIn, wordsKeyOf,
} from './ranking';
import { anyTypoMatch, bestAttributeOf, bitmapWords, candidateBitmap, ensureKeysFolded, exactBitmap, leadBitmap, levelBitmap, markedTerms, sortedMarkedTerms, testBit, wholeValueBitmap } from './wordsets';
import {
  C_ATTRIBUTE, C_CUSTOM, C_EXACT, EXACT_SINGLE_NONE, EXACT_SINGLE_WORD, C_FILTERS, C_GEO, C_PROXIMITY, C_SORT_SLOT, C_TYPO, C_WORDS, P_CRITERIA, P_CRITERIA_COUNT, P_EXACT_SINGLE, P_FILTER_SCORES_ACTIVE, P_GEO_ACTIVE, P_MIN_PROXIMITY, P_OPTIONAL_WORDS, params,
} from './params';

/** Per candidate position: this search's stamp once scanned, and the scan's proximity and attribute key. */
const scanned = new IntVec();
let scanStamp: i32 = 0;
export const scannedProximity = new IntVec();
export const scannedAttribute = new IntVec();
export const scannedExact = new IntVec();
/** The candidate list's address while a ranking runs (a load of the vector's own saved per read). */
let listAt: usize = 0;
/** The record of candidate `position` (during a ranking). */
@inline function docAt(position: i32): i32 { return load<i32>(listAt + (<usize>position << 2)); }
export const ranked = new IntVec();
export let criteriaCount: i32 = 0;
let wanted: i32 = 0;
let minProximity: i32 = 1;
let exactSingle: i32 = 0;

/** Reads the criteria count of this query's parameters (before deciding anything from the criteria). */
export function prepareCriteria(): void { criteriaCount = unchecked(params[P_CRITERIA_COUNT]); }

/** nbHits: candidates, or with distinct the groups they form (a record without a group is its own). */
export function countHits(): i32 {
  if (distinctLimit == 0) return candidates.length;
  groupEpoch++;
  let count = 0;
  for (let i = 0; i < candidates.length; i++) count += firstOfGroup(candidates.get(i));
  return count;
}

/** countHits with distinct, of the records of a candidate bitmap of `words` words at `bitmap` (none listed). */
export function countGroupsIn(bitmap: usize, words: i32): i32 {
  groupEpoch++;
  let count = 0;
  for (let w = 0; w < words; w++) {
    let bits = load<u32>(bitmap + (<usize>w << 2));
    while (bits != 0) {
      count += firstOfGroup((w << 5) + <i32>ctz(bits));
      bits &= bits - 1;
    }
  }
  return count;
}

/** 1 when `doc` is the first record of its group met in this count (a record without a group is its own), else 0. */
@inline function firstOfGroup(doc: i32): i32 {
  const group = groupOf(doc);
  if (group < 0) return 1;
  ensureGroup(group);
  if (groupStamp.get(group) == groupEpoch) return 0;
  groupStamp.set(group, groupEpoch);
  return 1;
}

// distinct: records emitted per group in this search
export let distinctLimit: i32 = 0;
export function setDistinctLimit(limit: i32): void { distinctLimit = limit; }
const groupStamp = new IntVec();
const groupEmitted = new IntVec();
let groupEpoch: i32 = 0;

@inline function groupOf(doc: i32): i32 {
  const groups = unchecked(rankSlots[GROUP_SLOT]);
  return doc < groups.length ? groups.get(doc) : -1;
}

const groupOrdinal = new IntVec();

@inline function ensureGroup(group: i32): void {
  if (groupStamp.length <= group) growGroups(group);
}

function growGroups(group: i32): void {
  while (groupStamp.length <= group) { groupStamp.push(0); groupEmitted.push(0); groupOrdinal.push(0); }
}

/** With distinct, pages count groups: the ordinal of each ranked record's group. */
export const rankedGroup = new IntVec();
let groupsStarted: i32 = 0;
let groupsFull: i32 = 0;

/**
 * Adds a candidate to the ranking. With distinct, a record joins its group
 * while the group has room; a new group is started only while fewer than
 * `wanted` groups exist (a record without a group is a full group of its own).
 */
function emit(position: i32): void {
  emitRecord(position, docAt(position));
}

/** emit, the candidate's record given. */
function emitRecord(position: i32, doc: i32): void {
  if (distinctLimit == 0) { ranked.push(position); return; }
  const group = groupOf(doc);
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

/**
 * Starts a ranking of `k` records, or with distinct of `k` groups, whose
 * records the caller gives in order (emitInOrder): an empty query walks
 * the static order so.
 */
export function startRanking(k: i32): void {
  wanted = k;
  ranked.length = 0;
  rankedGroup.length = 0;
  groupsStarted = 0;
  groupsFull = 0;
  groupEpoch++;
}

/** Ranks candidate `position` (record `doc`) next; whether the page still wants more. */
export function emitInOrder(position: i32, doc: i32): bool {
  emitRecord(position, doc);
  return !rankingDone();
}

/** The ranking has what the page needs. */
@inline function rankingDone(): bool {
  return distinctLimit == 0 ? ranked.length >= wanted : groupsStarted >= wanted && groupsFull == groupsStarted;
}

/**
 * Records are scanned in batches: each batch's forward lists are touched
 * first, their cache misses (the list's address and length, its first two
 * lines: a record of the benchmark's takes ~100 bytes) then overlapping one
 * another instead of stalling each scan in turn. Scans follow the order of
 * the criteria after proximity, not the records' ids, so each record is a
 * miss (~60% of a broad query's scanning time, in a perf profile).
 */
const SCAN_BATCH = 8;
/** What the touches read, kept so that they are not optimized away. */
let touched: u32 = 0;

/**
 * Reads `doc`'s forward-list address and length and a byte of its first
 * two cache lines; of a long record's term index instead, when the scan
 * will read that (see ranking.ts readIndexedTokens).
 */
@inline function touchRecord(doc: i32): u32 {
  // its tokens gathered, a record's scan reads its term index's first line only (header and segments)
  if (tokensGathered && isListed(doc)) return load<u32>(recordTermsOf(doc));
  const index = termIndexToRead(doc, markedTerms.length);
  if (index != 0) return touchRecordTerms(index);
  const p = <usize>docPtr.get(doc), length = docLength.get(doc);
  return <u32>load<u8>(p) + <u32>load<u8>(p + <usize>(length > 64 ? 64 : 0)) + <u32>length;
}

/**
 * The batch being scanned lazily: per record, its id and what the caller
 * finds it by (a candidate position, or a work index in bestToFront).
 */
const batchDocs = new StaticArray<i32>(SCAN_BATCH);
const batchKeys = new StaticArray<i32>(SCAN_BATCH);

/**
 * Prepares the batch's `count` records for scanning; with `filtered`, keeps
 * (in order) only those whose sketch allows the best proximity, their
 * sketches touched first. Touches the records kept; returns how many.
 */
function prepareBatch(count: i32, filtered: bool): i32 {
  let sum: u32 = 0;
  let kept = count;
  // a record scanned from tokens gathered costs about what its sketch's test does (a cache miss)
  if (filtered && !tokensGathered) {
    for (let i = 0; i < count; i++) sum += touchSketch(unchecked(batchDocs[i]));
    kept = 0;
    for (let i = 0; i < count; i++) {
      if (!mayBeAdjacent(unchecked(batchDocs[i]))) continue;
      unchecked(batchDocs[kept] = batchDocs[i]);
      unchecked(batchKeys[kept++] = batchKeys[i]);
    }
  }
  for (let i = 0; i < kept; i++) sum += touchRecord(unchecked(batchDocs[i]));
  touched = sum;
  return kept;
}

/** Touches the records of work[from, to). */
function touchWork(from: i32, to: i32): void {
  let sum: u32 = 0;
  for (let i = from; i < to; i++) sum += touchRecord(docAt(positionAt(i)));
  touched = sum;
}

export function scanOnce(position: i32): void {
  if (scanned.get(position) == scanStamp) return;
  const doc = docAt(position);
  const tokens = tokensGathered && isListed(doc) ? slotTokensInOrder(position) : -1;
  if (tokens >= 0) {
    scanGatheredRecord(doc, recordTermsOf(doc), slotTokens.ptr, tokens, minProximity);
    scannedAtOnce++;
  } else {
    scanRecord(doc, minProximity);
    if ((++scansOneByOne & (RENT_CHECKED - 1)) == 0 && positionsPay(0)) gatherCandidatesTokens();
  }
  scanned.set(position, scanStamp);
  scannedProximity.set(position, proximity);
  scannedAttribute.set(position, <i32>bestAttribute);
  scannedExact.set(position, <i32>popcnt(scannedExactWords));
}

// --- the candidates' marked tokens gathered at once (term-positions.ts)
// A long record's scan looks the query's marked terms up in its term index,
// at a few cache misses a record (~1 µs). Once a ranking has scanned as many
// records so as it would cost to read the marked terms' position lists,
// every candidate's marked tokens are gathered from them in one pass, and
// the scans left read those instead (a quarter of the time: the tokens
// placed by their record's segments, in the line the ranking touches ahead).
// A ski rental: a narrow query never reads the lists, a broad one spends at
// most about twice the least it could.

/** A long record's scan through its term index costs about as long as reading this many bytes of the position lists; one reading its whole list (~1,000 tokens), four times as long. */
const SCAN_POSITION_BYTES = 256;
/** Gathering costs about this many scans a candidate (the pass over them). */
const GATHER_SCANS_PER_CANDIDATE: f64 = 1.0 / 128;
/** Scans one by one between two looks at whether gathering pays. */
const RENT_CHECKED = 16;
/** Bytes of the marked terms' position lists (-1: not summed yet this ranking). */
let markedPositionBytes: f64 = -1;
/** Records this ranking scanned one by one; whether it gathered its candidates' tokens. */
let scansOneByOne: i32 = 0;
let tokensGathered = false;
/** Records scanned from gathered tokens since the core started: how a test sees that they were, where rankings are the same either way. */
export let scannedAtOnce: u64 = 0;

/**
 * Whether gathering the candidates' tokens costs no more than the scans
 * this ranking made one by one and the `upcoming` ones it is about to make.
 */
function positionsPay(upcoming: i32): bool {
  if (listedRecords == 0 || tokensGathered) return false;
  if (markedPositionBytes < 0) {
    const marks = sortedMarkedTerms();
    markedPositionBytes = positionBytesOf(marks.ptr, marks.length);
  }
  const perScan = lookedUp(markedTerms.length) ? SCAN_POSITION_BYTES : 4 * SCAN_POSITION_BYTES;
  const gathering = markedPositionBytes / <f64>perScan + <f64>candidates.length * GATHER_SCANS_PER_CANDIDATE;
  return gathering <= <f64>(scansOneByOne + upcoming);
}

/** Gathers every listed candidate's marked tokens, each in the slot of its candidate position. */
function gatherCandidatesTokens(): void {
  const n = candidates.length;
  beginRange(n, docCapacity);
  for (let position = 0; position < n; position++) {
    const doc = docAt(position);
    if (isListed(doc)) addToRange(doc, position);
  }
  const marks = sortedMarkedTerms();
  gatherRange(marks.ptr, marks.length);
  tokensGathered = true;
}

/**
 * The key of criterion `c` (index into the criteria list; c == count: the
 * tie order, see tieSlot) for a candidate, for the criteria fillKeys has no loop of its own for:
 * the typo, rank-slot (custom, sort, geo, filters) and postings' attribute
 * keys never come here.
 */
function keyOf(c: i32, position: i32): i32 {
  if (c == criteriaCount) return position;
  const doc = docAt(position);
  const code = unchecked(params[P_CRITERIA + c]);
  if (code == C_PROXIMITY) { if (wordCount < 2) return 0; scanOnce(position); return scannedProximity.get(position); }
  if (code == C_ATTRIBUTE) {
    scanOnce(position);
    return scannedAttribute.get(position);
  }
  if (code == C_EXACT) {
    if (!exactFromScan) return rankedWordCount - exactOf(doc, exactSingle);
    scanOnce(position);
    return rankedWordCount - scannedExact.get(position);
  }
  if (code == C_WORDS) return wordsKeyOf(doc);
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

/**
 * The smallest proximity a record of the range [from, to) can have (each
 * pair of consecutive matched words at minProximity), or -1 when records of
 * the range may match different numbers of words (optional words, and no
 * words criterion before criterion `c` to tie them): fewer matched words
 * make fewer pairs, so no one value bounds them all.
 */
function bestProximity(from: i32, c: i32): i32 {
  if (unchecked(params[P_OPTIONAL_WORDS]) == 0) return bestProximityOf(rankedWordCount, minProximity);
  if ((unchecked(params[P_OPTIONAL_WORDS]) & ~stopWords) == 0) return bestProximityOf(rankedWordCount - stopWordCount, minProximity);
  for (let before = 0; before < c; before++) {
    if (unchecked(params[P_CRITERIA + before]) == C_WORDS) return bestProximityOf(matchedWordsOf(docAt(positionAt(from))), minProximity);
  }
  return -1;
}

/** Ranges smaller than this are ranked by proximity directly. */
const LAZY_PROXIMITY_RANGE = 512;

/** Whether `size` tied records, of which the page needs `need`, are worth ranking lazily by proximity. */
@inline function lazilyRanked(size: i32, need: i32): bool { return size >= LAZY_PROXIMITY_RANGE && need * 8 <= size; }
const lazyOrder = new IntVec();
/** This search's pairs were looked at (see adjacent-pairs.ts), and can tell candidates apart. */
let pairsPrepared = false;
let filterPairs = false;

/**
 * Proximity needs a scan per record, so for a large tied range it is read
 * lazily: the range is ordered by the (cheap) criteria after proximity, and
 * records are scanned in that order until `need` of them have the best
 * possible proximity (those whose sketch rules it out are passed over); no
 * record left unscanned can then enter the page. When fewer than `need`
 * have it, the sketches find them all (see rankAroundBest).
 * Returns false (nothing emitted) when the range should be ranked directly.
 */
function rankProximityLazily(from: i32, to: i32, c: i32): bool {
  const need = wanted - ranked.length;
  if (distinctLimit != 0 || !lazilyRanked(to - from, need)) return false;
  for (let next = c + 1; next <= criteriaCount; next++) if (!isCheap(next)) return false;
  const best = bestProximity(from, c);
  if (best < 0) return false;
  if (!pairsPrepared) {
    filterPairs = preparePairs(minProximity, unchecked(params[P_OPTIONAL_WORDS]));
    pairsPrepared = true;
  }
  if (rankInRounds(from, to, c, need, best, filterPairs)) return true;
  if (!filterPairs) return false;
  rankAroundBest(from, to, c, need, best);
  return true;
}

/**
 * Rounds of the lazy ranking: the first `m` records of work[from, to) in
 * the order of the criteria after `c`, then more, until `need` of them have
 * proximity `level` (none below it is left in the range); emits them and
 * returns true, or false (nothing emitted) once a round would take half the
 * range. `filtered`: records whose sketch rules `level` out are not read.
 */
function rankInRounds(from: i32, to: i32, c: i32, need: i32, level: i32, filtered: bool): bool {
  const base = ranked.length;
  const outerWanted = wanted;
  const range = to - from;
  let m = need * 4 > 64 ? need * 4 : 64;
  while (m * 2 < range) {
    wanted = base + m;
    rankRange(from, to, c + 1);
    wanted = outerWanted;
    if (positionsPay(ranked.length - base)) gatherCandidatesTokens();
    // in this order, the first `need` records at this level are the page's
    const atLevel = collectAtLevel(base, need, level, filtered);
    ranked.length = base;
    if (atLevel >= need) {
      for (let i = 0; i < lazyOrder.length && !rankingDone(); i++) emit(lazyOrder.get(i));
      return true;
    }
    m = nextLazyCount(m, atLevel, need, range);
  }
  return false;
}

/**
 * Ranks work[from, to) when the rounds found fewer than `need` records at
 * the best proximity in its first half. Only the records whose sketch
 * allows it can have it: those are read, and the ones that have it ranked
 * first; the others are at `best` + 1 at least, and are ranked lazily at
 * that level (else directly) for the rest of the page.
 */
function rankAroundBest(from: i32, to: i32, c: i32, need: i32, best: i32): void {
  const bestEnd = bestToFront(from, to, best);
  rankRange(from, bestEnd, c + 1);
  if (rankingDone()) return;
  const rest = need - (bestEnd - from);
  if (!lazilyRanked(to - bestEnd, rest) || !rankInRounds(bestEnd, to, c, rest, best + 1, false)) {
    rankByKeys(bestEnd, to, c);
  }
}

/**
 * Moves the records of work[from, to) at proximity `best` to its front,
 * reading only those whose sketch allows it; returns where the others start.
 */
function bestToFront(from: i32, to: i32, best: i32): i32 {
  // the lead records laid out first are no longer together
  if (from < leadSplit && to > leadSplit) leadSplit = -1;
  if (positionsPay(to - from)) gatherCandidatesTokens();
  let front = from;
  for (let i = from; i < to;) {
    let count = 0;
    for (const batchEnd = min(i + SCAN_BATCH, to); i < batchEnd; i++, count++) {
      unchecked(batchDocs[count] = docAt(positionAt(i)));
      unchecked(batchKeys[count] = i);
    }
    const kept = prepareBatch(count, true);
    for (let k = 0; k < kept; k++) {
      const at = unchecked(batchKeys[k]);
      const position = positionAt(at);
      scanOnce(position);
      if (scannedProximity.get(position) == best) swap(at, front++);
    }
  }
  return front;
}

/**
 * Scans ranked[base, ...) in order, a batch at a time, until `need` records
 * have proximity `level`; they go to lazyOrder, and their number is
 * returned. `filtered`: a record whose adjacent-pair sketch rules the best
 * proximity out is not read (see adjacent-pairs.ts).
 */
function collectAtLevel(base: i32, need: i32, level: i32, filtered: bool): i32 {
  lazyOrder.length = 0;
  let atLevel = 0;
  for (let i = base; i < ranked.length && atLevel < need;) {
    let count = 0;
    for (const batchEnd = min(i + SCAN_BATCH, ranked.length); i < batchEnd; i++, count++) {
      const position = ranked.get(i);
      unchecked(batchDocs[count] = docAt(position));
      unchecked(batchKeys[count] = position);
    }
    const kept = prepareBatch(count, filtered);
    for (let k = 0; k < kept && atLevel < need; k++) {
      const position = unchecked(batchKeys[k]);
      scanOnce(position);
      if (scannedProximity.get(position) == level) { lazyOrder.push(position); atLevel++; }
    }
  }
  return atLevel;
}

/**
 * The next lazy round's count, from how many of the `m` records scanned had
 * the best proximity: enough for `need` at that rate (with a margin), at
 * least four times `m`; the largest count below half the range once that is
 * passed (past it, ranking the range directly costs less).
 */
function nextLazyCount(m: i32, atBest: i32, need: i32, range: i32): i32 {
  const byRate = atBest > 0 ? <i64>need * m * 3 / (<i64>atBest * 2) : <i64>m * 16;
  let next = byRate > <i64>m * 4 ? <i32>min(byRate, <i64>range) : m * 4;
  const largest = (range - 1) >> 1;
  if (next * 2 >= range && m < largest) next = largest;
  return next;
}

/** Criteria that cannot tell candidates apart for this query. */
export function isConstant(c: i32): bool {
  if (c == criteriaCount) return false;
  const code = unchecked(params[P_CRITERIA + c]);
  if (code == C_GEO) return unchecked(params[P_GEO_ACTIVE]) == 0;
  if (code == C_FILTERS) return unchecked(params[P_FILTER_SCORES_ACTIVE]) == 0;
  if (code == C_WORDS) return (unchecked(params[P_OPTIONAL_WORDS]) & ~stopWords) == 0;
  if (code == C_TYPO && (!anyTypoMatch() || listedTypoTied)) return true;
  if (code == C_EXACT && exactTied) return true;
  return (code == C_PROXIMITY && rankedWordCount < 2)
    || ((code == C_ATTRIBUTE || code == C_TYPO || code == C_EXACT) && rankedWordCount == 0);
}

/**
 * Bucket sort by tie-breaking criteria (Algolia-style): criterion `c` is
 * computed only for the candidates still tied, and only the best `wanted`
 * overall are ordered, so a broad query never sorts all its candidates.
 */
function rankRange(from: i32, to: i32, c: i32): void {
  if (from >= to || rankingDone()) return;
  if (c > criteriaCount || to - from == 1) {
    for (let i = from; i < to && !rankingDone(); i++) emit(positionAt(i));
    return;
  }
  if (isConstant(c)) { rankRange(from, to, c + 1); return; }
  const code = unchecked(params[P_CRITERIA + c]);
  if (code == C_PROXIMITY && rankProximityLazily(from, to, c)) return;
  if (code == C_ATTRIBUTE && to - from >= LEAD_SPLIT_RANGE && attributeFromPostings()) {
    const leads = leadsFirst(from, to);
    if (leads > 0) {
      rankRange(from, from + leads, c + 1);
      rankByKeys(from + leads, to, c);
      return;
    }
  }
  rankByKeys(from, to, c);
}

/** Ranges at least this large rank their lead records (attribute key 0) before keying the others. */
const LEAD_SPLIT_RANGE = 1024;
/** Candidates in work; where its lead records end while work[0, workCount) is laid out lead-first (else -1). */
let workCount: i32 = 0;
let leadSplit: i32 = -1;

/**
 * Moves the records matched in the lead place (see LEAD_KEYS: the smallest
 * attribute key, 0) to the front of work[from, to), the range kept whole;
 * returns how many. When they fill the page, the others are never keyed.
 */
function leadsFirst(from: i32, to: i32): i32 {
  const whole = from == 0 && to == workCount;
  if (whole && leadSplit >= 0) return leadSplit;
  const lead = leadBitmap();
  let front = from;
  // branchless: every record swaps with the first non-lead one, which moves on past a lead record
  for (let i = from; i < to; i++) {
    const v = wordAt(i);
    const isLead = <i32>testBit(lead, docAt(<i32>(v & 0xffffffff)));
    setWord(i, wordAt(front));
    setWord(front, v);
    front += isLead;
  }
  leadSplit = whole ? front : -1;
  return front - from;
}

/** Ranks work[from, to) by criterion `c`'s keys, then each tied run by the criteria after it. */
function rankByKeys(from: i32, to: i32, c: i32): void {
  if (from >= to || rankingDone()) return;
  // reordering a range across the lead split undoes it
  if (from < leadSplit && to > leadSplit) leadSplit = -1;
  fillKeys(from, to, c);
  const lowest = keysLowest, highest = keysHighest;
  if (lowest == highest) { rankRange(from, to, c + 1); return; }
  const need = wanted - ranked.length;
  if (to - from >= 64 && highest - lowest < <u32>(to - from)) {
    // few distinct keys: count them, keep the keys the page needs, counting-sort those
    // (with distinct, records of full groups are skipped: every key is kept)
    const kept = countingSortKept(from, to, lowest, highest, distinctLimit == 0 ? need : 0x7fffffff);
    rankGroups(from, from + kept, c);
    return;
  }
  if (distinctLimit != 0) { rankDistinctByKeys(from, to, c, max(need, DISTINCT_FIRST_CUT)); return; }
  rankUpTo(from, to, c, to - from > need ? selectKey(from, to, need - 1) : 0xffffffff);
}

/**
 * With distinct, ranks work[from, to) by criterion `c`'s keys a cut at a
 * time: the records of the first `cut` keys, then of twice as many more,
 * until the page is full. Records of full groups are skipped, so how far
 * the page reaches is not known in advance; sorting every candidate took
 * 17 ms for an empty query over 100k records. The first cut is at least
 * DISTINCT_FIRST_CUT records: each cut selects over every record left,
 * where sorting a few hundred costs little.
 */
const DISTINCT_FIRST_CUT = 256;

function rankDistinctByKeys(from: i32, to: i32, c: i32, cut: i32): void {
  while (from < to && !rankingDone()) {
    if (to - from <= cut) { rankUpTo(from, to, c, 0xffffffff); return; }
    from = rankUpTo(from, to, c, selectKey(from, to, cut - 1));
    cut = cut < 0x40000000 ? cut << 1 : cut;
  }
}

/**
 * Ranks the records of work[from, to) whose key is at most `threshold`,
 * in key order (ties by the next criteria); the others are moved to the
 * end, unranked, their keys kept. Returns where they start.
 */
function rankUpTo(from: i32, to: i32, c: i32, threshold: u32): i32 {
  // three-way partition: below threshold, equal to it, above (left)
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
  } else {
    rankRange(lt, gt + 1, c + 1);
  }
  return gt + 1;
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

// --- keys of one criterion over a range, into work's high halves

/** The rank slot that orders records every criterion ties (TIE_SLOT), or -1 while it is empty: then by record id. */
@inline function tieSlot(): i32 { return unchecked(rankSlots[TIE_SLOT]).length > 0 ? TIE_SLOT : -1; }

/** Per ranked word, the bitmap a key loop reads (looked up once per range, not per record). */
const wordBitmaps = new StaticArray<usize>(MAX_WORDS);

/** Computes criterion `c`'s key for work[from, to); the common criteria without the per-record dispatch of keyOf. */
function fillKeys(from: i32, to: i32, c: i32): void {
  startKeys();
  const code = c == criteriaCount ? -1 : unchecked(params[P_CRITERIA + c]);
  if (code == C_ATTRIBUTE) ensureKeysFolded(candidates);
  const slot = code == C_CUSTOM ? 0 : code == C_GEO ? GEO_SLOT : code == C_FILTERS ? FILTERS_SLOT : code >= C_SORT_SLOT ? code - C_SORT_SLOT : code < 0 ? tieSlot() : -1;
  if (slot >= 0) {
    const ranks = unchecked(rankSlots[slot]);
    const n = ranks.length;
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      const doc = docAt(position);
      putKey(i, position, <u32>(doc < n ? ranks.get(doc) : 0));
    }
  } else if (code == C_ATTRIBUTE && attributeFromPostings()) {
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      putKey(i, position, <u32>bestAttributeOf(docAt(position)));
    }
  } else if (code == C_EXACT && !exactFromScan) {
    // the ranked words whose exact bitmap holds the record (exactOf, its bitmaps looked up once)
    const bitmaps = exactBitmapsInto(wordBitmaps);
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      const doc = docAt(position);
      let exact = 0;
      for (let b = 0; b < bitmaps; b++) if (testBit(unchecked(wordBitmaps[b]), doc)) exact++;
      putKey(i, position, <u32>(rankedWordCount - exact));
    }
  } else if (code == C_TYPO) {
    // typosOf with the ranked words' level bitmaps looked up once per range
    let counted = 0;
    for (let w = 0; w < wordCount; w++) if (!isExcluded(w)) unchecked(wordBitmaps[counted++] = levelBitmap(w, 0));
    for (let i = from; i < to; i++) {
      const position = positionAt(i);
      const doc = docAt(position);
      let typos: u32 = 0;
      for (let b = 0; b < counted; b++) typos += typosIn(unchecked(wordBitmaps[b]), doc);
      putKey(i, position, typos);
    }
  } else {
    const scans = !isCheap(c);
    if (scans && positionsPay(to - from)) gatherCandidatesTokens();
    for (let i = from; i < to; i++) {
      if (scans && ((i - from) & (SCAN_BATCH - 1)) == 0) touchWork(i, min(i + SCAN_BATCH, to));
      const position = positionAt(i);
      putKey(i, position, <u32>keyOf(c, position));
    }
  }
}

export function rankCandidates(k: i32): void {
  const n = candidates.length;
  criteriaCount = unchecked(params[P_CRITERIA_COUNT]);
  minProximity = unchecked(params[P_MIN_PROXIMITY]);
  exactSingle = unchecked(params[P_EXACT_SINGLE]);
  startRanking(k < n ? k : n);
  newScanStamp(n);
  scannedProximity.reserve(n);
  scannedAttribute.reserve(n);
  scannedExact.reserve(n);
  ensureWork(n);
  listAt = candidates.ptr;
  layOutWork(n);
  pairsPrepared = false;
  markedPositionBytes = -1;
  scansOneByOne = 0;
  tokensGathered = false;
  // a pass over the bitmaps per word pays for itself only when many candidates may need an exact key
  exactTied = n >= bitmapWords >> 4 && exactTiesAll();
  rankRange(0, n, 0);
  exactTied = false;
}

/**
 * While a ranking runs: no candidate matches a ranked word whole with no
 * typo, so the exact criterion ties them all (a typo'd word, a prefix:
 * broad queries then computed it for thousands of records for nothing).
 */
let exactTied = false;

/** Whether no candidate is in a bitmap the exact criterion reads; false when it is read from scans. */
function exactTiesAll(): bool {
  if (exactFromScan) return false;
  const bitmaps = exactBitmapsInto(wordBitmaps);
  for (let b = 0; b < bitmaps; b++) if (countBoth(candidateBitmap(), unchecked(wordBitmaps[b])) != 0) return false;
  return true;
}

/**
 * The bitmaps the exact criterion counts a record in (see exactOf) into
 * `into`; returns how many. A single-word query reads whether the word is a
 * whole attribute value (exactOnSingleWordQuery=attribute), or nothing
 * (none); other queries, each counted word's exact bitmap.
 */
function exactBitmapsInto(into: StaticArray<usize>): i32 {
  if (rankedWordCount == 1 && exactSingle != EXACT_SINGLE_WORD) {
    if (exactSingle == EXACT_SINGLE_NONE) return 0;
    unchecked(into[0] = wholeValueBitmap());
    return 1;
  }
  let count = 0;
  for (let w = 0; w < wordCount; w++) if (!isUncounted(w)) unchecked(into[count++] = exactBitmap(w));
  return count;
}

/** A stamp no position of `scanned` holds yet (clearing it took a pass over every candidate). */
function newScanStamp(n: i32): void {
  if (scanned.length < n || scanStamp == 0x7fffffff) {
    scanned.resetZero(n > scanned.length ? n : scanned.length);
    scanStamp = 0;
  }
  scanStamp++;
}

/**
 * The candidates' positions into work: lead records first when the attribute
 * criterion is the first to tell them apart (besides proximity, read lazily),
 * so ranking it needs no pass of its own (see leadsFirst); else in order.
 */
function layOutWork(n: i32): void {
  workCount = n;
  leadSplit = -1;
  if (n < LEAD_SPLIT_RANGE || !attributeRanksFirst()) {
    for (let i = 0; i < n; i++) setWord(i, <u64>i);
    return;
  }
  const lead = leadBitmap();
  let front = 0, back = n;
  for (let i = 0; i < n; i++) {
    const isLead = <i32>testBit(lead, docAt(i));
    setWord(isLead ? front : back - 1, <u64>i);
    front += isLead;
    back -= 1 - isLead;
  }
  leadSplit = front;
}

/** Every criterion before the attribute one ties the candidates, or is proximity. */
function attributeRanksFirst(): bool {
  for (let c = 0; c < criteriaCount; c++) {
    if (isConstant(c)) continue;
    const code = unchecked(params[P_CRITERIA + c]);
    if (code == C_PROXIMITY) continue;
    return code == C_ATTRIBUTE && attributeFromPostings();
  }
  return false;
}
