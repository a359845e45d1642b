// The matches of the last few complete query words. Typing a query re-sends
// its first words at every keystroke of the last one ("software s",
// "software st", ...), and matching a word with typos over a large index
// decodes the postings of every term it reaches. A memo slot keeps what that
// matching produced: the word's typo-level and exact bitmaps, its best
// attribute key per record, the terms it matched, so the next keystroke
// copies it instead. Kept from a word's second sight on, or from its first
// where the next word has just been started (see metBefore).
// Dropped by any write, like the prefix cache.
import { IntVec, freeVec } from './buffers';
import { entryKeys, entryLead, layoutWords } from './prefix-cache';

const SLOTS = 4;
/** Words of one query that may use the memo: fewer than the slots, so a query never evicts a slot it uses. */
export const MEMO_WORDS = SLOTS - 1;

/** A slot's layout: level 0, the u16 keys and the lead bitmap (a prefix-cache entry's layout), then levels 1 to 3, exact. */
@inline function slotBytes(words: i32): usize { return (<usize>words << 2) * 6 + (<usize>words << 6); }

/** The bytes of every slot laid out for `words`. */
export function fullMemoBytes(words: i32): usize { return <usize>SLOTS * slotBytes(words); }

/** A query word as matched: its folded units, typo budget, prefix flag; and when it was last met. */
@unmanaged
class Word {
  units: IntVec = new IntVec();
  maxTypos: i32 = -1;
  prefix: bool = false;
  lastUse: i32 = 0;
}

@unmanaged
export class Slot {
  ptr: usize = 0;
  word: Word = new Word();
  /** Per matched term: term, typos | full << 2. */
  terms: IntVec = new IntVec();
  typoMatched: bool = false;
  valid: bool = false;
}

const slots = new Array<Slot>(0);
let slotWords: i32 = 0;
let clock: i32 = 0;

/** Forgets every slot: the postings or the attribute keys changed. */
export function invalidateWordMemo(): void {
  for (let i = 0; i < slots.length; i++) unchecked(slots[i]).valid = false;
}

function isWord(word: Word, units: IntVec, from: i32, length: i32, maxTypos: i32, prefix: bool): bool {
  if (word.maxTypos != maxTypos || word.prefix != prefix || word.units.length != length) return false;
  for (let i = 0; i < length; i++) if (word.units.get(i) != units.get(from + i)) return false;
  return true;
}

function noteWord(word: Word, units: IntVec, from: i32, length: i32, maxTypos: i32, prefix: bool): void {
  word.units.length = 0;
  for (let i = 0; i < length; i++) word.units.push(units.get(from + i));
  word.maxTypos = maxTypos;
  word.prefix = prefix;
  word.lastUse = ++clock;
}

/**
 * The words last matched without a slot. A slot is claimed for a word at
 * its second sight: clearing one costs 2.75 bytes a record (2.75 MB at 1M
 * records) and copying it out a fifth of that, which a word seen once (the
 * first word of a query not being typed) paid for nothing. The search
 * claims one at first sight too where the query's last word has just been
 * started (typingNextWord in search.ts).
 */
const metOnce = new Array<Word>(0);

/** Whether the word was matched lately without a slot; if not, it is noted (in place of the word met longest ago). */
export function metBefore(units: IntVec, from: i32, length: i32, maxTypos: i32, prefix: bool): bool {
  for (let i = 0; i < metOnce.length; i++) if (isWord(unchecked(metOnce[i]), units, from, length, maxTypos, prefix)) return true;
  let noted: Word;
  if (metOnce.length < SLOTS) {
    noted = new Word();
    metOnce.push(noted);
  } else {
    noted = unchecked(metOnce[0]);
    for (let i = 1; i < metOnce.length; i++) if (unchecked(metOnce[i]).lastUse < noted.lastUse) noted = unchecked(metOnce[i]);
  }
  noteWord(noted, units, from, length, maxTypos, prefix);
  return false;
}

/** The slot holding the word `units[from, from + length)` with this budget and prefix flag, or null. */
export function findSlot(units: IntVec, from: i32, length: i32, maxTypos: i32, prefix: bool): Slot | null {
  if (layoutWords != slotWords) return null;
  for (let i = 0; i < slots.length; i++) {
    const slot = unchecked(slots[i]);
    if (!slot.valid || !isWord(slot.word, units, from, length, maxTypos, prefix)) continue;
    slot.word.lastUse = ++clock;
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
      freeVec(dropped.word.units);
      heap.free(changetype<usize>(dropped.word));
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
    for (let i = 1; i < slots.length; i++) if (unchecked(slots[i]).word.lastUse < slot.word.lastUse) slot = unchecked(slots[i]);
  }
  memory.fill(slot.ptr, 0, slotBytes(slotWords));
  noteWord(slot.word, units, from, length, maxTypos, prefix);
  slot.terms.length = 0;
  slot.typoMatched = false;
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
