// Inflating records' chunks into memory kept between calls (Node): every
// answer must be what inflateRawSync gives, bad data must be refused as
// inflateRawSync refuses it, and a runtime without the stream handle it uses
// must still get every answer right.
import { EventEmitter } from 'node:events';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflaterInto } from '../../src/platform/inflate-into.node.js';
import { prng } from '../support/random.js';

/** Text-like bytes (words from a small vocabulary, as records' JSON is) of `length` bytes. */
function payload(random: () => number, length: number): Uint8Array {
  const words = ['the', 'record', 'title', 'speaker', '"objectID":', 'science', 'future', '{', '}', ',', '2010', 'ideas'];
  let text = '';
  while (text.length < length) text += words[Math.floor(random() * words.length)] + (random() < 0.8 ? ' ' : '');
  return new TextEncoder().encode(text.slice(0, length));
}

describe('inflating into memory kept between calls', () => {
  it('gives what inflateRawSync gives, for small, growing and very large outputs, into one buffer reused', () => {
    const inflate = inflaterInto(zlib);
    const random = prng(3);
    const sizes = [0, 1, 100, 7_000, 65_536, 65_537, 200_000, 1 << 20, (1 << 20) + 5, 3_000, 12];
    for (let n = 0; n < 200; n++) sizes.push(Math.floor(random() * 20_000));
    let reused = 0;
    let previous: ArrayBufferLike | undefined;
    for (const size of sizes) {
      const raw = payload(random, size);
      const deflated = zlib.deflateRawSync(raw, { level: 4 });
      const inflated = inflate(deflated, raw.length);
      expect(Buffer.from(inflated).equals(Buffer.from(raw)), `${size} bytes`).toBe(true);
      if (inflated.buffer === previous) reused++;
      previous = inflated.buffer;
    }
    // the output buffer grows, then serves every call of its size: nothing allocated per call
    expect(reused).toBeGreaterThan(190);
  });

  it('refuses bad data as inflateRawSync does, and goes on inflating good data after it', () => {
    const inflate = inflaterInto(zlib);
    const raw = payload(prng(4), 5_000);
    const good = zlib.deflateRawSync(raw);
    const corrupt = Buffer.from(good);
    for (let at = 2; at < corrupt.length; at += 7) corrupt[at] ^= 0x5a;
    const cases: Array<[string, Uint8Array, number]> = [
      ['corrupt', corrupt, raw.length],
      ['truncated', good.subarray(0, good.length - 9), raw.length],
      ['longer than said', good, raw.length - 1],
      ['shorter than said', good, raw.length + 1],
    ];
    for (const [name, bytes, length] of cases) {
      expect(() => inflate(bytes, length), name).toThrow();
      expect(Buffer.from(inflate(good, raw.length)).equals(Buffer.from(raw)), `good data after ${name}`).toBe(true);
    }
  });

  it('gives the first bytes asked for, as inflateRawSync would, refusing data that fails before them', () => {
    const inflate = inflaterInto(zlib);
    const random = prng(6);
    for (let n = 0; n < 300; n++) {
      const raw = payload(random, n < 5 ? [0, 1, 65_536, 100_000, 7][n] : Math.floor(random() * 12_000));
      const deflated = zlib.deflateRawSync(raw, { level: 4 });
      const upTo = n % 7 === 0 ? raw.length : Math.floor(random() * (raw.length + 1));
      const part = inflate(deflated, raw.length, upTo);
      expect(part.length, `${upTo} of ${raw.length}`).toBe(upTo);
      expect(Buffer.from(part).equals(Buffer.from(raw.subarray(0, upTo))), `${upTo} of ${raw.length}`).toBe(true);
    }
    const raw = payload(prng(7), 20_000);
    const good = zlib.deflateRawSync(raw);
    // the input cut where the part asked for cannot be made from it; data whose end comes before the part's
    expect(() => inflate(good.subarray(0, good.length >> 2), raw.length, raw.length - 10)).toThrow();
    expect(() => inflate(good, raw.length + 100, raw.length + 50)).toThrow();
    expect(() => inflate(good, raw.length, raw.length + 1)).toThrow(RangeError);
    expect(() => inflate(good, raw.length, -1)).toThrow(RangeError);
    expect(Buffer.from(inflate(good, raw.length, 5_000)).equals(Buffer.from(raw.subarray(0, 5_000)))).toBe(true);
  });

  it('without the stream handle it expects, falls back to inflateRawSync and stays right', () => {
    // a runtime whose zlib streams have no `_handle`: every call must still inflate
    class HandleLess extends EventEmitter { close(): void {} }
    let fallbacks = 0;
    const inflateRawSync: typeof zlib.inflateRawSync = (bytes, options) => { fallbacks++; return zlib.inflateRawSync(bytes, options); };
    const inflate = inflaterInto({ ...zlib, InflateRaw: HandleLess, inflateRawSync } as unknown as typeof zlib);
    const random = prng(5);
    for (let n = 0; n < 20; n++) {
      const raw = payload(random, 1_000 + n * 300);
      const inflated = inflate(zlib.deflateRawSync(raw), raw.length);
      expect(Buffer.from(inflated).equals(Buffer.from(raw))).toBe(true);
      const part = inflate(zlib.deflateRawSync(raw), raw.length, 500 + n);
      expect(Buffer.from(part).equals(Buffer.from(raw.subarray(0, 500 + n)))).toBe(true);
    }
    expect(fallbacks).toBe(40);
  });
});
