// Where each term occurs in the long records, term by term: per term, the
// records holding it that have a term index (record-terms.ts), in
// ascending order, each with the ordinals of its tokens there. A record's
// term index answers where the query's marked terms are in that record;
// ranking thousands of long records by proximity (two common words over
// documents of ~1,000 words: "detelopment phot" over 20,000 of them)
// reached each record's index at a few cache misses a record, ~1 µs. These
// lists hand the marked tokens of all of a ranking's candidates over at
// once, read term by term, front to back (bucket-sort.ts
// gatherCandidatesTokens), and the scan of each record then reads them in
// the list's order as it reads those its index gives (ranking.ts
// scanGatheredRecord): the same tokens, the same notes.
//
// Records are listed from their term indexes a step at a time while
// writes pause (record-terms.ts listRecordsSome), in id order only: a
// record whose id is not above every id listed (one indexed under an id
// the listing had passed, which the engine does not do: a record written
// again takes a new id, and renumbering builds a new core) is left out,
// and a record not listed yet is scanned on its own. A removed record's
// entries stay, unread (no candidate is a removed record), until
// compaction rewrites the lists (dropUnlisted). Derived like the term
// indexes: a snapshot holds none, loading one lists its records again.
import { IntVec, putVarint, readVarint, varintEnd } from './buffers';

// A term's list: per record, a varint of its id less the last record's
// plus one, doubled, plus one when the term occurs more than once there
// (then a varint of how many times, less two); then its ordinals (the
// first, then gaps), each a varint. Most terms of a record occur once: an
// entry is then three or four bytes.

/** Per term, LIST_FIELDS i32 side by side: its list's address, length and capacity in bytes, and its last record plus one. */
const LIST_FIELDS = 4;
const LIST_PTR = 0;
const LIST_LENGTH = 1;
const LIST_CAPACITY = 2;
const LIST_LAST = 3;
const fields = new IntVec();
/** Terms made room for at once. */
const TERMS_PER_STEP = 1024;

@inline function fieldAt(term: i32, field: i32): usize { return fields.ptr + ((<usize>term * LIST_FIELDS + <usize>field) << 2); }
/** Bytes of `term`'s list (0: none). */
@inline export function positionListBytes(term: i32): i32 { return term < fields.length / LIST_FIELDS ? load<i32>(fieldAt(term, LIST_LENGTH)) : 0; }

/** One bit per record whose tokens are listed; the records listed; the last record listed plus one. */
const listed = new IntVec();
export let listedRecords: i32 = 0;
let listedPlusOne: i32 = 0;

@inline export function isListed(doc: i32): bool {
  return (doc >> 5) < listed.length && (listed.get(doc >> 5) & (1 << (doc & 31))) != 0;
}

function setListed(doc: i32, on: bool): void {
  listed.growZeroed((doc >> 5) + 1);
  const word = listed.get(doc >> 5), bit = 1 << (doc & 31);
  listed.set(doc >> 5, on ? word | bit : word & ~bit);
}

// --- listing a record

/**
 * Lists record `doc`'s tokens: `ordinals` (u32 each, `count` of them)
 * ordered by term, each term's ascending, the term of ordinal n at
 * `terms` + 4n; `maxTerm` the largest. Left out when a record of its id or
 * above is listed already (see the header).
 */
export function listRecordTokens(doc: i32, terms: usize, ordinals: usize, count: i32, maxTerm: i32): void {
  if (doc < listedPlusOne) return;
  ensureTerms(maxTerm + 1);
  for (let i = 0; i < count;) {
    const term = load<i32>(terms + (<usize>load<i32>(ordinals + (<usize>i << 2)) << 2));
    let end = i + 1;
    while (end < count && load<i32>(terms + (<usize>load<i32>(ordinals + (<usize>end << 2)) << 2)) == term) end++;
    appendEntry(term, doc, ordinals + (<usize>i << 2), end - i);
    i = end;
  }
  setListed(doc, true);
  listedRecords++;
  listedPlusOne = doc + 1;
}

/** Record `doc`'s tokens are no longer what its entries say (it was removed): they are skipped, then dropped. */
export function unlistRecord(doc: i32): void {
  if (!isListed(doc)) return;
  setListed(doc, false);
  listedRecords--;
}

function ensureTerms(count: i32): void {
  const terms = fields.length / LIST_FIELDS;
  if (count <= terms) return;
  fields.growZeroed(((count + TERMS_PER_STEP - 1) & ~(TERMS_PER_STEP - 1)) * LIST_FIELDS);
}

/** Room for a varint of up to 32 bits. */
const VARINT_BYTES = 5;
/** Appends record `doc`'s entry to `term`'s list: its `n` ordinals at `ordinals` (u32 each, ascending). */
function appendEntry(term: i32, doc: i32, ordinals: usize, n: i32): void {
  const length = load<i32>(fieldAt(term, LIST_LENGTH));
  const ptr = reserveList(term, length + (n + 2) * VARINT_BYTES);
  const gap = <u32>(doc - load<i32>(fieldAt(term, LIST_LAST)));
  let at = putVarint(ptr, length, (gap << 1) | <u32>(n > 1));
  if (n > 1) at = putVarint(ptr, at, <u32>(n - 2));
  let previous = 0;
  for (let k = 0; k < n; k++) {
    const ordinal = load<i32>(ordinals + (<usize>k << 2));
    at = putVarint(ptr, at, <u32>(ordinal - previous));
    previous = ordinal;
  }
  store<i32>(fieldAt(term, LIST_LENGTH), at);
  store<i32>(fieldAt(term, LIST_LAST), doc + 1);
}

/** The entry read last by readEntry: its record's gap and ordinal count, and where its ordinals start. */
let entryGap: i32 = 0;
let entryOrdinals: i32 = 0;
let entryFrom: usize = 0;

/** Reads the head of the entry at `p` (entryGap, entryOrdinals, entryFrom). */
@inline function readEntry(p: usize): void {
  const head = readVarint(p);
  entryGap = <i32>(head >> 1);
  entryOrdinals = 1;
  entryFrom = varintEnd;
  if ((head & 1) != 0) {
    entryOrdinals = <i32>readVarint(entryFrom) + 2;
    entryFrom = varintEnd;
  }
}

/** Where the `n` varints from `p` end. */
@inline function afterVarints(p: usize, n: i32): usize {
  while (n > 0) {
    if (load<u8>(p) < 0x80) n--;
    p++;
  }
  return p;
}

/** `term`'s list with room for `needed` bytes, grown by a quarter when short (these lists are a large share of a long records' index). */
function reserveList(term: i32, needed: i32): usize {
  let ptr = <usize>load<i32>(fieldAt(term, LIST_PTR));
  const capacity = load<i32>(fieldAt(term, LIST_CAPACITY));
  if (needed <= capacity) return ptr;
  const grown = needed + (needed >> 2) + 8;
  ptr = ptr == 0 ? heap.alloc(<usize>grown) : heap.realloc(ptr, <usize>grown);
  store<i32>(fieldAt(term, LIST_PTR), <i32>ptr);
  store<i32>(fieldAt(term, LIST_CAPACITY), grown);
  return ptr;
}

// --- compaction

/** Rewrites `term`'s list without the entries of records no longer listed (removed ones); returns the bytes it read. */
export function dropUnlisted(term: i32): i32 {
  const length = positionListBytes(term);
  if (length == 0) return 0;
  const ptr = <usize>load<i32>(fieldAt(term, LIST_PTR));
  let p = ptr;
  const end = ptr + <usize>length;
  let at = 0, doc = 0, keptPlusOne = 0;
  while (p < end) {
    readEntry(p);
    doc += entryGap;
    const from = entryFrom;
    p = afterVarints(from, entryOrdinals);
    if (isListed(doc)) {
      // never past what it is read from: a merged gap's varint is no longer than the entries dropped before it
      at = putVarint(ptr, at, (<u32>(doc - keptPlusOne) << 1) | <u32>(entryOrdinals > 1));
      if (entryOrdinals > 1) at = putVarint(ptr, at, <u32>(entryOrdinals - 2));
      memory.copy(ptr + <usize>at, from, p - from);
      at += <i32>(p - from);
      keptPlusOne = doc + 1;
    }
    doc++;
  }
  store<i32>(fieldAt(term, LIST_LENGTH), at);
  store<i32>(fieldAt(term, LIST_LAST), keptPlusOne);
  return length;
}

// --- a range's tokens at once

/** Per record id, the stamp of the range it is in and its slot there. */
const rangeStamps = new IntVec();
const rangeSlots = new IntVec();
let rangeStamp: i32 = 0;
/** Per slot, its first and last token gathered (-1: none). */
const slotFirst = new IntVec();
const slotLast = new IntVec();
/** Per token gathered: its term, its ordinal, and the next of its slot's. */
const tokenTerms = new IntVec();
const tokenOrdinals = new IntVec();
const tokenNext = new IntVec();

/** Starts a range of `slots` slots over records below `docs`, none in it yet. */
export function beginRange(slots: i32, docs: i32): void {
  slotFirst.reserve(slots);
  slotFirst.length = slots;
  memory.fill(slotFirst.ptr, 0xff, <usize>slots << 2);
  slotLast.reserve(slots);
  slotLast.length = slots;
  if (rangeStamps.length < docs || rangeStamp == 0x7fffffff) {
    rangeStamps.resetZero(docs > rangeStamps.length ? docs : rangeStamps.length);
    rangeSlots.growZeroed(rangeStamps.length);
    rangeStamp = 0;
  }
  rangeStamp++;
  tokenTerms.length = 0;
  tokenOrdinals.length = 0;
  tokenNext.length = 0;
}

/** Puts listed record `doc` in slot `slot` of the range. */
export function addToRange(doc: i32, slot: i32): void {
  rangeStamps.set(doc, rangeStamp);
  rangeSlots.set(doc, slot);
}

@inline export function tokenTerm(token: i32): i32 { return tokenTerms.get(token); }
@inline export function tokenOrdinal(token: i32): i32 { return tokenOrdinals.get(token); }

/** A slot's tokens in ascending ordinal order (see slotTokensInOrder). */
export const slotTokens = new IntVec();

/** More tokens than this in a record are not sorted here: its scan reads its index instead. */
const MOST_SORTED = 256;

/**
 * Leaves in slotTokens slot `slot`'s tokens in the list's order, by
 * ordinal, and returns how many; -1 when there are more than MOST_SORTED.
 * A record's marked tokens are usually few (a handful of a query's terms
 * in it), chained term after term, each term's ascending: sorted by
 * insertion, which a record holding thousands would make quadratic.
 */
export function slotTokensInOrder(slot: i32): i32 {
  slotTokens.length = 0;
  let count = 0;
  for (let t = slotFirst.get(slot); t >= 0 && count <= MOST_SORTED; t = tokenNext.get(t)) count++;
  if (count > MOST_SORTED) return -1;
  for (let t = slotFirst.get(slot); t >= 0; t = tokenNext.get(t)) {
    slotTokens.push(t);
    const ordinal = tokenOrdinals.get(t);
    let j = slotTokens.length - 1;
    while (j > 0 && tokenOrdinals.get(slotTokens.get(j - 1)) > ordinal) { slotTokens.set(j, slotTokens.get(j - 1)); j--; }
    slotTokens.set(j, t);
  }
  return slotTokens.length;
}

/** Bytes of the lists of the `count` terms at `terms` (u32 each). */
export function positionBytesOf(terms: usize, count: i32): f64 {
  let bytes: f64 = 0;
  for (let i = 0; i < count; i++) bytes += <f64>positionListBytes(load<i32>(terms + (<usize>i << 2)));
  return bytes;
}

/** Gathers the tokens of the `count` terms at `terms` (u32 each) in the range's records, each slot's chained. */
export function gatherRange(terms: usize, count: i32): void {
  for (let i = 0; i < count; i++) {
    const term = load<i32>(terms + (<usize>i << 2));
    const length = positionListBytes(term);
    if (length == 0) continue;
    let p = <usize>load<i32>(fieldAt(term, LIST_PTR));
    const end = p + <usize>length;
    let doc = 0;
    while (p < end) {
      readEntry(p);
      doc += entryGap;
      if (doc < rangeStamps.length && rangeStamps.get(doc) == rangeStamp) p = gatherEntry(term, rangeSlots.get(doc), entryFrom, entryOrdinals);
      else p = afterVarints(entryFrom, entryOrdinals);
      doc++;
    }
  }
}

/** Chains the `n` ordinals at `p` of `term` to slot `slot`; returns where they end. */
function gatherEntry(term: i32, slot: i32, p: usize, n: i32): usize {
  let ordinal = 0;
  for (; n > 0; n--) {
    ordinal += <i32>readVarint(p);
    p = varintEnd;
    const token = tokenTerms.length;
    tokenTerms.push(term);
    tokenOrdinals.push(ordinal);
    tokenNext.push(-1);
    // chained at the end: a term's tokens come in ascending order
    if (slotFirst.get(slot) < 0) slotFirst.set(slot, token);
    else tokenNext.set(slotLast.get(slot), token);
    slotLast.set(slot, token);
  }
  return p;
}
