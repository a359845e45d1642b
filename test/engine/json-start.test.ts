// jsonStart: the start of a value's JSON text, serialising only what that
// start needs (the call log keeps 1,000 characters of every body and
// answer). Whatever the value and the limit, it begins exactly as
// JSON.stringify's text does.
import { describe, expect, it, vi } from 'vitest';
import { jsonStart } from '../../src/util/json-start.js';
import { prng } from '../support/random.js';

const TEXTS = ['', 'a', 'giver', 'quote " and \\ backslash', 'line\nbreak\ttab', '\u0000\u001f', 'é ǽ 中文 😀', '\ud800 lone', '</script>'];

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const kind = Math.floor(random() * (depth > 4 ? 4 : 9));
  switch (kind) {
    case 0: return pick(TEXTS) + pick(TEXTS);
    case 1: return pick([0, -0, 1, -1.5, 1e21, 5e-324, Number.MAX_SAFE_INTEGER, NaN, Infinity]);
    case 2: return pick([true, false, null]);
    case 3: return pick([undefined, () => 1, Symbol('s'), new Date(0), new String('boxed'), new Number(7)]);
    case 4: case 5: return Array.from({ length: Math.floor(random() * 6) }, () => randomValue(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 6); i > 0; i--) object[pick(TEXTS) + i] = randomValue(random, depth + 1);
      return object;
    }
  }
}

describe('jsonStart', () => {
  it('begins as JSON.stringify does, for random values and every kind of limit', () => {
    const random = prng(1000);
    for (let n = 0; n < 3000; n++) {
      const value = randomValue(random, 0);
      const full = JSON.stringify(value) ?? '';
      for (const limit of [0, 1, 5, 40, 200, full.length, full.length + 10]) {
        const start = jsonStart(value, limit);
        expect(start.slice(0, limit), `${full} @${limit}`).toBe(full.slice(0, limit));
        // cut at the limit, or the whole text (a caller cuts it)
        expect(start.length <= limit || start === full, `${full} @${limit}: ${start}`).toBe(true);
      }
    }
  });

  it('stops serialising past the limit: a million-record array costs what its first records do', () => {
    let read = 0;
    const records = Array.from({ length: 1_000_000 }, (_, i) => ({ get objectID() { read++; return `r${i}`; } }));
    const start = jsonStart({ requests: records }, 1000);
    expect(start.startsWith('{"requests":[{"objectID":"r0"},{"objectID":"r1"}')).toBe(true);
    expect(read).toBeLessThan(100);
  });

  it('cuts a long string anywhere as its whole text is cut, surrogate pairs and escapes included', () => {
    for (const text of ['😀'.repeat(40), `a${'😀'.repeat(40)}`, '\ud800'.repeat(60), 'é"\\\n'.repeat(30)]) {
      for (const value of [{ text }, [text], { objectID: 'a', nested: { text, after: 1 } }]) {
        const full = JSON.stringify(value);
        for (let limit = 0; limit <= full.length + 1; limit++) expect(jsonStart(value, limit).slice(0, limit), `${full} @${limit}`).toBe(full.slice(0, limit));
      }
    }
  });

  it('serialises a long string only as far as the limit', () => {
    const stringified = vi.spyOn(JSON, 'stringify');
    try {
      const start = jsonStart({ objectID: 'a', body: 'word '.repeat(200_000), other: ['x'.repeat(2000)] }, 1000);
      expect(start).toBe(JSON.stringify({ objectID: 'a', body: 'word '.repeat(200_000) }).slice(0, 1000));
      const longest = Math.max(...stringified.mock.calls.map(([value]) => (typeof value === 'string' ? value.length : 0)));
      expect(longest).toBeLessThanOrEqual(1001);
    } finally {
      stringified.mockRestore();
    }
  });

  it('writes a nested container the room holds most of in one call of the serialiser: the first hit of a page', () => {
    const hit = (i: number) => ({
      objectID: String(i), title: `title ${i}`, body: 'a body of some words '.repeat(10), score: i,
      _highlightResult: { title: { value: `<em>title</em> ${i}`, matchLevel: 'partial', matchedWords: ['title'] } },
    });
    const answer = { hits: Array.from({ length: 10 }, (_, i) => hit(i)), nbHits: 10, page: 0 };
    const stringified = vi.spyOn(JSON, 'stringify');
    try {
      const start = jsonStart(answer, 1000);
      expect(stringified.mock.calls.filter(([value]) => value === answer.hits[0])).toHaveLength(1);
      expect(stringified.mock.calls.length).toBeLessThan(15);
      stringified.mockRestore();
      expect(start).toBe(JSON.stringify(answer).slice(0, 1000));
    } finally {
      stringified.mockRestore();
    }
  });

  it('walks a nested container of many members without counting it first: each member read once', () => {
    let read = 0;
    const hit: Record<string, string> = {};
    for (let i = 0; i < 20; i++) Object.defineProperty(hit, `attribute${i}`, { get: () => { read++; return 'x'.repeat(60); }, enumerable: true });
    const start = jsonStart({ hits: [hit, { objectID: 'b' }] }, 1000);
    expect(start).toBe(JSON.stringify({ hits: [hit] }).slice(0, 1000));
    read = 0;
    jsonStart({ hits: [hit, { objectID: 'b' }] }, 1000);
    expect(read).toBeLessThanOrEqual(14);
  });

  it('throws where JSON.stringify throws on what it reads (a BigInt)', () => {
    expect(() => jsonStart({ n: 1n }, 1000)).toThrow();
  });

  it('writes a small value with a cycle until the limit, as a large one', () => {
    const small: Record<string, unknown> = { objectID: 'a' };
    small.self = small;
    const start = jsonStart(small, 120);
    expect(start.startsWith('{"objectID":"a","self":{"objectID":"a","self":{')).toBe(true);
    expect(start.length).toBeGreaterThanOrEqual(120);
  });
});
