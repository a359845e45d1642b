// Cached matches of large trie subtrees and frequent terms. A short prefix
// ("t", "th") matches thousands of terms whose postings, decoded one by one,
// hold most of the records, and a stop word ("the") alone holds nearly all;
// the matcher meets the same ones keystroke after keystroke. So for a subtree
// or a term with many postings the union of its records (a bitmap) and each
// record's best attribute key within it are kept, built on first use and
// dropped by any write. Entries are few and bounded (see `entryLimit`).
import { IntVec } from './buffers';
import { KEY_MASK, postings, totalPostingBytes } from './store';

/**
 * A subtree is worth caching from this many posting bytes per record of the
 * index: the few 1-2 letter prefixes and stop words (a bitmap merge costs
 * ~1/40 of decoding); a lower bar admits more entries than as-you-type
 * cycles can keep, and a cyclic reader of an LRU cache never hits.
 */
const MIN_BYTES_PER_RECORD = 1.5;
/** Cached entries take at most this share of the postings' bytes (and 32 entries at least). */
const BUDGET_SHARE = 4;
const KEY16: u32 = 0xffff;

const entryKey = new IntVec();
const entryPtr = new IntVec();
const entryUse = new IntVec();
let clock: i32 = 0;
let entryWords: i32 = 0;

/** Cache keys: a node's subtree, a node's descendants (not its own term), one term. */
export function subtreeCacheKey(node: i32, withNode: bool): i32 { return (node << 2) | (withNode ? 0 : 1); }
export function termCacheKey(term: i32): i32 { return (term << 2) | 2; }

/** Forgets every entry: the postings or the attribute keys changed. */
export function invalidatePrefixCache(): void {
  for (let i = 0; i < entryPtr.length; i++) heap.free(<usize>entryPtr.get(i));
  entryKey.length = 0;
  entryPtr.length = 0;
  entryUse.length = 0;
}

function entryBytes(words: i32): usize { return (<usize>words << 2) + (<usize>words << 6); }

/** Whether a subtree whose terms hold `bytes` posting bytes should be read through the cache. */
export function worthCaching(bytes: i32, records: i32): bool {
  return <f64>bytes >= <f64>records * MIN_BYTES_PER_RECORD && bytes > 4096;
}

function entryLimit(words: i32): i32 {
  const byBudget = <i32>(<usize>totalPostingBytes() / BUDGET_SHARE / entryBytes(words));
  return byBudget > 32 ? byBudget : 32;
}

/**
 * The entry under `key` for bitmaps of `words` u32 words, built from `terms`
 * when missing: the bitmap, then per record (32 per bitmap word) a u16
 * holding 0xffff - its best key in the subtree (0: not in the subtree).
 * Returns 0 when the subtree has keys too large for 16 bits.
 */
export function subtreeEntry(key: i32, terms: IntVec, words: i32): usize {
  if (words != entryWords) { invalidatePrefixCache(); entryWords = words; }
  clock++;
  for (let i = 0; i < entryKey.length; i++) {
    if (entryKey.get(i) != key) continue;
    entryUse.set(i, clock);
    return <usize>entryPtr.get(i);
  }
  const bytes = entryBytes(words);
  const ptr = heap.alloc(bytes);
  memory.fill(ptr, 0, bytes);
  const keys = ptr + (<usize>words << 2);
  for (let t = 0; t < terms.length; t++) {
    if (!postings.orIntoKeys16(terms.get(t), ptr, keys)) { heap.free(ptr); return 0; }
  }
  if (entryKey.length >= entryLimit(words)) evictOldest();
  entryKey.push(key);
  entryPtr.push(<i32>ptr);
  entryUse.push(clock);
  return ptr;
}

function evictOldest(): void {
  let oldest = 0;
  for (let i = 1; i < entryUse.length; i++) if (entryUse.get(i) < entryUse.get(oldest)) oldest = i;
  heap.free(<usize>entryPtr.get(oldest));
  const last = entryKey.length - 1;
  entryKey.set(oldest, entryKey.get(last));
  entryPtr.set(oldest, entryPtr.get(last));
  entryUse.set(oldest, entryUse.get(last));
  entryKey.length = last; entryPtr.length = last; entryUse.length = last;
}

/** ORs the entry's records into `bitmap` (`words` u32 words). */
export function orEntryInto(entry: usize, bitmap: usize, words: i32): void {
  const vectors = <usize>(words >> 2) << 4;
  for (let o: usize = 0; o < vectors; o += 16) v128.store(bitmap + o, v128.or(v128.load(bitmap + o), v128.load(entry + o)));
  for (let o = vectors; o < <usize>words << 2; o += 4) store<u32>(bitmap + o, load<u32>(bitmap + o) | load<u32>(entry + o));
}

/**
 * Raises each record's packed best key (see PostingLists#orIntoKeyed) with the
 * entry's keys. Records outside the subtree get `stamp | (KEY_MASK - 0xffff)`,
 * a key worse than any real one: harmless, as only records some ranked word
 * matched (and so raised with a real key) are ever ranked.
 */
export function raiseKeys(entry: usize, best: usize, words: i32, stamp: u32): void {
  const keys = entry + (<usize>words << 2);
  const base = i32x4.splat(<i32>(stamp | (KEY_MASK - KEY16)));
  const records = <usize>words << 5;
  for (let d: usize = 0; d < records; d += 4) {
    const packed = i32x4.add(base, v128.load16x4_u(keys + (d << 1)));
    const slot = best + (d << 2);
    v128.store(slot, i32x4.max_u(v128.load(slot), packed));
  }
}

/** raiseKeys for one record. */
@inline export function raiseKey(entry: usize, best: usize, words: i32, stamp: u32, doc: i32): void {
  const key16 = <u32>load<u16>(entry + (<usize>words << 2) + (<usize>doc << 1));
  if (key16 == 0) return;
  const slot = best + (<usize>doc << 2);
  const packed = stamp | (KEY_MASK - KEY16 + key16);
  if (packed > load<u32>(slot)) store<u32>(slot, packed);
}
