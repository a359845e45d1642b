// Binary snapshot of an index: the dictionary's terms (in id order), their
// posting lists, every live record's forward list and the rank arrays, all
// copied as they are in memory: importing is memory copies, no tokenizing.
// It streams through JS a window at a time (see snapshot-stream.ts).
import { ByteVec, freeVec } from './buffers';
import {
  atEnd, beginRead, beginWrite, endWrite, need, padTo4, put32, putBytes, readPtr, received, skip, skipPad4, space, streamed, take32,
  takeBytes, takeCount, truncated, wrote,
} from './snapshot-stream';
import { internToken, termCount, termUnitLength, termUnitStart, termUnits } from './dictionary';
import { MAX_TOKEN_UNITS, loadFoldedTerm, tokens } from './text';
import { PostingLists, docLength, docPtr, ensureDocs, ensureTerms, isLive, postings, storeForward, wholeValues } from './store';
import { rankSlots } from './ranking';

const MAGIC: u32 = 0x49434e4c; // "LNCI"
/** Version 4 writes a record's forward list length plus one (0 = no record), so a live record without text comes back. */
const VERSION: u32 = 4;
// Version 3 (Lantern 0.1.0) wrote the forward list length alone: it is
// upgraded with the snapshot that holds it (src/durability/snapshot-upgrade.ts).
/** Rank slots worth saving: customRanking, asc/desc entries, distinct groups, the tie order. */
const SAVED_SLOTS: i32[] = [0, 1, 2, 3, 4, 5, 6, 7, 10, 11];

// Export and import run a step at a time (`exportSome`, `importSome`: about
// `budget` bytes each), so JS can answer searches between steps of a large
// index. Between steps nothing may write to the index (JS holds writes while
// a snapshot is captured; an import fills a core nobody searches yet).

const TERMS: i32 = 0;
const POSTINGS: i32 = 1;
const WHOLE_VALUES: i32 = 2;
const DOCS: i32 = 3;
const SLOTS: i32 = 4;
const DONE: i32 = 5;

/** The export's or import's phase, the item it is at, and how many the phase has. */
let phase = DONE;
let at = 0;
let count = 0;

function enter(next: i32, items: i32): void {
  phase = next;
  at = 0;
  count = items;
}

// ---------------------------------------------------------------- export

/** Starts streaming the index's snapshot; `exportSome` writes the rest. */
export function beginExport(): void {
  beginWrite();
  put32(MAGIC);
  put32(VERSION);
  put32(<u32>termCount);
  enter(TERMS, termCount);
}

/** Work an item costs beside its bytes (a term is interned, a list allocated): steps of even work. */
const ITEM_COST: i64 = 32;

/** Writes about `budget` more bytes of the snapshot; true once all of it is written. */
export function exportSome(budget: i32): bool {
  const stop = streamed() + <i64>budget;
  let items: i64 = 0;
  while (phase != DONE && streamed() + items++ * ITEM_COST < stop) {
    if (at == count) { nextExportPhase(); continue; }
    if (phase == TERMS) exportTerm(at);
    else if (phase == POSTINGS) exportPostingList(postings, at);
    else if (phase == WHOLE_VALUES) exportPostingList(wholeValues, at);
    else if (phase == DOCS) exportDoc(at);
    else exportSlot(at);
    at++;
  }
  if (phase != DONE) return false;
  endWrite();
  return true;
}

function nextExportPhase(): void {
  if (phase == TERMS) enter(POSTINGS, termCount);
  else if (phase == POSTINGS) enter(WHOLE_VALUES, termCount);
  else if (phase == WHOLE_VALUES) {
    enter(DOCS, docPtr.length);
    put32(<u32>count);
  } else if (phase == DOCS) {
    enter(SLOTS, SAVED_SLOTS.length);
    put32(<u32>count);
  } else enter(DONE, 0);
}

function exportTerm(t: i32): void {
  const n = termUnitLength.get(t);
  const start = termUnitStart.get(t);
  put32(<u32>n);
  const padded = (n * 2 + 3) & ~3;
  const into = space(padded);
  for (let i = 0; i < n; i++) store<u16>(into + (<usize>i << 1), <u16>termUnits.get(start + i));
  if ((n & 1) != 0) store<u16>(into + (<usize>n << 1), 0);
  wrote(padded);
}

function exportPostingList(lists: PostingLists, t: i32): void {
  const n = lists.lengthOf(t);
  put32(<u32>lists.lastPlusOneOf(t));
  put32(<u32>n);
  putBytes(lists.ptrOf(t), n);
  padTo4(n);
}

function exportDoc(d: i32): void {
  if (!isLive(d)) { put32(0); return; }
  const n = docLength.get(d);
  put32(<u32>n + 1);
  if (n > 0) putBytes(<usize>docPtr.get(d), n);
}

function exportSlot(i: i32): void {
  const ranks = rankSlots[SAVED_SLOTS[i]];
  put32(<u32>SAVED_SLOTS[i]);
  put32(<u32>ranks.length);
  putBytes(ranks.ptr, ranks.length << 2);
}

// ---------------------------------------------------------------- import

/** A record's forward list on its way in. */
let forward: ByteVec | null = null;

/** Blocks the heap is grown by when it makes room ahead (under the allocator's largest block). */
const RESERVE_PIECE: usize = 1 << 28;

/**
 * Makes room for about `bytes` more in the heap at once: growing memory as
 * an import fills it (a quarter at a time) costs more each time the memory is
 * larger, while growing a small memory once costs little.
 */
function reserveHeap(bytes: usize): void {
  const pieces = new StaticArray<usize>(16);
  let n = 0;
  for (let left = bytes; left > 0 && n < pieces.length; n++) {
    const piece = left < RESERVE_PIECE ? left : RESERVE_PIECE;
    pieces[n] = heap.alloc(piece);
    left -= piece;
  }
  for (let i = 0; i < n; i++) heap.free(pieces[i]);
}

/** Starts reading a snapshot of `length` bytes into this empty index; false when it is not one. */
export function beginImport(length: i32): bool {
  // the index takes about what its snapshot does, and a little more
  reserveHeap(<usize>length + (<usize>length >> 3));
  beginRead(length);
  enter(DONE, 0);
  if (take32() != MAGIC) return false;
  if (take32() != VERSION) return false;
  enter(TERMS, takeCount(8));
  return !truncated;
}

/** Reads about `budget` more bytes: 0 while more is left, 1 once the whole snapshot is in and valid, -1 when it is not valid. */
export function importSome(budget: i32): i32 {
  const stop = received() + <i64>budget;
  let items: i64 = 0;
  while (phase != DONE && received() + items++ * ITEM_COST < stop) {
    if (at == count) { nextImportPhase(); }
    else if (phase == TERMS) { if (!importTerm(at)) return fail(); at++; }
    else if (phase == POSTINGS) importPostingList(postings, at++);
    else if (phase == WHOLE_VALUES) importPostingList(wholeValues, at++);
    else if (phase == DOCS) importDoc(at++);
    else if (!importSlot(at++)) return fail();
    if (truncated) return fail();
  }
  if (phase != DONE) return 0;
  freeForward();
  return atEnd() ? 1 : -1;
}

function fail(): i32 {
  freeForward();
  enter(DONE, 0);
  return -1;
}

function freeForward(): void {
  if (forward) freeVec(forward!);
  forward = null;
}

function nextImportPhase(): void {
  if (phase == TERMS) {
    ensureTerms(termCount);
    enter(POSTINGS, count);
  } else if (phase == POSTINGS) enter(WHOLE_VALUES, count);
  else if (phase == WHOLE_VALUES) {
    enter(DOCS, takeCount(4));
    if (!truncated) ensureDocs(count);
    forward = new ByteVec();
  } else if (phase == DOCS) enter(SLOTS, takeCount(8));
  else enter(DONE, 0);
}

function importTerm(t: i32): bool {
  const n = <i32>take32();
  const padded = (n * 2 + 3) & ~3;
  if (n <= 0 || n > MAX_TOKEN_UNITS || !need(padded)) return false;
  loadFoldedTerm(readPtr(), n);
  skip(padded);
  return tokens.count == 1 && internToken(0) == t;
}

function importPostingList(lists: PostingLists, t: i32): void {
  lists.setLastPlusOne(t, <i32>take32());
  const n = takeCount(1);
  const capacity = n + 8;
  const block = heap.alloc(<usize>capacity);
  takeBytes(block, n);
  lists.setPtr(t, block);
  lists.setLength(t, n);
  lists.setCapacity(t, capacity);
  skipPad4(n);
  // skip entries are derived, not stored
  if (!truncated) lists.rebuildSkips(t);
}

function importDoc(d: i32): void {
  const stored = takeCount(1);
  if (stored == 0) return;
  const n = stored - 1;
  const into = forward!;
  into.length = 0;
  into.reserve(n);
  takeBytes(into.ptr, n);
  into.length = n;
  if (!truncated) storeForward(d, into);
}

function importSlot(i: i32): bool {
  const slot = <i32>take32();
  const n = takeCount(4);
  if (slot < 0 || slot >= rankSlots.length) return false;
  const ranks = rankSlots[slot];
  ranks.resetZero(n);
  takeBytes(ranks.ptr, n << 2);
  return true;
}
