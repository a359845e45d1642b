// The record store of an index whose records are replaced again and again,
// with no snapshot to repack it (an in-memory engine never takes one): it
// used to keep every version of every record it was sent.
import { describe, expect, it } from 'vitest';
import { RecordStore } from '../../src/index/record-store.js';
import { deflate, inflate } from '../../src/util/compression.js';
import { prng } from '../support/random.js';

const version = (i: number, v: number) => ({ objectID: `r${i}`, text: `version ${v} of record ${i}, `.repeat(1 + (i % 5)) });
const RECORDS = 640;

function filled(): { store: RecordStore; fresh: number } {
  const store = new RecordStore();
  for (let i = 0; i < RECORDS; i++) store.push(version(i, 0));
  return { store, fresh: store.packedBytes };
}

function expectLastVersions(store: RecordStore, last: (i: number) => number): void {
  expect(store.size).toBe(RECORDS);
  for (let i = 0; i < RECORDS; i++) expect(store.get(store.idOf(`r${i}`)!), `r${i}`).toEqual(version(i, last(i)));
}

describe('a record store whose records are replaced', () => {
  it('in order, ten times over: holds about the live records, not every version', () => {
    const { store, fresh } = filled();
    for (let v = 1; v <= 10; v++) {
      for (let i = 0; i < RECORDS; i++) {
        store.remove(`r${i}`);
        store.push(version(i, v));
      }
    }
    // the newest versions are a little longer ("10" against "0"), and the last chunk is not packed yet
    expect(store.packedBytes).toBeLessThan(1.2 * fresh);
    expectLastVersions(store, () => 10);
  });

  it('at random: a chunk is packed again once removed records hold half of it, so at most twice the live bytes', async () => {
    const { store, fresh } = filled();
    const random = prng(7);
    const last = new Array<number>(RECORDS).fill(0);
    for (let n = 0; n < 10 * RECORDS; n++) {
      const i = Math.floor(random() * RECORDS);
      store.remove(`r${i}`);
      store.push(version(i, ++last[i]));
    }
    expect(store.packedBytes).toBeLessThan(2.2 * fresh);
    expectLastVersions(store, (i) => last[i]);
    // what the repacked chunks hold is what a snapshot keeps and a restart reads back
    expectLastVersions(await RecordStore.unpack(await store.snapshot()), (i) => last[i]);
  });
});

describe('a deflated chunk', () => {
  it('holds its own bytes only: not a view of a larger buffer that it would keep whole', async () => {
    const text = new TextEncoder().encode(Array.from({ length: 400 }, (_, i) => `record ${i} `).join(''));
    const deflated = await deflate(text);
    expect(deflated.length).toBeLessThan(text.length / 2);
    expect(deflated.buffer.byteLength).toBe(deflated.length);
    expect(await inflate(deflated)).toEqual(text);
  });
});
