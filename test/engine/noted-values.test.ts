// Values noted per record id as records are saved (src/index/noted-values.ts),
// against a real record store: a note is read back as noted (undefined too,
// which is a note, not its absence) until deleted or cleared, whatever order
// ids come in; notes of records no longer live are trimmed once they
// outnumber twice the live records (and a slack of 1,024), and live ones
// stay.
import { describe, expect, it } from 'vitest';
import { NotedValues } from '../../src/index/noted-values.js';
import { RecordStore } from '../../src/index/record-store.js';
import { prng } from '../support/random.js';

describe('noted values', () => {
  it('read back as a Map of the same notes would, ids in any order', () => {
    const random = prng(7);
    const store = new RecordStore();
    const notes = new NotedValues<string | undefined>();
    const model = new Map<number, string | undefined>();
    for (let step = 0; step < 20_000; step++) {
      // fewer than 1,024 ids: the store holds no live record, and past that slack every note would be trimmed
      const id = 2_000 + Math.floor(random() * 900) - (step < 50 ? step * 30 : 0);
      const roll = random();
      if (roll < 0.55) {
        const value = random() < 0.2 ? undefined : `v${step}`;
        notes.set(store, id, value);
        model.set(id, value);
      } else if (roll < 0.95) {
        notes.delete(id);
        model.delete(id);
      } else if (roll < 0.951) {
        notes.clear();
        model.clear();
      }
      expect(notes.size).toBe(model.size);
      expect(notes.has(id)).toBe(model.has(id));
      expect(notes.get(id)).toBe(model.get(id));
    }
    for (let id = 0; id < 3_000; id++) {
      expect(notes.has(id), `id ${id}`).toBe(model.has(id));
      expect(notes.get(id), `id ${id}`).toBe(model.get(id));
    }
  });

  it('are noted again from afresh once every note is read', () => {
    const store = new RecordStore();
    const notes = new NotedValues<number[]>();
    for (let id = 0; id < 100; id++) notes.set(store, id, [id]);
    for (let id = 0; id < 100; id++) notes.delete(id);
    expect(notes.size).toBe(0);
    notes.set(store, 1_000_000, [1]);
    notes.set(store, 3, [3]);
    expect([notes.get(1_000_000), notes.get(3), notes.get(0), notes.size]).toEqual([[1], [3], undefined, 2]);
  });

  it('of records no longer live are let go past twice the live records and the slack; live ones stay', () => {
    const store = new RecordStore();
    const notes = new NotedValues<string>();
    for (let i = 0; i < 100; i++) {
      const id = store.push({ objectID: `live${i}` });
      notes.set(store, id, `live${i}`);
    }
    // records saved and replaced, their notes never read: their ids are no longer live
    for (let i = 0; i < 5_000; i++) {
      const id = store.push({ objectID: `gone${i % 10}` });
      notes.set(store, id, `gone${i}`);
      if (i % 10 === 9) for (let g = 0; g < 10; g++) store.remove(`gone${g}`);
    }
    expect(notes.size).toBeLessThanOrEqual(2 * store.size + 1024 + 1);
    for (let id = 0; id < 100; id++) expect(notes.get(id)).toBe(`live${id}`);
  });
});
