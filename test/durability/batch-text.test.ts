// A large batch's text in pieces (src/durability/batch-text.ts): end to end,
// JSON.stringify's text of the batch, whatever its members, their order and
// what JSON leaves out; parsed back, what JSON.parse of that text gives; the
// log's bytes of it the same as of the whole text; what JSON cannot write,
// refused as JSON.stringify refuses it.
import { describe, expect, it } from 'vitest';
import { batchText, parseBatchText, piecesOf } from '../../src/durability/batch-text.js';
import { Codec } from '../../src/durability/persistence.js';

const actions = (n: number) => Array.from({ length: n }, (_, i) => ({
  action: i % 3 === 0 ? 'deleteObject' : 'updateObject',
  body: { objectID: String(i), title: `talk ${i} é 東京 🦄 "quoted" \\ \n`, tags: ['a', i], nested: { deep: [{ x: i / 3 }] }, dropped: undefined, fn: () => i },
}));

const ops: Record<string, { actions: unknown[] } & Record<string, unknown>> = {
  'a batch as the engine logs it': { type: 'batch', indexName: 'talks', actions: actions(1000), at: 1764450000000 },
  'actions first': { actions: actions(101), type: 'batch', indexName: 'i' },
  'actions last, members JSON leaves out before them': { type: 'batch', userID: undefined, indexName: 'i', actions: actions(33) },
  'actions alone': { actions: actions(32) },
  'actions JSON writes as null': { type: 'batch', actions: [undefined, () => 1, Symbol('s'), null, 1, 'x'], indexName: 'i' },
  'no actions': { type: 'batch', actions: [], indexName: 'i' },
  // "__proto__" as a member of its own, as JSON.parse makes it
  'members named as JSON would trip on': { ...JSON.parse('{"__proto__": {"polluted": true}}'), 'actions"': 1, type: 'batch', actions: actions(40), '': '' },
};

describe('a batch text', () => {
  for (const [name, op] of Object.entries(ops)) {
    it(`is JSON.stringify's text end to end, and parses back as it does: ${name}`, async () => {
      const text = batchText(op);
      const whole = JSON.stringify(op);
      expect([...piecesOf(text)].join('')).toBe(whole);
      expect(parseBatchText(text)).toEqual(JSON.parse(whole));
      expect(Object.keys(parseBatchText(text))).toEqual(Object.keys(JSON.parse(whole)));
      const codec = await Codec.create();
      expect(Buffer.from(await codec.encodeOperationPieces(piecesOf(text))).equals(Buffer.from(await codec.encodeOperationText(whole)))).toBe(true);
    });
  }

  it('keeps no piece near the large-object size', () => {
    const text = batchText(ops['a batch as the engine logs it']);
    expect(text.groups.length).toBeGreaterThan(10);
    for (const group of text.groups) expect(group.length).toBeLessThan(64 << 10);
  });

  it('refuses what JSON.stringify refuses, as it does', () => {
    const cyclic: Record<string, unknown> = { objectID: 'c' };
    cyclic.self = cyclic;
    for (const body of [{ objectID: 'b', n: 1n }, cyclic]) {
      const op = { type: 'batch', actions: [...actions(200), { action: 'updateObject', body }] };
      expect(() => JSON.stringify(op)).toThrow(TypeError);
      expect(() => batchText(op)).toThrow(TypeError);
    }
  });
});
