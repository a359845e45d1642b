// The prefix cache's entries for one-letter prefixes, built ahead of the
// queries that ask for them. A first keystroke is a one-letter prefix, and
// its subtree is the largest a query reads: its first ask decoded it, or
// built its entry at once (see AT_ONCE_BYTES_PER_RECORD in
// prefix-cache.ts), several times an answer's usual time (3.5-6.4 ms on
// the 135k cities, where a cached one takes well under one). The engine
// calls warmPrefixCache a step at a time while the thread is idle (see
// src/index/prefix-warming.ts); each step builds the entry of the costliest
// letter not yet cached that a second ask would cache. In a large index
// the entries take room its first search reserved for a full cache; the
// warming never lays the caches out where that would reserve it.
import { IntVec } from './buffers';
import { INNER_MARK } from './text';
import { admitEntry, cacheFull, decodingCost, hasEntry, subtreeCacheKey, worthCaching } from './prefix-cache';
import { orderTrie, orderTrieAhead, orderedChar, orderedEnd, orderedNode, subtreeTermsInto } from './trie-order';
import { postings } from './store';
import { termCount } from './dictionary';
import { cachesLaidOutFor, layOutCaches } from './wordsets';
import { WARM_DONE, WARM_MORE, WARM_UNLAID } from './params';

/**
 * Letters the warming caches at most: half the entries the cache keeps,
 * so that the subtrees and words the queries bring have room beside them.
 */
const WARM_ENTRIES = 24;

/**
 * The largest decoding cost a step takes on (~5 ms at ~2.5 ns a posting
 * byte): a step holds the thread, and a search arriving meanwhile waits
 * for it. A larger letter (the most frequent ones from a few hundred
 * thousand records on) is cached by its first ask, as before.
 */
const STEP_COST = 2 << 20;
/**
 * The largest entry a step builds: it fills it whole (~2.5 bytes a
 * record with the layout's room) and sets a bit and a key per posting
 * across it, which costs more a posting as the entry outgrows the caches:
 * letters within STEP_COST took steps of 5-19 ms at 200k records of the
 * synthetic set, 9-35 ms at 1M. The warming stops at ~200k records.
 */
const MAX_ENTRY_BYTES: usize = 1 << 19;

/**
 * Trie nodes a step reads at most to measure letters (a load of a term's
 * list length each, a cache miss at most terms): at 200k records of the
 * synthetic set, measuring every letter at once took a step of ~40 ms.
 */
const MEASURE_NODES = 1 << 16;

/** The root's children (preorder nodes) and their decoding costs (the first `measured` of them), for the records and terms counted in costsFor*. */
const letters = new IntVec();
const letterCosts = new IntVec();
let measured = 0;
let costsForRecords = -1;
let costsForTerms = -1;

const terms = new IntVec();

/**
 * Builds the entry of the one-letter prefix costliest to decode among
 * those worth caching (see worthCaching) and within STEP_COST that the
 * cache lacks, once the letters are measured (see measureLetters): while
 * fewer than WARM_ENTRIES letters are cached, the cache is not full and
 * an entry for the index's `records` takes MAX_ENTRY_BYTES at most.
 * Returns WARM_MORE when it measured or took a letter (the next step may
 * find another), WARM_DONE when none is left, and WARM_UNLAID when the
 * caches are not laid out for the records and laying them out would
 * reserve their room: a search does it (see cachesLaidOutFor), and the
 * engine steps again after one.
 */
export function warmPrefixCache(records: i32): i32 {
  // whether or not any entry is built: the walk's copy of the trie is a first search's too
  orderTrieAhead();
  // an entry takes ~2.5 bytes a record (see entryBytes, and the layout's room)
  if (<u64>records * 5 > <u64>MAX_ENTRY_BYTES * 2) return WARM_DONE;
  if (!cachesLaidOutFor(records)) return WARM_UNLAID;
  layOutCaches(records);
  orderTrie();
  if (!measureLetters(records)) return WARM_MORE;
  let best = -1;
  let bestAt = -1;
  let bestCost = 0;
  let cached = 0;
  for (let i = 0; i < letters.length; i++) {
    if (hasEntry(prefixKey(letters.get(i)))) { cached++; continue; }
    const cost = letterCosts.get(i);
    if (cost <= bestCost || cost > STEP_COST) continue;
    best = letters.get(i);
    bestAt = i;
    bestCost = cost;
  }
  // the entries queries made are never pushed out for a letter
  if (cached >= WARM_ENTRIES || cacheFull() || best < 0 || !worthCaching(bestCost, records)) return WARM_DONE;
  subtreeTermsInto(best, false, terms);
  // refused (a key of 16 bits or more): the letter is passed over until the letters are measured again
  if (admitEntry(prefixKey(best), terms, bestCost) == 0) letterCosts.set(bestAt, 0);
  return WARM_MORE;
}

/**
 * Lists the root's children and measures their costs, once for a round of
 * steps and MEASURE_NODES nodes a step (a letter at least); returns
 * whether every letter is measured. Records and terms added since make it
 * list them again (the preorder numbers change only as terms are added).
 * A cost gone stale by removals or compaction is an estimate still: each
 * letter is built from its terms as they are.
 */
function measureLetters(records: i32): bool {
  if (costsForRecords != records || costsForTerms != termCount) {
    costsForRecords = records;
    costsForTerms = termCount;
    letters.length = 0;
    letterCosts.length = 0;
    measured = 0;
    for (let letter = 1, end = orderedEnd.get(0); letter < end; letter = orderedEnd.get(letter)) {
      if (orderedChar.get(letter) == <i32>INNER_MARK) continue;
      letters.push(letter);
      letterCosts.push(0);
    }
  }
  for (let nodes = 0; measured < letters.length && nodes < MEASURE_NODES; measured++) {
    const letter = letters.get(measured);
    letterCosts.set(measured, descendantsCost(letter));
    nodes += orderedEnd.get(letter) - letter;
  }
  return measured == letters.length;
}

/** The cache key a one-letter prefix query asks under: the letter's descendants, as the walk emits them (matcher.ts). */
function prefixKey(letter: i32): i32 { return subtreeCacheKey(orderedNode.get(letter), false); }

/** The decoding cost of the terms below the preorder node `letter` (its own term not counted), left in `terms`. */
function descendantsCost(letter: i32): i32 {
  subtreeTermsInto(letter, false, terms);
  return decodingCost(postings.bytesOf(terms), terms.length);
}
