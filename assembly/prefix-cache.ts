// Cached matches of large trie subtrees and frequent terms. A short prefix
// ("t", "th") matches thousands of terms whose postings, decoded one by one,
// hold most of the records, and a stop word ("the") alone holds nearly all;
// the matcher meets the same ones keystroke after keystroke. So for a subtree
// or a term with many postings the union of its records (a bitmap) and each
// record's best attribute key within it are kept, built on second use. Entries
// are few and bounded (see MAX_ENTRIES).
//
// Writes keep them: each posting added goes into the entries whose subtree
// or term holds its term (`notePosting`), and a removed record's bits stay,
// like its postings (searches AND candidates with the live records). Before,
// every applied slice of a batch dropped them all, and under four writers
// nearly every search rebuilt the entries it read (1.8 times the cost of a
// warm search). They are dropped when the attribute keys change, when a
// record id comes back, and when records outgrow the layout (see layoutWords).
import { IntVec } from './buffers';
import { nodeParent, termNode } from './dictionary';
import { KEY_MASK, addKeyed16, postings } from './store';

/**
 * A subtree is worth caching from this decoding cost (in posting bytes,
 * see decodingCost) per record of the index (short prefixes, stop words,
 * frequent words; about one record in eight): decoding them (~2.5 ns a byte) then costs several times merging
 * the entry (SIMD over its bitmaps, its keys for the candidates only).
 * Measured at 1M records, as-you-type: 0.25 against 0.75 took 8-25% off the
 * summed query time. Which entries stay is the admission rule's business
 * (see subtreeEntry).
 */
const MIN_BYTES_PER_RECORD = 0.25;
/**
 * Entries kept: each takes 2.25 bytes per record (two bitmaps and u16 keys),
 * so 48 take ~108 bytes per record, about a quarter of a typical record's JSON.
 */
const MAX_ENTRIES = 48;
const KEY16: u32 = 0xffff;

const entryKey = new IntVec();
const entryPtr = new IntVec();
const entryUse = new IntVec();
/** Uses of each entry, halved every AGING_PERIOD lookups, and its lists' decoding cost (what it saves per use, see decodingCost). */
const entryHits = new IntVec();
const entryCost = new IntVec();
const AGING_PERIOD = 4096;
let clock: i32 = 0;

/**
 * The u32 words (32 records each) every keyed entry, and every word-memo
 * slot, is laid out for: at least the searches' bitmap words, with room for
 * the records written after (record ids only grow, a few thousand a second
 * under writes). Searches read the first bitmapWords of each part.
 */
export let layoutWords: i32 = 0;
/** Records written beyond the layout before it grows: an eighth more, at least 8,192. */
function roomyLayout(words: i32): i32 {
  const room = words >> 3 > 256 ? words >> 3 : 256;
  return (words + room + 3) & ~3;
}

/**
 * Searches need bitmaps of `words` words: a layout too small for them drops
 * every entry and grows (see layoutWords). Returns whether it grew.
 */
export function ensureLayout(words: i32): bool {
  if (words <= layoutWords) return false;
  invalidatePrefixCache();
  layoutWords = roomyLayout(words);
  return true;
}

/** The bytes of a full cache laid out for `words`. */
export function fullCacheBytes(words: i32): usize { return <usize>MAX_ENTRIES * entryBytes(words); }

/** Cache keys: a node's subtree, a node's descendants (not its own term), one term. */
export function subtreeCacheKey(node: i32, withNode: bool): i32 { return (node << 2) | (withNode ? 0 : 1); }
export function termCacheKey(term: i32): i32 { return (term << 2) | 2; }

/** Forgets every entry: the attribute keys changed, or a record id came back. */
export function invalidatePrefixCache(): void {
  for (let i = 0; i < entryPtr.length; i++) heap.free(<usize>entryPtr.get(i));
  entryKey.length = 0;
  entryPtr.length = 0;
  entryUse.length = 0;
  entryHits.length = 0;
  entryCost.length = 0;
  indexEntries();
}

/** An entry: its records' bitmap, then per record a u16 key, then the bitmap of its records matched in the lead place (see LEAD_KEYS). */
function entryBytes(words: i32): usize { return (<usize>words << 3) + (<usize>words << 6); }
@inline export function entryKeys(entry: usize): usize { return entry + (<usize>layoutWords << 2); }
@inline export function entryLead(entry: usize): usize { return entry + (<usize>layoutWords << 2) + (<usize>layoutWords << 6); }

// --- keeping entries across writes

/** Entries by cache key: open addressing, slot = entry index + 1 (0 = empty); rebuilt whenever entries come or go. */
const TABLE_BITS = 8;
const TABLE_SLOTS = 1 << TABLE_BITS;
const entryTable = new IntVec();
entryTable.resetZero(TABLE_SLOTS);

function indexEntries(): void {
  entryTable.resetZero(TABLE_SLOTS);
  for (let i = 0; i < entryKey.length; i++) {
    let slot = tableSlot(entryKey.get(i));
    while (entryTable.get(slot) != 0) slot = (slot + 1) & (TABLE_SLOTS - 1);
    entryTable.set(slot, i + 1);
  }
}

/** A cache key's slot in a table of 2^bits slots (Fibonacci hashing: node and term numbers come in runs). */
@inline function keySlot(key: i32, bits: i32): i32 { return <i32>((<u32>key * 0x9e3779b1) >> (32 - bits)); }
@inline function tableSlot(key: i32): i32 { return keySlot(key, TABLE_BITS); }

/** The entry under `key`, or -1. */
function entryOf(key: i32): i32 {
  let slot = tableSlot(key);
  while (true) {
    const i = entryTable.get(slot) - 1;
    if (i < 0 || entryKey.get(i) == key) return i;
    slot = (slot + 1) & (TABLE_SLOTS - 1);
  }
}

/** Whether the entry under `key` is kept (reading it costs a pass over its bitmaps, no decoding). */
export function hasEntry(key: i32): bool { return entryOf(key) >= 0; }

/** Entries kept now. */
export function entryCount(): i32 { return entryKey.length; }

/** Whether the cache keeps all the entries it may (a new one then takes the place of the least valuable). */
export function cacheFull(): bool { return entryKey.length >= MAX_ENTRIES; }

/** Whether any entry is kept (writes skip notePosting otherwise). */
export function hasEntries(): bool { return entryKey.length > 0; }

/**
 * `term` was added to record `doc` at attribute key `key`: every entry
 * holding the term (its own, those of the subtrees of its node and of every
 * ancestor, the descendants-only ones of strict ancestors) takes the
 * posting, as building it from the postings would have.
 */
export function notePosting(term: i32, doc: i32, key: u32): void {
  if (doc >= layoutWords << 5) { invalidatePrefixCache(); return; }
  addTo(entryOf(termCacheKey(term)), doc, key);
  let node = termNode.get(term);
  addTo(entryOf(subtreeCacheKey(node, true)), doc, key);
  for (node = nodeParent.get(node); node > 0; node = nodeParent.get(node)) {
    addTo(entryOf(subtreeCacheKey(node, true)), doc, key);
    addTo(entryOf(subtreeCacheKey(node, false)), doc, key);
  }
}

function addTo(entry: i32, doc: i32, key: u32): void {
  if (entry < 0) return;
  if (key >= KEY16) { evict(entry); return; } // as subtreeEntry would refuse it
  const ptr = <usize>entryPtr.get(entry);
  addKeyed16(ptr, entryKeys(ptr), entryLead(ptr), <u32>doc, key);
}

/**
 * A posting list's own cost, in posting bytes: its term's fields and the
 * start of its list are two cache misses or so (~60 ns), where a byte
 * decodes in ~2.5 ns. A subtree of thousands of terms holding a posting or
 * two each (the 135k cities: 5,504 terms start with "k", in 7,068
 * postings) costs more by its terms than by its bytes.
 */
const LIST_COST_BYTES = 24;

/** What decoding the lists of `terms` terms holding `bytes` posting bytes costs, in posting bytes. */
export function decodingCost(bytes: i32, terms: i32): i32 { return bytes + terms * LIST_COST_BYTES; }

/** Whether a subtree whose lists cost `cost` to decode (see decodingCost) should be read through the cache. */
export function worthCaching(cost: i32, records: i32): bool {
  return <f64>cost >= <f64>records * MIN_BYTES_PER_RECORD && cost > 4096;
}


/**
 * The entry under `key` (laid out for layoutWords), built from `terms`
 * (whose lists cost `cost` to decode, see decodingCost) when missing and
 * asked for before (see seenBefore): the bitmap, then per
 * record (32 per bitmap word) a u16 holding 0xffff - its best key in the
 * subtree (0: not in the subtree). Returns 0 on a key's first ask (the
 * caller decodes the terms itself; see AT_ONCE_BYTES_PER_RECORD for the
 * subtrees cached at once), when the subtree has keys too large for 16
 * bits (the entry it was to replace is then gone too), or when the cache
 * is full and its least valuable entry (uses × decoding cost) is worth
 * more than this one's first use: a reader cycling over more subtrees than
 * fit (as-you-type over many phrases) then keeps hitting the entries it has,
 * where an LRU cache would miss every time.
 */
export function subtreeEntry(key: i32, terms: IntVec, cost: i32): usize {
  if (++clock % AGING_PERIOD == 0) for (let i = 0; i < entryHits.length; i++) entryHits.set(i, entryHits.get(i) >> 1);
  const known = entryOf(key);
  if (known >= 0) {
    entryUse.set(known, clock);
    entryHits.set(known, entryHits.get(known) + 1);
    return <usize>entryPtr.get(known);
  }
  if (<f64>cost < atOnceCost() && !seenBefore(key)) return 0;
  return admitEntry(key, terms, cost);
}

/**
 * Builds the entry under `key` (not kept now) from `terms`, in place of
 * the least valuable entry when the cache is full and that one is worth
 * less than `cost`. Returns it, or 0 when it is refused (see subtreeEntry).
 */
export function admitEntry(key: i32, terms: IntVec, cost: i32): usize {
  let victim = -1;
  if (entryKey.length >= MAX_ENTRIES) {
    victim = leastValuable();
    if (valueOf(victim) > <f64>cost) return 0;
  }
  // the victim's block is rebuilt in place: entries all have one size, and allocating the
  // new one before freeing the old took a block more each time (which smaller blocks then split)
  const size = entryBytes(layoutWords);
  const ptr = victim >= 0 ? forget(victim) : heap.alloc(size);
  memory.fill(ptr, 0, size);
  for (let t = 0; t < terms.length; t++) {
    if (!postings.orIntoKeys16(terms.get(t), ptr, entryKeys(ptr), entryLead(ptr), 0)) { heap.free(ptr); return 0; }
  }
  entryKey.push(key);
  entryPtr.push(<i32>ptr);
  entryUse.push(clock);
  entryHits.push(1);
  entryCost.push(cost);
  indexEntries();
  return ptr;
}

/**
 * From this decoding cost per record (see decodingCost) an entry is built
 * on the first ask: decoding such a subtree (a one- or two-letter prefix, a stop word)
 * costs more than building its entry over it, and the next keystrokes meet
 * it again.
 */
const AT_ONCE_BYTES_PER_RECORD = 1.0;

/** The decoding cost from which an entry is built on its first ask, for the records the layout holds. */
export function atOnceCost(): f64 { return <f64>(layoutWords << 5) * AT_ONCE_BYTES_PER_RECORD; }

/**
 * Keys asked for once and not cached: a direct-mapped table of the last key
 * per slot (key + 1; 0: empty). An entry is built on a key's second ask,
 * not its first: building one zero-fills and fills a bitmap and a key per
 * record of the index (2.25 MB at 1M records) and merges it over the whole
 * layout, where the first ask alone decodes only the subtree's postings
 * (within the other words' candidates when they bound it). Queries seen
 * once (most, at first sight) never pay for an entry; a prefix met again
 * (the next keystroke, a frequent word) is cached from its second ask.
 */
const SEEN_BITS = 10;
const seenKeys = new StaticArray<i32>(1 << SEEN_BITS);

/** Whether `key` was asked for before (since its slot last held another key); notes it when not. */
function seenBefore(key: i32): bool {
  const slot = keySlot(key, SEEN_BITS);
  if (unchecked(seenKeys[slot]) == key + 1) return true;
  unchecked(seenKeys[slot] = key + 1);
  return false;
}

@inline function valueOf(i: i32): f64 { return <f64>entryHits.get(i) * <f64>entryCost.get(i); }

function leastValuable(): i32 {
  let least = 0;
  for (let i = 1; i < entryKey.length; i++) {
    const value = valueOf(i), leastValue = valueOf(least);
    if (value < leastValue || (value == leastValue && entryUse.get(i) < entryUse.get(least))) least = i;
  }
  return least;
}

function evict(i: i32): void {
  heap.free(forget(i));
}

/** Takes entry `i` out of the cache and returns its block, still allocated. */
function forget(i: i32): usize {
  const ptr = <usize>entryPtr.get(i);
  const last = entryKey.length - 1;
  entryKey.set(i, entryKey.get(last));
  entryPtr.set(i, entryPtr.get(last));
  entryUse.set(i, entryUse.get(last));
  entryHits.set(i, entryHits.get(last));
  entryCost.set(i, entryCost.get(last));
  entryKey.length = last; entryPtr.length = last; entryUse.length = last; entryHits.length = last; entryCost.length = last;
  indexEntries();
  return ptr;
}

/** ANDs the bitmap at `from` into `bitmap` (`words` u32 words, a multiple of 4). */
export function andBitmapInto(from: usize, bitmap: usize, words: i32): void {
  const end = <usize>words << 2;
  for (let o: usize = 0; o < end; o += 16) v128.store(bitmap + o, v128.and(v128.load(bitmap + o), v128.load(from + o)));
}

/** ORs the bitmap at `from` into `bitmap` (`words` u32 words, a multiple of 4). */
export function orBitmapInto(from: usize, bitmap: usize, words: i32): void {
  const end = <usize>words << 2;
  for (let o: usize = 0; o < end; o += 16) v128.store(bitmap + o, v128.or(v128.load(bitmap + o), v128.load(from + o)));
}

/**
 * Raises each record's packed best key (see PostingLists#raiseBest) with the
 * entry's keys. Records outside the subtree get `stamp | (KEY_MASK - 0xffff)`,
 * a key worse than any real one: harmless, as only records some ranked word
 * matched (and so raised with a real key) are ever ranked.
 */
export function raiseKeys(entry: usize, best: usize, words: i32, stamp: u32): void {
  const keys = entryKeys(entry);
  const base = i32x4.splat(<i32>(stamp | (KEY_MASK - KEY16)));
  const records = <usize>words << 5;
  for (let d: usize = 0; d < records; d += 4) {
    const packed = i32x4.add(base, v128.load16x4_u(keys + (d << 1)));
    const slot = best + (d << 2);
    v128.store(slot, i32x4.max_u(v128.load(slot), packed));
  }
}

/** Raises the u16 keys at `keys` (a record's best is the largest) with the entry's. */
export function maxKeys16(entry: usize, keys: usize, words: i32): void {
  const from = entryKeys(entry);
  const end = <usize>words << 6;
  for (let o: usize = 0; o < end; o += 16) v128.store(keys + o, i16x8.max_u(v128.load(keys + o), v128.load(from + o)));
}

/** raiseKeys for one record. */
@inline export function raiseKey(entry: usize, best: usize, stamp: u32, doc: i32): void {
  const key16 = <u32>load<u16>(entryKeys(entry) + (<usize>doc << 1));
  if (key16 == 0) return;
  const slot = best + (<usize>doc << 2);
  const packed = stamp | (KEY_MASK - KEY16 + key16);
  if (packed > load<u32>(slot)) store<u32>(slot, packed);
}
