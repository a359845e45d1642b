// The WebAssembly core's exports. Data crosses in bulk through the scratch
// buffer (documents, queries, rank arrays) and the results vector; JS never
// calls in once per token.
import { ByteVec, readVarint, results, scratch as scratchBuffer, scratchBase, varintEnd } from './buffers';
import { setIndexedSeparators, tokenize, tokens } from './text';
import { initDictionary, internToken, termCount, tokenClass } from './dictionary';
import {
  attributeKey, attributeRank, attributeUnordered, compactSome as compactPostingsFrom, postingBytes as allPostingBytes, docLength, docPtr, ensureTerms, isLive,
  docCapacity, liveCount, postings, removeDoc, storeForward, wholeValues, beginSketch, sketchSegment, sketchTerm, SEGMENT, boundedBlocksDecoded, boundedBlocksSkipped,
} from './store';
import { TIE_SLOT, rankSlots } from './ranking';
import { invalidateStaticOrder, prepareQuery as prepareQueryWords, search as runSearch, unmatchedWords as lastUnmatchedWords } from './search';
import { params } from './params';
import { highlightAll } from './highlight';
import { beginExport, beginImport, exportSome, importSome } from './snapshot';
import { warmPrefixCache } from './prefix-warming';
import { trieOrdered } from './trie-order';
import { IDLE_STEP, listNewTerms as listTermsStep, termsLeftToList } from './first-letter-typos';
import { invalidatePrefixCache as dropPrefixCache, entryCount, hasEntries, notePosting } from './prefix-cache';
import { indexedRecords, listRecordsSome } from './record-terms';
import { listedRecords } from './term-positions';
import { scannedAtOnce } from './bucket-sort';
import { sortByKeys } from './radix-sort';
import { invalidateWordMemo } from './word-memo';
import { freeSignerSlot, screenSlots, storeSignerState } from './hmac-screen';
import { bitmapWords, candidateBitmap, isTermMatched, layOutCaches, marksAreComplete } from './wordsets';
import { configureSpace, deleteLabel, linkPending, moveLabel, relabelNodes, storeVector } from './vectors/space';
import {
  dimensions as vectorDims, liveCount as vectorLive, nodeCount as vectorNodeCount, maxLinks as vectorMaxLinks, nodeOf as nodeOfLabel, pendingCount as vectorPendingCount,
  storedBytes as vectorStoredBytes,
} from './vectors/nodes';
import { efConstruction as vectorEf } from './vectors/graph';
import { searchNearest } from './vectors/nearest';
import { codability } from './vectors/codes';
import { beginVectorExport, beginVectorImport, exportVectorsSome, importVectorsSome } from './vectors/snapshot';

/** Gap in word positions between two elements of one array attribute. */
const ARRAY_GAP = 8;

initDictionary();

export function scratch(bytes: i32): usize { return scratchBuffer(bytes); }
export function paramsPtr(): usize { return changetype<usize>(params); }
export function resultsPtr(): usize { return results.ptr; }
export function resultsLength(): i32 { return results.length; }

/** Scratch: `count` UTF-16 units, the characters of separatorsToIndex. */
export function setSeparators(count: i32): void { setIndexedSeparators(scratchBase(), count); }

/** Scratch: `count` pairs of i32 (rank, unordered flag), per searchable attribute id. */
export function setAttributes(count: i32): void {
  invalidatePrefixCache();
  const base = scratchBase();
  attributeRank.resetZero(count);
  attributeUnordered.resetZero(count);
  for (let i = 0; i < count; i++) {
    attributeRank.set(i, load<i32>(base + (<usize>i << 3)));
    attributeUnordered.set(i, load<i32>(base + (<usize>i << 3) + 4));
  }
}

/** Attribute keys changed: cached matches (prefixes, frequent terms, query words) are stale. */
function invalidatePrefixCache(): void {
  dropPrefixCache();
  invalidateWordMemo();
}

/**
 * Records changed: cached orders and the query words' memo are stale. The
 * prefix cache's entries are kept up to date instead (see notePosting); a
 * removed record's bits stay in them, as its postings do.
 */
function invalidateIndexCaches(): void {
  invalidateStaticOrder();
  invalidateWordMemo();
}

/** Ids of records added so far end below this: a record id comes back only after a rebuild, which the prefix cache cannot follow. */
let idsBelow: i32 = 0;

const forward = new ByteVec();

/**
 * Scratch, as i32: count, text byte offset, then per record: id, segment
 * count, (attribute id, length in UTF-16 units) per segment; the segments'
 * text follows, in order, at the text offset. Segments of one attribute are
 * consecutive (array elements) and attributes come in rank order.
 */
export function addDocuments(): void {
  invalidateIndexCaches();
  const base = scratchBase();
  const count = load<i32>(base);
  let text = base + <usize>load<i32>(base + 4);
  let header = base + 8;
  for (let d = 0; d < count; d++) {
    const doc = load<i32>(header);
    const segments = load<i32>(header + 4);
    header += 8;
    if (doc < idsBelow) dropPrefixCache();
    else idsBelow = doc + 1;
    const cached = hasEntries();
    forward.length = 0;
    beginSketch();
    let previousAttribute = -1;
    let position = 0;
    for (let s = 0; s < segments; s++) {
      const attribute = load<i32>(header);
      const length = load<i32>(header + 4);
      header += 8;
      position = attribute == previousAttribute ? position + ARRAY_GAP : 0;
      previousAttribute = attribute;
      tokenize(text, length);
      text += <usize>length << 1;
      // the segment's three varints and one a token, five bytes each at most
      forward.reserve(forward.length + 5 * (3 + tokens.count));
      forward.pushReserved(SEGMENT);
      forward.pushReserved(<u32>attribute);
      forward.pushReserved(<u32>position);
      sketchSegment(attribute, position);
      for (let t = 0; t < tokens.count; t++) {
        const term = internToken(t);
        sketchTerm(term, tokenClass(t));
        if (term >= postings.terms) ensureTerms(termCount);
        const key = attributeKey(attribute, position);
        postings.add(term, doc, key);
        if (cached) notePosting(term, doc, key);
        if (tokens.count == 1) wholeValues.add(term, doc, 0);
        forward.pushReserved(<u32>term + 1);
        position++;
      }
      if (tokens.count > 0) position--;
    }
    storeForward(doc, forward, true);
  }
}

export function removeDocument(doc: i32): void {
  invalidateIndexCaches();
  removeDoc(doc);
}

/** How many records rank slot `slot` holds labels for (0: an empty slot). */
export function rankSlotLength(slot: i32): i32 { return slot >= 0 && slot < rankSlots.length ? rankSlots[slot].length : 0; }

/** Scratch: `count` i32 ranks (lower first) for records 0..count-1, into slot 0 (custom) or a sort slot. */
export function setRanks(slot: i32, count: i32): void {
  if (slot < 8 || slot == TIE_SLOT) invalidateStaticOrder();
  const ranks = rankSlots[slot];
  ranks.resetZero(count);
  memory.copy(ranks.ptr, scratchBase(), <usize>count << 2);
}

/** Scratch: `count` pairs of i32 (record id, rank): those records' ranks in slot `slot`, the others' kept. */
export function setRanksOf(slot: i32, count: i32): void {
  if (slot < 8 || slot == TIE_SLOT) invalidateStaticOrder();
  const ranks = rankSlots[slot];
  const base = scratchBase();
  for (let i = 0; i < count; i++) {
    const id = load<i32>(base + (<usize>i << 3));
    if (id >= ranks.length) {
      // ids past the slot's end ranked 0 so far: they stay 0 unless set
      const from = ranks.length;
      ranks.reserve(id + 1);
      memory.fill(ranks.ptr + (<usize>from << 2), 0, <usize>(id + 1 - from) << 2);
      ranks.length = id + 1;
    }
    ranks.set(id, load<i32>(base + (<usize>i << 3) + 4));
  }
}

/** Scratch: `count` ids, high halves, low halves; results: the ids sorted by key, then tie flags (see radix-sort.ts). */
export function sortKeys(count: i32): void { sortByKeys(count); }

/** Scratch: the query (UTF-16 units); `paramsPtr()` holds the parameters. */
export function search(): void { runSearch(); }

/** Lays out and reserves what searches of the index as it is need, ahead of them (see layOutCaches). */
export function prepareSearches(): void { layOutCaches(docCapacity); }

/** Builds one one-letter prefix's cache entry ahead of its first ask: WARM_MORE, WARM_DONE or WARM_UNLAID (see prefix-warming.ts). */
export function warmPrefixes(): i32 { return warmPrefixCache(docCapacity); }

/** Lists a step of the dictionary's terms not listed yet for typo'd words' other first letters (see first-letter-typos.ts): 1 when every term is. */
export function listNewTerms(): i32 { return listTermsStep(IDLE_STEP) ? 1 : 0; }

/** The dictionary's terms not listed yet for typo'd words' other first letters. */
export function termsToList(): i32 { return termsLeftToList(); }

/** Scratch: a query; reads its words (for `highlight`) without searching. */
export function prepareQuery(): void { prepareQueryWords(); }

/** The ranked words of the last search that match no live record (see search.ts). */
export function unmatchedWords(): i32 { return lastUnmatchedWords(); }

/** The last search's candidates, one bit per record id, `candidateWords()` u32 words long. */
export function candidatesPtr(): usize { return candidateBitmap(); }
export function candidateWords(): i32 { return bitmapWords; }

/**
 * Highlights texts in bulk (a page of hits in one call). Scratch: per text,
 * as two i32, its length in UTF-16 units and its flags; then the texts'
 * units end to end. Results, per text: TEXT_HEADER values (its token
 * count, the number of tokens listed, the ordinal of the first listed),
 * then per listed token (TOKEN_STRIDE values) its start, end, mask of the
 * last query's words it matches and the end of the part to highlight (a
 * prefix match highlights only the prefix). The tokens listed are those
 * that match a word (a highlight marks nothing else), with
 * TEXT_EVERY_TOKEN every one, or with a snippet's size (from
 * TEXT_SNIPPET_SHIFT up) the window of tokens it shows.
 * TEXT_INDEXED: the text is a searchable value of a live record, so every
 * token is a dictionary term and an unmarked one needs no lookup to be sure
 * of it. Returns 1 when the texts held a unit between UNSPACED_FIRST and
 * UNSPACED_LAST (params.ts), else 0.
 */
export function highlightTexts(count: i32): i32 { return highlightAll(scratchBase(), count) ? 1 : 0; }

/**
 * Scratch: `count` record ids (hits of the last search). Results: 1 when that
 * search marked every term it matched (0 otherwise, and nothing follows),
 * then per record the number of attribute ids whose values hold a marked
 * term, and those ids. A value of any other attribute holds no term that
 * matches a query word, so highlighting it needs no tokenizing: the forward
 * lists already say which attributes matched.
 */
export function markedAttributes(count: i32): void {
  results.length = 0;
  if (!marksAreComplete()) { results.push(0); return; }
  results.push(1);
  const base = scratchBase();
  for (let i = 0; i < count; i++) pushMarkedAttributes(load<i32>(base + (<usize>i << 2)));
}

function pushMarkedAttributes(doc: i32): void {
  const at = results.length;
  results.push(0);
  if (doc < 0 || doc >= docPtr.length || !isLive(doc)) return;
  let p = <usize>docPtr.get(doc);
  const end = p + <usize>docLength.get(doc);
  let attribute = -1;
  let noted = -1;
  while (p < end) {
    const v = readVarint(p);
    p = varintEnd;
    if (v == SEGMENT) {
      attribute = <i32>readVarint(p);
      readVarint(varintEnd);
      p = varintEnd;
      continue;
    }
    // an attribute's segments are consecutive: once noted, the rest of them need no check
    if (attribute == noted) { p = nextSegment(p, end); continue; }
    if (!isTermMatched(<i32>v - 1)) continue;
    results.push(attribute);
    results.set(at, results.get(at) + 1);
    noted = attribute;
    p = nextSegment(p, end);
  }
}

/**
 * Where the next segment starts from `p` on, within a segment's terms (or
 * `end`): at the next zero byte, as no term's varint holds one (a term is
 * written as term + 1, and no varint's last byte is 0 but 0's own). Sixteen
 * bytes a step: a long record's body, once it is known to hold a marked
 * term, is passed over without reading its terms.
 */
function nextSegment(p: usize, end: usize): usize {
  while (p + 16 <= end) {
    const zeros = i8x16.bitmask(i8x16.eq(v128.load(p), i8x16.splat(0)));
    if (zeros != 0) return p + <usize>ctz(zeros);
    p += 16;
  }
  while (p < end && load<u8>(p) != 0) p++;
  return p;
}

/** Drops removed records' postings from term `first` on, about `budget` bytes' worth; returns the next term (termTotal() when done). */
export function compactSome(first: i32, budget: i32): i32 {
  return compactPostingsFrom(first, budget, termCount);
}

/** Bytes of every posting list. */
export function postingBytes(): f64 { return allPostingBytes(termCount); }
/** Starts streaming the index's snapshot to JS (env.snapshotWrite); `exportSnapshotSome` writes it. */
export function exportSnapshotBegin(): void { beginExport(); }

/** Writes about `budget` more bytes of the snapshot; 1 once all of it is written. */
export function exportSnapshotSome(budget: i32): i32 { return exportSome(budget) ? 1 : 0; }

/** Starts reading a snapshot of `length` bytes from JS (env.snapshotRead) into this (empty) index; 0 when it is not one. */
export function importSnapshotBegin(length: i32): i32 {
  invalidateIndexCaches();
  dropPrefixCache();
  return beginImport(length) ? 1 : 0;
}

/** Reads about `budget` more bytes: 0 while more is left, 1 once all of it is in and valid, -1 when it is not valid. */
export function importSnapshotSome(budget: i32): i32 { return importSome(budget); }
export function termTotal(): i32 { return termCount; }
export function liveTotal(): i32 { return liveCount; }
/** Posting-list blocks a bounded word's decoding read, and jumped over, since the core started (see skip-entries.ts). */
export function blocksDecoded(): f64 { return <f64>boundedBlocksDecoded; }
export function blocksSkipped(): f64 { return <f64>boundedBlocksSkipped; }
/** Entries the prefix cache keeps now (see prefix-cache.ts). */
export function prefixCacheEntries(): i32 { return entryCount(); }
/** Records with a term index (long records, see record-terms.ts). */
export function termIndexedRecords(): i32 { return indexedRecords; }
/** Lists the next long records' tokens term by term, about 64k tokens' worth (see record-terms.ts listRecordsSome): 1 when every record is. */
export function listRecordPositions(): i32 { return listRecordsSome(LISTING_STEP_TOKENS) ? 1 : 0; }
const LISTING_STEP_TOKENS = 65536;
/** Long records whose tokens the position lists hold, and records scanned from those lists since the core started (see term-positions.ts). */
export function positionListedRecords(): i32 { return listedRecords; }
export function recordsScannedAtOnce(): f64 { return <f64>scannedAtOnce; }
/** 1 when the walk's copy of the dictionary trie is up to date (see trie-order.ts), 0 when the next search copies it. */
export function walkCopyCurrent(): i32 { return trieOrdered() ? 1 : 0; }

/** Scratch: a key's HMAC states (SIGNER_WORDS words); returns the slot they are kept in (see hmac-screen.ts). */
export function storeSigner(): i32 { return storeSignerState(scratchBase()); }
export function freeSigner(slot: i32): void { freeSignerSlot(slot); }
/** Scratch: a secured key's HMAC and message, then `count` slots (SCREEN_*); returns the place in that list of the first that signed it, or -1. */
export function screenSigners(count: i32): i32 { return screenSlots(scratchBase(), count); }

// ---------------------------------------------------------------- vectors
// A core instance holds one vector space (src/core/vector-space.ts): its
// own instance, apart from the text index's (see assembly/vectors/).

/** Shapes the space: 1, or 0 when it already has a shape or this one is not valid. */
export function vectorConfigure(dimensions: i32, links: i32, efConstruction: i32): i32 {
  return configureSpace(dimensions, links, efConstruction) ? 1 : 0;
}
export function vectorDimensions(): i32 { return vectorDims; }
export function vectorLinks(): i32 { return vectorMaxLinks; }
export function vectorEfConstruction(): i32 { return vectorEf; }

/** Scratch: the vector, as f32. Stores it for `label` (pending); 0, or why it cannot be coded (1: not finite, 2: zero). */
export function vectorSet(label: i32): i32 { return storeVector(label, scratchBase()); }
export function vectorDelete(label: i32): void { deleteLabel(label); }
export function vectorHas(label: i32): i32 { return nodeOfLabel(label) >= 0 ? 1 : 0; }
/** Scratch: `count` i32, the new label of each old one (-1: deleted). */
export function vectorRelabel(count: i32): void { relabelNodes(scratchBase(), count); }
/** Gives label `from`'s vector to label `to`; 1 when `from` had one. */
export function vectorMove(from: i32, to: i32): i32 { return moveLabel(from, to) ? 1 : 0; }
/** Links up to `count` pending vectors into the graph; returns how many are still pending. */
export function vectorLinkSome(count: i32): i32 { return linkPending(count); }
export function vectorSize(): i32 { return vectorLive; }
export function vectorPending(): i32 { return vectorPendingCount; }
/** Deleted and replaced vectors still in the graph (they route searches, never answer them). */
export function vectorTombstones(): i32 { return vectorNodeCount - vectorLive; }
/** Bytes the vectors' codes, links and label map take. */
export function vectorBytes(): f64 { return vectorStoredBytes(); }

/**
 * Scratch: the query (f32, the space's dimensions), then `words` u32 of the
 * allowed labels' bitmap (0 words: every label). Results: up to `k` pairs,
 * best first, of a label and its cosine similarity (f32 bits). Returns 0,
 * or why the query cannot be coded (as vectorSet).
 */
export function vectorSearch(k: i32, ef: i32, exactBelow: i32, words: i32): i32 {
  const query = scratchBase();
  const why = codability(query, vectorDims);
  if (why != 0) return why;
  return searchNearest(query, k, ef, exactBelow, words > 0 ? query + (<usize>vectorDims << 2) : 0, words);
}

/** Starts streaming the space's snapshot (env.snapshotWrite); `vectorExportSome` writes it. */
export function vectorExportBegin(): void { beginVectorExport(); }
/** Writes about `budget` more bytes; 1 once all of it is written. */
export function vectorExportSome(budget: i32): i32 { return exportVectorsSome(budget) ? 1 : 0; }
/** Starts reading a snapshot of `length` bytes (env.snapshotRead) into this unshaped space; 0 when it is not one. */
export function vectorImportBegin(length: i32): i32 { return beginVectorImport(length) ? 1 : 0; }
/** Reads about `budget` more bytes: 0 while more is left, 1 once all of it is in and valid, -1 when it is not valid. */
export function vectorImportSome(budget: i32): i32 { return importVectorsSome(budget); }
