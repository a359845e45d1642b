// Byte arrays end to end (snapshot sections, sealed log records, chunks of packed records).
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

const utf8 = new TextEncoder();

/**
 * Bytes appended end to end into one array that grows as needed: many small
 * pieces (a record's JSON, a window of the core's snapshot) cost one
 * array, not one each (a million small ArrayBuffers weigh on the collector).
 */
export class ByteWriter {
  private buffer: Uint8Array;
  private used = 0;

  /** `initialCapacity`: the bytes an array starts with (it doubles when full). */
  constructor(private readonly initialCapacity: number) {
    this.buffer = new Uint8Array(initialCapacity);
  }

  get length(): number { return this.used; }

  /** The bytes its array holds, used or not. */
  get capacity(): number { return this.buffer.length; }

  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  appendByte(byte: number): void {
    this.reserve(1);
    this.buffer[this.used++] = byte;
  }

  /** Appends a string's UTF-8 (encoded in place: no array of its own). */
  appendUtf8(text: string): void {
    this.reserve(text.length * 3); // a UTF-16 unit takes at most 3 bytes of UTF-8
    this.used += utf8.encodeInto(text, this.buffer.subarray(this.used)).written;
  }

  /** Makes room for `bytes` more. */
  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    const larger = new Uint8Array(Math.max(this.used + bytes, this.buffer.length * 2, this.initialCapacity));
    larger.set(this.buffer.subarray(0, this.used));
    this.buffer = larger;
  }

  /** What was appended since the last clear or take, as a view the next append may overwrite. */
  view(): Uint8Array { return this.buffer.subarray(0, this.used); }

  /** Starts again in the same array. */
  clear(): void { this.used = 0; }

  /** What was appended, to keep: the writer starts again in a new array (made at the next append). */
  take(): Uint8Array {
    const taken = this.view();
    this.buffer = new Uint8Array(0);
    this.used = 0;
    return taken;
  }
}
