// The matches of the last few complete query words. Typing a query re-sends
// its first words at every keystroke of the last one ("software s",
// "software st", ...), and matching a word with typos over a large index
// decodes the postings of every term it reaches. A memo slot keeps what that
// matching produced: the word's typo-level and exact bitmaps, its best
// attribute key per record, the terms it matched, so the next keystroke
// copies it instead. Dropped by any write, like the prefix cache.
import { IntVec, freeVec } from './buffers';
import { entryKeys, entryLead, layoutWords } from './prefix-cache';

const SLOTS = 4;
/** Words of one query that may use the memo: fewer than the slots, so a query never evicts a slot it uses. */
export const MEMO_WORDS = SLOTS - 1;

/** A slot's layout: level 0, the u16 keys and the lead bitmap (a prefix-cache entry's layout), then levels 1 to 3, exact. */
@inline function slotBytes(words: i32): usize { return (<usize>words << 2) * 6 + (<usize>words << 6); }

/** The bytes of every slot laid out for `words`. */
export function fullMemoBytes(words: i32): usize { return <usize>SLOTS * slotBytes(words); }

@unmanaged
export class Slot {
  ptr: usize = 0;
  /** The word: its folded units, typo budget, prefix flag. */
  units: IntVec = new IntVec();
  maxTypos: i32 = -1;
  prefix: bool = false;
  /** Per matched term: term, typos | full << 2. */
  terms: IntVec = new IntVec();
  typoMatched: bool = false;
  lastUse: i32 = 0;
  valid: bool = false;
}

const slots = new Array<Slot>(0);
let slotWords: i32 = 0;
let clock: i32 = 0;

/** Forgets every slot: the postings or the attribute keys changed. */
export function invalidateWordMemo(): void {
  for (let i = 0; i < slots.length; i++) unchecked(slots[i]).valid = false;
}

function sameWord(slot: Slot, units: IntVec, from: i32, length: i32, maxTypos: i32, prefix: bool): bool {
  if (!slot.valid || slot.maxTypos != maxTypos || slot.prefix != prefix || slot.units.length != length) return false;
  for (let i = 0; i < length; i++) if (slot.units.get(i) != units.get(from + i)) return false;
  return true;
}

/** The slot holding the word `units[from, from + length)` with this budget and prefix flag, or null. */
export function findSlot(units: IntVec, from: i32, length: i32, maxTypos: i32, prefix: bool): Slot | null {
  if (layoutWords != slotWords) return null;
  for (let i = 0; i < slots.length; i++) {
    const slot = unchecked(slots[i]);
    if (!sameWord(slot, units, from, length, maxTypos, prefix)) continue;
    slot.lastUse = ++clock;
    return slot;
  }
  return null;
}

/** A cleared slot (the least recently used) to fill with the word's matches. */
export function claimSlot(units: IntVec, from: i32, length: i32, maxTypos: i32, prefix: bool): Slot {
  if (layoutWords != slotWords) {
    for (let i = 0; i < slots.length; i++) {
      const dropped = unchecked(slots[i]);
      heap.free(dropped.ptr);
      freeVec(dropped.units);
      freeVec(dropped.terms);
      heap.free(changetype<usize>(dropped));
    }
    slots.length = 0;
    slotWords = layoutWords;
  }
  let slot: Slot;
  if (slots.length < SLOTS) {
    slot = new Slot();
    slot.ptr = heap.alloc(slotBytes(slotWords));
    slots.push(slot);
  } else {
    slot = unchecked(slots[0]);
    for (let i = 1; i < slots.length; i++) if (unchecked(slots[i]).lastUse < slot.lastUse) slot = unchecked(slots[i]);
  }
  memory.fill(slot.ptr, 0, slotBytes(slotWords));
  slot.units.length = 0;
  for (let i = 0; i < length; i++) slot.units.push(units.get(from + i));
  slot.maxTypos = maxTypos;
  slot.prefix = prefix;
  slot.terms.length = 0;
  slot.typoMatched = false;
  slot.lastUse = ++clock;
  slot.valid = false;
  return slot;
}

/** The slot as a keyed entry (its records' keys where prefix-cache entries keep theirs, see raiseKey). */
@inline export function slotEntry(slot: Slot): usize { return slot.ptr; }
@inline export function slotKeys(slot: Slot): usize { return entryKeys(slot.ptr); }
@inline export function slotLead(slot: Slot): usize { return entryLead(slot.ptr); }
/** Level `typos` (0 to 3) or 4 (exact) of the slot. */
@inline export function slotBitmap(slot: Slot, level: i32): usize {
  if (level == 0) return slot.ptr;
  return slot.ptr + (<usize>slotWords << 6) + (<usize>slotWords << 2) * <usize>(level + 1);
}

export function noteSlotTerm(slot: Slot, term: i32, typos: i32, full: bool): void {
  slot.terms.push(term);
  slot.terms.push(typos | (full ? 4 : 0));
}
