// The snapshot container: a state is cut into sections of bounded size, each
// sealed and checksummed on its own, and comes back exactly; encoding and
// decoding pause between sections; a damaged, moved, missing or extra
// section is refused, never read as something else; the older one-piece
// snapshots still read.
import { encode } from '@msgpack/msgpack';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { concat } from '../../src/util/bytes.js';
import { wholeSnapshot } from '../support/snapshot-bytes.js';
import { Codec, UndecryptableError } from '../../src/durability/persistence.js';
import { EncryptionKeyError, MissingEncryptionKeyError, StorageError } from '../../src/storage/errors.js';

/** A state shaped like the engine's: big byte arrays, a long list of strings, a list of byte arrays, keys that are data. */
function bigState() {
  const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
  const withProto = JSON.parse('{"__proto__": {"a": 1}, "b": [1, 2]}');
  return {
    version: 1,
    lastTaskID: 42,
    keys: [{ value: 'k1', acl: ['search'] }],
    indexes: [{
      name: 'films',
      core: [bytes(300_000, 1), bytes(100, 2), bytes(2_500_000, 3)],
      records: { objectIDs: Array.from({ length: 20_000 }, (_, i) => `id-${i}`), ends: bytes(80_000, 4), chunks: Array.from({ length: 40 }, (_, i) => bytes(70_000, i)) },
      rules: [{ objectID: 'r', consequence: { userData: withProto } }],
      nothing: null,
      big: 2 ** 53 - 1,
      text: 'ünïcödé 🔥',
    }],
    events: Array.from({ length: 9_000 }, (_, i) => ({ q: `query ${i}`, at: i, meta: i % 100 === 0 ? withProto : {} })),
  };
}

/** The value with each byte array as its length and SHA-256 (comparing megabytes element by element is slow). */
function digested(value: unknown): unknown {
  if (value instanceof Uint8Array) return `${value.length} bytes, sha256 ${createHash('sha256').update(value).digest('hex')}`;
  if (Array.isArray(value)) return value.map(digested);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: digested(item), enumerable: true });
  return out;
}

/** The sections of an encoded snapshot: [offset of its length field, its end]. */
function sectionSpans(bytes: Uint8Array): Array<[number, number]> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spans: Array<[number, number]> = [];
  for (let at = 4; at < bytes.length;) {
    const end = at + 36 + view.readUInt32LE(at);
    spans.push([at, end]);
    at = end;
  }
  return spans;
}

describe('snapshot sections', () => {
  it('a state comes back exactly, through sections no larger than its largest byte array, with pauses between them', async () => {
    const codec = await Codec.create();
    const state = bigState();
    let pauses = 0;
    const pieces = await codec.encodeSnapshot(state, async () => { pauses++; });
    // cutting walks the 9,000 events with pauses between thousands of them
    const cuttingPauses = pauses;
    expect(cuttingPauses).toBeGreaterThan(0);
    const bytes = await wholeSnapshot(pieces);
    const spans = sectionSpans(bytes);
    expect(spans.length).toBeGreaterThan(40);
    expect(pauses - cuttingPauses).toBe(spans.length); // then one pause after each section written
    // no section holds more than the largest single byte array (plus its framing)
    expect(Math.max(...spans.map(([a, b]) => b - a))).toBeLessThan(2_500_000 + 100);
    // the whole would have been one piece of ~6 MB: most sections are far smaller
    expect(spans.filter(([a, b]) => b - a < 200_000).length).toBeGreaterThan(spans.length / 2);

    pauses = 0;
    const back = await codec.decodeSnapshot(bytes, async () => { pauses++; }) as ReturnType<typeof bigState>;
    expect(pauses).toBeGreaterThan(3);
    expect(digested(back)).toEqual(digested(state));
    expect(Object.hasOwn(back.indexes[0].rules[0].consequence.userData, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(back.events[0].meta)).toBe(Object.prototype);
    expect(Object.hasOwn(back.events[100].meta, '__proto__')).toBe(true);
  });

  it('encrypted: comes back with the key; no key is a MissingEncryptionKeyError, a wrong one an UndecryptableError', async () => {
    const codec = await Codec.create('a passphrase');
    const bytes = await wholeSnapshot(await codec.encodeSnapshot(bigState()));
    expect((await codec.decodeSnapshot(bytes) as ReturnType<typeof bigState>).indexes[0].records.objectIDs[19_999]).toBe('id-19999');
    // a piece that does not decrypt may be damage: recovery tells a wrong key from it (test/persistence/encrypted-repair.test.ts)
    await expect((await Codec.create('another')).decodeSnapshot(bytes)).rejects.toBeInstanceOf(UndecryptableError);
    await expect((await Codec.create()).decodeSnapshot(bytes)).rejects.toBeInstanceOf(MissingEncryptionKeyError);
  });

  it('a flipped byte, a section moved, missing or added, or a cut is refused with a StorageError', async () => {
    for (const key of [undefined, 'a passphrase']) {
      const codec = await Codec.create(key);
      const bytes = await wholeSnapshot(await codec.encodeSnapshot(bigState()));
      const spans = sectionSpans(bytes);
      const section = (i: number) => bytes.subarray(spans[i][0], spans[i][1]);
      const rest = (from: number) => spans.slice(from).map((_, i) => section(from + i));
      const damaged: Array<[string, Uint8Array]> = [
        ['a byte flipped', (() => { const b = bytes.slice(); b[spans[7][1] - 5] ^= 1; return b; })()],
        ['two sections swapped', concat([bytes.subarray(0, spans[5][0]), section(6), section(5), ...rest(7)])],
        ['a section missing', concat([bytes.subarray(0, spans[5][0]), ...rest(6)])],
        ['a section twice', concat([bytes.subarray(0, spans[6][0]), section(5), ...rest(6)])],
        ['the last section missing', bytes.subarray(0, spans.at(-1)![0])],
        ['cut in a section', bytes.subarray(0, spans[3][0] + 50)],
        ['cut in a header', bytes.subarray(0, spans[3][0] + 10)],
      ];
      for (const [what, bad] of damaged) {
        const error = await codec.decodeSnapshot(bad).then(() => undefined, (e: unknown) => e);
        // damage, never taken for a wrong key (which would refuse the whole store instead of falling back)
        expect(error, `${what}${key ? ', encrypted' : ''}`).toBeInstanceOf(StorageError);
        expect(error, `${what}${key ? ', encrypted' : ''}`).not.toBeInstanceOf(EncryptionKeyError);
        expect(error, `${what}${key ? ', encrypted' : ''}`).not.toBeInstanceOf(UndecryptableError);
      }
    }
  });

  it('an older snapshot in one piece ("LNTS") is still read', async () => {
    const state = { version: 1, lastTaskID: 7, indexes: [{ name: 'x', core: Uint8Array.of(1, 2, 3) }] };
    const sealed = concat([Uint8Array.of(0), encode(state)]); // plain
    const digest = createHash('sha256').update(sealed).digest();
    const old = concat([Uint8Array.from([0x4c, 0x4e, 0x54, 0x53]), digest, sealed]);
    expect(await (await Codec.create()).decodeSnapshot(old)).toEqual(state);
  });
});
