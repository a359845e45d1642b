// Where each term occurs in a long record: its distinct terms in ascending
// order, each with the ordinals of its tokens (the n-th term token of the
// forward list is ordinal n), and the list's segments. The proximity scan
// (ranking.ts scanRecord) reads a record's tokens until its matched words
// are as close as they can be, which in a record of ~1,000 words where they
// never are is every token: ~2 µs a candidate, and queries of two common
// words over long documents scanned thousands. With this index the scan
// looks up the query's few marked terms instead and visits only their
// tokens, in the list's order, so it notes the same matches the full read
// would.
//
// Derived from the forward list whenever one is stored (store.ts
// storeForward), never stored itself: a snapshot's lists rebuild it as
// they load, in the pass that rebuilds their pair sketches. Records under
// LONG_RECORD_TOKENS tokens have none: reading them whole is as quick, and
// they are most records of most indexes.
import { ByteVec, IntVec, readVarint, varintEnd } from './buffers';
import { docLength } from './store';
import { listRecordTokens, unlistRecord } from './term-positions';

/** Records of fewer tokens are read whole. */
export const LONG_RECORD_TOKENS = 256;
/** Ordinals take 15 bits (see MORE). */
const MAX_RECORD_TOKENS = 32767;

/** Per record, its index (0: none). */
const indexes = new IntVec();
/** Records with an index. */
export let indexedRecords: i32 = 0;

export function ensureRecordTerms(count: i32): void { indexes.growZeroed(count); }

/**
 * Record `doc`'s index, 0 when it has none. Only a list of LONG_RECORD_TOKENS
 * bytes or more has one: its length, read with it, spares the other records
 * a load from this vector (a cache miss per record of a broad query).
 */
@inline export function recordTermsOf(doc: i32): usize {
  return docLength.get(doc) >= LONG_RECORD_TOKENS && doc < indexes.length ? <usize>indexes.get(doc) : 0;
}

/**
 * The index the scan of record `doc` may read for a query of `marks`
 * marked terms: its own, unless it has none or the query marks more than
 * are ever looked up (0: the scan reads the list). The ranking touches
 * what this names ahead of the scan.
 */
@inline export function termIndexToRead(doc: i32, marks: i32): usize {
  return lookedUp(marks) ? recordTermsOf(doc) : 0;
}

/** Whether a query of `marks` marked terms looks them up in long records' indexes (else their scans read their lists). */
@inline export function lookedUp(marks: i32): bool { return marks <= MAX_LOOKED_UP; }

// An index's layout: a header of u32 segments (S), groups (G) and tokens
// (T); per segment u32 first ordinal, attribute, start position; per group
// u32 its first term and u32 where its more ordinals start (see below); per
// group 64 bytes: u16[16] its terms less its first (up to 16 terms
// ascending, within 65,535 of the first; 0xffff pads), u16[16] each term's
// first ordinal, the top bit set when it has more; then the more ordinals,
// per term that has them (in term order): a varint count, then varint gaps
// from the ordinal before. The segments follow the header: reading tokens
// gathered from the position lists (term-positions.ts) needs those two
// only, most records' in one line.
//
// A term is looked up among the groups' first terms (the first lines of
// the index with the header: the ranking touches them ahead, as it touches
// forward lists), then in its group's line at once, which holds its first
// ordinal too: most terms of a record occur once. The lines are read in
// rounds, each starting the reads the next needs (see gatherMarkedTokens).
const HEADER_BYTES: usize = 12;
const GROUP_TERMS = 16;
const GROUP_BYTES: usize = 64;
/** A group's terms are its first term plus at most this; the value after it pads. */
const GROUP_SPAN: u32 = 0xfffe;
/** A first ordinal's top bit: the term has more ordinals. */
const MORE: u32 = 0x8000;
@inline function segmentCountOf(index: usize): i32 { return load<i32>(index); }
@inline function groupCountOf(index: usize): i32 { return load<i32>(index, 4); }
/** The record's term tokens. */
@inline export function tokenCountOf(index: usize): i32 { return load<i32>(index, 8); }
@inline function segmentsAt(index: usize): usize { return index + HEADER_BYTES; }
@inline function directoryAt(index: usize): usize { return segmentsAt(index) + <usize>segmentCountOf(index) * 12; }
@inline function firstTermOf(index: usize, group: i32): i32 { return load<i32>(directoryAt(index) + (<usize>group << 3)); }
@inline function moreStartOf(index: usize, group: i32): i32 { return load<i32>(directoryAt(index) + (<usize>group << 3), 4); }
@inline function groupsAt(index: usize): usize { return directoryAt(index) + (<usize>groupCountOf(index) << 3); }
@inline function groupAt(index: usize, group: i32): usize { return groupsAt(index) + <usize>group * GROUP_BYTES; }
@inline function moreAt(index: usize): usize { return groupsAt(index) + <usize>groupCountOf(index) * GROUP_BYTES; }

/** Reads the first lines of `index` (its header and the groups' directory), as the ranking does a batch's records ahead; returns what it read. */
@inline export function touchRecordTerms(index: usize): u32 {
  return load<u32>(index) + load<u32>(index, 64) + load<u32>(index, 128) + load<u32>(index, 192);
}

// --- building
/** The list being indexed: per token its term, and per segment (first ordinal, attribute, start). */
const tokenTerms = new IntVec();
const segmentRows = new IntVec();
/** Radix sort room: ordinals by term. */
const sortedOrdinals = new IntVec();
const swapOrdinals = new IntVec();
const DIGIT_BITS = 11;
const digitCounts = new StaticArray<i32>(1 << DIGIT_BITS);

// A list's tokens are collected as its sketch is built (store.ts: as the
// list is written, or read back from a snapshot), so indexing reads no list.

/** Starts collecting a list's tokens. */
export function beginRecordTerms(): void {
  tokenTerms.length = 0;
  segmentRows.length = 0;
  maxTerm = 0;
  unindexable = false;
}

/** The list's next segment: `attribute`'s, from position `start`. */
export function noteRecordSegment(attribute: i32, start: i32): void {
  segmentRows.push(tokenTerms.length);
  segmentRows.push(attribute);
  segmentRows.push(start);
}

/** The list's next token, of term `term` (-1: one the dictionary lacks, only in a damaged snapshot). */
@inline export function noteRecordTerm(term: i32): void {
  if (term < 0) unindexable = true;
  if (<u32>term > maxTerm) maxTerm = <u32>term;
  tokenTerms.push(term);
}

/** The largest term collected, and whether a term was not one (the list is then read whole). */
let maxTerm: u32 = 0;
let unindexable = false;

/** Builds record `doc`'s index from the tokens collected, when there are enough (see the header). */
export function indexRecordTerms(doc: i32): void {
  dropRecordTerms(doc);
  const count = tokenTerms.length;
  if (count < LONG_RECORD_TOKENS || count > MAX_RECORD_TOKENS || unindexable) return;
  sortOrdinalsByTerm(count, maxTerm);
  indexes.set(doc, <i32>writeIndex(count));
  indexedRecords++;
}

export function dropRecordTerms(doc: i32): void {
  if (doc >= indexes.length) return;
  const index = <usize>indexes.get(doc);
  if (index == 0) return;
  heap.free(index);
  indexes.set(doc, 0);
  indexedRecords--;
  unlistRecord(doc);
}

/** Leaves in sortedOrdinals the ordinals 0..count-1 ordered by term, each term's in ascending order (a stable LSD radix sort). */
function sortOrdinalsByTerm(count: i32, maxTerm: u32): void {
  sortedOrdinals.reserve(count);
  swapOrdinals.reserve(count);
  sortedOrdinals.length = count;
  swapOrdinals.length = count;
  for (let i = 0; i < count; i++) sortedOrdinals.set(i, i);
  const mask: u32 = (1 << DIGIT_BITS) - 1;
  for (let shift: u32 = 0; shift < 32 && (shift == 0 || (maxTerm >> shift) != 0); shift += DIGIT_BITS) {
    memory.fill(changetype<usize>(digitCounts), 0, <usize>digitCounts.length << 2);
    for (let i = 0; i < count; i++) unchecked(digitCounts[(<u32>tokenTerms.get(i) >> shift) & mask]++);
    let sum = 0;
    for (let b = 0; b < digitCounts.length; b++) {
      const n = unchecked(digitCounts[b]);
      unchecked(digitCounts[b] = sum);
      sum += n;
    }
    for (let i = 0; i < count; i++) {
      const ordinal = sortedOrdinals.get(i);
      const digit = (<u32>tokenTerms.get(ordinal) >> shift) & mask;
      const at = unchecked(digitCounts[digit]);
      unchecked(digitCounts[digit] = at + 1);
      swapOrdinals.set(at, ordinal);
    }
    swapOrdinalVectors();
  }
}

/** The pass's output becomes the next pass's input. */
function swapOrdinalVectors(): void {
  const ptr = sortedOrdinals.ptr, capacity = sortedOrdinals.capacity;
  sortedOrdinals.ptr = swapOrdinals.ptr;
  sortedOrdinals.capacity = swapOrdinals.capacity;
  swapOrdinals.ptr = ptr;
  swapOrdinals.capacity = capacity;
}

/** The index being written: its directory, groups and more ordinals, copied into one block at the end. */
const directoryRows = new IntVec();
const groupBytes = new ByteVec();
const moreBytes = new ByteVec();

/** Writes the index of the tokens collected, their ordinals sorted by term; returns it. */
function writeIndex(count: i32): usize {
  directoryRows.length = 0;
  groupBytes.length = 0;
  moreBytes.length = 0;
  let slot = GROUP_TERMS, first = 0;
  for (let i = 0; i < count;) {
    const term = tokenTerms.get(sortedOrdinals.get(i));
    let end = i + 1;
    while (end < count && tokenTerms.get(sortedOrdinals.get(end)) == term) end++;
    if (slot == GROUP_TERMS || <u32>(term - first) > GROUP_SPAN) {
      startGroup(term);
      first = term;
      slot = 0;
    }
    const line = groupBytes.ptr + <usize>groupBytes.length - GROUP_BYTES;
    store<u16>(line + (<usize>slot << 1), <u16>(term - first));
    store<u16>(line + 32 + (<usize>slot << 1), <u16>(<u32>sortedOrdinals.get(i) | (end - i > 1 ? MORE : 0)));
    if (end - i > 1) writeMoreOrdinals(i, end);
    slot++;
    i = end;
  }
  const groups = directoryRows.length >> 1, segments = segmentRows.length / 3;
  const index = heap.alloc(HEADER_BYTES + (<usize>groups << 3) + <usize>groupBytes.length + <usize>segments * 12 + <usize>moreBytes.length);
  store<i32>(index, segments);
  store<i32>(index, groups, 4);
  store<i32>(index, count, 8);
  memory.copy(segmentsAt(index), segmentRows.ptr, <usize>segments * 12);
  memory.copy(directoryAt(index), directoryRows.ptr, <usize>groups << 3);
  memory.copy(groupsAt(index), groupBytes.ptr, <usize>groupBytes.length);
  memory.copy(moreAt(index), moreBytes.ptr, <usize>moreBytes.length);
  return index;
}

/** Opens a group whose first term is `term`: its directory row, and its line with every slot a pad. */
function startGroup(term: i32): void {
  directoryRows.push(term);
  directoryRows.push(moreBytes.length);
  groupBytes.reserve(groupBytes.length + <i32>GROUP_BYTES);
  const line = groupBytes.ptr + <usize>groupBytes.length;
  memory.fill(line, 0xff, 32);
  memory.fill(line + 32, 0, 32);
  groupBytes.length += <i32>GROUP_BYTES;
}

/** The ordinals after the first of the term whose ordinals are sortedOrdinals[from, to): their count, then their gaps. */
function writeMoreOrdinals(from: i32, to: i32): void {
  moreBytes.pushVarint(<u32>(to - from - 1));
  for (let i = from + 1; i < to; i++) moreBytes.pushVarint(<u32>(sortedOrdinals.get(i) - sortedOrdinals.get(i - 1)));
}

// --- listing indexed records' tokens term by term (term-positions.ts)
// Done a step at a time while writes pause (src/index/prefix-warming.ts),
// records in id order from where the last step stopped: listed as each
// index was written, they made an import of long records ~15% slower.
// A record not listed yet is scanned on its own.

/** The next record to list: those below it are listed, or had no index when the listing passed them. */
let nextToList = 0;

/** Lists the tokens of the next indexed records, about `budget` tokens' worth; true once every record is. */
export function listRecordsSome(budget: i32): bool {
  // most indexes hold no long record: nothing to walk the ids for
  if (indexedRecords == 0) nextToList = indexes.length;
  let spent = 0;
  while (nextToList < indexes.length && spent < budget) {
    const doc = nextToList++;
    const index = <usize>indexes.get(doc);
    spent += index != 0 ? listFromIndex(doc, index) : 1;
  }
  return nextToList >= indexes.length;
}

/** Lists record `doc`'s tokens from its index `index`, its terms in ascending order; returns how many. */
function listFromIndex(doc: i32, index: usize): i32 {
  const count = tokenCountOf(index);
  tokenTerms.reserve(count);
  sortedOrdinals.reserve(count);
  tokenTerms.length = count;
  sortedOrdinals.length = 0;
  // terms come in ascending order: the last is the largest
  let term = 0;
  for (let group = 0, groups = groupCountOf(index); group < groups; group++) {
    const line = groupAt(index, group), first = firstTermOf(index, group);
    let more = moreAt(index) + <usize>moreStartOf(index, group);
    for (let slot = 0; slot < GROUP_TERMS; slot++) {
      const offset = <u32>load<u16>(line + (<usize>slot << 1));
      if (offset > GROUP_SPAN) break;
      term = first + <i32>offset;
      const head = <u32>load<u16>(line + 32 + (<usize>slot << 1));
      const ordinal = <i32>(head & ~MORE);
      noteListed(ordinal, term);
      if ((head & MORE) == 0) continue;
      // the more ordinals of the group's terms follow one another in slot order
      for (startMoreOrdinals(more, ordinal); nextMoreOrdinal();) noteListed(moreOrdinal, term);
      more = moreOrdinalsEnd;
    }
  }
  listRecordTokens(doc, tokenTerms.ptr, sortedOrdinals.ptr, sortedOrdinals.length, term);
  return count;
}

@inline function noteListed(ordinal: i32, term: i32): void {
  tokenTerms.set(ordinal, term);
  sortedOrdinals.push(ordinal);
}

// --- reading: the marked terms' tokens of a record
/** A term looked up costs about as long as reading this many tokens of a list. */
const LOOKUP_TOKENS = 8;
/** More marked terms than this (a short prefix's) are never looked up (see termIndexToRead). */
const MAX_LOOKED_UP = 128;
/**
 * The ordinals of the marked terms' tokens found by the last `gatherMarkedTokens`,
 * as bits (cleared as `nextMarkedToken` passes them), and each one's term.
 */
const gatheredBits = new IntVec();
const gatheredTerms = new IntVec();
let gatheredWords: i32 = 0;
let gatheredWord: i32 = 0;
let gatheredRest: u32 = 0;
/** The segment of the last token handed out, its start position less its first ordinal, and where the next begins. */
let segment: i32 = 0;
let segmentBase: i32 = 0;
let nextSegmentOrdinal: i32 = 0;
/** The last token handed out: its term, attribute and position. */
export let gatheredTerm: i32 = 0;
export let gatheredAttribute: i32 = 0;
export let gatheredPosition: i32 = 0;
let gatheredIndex: usize = 0;

/**
 * Finds the tokens of the query's `marks` marked terms (`sorted`: in
 * ascending order, u32 each) in the record whose index is `index`, to be
 * read in order with `nextMarkedToken`; false when looking them up would
 * cost more than reading the record's list (too many marked terms for its
 * size), which the caller then reads.
 */
export function gatherMarkedTokens(index: usize, sorted: usize, marks: i32): bool {
  const tokens = tokenCountOf(index);
  if (marks * LOOKUP_TOKENS > tokens) return false;
  gatheredBits.growZeroed((tokens + 31) >> 5);
  gatheredTerms.reserve(tokens);
  // in rounds, each reading the lines the next needs first (the marks' groups, then the more ordinals
  // of the terms found): their cache misses then overlap instead of each lookup waiting on its own
  let touched: u32 = 0;
  // marks and groups both ascend: one pass over the directory places every mark, where a binary
  // search per mark read its rows again for each (a short prefix marks tens of terms)
  const groups = groupCountOf(index);
  let group = -1;
  let nextFirst = firstTermOf(index, 0);
  for (let m = 0; m < marks; m++) {
    const term = load<i32>(sorted + (<usize>m << 2));
    while (term >= nextFirst) nextFirst = ++group + 1 < groups ? firstTermOf(index, group + 1) : i32.MAX_VALUE;
    unchecked(markGroups[m] = group);
    if (group >= 0) touched += load<u32>(groupAt(index, group));
  }
  let found = 0;
  for (let m = 0; m < marks; m++) {
    const group = unchecked(markGroups[m]);
    if (group < 0) continue;
    const term = load<i32>(sorted + (<usize>m << 2));
    const slot = slotInGroup(index, group, term);
    if (slot < 0) continue;
    unchecked(foundTerms[found] = term);
    unchecked(foundGroups[found] = group);
    unchecked(foundSlots[found++] = slot);
    if ((<u32>load<u16>(groupAt(index, group) + 32 + (<usize>slot << 1)) & MORE) != 0) {
      touched += load<u8>(moreAt(index) + <usize>moreStartOf(index, group));
    }
  }
  touchedLines = touched;
  for (let f = 0; f < found; f++) gatherTerm(index, unchecked(foundGroups[f]), unchecked(foundSlots[f]), unchecked(foundTerms[f]));
  gatheredWords = (tokenCountOf(index) + 31) >> 5;
  gatheredWord = -1;
  gatheredRest = 0;
  startPlacing(index);
  return true;
}

/**
 * Starts placing ordinals of the record whose index is `index`, ascending
 * (placeOrdinal): the tokens gathered here, or those the position lists
 * gave (term-positions.ts).
 */
export function startPlacing(index: usize): void {
  gatheredIndex = index;
  // tokens before any segment (only in a damaged list) are read as the full read reads them
  segment = -1;
  segmentBase = 0;
  gatheredAttribute = -1;
  nextSegmentOrdinal = segmentCountOf(index) > 0 ? load<i32>(segmentsAt(index)) : MAX_RECORD_TOKENS + 1;
}

/** Leaves the attribute and position of token `ordinal` (none below the last placed) in gatheredAttribute and gatheredPosition. */
@inline export function placeOrdinal(ordinal: i32): void {
  // segments without tokens share their first ordinal with the next: the last of them holds the token
  while (ordinal >= nextSegmentOrdinal) {
    segment++;
    const row = segmentsAt(gatheredIndex) + <usize>segment * 12;
    gatheredAttribute = load<i32>(row, 4);
    segmentBase = load<i32>(row, 8) - load<i32>(row);
    nextSegmentOrdinal = segment + 1 < segmentCountOf(gatheredIndex) ? load<i32>(row, 12) : MAX_RECORD_TOKENS + 1;
  }
  gatheredPosition = segmentBase + ordinal;
}

/** Per mark, its group (-1: below every term); per mark found, its term, group and slot. */
const markGroups = new StaticArray<i32>(MAX_LOOKED_UP);
const foundTerms = new StaticArray<i32>(MAX_LOOKED_UP);
const foundGroups = new StaticArray<i32>(MAX_LOOKED_UP);
const foundSlots = new StaticArray<i32>(MAX_LOOKED_UP);
/** What the rounds' reads ahead read, kept so that they are not optimized away. */
let touchedLines: u32 = 0;

/** `term`'s slot in group `group` (whose first term is not above it), its 16 terms compared at once; -1: not there. */
@inline function slotInGroup(index: usize, group: i32, term: i32): i32 {
  const offset = <u32>(term - firstTermOf(index, group));
  if (offset > GROUP_SPAN) return -1;
  const line = groupAt(index, group);
  const wanted = i16x8.splat(<i16>offset);
  const hits = i16x8.bitmask(i16x8.eq(v128.load(line), wanted)) | i16x8.bitmask(i16x8.eq(v128.load(line, 16), wanted)) << 8;
  return hits == 0 ? -1 : <i32>ctz(hits);
}

/** Notes the tokens of `term`, in slot `slot` of group `group`: its first ordinal, then its more ones. */
function gatherTerm(index: usize, group: i32, slot: i32, term: i32): void {
  const line = groupAt(index, group);
  const first = <u32>load<u16>(line + 32 + (<usize>slot << 1));
  const ordinal = <i32>(first & ~MORE);
  noteGathered(ordinal, term);
  if ((first & MORE) == 0) return;
  // the group's terms before this one with more ordinals come first: the top bits of the first ordinals
  const withMore = i16x8.bitmask(v128.load(line, 32)) | i16x8.bitmask(v128.load(line, 48)) << 8;
  let p = moreAt(index) + <usize>moreStartOf(index, group);
  for (let before = popcnt(withMore & ((1 << slot) - 1)); before > 0; before--) {
    for (startMoreOrdinals(p, 0); nextMoreOrdinal();) {}
    p = moreOrdinalsEnd;
  }
  for (startMoreOrdinals(p, ordinal); nextMoreOrdinal();) noteGathered(moreOrdinal, term);
}

// --- reading a term's more ordinals: a varint count, then varint gaps from the ordinal before
let moreOrdinalsLeft: i32 = 0;
/** Where the term's more ordinals read so far end (the next term's start, once all are read). */
let moreOrdinalsEnd: usize = 0;
/** The more ordinal nextMoreOrdinal read last. */
let moreOrdinal: i32 = 0;

/** Starts reading the more ordinals at `p` of a term whose first ordinal is `first`. */
@inline function startMoreOrdinals(p: usize, first: i32): void {
  moreOrdinalsLeft = <i32>readVarint(p);
  moreOrdinalsEnd = varintEnd;
  moreOrdinal = first;
}

/** Reads the next more ordinal into moreOrdinal; false when the term has none left. */
@inline function nextMoreOrdinal(): bool {
  if (moreOrdinalsLeft == 0) return false;
  moreOrdinalsLeft--;
  moreOrdinal += <i32>readVarint(moreOrdinalsEnd);
  moreOrdinalsEnd = varintEnd;
  return true;
}

@inline function noteGathered(ordinal: i32, term: i32): void {
  gatheredBits.set(ordinal >> 5, gatheredBits.get(ordinal >> 5) | (1 << (ordinal & 31)));
  gatheredTerms.set(ordinal, term);
}

/**
 * Moves to the next gathered token in the list's order, leaving its term,
 * attribute and position in gatheredTerm, gatheredAttribute and
 * gatheredPosition; false when none is left. A caller stopping early calls
 * `dropGatheredTokens`.
 */
export function nextMarkedToken(): bool {
  while (gatheredRest == 0) {
    if (++gatheredWord >= gatheredWords) return false;
    gatheredRest = <u32>gatheredBits.get(gatheredWord);
    gatheredBits.set(gatheredWord, 0);
  }
  const ordinal = (gatheredWord << 5) | <i32>ctz(gatheredRest);
  gatheredRest &= gatheredRest - 1;
  placeOrdinal(ordinal);
  gatheredTerm = gatheredTerms.get(ordinal);
  return true;
}

/** Clears what the last gathering left unread (a caller stopping before nextMarkedToken returned false). */
export function dropGatheredTokens(): void {
  const from = gatheredWord < 0 ? 0 : gatheredWord;
  for (let w = from; w < gatheredWords; w++) gatheredBits.set(w, 0);
  gatheredWord = gatheredWords;
  gatheredRest = 0;
}
