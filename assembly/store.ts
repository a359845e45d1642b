// Per-term postings (record ids, delta + varint coded, ascending) and
// per-record forward lists (the record's tokens in attribute order), which
// proximity and attribute ranking read. Records are dense ids given by JS;
// a removed record is a tombstone until `compact` drops its postings.
import { ByteVec, IntVec, grownCapacity, readVarint, varintEnd } from './buffers';

// --- postings
export const postPtr = new IntVec();
export const postLength = new IntVec();
export const postCapacity = new IntVec();
/** Last record id appended to the term, plus one (0 = none). */
const postLastPlusOne = new IntVec();

export function ensureTerms(count: i32): void {
  while (postPtr.length < count) {
    postPtr.push(0); postLength.push(0); postCapacity.push(0); postLastPlusOne.push(0);
  }
}

export function addPosting(term: i32, doc: i32): void {
  const last = postLastPlusOne.get(term);
  if (last == doc + 1) return;
  let length = postLength.get(term);
  let capacity = postCapacity.get(term);
  let ptr = <usize>postPtr.get(term);
  if (length + 5 > capacity) {
    capacity = grownCapacity(capacity, length + 5, 8);
    ptr = ptr == 0 ? heap.alloc(<usize>capacity) : heap.realloc(ptr, <usize>capacity);
    postPtr.set(term, <i32>ptr);
    postCapacity.set(term, capacity);
  }
  let gap = <u32>(doc - last);
  while (gap >= 0x80) {
    store<u8>(ptr + <usize>(length++), <u8>(gap | 0x80));
    gap >>= 7;
  }
  store<u8>(ptr + <usize>(length++), <u8>gap);
  postLength.set(term, length);
  postLastPlusOne.set(term, doc + 1);
}

/** ORs the term's records into the bitmap at `bitmap`. */
export function orPostings(term: i32, bitmap: usize): void {
  let p = <usize>postPtr.get(term);
  const end = p + <usize>postLength.get(term);
  let next: u32 = 0;
  while (p < end) {
    const doc = next + readVarint(p);
    p = varintEnd;
    const word = bitmap + (<usize>(doc >> 5) << 2);
    store<u32>(word, load<u32>(word) | (<u32>1 << (doc & 31)));
    next = doc + 1;
  }
}

// --- records
export const docPtr = new IntVec();
export const docLength = new IntVec();
/** 1 for a live record. */
export const docLive = new IntVec();
/** The same, one bit per record, to AND with candidate bitmaps. */
export const liveBits = new IntVec();
export let docCapacity: i32 = 0;
export let liveCount: i32 = 0;

export function ensureDocs(count: i32): void {
  if (count <= docPtr.length) return;
  while (docPtr.length < count) { docPtr.push(0); docLength.push(0); docLive.push(0); }
  while (liveBits.length < ((count + 31) >> 5)) liveBits.push(0);
  docCapacity = docPtr.length;
}

function setLiveBit(doc: i32, live: bool): void {
  const w = doc >> 5;
  const bit = 1 << (doc & 31);
  liveBits.set(w, live ? liveBits.get(w) | bit : liveBits.get(w) & ~bit);
}

export function storeForward(doc: i32, bytes: ByteVec): void {
  ensureDocs(doc + 1);
  removeDoc(doc);
  const ptr = heap.alloc(<usize>bytes.length);
  memory.copy(ptr, bytes.ptr, <usize>bytes.length);
  docPtr.set(doc, <i32>ptr);
  docLength.set(doc, bytes.length);
  if (docLive.get(doc) == 0) liveCount++;
  docLive.set(doc, 1);
  setLiveBit(doc, true);
}

export function removeDoc(doc: i32): void {
  if (doc >= docPtr.length || docLive.get(doc) == 0) return;
  heap.free(<usize>docPtr.get(doc));
  docPtr.set(doc, 0);
  docLength.set(doc, 0);
  docLive.set(doc, 0);
  setLiveBit(doc, false);
  liveCount--;
}

/** Forward list markers: 0 opens a segment (attribute id, start position follow); n > 0 is term n-1. */
export const SEGMENT = 0;

/** Rebuilds every posting list from the live records' forward lists, dropping tombstones. */
export function compact(termTotal: i32): void {
  for (let t = 0; t < termTotal; t++) {
    postLength.set(t, 0);
    postLastPlusOne.set(t, 0);
  }
  for (let doc = 0, n = docPtr.length; doc < n; doc++) {
    if (docLive.get(doc) == 0) continue;
    let p = <usize>docPtr.get(doc);
    const end = p + <usize>docLength.get(doc);
    while (p < end) {
      const v = readVarint(p);
      p = varintEnd;
      if (v == SEGMENT) {
        readVarint(p); p = varintEnd;
        readVarint(p); p = varintEnd;
      } else {
        addPosting(<i32>v - 1, doc);
      }
    }
  }
}
