// What a snapshot can hold, checked on every write: values nested up to
// MAX_NESTING levels, finite numbers, Unicode text (names included); the
// sentence says what and where; what is not JSON at all is the JSON check's.
import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { assertJson } from '../../src/util/json-check.js';
import { assertStorable, bodyCheckMark, MAX_NESTING, unstorable, withCheckedBodies } from '../../src/index/storable.js';

/** `levels` levels of objects and arrays, alternating, around a string. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('what a snapshot can hold', () => {
  it(`values nested ${MAX_NESTING} levels, as records and wrapped in an operation; ${MAX_NESTING + 1} are refused, saying where`, () => {
    const deepest = nested(MAX_NESTING);
    expect(unstorable(deepest)).toBeUndefined();
    expect(() => encode(deepest)).not.toThrow(); // with room left: a snapshot holds records a few levels down
    const operation = { type: 'batch', actions: [{ action: 'addObject', body: deepest }] };
    expect(() => assertStorable(operation)).not.toThrow();

    const tooDeep = { objectID: 'x', ok: 1, deep: nested(MAX_NESTING) };
    expect(unstorable(tooDeep)).toMatch(new RegExp(`^attribute "deep\\.a\\[0\\]\\.a\\[0\\][^"]*\\.a" is nested more than ${MAX_NESTING} levels deep`));
    expect(unstorable(nested(MAX_NESTING + 1))).toMatch(/^attribute "\[0\]\.a\[0\][^"]*\.a" is nested/);
    expect(() => assertStorable({ type: 'batch', actions: [{ action: 'addObject', body: tooDeep }] }))
      .toThrow(/^The write cannot be stored: "actions\[0\]\.body\.deep\.a\[0\][^"]*" is nested more than/);
    expect(() => assertStorable({ type: 'settings', settings: { userData: nested(1000) } })).toThrow(/nested more than/);
  });

  it('refuses numbers that are not finite, wherever they are, and holds every finite one', () => {
    for (const n of [Infinity, -Infinity, NaN]) {
      expect(unstorable({ list: [1, { n }] })).toBe(`attribute "list[1].n" is ${n}: only finite numbers can be stored`);
    }
    expect(unstorable({ n: [-0, 0, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 2, 0.1 + 0.2] })).toBeUndefined();
  });

  it('refuses lone surrogates in text and in names; surrogate pairs are text', () => {
    expect(unstorable({ s: 'ok \ud83d\ude00 \u0000 \uffff' })).toBeUndefined();
    expect(unstorable({ s: ['fine', 'a\ud800b'] })).toBe('attribute "s[1]" holds a lone surrogate (U+D800), which is not Unicode text');
    expect(unstorable({ s: 'x'.repeat(300) + '\udfff' })).toMatch(/lone surrogate \(U\+DFFF\)/);
    expect(unstorable({ a: { 'k\udc00': 1 } })).toBe('attribute "a.k\\udc00" has a name that holds a lone surrogate (U+DC00), which is not Unicode text');
    expect(() => assertStorable({ type: 'synonyms', save: [{ synonyms: ['\ud800'] }] })).toThrow('"save[0].synonyms[0]" holds a lone surrogate');
  });

  it('checks a batch whose bodies were checked as it was read beside them: its own members and its actions\' are still checked', () => {
    const badBody = { objectID: 'b', title: 'a\ud800' };
    const batch = () => ({ type: 'batch', indexName: 'i', actions: [{ action: 'addObject', body: badBody }, { action: 'deleteObject', objectID: 'ok' }] as object[] });
    expect(() => assertStorable(batch())).toThrow('"actions[0].body.title" holds a lone surrogate');
    // marked: the API read each body through asRecord or checkPartial, which named the record; the walk skips bodies
    expect(() => assertStorable(withCheckedBodies(batch()))).not.toThrow();
    const badID = batch();
    badID.actions[1] = { action: 'deleteObject', objectID: 'x\udc00' };
    expect(() => assertStorable(withCheckedBodies(badID))).toThrow('"actions[1].objectID" holds a lone surrogate (U+DC00)');
    expect(() => assertStorable(withCheckedBodies({ ...batch(), userID: '\ud801' }))).toThrow('"userID" holds a lone surrogate (U+D801)');
    expect(() => assertStorable(withCheckedBodies({ ...batch(), at: Infinity }))).toThrow('"at" is Infinity');
  });

  it('leaves what is not JSON (a cycle reads as too deep) to the JSON check', () => {
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    expect(unstorable(cyclic)).toBeUndefined();
    expect(unstorable({ n: Infinity, big: 1n })).toBeUndefined();
  });

  it('leaves out of the JSON check the actions of a batch whose bodies were found to be JSON as it was read, and only those', () => {
    const notJson = { objectID: 'b', n: 1n };
    const batch = () => ({ type: 'batch', indexName: 'i', actions: [{ action: 'addObject', body: notJson }] as object[] });
    const logged = (operation: { actions: object[] }) => ({ ...operation, at: 1 }); // the log's copy, stamped
    expect(() => assertJson(logged(batch()))).toThrow('Do not know how to serialize a BigInt');
    // the API checked each body with unstorable as it read them, from the mark on: none was found not to be JSON
    expect(() => assertJson(logged(withCheckedBodies(batch(), bodyCheckMark())))).not.toThrow();
    expect(() => assertJson(logged(withCheckedBodies(batch())))).toThrow('serialize a BigInt'); // no mark: not vouched for
    const mark = bodyCheckMark();
    expect(unstorable({ objectID: 'c', n: 2n })).toBeUndefined(); // not JSON: left to the JSON check
    expect(() => assertJson(logged(withCheckedBodies(batch(), mark)))).toThrow('serialize a BigInt');
    // what is beside the actions is checked still
    expect(() => assertJson({ ...withCheckedBodies(batch(), bodyCheckMark()), userID: 1n })).toThrow('serialize a BigInt');
  });
});
