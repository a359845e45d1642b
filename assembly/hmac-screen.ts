// Screens the stored keys that may have signed a secured key: the HMAC-SHA256
// of its query string under each candidate key, compared with the HMAC it
// presents. Every signer's precomputed states (RFC 2104: the inner and outer
// hash's state after the padded key block, computed once in JS when the key
// is stored: src/auth/hmac-screen.ts) live here in one slot array, so a
// screen is one call over a list of slots, four keys at a time in the lanes
// of v128 vectors. The inner hash's message is the query string for every
// key, so its schedule (and each round's K + W) is computed once per call;
// the outer hash's message is each key's inner digest, one block, its
// padding fixed. This only screens: the key it finds is confirmed with
// WebCrypto before it is trusted (src/auth/secured-parents.ts).
//
// Scratch layout of a screen (i32 words), named for JS by scripts/gen-abi.mjs:
export const SIGNER_WORDS = 16;  // per slot: the inner state (8 words), then the outer state (8)
export const SCREEN_MAC = 0;      // the presented HMAC, 8 words (big-endian words of the digest)
export const SCREEN_BLOCKS = 8;   // the number of the message's padded blocks
export const SCREEN_MESSAGE = 16; // the message's padded blocks, 16 words each, then the candidate slots

/** SHA-256 round constants (FIPS 180-4, 4.2.2). */
const K = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const ROUNDS: usize = 64;
const SLOT_BYTES: usize = <usize>SIGNER_WORDS << 2;
const BLOCK_BYTES: usize = 64;
/** The outer hash's message after the inner digest: words 8..15 of its one block (0x80 pad, the length in bits of key block + digest). */
const OUTER_PAD_FIRST: u32 = 0x80000000;
const OUTER_BITS: u32 = (64 + 32) * 8;

// The slot array: SIGNER_WORDS words a slot; freed slots are reused first.
let slots: usize = 0;
let slotCapacity: i32 = 0;
let slotsUsed: i32 = 0;
let freeSlots: usize = 0;
let freeCount: i32 = 0;
let freeCapacity: i32 = 0;

/** Stores a signer's states (scratch: SIGNER_WORDS words) in a free slot; returns the slot. */
export function storeSignerState(from: usize): i32 {
  let slot: i32;
  if (freeCount > 0) slot = load<i32>(freeSlots + (<usize>(--freeCount) << 2));
  else {
    if (slotsUsed == slotCapacity) {
      slotCapacity = slotCapacity == 0 ? 64 : slotCapacity << 1;
      slots = slots == 0 ? heap.alloc(<usize>slotCapacity * SLOT_BYTES) : heap.realloc(slots, <usize>slotCapacity * SLOT_BYTES);
    }
    slot = slotsUsed++;
  }
  memory.copy(slots + <usize>slot * SLOT_BYTES, from, SLOT_BYTES);
  return slot;
}

/** Frees `slot` (its states wiped: a key deleted leaves nothing of itself behind). */
export function freeSignerSlot(slot: i32): void {
  memory.fill(slots + <usize>slot * SLOT_BYTES, 0, SLOT_BYTES);
  if (freeCount == freeCapacity) {
    freeCapacity = freeCapacity == 0 ? 64 : freeCapacity << 1;
    freeSlots = freeSlots == 0 ? heap.alloc(<usize>freeCapacity << 2) : heap.realloc(freeSlots, <usize>freeCapacity << 2);
  }
  store<i32>(freeSlots + (<usize>freeCount << 2), slot);
  freeCount++;
}

// Each round's K + W as a v128: for the inner message, the same in every lane (per block), and for the outer, each lane's own.
let innerKW: usize = 0;
let innerKWBlocks: i32 = 0;
const ROUND_BYTES: usize = ROUNDS * 16;
const outerKW = memory.data(<i32>ROUND_BYTES, 16);
/** One block's schedule, W[0..63]. */
const messageW = memory.data(<i32>ROUNDS * 4, 16);

@inline function rotr(x: v128, n: i32): v128 { return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n)); }
@inline function sigma0(x: v128): v128 { return v128.xor(v128.xor(rotr(x, 7), rotr(x, 18)), i32x4.shr_u(x, 3)); }
@inline function sigma1(x: v128): v128 { return v128.xor(v128.xor(rotr(x, 17), rotr(x, 19)), i32x4.shr_u(x, 10)); }

/** Each round's K + W for the `blocks` blocks of the message at `message` (big-endian words, as i32), computed once for every key. */
function scheduleMessage(message: usize, blocks: i32): void {
  if (blocks > innerKWBlocks) {
    innerKW = innerKW == 0 ? heap.alloc(<usize>blocks * ROUND_BYTES) : heap.realloc(innerKW, <usize>blocks * ROUND_BYTES);
    innerKWBlocks = blocks;
  }
  const w = messageW;
  for (let b = 0; b < blocks; b++) {
    memory.copy(w, message + <usize>b * BLOCK_BYTES, BLOCK_BYTES);
    for (let i: usize = 16; i < ROUNDS; i++) {
      const x = load<u32>(w + ((i - 15) << 2));
      const y = load<u32>(w + ((i - 2) << 2));
      const s0 = rotr32(x, 7) ^ rotr32(x, 18) ^ (x >>> 3);
      const s1 = rotr32(y, 17) ^ rotr32(y, 19) ^ (y >>> 10);
      store<u32>(w + (i << 2), load<u32>(w + ((i - 16) << 2)) + s0 + load<u32>(w + ((i - 7) << 2)) + s1);
    }
    const kw = innerKW + <usize>b * ROUND_BYTES;
    for (let i: usize = 0; i < ROUNDS; i++) v128.store(kw + (i << 4), i32x4.splat(load<u32>(w + (i << 2)) + load<u32>(K + (i << 2))));
  }
}

@inline function rotr32(x: u32, n: u32): u32 { return (x >>> n) | (x << (32 - n)); }

/** The outer hash's W of words 8..15 of its block (fixed). */
const outerW = memory.data(16 * 16, 16);

/** Words 8..15 of the outer hash's block are its fixed padding: their W and K + W are set once. */
function setOuterPadding(): void {
  for (let i: usize = 8; i < 16; i++) {
    const word: u32 = i == 8 ? OUTER_PAD_FIRST : i == 15 ? OUTER_BITS : 0;
    v128.store(outerW + (i << 4), i32x4.splat(word));
    storeOuterKW(i, i32x4.splat(word));
  }
}
setOuterPadding();

@inline function storeOuterKW(i: usize, w: v128): void {
  v128.store(outerKW + (i << 4), i32x4.add(w, i32x4.splat(load<i32>(K + (i << 2)))));
}

/**
 * The outer hash's K + W for four inner digests (the rest of its block is
 * fixed: setOuterPadding). W is made 16 words a turn in 16 variables, each
 * replaced by the word 16 places on (W[i] from W[i-16], W[i-15], W[i-7]
 * and W[i-2]): kept in memory, each word waited on the store of the one
 * before last (a fifth of the screen's time).
 */
function scheduleOuter(d0: v128, d1: v128, d2: v128, d3: v128, d4: v128, d5: v128, d6: v128, d7: v128): void {
  storeOuterKW(0, d0); storeOuterKW(1, d1); storeOuterKW(2, d2); storeOuterKW(3, d3);
  storeOuterKW(4, d4); storeOuterKW(5, d5); storeOuterKW(6, d6); storeOuterKW(7, d7);
  let w0 = d0, w1 = d1, w2 = d2, w3 = d3, w4 = d4, w5 = d5, w6 = d6, w7 = d7;
  let w8 = v128.load(outerW, 8 * 16), w9 = v128.load(outerW, 9 * 16), w10 = v128.load(outerW, 10 * 16), w11 = v128.load(outerW, 11 * 16);
  let w12 = v128.load(outerW, 12 * 16), w13 = v128.load(outerW, 13 * 16), w14 = v128.load(outerW, 14 * 16), w15 = v128.load(outerW, 15 * 16);
  for (let i: usize = 16; i < ROUNDS; i += 16) {
    w0 = i32x4.add(i32x4.add(w0, sigma0(w1)), i32x4.add(w9, sigma1(w14))); storeOuterKW(i + 0, w0);
    w1 = i32x4.add(i32x4.add(w1, sigma0(w2)), i32x4.add(w10, sigma1(w15))); storeOuterKW(i + 1, w1);
    w2 = i32x4.add(i32x4.add(w2, sigma0(w3)), i32x4.add(w11, sigma1(w0))); storeOuterKW(i + 2, w2);
    w3 = i32x4.add(i32x4.add(w3, sigma0(w4)), i32x4.add(w12, sigma1(w1))); storeOuterKW(i + 3, w3);
    w4 = i32x4.add(i32x4.add(w4, sigma0(w5)), i32x4.add(w13, sigma1(w2))); storeOuterKW(i + 4, w4);
    w5 = i32x4.add(i32x4.add(w5, sigma0(w6)), i32x4.add(w14, sigma1(w3))); storeOuterKW(i + 5, w5);
    w6 = i32x4.add(i32x4.add(w6, sigma0(w7)), i32x4.add(w15, sigma1(w4))); storeOuterKW(i + 6, w6);
    w7 = i32x4.add(i32x4.add(w7, sigma0(w8)), i32x4.add(w0, sigma1(w5))); storeOuterKW(i + 7, w7);
    w8 = i32x4.add(i32x4.add(w8, sigma0(w9)), i32x4.add(w1, sigma1(w6))); storeOuterKW(i + 8, w8);
    w9 = i32x4.add(i32x4.add(w9, sigma0(w10)), i32x4.add(w2, sigma1(w7))); storeOuterKW(i + 9, w9);
    w10 = i32x4.add(i32x4.add(w10, sigma0(w11)), i32x4.add(w3, sigma1(w8))); storeOuterKW(i + 10, w10);
    w11 = i32x4.add(i32x4.add(w11, sigma0(w12)), i32x4.add(w4, sigma1(w9))); storeOuterKW(i + 11, w11);
    w12 = i32x4.add(i32x4.add(w12, sigma0(w13)), i32x4.add(w5, sigma1(w10))); storeOuterKW(i + 12, w12);
    w13 = i32x4.add(i32x4.add(w13, sigma0(w14)), i32x4.add(w6, sigma1(w11))); storeOuterKW(i + 13, w13);
    w14 = i32x4.add(i32x4.add(w14, sigma0(w15)), i32x4.add(w7, sigma1(w12))); storeOuterKW(i + 14, w14);
    w15 = i32x4.add(i32x4.add(w15, sigma0(w0)), i32x4.add(w8, sigma1(w13))); storeOuterKW(i + 15, w15);
  }
}

/** The states of four keys being screened: the inner hash's 8 words, then the outer's, one v128 (a lane per key) each. */
const lanes = memory.data(16 * 16, 16);
const INNER: usize = 0;
const OUTER: usize = 8 * 16;

/** A round's T1 (FIPS 180-4, 6.2.2) of state words e, f, g, h and the round's K + W. */
@inline function t1(e: v128, f: v128, g: v128, h: v128, kw: v128): v128 {
  const bigSigma1 = v128.xor(v128.xor(rotr(e, 6), rotr(e, 11)), rotr(e, 25));
  return i32x4.add(i32x4.add(h, bigSigma1), i32x4.add(v128.bitselect(f, g, e), kw));
}

/**
 * A round's T2 of state words a and b (FIPS 180-4, 6.2.2), given a ^ b and
 * b ^ c: the majority is b where a and b agree and c (that is a) where b and
 * c differ, and b ^ c is the last round's a ^ b (each round shifts a, b, c).
 */
@inline function t2(a: v128, b: v128, ab: v128, bc: v128): v128 {
  const bigSigma0 = v128.xor(v128.xor(rotr(a, 2), rotr(a, 13)), rotr(a, 22));
  return i32x4.add(bigSigma0, v128.xor(b, v128.and(ab, bc)));
}

/**
 * One SHA-256 compression of the four states at `state`, with each round's
 * K + W (a v128) at `kw`. Eight rounds a turn, the words renamed instead of
 * moved: a round's new e is kept in its d, its new a in its h.
 */
function compress(state: usize, kw: usize): void {
  let a = v128.load(state, 0), b = v128.load(state, 16), c = v128.load(state, 32), d = v128.load(state, 48);
  let e = v128.load(state, 64), f = v128.load(state, 80), g = v128.load(state, 96), h = v128.load(state, 112);
  // a ^ b of the rounds, two at a time: p this round's, q the last one's
  let p: v128, q = v128.xor(b, c);
  for (let k = kw; k < kw + ROUND_BYTES; k += 8 * 16) {
    let x = t1(e, f, g, h, v128.load(k, 0)); d = i32x4.add(d, x); p = v128.xor(a, b); h = i32x4.add(x, t2(a, b, p, q));
    x = t1(d, e, f, g, v128.load(k, 16)); c = i32x4.add(c, x); q = v128.xor(h, a); g = i32x4.add(x, t2(h, a, q, p));
    x = t1(c, d, e, f, v128.load(k, 32)); b = i32x4.add(b, x); p = v128.xor(g, h); f = i32x4.add(x, t2(g, h, p, q));
    x = t1(b, c, d, e, v128.load(k, 48)); a = i32x4.add(a, x); q = v128.xor(f, g); e = i32x4.add(x, t2(f, g, q, p));
    x = t1(a, b, c, d, v128.load(k, 64)); h = i32x4.add(h, x); p = v128.xor(e, f); d = i32x4.add(x, t2(e, f, p, q));
    x = t1(h, a, b, c, v128.load(k, 80)); g = i32x4.add(g, x); q = v128.xor(d, e); c = i32x4.add(x, t2(d, e, q, p));
    x = t1(g, h, a, b, v128.load(k, 96)); f = i32x4.add(f, x); p = v128.xor(c, d); b = i32x4.add(x, t2(c, d, p, q));
    x = t1(f, g, h, a, v128.load(k, 112)); e = i32x4.add(e, x); q = v128.xor(b, c); a = i32x4.add(x, t2(b, c, q, p));
  }
  v128.store(state, i32x4.add(v128.load(state, 0), a), 0); v128.store(state, i32x4.add(v128.load(state, 16), b), 16);
  v128.store(state, i32x4.add(v128.load(state, 32), c), 32); v128.store(state, i32x4.add(v128.load(state, 48), d), 48);
  v128.store(state, i32x4.add(v128.load(state, 64), e), 64); v128.store(state, i32x4.add(v128.load(state, 80), f), 80);
  v128.store(state, i32x4.add(v128.load(state, 96), g), 96); v128.store(state, i32x4.add(v128.load(state, 112), h), 112);
}

/** Four words of each of four slots (rows) as four vectors of one word each (columns), at `to`. */
@inline function transpose(r0: v128, r1: v128, r2: v128, r3: v128, to: usize): void {
  const t0 = i32x4.shuffle(r0, r1, 0, 4, 1, 5);
  const t1 = i32x4.shuffle(r0, r1, 2, 6, 3, 7);
  const t2 = i32x4.shuffle(r2, r3, 0, 4, 1, 5);
  const t3 = i32x4.shuffle(r2, r3, 2, 6, 3, 7);
  v128.store(to, i32x4.shuffle(t0, t2, 0, 1, 4, 5), 0);
  v128.store(to, i32x4.shuffle(t0, t2, 2, 3, 6, 7), 16);
  v128.store(to, i32x4.shuffle(t1, t3, 0, 1, 4, 5), 32);
  v128.store(to, i32x4.shuffle(t1, t3, 2, 3, 6, 7), 48);
}

/** Loads the states of four slots into the lanes. */
function gather(s0: usize, s1: usize, s2: usize, s3: usize): void {
  for (let word: usize = 0; word < <usize>SIGNER_WORDS; word += 4) {
    const at = word << 2;
    transpose(v128.load(s0 + at), v128.load(s1 + at), v128.load(s2 + at), v128.load(s3 + at), lanes + (word << 4));
  }
}

/** A bit per lane whose outer digest is `mac` (8 words at `mac`). */
function lanesMatching(mac: usize): i32 {
  let same = i32x4.splat(-1);
  for (let word: usize = 0; word < 8; word++) {
    same = v128.and(same, i32x4.eq(v128.load(lanes + OUTER + (word << 4)), i32x4.splat(load<i32>(mac + (word << 2)))));
  }
  return i32x4.bitmask(same);
}

@inline function slotAt(slot: i32): usize { return slots + <usize>slot * SLOT_BYTES; }

/**
 * Screens the `count` slots listed in scratch after the message (see the
 * layout above); returns the place in that list of the first whose key
 * signed the message with the HMAC presented, or -1.
 */
export function screenSlots(base: usize, count: i32): i32 {
  const blocks = load<i32>(base + (SCREEN_BLOCKS << 2));
  const message = base + (SCREEN_MESSAGE << 2);
  scheduleMessage(message, blocks);
  const list = message + <usize>blocks * BLOCK_BYTES;
  const last = count - 1;
  for (let i = 0; i < count; i += 4) {
    // a last group of fewer than four repeats its last slot in the lanes left (their answers ignored)
    gather(
      slotAt(load<i32>(list + (<usize>i << 2))),
      slotAt(load<i32>(list + (<usize>min(i + 1, last) << 2))),
      slotAt(load<i32>(list + (<usize>min(i + 2, last) << 2))),
      slotAt(load<i32>(list + (<usize>min(i + 3, last) << 2))),
    );
    for (let b = 0; b < blocks; b++) compress(lanes + INNER, innerKW + <usize>b * ROUND_BYTES);
    scheduleOuter(
      v128.load(lanes, 0), v128.load(lanes, 16), v128.load(lanes, 32), v128.load(lanes, 48),
      v128.load(lanes, 64), v128.load(lanes, 80), v128.load(lanes, 96), v128.load(lanes, 112),
    );
    compress(lanes + OUTER, outerKW);
    const matching = lanesMatching(base + (SCREEN_MAC << 2));
    if (matching != 0) return i + ctz(matching);
  }
  return -1;
}
