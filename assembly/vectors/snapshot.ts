// The vector space's snapshot: its shape and counts, the node records chunk
// by chunk as they are in memory, each upper block after its node id, and a
// checksum of all of it. Importing is memory copies (no re-linking): pending
// nodes stay pending. It streams through JS a window at a time, in steps of
// about `budget` bytes, like the text index's (../snapshot-stream.ts);
// nothing writes to the space between steps.
import {
  atEnd, beginRead, beginWrite, endWrite, put32, putBytes, received, streamed, take32, takeBytes, takeCount, truncated,
} from '../snapshot-stream';
import { configureSpace } from './space';
import { efConstruction, entry, restoreGraph, seed, topLevel } from './graph';
import {
  capacityAt, chunkBits, chunkSize, chunks, dimensions, levelOf, linked, linksAt, maxLinks, nodeAt, nodeCount, padded, remapLabels,
  restoreCounts, setUpper, stride, upperBytes, upperOf,
} from './nodes';

const MAGIC: u32 = 0x53564e4c; // "LNVS"
const VERSION: u32 = 1;
const MAX_LEVEL = 15;
const NO_NODE: u32 = 0xffffffff;
/** Offset of a record's upper pointer, which means nothing in another memory (see nodes.ts). */
const UPPER_FIELD = 8;

// ---------------------------------------------------------------- checksum
// FNV-1a over the snapshot's 32-bit words: a changed word changes every
// state after it (xor then an odd multiplier are both bijections).

let checksum: u32 = 0;

function hashWords(ptr: usize, bytes: i32): void {
  let h = checksum;
  const end = ptr + <usize>bytes;
  for (let p = ptr; p < end; p += 4) h = (h ^ load<u32>(p)) * 16777619;
  checksum = h;
}

@inline function hashWord(v: u32): void { checksum = (checksum ^ v) * 16777619; }

function putHashed(v: u32): void {
  hashWord(v);
  put32(v);
}

function takeHashed(): u32 {
  const v = take32();
  hashWord(v);
  return v;
}

// ---------------------------------------------------------------- phases

const CHUNKS = 0;
const UPPER = 1;
const DONE = 2;

let phase = DONE;
let at = 0;

@inline function chunkTotal(): i32 { return (nodeCount + chunkSize - 1) >>> chunkBits; }
@inline function chunkBytes(c: i32): i32 {
  const nodes = nodeCount - (c << chunkBits);
  return (nodes < chunkSize ? nodes : chunkSize) * stride;
}

// ---------------------------------------------------------------- export

export function beginVectorExport(): void {
  beginWrite();
  checksum = 2166136261;
  putHashed(MAGIC);
  putHashed(VERSION);
  putHashed(<u32>dimensions);
  putHashed(<u32>maxLinks);
  putHashed(<u32>efConstruction);
  putHashed(<u32>nodeCount);
  putHashed(<u32>linked);
  putHashed(<u32>entry);
  putHashed(<u32>topLevel);
  putHashed(seed);
  phase = CHUNKS;
  at = 0;
}

/** Writes about `budget` more bytes; true once the whole snapshot is written. */
export function exportVectorsSome(budget: i32): bool {
  const stop = streamed() + <i64>budget;
  while (phase != DONE && streamed() < stop) {
    if (phase == CHUNKS) {
      if (at == chunkTotal()) { phase = UPPER; at = 0; continue; }
      const bytes = chunkBytes(at);
      hashWords(<usize>chunks.get(at), bytes);
      putBytes(<usize>chunks.get(at), bytes);
      at++;
    } else if (at == linked) {
      putHashed(NO_NODE);
      put32(checksum);
      phase = DONE;
    } else {
      const level = levelOf(at);
      if (level > 0) {
        putHashed(<u32>at);
        hashWords(upperOf(at), upperBytes(level));
        putBytes(upperOf(at), upperBytes(level));
      }
      at++;
    }
  }
  if (phase != DONE) return false;
  endWrite();
  return true;
}

// ---------------------------------------------------------------- import

/** Starts reading a snapshot of `length` bytes into this unconfigured space; false when it is not one. */
export function beginVectorImport(length: i32): bool {
  beginRead(length);
  phase = DONE;
  checksum = 2166136261;
  if (takeHashed() != MAGIC || takeHashed() != VERSION) return false;
  const dims = <i32>takeHashed();
  const links = <i32>takeHashed();
  const ef = <i32>takeHashed();
  if (truncated || !configureSpace(dims, links, ef)) return false;
  const nodes = takeCount(stride);
  hashWord(<u32>nodes);
  const linkedNodes = <i32>takeHashed();
  const entryNode = <i32>takeHashed();
  const level = <i32>takeHashed();
  const state = takeHashed();
  if (truncated || linkedNodes < 0 || linkedNodes > nodes || entryNode < -1 || entryNode >= linkedNodes || level < 0 || level > MAX_LEVEL) return false;
  restoreCounts(nodes, linkedNodes);
  restoreGraph(entryNode, level, state);
  phase = CHUNKS;
  at = 0;
  return true;
}

/** Reads about `budget` more bytes: 0 while more is left, 1 once the whole snapshot is in and valid, -1 when it is not valid. */
export function importVectorsSome(budget: i32): i32 {
  const stop = received() + <i64>budget;
  while (phase != DONE && received() < stop) {
    if (phase == CHUNKS) {
      if (at == chunkTotal()) { phase = UPPER; at = -1; continue; }
      if (!importChunk(at++)) return fail();
    } else {
      const node = takeHashed();
      if (truncated) return fail();
      if (node == NO_NODE) return finishImport() ? 1 : fail();
      if (<i32>node <= at || <i32>node >= linked || !importUpper(<i32>node)) return fail();
      at = <i32>node;
    }
  }
  return phase == DONE ? -1 : 0;
}

function fail(): i32 {
  phase = DONE;
  return -1;
}

function importChunk(c: i32): bool {
  const block = heap.alloc(<usize>chunkSize * <usize>stride);
  chunks.push(<i32>block);
  const bytes = chunkBytes(c);
  takeBytes(block, bytes);
  if (truncated) return false;
  hashWords(block, bytes);
  const first = c << chunkBits;
  for (let node = first; node < first + bytes / stride; node++) {
    store<i32>(nodeAt(node) + <usize>padded + UPPER_FIELD, 0);
    if (!linksFit(linksAt(node, 0), node < linked ? capacityAt(0) : 0)) return false;
  }
  return true;
}

/** Whether the links at `links` are at most `capacity` ids of linked nodes. */
function linksFit(links: usize, capacity: i32): bool {
  const n = load<i32>(links);
  if (n < 0 || n > capacity) return false;
  for (let i = 0; i < n; i++) {
    const other = load<i32>(links + 4 + (<usize>i << 2));
    if (other < 0 || other >= linked) return false;
  }
  return true;
}

function importUpper(node: i32): bool {
  const level = <i32>takeHashed();
  if (truncated || level < 1 || level > topLevel) return false;
  const bytes = upperBytes(level);
  const block = heap.alloc(<usize>bytes);
  store<i32>(block, level);
  takeBytes(block + 4, bytes - 4);
  if (truncated) { heap.free(block); return false; }
  hashWords(block + 4, bytes - 4);
  setUpper(node, block);
  for (let l = 1; l <= level; l++) if (!linksFit(linksAt(node, l), maxLinks)) return false;
  return true;
}

/** Checks the checksum, that every link at a level goes to a node on it, and maps the labels. */
function finishImport(): bool {
  phase = DONE;
  const expected = checksum;
  if (take32() != expected || !atEnd()) return false;
  if (entry >= 0 && levelOf(entry) != topLevel) return false;
  for (let node = 0; node < linked; node++) {
    const level = levelOf(node);
    for (let l = 1; l <= level; l++) {
      const links = linksAt(node, l);
      const n = load<i32>(links);
      for (let i = 0; i < n; i++) if (levelOf(load<i32>(links + 4 + (<usize>i << 2))) < l) return false;
    }
  }
  return remapLabels();
}
