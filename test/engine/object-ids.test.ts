// objectID → record id: the open-addressing table against a Map under a long
// run of adds, deletes and re-adds, and the record store that uses it, with
// records read back from a snapshot.
import { readFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ObjectIdTable } from '../../src/index/object-id-table.js';
import { CHUNK_RECORDS, RecordStore } from '../../src/index/record-store.js';
import type { SearchRecord } from '../../src/index/records.js';
import { prng as random } from '../support/random.js';

// objectIDs as an application might make them: e-mail addresses (unique in this file)
const contacts: SearchRecord[] = JSON.parse(readFileSync(new URL('../fixtures/contacts.json', import.meta.url), 'utf8'))
  .map((c: Record<string, string>) => ({ ...c, objectID: c.email }));

describe('objectID table', () => {
  it('answers as a Map does through adds, deletes and re-adds', () => {
    const names: string[] = []; // record id → objectID, like the store
    const table = new ObjectIdTable((id) => names[id]);
    const model = new Map<string, number>();
    const next = random(7);
    const pool = [...contacts.map((c) => c.objectID), ...Array.from({ length: 3000 }, (_, i) => `${i}`), 'é', '', '😀 id'];
    for (let step = 0; step < 40000; step++) {
      const objectID = pool[Math.floor(next() * pool.length)];
      const current = model.get(objectID);
      if (current !== undefined && next() < 0.5) {
        expect(table.delete(objectID)).toBe(current);
        model.delete(objectID);
      } else if (current === undefined) {
        names.push(objectID);
        table.add(objectID, names.length - 1);
        model.set(objectID, names.length - 1);
      }
      if (step % 997 === 0) for (const id of pool) expect(table.get(id), id).toBe(model.get(id));
    }
    expect(table.size).toBe(model.size);
    for (const id of pool) expect(table.get(id)).toBe(model.get(id));
    expect(table.delete('never added')).toBeUndefined();
  });

  it('reads no objectID to rebuild, and only the one whose hash matches to find one', () => {
    const names = Array.from({ length: 20000 }, (_, i) => `${i}`);
    let reads = 0;
    const table = new ObjectIdTable((id) => { reads++; return names[id]; });
    names.forEach((objectID, id) => table.add(objectID, id)); // rebuilt a dozen times on the way
    expect(reads).toBe(0);
    for (const objectID of names) table.get(objectID);
    expect(reads).toBe(names.length);
    for (let i = 0; i < 1000; i++) table.get(`absent ${i}`);
    expect(reads).toBe(names.length);
  });
});

describe('record store ids', () => {
  it('finds records by objectID, new or read from a snapshot, and forgets removed ones', async () => {
    const store = new RecordStore();
    for (const record of contacts) store.push(record);
    const removed = contacts.filter((_, i) => i % 5 === 0).map((c) => c.objectID);
    for (const objectID of removed) expect(store.remove(objectID)).toBe(contacts.findIndex((c) => c.objectID === objectID));
    const reopened = await RecordStore.unpack(await store.snapshot());
    for (const s of [store, reopened]) {
      expect(s.size).toBe(contacts.length - removed.length);
      contacts.forEach((record, id) => {
        const live = id % 5 !== 0;
        expect(s.idOf(record.objectID)).toBe(live ? id : undefined);
        expect(s.objectIDOf(id)).toBe(live ? record.objectID : undefined);
        if (live) expect(s.get(id)).toEqual(record);
      });
    }
    const again = reopened.push({ ...contacts[0] });
    // an empty objectID is a record like any other, through a snapshot too
    const blank = store.push({ objectID: '', name: 'blank' });
    const reread = await RecordStore.unpack(await store.snapshot());
    expect(reread.idOf('')).toBe(blank);
    expect(reread.objectIDOf(blank)).toBe('');
    expect(reread.objectIDOf(blank + 1)).toBeUndefined();
    expect(reread.get(blank)).toEqual({ objectID: '', name: 'blank' });
    expect(reread.remove('')).toBe(blank);
    expect(reread.idOf('')).toBeUndefined();
    expect(reread.objectIDOf(blank)).toBeUndefined();
    expect(reopened.idOf(contacts[0].objectID)).toBe(again);
    expect(reopened.remove(contacts[1].objectID)).toBe(1);
    expect(reopened.idOf(contacts[1].objectID)).toBeUndefined();
    expect(reopened.size).toBe(contacts.length - removed.length);
  });
});

describe('record store chunks', () => {
  /** Enough records for several chunks, some removed on both sides of chunk boundaries. */
  function manyRecords(): { store: RecordStore; records: SearchRecord[]; removed: Set<number> } {
    const store = new RecordStore();
    const records = Array.from({ length: 3 * 512 + 77 }, (_, i) => ({ ...contacts[i % contacts.length], objectID: `${i}`, n: i }));
    for (const record of records) store.push(record);
    const removed = new Set([0, 511, 512, 1023, 1024, 1200, records.length - 1]);
    for (const id of removed) store.remove(`${id}`);
    return { store, records, removed };
  }

  it('reads every record back from a snapshot of several chunks, in any order', async () => {
    const { store, records, removed } = manyRecords();
    const packed = await store.snapshot();
    expect(packed.chunkRecords).toBe(CHUNK_RECORDS);
    expect(packed.chunks!.length).toBe(Math.ceil(records.length / CHUNK_RECORDS));
    const reopened = await RecordStore.unpack(packed);
    const order = records.map((_, id) => id);
    const next = random(11);
    for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(next() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
    for (const id of order) expect(reopened.get(id), `record ${id}`).toEqual(removed.has(id) ? undefined : records[id]);
    expect(reopened.size).toBe(records.length - removed.size);
  });

  it('refuses chunks that do not cover the record ids, and end offsets that are not one per record id', async () => {
    const packed = await manyRecords().store.snapshot();
    await expect(RecordStore.unpack({ ...packed, chunks: packed.chunks!.slice(0, 3) })).rejects.toThrow(/chunks/);
    await expect(RecordStore.unpack({ ...packed, chunkRecords: 0 })).rejects.toThrow(/chunks/);
    const longer = new Uint8Array(packed.ends.length + 4);
    longer.set(packed.ends);
    await expect(RecordStore.unpack({ ...packed, ends: longer })).rejects.toThrow(/end offset/);
  });

  it('keeps copies of its chunks, not views of the snapshot it was read from', async () => {
    const { store, records, removed } = manyRecords();
    const packed = await store.snapshot();
    // as MessagePack decodes them: views into one buffer holding the whole snapshot
    const file = new Uint8Array(packed.chunks!.reduce((n, c) => n + c.length, 0) + 100);
    let at = 50;
    const views = packed.chunks!.map((chunk) => { file.set(chunk, at); at += chunk.length; return file.subarray(at - chunk.length, at); });
    const reopened = await RecordStore.unpack({ ...packed, chunks: views });
    file.fill(0); // the snapshot's buffer reused or gone
    records.forEach((record, id) => expect(reopened.get(id)).toEqual(removed.has(id) ? undefined : record));
  });
});

describe('record store packing', () => {
  it('answers as a Map does through pushes, removes, snapshots and reopenings', async () => {
    let store = new RecordStore();
    const model = new Map<number, SearchRecord>(); // record id → record, live ones
    const next = random(23);
    for (let step = 0; step < 6000; step++) {
      const roll = next();
      if (roll < 0.7 || model.size === 0) {
        const record = { ...contacts[step % contacts.length], objectID: `r${step}`, step, tags: [step % 7, { nested: `${step}` }] };
        const id = store.push(record);
        model.set(id, structuredClone(record));
      } else if (roll < 0.95) {
        const ids = [...model.keys()];
        const id = ids[Math.floor(next() * ids.length)];
        expect(store.remove(model.get(id)!.objectID)).toBe(id);
        model.delete(id);
      } else if (roll < 0.99) {
        store = await RecordStore.unpack(await store.snapshot());
      } else {
        await store.snapshot();
      }
      if (step % 1499 === 0 || step === 5999) {
        expect([...store.entries()]).toEqual([...model.entries()]);
        for (let id = 0; id < store.length; id++) {
          expect(store.get(id), `record ${id}`).toEqual(model.get(id));
          expect(store.objectIDOf(id)).toBe(model.get(id)?.objectID);
        }
        expect(store.size).toBe(model.size);
      }
    }
  });

  it('takes the chunks no write touched as they are into the next snapshot', async () => {
    const store = new RecordStore();
    for (let i = 0; i < 4 * CHUNK_RECORDS + 10; i++) store.push({ objectID: `${i}`, i });
    const first = await store.snapshot();
    store.remove(`${CHUNK_RECORDS + 5}`); // chunk 1
    store.push({ objectID: 'new', i: -1 }); // the last chunk
    const second = await store.snapshot();
    expect(second.chunkRecords).toBe(CHUNK_RECORDS);
    expect(second.chunks!.length).toBe(5);
    expect(second.chunks!.map((chunk, k) => chunk === first.chunks![k])).toEqual([true, false, true, true, false]);
    const reopened = await RecordStore.unpack(second);
    expect(reopened.idOf(`${CHUNK_RECORDS + 5}`)).toBeUndefined();
    expect(reopened.get(reopened.idOf('new')!)).toEqual({ objectID: 'new', i: -1 });
    expect(reopened.get(reopened.idOf(`${CHUNK_RECORDS + 6}`)!)).toEqual({ objectID: `${CHUNK_RECORDS + 6}`, i: CHUNK_RECORDS + 6 });
    // a reopened store's chunks go on as they were read
    expect((await reopened.snapshot()).chunks!.every((chunk, k) => inflateRawSync(chunk).equals(inflateRawSync(second.chunks![k])))).toBe(true);
  });

  it('reads any record of more chunks than it keeps inflated, before and after a restart', async () => {
    const budget = { inflatedBytes: 16 << 10 }; // a few chunks' worth
    const store = new RecordStore(budget);
    const count = 64 * 48 + 3;
    for (let i = 0; i < count; i++) store.push({ objectID: `${i}`, i, text: `record ${i} `.repeat(8) });
    const reopened = await RecordStore.unpack(await store.snapshot(), budget);
    const next = random(5);
    for (const s of [store, reopened]) {
      for (let n = 0; n < 3000; n++) {
        const id = Math.floor(next() * count);
        expect(s.get(id)).toEqual({ objectID: `${id}`, i: id, text: `record ${id} `.repeat(8) });
      }
      expect([...s.entries()].length).toBe(count);
    }
  });

  it('scans every record while reads between two records take the place of the chunk scanned in the ring', async () => {
    const budget = { inflatedBytes: 4 << 10 }; // about one chunk
    const store = new RecordStore(budget);
    const count = 250 * CHUNK_RECORDS; // more than the records kept decoded
    const recordOf = (id: number) => ({ objectID: `${id}`, i: id, text: `record ${id} `.repeat(20) });
    for (let id = 0; id < count; id++) store.push(recordOf(id));
    const reopened = await RecordStore.unpack(await store.snapshot(), budget);
    const next = random(9);
    let scanned = 0;
    for (const [id, record] of reopened.entries()) {
      expect(record).toEqual(recordOf(id));
      // two records of another chunk: read again, the chunk is kept, where the one scanned was
      const first = Math.floor(next() * (count / CHUNK_RECORDS)) * CHUNK_RECORDS;
      for (const other of [first + (id % 7), first + 8 + (id % 5)]) expect(reopened.get(other)).toEqual(recordOf(other));
      scanned++;
    }
    expect(scanned).toBe(count);
  });

  it('goes on with the chunk size of the snapshot it was read from', async () => {
    const store = new RecordStore();
    for (let i = 0; i < 1500; i++) store.push({ objectID: `${i}`, i });
    const packed = await store.snapshot();
    // the same records in chunks of 512, as snapshots were written before smaller chunks
    const whole = Buffer.concat(packed.chunks!.map((chunk) => inflateRawSync(chunk)));
    const ends = new Uint32Array(packed.ends.slice().buffer);
    const chunks = [0, 512, 1024].map((first) => deflateRawSync(whole.subarray(first === 0 ? 0 : ends[first - 1], ends[Math.min(first + 512, 1500) - 1])));
    const reopened = await RecordStore.unpack({ ...packed, chunks, chunkRecords: 512 });
    reopened.remove('700');
    reopened.push({ objectID: 'new', i: -1 });
    const again = await reopened.snapshot();
    expect(again.chunkRecords).toBe(512);
    expect(again.chunks!.map((chunk, k) => Buffer.from(chunk).equals(chunks[k]))).toEqual([true, false, false]);
    const last = await RecordStore.unpack(again);
    for (let i = 0; i < 1500; i++) expect(last.get(i)).toEqual(i === 700 ? undefined : { objectID: `${i}`, i });
    expect(last.get(last.idOf('new')!)).toEqual({ objectID: 'new', i: -1 });
  });
});
