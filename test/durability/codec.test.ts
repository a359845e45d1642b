// An operation's bytes in the log (src/durability/persistence.ts): plain, the
// PLAIN tag then the text's UTF-8 (a lone surrogate as U+FFFD, as TextEncoder
// writes it), each array its own although they are encoded in a scratch
// array kept from one operation to the next; encrypted, sealed as before.
// Every one decodes back to the operation.
import { describe, expect, it } from 'vitest';
import { Codec } from '../../src/durability/persistence.js';

const texts = {
  ascii: JSON.stringify({ type: 'batch', actions: [{ action: 'updateObject', body: { objectID: '1', title: 'plain text' } }] }),
  'non-ASCII': JSON.stringify({ title: 'Zürich, 東京, 🦄' }),
  'a lone surrogate': JSON.stringify({ title: 'a\ud800b' }),
  // past the scratch array kept between operations (8 MB): encoded in one of its own
  large: JSON.stringify({ actions: Array.from({ length: 40_000 }, (_, i) => ({ objectID: String(i), text: 'é'.repeat(40) + ' words '.repeat(10) })) }),
};

describe('operation bytes', () => {
  it('are the PLAIN tag and the text as TextEncoder writes it, each in an array of its own', async () => {
    const codec = await Codec.create();
    const encoded = [];
    for (const text of Object.values(texts)) encoded.push({ text, bytes: await codec.encodeOperationText(text) });
    // encoded again after all the others: a scratch array shared with the earlier ones would show here
    encoded.push({ text: texts.ascii, bytes: await codec.encodeOperationText(texts.ascii) });
    for (const { text, bytes } of encoded) {
      const utf8 = new TextEncoder().encode(text);
      expect(bytes.length).toBe(1 + utf8.length);
      expect(bytes[0]).toBe(0);
      expect(Buffer.from(bytes.subarray(1)).equals(Buffer.from(utf8))).toBe(true);
      expect(bytes.buffer.byteLength).toBe(bytes.length);
      expect(await codec.decodeOperation(bytes)).toEqual(JSON.parse(new TextDecoder().decode(utf8)));
    }
  });

  it('encrypted, are sealed and decode back with the key', async () => {
    const codec = await Codec.create('a passphrase');
    for (const text of Object.values(texts)) {
      const bytes = await codec.encodeOperationText(text);
      expect(bytes[0]).toBe(1);
      expect(await codec.decodeOperation(bytes)).toEqual(JSON.parse(new TextDecoder().decode(new TextEncoder().encode(text))));
    }
  });

  it('of an operation are those of its JSON text', async () => {
    const codec = await Codec.create();
    const op = { type: 'settings', indexName: 'i', settings: { searchableAttributes: ['title'] } };
    expect(Buffer.from(await codec.encodeOperation(op)).equals(Buffer.from(await codec.encodeOperationText(JSON.stringify(op))))).toBe(true);
  });
});
