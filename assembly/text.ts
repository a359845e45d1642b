// Normaliser and tokenizer over UTF-16 code units.
// Case and diacritics are folded (é→e, ß→ss, ø→o, fullwidth→ASCII) with the
// generated table; punctuation separates words; CJK characters (and the
// characters of `separatorsToIndex`) become one-character tokens.
import { FOLD_CODES, FOLD_1, FOLD_2, FOLD_3, MARK_RANGES } from './fold-table';
import { IntVec } from './buffers';

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
  count: i32 = 0;
  /** Original start/end offsets (UTF-16 units) of each token. */
  start: IntVec = new IntVec();
  end: IntVec = new IntVec();
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

// State of the token being read (module globals: AssemblyScript has no closures).
let unitsPtr: usize = 0;
let unitCount: i32 = 0;
let tokenCount: i32 = 0;
let inWord = false;
let tokenIsNumeric = true;
let tokenHash: u32 = 0;
let tokenUnits: i32 = 0;
/** Where the token being read ends so far (stored once, when it ends). */
let tokenEnd: i32 = 0;

@inline function put(array: IntVec, index: i32, value: i32): void {
  store<i32>(array.ptr + (<usize>index << 2), value);
}

function startToken(at: i32): void {
  put(tokens.start, tokenCount, at);
  tokenEnd = at;
  put(tokens.foldStart, tokenCount, unitCount);
  inWord = true;
  tokenIsNumeric = true;
  tokenHash = FNV_OFFSET;
  tokenUnits = 0;
}

function endToken(): void {
  if (!inWord) return;
  inWord = false;
  if (tokenUnits == 0) return;
  put(tokens.end, tokenCount, tokenEnd);
  put(tokens.foldLength, tokenCount, tokenUnits);
  put(tokens.numeric, tokenCount, tokenIsNumeric ? 1 : 0);
  put(tokens.hash, tokenCount, <i32>tokenHash);
  tokenCount++;
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
  tokens.foldLength.reserve(n); tokens.numeric.reserve(n); tokens.hash.reserve(n);
  tokens.units.reserve(length * 3 + 3);
}

/** Splits `length` UTF-16 units at `ptr` into folded tokens, kept in `tokens`. */
export function tokenize(ptr: usize, length: i32): void {
  reserveFor(length);
  unitsPtr = tokens.units.ptr;
  unitCount = 0;
  tokenCount = 0;
  inWord = false;
  for (let i = 0; i < length; i++) {
    const c = <u32>load<u16>(ptr + (<usize>i << 1));
    if (c < 0x80) {
      const lower = c | 0x20;
      if (c - 0x30 <= 9 || lower - 0x61 <= 25) {
        if (!inWord) startToken(i);
        appendUnit(c - 0x41 <= 25 ? lower : c);
        tokenEnd = i + 1;
        continue;
      }
      if (!isIndexedSeparator(c)) { endToken(); continue; }
    }
    if (c == INNER_MARK) {
      if (inWord) appendUnit(c);
      endToken();
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
  }
  endToken();
  tokens.count = tokenCount;
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
  reserveFor(length);
  unitsPtr = tokens.units.ptr;
  unitCount = 0;
  tokenCount = 0;
  startToken(0);
  for (let i = 0; i < length; i++) appendUnit(<u32>load<u16>(ptr + (<usize>i << 1)));
  tokenEnd = length;
  endToken();
  tokens.count = tokenCount;
  tokens.units.length = unitCount;
}
