// Binary snapshot of an index: the dictionary's terms (in id order), their
// posting lists, every live record's forward list and the rank arrays, all
// copied as they are in memory: importing is memory copies, no tokenizing.
// It streams through JS a window at a time (see snapshot-stream.ts).
import { ByteVec, freeVec } from './buffers';
import {
  atEnd, beginRead, beginWrite, endWrite, need, padTo4, put32, putBytes, readPtr, skip, skipPad4, space, take32, takeBytes, takeCount,
  truncated, wrote,
} from './snapshot-stream';
import { internToken, termCount, termUnitLength, termUnitStart, termUnits } from './dictionary';
import { MAX_TOKEN_UNITS, loadFoldedTerm, tokens } from './text';
import { PostingLists, compact, docLength, docPtr, ensureDocs, ensureTerms, isLive, postings, storeForward, wholeValues } from './store';
import { rankSlots } from './ranking';

const MAGIC: u32 = 0x49434e4c; // "LNCI"
/** Version 4 writes a record's forward list length plus one (0 = no record), so a live record without text comes back. */
const VERSION: u32 = 4;
/** Version 3 wrote the forward list length alone: a live record without text read as no record. */
const VERSION_LENGTHS: u32 = 3;
/** Version 2 stored attribute keys in postings as rank << 10 | position: its postings are rebuilt on import. */
const VERSION_OLD_KEYS: u32 = 2;
/** Rank slots worth saving: customRanking, asc/desc entries, distinct groups. */
const SAVED_SLOTS: i32[] = [0, 1, 2, 3, 4, 5, 6, 7, 10];

export function exportIndex(): void {
  beginWrite();
  put32(MAGIC);
  put32(VERSION);
  put32(<u32>termCount);
  for (let t = 0; t < termCount; t++) {
    const n = termUnitLength.get(t);
    const start = termUnitStart.get(t);
    put32(<u32>n);
    const padded = (n * 2 + 3) & ~3;
    const at = space(padded);
    for (let i = 0; i < n; i++) store<u16>(at + (<usize>i << 1), <u16>termUnits.get(start + i));
    if ((n & 1) != 0) store<u16>(at + (<usize>n << 1), 0);
    wrote(padded);
  }
  exportPostings(postings);
  exportPostings(wholeValues);
  const docs = docPtr.length;
  put32(<u32>docs);
  for (let d = 0; d < docs; d++) {
    if (!isLive(d)) { put32(0); continue; }
    const n = docLength.get(d);
    put32(<u32>n + 1);
    if (n > 0) putBytes(<usize>docPtr.get(d), n);
  }
  put32(<u32>SAVED_SLOTS.length);
  for (let i = 0; i < SAVED_SLOTS.length; i++) {
    const ranks = rankSlots[SAVED_SLOTS[i]];
    put32(<u32>SAVED_SLOTS[i]);
    put32(<u32>ranks.length);
    putBytes(ranks.ptr, ranks.length << 2);
  }
  endWrite();
}

function exportPostings(lists: PostingLists): void {
  for (let t = 0; t < termCount; t++) {
    const n = lists.length.get(t);
    put32(<u32>lists.lastPlusOne.get(t));
    put32(<u32>n);
    putBytes(<usize>lists.ptr.get(t), n);
    padTo4(n);
  }
}

function importPostings(lists: PostingLists, terms: i32): void {
  for (let t = 0; t < terms; t++) {
    lists.lastPlusOne.set(t, <i32>take32());
    const n = takeCount(1);
    const capacity = n + 8;
    const block = heap.alloc(<usize>capacity);
    takeBytes(block, n);
    lists.ptr.set(t, <i32>block);
    lists.length.set(t, n);
    lists.capacity.set(t, capacity);
    skipPad4(n);
    if (truncated) return;
  }
}

/** Rebuilds an empty index from the snapshot JS streams in; returns false when it is not one. */
export function importIndex(length: i32): bool {
  beginRead(length);
  if (take32() != MAGIC) return false;
  const version = take32();
  if (version != VERSION && version != VERSION_LENGTHS && version != VERSION_OLD_KEYS) return false;
  const terms = takeCount(8);
  for (let t = 0; t < terms; t++) {
    const n = <i32>take32();
    const padded = (n * 2 + 3) & ~3;
    if (n <= 0 || n > MAX_TOKEN_UNITS || !need(padded)) return false;
    loadFoldedTerm(readPtr(), n);
    skip(padded);
    if (tokens.count != 1 || internToken(0) != t) return false;
  }
  ensureTerms(termCount);
  importPostings(postings, terms);
  importPostings(wholeValues, terms);
  const docs = takeCount(4);
  if (truncated) return false;
  ensureDocs(docs);
  const forward = new ByteVec();
  const lengthPlusOne = version == VERSION;
  for (let d = 0; d < docs && !truncated; d++) {
    const stored = takeCount(1);
    if (stored == 0) continue;
    const n = lengthPlusOne ? stored - 1 : stored;
    forward.length = 0;
    forward.reserve(n);
    takeBytes(forward.ptr, n);
    forward.length = n;
    if (!truncated) storeForward(d, forward);
  }
  freeVec(forward);
  const slots = takeCount(8);
  for (let i = 0; i < slots && !truncated; i++) {
    const slot = <i32>take32();
    const n = takeCount(4);
    if (slot < 0 || slot >= rankSlots.length) return false;
    const ranks = rankSlots[slot];
    ranks.resetZero(n);
    takeBytes(ranks.ptr, n << 2);
  }
  if (truncated) return false;
  if (version == VERSION_OLD_KEYS) compact(termCount);
  return atEnd();
}
