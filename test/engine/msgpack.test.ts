// MessagePack decoding of snapshots keeps a "__proto__" key as data (the
// library refuses it): an own property in its place among the keys, at any
// depth, the value's prototype untouched, the other keys and the binary
// values as the library decodes them.
import { decode as libraryDecode, encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/util/msgpack.js';

const json = (text: string) => JSON.parse(text);

describe('MessagePack decoding', () => {
  it('reads a "__proto__" key back as an own property, in its place, at any depth', () => {
    const value = json('{"a":1,"__proto__":{"x":[{"__proto__":2,"y":3}]},"b":{"c":{"__proto__":null}},"z":[{"__proto__":"s"}]}');
    expect(() => libraryDecode(encode(value))).toThrow(/__proto__/); // what snapshots met before
    const decoded = decode(encode(value)) as Record<string, any>;
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(value));
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.hasOwn(decoded, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(decoded.b.c)).toBe(Object.prototype);
  });

  it('decodes the other nine-byte keys (the length of "__proto__") as the library does, binaries left as they are', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const value = { __proto_x: 1, 'naïve_ke': 2, 'a\ud83d\ude00bcde': 3, 'abc\ud800def': 4, nested: { '123456789': 5, bin: bytes } };
    const decoded = decode(encode({ ...value, ...json('{"__proto__":0}') })) as Record<string, any>;
    expect(decoded.nested.bin).toEqual(bytes);
    delete decoded.__proto__;
    expect(decoded).toEqual(libraryDecode(encode(value)));
    expect(Object.keys(decoded)).toEqual(Object.keys(value));
  });

  it('a value without that key decodes as the library decodes it; damaged bytes still fail', () => {
    const value = { a: [1, 'two', { three: 3 }], b: null };
    expect(decode(encode(value))).toEqual(libraryDecode(encode(value)));
    expect(() => decode(new Uint8Array([0xc1]))).toThrow();
  });
});
