// The terms a whole query word matches under another first letter than its
// own, found without walking the trie. There a typo on the first letter
// counts two and raises the word's budget by one (matcher.ts): a word
// allowed k typos matches a term starting otherwise with that first-letter
// typo and k - 1 more. The walk finds them by descending the subtree of
// every other first letter with k - 1 typos to spare, some 40 subtrees: for
// a word of 8 letters or more (two typos) that was nearly all of its walk
// (skipping them took a first-sight query's core time to 0.81x at 100k).
//
// Such a term t, its first letter not the word w's, is one of these, t[1..]
// being its units after the first (w[i..] likewise):
// - w's first letter substituted: t[1..] within k - 1 edits of w[1..];
// - a letter put before it: t[1..] within k - 1 edits of w;
// - its first two letters swapped: t[1..] within k - 1 edits of w[0] w[2..];
// - its first letter deleted: t within k - 1 edits of w[1..], so t[1..]
//   within k - 1 edits of w[2..], or of w[1..] when the edit puts t's
//   first letter before w[1], or of w[3..] when it deletes w[1] (one
//   deletion from w[2..]).
// And two strings within one edit share a string that at most one deletion
// makes of each (a substitution deletes the unit from both, an insertion
// from one, a swap one of its two units from both). So every term is
// listed under the hash of t[1..] and of each string one deletion makes of
// it (~|t| entries), and a word's candidates are the terms listed under
// those four strings' hashes (and their deletions' when k is 2). Each is
// then matched by the walk's own recurrence, so what is emitted is what
// the walk would emit; the walk keeps the word's own first letter.
//
// Terms are listed after the dictionary makes them, in steps while the
// thread is idle (src/index/prefix-warming.ts, which also lists them
// before a search when few enough are left), and by a search when no
// more than SEARCH_STEP are left; until every term is, a search walks as
// before (listing 256 terms took a search 0.3-0.5 ms more on the cities).
// Listed as the dictionary made them, they took an import of the 135k
// cities from 1.10 to 1.50 s (105k terms, ~900k entries, 1-2 µs a term).
// The table is one of chains: bucket heads by the hash's low bits, and per
// entry its hash, term and the next entry of its bucket.
import { IntVec } from './buffers';
import { FNV_OFFSET, FNV_PRIME, INNER_MARK } from './text';
import { termCount, termUnitLength, termUnitStart, termUnits } from './dictionary';

/** Terms a step in idle time lists at most (a few ms). */
export const IDLE_STEP = 2048;
/** Terms left to list that a search lists itself before it looks up (with more left, it walks). */
export const SEARCH_STEP = 32;
/** Entries a term makes, about (one per unit): the buckets are grown once for the terms about to be listed. */
const ENTRIES_PER_TERM = 9;
/** Terms listed: those with a lower id. */
let listed = 0;

/** Whether every term is listed, once those left are listed when they are `step` or fewer (a search's, see SEARCH_STEP). */
export function termsListed(step: i32): bool {
  return termCount - listed <= step && listNewTerms(step);
}

/** The terms not listed yet. */
export function termsLeftToList(): i32 { return termCount - listed; }

/** Lists up to `step` of the terms not listed yet, the oldest first; whether every term is listed. */
export function listNewTerms(step: i32): bool {
  const end = termCount - listed > step ? listed + step : termCount;
  if (end > listed) reserveFor(entryTerm.length + (termCount - listed) * ENTRIES_PER_TERM);
  for (; listed < end; listed++) listTerm(listed, termUnits.ptr + (<usize>termUnitStart.get(listed) << 2), termUnitLength.get(listed));
  return listed == termCount;
}

/** Per bucket, its first entry + 1 (0: none). */
const heads = new IntVec();
let bucketBits = 0;
const entryHash = new IntVec();
const entryTerm = new IntVec();
const entryNext = new IntVec();

/** The hash of the `n` units at `at` but the one at `skip` (-1: none). */
function hashSkipping(at: usize, n: i32, skip: i32): u32 {
  let h = FNV_OFFSET;
  for (let i = 0; i < n; i++) {
    if (i == skip) continue;
    h = (h ^ load<u32>(at + (<usize>i << 2))) * FNV_PRIME;
  }
  return h;
}

@inline function unitAt(at: usize, i: i32): i32 { return load<i32>(at + (<usize>i << 2)); }

/**
 * Lists `term`, whose `n` folded units are at `at`, under its units after
 * the first and each string one deletion makes of them (deleting one of a
 * run of equal units makes one string, listed once). A word found inside
 * a longer word (its last unit INNER_MARK) is matched as that word, so it
 * is listed as that word.
 */
function listTerm(term: i32, at: usize, n: i32): void {
  if (n > 0 && unitAt(at, n - 1) == <i32>INNER_MARK) n--;
  if (n == 0) return;
  hashesOf(at + 4, n - 1, true);
  for (let i = 0; i < hashes.length; i++) add(<u32>hashes.get(i), term);
}

/** The hashes hashesOf last made. */
const hashes = new IntVec();

/**
 * Puts in `hashes` the hash of the `n` units at `at` and, with
 * `deletions`, of each string one deletion makes of them: deleting one of
 * a run of equal units makes one string, hashed once. Terms are listed and
 * words looked up by the same strings.
 */
function hashesOf(at: usize, n: i32, deletions: bool): void {
  hashes.length = 0;
  hashes.push(<i32>hashSkipping(at, n, -1));
  if (!deletions) return;
  for (let i = 0; i < n; i++) {
    if (i > 0 && unitAt(at, i) == unitAt(at, i - 1)) continue;
    hashes.push(<i32>hashSkipping(at, n, i));
  }
}

/**
 * Room for `entries` entries, taken once for the terms about to be
 * listed: the buckets grown (relinking every entry once, where doubling
 * relinked them each time) and the entries' vectors reserved with an
 * eighth to spare (doubling left up to half of each unused, and the
 * blocks it let go of as holes).
 */
function reserveFor(entries: i32): void {
  growBucketsFor(entries);
  entryHash.reserveSpared(entries);
  entryTerm.reserveSpared(entries);
  entryNext.reserveSpared(entries);
}

function add(hash: u32, term: i32): void {
  if (entryTerm.length >= (bucketBits == 0 ? 0 : 1 << bucketBits)) growBucketsFor(entryTerm.length + 1);
  const e = entryTerm.length;
  entryHash.push(<i32>hash);
  entryTerm.push(term);
  const b = <i32>(hash & <u32>((1 << bucketBits) - 1));
  entryNext.push(heads.get(b));
  heads.set(b, e + 1);
}

/** Makes the buckets at least `entries` (one entry a bucket at most, on average), linking every entry again when they grow. */
function growBucketsFor(entries: i32): void {
  let bits = bucketBits == 0 ? 12 : bucketBits;
  while ((1 << bits) < entries) bits++;
  if (bits == bucketBits) return;
  bucketBits = bits;
  const mask = (1 << bucketBits) - 1;
  heads.resetZero(1 << bucketBits);
  for (let e = 0; e < entryTerm.length; e++) {
    const b = entryHash.get(e) & mask;
    entryNext.set(e, heads.get(b));
    heads.set(b, e + 1);
  }
}

/** Per term, the last lookup that listed it as a candidate (see candidatesOf). */
const termStamp = new IntVec();
let stamp = 0;
/** The strings made from the word to look up (see the header), end to end. */
const made = new IntVec();

/**
 * Puts into `into` each term (once) that may match, under another first
 * letter, the word of `n` units at `at` allowed `budget` typos (1 or 2):
 * those listed under the four strings made from the word, and under the
 * strings one deletion makes of them when `budget` is 2. Some are not
 * within the budget, and some start with the word's own first letter.
 */
export function candidatesOf(at: usize, n: i32, budget: i32, into: IntVec): void {
  into.length = 0;
  if (bucketBits == 0 || n == 0) return;
  termStamp.growZeroed(listed);
  stamp++;
  const deletions = budget >= 2;
  lookUp(at + 4, n - 1, deletions, into); // w[1..]
  lookUp(at, n, deletions, into); // w
  if (n < 2) return;
  made.length = 0;
  made.push(unitAt(at, 0));
  for (let i = 2; i < n; i++) made.push(unitAt(at, i));
  lookUp(made.ptr, n - 1, deletions, into); // w[0] w[2..]
  lookUp(at + 8, n - 2, deletions, into); // w[2..] (w[3..] among its deletions)
}

/** Collects the terms listed under the `n` units at `at`, and with `deletions` under each string one deletion makes of them. */
function lookUp(at: usize, n: i32, deletions: bool, into: IntVec): void {
  hashesOf(at, n, deletions);
  for (let i = 0; i < hashes.length; i++) collect(<u32>hashes.get(i), into);
}

function collect(hash: u32, into: IntVec): void {
  for (let e = heads.get(<i32>(hash & <u32>((1 << bucketBits) - 1))) - 1; e >= 0; e = entryNext.get(e) - 1) {
    if (entryHash.get(e) != <i32>hash) continue;
    const term = entryTerm.get(e);
    if (termStamp.get(term) == stamp) continue;
    termStamp.set(term, stamp);
    into.push(term);
  }
}
