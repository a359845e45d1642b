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

/**
 * Entries the warming builds the cache up to: half of what it keeps, so
 * that the subtrees and words the queries bring have room beside them.
 */
export const WARM_ENTRIES = 24;

const terms = new IntVec();

/**
 * Builds the entry of the one-letter prefix costliest to decode among
 * those worth caching (see worthCaching) that the cache lacks, the cache
 * holding fewer than WARM_ENTRIES. Searches must have laid the caches out
 * for the index's records first (layOutCaches). Returns whether it built
 * one (the next step may find another).
 */
export function warmPrefixCache(records: i32): bool {
  if (entryCount() >= WARM_ENTRIES) return false;
  orderTrie();
  let best = -1;
  let bestCost = 0;
  for (let letter = 1, end = orderedEnd.get(0); letter < end; letter = orderedEnd.get(letter)) {
    if (orderedChar.get(letter) == <i32>INNER_MARK || hasEntry(prefixKey(letter))) continue;
    const cost = descendantsCost(letter);
    if (cost > bestCost) { best = letter; bestCost = cost; }
  }
  if (best < 0 || !worthCaching(bestCost, records)) return false;
  collectDescendants(best);
  return admitEntry(prefixKey(best), terms, bestCost) != 0;
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
