// node:zlib's options for inflating data of known size, shared by the
// platform's inflater (inflate-into.node.ts) and the engine's inflateNow
// (util/compression.ts).

/** zlib refuses output chunks smaller than this. */
const ZLIB_MIN_CHUNK = 64;

/**
 * Options that inflate `length` bytes into one output chunk: a buffer of the
 * known size, not zlib's 16 KB chunks joined, with a byte to spare so that
 * a stream longer than `length` shows.
 */
export function oneChunkFor(length: number): { chunkSize: number } {
  return { chunkSize: Math.max(ZLIB_MIN_CHUNK, length + 1) };
}
