// Per query word, the records it matches as bitmaps: one per typo count
// (0 to 3: a first-letter typo counts 2 and raises the budget by one, see
// matcher.ts; made cumulative after the walk) and one for exact matches (the
// whole word, no typo). Matched terms are marked so the forward scan of a
// record can tell which of its tokens match which query words.
import { IntVec, reserveMemory } from './buffers';
import { KEY_BITS, KEY_MASK, postings, setBit, testBit, wholeValues } from './store';
import {
  andBitmapInto, decodingCost, ensureLayout, entryLead, fullCacheBytes, layoutWords, hasEntry, maxKeys16, orBitmapInto, raiseKey, raiseKeys, subtreeEntry, termCacheKey, worthCaching,
} from './prefix-cache';
import { Slot, fullMemoBytes, noteSlotTerm, slotBitmap, slotEntry, slotKeys, slotLead } from './word-memo';
import { boundFor, boundVectorWords, boundVectors, boundVectorsFor, defer, knownCandidates, scanDeferred, shouldDefer } from './bounded-match';
import { ANYWHERE, CLEAR, WITHIN_BOUND, clearWritten, noteWritten, stateOf } from './written-bitmaps';

/** The most typos a match counts (two typos in a word of 8+ letters, one of them on its first letter). */
export const MAX_TYPOS = 3;
const LEVELS = MAX_TYPOS + 2;
const EXACT = MAX_TYPOS + 1;

export let bitmapWords: i32 = 0;
const arena = new IntVec();
let words: i32 = 0;
let currentWord: i32 = 0;

/** Counts the sets of marked terms: each search and each query read starts a new one (see marked-filter.ts). */
export let epoch: i32 = 0;
/**
 * Per listed candidate, the best attribute key of its matches by ranked
 * words, packed under the query's stamp (see raiseLoggedKeys), filled once
 * the candidates are listed and for them only (see foldKeys). Records in
 * the lead bitmap have key 0 and need none.
 */
const docBest = new IntVec();
let keyStamp: u32 = 0;
/** The lead records' key is in docBest too (many candidates are ranked: one load each instead of two). */
let leadFolded = false;
@inline export function bestAttributeOf(doc: i32): i32 {
  if (!leadFolded && testBit(leadBitmap(), doc)) return 0;
  return <i32>(KEY_MASK - (<u32>docBest.get(doc) & KEY_MASK));
}

function nextKeyStamp(): void {
  let next = (keyStamp >> KEY_BITS) + 1;
  const padded = bitmapWords << 5;
  if (next >= (1 << (32 - KEY_BITS)) || docBest.length < padded) {
    docBest.resetZero(padded);
    next = 1;
  }
  keyStamp = next << KEY_BITS;
}
export const termWords = new IntVec();
/** Words the term matched with no typo, and as the whole word (not a prefix): for per-attribute rules. */
export const termZeroTypoWords = new IntVec();
export const termFullWords = new IntVec();
/** The terms marked this epoch, in the order they were first marked (highlighting filters tokens by them). */
export const markedTerms = new IntVec();
/** The marked terms in ascending order (record-terms.ts looks them up in a record's), for the epoch and count they were sorted at. */
const sortedMarks = new IntVec();
let sortedForEpoch: i32 = -1;
let sortedForCount: i32 = -1;

/**
 * The marked terms in ascending order, sorted once per set of marks (an
 * insertion sort: a query that marks many terms, a short prefix, does not
 * ask, see record-terms.ts termIndexToRead).
 */
export function sortedMarkedTerms(): IntVec {
  if (sortedForEpoch == epoch && sortedForCount == markedTerms.length) return sortedMarks;
  const count = markedTerms.length;
  sortedMarks.reserve(count);
  sortedMarks.length = count;
  for (let i = 0; i < count; i++) {
    const term = markedTerms.get(i);
    let j = i;
    while (j > 0 && sortedMarks.get(j - 1) > term) { sortedMarks.set(j, sortedMarks.get(j - 1)); j--; }
    sortedMarks.set(j, term);
  }
  sortedForEpoch = epoch;
  sortedForCount = count;
  return sortedMarks;
}

/**
 * The same terms as bits, cleared through markedTerms when the epoch ends:
 * the forward scan looks up every token of a record, and a bit per term
 * (12 KB for 100,000 terms) stays in the first cache level where a stamp
 * per term (400 KB) did not.
 */
export const markedBits = new IntVec();

/**
 * Indexes from 65,536 records reserve their caches' room (see reserveMemory):
 * below, the full caches take under 8 MB, a growth V8 hardly notices, and a
 * small index may never fill them (no subtree of it is worth caching), so
 * that each of many small indexes would hold a megabyte for nothing.
 */
const RESERVED_FROM_WORDS = 2048;
/**
 * Whether the caches' room was reserved: once per core. A layout outgrown
 * by writes frees every entry, and the next ones, an eighth larger, are
 * mostly cut from the room the old ones leave (a second reservation could
 * not use it, being one block an eighth larger than it).
 */
let cachesReserved = false;
/**
 * Room reserved with the caches' for the per-query work vectors (the
 * attribute-key log, candidate lists, sort buffers) to reach their
 * high-water marks in: 32 bytes a record (layout words << 10). Without it,
 * at 1M records the memory still grew twice by ~14 MB over the first
 * 2,400 first-sight queries, V8 marked its heap after each growth, and the
 * queries around each marking ran at 8-27 ms (bench/RESULTS.md, stop 36).
 */
const WORK_ROOM_SHIFT = 10;
/**
 * The reservation is one block, and the allocator hands out none of 1 GB
 * or more: the work room is left out where it would take the block past
 * that (from ~6.3M records), rather than fail where the caches' room alone
 * fits.
 */
const LARGEST_RESERVATION: usize = (1 << 30) - (1 << 20);

/** Bitmap words for `docCapacity` records: whole 128-bit vectors, so SIMD passes need no scalar tail. */
@inline function wordsFor(docCapacity: i32): i32 { return ((docCapacity + 127) >> 7) << 2; }

/**
 * Whether the caches are laid out for `docCapacity` records, or would be
 * without reserving memory (an index under RESERVED_FROM_WORDS): work ahead
 * of searches (prefix-warming.ts) lays them out only then, as the first
 * search of an index still being imported would reserve the room for the
 * records of its first batches only, and the caches would then grow by
 * pieces during the searches after (see layOutCaches).
 */
export function cachesLaidOutFor(docCapacity: i32): bool {
  const needed = wordsFor(docCapacity);
  return needed <= layoutWords || needed < RESERVED_FROM_WORDS;
}

/**
 * Lays the caches out for `docCapacity` records and, the first time an
 * index is large enough, reserves their room in one growth (see
 * reserveMemory). Searches do it themselves; an engine does it ahead of
 * them for the indexes it loads (`prepareSearches`), so that the marking
 * V8 starts after the growth runs then, not during the first searches.
 */
export function layOutCaches(docCapacity: i32): void {
  const needed = wordsFor(docCapacity);
  if (ensureLayout(needed) && needed >= RESERVED_FROM_WORDS && !cachesReserved) {
    const caches = fullCacheBytes(layoutWords) + fullMemoBytes(layoutWords);
    const withWork = caches + (<usize>layoutWords << WORK_ROOM_SHIFT);
    reserveMemory(withWork <= LARGEST_RESERVATION ? withWork : caches);
    cachesReserved = true;
  }
}

export function prepareWordsets(wordTotal: i32, docCapacity: i32, termTotal: i32): void {
  words = wordTotal;
  bitmapWords = wordsFor(docCapacity);
  layOutCaches(docCapacity);
  // the two work bitmaps at the end are cleared where they are used
  const cleared = wordTotal * LEVELS + 3;
  arena.reserve((cleared + 2) * bitmapWords);
  arena.length = (cleared + 2) * bitmapWords;
  clearWritten(arena.ptr, bitmapWords, cleared, cleared + 2, boundVectors(), boundVectorWords());
  // written whole before it is read (see writeCandidates), but another query's layout may put a word's bitmap there
  noteWrite(CANDIDATES, 0, ANYWHERE);
  while (termWords.length < termTotal) { termWords.push(0); termZeroTypoWords.push(0); termFullWords.push(0); }
  while (markedBits.length << 5 < termTotal) markedBits.push(0);
  nextKeyStamp();
  typoMatched = false;
  keyedEntries.length = 0;
  keyLog.length = 0;
  leadFolded = false;
  unfolded = 0;
  accumulatedWords = 0;
  nextEpoch();
  searchMarked = false;
}

function nextEpoch(): void {
  epoch++;
  const bits = markedBits.ptr;
  for (let i = 0; i < markedTerms.length; i++) {
    const word = bits + (<usize>(markedTerms.get(i) >> 5) << 2);
    store<u32>(word, 0);
  }
  markedTerms.length = 0;
}

/** The arena's bitmaps by index: per word its levels, then the query's own (see written-bitmaps.ts). */
@inline function bitmapAt(index: i32): usize { return arena.ptr + (<usize>(index * bitmapWords) << 2); }
@inline function levelIndex(w: i32, typos: i32): i32 { return w * LEVELS + typos; }
const CANDIDATES = -1, LEAD = -2, WHOLE_VALUES = -3;
/** The index of one of the query's own bitmaps (CANDIDATES, LEAD, WHOLE_VALUES), after the words'. */
@inline function ownIndex(which: i32): i32 { return words * LEVELS + (which == CANDIDATES ? 0 : which == WHOLE_VALUES ? 1 : 2); }
/** Notes a write of kind `how` (see written-bitmaps.ts) into word `w`'s level, or into one of the query's own bitmaps (w < 0). */
@inline function noteWrite(w: i32, level: i32, how: i32): void { noteWritten(w < 0 ? ownIndex(w) : levelIndex(w, level), how); }

@inline export function levelBitmap(w: i32, typos: i32): usize { return bitmapAt(levelIndex(w, typos)); }
@inline export function exactBitmap(w: i32): usize { return levelBitmap(w, EXACT); }
/** Records word w matches at all (its last cumulative level). */
@inline export function matchedBitmap(w: i32): usize { return levelBitmap(w, MAX_TYPOS); }
@inline export function candidateBitmap(): usize { return bitmapAt(ownIndex(CANDIDATES)); }
/** Single-word queries: records where the word is a whole attribute value. */
@inline export function wholeValueBitmap(): usize { return bitmapAt(ownIndex(WHOLE_VALUES)); }
/** Records some ranked word matches in the lead place: the first attribute's first word (see LEAD_KEYS). */
@inline export function leadBitmap(): usize { return bitmapAt(ownIndex(LEAD)); }
/** Two work bitmaps after the others (phrase alternatives while matching). */
@inline function workBitmap(i: i32): usize { return levelBitmap(words, 3 + i); }
/** Candidates matched with no typo, and with one at most (written with the candidates, after matching). */
@inline export function typoFreeBitmap(): usize { return workBitmap(0); }
@inline export function oneTypoBitmap(): usize { return workBitmap(1); }

let excludedMask: i32 = 0;

/** Forgets which terms the last search matched (a new query is being read). */
export function invalidateMarks(): void { nextEpoch(); searchMarked = false; }

/**
 * Every query word was matched against the dictionary since the words were
 * read (a search ran, not only prepareQuery): a term left unmarked then
 * matches no query word.
 */
let searchMarked = false;
export function marksAreComplete(): bool { return searchMarked; }
export function marksCompleted(): void { searchMarked = true; }
/** `unkeyed`: the words whose matches never feed the attribute keys (the excluded and the stop words). */
export function selectMatchWord(w: i32, excluded: i32, unkeyed: i32): void { currentWord = w; excludedMask = excluded; unkeyedMask = unkeyed; }
let unkeyedMask = 0;

/** The current word's matches feed the records' best attribute key (excluded and stop words never rank). */
@inline function keyedWord(): bool { return words == 1 || (unkeyedMask & (1 << currentWord)) == 0; }

/** Some ranked word matched some term with typos: otherwise the typo criterion ties every record. */
let typoMatched = false;
export function anyTypoMatch(): bool { return typoMatched; }

/** A memo slot the current word's matches go to instead of the query's bitmaps (see word-memo.ts), or null. */
let filling: Slot | null = null;

/** Where the current word's matches with `typos` typos (EXACT: exact) go. */
@inline function matchTarget(level: i32): usize {
  const slot = filling;
  return slot ? slotBitmap(slot, level) : levelBitmap(currentWord, level);
}

function noteTypoMatch(): void {
  if ((excludedMask & (1 << currentWord)) != 0) return;
  typoMatched = true;
  const slot = filling;
  if (slot) slot.typoMatched = true;
}

export function recordMatch(term: i32, typos: i32, full: bool, highlightLength: i32): void {
  if (typos > 0) noteTypoMatch();
  if (shouldDefer(postings.bytes(term)) && !hasEntry(termCacheKey(term))) {
    defer(term, typos, full);
    markTerm(term, typos, full);
    return;
  }
  const exact = full && typos == 0;
  const entry = heavyTermEntry(term);
  const slot = filling;
  if (entry != 0) {
    orCachedMatch(entry, typos);
    if (exact) {
      orBitmapInto(entry, matchTarget(EXACT), bitmapWords);
      if (!slot) noteWrite(currentWord, EXACT, ANYWHERE);
    }
  } else {
    const exactTarget = exact ? matchTarget(EXACT) : 0;
    if (slot) postings.orIntoKeys16(term, slotBitmap(slot, typos), slotKeys(slot), slotLead(slot), exactTarget);
    else if (keyedWord()) {
      const within = boundFor(term);
      postings.orIntoWithLead(term, levelBitmap(currentWord, typos), leadBitmap(), exactTarget, keyLog, within, within != 0 ? boundVectorsFor(term) : 0);
      noteMatchWrites(typos, exact, true, within != 0 ? WITHIN_BOUND : ANYWHERE);
    } else {
      postings.orInto(term, levelBitmap(currentWord, typos));
      if (exact) postings.orInto(term, exactTarget);
      noteMatchWrites(typos, exact, false, ANYWHERE);
    }
  }
  if (exact && words == 1) {
    wholeValues.orInto(term, wholeValueBitmap());
    noteWrite(WHOLE_VALUES, 0, ANYWHERE);
  }
  markTerm(term, typos, full);
}

/** Notes the current word's writes of kind `how` into its `typos` level, its exact bitmap (`exact`) and the lead bitmap (`lead`). */
function noteMatchWrites(typos: i32, exact: bool, lead: bool, how: i32): void {
  noteWrite(currentWord, typos, how);
  if (exact) noteWrite(currentWord, EXACT, how);
  if (lead) noteWrite(LEAD, 0, how);
}

/** The current word's matches go to `slot` (claimed, cleared) until finishSlot. */
export function fillSlot(slot: Slot): void { filling = slot; }

/**
 * Before a query: a query the core aborted while filling a slot left it
 * claimed, never valid; the matches go to the query's own bitmaps again.
 */
export function abandonSlot(): void { filling = null; }

/** The slot being filled holds the current word's matches: copies them to the query (see useSlot). */
export function finishSlot(): void {
  const slot = filling!;
  filling = null;
  slot.valid = true;
  copySlot(slot);
}

/** A memo slot's matches become the current word's: bitmaps, keys (folded like a cached entry's), marks. */
export function useSlot(slot: Slot): void {
  copySlot(slot);
  if (slot.typoMatched) typoMatched = true;
  for (let i = 0; i < slot.terms.length; i += 2) {
    const flags = slot.terms.get(i + 1);
    markTerm(slot.terms.get(i), flags & 3, (flags & 4) != 0);
  }
}

function copySlot(slot: Slot): void {
  const bytes = <usize>bitmapWords << 2;
  for (let level = 0; level <= EXACT; level++) {
    memory.copy(levelBitmap(currentWord, level), slotBitmap(slot, level), bytes);
    noteWrite(currentWord, level, ANYWHERE);
  }
  keyedEntries.push(<i32>slotEntry(slot));
  orBitmapInto(slotLead(slot), leadBitmap(), bitmapWords);
  noteWrite(LEAD, 0, ANYWHERE);
}

const singleTerm = new IntVec();

/** The cache entry of a term with enough postings to be read through the cache, or 0. */
function heavyTermEntry(term: i32): usize {
  const cost = decodingCost(postings.bytes(term), 1);
  if (!worthCaching(cost, bitmapWords << 5)) return 0;
  singleTerm.length = 0;
  singleTerm.push(term);
  return subtreeEntry(termCacheKey(term), singleTerm, cost);
}

/** Cached entries, and (record, key) pairs of terms, whose keys count for the records' best (folded in for the listed candidates only, see foldKeys). */
const keyedEntries = new IntVec();
const keyLog = new IntVec();

/** Adds a cached entry's records to the current word's `typos` level; its keys count once candidates are known. */
function orCachedMatch(entry: usize, typos: i32): void {
  orBitmapInto(entry, matchTarget(typos), bitmapWords);
  const slot = filling;
  if (slot) {
    maxKeys16(entry, slotKeys(slot), bitmapWords);
    orBitmapInto(entryLead(entry), slotLead(slot), bitmapWords);
    return;
  }
  const keyed = keyedWord();
  if (keyed) {
    keyedEntries.push(<i32>entry);
    orBitmapInto(entryLead(entry), leadBitmap(), bitmapWords);
  }
  noteMatchWrites(typos, false, keyed, ANYWHERE);
}

/** A SIMD pass over every record beats one record at a time from an eighth of them on (~0.4 vs ~4 ns a record). */
@inline function isDense(candidates: i32): bool { return candidates > bitmapWords << 2; }

/**
 * Folds the keys of the terms and cached entries matched by ranked words
 * into the best keys of the listed candidates (the records of `listed`):
 * entries per candidate when they are few, else over every record at once (SIMD).
 */
export function foldKeys(candidates: IntVec, listed: usize): void {
  unfolded = 0;
  if (foldKeysAhead(candidates.length, listed)) return;
  for (let e = 0; e < keyedEntries.length; e++) {
    const entry = <usize>keyedEntries.get(e);
    for (let i = 0; i < candidates.length; i++) raiseKey(entry, docBest.ptr, keyStamp, candidates.get(i));
  }
  keyedEntries.length = 0;
}

/**
 * Raises `docBest[doc]` to `stamp | (KEY_MASK - key)` where larger for the
 * logged pairs of the records in `listed`: with the stamp above every older
 * query's, a max keeps the query's lowest key per record in one load and one store.
 */
function raiseLoggedKeys(listed: usize): void {
  const best = docBest.ptr;
  const end = keyLog.ptr + (<usize>keyLog.length << 2);
  for (let p = keyLog.ptr; p < end; p += 8) {
    const doc = load<i32>(p);
    if (!testBit(listed, doc)) continue;
    const key = load<u32>(p, 4);
    const slot = best + (<usize>doc << 2);
    const packed = keyStamp | (KEY_MASK - (key < KEY_MASK ? key : KEY_MASK));
    if (packed > load<u32>(slot)) store<u32>(slot, packed);
  }
  keyLog.length = 0;
}

/** The listed bitmap whose candidates' keys are not folded in yet (0: none wait). */
let unfolded: usize = 0;

/**
 * foldKeys once a criterion reads the keys: a broad page ranked by the lead
 * records alone (see leadsFirst in bucket-sort.ts) never needs them.
 */
export function foldKeysLater(listed: usize): void { unfolded = listed; }

export function ensureKeysFolded(candidates: IntVec): void {
  if (unfolded != 0) foldKeys(candidates, unfolded);
}

/** Gives the lead records of `listed` their key, 0, in docBest. */
function foldLead(listed: usize): void {
  const lead = leadBitmap(), best = docBest.ptr;
  const packed = keyStamp | KEY_MASK;
  for (let i = 0; i < bitmapWords; i++) {
    const o = <usize>i << 2;
    let bits = load<u32>(lead + o) & load<u32>(listed + o);
    while (bits != 0) {
      store<u32>(best + ((<usize>(i << 5) + <usize>ctz(bits)) << 2), packed);
      bits &= bits - 1;
    }
  }
  leadFolded = true;
}

/**
 * foldKeys for `count` candidates of `listed` not listed yet: the terms'
 * keys now, the entries' over every record at once when the candidates are
 * many (true), else not (foldedBestAttribute folds them one by one).
 */
export function foldKeysAhead(count: i32, listed: usize): bool {
  raiseLoggedKeys(listed);
  if (!isDense(count)) return false;
  foldLead(listed);
  for (let e = 0; e < keyedEntries.length; e++) raiseKeys(<usize>keyedEntries.get(e), docBest.ptr, bitmapWords, keyStamp);
  keyedEntries.length = 0;
  return true;
}

/** The best attribute key of `doc`, the cached entries' keys folded in first with `fold` (foldKeys for one record, ahead of it). */
@inline export function foldedBestAttribute(doc: i32, fold: bool): i32 {
  if (fold) for (let e = 0; e < keyedEntries.length; e++) raiseKey(<usize>keyedEntries.get(e), docBest.ptr, keyStamp, doc);
  return bestAttributeOf(doc);
}

/** The keys are folded in already (for every candidate, by foldKeysAhead and foldedBestAttribute). */
export function keysFolded(): void { keyedEntries.length = 0; keyLog.length = 0; }

/**
 * The terms of a trie subtree (`subtree` names it for the cache), all matched
 * by the current word as a prefix with `typos` typos. Their postings' bytes
 * are summed only when the cache holds no entry for the subtree: each is a
 * load of the term's fields, a cache miss at most terms of a large subtree.
 */
export function recordSubtreeMatch(subtree: i32, terms: IntVec, typos: i32, highlightLength: i32): void {
  if (typos > 0 && terms.length > 0) noteTypoMatch();
  const cached = hasEntry(subtree);
  const bytes = cached ? 0 : postings.bytesOf(terms);
  if (!cached && shouldDefer(bytes)) {
    for (let t = 0; t < terms.length; t++) {
      defer(terms.get(t), typos, false);
      markTerm(terms.get(t), typos, false);
    }
    return;
  }
  const cost = decodingCost(bytes, terms.length);
  if (cached || worthCaching(cost, bitmapWords << 5)) {
    const entry = subtreeEntry(subtree, terms, cost);
    if (entry != 0) {
      orCachedMatch(entry, typos);
      for (let t = 0; t < terms.length; t++) markTerm(terms.get(t), typos, false);
      return;
    }
  }
  for (let t = 0; t < terms.length; t++) recordMatch(terms.get(t), typos, false, highlightLength);
}

/** Notes that `term` matches the current word (the forward scan and highlighting read it). */
function markTerm(term: i32, typos: i32, full: bool): void {
  if (excludedMask & (1 << currentWord)) return;
  if (!testBit(markedBits.ptr, term)) {
    markedTerms.push(term);
    setBit(markedBits.ptr, <u32>term);
    termWords.set(term, 0);
    termZeroTypoWords.set(term, 0);
    termFullWords.set(term, 0);
  }
  const slot = filling;
  if (slot) noteSlotTerm(slot, term, typos, full);
  const bit = 1 << currentWord;
  termWords.set(term, termWords.get(term) | bit);
  if (typos == 0) termZeroTypoWords.set(term, termZeroTypoWords.get(term) | bit);
  if (full) termFullWords.set(term, termFullWords.get(term) | bit);
}

/**
 * A phrase alternative (a multi-word synonym, a split word): the records
 * holding every one of `terms` match the current word with no typo; each
 * term is marked for it. A frequent term ("the", "a": splits of a typed word
 * meet them at every keystroke) is read through its cached entry, as
 * recordMatch reads it: decoding its postings at 1M records cost a fifth of
 * the slowest first-sight searches.
 */
export function recordPhraseMatch(terms: StaticArray<i32>, full: bool): void {
  const all = workBitmap(0);
  const entries = new StaticArray<usize>(terms.length);
  for (let i = 0; i < terms.length; i++) unchecked(entries[i] = heavyTermEntry(terms[i]));
  // records rank by their best attribute key over every matched term: a term's keys are logged as it is read
  const keyed = keyedWord();
  intersectTerms(terms, entries, all, keyed);
  orBitmapInto(all, levelBitmap(currentWord, 0), bitmapWords);
  if (full) orBitmapInto(all, exactBitmap(currentWord), bitmapWords);
  noteMatchWrites(0, full, keyed, ANYWHERE);
  for (let i = 0; i < terms.length; i++) {
    const entry = unchecked(entries[i]);
    if (keyed && entry != 0) {
      keyedEntries.push(<i32>entry);
      orBitmapInto(entryLead(entry), leadBitmap(), bitmapWords);
    }
    markTerm(terms[i], 0, full);
  }
}

/**
 * Writes into `all` the records holding every one of `terms` (each read
 * from its cached entry where it has one); with `keyed`, the postings read
 * also go to the lead bitmap and the key log (see orIntoWithLead): each is
 * decoded once for both.
 */
function intersectTerms(terms: StaticArray<i32>, entries: StaticArray<usize>, all: usize, keyed: bool): void {
  const one = workBitmap(1);
  const bytes = <usize>bitmapWords << 2;
  for (let i = 0; i < terms.length; i++) {
    const entry = unchecked(entries[i]);
    if (entry != 0) {
      if (i == 0) memory.copy(all, entry, bytes);
      else andBitmapInto(entry, all, bitmapWords);
      continue;
    }
    const target = i == 0 ? all : one;
    memory.fill(target, 0, bytes);
    if (keyed) postings.orIntoWithLead(terms[i], target, leadBitmap(), 0, keyLog);
    else postings.orInto(terms[i], target);
    if (i > 0) andBitmapInto(one, all, bitmapWords);
  }
}

/** Word w (the bounded last word) gets the deferred terms' matches among the candidates (see bounded-match.ts). */
export function matchDeferred(w: i32): void {
  if (knownCandidates() == 0) return;
  scanDeferred(w, keyLog);
  for (let level = 0; level <= EXACT; level++) noteWrite(w, level, WITHIN_BOUND);
  noteWrite(LEAD, 0, WITHIN_BOUND);
}

/**
 * Makes word w's typo bitmaps cumulative: level t = matched with at most t
 * typos. A word written within the bound candidates only (a bounded last
 * word) is read in their vectors only.
 */
export function accumulateLevels(w: i32): void {
  if (w < accumulatedWords) return;
  const state = noteLevelsAccumulated(w);
  if (state == CLEAR) return;
  const l0 = levelBitmap(w, 0), l1 = levelBitmap(w, 1), l2 = levelBitmap(w, 2), l3 = levelBitmap(w, 3);
  if (state == ANYWHERE) {
    const end = <usize>bitmapWords << 2;
    for (let o: usize = 0; o < end; o += 16) accumulateVector(l0, l1, l2, l3, o);
    return;
  }
  const vectors = boundVectors(), vectorWords = boundVectorWords();
  for (let i = 0; i < vectorWords; i++) {
    let bits = load<u32>(vectors + (<usize>i << 2));
    while (bits != 0) {
      accumulateVector(l0, l1, l2, l3, (<usize>(i << 5) + <usize>ctz(bits)) << 4);
      bits &= bits - 1;
    }
  }
}

/** Raises the states of word w's levels to what accumulating them leaves (a level holds the records of those below it); returns the highest. */
function noteLevelsAccumulated(w: i32): i32 {
  let state = CLEAR;
  for (let level = 0; level < EXACT; level++) {
    const s = stateOf(levelIndex(w, level));
    if (s > state) state = s;
    noteWrite(w, level, state);
  }
  return state;
}

/** Makes one vector of the levels cumulative; returns the last (the records matched at all). */
@inline function accumulateVector(l0: usize, l1: usize, l2: usize, l3: usize, o: usize): v128 {
  const b = v128.or(v128.load(l1 + o), v128.load(l0 + o));
  v128.store(l1 + o, b);
  const c = v128.or(v128.load(l2 + o), b);
  v128.store(l2 + o, c);
  const d = v128.or(v128.load(l3 + o), c);
  v128.store(l3 + o, d);
  return d;
}

/**
 * The words before this one have cumulative levels already: a pass over
 * every record that reads their levels anyway (the bounded last word's
 * measure, see bounded-match.ts) accumulated them in passing.
 */
let accumulatedWords = 0;

/**
 * accumulateLevels for one 128-record vector (at byte `o`) of word w, in
 * another pass over every record; returns the records w matches there.
 * levelsAccumulated must follow the pass.
 */
@inline export function accumulateWordVector(w: i32, o: usize): v128 {
  return accumulateVector(levelBitmap(w, 0), levelBitmap(w, 1), levelBitmap(w, 2), levelBitmap(w, 3), o);
}

/** Words 0 to `count` - 1 had every vector accumulated (accumulateWordVector): accumulateLevels skips them. */
export function levelsAccumulated(count: i32): void {
  for (let w = 0; w < count; w++) noteLevelsAccumulated(w);
  accumulatedWords = count;
}

export { testBit };

@inline export function isTermMatched(term: i32): bool { return term < markedBits.length << 5 && testBit(markedBits.ptr, term); }
