// Per-term postings (record ids, delta + varint coded, ascending) and
// per-record forward lists (the record's tokens in attribute order), which
// proximity and attribute ranking read. Records are dense ids given by JS;
// a removed record is a tombstone until `compactSome` drops its postings.
import { ByteVec, IntVec, putVarint, readVarint, varintEnd } from './buffers';
import { termClass } from './dictionary';
import { SkipEntries, anyVectorBetween, skipCount, skipNext, skipOffset } from './skip-entries';
import { beginRecordTerms, dropRecordTerms, ensureRecordTerms, indexRecordTerms, noteRecordSegment, noteRecordTerm } from './record-terms';
import { dropUnlisted, positionListBytes } from './term-positions';

// --- postings
// A key is stored as (position << RANK_BITS) | rank, ranks from RANK_ESCAPE on
// followed by a second varint (rank - RANK_ESCAPE): one byte for the first 16
// positions of the first 7 ranks, where rank << POSITION_BITS | position took
// two bytes for every attribute but the first.
const RANK_BITS = 3;
const RANK_ESCAPE: u32 = (1 << RANK_BITS) - 1;

/** Reads a stored key at `ptr` as rank << POSITION_BITS | position; the next offset is left in `varintEnd`. */
@inline function readKey(ptr: usize): u32 {
  const v = readVarint(ptr);
  let rank = v & RANK_ESCAPE;
  if (rank == RANK_ESCAPE) rank += readVarint(varintEnd);
  return (rank << POSITION_BITS) | (v >> RANK_BITS);
}

/** The posting `readPosting` decoded last: its record and key. */
let postingDoc: u32 = 0;
let postingKey: u32 = 0;

/** A stored key of up to 14 bits (rank below RANK_ESCAPE) as rank << POSITION_BITS | position. */
@inline function shortKey(key: u32): u32 { return ((key & RANK_ESCAPE) << POSITION_BITS) | (key >> RANK_BITS); }

/**
 * Decodes the posting (record gap, key) at `p` of a keyed list whose
 * previous record is `next - 1`; returns the offset after it. Nearly every
 * posting is a gap of one or two bytes (below 16,384 records) and a key of
 * one or two (rank below RANK_ESCAPE: two bytes from the 16th position of
 * an attribute on, most of a body's words): all four shapes are read from
 * one load, without a branch on which one it is (a list mixes them, and a
 * branch on them missed often). A list's block has room past its last
 * posting for the load (see add and importPostingList).
 */
@inline function readPosting(p: usize, next: u32): usize {
  const x = load<u32>(p);
  // 1 when the gap takes two bytes; the key starts after the gap
  const longGap = (x >> 7) & 1;
  const k = x >> ((longGap + 1) << 3);
  const longKey = (k >> 7) & 1;
  // read elsewhere: a gap of three bytes or more, an escaped rank (a key's first varint,
  // position << RANK_BITS | rank, is below 1 << 13: two bytes at most)
  const rare = (longGap & (x >> 15)) | <u32>((k & RANK_ESCAPE) == RANK_ESCAPE);
  if ((rare & 1) == 0) {
    postingDoc = next + ((x & 0x7f) | ((x >> 1) & 0x3f80 & (0 - longGap)));
    postingKey = shortKey((k & 0x7f) | ((k >> 1) & 0x3f80 & (0 - longKey)));
    return p + <usize>(2 + longGap + longKey);
  }
  postingDoc = next + readVarint(p);
  postingKey = readKey(varintEnd);
  return varintEnd;
}

/**
 * Decodes the postings in [p, end) of a keyed list, the first after record
 * `next - 1`, into the bitmaps and the key log at `logged` (see
 * orIntoWithLead); returns where the log ends.
 */
@inline function logPostings(p: usize, end: usize, next: u32, bitmap: usize, lead: usize, exact: usize, logged: usize, within: usize): usize {
  while (p < end) {
    p = readPosting(p, next);
    const doc = postingDoc, key = postingKey;
    next = doc + 1;
    if (within != 0 && !testBit(within, <i32>doc)) continue;
    setBit(bitmap, doc);
    if (key < LEAD_KEYS) setBit(lead, doc);
    else {
      store<u32>(logged, doc);
      store<u32>(logged, key, 4);
      logged += 8;
    }
    if (exact != 0) setBit(exact, doc);
  }
  return logged;
}

/**
 * Blocks of posting lists (see skip-entries.ts) a bounded word's decoding
 * read and jumped over, since the core started: how a test sees that the
 * skip entries are there, where answers are the same without them.
 */
export let boundedBlocksDecoded: u64 = 0;
export let boundedBlocksSkipped: u64 = 0;

/** Terms a PostingLists makes room for at once. */
const TERMS_PER_STEP = 1024;

/** A term's fields in PostingLists.fields. */
const LIST_FIELDS = 4;
const LIST_PTR = 0;
const LIST_LENGTH = 1;
const LIST_CAPACITY = 2;
const LIST_LAST = 3;

/** Posting lists: per term, ascending record ids, delta + varint coded, in unmanaged blocks. */
@unmanaged
export class PostingLists {
  /** With keys, each entry also holds the attribute key of the term's first occurrence in the record. */
  constructor(readonly withKeys: bool) {}

  /** Terms with room for a list (see ensure). */
  @inline get terms(): i32 { return this.fields.length / LIST_FIELDS; }
  @inline private at(term: i32, field: i32): usize { return this.fields.ptr + ((<usize>term * LIST_FIELDS + <usize>field) << 2); }
  /** The term's list's address (0: none). */
  @inline ptrOf(term: i32): usize { return <usize>load<i32>(this.at(term, LIST_PTR)); }
  /** The term's list's length in bytes. */
  @inline lengthOf(term: i32): i32 { return load<i32>(this.at(term, LIST_LENGTH)); }
  @inline capacityOf(term: i32): i32 { return load<i32>(this.at(term, LIST_CAPACITY)); }
  /** The last record id appended to the term, plus one (0: none). */
  @inline lastPlusOneOf(term: i32): i32 { return load<i32>(this.at(term, LIST_LAST)); }
  @inline setPtr(term: i32, ptr: usize): void { store<i32>(this.at(term, LIST_PTR), <i32>ptr); }
  @inline setLength(term: i32, length: i32): void { store<i32>(this.at(term, LIST_LENGTH), length); }
  @inline setCapacity(term: i32, capacity: i32): void { store<i32>(this.at(term, LIST_CAPACITY), capacity); }
  @inline setLastPlusOne(term: i32, last: i32): void { store<i32>(this.at(term, LIST_LAST), last); }
  /**
   * Per term, LIST_FIELDS i32 side by side: its list's address, length and
   * capacity in bytes, and the last record id appended plus one (0: none).
   * In a vector each, adding a posting to a term gone cold read four cache
   * lines, decoding its list two.
   */
  fields: IntVec = new IntVec();
  /** Keyed lists only (the ones decoded within candidates): see skip-entries.ts. */
  skips: SkipEntries = new SkipEntries();

  /**
   * Room for terms below `count`, made TERMS_PER_STEP terms at a time:
   * indexing asks for it at each new term.
   */
  ensure(count: i32): void {
    if (count <= this.terms) return;
    const room = (count + TERMS_PER_STEP - 1) & ~(TERMS_PER_STEP - 1);
    this.fields.growZeroed(room * LIST_FIELDS);
    if (this.withKeys) this.skips.ensure(room);
  }

  add(term: i32, doc: i32, key: u32): void {
    const last = this.lastPlusOneOf(term);
    if (last == doc + 1) return;
    let length = this.lengthOf(term);
    let capacity = this.capacityOf(term);
    let ptr = this.ptrOf(term);
    if (length + 15 > capacity) {
      // grow by a quarter: posting lists are most of the index, slack is memory
      capacity = length + 15 + (length >> 2) + 6;
      ptr = ptr == 0 ? heap.alloc(<usize>capacity) : heap.realloc(ptr, <usize>capacity);
      this.setPtr(term, ptr);
      this.setCapacity(term, capacity);
    }
    if (this.withKeys) this.skips.note(term, length, <u32>last);
    let gap = <u32>(doc - last);
    while (gap >= 0x80) {
      store<u8>(ptr + <usize>(length++), <u8>(gap | 0x80));
      gap >>= 7;
    }
    store<u8>(ptr + <usize>(length++), <u8>gap);
    if (this.withKeys) {
      // stored as position << 3 | rank: one byte for most keys (see readKey)
      const rank = key >> POSITION_BITS;
      length = putVarint(ptr, length, ((key & ((1 << POSITION_BITS) - 1)) << RANK_BITS) | (rank < RANK_ESCAPE ? rank : RANK_ESCAPE));
      if (rank >= RANK_ESCAPE) length = putVarint(ptr, length, rank - RANK_ESCAPE);
    }
    this.setLength(term, length);
    this.setLastPlusOne(term, doc + 1);
  }

  /** ORs the term's records into the bitmap at `bitmap`. */
  orInto(term: i32, bitmap: usize): void {
    if (term >= this.terms) return;
    let p = this.ptrOf(term);
    const end = p + <usize>this.lengthOf(term);
    let next: u32 = 0;
    while (p < end) {
      let doc: u32;
      if (this.withKeys) {
        p = readPosting(p, next);
        doc = postingDoc;
      } else {
        doc = next + readVarint(p);
        p = varintEnd;
      }
      setBit(bitmap, doc);
      next = doc + 1;
    }
  }

  /**
   * Like orInto; records matched in the lead place also go to `lead` (see
   * LEAD_KEYS), every record to `exact` too unless it is 0 (a whole word:
   * decoded once for both bitmaps). The other postings' (record, key) pairs
   * are appended to `keys`, two i32 each: a per-record array of best keys
   * raised here would miss the cache once a posting at 1M records (half to
   * three quarters of the matching), where the listed candidates, raised
   * from the log later, are usually a few of them. With `within` (a bitmap;
   * 0: none), only the postings of its records are read into the bitmaps
   * and the log: the query's candidates are among them, and the bits and
   * keys of other records are never read (a bounded word, see
   * bounded-match.ts: at 1M records most postings of its terms fall outside).
   * `withinVectors` summarises `within` (a bit per 128 records, see
   * anyVectorBetween): the blocks between skip entries whose records hold
   * none of them are not decoded.
   */
  orIntoWithLead(term: i32, bitmap: usize, lead: usize, exact: usize, keys: IntVec, within: usize = 0, withinVectors: usize = 0): void {
    if (term >= this.terms) return;
    const start = this.ptrOf(term);
    const end = start + <usize>this.lengthOf(term);
    // a posting takes two bytes at least: the log has room for every one
    keys.reserve(keys.length + this.lengthOf(term));
    let logged = keys.ptr + (<usize>keys.length << 2);
    const skips = withinVectors != 0 ? this.skips.of(term) : 0;
    const blocks = skipCount(skips);
    let from = start;
    let fromNext: u32 = 0;
    let decoded = 0;
    for (let i = 0; i < blocks; i++) {
      const to = start + <usize>skipOffset(skips, i), toNext = skipNext(skips, i);
      if (anyVectorBetween(withinVectors, fromNext, toNext)) {
        logged = logPostings(from, to, fromNext, bitmap, lead, exact, logged, within);
        decoded++;
      }
      from = to;
      fromNext = toNext;
    }
    if (blocks == 0 || anyVectorBetween(withinVectors, fromNext, <u32>this.lastPlusOneOf(term))) {
      logged = logPostings(from, end, fromNext, bitmap, lead, exact, logged, within);
      decoded++;
    }
    if (within != 0) {
      boundedBlocksDecoded += <u64>decoded;
      boundedBlocksSkipped += <u64>(blocks + 1 - decoded);
    }
    keys.length = <i32>((logged - keys.ptr) >> 2);
  }

  /** Writes `term`'s skip entries anew from its list (rewritten, or read from a snapshot). */
  rebuildSkips(term: i32): void {
    if (!this.withKeys || term >= this.terms) return;
    const skips = this.skips;
    skips.free(term);
    if (this.lengthOf(term) == 0) return;
    const start = this.ptrOf(term);
    const end = start + <usize>this.lengthOf(term);
    let p = start;
    let next: u32 = 0;
    while (p < end) {
      skips.note(term, <i32>(p - start), next);
      p = readPosting(p, next);
      next = postingDoc + 1;
    }
  }

  /**
   * Drops the postings of removed records from the term's list, in place: a
   * kept posting's gap grows by the postings dropped before it, whose bytes
   * are at least as many as it grows by, so the writer never passes the
   * reader. A list left much larger than its postings is shrunk.
   */
  dropDead(term: i32): void {
    if (term >= this.terms) return;
    const ptr = this.ptrOf(term);
    const end = ptr + <usize>this.lengthOf(term);
    let p = ptr;
    let out = 0;
    let next: u32 = 0;
    let keptPlusOne: u32 = 0;
    while (p < end) {
      const doc = next + readVarint(p);
      p = varintEnd;
      const keyStart = p;
      if (this.withKeys) {
        const v = readVarint(p);
        p = varintEnd;
        if ((v & RANK_ESCAPE) == RANK_ESCAPE) { readVarint(p); p = varintEnd; }
      }
      next = doc + 1;
      if (!isLive(<i32>doc)) continue;
      out = putVarint(ptr, out, doc - keptPlusOne);
      memory.copy(ptr + <usize>out, keyStart, p - keyStart);
      out += <i32>(p - keyStart);
      keptPlusOne = doc + 1;
    }
    this.setLength(term, out);
    this.setLastPlusOne(term, keptPlusOne);
    this.shrink(term);
    this.rebuildSkips(term);
  }

  private shrink(term: i32): void {
    const length = this.lengthOf(term);
    const capacity = this.capacityOf(term);
    if (capacity <= (length << 1) + 64) return;
    const ptr = this.ptrOf(term);
    if (length == 0) {
      heap.free(ptr);
      this.setPtr(term, 0);
      this.setCapacity(term, 0);
      return;
    }
    const smaller = length + 15 + (length >> 2) + 6;
    this.setPtr(term, heap.realloc(ptr, <usize>smaller));
    this.setCapacity(term, smaller);
  }

  /** Number of postings of the term (decoding-free upper bound: its bytes). */
  @inline bytes(term: i32): i32 { return term < this.terms ? this.lengthOf(term) : 0; }

  /** The bytes of the lists of `terms` (a load of each term's fields). */
  bytesOf(terms: IntVec): i32 {
    let bytes = 0;
    for (let t = 0; t < terms.length; t++) bytes += this.bytes(terms.get(t));
    return bytes;
  }

  /**
   * ORs the term's records into `bitmap` and raises `keys[doc]` (u16) to
   * 0xffff - the entry's key (never 0 for a record in the bitmap), records
   * matched in the lead place into `lead`, into `exact` too unless it is 0.
   * False when a key needs 16 bits or more.
   */
  orIntoKeys16(term: i32, bitmap: usize, keys: usize, lead: usize, exact: usize): bool {
    if (term >= this.terms) return true;
    let p = this.ptrOf(term);
    const end = p + <usize>this.lengthOf(term);
    let next: u32 = 0;
    while (p < end) {
      p = readPosting(p, next);
      const doc = postingDoc, key = postingKey;
      if (key >= 0xffff) return false;
      addKeyed16(bitmap, keys, lead, doc, key);
      if (exact != 0) setBit(exact, doc);
      next = doc + 1;
    }
    return true;
  }

  reset(count: i32): void {
    for (let t = 0; t < count && t < this.terms; t++) {
      this.setLength(t, 0);
      this.setLastPlusOne(t, 0);
      if (this.withKeys) this.skips.free(t);
    }
  }
}

/** Every (term, record) pair. */
export const postings = new PostingLists(true);
/** Records where the term is a whole attribute value (one-token segment): exactOnSingleWordQuery=attribute. */
export const wholeValues = new PostingLists(false);

/** Per searchable attribute id: its rank and 1 when declared unordered(). */
export const attributeRank = new IntVec();
export const attributeUnordered = new IntVec();

/** Attribute keys kept per record by a query: 22 bits (attribute ranks below 4096), under a 10-bit query stamp. */
export const KEY_BITS = 22;
export const KEY_MASK: u32 = (1 << KEY_BITS) - 1;

/** Attribute key of a token: rank first, then position (ignored for unordered attributes), capped. */
export const POSITION_BITS = 10;

/**
 * Lead keys: the first word of the first attribute (key 0; any word of it
 * when it is unordered). A broad query's page ranked by attribute first
 * usually lies among the records matched there: at 1M records they are a few
 * percent of a short prefix's, where the whole first attribute held a quarter
 * (as-you-type summed time -10 to -28%).
 */
export const LEAD_KEYS: u32 = 1;

/** Sets record `doc`'s bit in `bitmap`. */
@inline export function setBit(bitmap: usize, doc: u32): void {
  const word = bitmap + (<usize>(doc >> 5) << 2);
  store<u32>(word, load<u32>(word) | (<u32>1 << (doc & 31)));
}

@inline export function testBit(bitmap: usize, doc: i32): bool {
  return (load<u32>(bitmap + (<usize>(doc >> 5) << 2)) & (<u32>1 << (doc & 31))) != 0;
}

/**
 * One posting of a keyed bitmap (see orIntoKeys16; a prefix-cache entry):
 * `doc`'s bit, its u16 key raised to 0xffff - `key`, its lead bit when the
 * key is a lead key. `key` is below 0xffff.
 */
@inline export function addKeyed16(bitmap: usize, keys: usize, lead: usize, doc: u32, key: u32): void {
  setBit(bitmap, doc);
  const slot = keys + (<usize>doc << 1);
  const raised = <u32>0xffff - key;
  if (raised > <u32>load<u16>(slot)) store<u16>(slot, <u16>raised);
  if (key < LEAD_KEYS) setBit(lead, doc);
}

@inline export function attributeKey(attribute: i32, position: i32): u32 {
  const rank = attribute < attributeRank.length ? attributeRank.get(attribute) : 0;
  const unordered = attribute < attributeUnordered.length && attributeUnordered.get(attribute) != 0;
  const pos = unordered ? 0 : (position < 1023 ? position : 1023);
  return (<u32>rank << POSITION_BITS) | <u32>pos;
}

export function ensureTerms(count: i32): void {
  postings.ensure(count);
  wholeValues.ensure(count);
}

// --- records
export const docPtr = new IntVec();
export const docLength = new IntVec();
/** One bit per live record, to AND with candidate bitmaps. */
export const liveBits = new IntVec();
export let docCapacity: i32 = 0;
export let liveCount: i32 = 0;

export function ensureDocs(count: i32): void {
  if (count <= docPtr.length) return;
  docPtr.growZeroed(count); docLength.growZeroed(count);
  pairSketches.growZeroed(count * SKETCH_WORDS);
  ensureRecordTerms(count);
  // padded to whole 128-bit vectors, as query bitmaps are (wordsets.ts)
  liveBits.growZeroed(((count + 127) >> 7) << 2);
  docCapacity = docPtr.length;
}

@inline export function isLive(doc: i32): bool { return (liveBits.get(doc >> 5) & (1 << (doc & 31))) != 0; }

function setLiveBit(doc: i32, live: bool): void {
  const w = doc >> 5;
  const bit = 1 << (doc & 31);
  liveBits.set(w, live ? liveBits.get(w) | bit : liveBits.get(w) & ~bit);
}

/**
 * Stores record `doc`'s forward list, and its sketch: the one built as
 * the list was written when `sketched` (see beginSketch), else built from
 * the stored list; a long list's term index (record-terms.ts) too.
 */
export function storeForward(doc: i32, bytes: ByteVec, sketched: bool = false): void {
  ensureDocs(doc + 1);
  removeDoc(doc);
  const ptr = heap.alloc(<usize>bytes.length);
  memory.copy(ptr, bytes.ptr, <usize>bytes.length);
  docPtr.set(doc, <i32>ptr);
  docLength.set(doc, bytes.length);
  if (!sketched) sketchFromList(doc);
  memory.copy(sketchOf(doc), built, SKETCH_WORDS << 2);
  indexRecordTerms(doc);
  liveCount++;
  setLiveBit(doc, true);
}

export function removeDoc(doc: i32): void {
  if (doc >= docPtr.length || !isLive(doc)) return;
  heap.free(<usize>docPtr.get(doc));
  dropRecordTerms(doc);
  docPtr.set(doc, 0);
  docLength.set(doc, 0);
  setLiveBit(doc, false);
  liveCount--;
}

/** Forward list markers: 0 opens a segment (attribute id, start position follow); n > 0 is term n-1. */
export const SEGMENT = 0;

// --- adjacent-pair sketches
// Per record, a Bloom filter of 256 bits over the pairs of tokens side by
// side in an attribute: a term, and the class of the next one (its first
// three units, see dictionary.ts: a prefix or a typo of the last word
// reaches a few classes).
// A query's words are at the best proximity in a record only where some of
// their terms are side by side, so a record whose sketch lacks every pair
// of the query's terms cannot be (see adjacent-pairs.ts): broad queries
// rank lazily by proximity and read ~1,300 forward lists to find the 20
// that are. Built whenever a forward list is stored (see beginSketch), so
// snapshots hold no sketches: loading one builds them.

/** u32 words of a record's sketch. */
const SKETCH_WORDS = 8;
const pairSketches = new IntVec();
/** Where record `doc`'s sketch is. */
@inline export function sketchOf(doc: i32): usize { return pairSketches.ptr + (<usize>doc * SKETCH_WORDS << 2); }

/** The pair's two sketch bits, 0-255 each, as first | second << 8, for `term` followed by a term of class `nextClass`. */
@inline export function pairBits(term: i32, nextClass: u32): u32 {
  let h = <u32>term * 0x9e3779b1 + nextClass;
  h ^= h >> 15; h *= 0x2c1b3c6d;
  h ^= h >> 12;
  return (h >> 8) & 0xffff;
}

// A record's sketch is built pair by pair (beginSketch, then sketchSegment
// and sketchTerm in the list's order), either as its forward list is
// written (addDocuments: each next term's class from its token's units at
// hand, where reading termClass was a cache miss at most tokens of an
// import, the terms' classes lying among their other data) or read back
// from a stored list (sketchFromList: a snapshot loaded), then copied to
// the record's place (storeForward). The same pass hands the list's
// tokens to its term index (record-terms.ts).
const built = heap.alloc(SKETCH_WORDS << 2);
let builtAttribute = -1, builtPosition = 0, builtPrevious = -1;

/** Starts the sketch of a forward list about to be written or read. */
export function beginSketch(): void {
  beginRecordTerms();
  memory.fill(built, 0, SKETCH_WORDS << 2);
  builtAttribute = -1;
  builtPosition = 0;
  builtPrevious = -1;
}

/** The list's next segment: `attribute`'s, from `start`. */
export function sketchSegment(attribute: i32, start: i32): void {
  noteRecordSegment(attribute, start);
  // a segment continuing its attribute's positions keeps the pair across it
  if (attribute != builtAttribute || start != builtPosition) builtPrevious = -1;
  builtAttribute = attribute;
  builtPosition = start;
}

/** The list's next term, of class `termClass` (see dictionary.ts); -1: a term the dictionary lacks, which pairs with nothing. */
@inline export function sketchTerm(term: i32, termClass: u32): void {
  noteRecordTerm(term);
  if (builtPrevious >= 0 && term >= 0) {
    const bits = pairBits(builtPrevious, termClass);
    setBit(built, bits & 0xff);
    setBit(built, bits >> 8);
  }
  builtPrevious = term;
  builtPosition++;
}

/** Builds the sketch of record `doc`'s stored forward list. */
function sketchFromList(doc: i32): void {
  beginSketch();
  let p = <usize>docPtr.get(doc);
  const end = p + <usize>docLength.get(doc);
  while (p < end) {
    const v = readVarint(p);
    p = varintEnd;
    if (v == SEGMENT) {
      const attribute = <i32>readVarint(p); p = varintEnd;
      const start = <i32>readVarint(p); p = varintEnd;
      sketchSegment(attribute, start);
      continue;
    }
    // a term the dictionary lacks (or a negative one) only in a damaged snapshot
    const term = <i32>v - 1;
    if (term >= 0 && term < termClass.length) sketchTerm(term, <u32>termClass.get(term));
    else sketchTerm(-1, 0);
  }
}

/**
 * Drops the removed records' postings from the lists of terms `first`
 * onwards, until about `budget` bytes of lists are rewritten; returns the
 * term to go on from (`termTotal` once every list is done). A step at a
 * time, between searches: at 1M records rebuilding every list at once
 * stopped searches for seconds. Searches between steps are right either
 * way, as they skip removed records (liveBits).
 */
export function compactSome(first: i32, budget: i32, termTotal: i32): i32 {
  let term = first;
  let rewritten = 0;
  while (term < termTotal && rewritten < budget) {
    rewritten += postings.bytes(term) + wholeValues.bytes(term) + positionListBytes(term) + 1;
    postings.dropDead(term);
    wholeValues.dropDead(term);
    dropUnlisted(term);
    term++;
  }
  return term;
}

/** Bytes of every posting list (what a whole compaction rewrites). */
export function postingBytes(termTotal: i32): f64 {
  let bytes: f64 = 0;
  for (let term = 0; term < termTotal; term++) bytes += <f64>(postings.bytes(term) + wholeValues.bytes(term) + positionListBytes(term));
  return bytes;
}
