// The record store of an index whose records are replaced again and again,
// with no snapshot to repack it (an in-memory engine never takes one): it
// used to keep every version of every record it was sent.
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, CHUNK_RECORDS, PACK_SLICE_BYTES, RecordStore, chunkRecordsFor } from '../../src/index/record-store.js';
import { deflate, inflate, loadSyncZlib } from '../../src/util/compression.js';
import { prng } from '../support/random.js';

const version = (i: number, v: number) => ({ objectID: `r${i}`, text: `version ${v} of record ${i}, `.repeat(1 + (i % 5)) });
const RECORDS = 640;

/** Options of a store that packs each chunk as it fills, as one given its records' texts does. */
const PACKED_AS_FILLED = { unpackedBytes: 0 };

function filled(): { store: RecordStore; fresh: number } {
  const store = new RecordStore(PACKED_AS_FILLED);
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

  it('reads each record as last written, whatever was read before it (records kept decoded included)', () => {
    const { store } = filled();
    const random = prng(11);
    const last = new Array<number>(RECORDS).fill(0);
    for (let step = 0; step < 6000; step++) {
      const i = Math.floor(random() * RECORDS);
      if (random() < 0.2) {
        store.remove(`r${i}`);
        store.push(version(i, ++last[i]));
      } else {
        expect(store.get(store.idOf(`r${i}`)!), `step ${step}`).toEqual(version(i, last[i]));
      }
    }
    // a removed record reads as nothing, even just after it was read
    const id = store.idOf('r3')!;
    expect(store.get(id)).toEqual(version(3, last[3]));
    store.remove('r3');
    expect(store.get(id)).toBeUndefined();
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

describe('records kept decoded', () => {
  it('a small one from its first read, a large one (a long document) from its second', () => {
    const store = new RecordStore(PACKED_AS_FILLED);
    const long = (i: number) => ({ objectID: `long${i}`, body: `word${i} `.repeat(600) });
    for (let i = 0; i < RECORDS; i++) store.push(i % 2 === 0 ? version(i, 0) : long(i));
    // the first chunk is packed: its records are decoded as they are read
    const small = store.idOf('r0')!, large = store.idOf('long1')!;
    expect(store.get(small)).toBe(store.get(small));
    const first = store.get(large), second = store.get(large);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(store.get(large)).toBe(second);
    expect(second).toEqual(long(1));
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

describe('how records are packed', () => {
  /** Records whose keys and text JSON must carry as data: "__proto__", every script, escapes, numbers at the edges. */
  const awkward = (i: number) => JSON.parse(JSON.stringify({
    objectID: `a${i}`,
    text: `æ ǽ Ǽ ΑΩ Ж 漢字 한글 😀 \u2028 "quoted" \\ ${i}`,
    nested: { deep: [[{ n: i }]], empty: {}, list: [] },
    numbers: [0, -1.5, 1e308, 5e-324, Number.MAX_SAFE_INTEGER],
  }).replace('"nested"', '"__proto__":{"polluted":true},"nested"')) as { objectID: string };

  it('as JSON text: every key is data, and a snapshot reads back each record as it was written', async () => {
    const store = new RecordStore();
    for (let i = 0; i < 200; i++) store.push(awkward(i)); // three chunks packed, the last one not yet
    const snapshot = await store.snapshot();
    expect(snapshot.format).toBe('json');
    const text = new TextDecoder().decode(await inflate(snapshot.chunks![0]));
    expect(text.startsWith(JSON.stringify(awkward(0)))).toBe(true);
    const reopened = await RecordStore.unpack(snapshot);
    for (let i = 0; i < 200; i++) {
      const record = reopened.get(reopened.idOf(`a${i}`)!)!;
      expect(JSON.stringify(record)).toBe(JSON.stringify(awkward(i)));
      expect(Object.hasOwn(record, '__proto__')).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('of large records holds fewer a chunk, so that a record read inflates less; a snapshot keeps the size', async () => {
    // ~7 KB records (documents of ~1,000 words): 16 a chunk would make chunks of ~112 KB
    const large = (i: number) => ({ objectID: `l${i}`, body: `word${i % 13} and some text of a long document `.repeat(150) });
    const store = new RecordStore({ unpackedBytes: 0 });
    for (let i = 0; i < 100; i++) store.push(large(i), new TextEncoder().encode(JSON.stringify(large(i))));
    const snapshot = await store.snapshot();
    expect(snapshot.chunkRecords).toBe(chunkRecordsFor(JSON.stringify(large(0)).length));
    expect(snapshot.chunkRecords).toBeLessThan(CHUNK_RECORDS);
    expect(snapshot.chunkRecords * JSON.stringify(large(0)).length).toBeLessThanOrEqual(CHUNK_BYTES);
    const reopened = await RecordStore.unpack(snapshot);
    for (const s of [store, reopened]) for (let i = 0; i < 100; i++) expect(s.get(s.idOf(`l${i}`)!), `l${i}`).toEqual(large(i));
    // records given as objects only are left unpacked, then packed in slices, in chunks of the same size
    const unpacked = new RecordStore();
    for (let i = 0; i < 100; i++) unpacked.push(large(i));
    expect(unpacked.bytesToPack).toBeGreaterThan(0);
    while (unpacked.packSlice());
    expect(unpacked.bytesToPack).toBe(0);
    for (let i = 0; i < 100; i++) expect(unpacked.get(unpacked.idOf(`l${i}`)!), `l${i}`).toEqual(large(i));
    expect((await unpacked.snapshot()).chunkRecords).toBe(snapshot.chunkRecords);
    // records of a few hundred bytes keep 16 a chunk
    const small = new RecordStore();
    for (let i = 0; i < 40; i++) small.push(version(i, 0));
    expect((await small.snapshot()).chunkRecords).toBe(CHUNK_RECORDS);
  });

  it('a snapshot naming a format it does not know is refused', async () => {
    const store = new RecordStore();
    store.push({ objectID: 'x' });
    const snapshot = { ...(await store.snapshot()), format: 'cbor' as 'json' };
    await expect(RecordStore.unpack(snapshot)).rejects.toThrow(/unknown record format cbor/);
  });
});

describe('deflating packed chunks', () => {
  const record = (i: number) => ({ objectID: `d${i}`, text: `record ${i} of the deflating test, `.repeat(1 + (i % 7)), n: i });
  const COUNT = 1600;

  function expectEveryRecord(store: RecordStore): void {
    for (let i = 0; i < COUNT; i++) expect(JSON.stringify(store.get(store.idOf(`d${i}`)!)), `d${i}`).toBe(JSON.stringify(record(i)));
  }

  it('is left to a snapshot while the store holds less than its budget inflated', async () => {
    await loadSyncZlib();
    const store = new RecordStore(PACKED_AS_FILLED);
    for (let i = 0; i < COUNT; i++) store.push(record(i));
    // every packed chunk waits: an index never snapshotted never pays for deflating them
    expect(store.bytesToDeflate).toBe(store.packedBytes);
    expectEveryRecord(store);
    const snapshot = await store.snapshot();
    expect(store.bytesToDeflate).toBe(0);
    expectEveryRecord(store);
    expectEveryRecord(await RecordStore.unpack(snapshot));
  });

  it('starts past the budget, oldest first, and reads the same bytes before, during and after', async () => {
    await loadSyncZlib();
    const budget = 16 << 10;
    const store = new RecordStore({ inflatedBytes: budget, ...PACKED_AS_FILLED });
    for (let i = 0; i < COUNT; i++) {
      store.push(record(i));
      expect(store.inflatedBytesHeld).toBeLessThanOrEqual(budget);
    }
    expect(store.packedBytes).toBeGreaterThan(10 * budget);
    expectEveryRecord(store); // some chunks deflating on the thread pool now
    const snapshot = await store.snapshot();
    // most read from their deflated bytes, twice: kept in the ring from the second read on, within the budget
    for (let pass = 0; pass < 2; pass++) expectEveryRecord(store);
    expect(store.inflatedBytesHeld).toBeLessThanOrEqual(budget);
    expectEveryRecord(await RecordStore.unpack(snapshot));
    // written again once the ring has grown to the budget: each chunk deflates as it is packed
    for (let i = 0; i < COUNT; i++) store.remove(`d${i}`);
    for (let i = 0; i < COUNT; i++) store.push(record(i));
    expect(store.bytesToDeflate).toBe(0);
    for (let pass = 0; pass < 2; pass++) {
      expectEveryRecord(store);
      expect(store.inflatedBytesHeld).toBeLessThanOrEqual(budget);
    }
  });
});

describe('chunks waiting to deflate', () => {
  it('an index rewritten again and again under its budget reads its last versions, nothing deflated until a snapshot', async () => {
    await loadSyncZlib();
    const { store } = filled();
    for (let v = 1; v <= 60; v++) {
      for (let i = 0; i < RECORDS; i++) {
        store.remove(`r${i}`);
        store.push(version(i, v));
      }
    }
    expect(store.bytesToDeflate).toBeGreaterThan(0);
    expectLastVersions(store, () => 60);
    const snapshot = await store.snapshot();
    expect(store.bytesToDeflate).toBe(0);
    expectLastVersions(await RecordStore.unpack(snapshot), () => 60);
  });
});

describe('records given with their logged bytes', () => {
  it('keep no view of a batch\'s bytes once their own are copied, and read back the same', () => {
    const store = new RecordStore();
    const records = Array.from({ length: 20 }, (_, i) => ({ objectID: `t${i}`, title: `logged record ${i} ✓` }));
    // one buffer for the whole batch, as a large batch read back from the log is (batch-text.ts)
    const texts = records.map((r) => new TextEncoder().encode(JSON.stringify(r)));
    const batch = new Uint8Array(texts.reduce((n, t) => n + t.length, 0) + 100_000);
    let at = 0;
    const views = texts.map((t) => { batch.set(t, at); return batch.subarray(at, (at += t.length)); });
    records.forEach((r, i) => store.push(r, views[i])); // a chunk of 16 packed (their texts given), 4 records waiting
    expect(store.waitingTextBuffers).toBe(batch.byteLength);
    store.ownWaitingTexts();
    expect(store.waitingTextBuffers).toBe(texts.slice(16).reduce((n, t) => n + t.length, 0));
    batch.fill(0x20); // the batch's bytes reused: the store's must not change with them
    for (let i = 20; i < 32; i++) store.push({ objectID: `t${i}` }); // the second chunk fills, some of its texts not given: left unpacked
    expect(store.waitingTextBuffers).toBe(0);
    expect(store.bytesToPack).toBeGreaterThan(0);
    for (const r of records) expect(store.get(store.idOf(r.objectID)!)).toEqual(r);
  });

  it('copies the texts waiting into one array, reused from chunk to chunk, and packs them as they were', async () => {
    const store = new RecordStore();
    const waiting = () => (store as unknown as { openTexts: Array<Uint8Array | undefined> }).openTexts.filter((t) => t !== undefined);
    const records = Array.from({ length: 40 }, (_, i) => ({ objectID: `w${i}`, title: `waiting record ${i}` }));
    const batchOf = (slice: typeof records) => {
      const texts = slice.map((r) => new TextEncoder().encode(JSON.stringify(r)));
      const batch = new Uint8Array(texts.reduce((n, t) => n + t.length, 0) + 1000);
      let at = 0;
      return texts.map((t) => { batch.set(t, at); return batch.subarray(at, (at += t.length)); });
    };
    const pushAll = (from: number, to: number) => {
      const texts = batchOf(records.slice(from, to));
      records.slice(from, to).forEach((r, i) => store.push(r, texts[i]));
      return texts;
    };
    // a batch applied in slices: each slice leaves texts to copy, beside those an earlier slice copied
    const first = pushAll(0, 6);
    store.ownWaitingTexts();
    const copies = waiting()[0].buffer;
    expect(waiting().every((t) => t.buffer === copies)).toBe(true);
    new Uint8Array(first[0].buffer).fill(0x20); // the batch's bytes reused: the copies must not change with them
    pushAll(6, 10);
    store.ownWaitingTexts(); // the array grows, the copies made move with it
    expect(new Set(waiting().map((t) => t.buffer)).size).toBe(1);
    expect(waiting().map((t) => new TextDecoder().decode(t))).toEqual(records.slice(0, 10).map((r) => JSON.stringify(r)));
    const grown = waiting()[0].buffer;
    pushAll(10, 20); // the chunk fills, packed from the texts; 4 wait in the next one
    store.ownWaitingTexts();
    expect(waiting()).toHaveLength(4);
    expect(waiting().every((t) => t.buffer === grown)).toBe(true); // the array is reused
    pushAll(20, 40);
    const reopened = await RecordStore.unpack(await store.snapshot());
    for (const r of records) expect(reopened.get(reopened.idOf(r.objectID)!)).toEqual(r);
  });
});

describe('records that came as objects only (an engine in memory)', () => {
  const record = (i: number) => ({ objectID: `o${i}`, title: `record ${i} held as an object`, tags: [`t${i % 7}`], n: i / 3 });
  const COUNT = 1600;

  function expectEveryRecord(store: RecordStore): void {
    for (let i = 0; i < COUNT; i++) expect(JSON.stringify(store.get(store.idOf(`o${i}`)!)), `o${i}`).toBe(JSON.stringify(record(i)));
  }

  /** Resolves once the store has packed every chunk it left unpacked (fails the test after `ms`). */
  async function packed(store: RecordStore, ms = 10_000): Promise<void> {
    const until = performance.now() + ms;
    while (store.bytesToPack > 0) {
      if (performance.now() > until) throw new Error(`${store.bytesToPack} bytes still to pack after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('are left unpacked as they come, and packed once writes pause: read the same before and after', async () => {
    const store = new RecordStore();
    for (let i = 0; i < COUNT; i++) store.push(record(i));
    expect(store.packedBytes).toBe(0);
    expect(store.bytesToPack).toBeGreaterThan(COUNT * JSON.stringify(record(0)).length * 0.8);
    expectEveryRecord(store);
    await packed(store);
    expect(store.packedBytes).toBeGreaterThan(0);
    expectEveryRecord(store);
    expectEveryRecord(await RecordStore.unpack(await store.snapshot()));
  });

  it('are packed, once writes pause, a slice of bytes at a time whatever the records weigh (a chunk at least)', () => {
    // a talk's 1.3 KB and a record larger than a whole slice: 32 chunks a turn took 11 ms of the first
    for (const [text, count] of [['x'.repeat(1300), 2000], ['y'.repeat(PACK_SLICE_BYTES), 400]] as const) {
      const store = new RecordStore(); // 25 MB at most: under its budget, nothing packed while written
      for (let i = 0; i < count; i++) store.push({ objectID: `p${i}`, text });
      const unpacked = store.bytesToPack;
      const chunkBytes = 16 * JSON.stringify({ objectID: 'p1000', text }).length;
      let slices = 0;
      for (let before = store.bytesToPack, left = true; left; before = store.bytesToPack, slices++) {
        left = store.packSlice();
        const packed = before - store.bytesToPack;
        expect(packed).toBeGreaterThan(0);
        expect(packed).toBeLessThanOrEqual(Math.max(PACK_SLICE_BYTES, chunkBytes));
      }
      expect(store.bytesToPack).toBe(0);
      expect(slices).toBeGreaterThanOrEqual(Math.floor(unpacked / Math.max(PACK_SLICE_BYTES, chunkBytes)));
      expect(JSON.stringify(store.get(store.idOf('p377')!))).toBe(JSON.stringify({ objectID: 'p377', text }));
    }
  });

  it('are packed oldest first past the budget, within it after every write', () => {
    const budget = 16 << 10;
    const store = new RecordStore({ unpackedBytes: budget });
    for (let i = 0; i < COUNT; i++) {
      store.push(record(i));
      expect(store.bytesToPack).toBeLessThanOrEqual(budget);
    }
    expect(store.packedBytes).toBeGreaterThan(0);
    expectEveryRecord(store);
  });

  it('are held within the budget when large records follow small ones (each chunk\'s bytes estimated from its own)', () => {
    const budget = 256 << 10;
    const store = new RecordStore({ unpackedBytes: budget });
    const small = (i: number) => ({ objectID: `s${i}`, n: i });
    const large = (i: number) => ({ objectID: `l${i}`, text: `${i} `.repeat(5000) });
    let written = 0;
    for (let i = 0; i < 3200; i++) {
      const r = small(i);
      store.push(r);
      written += JSON.stringify(r).length;
    }
    for (let i = 0; i < 320; i++) {
      const r = large(i);
      store.push(r);
      written += JSON.stringify(r).length;
      // held as objects: the chunks left unpacked, and the open chunk's (16 large records at most)
      expect(written - store.packedBytes).toBeLessThanOrEqual(budget + 16 * JSON.stringify(large(i)).length);
    }
    expect(JSON.stringify(store.get(store.idOf('l7')!))).toBe(JSON.stringify(large(7)));
  });

  it('are packed by a snapshot taken before writes pause, which a restart reads back', async () => {
    const store = new RecordStore();
    for (let i = 0; i < COUNT; i++) store.push(record(i));
    const snapshot = await store.snapshot();
    expect(store.bytesToPack).toBe(0);
    expectEveryRecord(await RecordStore.unpack(snapshot));
  });

  it('replaced and removed while unpacked, read as last written, before and after they are packed', async () => {
    const store = new RecordStore();
    for (let i = 0; i < COUNT; i++) store.push(record(i));
    const random = prng(5);
    const removed = new Set<number>();
    for (let n = 0; n < COUNT; n++) {
      const i = Math.floor(random() * COUNT);
      store.remove(`o${i}`);
      if (random() < 0.3) removed.add(i);
      else {
        removed.delete(i);
        store.push(record(i));
      }
    }
    const expectLast = (s: RecordStore) => {
      expect(s.size).toBe(COUNT - removed.size);
      for (let i = 0; i < COUNT; i++) {
        const id = s.idOf(`o${i}`);
        if (removed.has(i)) expect(id, `o${i}`).toBeUndefined();
        else expect(JSON.stringify(s.get(id!)), `o${i}`).toBe(JSON.stringify(record(i)));
      }
    };
    expectLast(store);
    await packed(store);
    expectLast(store);
    expectLast(await RecordStore.unpack(await store.snapshot()));
  });
});
