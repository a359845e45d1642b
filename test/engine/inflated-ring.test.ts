// The ring a record store keeps inflated chunks in, against a model: a
// chunk's view holds its bytes until the ring says it dropped the chunk,
// chunks are dropped oldest first, and what is held never passes the
// capacity.
import { describe, expect, it } from 'vitest';
import { InflatedRing } from '../../src/index/inflated-ring.js';
import { prng } from '../support/random.js';

/** The bytes of chunk `key`: a pattern of its own. */
function bytesOf(key: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (key * 131 + i * 7) & 255;
  return bytes;
}

/** Whether `view` still holds chunk `key`'s bytes (at its ends and middle: views may be megabytes). */
function holds(view: Uint8Array, key: number): boolean {
  const at = view.length === 0 ? [] : [0, view.length >> 1, view.length - 1];
  return at.every((i) => view[i] === ((key * 131 + i * 7) & 255));
}

describe('the ring of inflated chunks', () => {
  const cases = [
    { name: 'one segment', capacity: 16 << 10, largest: 5000 },
    { name: '16 MB, segments doubling up to 4 MB', capacity: 16 << 20, largest: 1500 << 10 },
    { name: '10 MB, which the segments do not fill exactly', capacity: 10 << 20, largest: 1 << 20 },
  ];
  for (const { name, capacity, largest } of cases) {
    it(`${name}: keeps each chunk's bytes until it drops the chunk, oldest first, within its capacity`, () => {
      const held = new Map<number, Uint8Array>(); // key → view, oldest first
      const ring = new InflatedRing(capacity, (key, view) => {
        expect([...held.keys()][0]).toBe(key);
        expect(held.get(key)).toBe(view);
        held.delete(key);
      });
      const next = prng(capacity);
      let dropped = 0;
      let kept = 0;
      for (let key = 0; key < 600; key++) {
        const length = key % 50 === 0 ? 0 : Math.floor(next() * largest);
        const before = held.size;
        const view = ring.keep(key, bytesOf(key, length));
        expect(view).toBeDefined();
        // a chunk of no bytes takes no room: nothing of it is listed, nor ever dropped
        if (length > 0) held.set(key, view!);
        dropped += before + (length > 0 ? 1 : 0) - held.size;
        kept++;
        for (const [k, v] of held) expect(holds(v, k), `chunk ${k} after ${key}`).toBe(true);
        expect([...held.values()].reduce((n, v) => n + v.length, 0)).toBeLessThanOrEqual(capacity);
        expect(ring.allocated).toBeLessThanOrEqual(capacity);
        if (length === 0) expect(view!.length).toBe(0);
      }
      // it went round several times, and then held most of its capacity
      expect(dropped).toBeGreaterThan(kept / 2);
      expect([...held.values()].reduce((n, v) => n + v.length, 0)).toBeGreaterThan(capacity / 3);
    });
  }

  it('drops nothing on its first lap, and then holds all but the room a chunk may leave', () => {
    let held = 0;
    const ring = new InflatedRing(64 << 10, (_key, view) => { held -= view.length; });
    for (let key = 0; key < 400; key++) {
      const view = ring.keep(key, bytesOf(key, 1000));
      held += view!.length;
      if (key < 65) expect(held, `chunk ${key}`).toBe((key + 1) * 1000);
      else expect(held, `chunk ${key}`).toBeGreaterThanOrEqual((64 << 10) - 2000);
    }
  });

  it('keeps nothing larger than its largest segment, nor anything for a chunk of no bytes, and goes on', () => {
    const ring = new InflatedRing(8 << 10, () => {});
    expect(ring.keep(1, bytesOf(1, (8 << 10) + 1))).toBeUndefined();
    expect(ring.keep(2, new Uint8Array(0))!.length).toBe(0);
    const view = ring.keep(3, bytesOf(3, 100));
    expect(view && holds(view, 3)).toBe(true);
    expect(ring.allocated).toBe(8 << 10);
  });

  it('allocates segments only as chunks fill them, doubling from a small one', () => {
    const small = new InflatedRing(64 << 20, () => {});
    small.keep(0, bytesOf(0, 748));
    expect(small.allocated).toBe(64 << 10);
    const ring = new InflatedRing(64 << 20, () => {});
    for (let key = 0; key < 10; key++) ring.keep(key, bytesOf(key, 1 << 20));
    // 10 MB of chunks in segments of 1, 2, 4 and 4 MB, not the 64 MB the capacity allows
    expect(ring.allocated).toBe(11 << 20);
  });
});
