// MessagePack decoding that keeps every key as data. @msgpack/msgpack refuses
// a map key "__proto__" (assigning it would set the decoded object's
// prototype), yet a record, a rule's userData or any value written may have
// that attribute, and its encoder writes it: a snapshot holding one could not
// be read back. So a value is decoded as usual and, only when that is
// refused, decoded again with that key read as a placeholder name, which is
// then made an own "__proto__" property, in its place among the keys.
import { decode as decodeMessagePack, Decoder, DecodeError, type DecoderOptions } from '@msgpack/msgpack';
import { setOwn } from './own-keys.js';

/** @msgpack/msgpack's decode, with "__proto__" keys decoded as own properties. */
export function decode(bytes: Uint8Array, options: Pick<DecoderOptions, 'extensionCodec'> = {}): unknown {
  try {
    // a decoder made per call costs more than decoding a record (its key cache is built anew)
    return options.extensionCodec ? decodeMessagePack(bytes, options) : plainDecoder.decode(bytes);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    const value = decodeMessagePack(bytes, { ...options, keyDecoder: protoAsPlaceholder }); // rethrows whatever else is wrong
    restoreProtoKeys(value);
    return value;
  }
}

/** The decoder of every value without extensions (a Decoder may be re-entered: it clones itself when busy). */
const plainDecoder = new Decoder();

const PROTO = new TextEncoder().encode('__proto__');

/**
 * The key read in place of "__proto__": no data can hold it (its random
 * part is drawn afresh by each process and never leaves it).
 */
const PLACEHOLDER = `__proto__\u0000${[...crypto.getRandomValues(new Uint32Array(4))].join('-')}`;

type KeyDecoder = NonNullable<DecoderOptions['keyDecoder']>;

/** Reads the 9-byte keys ("__proto__" is one): that one as the placeholder, any other as the decoder does. */
const protoAsPlaceholder: KeyDecoder = {
  canBeCached: (length) => length === PROTO.length,
  decode(bytes, offset, length) {
    if (PROTO.every((b, i) => bytes[offset + i] === b)) return PLACEHOLDER;
    // the same UTF-8 as a short string anywhere: a fixstr of these bytes (0xa0 | length, then the bytes)
    const fixstr = new Uint8Array(1 + length);
    fixstr[0] = 0xa0 | length;
    fixstr.set(bytes.subarray(offset, offset + length), 1);
    return decodeMessagePack(fixstr) as string;
  },
};

/** Turns every placeholder key of the decoded value into an own "__proto__" property, in its place. */
function restoreProtoKeys(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) restoreProtoKeys(item);
  } else if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    // maps only: binary values (the core's snapshot, packed records) are Uint8Arrays, not walked
    for (const item of Object.values(value)) restoreProtoKeys(item);
    if (Object.hasOwn(value, PLACEHOLDER)) rekey(value);
  }
}

/** Puts back the object's keys in order, the placeholder as "__proto__" (keys keep the order they were added in). */
function rekey(object: object): void {
  const entries = Object.entries(object);
  for (const [key] of entries) delete (object as Record<string, unknown>)[key];
  for (const [key, value] of entries) setOwn(object, key === PLACEHOLDER ? '__proto__' : key, value);
}
