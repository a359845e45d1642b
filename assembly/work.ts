// The bucket sort's work area: one u64 per candidate being ranked, the key
// of the criterion at hand in its high half and the candidate's position in
// its low half, and the sorts and selections ranges of it need.
import { IntVec } from './buffers';

let work = new StaticArray<u64>(0);
let sortBuffer = new StaticArray<u64>(0);
/**
 * Raw addresses of work and sortBuffer, for the hot loops: they are managed
 * arrays, and each read of a managed global is also a store to the shadow
 * stack (a third of a broad query's ranking, before).
 */
let workAt: usize = 0;
let sortAt: usize = 0;

/** Room for `n` candidates. */
export function ensureWork(n: i32): void {
  if (work.length < n) work = new StaticArray<u64>(n);
  workAt = changetype<usize>(work);
  sortAt = changetype<usize>(sortBuffer);
}

@inline export function wordAt(i: i32): u64 { return load<u64>(workAt + (<usize>i << 3)); }
@inline export function setWord(i: i32, v: u64): void { store<u64>(workAt + (<usize>i << 3), v); }
@inline export function keyAt(i: i32): u32 { return <u32>(wordAt(i) >> 32); }
@inline export function positionAt(i: i32): i32 { return <i32>(wordAt(i) & 0xffffffff); }
@inline export function swap(i: i32, j: i32): void {
  const t = wordAt(i); setWord(i, wordAt(j)); setWord(j, t);
}

// --- the keys of one criterion, put into the high halves of a range
export let keysLowest: u32 = 0;
export let keysHighest: u32 = 0;

export function startKeys(): void {
  keysLowest = 0xffffffff;
  keysHighest = 0;
}

@inline export function putKey(i: i32, position: i32, key: u32): void {
  if (key < keysLowest) keysLowest = key;
  if (key > keysHighest) keysHighest = key;
  setWord(i, (<u64>key << 32) | <u64>position);
}

/** The key of the element of rank `nth` (0-based) in work[from, to), by quickselect. */
export function selectKey(from: i32, to: i32, nth: i32): u32 {
  let lo = from, hi = to - 1;
  const target = from + nth;
  while (lo < hi) {
    const pivot = keyAt((lo + hi) >>> 1);
    let i = lo, j = hi;
    while (i <= j) {
      while (keyAt(i) < pivot) i++;
      while (keyAt(j) > pivot) j--;
      if (i <= j) { swap(i, j); i++; j--; }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return keyAt(target);
  }
  return keyAt(target);
}

/** Insertion sort for short runs, else the runtime's sort, on work[from, to). */
export function sortRange(from: i32, to: i32): void {
  if (to - from < 32) {
    for (let i = from + 1; i < to; i++) {
      const v = wordAt(i);
      let j = i - 1;
      while (j >= from && wordAt(j) > v) { setWord(j + 1, wordAt(j)); j--; }
      setWord(j + 1, v);
    }
    return;
  }
  const part = new StaticArray<u64>(to - from);
  memory.copy(changetype<usize>(part), workAt + (<usize>from << 3), <usize>(to - from) << 3);
  part.sort((a: u64, b: u64): i32 => (a < b ? -1 : a > b ? 1 : 0));
  memory.copy(workAt + (<usize>from << 3), changetype<usize>(part), <usize>(to - from) << 3);
}

const keyCounts = new IntVec();

/**
 * Counting sort of work[from, to) by key (in [lowest, highest], a span no
 * longer than the range) of the records the page needs, the first `need`
 * and their ties: they end sorted at work[from, from + kept), the others
 * after them, unsorted (a lazy proximity round ranks the whole range again).
 * Returns `kept`.
 */
export function countingSortKept(from: i32, to: i32, lowest: u32, highest: u32, need: i32): i32 {
  const span = <i32>(highest - lowest) + 1;
  keyCounts.resetZero(span);
  const counts = keyCounts.ptr;
  for (let i = from; i < to; i++) {
    const at = counts + (<usize>(keyAt(i) - lowest) << 2);
    store<i32>(at, load<i32>(at) + 1);
  }
  // each kept key's start offset; keys past `cut` go after them, unsorted
  let kept = 0;
  let cut = span - 1;
  for (let k = 0; k < span; k++) {
    const at = counts + (<usize>k << 2);
    const n = load<i32>(at);
    store<i32>(at, kept);
    kept += n;
    if (kept >= need) { cut = k; break; }
  }
  if (sortBuffer.length < to - from) {
    sortBuffer = new StaticArray<u64>(to - from);
    sortAt = changetype<usize>(sortBuffer);
  }
  const last = lowest + <u32>cut;
  let rest = kept;
  for (let i = from; i < to; i++) {
    const v = wordAt(i);
    const key = <u32>(v >> 32);
    if (key > last) { store<u64>(sortAt + (<usize>(rest++) << 3), v); continue; }
    const at = counts + (<usize>(key - lowest) << 2);
    const slot = load<i32>(at);
    store<i32>(at, slot + 1);
    store<u64>(sortAt + (<usize>slot << 3), v);
  }
  memory.copy(workAt + (<usize>from << 3), sortAt, <usize>(to - from) << 3);
  return kept;
}
