// The JSON check of writes to an engine without a log: it refuses exactly
// what JSON.stringify refuses, on the TED talks and on generated values with
// cycles, BigInts, toJSON methods and shared (not circular) references.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assertJson } from '../../src/util/json-check.js';
import { prng as random } from '../support/random.js';

const talks = JSON.parse(readFileSync(new URL('../fixtures/talks.json', import.meta.url), 'utf8'));

/** What JSON.stringify does with a value: its error's type and message, or nothing. */
function stringifyOutcome(value: unknown): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message.split('\n')[0]}`;
  }
}

function checkOutcome(value: unknown): string | undefined {
  try {
    assertJson(value);
    return undefined;
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message.split('\n')[0]}`;
  }
}

/** Values of every kind JSON meets in process, with a cycle, a BigInt or a throwing toJSON now and then. */
function generate(next: () => number, depth: number, seen: object[]): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 9 : 13));
  switch (pick) {
    case 0: return 'text';
    case 1: return next() * 100;
    case 2: return NaN;
    case 3: return null;
    case 4: return undefined;
    case 5: return () => 1;
    case 6: return new Date(0);
    case 7: return next() < 0.3 ? 5n : true;
    case 8: return seen.length && next() < 0.2 ? seen[Math.floor(next() * seen.length)] : Symbol('s');
    case 9: return { toJSON: next() < 0.3 ? () => { throw new Error('toJSON failed'); } : () => ({ replaced: 5n }) };
    case 10: {
      const list: unknown[] = [];
      seen.push(list);
      for (let i = 0; i < 3; i++) list.push(generate(next, depth + 1, seen));
      seen.pop();
      return list;
    }
    default: {
      const object: Record<string, unknown> = {};
      seen.push(object);
      for (let i = 0; i < 3; i++) object[`k${i}`] = generate(next, depth + 1, seen);
      seen.pop();
      return object;
    }
  }
}

describe('the JSON check', () => {
  it('passes every TED talk, alone and as a batch', () => {
    expect(() => assertJson({ type: 'batch', actions: talks.map((body: unknown) => ({ action: 'addObject', body })) })).not.toThrow();
  });

  it('refuses what JSON.stringify refuses, with its error, on 3000 generated values', () => {
    const next = random(5);
    const outcomes = new Set<string | undefined>();
    for (let i = 0; i < 3000; i++) {
      const value = generate(next, 0, []);
      const expected = stringifyOutcome(value);
      expect(checkOutcome(value), JSON.stringify(String(expected))).toBe(expected);
      outcomes.add(expected?.split(':')[0]);
    }
    expect(outcomes).toEqual(new Set([undefined, 'TypeError', 'Error'])); // cycles and BigInts, toJSON failures, and values that pass
  });

  it('a toJSON is given its own key, in objects of any shape and in arrays', () => {
    const byKey = { toJSON: (key: string) => (key === 'bad' || key === '2' ? 5n : key) };
    const values = [
      { good: byKey, other: 1 },
      { first: 1, second: [2], bad: byKey },
      { a: 1, nested: { bad: 'fine', ok: byKey } },
      { a: 1, nested: { x: [1, 2], bad: byKey } },
      [byKey, byKey],
      [1, 2, byKey],
    ];
    for (const value of values) expect(checkOutcome(value), JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? 'n' : v))).toBe(stringifyOutcome(value));
    expect(values.map(checkOutcome).filter(Boolean).length).toBe(3);
  });

  it('a value met twice is not a cycle; a value inside itself is', () => {
    const shared = { a: 1 };
    expect(() => assertJson({ x: shared, y: [shared, shared] })).not.toThrow();
    const loop: Record<string, unknown> = { a: [] };
    (loop.a as unknown[]).push({ back: loop });
    expect(() => assertJson(loop)).toThrow(/circular/);
  });
});
