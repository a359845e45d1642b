// The prefix cache's entries for one-letter prefixes, built ahead of the
// queries that ask for them. A first keystroke is a one-letter prefix, and
// its subtree is the largest a query reads: its first ask decoded it, or
// built its entry at once (see AT_ONCE_BYTES_PER_RECORD in
// prefix-cache.ts), several times an answer's usual time (3.5-6.4 ms on
// the 135k cities, where a cached one takes well under one). The engine
// calls warmPrefixCache a step at a time while the thread is idle (see
// src/index/prefix-warming.ts); each step builds the entry of the costliest
// letter not yet cached that a second ask would cache. The entries take
// room searches reserve anyway (layOutCaches reserves it for a full cache).
import { IntVec } from './buffers';
import { INNER_MARK } from './text';
import { admitEntry, decodingCost, entryCount, hasEntry, subtreeCacheKey, worthCaching } from './prefix-cache';
import { orderTrie, orderedChar, orderedEnd, orderedNode, orderedTerm } from './trie-order';
import { postings } from './store';
import { termCount } from './dictionary';
import { layOutCaches } from './wordsets';

/**
 * Entries the warming builds the cache up to: half of what it keeps, so
 * that the subtrees and words the queries bring have room beside them.
 */
export const WARM_ENTRIES = 24;

/**
 * The largest decoding cost a step takes on (~5 ms at ~2.5 ns a posting
 * byte): a step holds the thread, and a search arriving meanwhile waits
 * for it. A larger letter (the most frequent ones from a few hundred
 * thousand records on) is cached by its first ask, as before.
 */
const STEP_COST = 2 << 20;
/**
 * The largest entry a step builds: it fills it whole (2.25 bytes a
 * record) and sets a bit and a key per posting across it. At 1M records
 * a step within STEP_COST took 9-35 ms; the warming stops at ~460k.
 */
const MAX_ENTRY_BYTES: usize = 1 << 20;

/** The root's children (preorder nodes) and their decoding costs, for the records and terms counted in costsFor*. */
const letters = new IntVec();
const letterCosts = new IntVec();
let costsForRecords = -1;
let costsForTerms = -1;

const terms = new IntVec();

/**
 * Builds the entry of the one-letter prefix costliest to decode among
 * those worth caching (see worthCaching) and within STEP_COST that the
 * cache lacks, the cache holding fewer than WARM_ENTRIES and the index's
 * `records` an entry within MAX_ENTRY_BYTES. Returns whether it built one
 * (the next step may find another).
 */
export function warmPrefixCache(records: i32): bool {
  // an entry takes 2.25 bytes a record (see entryBytes): checked before laying the caches
  // out, which reserves their room (an index no one searches then never takes it)
  if (entryCount() >= WARM_ENTRIES || <u64>records * 9 > <u64>MAX_ENTRY_BYTES * 4) return false;
  layOutCaches(records);
  orderTrie();
  measureLetters(records);
  let best = -1;
  let bestCost = 0;
  for (let i = 0; i < letters.length; i++) {
    const cost = letterCosts.get(i);
    if (cost <= bestCost || cost > STEP_COST || hasEntry(prefixKey(letters.get(i)))) continue;
    best = letters.get(i);
    bestCost = cost;
  }
  if (best < 0 || !worthCaching(bestCost, records)) return false;
  collectDescendants(best);
  return admitEntry(prefixKey(best), terms, bestCost) != 0;
}

/**
 * Lists the root's children and their costs, once for a round of steps:
 * a pass over every node of the trie. Records and terms added since make
 * it list them again; a stale cost (records removed, lists compacted)
 * only orders the letters, each built from its terms as they are.
 */
function measureLetters(records: i32): void {
  if (costsForRecords == records && costsForTerms == termCount) return;
  costsForRecords = records;
  costsForTerms = termCount;
  letters.length = 0;
  letterCosts.length = 0;
  for (let letter = 1, end = orderedEnd.get(0); letter < end; letter = orderedEnd.get(letter)) {
    if (orderedChar.get(letter) == <i32>INNER_MARK) continue;
    letters.push(letter);
    letterCosts.push(descendantsCost(letter));
  }
}

/** The cache key a one-letter prefix query asks under: the letter's descendants, as the walk emits them (matcher.ts). */
function prefixKey(letter: i32): i32 { return subtreeCacheKey(orderedNode.get(letter), false); }

/** The decoding cost of the terms below the preorder node `letter` (its own term not counted). */
function descendantsCost(letter: i32): i32 {
  let bytes = 0, count = 0;
  for (let n = letter + 1, end = orderedEnd.get(letter); n < end; n++) {
    const term = orderedTerm.get(n);
    if (term < 0) continue;
    bytes += postings.bytes(term);
    count++;
  }
  return decodingCost(bytes, count);
}

function collectDescendants(letter: i32): void {
  terms.length = 0;
  for (let n = letter + 1, end = orderedEnd.get(letter); n < end; n++) {
    const term = orderedTerm.get(n);
    if (term >= 0) terms.push(term);
  }
}
