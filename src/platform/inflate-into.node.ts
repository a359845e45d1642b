// Inflating into memory kept between calls (Node). Each inflateRawSync makes
// a zlib stream and an output buffer, both allocated outside V8's heap and
// counted by it: at 1M records a default answer inflated ~16 chunks and so
// allocated ~250 KB there, which started a mark-compact of the ~880 MB heap
// every ~170 answers ("external memory pressure"), its marking steps on the
// main thread (1.7-2.8 s over 1,500 answers). node:zlib has no public call
// that inflates into a given buffer; its own synchronous path writes through
// the stream's native handle (`_handle.writeSync`, the counts left in
// `_writeState`), in every Node since 12 and in Bun. This module does the
// same with one stream and one output buffer, reset between calls, checks
// that each call inflated exactly what was asked, and falls back to
// inflateRawSync when it did not (a runtime without that handle, bad data).
import type * as NodeZlib from 'node:zlib';
import { oneChunkFor } from './inflate-options.js';

/** The native side of a zlib stream, as node:zlib's synchronous path uses it. */
interface ZlibHandle {
  reset(): void;
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, output: Uint8Array, outOffset: number, outLength: number): void;
}

/** What this module reads of a stream besides its public API. */
interface StreamInternals {
  /** null once the stream is closed (after an error). */
  _handle?: ZlibHandle | null;
  /** What the last write left: output room, then input not read. */
  _writeState?: Uint32Array;
}

/** Larger inflated sizes go through inflateRawSync: the buffer kept never grows past this. */
const KEPT_OUTPUT_BYTES = 1 << 20;

/**
 * `inflate(bytes, length, upTo)`: the first `upTo` bytes (all `length` by
 * default) of the raw deflate `bytes`, `length` bytes once inflated, as a
 * view of a buffer reused by the next call (read or copy it before). A
 * record read from its chunk needs the chunk up to the record's end only:
 * half of it on average, and inflating stops there (13.6 against 8.3 µs for
 * a chunk of 16 records at 1M). Throws zlib's error for data that fails
 * before `upTo` bytes, and, when the whole is asked for, for data that does
 * not inflate to exactly `length` bytes.
 */
export function inflaterInto(zlib: typeof NodeZlib): (bytes: Uint8Array, length: number, upTo?: number) => Uint8Array {
  let stream: (NodeZlib.InflateRaw & StreamInternals) | undefined;
  let output = new Uint8Array(1 << 16);
  /** False once the handle failed where inflateRawSync did not: this runtime's handle is not the one expected. */
  let handleWorks = true;

  /** Through the handle; undefined when it could not (the stream is then dropped, and made again next time). */
  const throughHandle = (bytes: Uint8Array, length: number, upTo: number): Uint8Array | undefined => {
    if (!stream) {
      stream = new zlib.InflateRaw() as NodeZlib.InflateRaw & StreamInternals;
      // an error also comes as an event, after the call that met it: the check below has seen it already
      stream.on('error', () => {});
    }
    const handle = stream._handle;
    const state = stream._writeState;
    if (!handle || !state) return dropStream();
    if (output.length <= length) output = new Uint8Array(Math.min(KEPT_OUTPUT_BYTES, Math.max(length + 1, output.length * 2)));
    const whole = upTo === length;
    // room for one byte more than the whole: a stream longer than `length` shows
    const room = whole ? output.length : upTo;
    try {
      handle.reset();
      handle.writeSync(zlib.constants.Z_FINISH, bytes, 0, bytes.length, output, 0, room);
    } catch {
      return dropStream();
    }
    if (!stream._handle) return dropStream(); // closed: zlib met an error
    // whole: all the input read and exactly `length` bytes out (zlib found the end);
    // a part: exactly `upTo` bytes out (the rest is not read)
    const fits = whole ? state[1] === 0 && room - state[0] === length : state[0] === 0;
    return fits ? output.subarray(0, upTo) : dropStream();
  };

  const dropStream = (): undefined => {
    stream?.close();
    stream = undefined;
    return undefined;
  };

  return (bytes, length, upTo = length) => {
    if (!(upTo >= 0 && upTo <= length)) throw new RangeError(`${upTo} bytes asked of ${length}`);
    const inflated = handleWorks && length < KEPT_OUTPUT_BYTES ? throughHandle(bytes, length, upTo) : undefined;
    if (inflated) return inflated;
    const copy = zlib.inflateRawSync(bytes, oneChunkFor(length));
    if (copy.length !== length) throw new Error(`inflated ${copy.length} bytes where ${length} were expected`);
    // the handle failed where inflateRawSync did not: stop trying it
    if (length < KEPT_OUTPUT_BYTES) handleWorks = false;
    return new Uint8Array(copy.buffer, copy.byteOffset, upTo);
  };
}
