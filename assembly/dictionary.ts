// Term dictionary: a trie over folded UTF-16 units, for prefix subtrees and
// the typo walk (matcher.ts), plus a hash table from a term's units to its id
// so indexing a known word costs one hash and one comparison.
import { IntVec, freeVec } from './buffers';
import { FNV_OFFSET, FNV_PRIME, tokens, unitsScreenKey } from './text';

export const nodeChar = new IntVec();
export const nodeFirstChild = new IntVec();
export const nodeNextSibling = new IntVec();
/** Term id ending at the node, or -1. */
export const nodeTerm = new IntVec();
/** The node's parent (-1 for the root): a term's prefixes are its node's ancestors (see prefix-cache.ts). */
export const nodeParent = new IntVec();
/** The node a term ends at. */
export const termNode = new IntVec();
export let termCount: i32 = 0;

function newNode(c: i32, parent: i32): i32 {
  const id = nodeChar.length;
  nodeChar.push(c);
  nodeFirstChild.push(-1);
  nodeNextSibling.push(-1);
  nodeTerm.push(-1);
  nodeParent.push(parent);
  if (parent >= 0) placeChild(id);
  return id;
}

export function initDictionary(): void {
  if (nodeChar.length == 0) newNode(0, -1);
}

// --- children by (parent, character). Each node's children are also a
// linked list (newest first), which the walk's copy follows (trie-order.ts)
// and whose order it keeps; finding one child by its character scanned that
// list: a word's insertion read ~75 siblings at 135k city names (62 under the
// root, a dozen at each of the next two levels), two dependent loads each.
// The table finds it in about one probe.
/** Per slot, a child's node + 1 (0: empty). */
let childSlots = new IntVec();
/** log2 of childSlots' size (0: not made yet). */
let childBits: i32 = 0;
let childrenPlaced: i32 = 0;

/** The first slot to probe for child `c` of `node`: a multiplicative hash's high bits (its low bits would mix little). */
@inline function childSlotOf(node: i32, c: i32): i32 {
  return <i32>((((<u32>node * 0x9E3779B1) ^ <u32>c) * 0x85EBCA6B) >> <u32>(32 - childBits));
}

/** The child of `node` carrying `c`, or -1. */
export function findChild(node: i32, c: i32): i32 {
  if (childBits == 0) return -1;
  const mask = (1 << childBits) - 1;
  for (let i = childSlotOf(node, c); ; i = (i + 1) & mask) {
    const v = childSlots.get(i);
    if (v == 0) return -1;
    const child = v - 1;
    if (nodeChar.get(child) == c && nodeParent.get(child) == node) return child;
  }
  return -1;
}

/** Enters node `child` (not the root) in the table, made twice as large past half full. */
function placeChild(child: i32): void {
  if ((childrenPlaced + 1) * 2 > (childBits == 0 ? 0 : 1 << childBits)) growChildSlots();
  enterChild(child);
  childrenPlaced++;
}

function enterChild(child: i32): void {
  const mask = (1 << childBits) - 1;
  let i = childSlotOf(nodeParent.get(child), nodeChar.get(child));
  while (childSlots.get(i) != 0) i = (i + 1) & mask;
  childSlots.set(i, child + 1);
}

function growChildSlots(): void {
  childBits = childBits == 0 ? 10 : childBits + 1;
  childSlots.resetZero(1 << childBits);
  // every node but the root, the one being made not yet among them
  for (let node = 1; node < nodeChar.length - 1; node++) enterChild(node);
}

// --- hash table: slot = term id + 1 (0 = empty); term units kept for comparison
export const termUnitStart = new IntVec();
export const termUnitLength = new IntVec();
export const termUnits = new IntVec();
let slots = new IntVec();
let slotMask: i32 = 0;

@inline function hashToken(t: i32): u32 {
  return <u32>tokens.hash.get(t);
}

/** Where token `t`'s folded units are. */
@inline function tokenUnitsAt(t: i32): usize { return tokens.units.ptr + (<usize>tokens.foldStart.get(t) << 2); }

/** Whether `term`'s folded units are the `n` units at `b`. */
function sameUnits(term: i32, b: usize, n: i32): bool {
  if (termUnitLength.get(term) != n) return false;
  // raw pointers: read through the vectors, every unit reloaded them (nothing tells the compiler they stay put)
  const a = termUnits.ptr + (<usize>termUnitStart.get(term) << 2);
  let i = 0;
  for (; i + 1 < n; i += 2) if (load<u64>(a + (<usize>i << 2)) != load<u64>(b + (<usize>i << 2))) return false;
  return i == n || load<i32>(a + (<usize>i << 2)) == load<i32>(b + (<usize>i << 2));
}

/** Slot holding the term of the `n` folded units at `at` (hashed `h`), or the empty slot where it would go. */
function findSlot(at: usize, n: i32, h: u32): i32 {
  if (slotMask == 0) growSlots();
  let i = <i32>(h & <u32>slotMask);
  while (true) {
    const v = slots.get(i);
    if (v == 0 || sameUnits(v - 1, at, n)) return i;
    i = (i + 1) & slotMask;
  }
}

function growSlots(): void {
  const old = slots;
  const size = slotMask == 0 ? 1024 : (slotMask + 1) << 1;
  slots = new IntVec();
  slots.resetZero(size);
  slotMask = size - 1;
  for (let i = 0; i < old.length; i++) {
    const v = old.get(i);
    if (v == 0) continue;
    let j = <i32>(termHash(v - 1) & <u32>slotMask);
    while (slots.get(j) != 0) j = (j + 1) & slotMask;
    slots.set(j, v);
  }
  freeVec(old);
}

/**
 * Per term, its class for the adjacent-pair sketches (store.ts): a hash of
 * its first CLASS_UNITS folded units, which a prefix or a typo of a query's
 * word shares with few other classes.
 */
export const termClass = new IntVec();
const CLASS_UNITS = 3;

function classOf(term: i32): u32 { return hashUnits(term, min(termUnitLength.get(term), CLASS_UNITS)); }

/** The class of token `t`'s term (classOf), from the token's units: the same hash of the same units. */
export function tokenClass(t: i32): u32 {
  return fnvOf(tokens.units, tokens.foldStart.get(t), min(tokens.foldLength.get(t), CLASS_UNITS));
}

/** A term's hash: the one tokenize gives a token of the same folded units. */
export function termHash(term: i32): u32 { return hashUnits(term, termUnitLength.get(term)); }

/** The screen key of `term`'s folded units (text.ts's screenKeyOf): what a highlighted text's tokens are screened by. */
export function termScreenKey(term: i32): u32 {
  return unitsScreenKey(termUnits.ptr + (<usize>termUnitStart.get(term) << 2), termUnitLength.get(term));
}

/** The FNV hash of `term`'s first `n` folded units. */
function hashUnits(term: i32, n: i32): u32 { return fnvOf(termUnits, termUnitStart.get(term), n); }

/** The FNV hash of `units[start, start + n)`. */
@inline function fnvOf(units: IntVec, start: i32, n: i32): u32 {
  let h = FNV_OFFSET;
  for (let k = 0; k < n; k++) h = (h ^ <u32>units.get(start + k)) * FNV_PRIME;
  return h;
}

/** Term id of token `t`, created when missing. */
export function internToken(t: i32): i32 {
  const h = hashToken(t);
  let slot = findSlot(tokenUnitsAt(t), tokens.foldLength.get(t), h);
  const found = slots.get(slot);
  if (found != 0) return found - 1;
  const term = insertIntoTrie(t);
  termUnitStart.push(termUnits.length);
  termUnitLength.push(tokens.foldLength.get(t));
  appendUnits(t);
  termClass.push(<i32>classOf(term));
  slots.set(slot, term + 1);
  if (termCount * 2 > slotMask) growSlots();
  return term;
}

/** Appends token `t`'s folded units to termUnits, reserved at once (a word's units are too few for memory.copy's call). */
function appendUnits(t: i32): void {
  const n = tokens.foldLength.get(t);
  const at = termUnits.length;
  termUnits.reserve(at + n);
  const from = tokens.foldStart.get(t);
  for (let i = 0; i < n; i++) termUnits.set(at + i, tokens.units.get(from + i));
  termUnits.length = at + n;
}

function insertIntoTrie(t: i32): i32 {
  let node = 0;
  for (let i = 0, n = tokens.foldLength.get(t); i < n; i++) {
    const c = tokens.unit(t, i);
    let child = findChild(node, c);
    if (child < 0) {
      child = newNode(c, node);
      nodeNextSibling.set(child, nodeFirstChild.get(node));
      nodeFirstChild.set(node, child);
    }
    node = child;
  }
  let term = nodeTerm.get(node);
  if (term < 0) {
    term = termCount++;
    nodeTerm.set(node, term);
    termNode.push(node);
  }
  return term;
}

/** Term id of the folded units `units[start, start + n)`, or -1 when the dictionary does not hold them. */
export function lookupUnits(units: IntVec, start: i32, n: i32): i32 {
  if (slotMask == 0) return -1;
  return slots.get(findSlot(units.ptr + (<usize>start << 2), n, fnvOf(units, start, n))) - 1;
}

/** Term id of token `t`, or -1 when the dictionary does not hold it. */
export function lookupToken(t: i32): i32 {
  // findSlot first: on an empty dictionary it allocates the table, and `slots.get(findSlot(...))` read the old one
  const slot = findSlot(tokenUnitsAt(t), tokens.foldLength.get(t), hashToken(t));
  return slots.get(slot) - 1;
}
