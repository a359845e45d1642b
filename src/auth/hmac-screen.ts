// SHA-256 in TypeScript, for what is hashed once per key (its digest, by
// which KeyMap finds it, and its HMAC states) and the message a secured key
// is screened with: the screen itself runs in the WebAssembly core
// (assembly/hmac-screen.ts), four stored keys at a time, over the states
// made here. Neither standard API does this cheaply: WebCrypto is one
// promise per HMAC (~50 µs each, with a key import), and node:crypto, native
// as it is, costs ~3 µs a call from JavaScript however small the message
// (createHmac, or hash() over the padded key blocks; Hash.copy() of
// precomputed states ~5 µs): an HMAC is the two compressions after the
// padded key blocks, whose results are kept per key (RFC 2104's
// "precomputed" ipad/opad states). So this only screens: the candidate the
// core finds is confirmed with WebCrypto before it is trusted
// (secured-parents.ts), and a fault here could refuse a key, never accept one.
import type { ScreenInput } from '../core/signer-slots.js';

/** SHA-256 round constants (FIPS 180-4, 4.2.2). */
const K = Int32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);
/** SHA-256's initial state (FIPS 180-4, 5.3.3). */
const INITIAL = Int32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
const BLOCK_BYTES = 64;
const schedule = new Int32Array(64);
const encoder = new TextEncoder();

/** One compression: the 8 words of `state` at `at` absorb the 16-word block of `blocks` at `from`. */
function compress(state: Int32Array, at: number, blocks: Int32Array, from: number): void {
  const w = schedule;
  for (let i = 0; i < 16; i++) w[i] = blocks[from + i];
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15];
    const y = w[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = state[at], b = state[at + 1], c = state[at + 2], d = state[at + 3];
  let e = state[at + 4], f = state[at + 5], g = state[at + 6], h = state[at + 7];
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  state[at] += a; state[at + 1] += b; state[at + 2] += c; state[at + 3] += d;
  state[at + 4] += e; state[at + 5] += f; state[at + 6] += g; state[at + 7] += h;
}

/** `bytes` as big-endian words padded as SHA-256 pads the end of a message that `before` bytes precede. */
function paddedBlocks(bytes: Uint8Array, before = 0): Int32Array {
  const count = Math.ceil((bytes.length + 9) / BLOCK_BYTES);
  const padded = new Uint8Array(count * BLOCK_BYTES);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = (before + bytes.length) * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  return bytesToWords(padded);
}

/** Big-endian words of `bytes` (a multiple of 4 long). */
function bytesToWords(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return Int32Array.from({ length: bytes.length / 4 }, (_, i) => view.getInt32(i * 4));
}

/** The bytes of big-endian words. */
function wordsToBytes(words: Int32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((word, i) => view.setInt32(i * 4, word));
  return bytes;
}

/** SHA-256 of `bytes` as 8 words. */
function sha256Words(bytes: Uint8Array): Int32Array {
  const state = INITIAL.slice();
  const blocks = paddedBlocks(bytes);
  for (let from = 0; from < blocks.length; from += 16) compress(state, 0, blocks, from);
  return state;
}

function wordsToHex(words: Int32Array): string {
  let hex = '';
  for (const word of words) hex += (word >>> 0).toString(16).padStart(8, '0');
  return hex;
}

/** SHA-256 of the UTF-8 of `text`, in hex. */
export function sha256Hex(text: string): string {
  return wordsToHex(sha256Words(encoder.encode(text)));
}

/**
 * A secret's HMAC-SHA256 state: 16 words, the inner then the outer hash's
 * state after its padded key block (RFC 2104: a key longer than a block is
 * hashed first).
 */
export function hmacState(secret: string): Int32Array {
  let key: Uint8Array = encoder.encode(secret);
  if (key.length > BLOCK_BYTES) key = wordsToBytes(sha256Words(key));
  const state = new Int32Array(16);
  for (const [pad, at] of [[0x36, 0], [0x5c, 8]]) {
    const block = new Uint8Array(BLOCK_BYTES).fill(pad);
    for (let i = 0; i < key.length; i++) block[i] ^= key[i];
    state.set(INITIAL, at);
    compress(state, at, bytesToWords(block), 0);
  }
  return state;
}

/** A message to screen candidate secrets against (in the core: SignerSlots.screen): its padded blocks, made once for them all. */
export class ScreenedMessage implements ScreenInput {
  /** The inner hash's message: the blocks after the key block. */
  readonly blocks: Int32Array;
  /** The MAC presented with it, as words. */
  readonly mac: Int32Array;
  /** SHA-256 compressions per candidate: the message's blocks, then the outer hash's one. */
  readonly compressions: number;

  /** `mac`: 64 hex digits. */
  constructor(message: string, mac: string) {
    // the inner hash's message follows the key block
    this.blocks = paddedBlocks(encoder.encode(message), BLOCK_BYTES);
    this.compressions = this.blocks.length / 16 + 1;
    this.mac = Int32Array.from({ length: 8 }, (_, i) => parseInt(mac.slice(i * 8, i * 8 + 8), 16) | 0);
  }
}
