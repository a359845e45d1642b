// The snapshot crosses to JS through a fixed window instead of one buffer the
// size of the index: WebAssembly memory never shrinks, so a whole-snapshot
// buffer would stay allocated (twice the index after an export, index plus
// snapshot after an import) for the life of the instance.

/** JS takes `length` bytes at `ptr` as the next part of the snapshot being written. */
@external("env", "snapshotWrite")
declare function snapshotWrite(ptr: usize, length: i32): void;

/** JS copies up to `capacity` next bytes of the snapshot being read to `ptr`; 0 at its end. */
@external("env", "snapshotRead")
declare function snapshotRead(ptr: usize, capacity: i32): i32;

const WINDOW: i32 = 1 << 16;
/** Blocks at least this long are written straight from their place in memory (reads always go straight to theirs). */
const DIRECT: i32 = WINDOW >> 2;

let window: usize = 0;
function windowPtr(): usize {
  if (window == 0) window = heap.alloc(<usize>WINDOW);
  return window;
}

// ---------------------------------------------------------------- writing

let written: i32 = 0;
/** Bytes handed to JS since `beginWrite`. */
let handed: i64 = 0;

export function beginWrite(): void { written = 0; handed = 0; windowPtr(); }

export function endWrite(): void {
  if (written > 0) snapshotWrite(window, written);
  handed += written;
  written = 0;
}

/** Bytes of the snapshot written so far (handed to JS or waiting in the window). */
export function streamed(): i64 { return handed + <i64>written; }

/** `n` (≤ WINDOW) contiguous bytes to fill at the returned pointer; call `wrote(n)` after. */
export function space(n: i32): usize {
  if (written + n > WINDOW) endWrite();
  return window + <usize>written;
}

@inline export function wrote(n: i32): void { written += n; }

export function put32(v: u32): void {
  store<u32>(space(4), v);
  written += 4;
}

export function putBytes(ptr: usize, n: i32): void {
  if (n >= DIRECT) {
    endWrite();
    snapshotWrite(ptr, n);
    handed += n;
    return;
  }
  memory.copy(space(n), ptr, <usize>n);
  written += n;
}

/** Zero bytes up to the next multiple of 4 after `n` bytes. */
export function padTo4(n: i32): void {
  const pad = (4 - (n & 3)) & 3;
  if (pad == 0) return;
  memory.fill(space(pad), 0, <usize>pad);
  written += pad;
}

// ---------------------------------------------------------------- reading

let cursor: usize = 0;
let available: i32 = 0;
/** The snapshot's length, and how many of its bytes JS has handed over. */
let total: i32 = 0;
let fetched: i32 = 0;
/** Set when the snapshot ended before a read it should have satisfied, or a count exceeded what is left of it. */
export let truncated = false;

export function beginRead(length: i32): void {
  cursor = windowPtr();
  available = 0;
  total = length;
  fetched = 0;
  truncated = false;
}

/** Reads from JS into `ptr`, counting what came. */
function fetch(ptr: usize, capacity: i32): i32 {
  const got = snapshotRead(ptr, capacity);
  if (got > 0) fetched += got;
  return got;
}

/** Makes `n` (≤ WINDOW) contiguous bytes available at `cursor()`; false (and `truncated`) when the snapshot ends first. */
export function need(n: i32): bool {
  if (available >= n) return true;
  memory.copy(window, cursor, <usize>available);
  cursor = window;
  while (available < n) {
    const got = fetch(window + <usize>available, WINDOW - available);
    if (got <= 0) { truncated = true; return false; }
    available += got;
  }
  return true;
}

@inline export function readPtr(): usize { return cursor; }

/** Bytes of the snapshot JS has handed over so far. */
export function received(): i64 { return <i64>fetched; }

export function skip(n: i32): void {
  cursor += <usize>n;
  available -= n;
}

export function take32(): u32 {
  if (!need(4)) return 0;
  const v = load<u32>(cursor);
  skip(4);
  return v;
}

/**
 * Reads a count of items taking at least `bytesEach` bytes each: 0, and
 * `truncated` set, when what is left of the snapshot cannot hold them (a
 * corrupt count must not size an allocation).
 */
export function takeCount(bytesEach: i32): i32 {
  const n = take32();
  const left = total - (fetched - available);
  if (<f64>n * <f64>bytesEach > <f64>left) { truncated = true; return 0; }
  return <i32>n;
}

/** Copies the next `n` bytes to `dst`; sets `truncated` (`dst` partly filled) when the snapshot ends first. */
export function takeBytes(dst: usize, n: i32): void {
  const first = available < n ? available : n;
  memory.copy(dst, cursor, <usize>first);
  skip(first);
  let done = first;
  while (done < n) {
    const got = fetch(dst + <usize>done, n - done);
    if (got <= 0) { truncated = true; return; }
    done += got;
  }
}

/** Skips the padding after `n` bytes up to the next multiple of 4. */
export function skipPad4(n: i32): void {
  const pad = (4 - (n & 3)) & 3;
  if (pad > 0 && need(pad)) skip(pad);
}

/** True when every byte of the snapshot was read. */
export function atEnd(): bool {
  return !truncated && available == 0 && fetched == total && snapshotRead(window, WINDOW) == 0;
}
