// Normaliser and tokenizer over UTF-16 code units.
// Case and diacritics are folded (é→e, ß→ss, ø→o, fullwidth→ASCII) with the
// generated table; punctuation separates words; CJK characters (and the
// characters of `separatorsToIndex`) become one-character tokens.
import { FOLD_CODES, FOLD_1, FOLD_2, FOLD_3, MARK_RANGES } from './fold-table';
import { IntVec } from './buffers';
import { UNSPACED_FIRST, UNSPACED_LAST } from './params';

export const MAX_TOKEN_UNITS = 64;

/**
 * Ends a token as a word found inside a longer word (a Unicode noncharacter:
 * see src/text/word-breaks.ts): kept as the token's last unit, outside its
 * end, so that such a word is a term of its own, which the matcher matches
 * as it would the word but never as exact.
 */
export const INNER_MARK: u32 = 0xFDD0;

const SEPARATOR = 0;
const WORD = 1;
const SINGLE = 2;
const MARK = 3;

/**
 * Characters indexed as tokens of their own (`separatorsToIndex`), and how
 * many. Unmanaged, their count a global: every space is asked about, and a
 * managed array read there was stored to the shadow stack and called out
 * for its length each time (2.5% of the core's share of an import).
 */
const indexedSeparators = new IntVec();
let indexedSeparatorCount: i32 = 0;

export function setIndexedSeparators(ptr: usize, count: i32): void {
  indexedSeparators.reserve(count);
  for (let i = 0; i < count; i++) indexedSeparators.set(i, load<u16>(ptr + (<usize>i << 1)));
  indexedSeparatorCount = count;
}

@inline function isIndexedSeparator(c: u32): bool {
  return indexedSeparatorCount != 0 && isIndexedSeparatorSlow(c);
}

function isIndexedSeparatorSlow(c: u32): bool {
  for (let i = 0; i < indexedSeparatorCount; i++) {
    if (<u32>indexedSeparators.get(i) == c) return true;
  }
  return false;
}

function isMark(c: u32): bool {
  let lo = 0;
  let hi = (MARK_RANGES.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = <u32>unchecked(MARK_RANGES[mid << 1]);
    const end = <u32>unchecked(MARK_RANGES[(mid << 1) + 1]);
    if (c < start) hi = mid - 1;
    else if (c > end) lo = mid + 1;
    else return true;
  }
  return false;
}

function isCjk(c: u32): bool {
  return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x3040 && c <= 0x30ff)
    || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x3100 && c <= 0x31ff);
}

function isPunctuation(c: u32): bool {
  return (c <= 0xbf && c != 0xaa && c != 0xb5 && c != 0xba && !(c >= 0xb2 && c <= 0xb3) && c != 0xb9)
    || c == 0xd7 || c == 0xf7
    || (c >= 0x2000 && c <= 0x206f) || (c >= 0x2190 && c <= 0x2bff) || (c >= 0x2e00 && c <= 0x2e7f)
    || (c >= 0x3000 && c <= 0x303f) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff0f)
    || (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) || (c >= 0xff5b && c <= 0xff65)
    || c >= 0xfff0;
}

function charClass(c: u32): i32 {
  if (c < 0x80) {
    if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) return WORD;
    return isIndexedSeparator(c) ? SINGLE : SEPARATOR;
  }
  if (isMark(c)) return MARK;
  if (isCjk(c)) return SINGLE;
  if (isPunctuation(c)) return isIndexedSeparator(c) ? SINGLE : SEPARATOR;
  return WORD;
}

function foldIndex(c: u32): i32 {
  let lo = 0;
  let hi = FOLD_CODES.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const code = <u32>unchecked(FOLD_CODES[mid]);
    if (code < c) lo = mid + 1;
    else if (code > c) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The tokens of the last `tokenize` call. */
@unmanaged
export class Tokens {
  /** Tokens kept: every one read, unless a screen was given. */
  count: i32 = 0;
  /** Tokens read, kept or not. */
  read: i32 = 0;
  /** Original start/end offsets (UTF-16 units) of each token. */
  start: IntVec = new IntVec();
  end: IntVec = new IntVec();
  /** Each token's place among the tokens read (kept or not). */
  ordinal: IntVec = new IntVec();
  /** Offset and length of each token's folded form in `units`. */
  foldStart: IntVec = new IntVec();
  foldLength: IntVec = new IntVec();
  /** 1 when the token is made of ASCII digits only. */
  numeric: IntVec = new IntVec();
  /** FNV-1a hash of the folded units (the dictionary's hash table key). */
  hash: IntVec = new IntVec();
  units: IntVec = new IntVec();

  @inline unit(token: i32, i: i32): i32 { return this.units.get(this.foldStart.get(token) + i); }
}

export const tokens = new Tokens();

export const FNV_OFFSET: u32 = 2166136261;
export const FNV_PRIME: u32 = 16777619;

/**
 * A screen is a bitmap of 2^SCREEN_BITS bits over the low bits of tokens'
 * screen keys (screenKeyOf): given one, `tokenize` keeps only the tokens
 * whose bit is set and counts the others (see marked-filter.ts).
 * Highlighting a long text keeps the few tokens that may be a matched term;
 * the others cost no stores, and where the text is ASCII, it is read 64
 * units a step (screenBlocks) and they cost no unit by unit reading either.
 */
export const SCREEN_BITS = 16;

/**
 * A token's screen key, from its first three folded units (a, b, c: 0 past
 * its length), its last two (y: 0 below four units; z) and its length in
 * units (n, at most MAX_TOKEN_UNITS). Not the FNV hash: that hash waits on
 * each unit's product in turn, where these three products wait on none,
 * and a screened token is keyed from five of its units without reading the
 * others.
 */
@inline function screenKeyOf(a: u32, b: u32, c: u32, y: u32, z: u32, n: u32): u32 {
  const h = ((a | (b << 16)) * 0x9E3779B1) ^ ((c | (z << 16)) * 0x85EBCA77) ^ ((y | (n << 16)) * 0xC2B2AE3D);
  return h ^ (h >> 16);
}

/** The screen key of the `n` folded units (an i32 each) at `at`: a token's, or a dictionary term's. */
export function unitsScreenKey(at: usize, n: i32): u32 {
  return screenKeyOf(
    load<u32>(at), n > 1 ? load<u32>(at + 4) : 0, n > 2 ? load<u32>(at + 8) : 0,
    n > 3 ? load<u32>(at + (<usize>(n - 2) << 2)) : 0, load<u32>(at + (<usize>(n - 1) << 2)), <u32>n,
  );
}

/** The screen key of token `t` of `tokens`. */
export function tokenScreenKey(t: i32): u32 {
  return unitsScreenKey(tokens.units.ptr + (<usize>tokens.foldStart.get(t) << 2), tokens.foldLength.get(t));
}

/**
 * Whether a unit between UNSPACED_FIRST and UNSPACED_LAST was read since
 * it was last cleared: highlighting reads texts as given, and makes them
 * again from their broken forms when they may hold a script written without
 * spaces (see src/core/core-index.ts highlightTexts).
 */
export let unspacedBlockRead = false;

export function clearUnspacedBlockRead(): void { unspacedBlockRead = false; }

// State of the token being read (module globals: AssemblyScript has no closures).
let unitsPtr: usize = 0;
let unitCount: i32 = 0;
let tokenCount: i32 = 0;
let inWord = false;
let tokenIsNumeric = true;
let tokenHash: u32 = 0;
let tokenUnits: i32 = 0;
/** Where the token being read starts and ends so far, and its first unit's index (stored once it is kept). */
let tokenStart: i32 = 0;
let tokenEnd: i32 = 0;
let tokenFoldStart: i32 = 0;
/** The screen of this `tokenize` call (0: none), and the tokens it left out. */
let screen: usize = 0;
let screenedOut: i32 = 0;

@inline function put(array: IntVec, index: i32, value: i32): void {
  store<i32>(array.ptr + (<usize>index << 2), value);
}

function startToken(at: i32): void {
  tokenStart = at;
  tokenEnd = at;
  tokenFoldStart = unitCount;
  inWord = true;
  tokenIsNumeric = true;
  tokenHash = FNV_OFFSET;
  tokenUnits = 0;
}

function endToken(): void {
  if (!inWord) return;
  inWord = false;
  if (tokenUnits == 0) return;
  if (screensOut(screen, tokenFoldStart, tokenUnits)) {
    unitCount = tokenFoldStart;
    screenedOut++;
    return;
  }
  keepToken(tokenCount, tokenCount + screenedOut, tokenStart, tokenEnd, tokenFoldStart, tokenUnits, tokenIsNumeric, tokenHash);
  tokenCount++;
}

/** Stores the token read as token `t` of `tokens`, the `ordinal`-th read. */
@inline function keepToken(t: i32, ordinal: i32, start: i32, end: i32, foldStart: i32, units: i32, numeric: bool, hash: u32): void {
  put(tokens.ordinal, t, ordinal);
  put(tokens.start, t, start);
  put(tokens.end, t, end);
  put(tokens.foldStart, t, foldStart);
  put(tokens.foldLength, t, units);
  put(tokens.numeric, t, numeric ? 1 : 0);
  put(tokens.hash, t, <i32>hash);
}

/** Whether the screen at `bits` passes a token of this screen key. */
@inline export function onScreen(bits: usize, key: u32): bool {
  const bit = key & ((1 << SCREEN_BITS) - 1);
  return (load<u32>(bits + (<usize>(bit >> 5) << 2)) & (1 << (bit & 31))) != 0;
}

/** Whether the screen at `bits` (0: none) leaves out the token whose `units` folded units start at index `foldStart`. */
@inline function screensOut(bits: usize, foldStart: i32, units: i32): bool {
  return bits != 0 && !onScreen(bits, unitsScreenKey(unitsPtr + (<usize>foldStart << 2), units));
}

@inline function appendUnit(u: u32): void {
  if (tokenUnits >= MAX_TOKEN_UNITS) return;
  store<i32>(unitsPtr + (<usize>unitCount << 2), <i32>u);
  unitCount++;
  tokenUnits++;
  tokenHash = (tokenHash ^ u) * FNV_PRIME;
  if (u - 0x30 > 9) tokenIsNumeric = false;
}

function appendFolded(c: u32): void {
  const i = foldIndex(c);
  if (i < 0) { appendUnit(c); return; }
  appendUnit(<u32>unchecked(FOLD_1[i]));
  const second = <u32>unchecked(FOLD_2[i]);
  if (second != 0) appendUnit(second);
  const third = <u32>unchecked(FOLD_3[i]);
  if (third != 0) appendUnit(third);
}

function reserveFor(length: i32): void {
  const n = length + 1;
  tokens.start.reserve(n); tokens.end.reserve(n); tokens.foldStart.reserve(n);
  tokens.foldLength.reserve(n); tokens.numeric.reserve(n); tokens.hash.reserve(n); tokens.ordinal.reserve(n);
  tokens.units.reserve(length * 3 + 3);
}

/**
 * Reads from `from` on while the units are ASCII letters and digits or
 * separators not indexed (most of any text), as tokenize's general path
 * would, with the token being read held in locals: that path stores its
 * globals once a unit. Returns where it stopped: at `length`, at a unit the
 * general path reads (beyond ASCII, an indexed separator), or after a
 * separator at `until` or past it (where screenBlocks may go on).
 */
function readAscii(ptr: usize, from: i32, length: i32, until: i32): i32 {
  const out = unitsPtr;
  const bits = screen;
  const separatorsIndexed = indexedSeparatorCount != 0;
  let units = unitCount;
  let kept = tokenCount;
  let left = screenedOut;
  let word = inWord;
  let held = tokenUnits;
  let hash = tokenHash;
  let numeric = tokenIsNumeric;
  let start = tokenStart;
  let end = tokenEnd;
  let foldStart = tokenFoldStart;
  let i = from;
  while (i < length) {
    let c = <u32>load<u16>(ptr + (<usize>i << 1));
    if (c - 0x30 <= 9 || (c | 0x20) - 0x61 <= 25) {
      if (!word) {
        word = true;
        start = i;
        foldStart = units;
        held = 0;
        hash = FNV_OFFSET;
        numeric = true;
      }
      // the word's letters and digits, one after the other
      while (true) {
        const digit = c - 0x30 <= 9;
        if (held < MAX_TOKEN_UNITS) {
          const u = digit ? c : c | 0x20;
          store<i32>(out + (<usize>units << 2), <i32>u);
          units++;
          held++;
          hash = (hash ^ u) * FNV_PRIME;
          numeric = numeric && digit;
        }
        if (++i >= length) break;
        c = <u32>load<u16>(ptr + (<usize>i << 1));
        if (c - 0x30 > 9 && (c | 0x20) - 0x61 > 25) break;
      }
      end = i;
      if (i >= length) break;
    }
    if (c >= 0x80 || (separatorsIndexed && isIndexedSeparatorSlow(c))) break;
    i++;
    if (word) {
      word = false;
      if (screensOut(bits, foldStart, held)) {
        units = foldStart;
        left++;
      } else {
        keepToken(kept, kept + left, start, end, foldStart, held, numeric, hash);
        kept++;
        if (kept >= tokenLimit) break;
      }
    }
    if (i >= until) break;
  }
  unitCount = units;
  tokenCount = kept;
  screenedOut = left;
  inWord = word;
  tokenUnits = held;
  tokenHash = hash;
  tokenIsNumeric = numeric;
  tokenStart = start;
  tokenEnd = end;
  tokenFoldStart = foldStart;
  return i;
}

/** Units screenBlocks reads a step: one bit each in a 64-bit mask. */
const BLOCK = 64;

/** One bit per unit of the eight at `at` that is an ASCII letter or digit. */
@inline function wordBits(at: usize): u64 {
  const v = v128.load(at);
  const letter = i16x8.le_u(i16x8.sub(v128.or(v, i16x8.splat(0x20)), i16x8.splat(0x61)), i16x8.splat(25));
  const digit = i16x8.le_u(i16x8.sub(v, i16x8.splat(0x30)), i16x8.splat(9));
  return <u64>i16x8.bitmask(v128.or(letter, digit));
}

/** An ASCII letter or digit folded: letters to lower case (bit 0x20 set from the letters' bit 0x40). */
@inline function foldAscii(c: u32): u32 { return c | ((c >> 1) & 0x20); }

/**
 * Screened tokenizing of ASCII text BLOCK units a step, from `from` (not
 * within a word) on: the block's letters and digits as a mask, and each
 * token ending within it keyed from its units where they are
 * (screenKeyOf), only those the screen passes read and kept. Returns where
 * it stopped, at a token's start or the start of a block: a block that
 * holds a unit beyond ASCII, one that is a token's first 64 units or more,
 * or less than a block left.
 */
function screenBlocks(ptr: usize, from: i32, length: i32): i32 {
  const bits = screen;
  let kept = tokenCount;
  let left = screenedOut;
  let i = from;
  while (i + BLOCK <= length) {
    const at = ptr + (<usize>i << 1);
    const all = v128.or(
      v128.or(v128.or(v128.load(at), v128.load(at, 16)), v128.or(v128.load(at, 32), v128.load(at, 48))),
      v128.or(v128.or(v128.load(at, 64), v128.load(at, 80)), v128.or(v128.load(at, 96), v128.load(at, 112))),
    );
    if (v128.any_true(v128.and(all, i16x8.splat(<i16>0xff80)))) break;
    let word = wordBits(at) | (wordBits(at + 16) << 8) | (wordBits(at + 32) << 16) | (wordBits(at + 48) << 24)
      | (wordBits(at + 64) << 32) | (wordBits(at + 80) << 40) | (wordBits(at + 96) << 48) | (wordBits(at + 112) << 56);
    while (word != 0) {
      const start = <i32>ctz(word);
      const after = ~word & (<u64>-1 << <u64>start);
      if (after == 0) break; // the token goes on past the block
      const end = <i32>ctz(after);
      if (onScreen(bits, asciiScreenKey(at + (<usize>start << 1), end - start))) {
        keepAscii(kept, kept + left, ptr, i + start, i + end);
        kept++;
      } else {
        left++;
      }
      word &= <u64>-1 << <u64>end;
    }
    if (word == 0) { i += BLOCK; continue; }
    const next = <i32>ctz(word);
    if (next == 0) break;
    i += next;
  }
  tokenCount = kept;
  screenedOut = left;
  return i;
}

/** screenKeyOf the ASCII token of `length` units at `at` (as unitsScreenKey of its folded units). */
@inline function asciiScreenKey(at: usize, length: i32): u32 {
  const n = min(length, MAX_TOKEN_UNITS);
  return screenKeyOf(
    foldAscii(load<u16>(at)),
    select<u32>(foldAscii(load<u16>(at, 2)), 0, n > 1),
    select<u32>(foldAscii(load<u16>(at, 4)), 0, n > 2),
    select<u32>(foldAscii(load<u16>(at + (<usize>(n - 2) << 1))), 0, n > 3),
    foldAscii(load<u16>(at + (<usize>(n - 1) << 1))),
    <u32>n,
  );
}

/** Keeps the ASCII token at units [start, end) of the text at `ptr` as token `t`: its folded units, hash and digits. */
function keepAscii(t: i32, ordinal: i32, ptr: usize, start: i32, end: i32): void {
  const n = min(end - start, MAX_TOKEN_UNITS);
  const foldStart = unitCount;
  let hash = FNV_OFFSET;
  let numeric = true;
  for (let k = 0; k < n; k++) {
    const c = <u32>load<u16>(ptr + (<usize>(start + k) << 1));
    const u = foldAscii(c);
    store<i32>(unitsPtr + (<usize>(foldStart + k) << 2), <i32>u);
    hash = (hash ^ u) * FNV_PRIME;
    numeric = numeric && c - 0x30 <= 9;
  }
  unitCount = foldStart + n;
  keepToken(t, ordinal, start, end, foldStart, n, numeric, hash);
}

/** Tokens this `tokenize` call keeps at most (see tokenize's `limit`). */
let tokenLimit = i32.MAX_VALUE;

/**
 * Splits `length` UTF-16 units at `ptr` into folded tokens, kept in
 * `tokens`: every one, or with a `screenBits` screen (see SCREEN_BITS) those
 * it passes. Without a screen, reading stops once `limit` tokens are kept (a
 * snippet's window needs the text up to its last word).
 */
export function tokenize(ptr: usize, length: i32, screenBits: usize = 0, limit: i32 = i32.MAX_VALUE): void {
  beginTokens(length, screenBits, screenBits == 0 ? limit : i32.MAX_VALUE);
  // where screenBlocks may read from (an indexed separator is read by the general path, not there)
  let blocksFrom = screenBits != 0 && indexedSeparatorCount == 0 ? 0 : length;
  let i = 0;
  while (i < length && tokenCount < tokenLimit) {
    if (i >= blocksFrom && !inWord) {
      i = screenBlocks(ptr, i, length);
      // the block at i could not be read whole (a unit beyond ASCII, a token of 64 units or more, the text's end)
      blocksFrom = i + BLOCK;
    }
    i = readAscii(ptr, i, length, blocksFrom);
    if (i >= length || tokenCount >= tokenLimit) break;
    const c = <u32>load<u16>(ptr + (<usize>i << 1));
    if (c < 0x80 && !isIndexedSeparator(c)) continue; // readAscii stopped for screenBlocks
    if (c - <u32>UNSPACED_FIRST <= <u32>(UNSPACED_LAST - UNSPACED_FIRST)) unspacedBlockRead = true;
    if (c == INNER_MARK) {
      if (inWord) appendUnit(c);
      endToken();
      i++;
      continue;
    }
    const cls = charClass(c);
    if (cls == WORD) {
      if (!inWord) startToken(i);
      appendFolded(c);
      tokenEnd = i + 1;
    } else if (cls == MARK) {
      if (inWord) tokenEnd = i + 1;
    } else if (cls == SINGLE) {
      endToken();
      startToken(i);
      appendFolded(c);
      tokenEnd = i + 1;
      tokenIsNumeric = false;
      endToken();
    } else {
      endToken();
    }
    i++;
  }
  endToken();
  endTokens();
}

/** Starts a call that reads `length` units into `tokens`, through `screenBits` (0: none), keeping `limit` tokens at most. */
function beginTokens(length: i32, screenBits: usize, limit: i32): void {
  reserveFor(length);
  unitsPtr = tokens.units.ptr;
  unitCount = 0;
  tokenCount = 0;
  inWord = false;
  screen = screenBits;
  screenedOut = 0;
  tokenLimit = limit;
}

/** Ends the call: what `tokens` holds, and how many were read. */
function endTokens(): void {
  tokens.count = tokenCount;
  tokens.read = tokenCount + screenedOut;
  tokens.units.length = unitCount;
}

/**
 * Loads `length` units at `ptr` that are already a folded term (a snapshot's
 * dictionary) as the one token of `tokens`, unchanged. Folding them again
 * would not be the identity: a term's units may fold further or split (a
 * Kangxi radical folds to an ideograph, which is a token of its own), and the
 * snapshot must bring back the dictionary it was taken from.
 */
export function loadFoldedTerm(ptr: usize, length: i32): void {
  beginTokens(length, 0, i32.MAX_VALUE);
  startToken(0);
  for (let i = 0; i < length; i++) appendUnit(<u32>load<u16>(ptr + (<usize>i << 1)));
  tokenEnd = length;
  endToken();
  endTokens();
}
