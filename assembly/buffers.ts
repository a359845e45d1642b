// Growable unmanaged buffers and the scratch areas JS reads and writes.
// Postings and forward lists live in unmanaged memory (heap.alloc) so the
// garbage collector never has to walk hundreds of thousands of small objects.

/**
 * Grows the memory, if it must, by `bytes` at once, left free for the
 * allocations to come. A WebAssembly memory's growth counts as memory
 * outside V8's heap, and V8 starts a full marking of its heap when that
 * grows (for "external memory pressure", after growths of 14 MB too):
 * grown entry by entry as the search caches filled, the memory of a
 * 1M-record index grew 17 times over its first 1,000 queries, by 225 MB,
 * and V8 marked its heap over and over, in steps and pauses that fell on
 * the queries.
 */
export function reserveMemory(bytes: usize): void { heap.free(heap.alloc(bytes)); }

/** Ensures `ptr` holds `needed` bytes, growing geometrically; returns the (maybe moved) block. */
export function ensureBytes(ptr: usize, capacity: i32, needed: i32): usize {
  if (needed <= capacity) return ptr;
  return heap.realloc(ptr, <usize>needed);
}

export function grownCapacity(capacity: i32, needed: i32, minimum: i32): i32 {
  let next = capacity < minimum ? minimum : capacity;
  while (next < needed) next <<= 1;
  return next;
}

/** Writes `v` as a varint at byte `at` of `ptr`; returns the byte after it. */
@inline export function putVarint(ptr: usize, at: i32, v: u32): i32 {
  while (v >= 0x80) {
    store<u8>(ptr + <usize>(at++), <u8>(v | 0x80));
    v >>= 7;
  }
  store<u8>(ptr + <usize>(at++), <u8>v);
  return at;
}

/**
 * A growable i32 array in unmanaged memory, for hot per-query scratch. The
 * vector itself is unmanaged too: a managed object read in a hot loop is also
 * stored to the shadow stack on each read (a third of a broad query's
 * ranking). Vectors made at run time are freed with `freeVec`.
 */
@unmanaged
export class IntVec {
  ptr: usize = 0;
  length: i32 = 0;
  capacity: i32 = 0;

  @inline get(i: i32): i32 { return load<i32>(this.ptr + (<usize>i << 2)); }
  @inline set(i: i32, v: i32): void { store<i32>(this.ptr + (<usize>i << 2), v); }

  reserve(n: i32): void {
    if (n <= this.capacity) return;
    const next = grownCapacity(this.capacity, n, 64);
    this.ptr = this.ptr == 0 ? heap.alloc(<usize>next << 2) : heap.realloc(this.ptr, <usize>next << 2);
    this.capacity = next;
  }

  /**
   * Reserves `n` with an eighth to spare rather than the next power of two:
   * for a large vector rebuilt whole as its source grows (doubling would
   * leave up to half of it unused).
   */
  reserveSpared(n: i32): void {
    if (n <= this.capacity) return;
    const next = n + (n >> 3);
    this.ptr = this.ptr == 0 ? heap.alloc(<usize>next << 2) : heap.realloc(this.ptr, <usize>next << 2);
    this.capacity = next;
  }

  @inline push(v: i32): void {
    if (this.length == this.capacity) this.reserve(this.length + 1);
    this.set(this.length++, v);
  }

  /** Lengthens the vector to `n` (when shorter), zero-filling the new elements. */
  @inline growZeroed(n: i32): void {
    if (n <= this.length) return;
    this.reserve(n);
    // a record's few elements by stores: memory.fill is a call out of the module
    if (n - this.length > 16) memory.fill(this.ptr + (<usize>this.length << 2), 0, <usize>(n - this.length) << 2);
    else for (let i = this.length; i < n; i++) this.set(i, 0);
    this.length = n;
  }

  /** Sets length to n and zero-fills. */
  resetZero(n: i32): void {
    this.reserve(n);
    this.length = n;
    memory.fill(this.ptr, 0, <usize>n << 2);
  }
}

/** A growable byte buffer for building varint streams (unmanaged like IntVec). */
@unmanaged
export class ByteVec {
  ptr: usize = 0;
  length: i32 = 0;
  capacity: i32 = 0;

  reserve(n: i32): void {
    if (n <= this.capacity) return;
    const next = grownCapacity(this.capacity, n, 256);
    this.ptr = this.ptr == 0 ? heap.alloc(<usize>next) : heap.realloc(this.ptr, <usize>next);
    this.capacity = next;
  }

  pushVarint(v: u32): void {
    this.reserve(this.length + 5);
    this.pushReserved(v);
  }

  /** Pushes a varint into room reserved before (5 bytes at most): a loop pushing many reserves once. */
  @inline pushReserved(v: u32): void {
    while (v >= 0x80) {
      store<u8>(this.ptr + <usize>(this.length++), <u8>(v | 0x80));
      v >>= 7;
    }
    store<u8>(this.ptr + <usize>(this.length++), <u8>v);
  }
}

/** Reads one varint at ptr; the next offset is left in `varintEnd`. */
export let varintEnd: usize = 0;
@inline export function readVarint(ptr: usize): u32 {
  let result: u32 = 0;
  let shift: u32 = 0;
  let b: u32;
  do {
    b = <u32>load<u8>(ptr++);
    result |= (b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80);
  varintEnd = ptr;
  return result;
}

// The scratch buffer: JS writes documents, queries and rank arrays here.
let scratchPtr: usize = 0;
let scratchCapacity: i32 = 0;

export function scratch(bytes: i32): usize {
  if (bytes > scratchCapacity) {
    const next = grownCapacity(scratchCapacity, bytes, 65536);
    scratchPtr = scratchPtr == 0 ? heap.alloc(<usize>next) : heap.realloc(scratchPtr, <usize>next);
    scratchCapacity = next;
  }
  return scratchPtr;
}

export function scratchBase(): usize { return scratchPtr; }

// Results written back for JS, as i32 words.
export const results = new IntVec();

/** Frees a vector made at run time (an IntVec or a ByteVec) and its storage. */
export function freeVec<T>(vec: T): void {
  if (vec.ptr != 0) heap.free(vec.ptr);
  heap.free(changetype<usize>(vec));
}
