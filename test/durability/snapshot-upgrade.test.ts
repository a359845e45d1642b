// The upgrade of a decoded snapshot to the current format: format 1's records
// (MessagePack in chunks of any size) become JSON text in chunks of 16, each
// record at its record id (the core refers to them), removed ones without
// bytes; its core becomes a list of parts. Formats no Lantern wrote, or newer
// than this code reads, are refused. (The whole path, from a store written by
// 0.1.0, is test/persistence/formats.test.ts.)
import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_FORMAT, SnapshotFormatError, upgradeSnapshot } from '../../src/durability/snapshot-upgrade.js';
import { CHUNK_RECORDS, RecordStore, type PackedRecords } from '../../src/index/record-store.js';
import { concat } from '../../src/util/bytes.js';
import { deflate } from '../../src/util/compression.js';

const CORE_MAGIC = 0x49434e4c; // "LNCI"

/** A core snapshot of core format 3 (u32 words, little endian): no term, the records' forward lists as given, no rank slot. */
function format3Core(records: number[][]): Uint8Array {
  const words = [CORE_MAGIC, 3, 0, records.length];
  const out = new Uint8Array(16 + records.reduce((n, r) => n + 4 + r.length, 0) + 4);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w, true));
  let at = 16;
  for (const record of records) {
    view.setUint32(at, record.length, true);
    out.set(record, at + 4);
    at += 4 + record.length;
  }
  view.setUint32(at, 0, true); // no rank slot
  return out;
}

/** Records as 0.1.0 packed them: MessagePack, ids without a record holding no bytes, deflated in chunks of `size`. */
async function format1Records(records: Array<Record<string, unknown> | undefined>, size: number) {
  const packed = records.map((r) => (r ? encode(r) : new Uint8Array(0)));
  const ends = new Uint32Array(records.length);
  packed.reduce((end, bytes, i) => (ends[i] = end + bytes.length), 0);
  const chunks: Uint8Array[] = [];
  for (let first = 0; first < records.length; first += size) chunks.push(await deflate(concat(packed.slice(first, first + size))));
  return { objectIDs: records.map((r) => (r ? String(r.objectID) : '')), ends: new Uint8Array(ends.buffer), chunks, chunkRecords: size };
}

describe('upgrading a format 1 snapshot', () => {
  it('packs its records as JSON in chunks of the current size, every record at its id', async () => {
    const records: Array<Record<string, unknown> | undefined> = Array.from({ length: 150 }, (_, i) => (i % 7 === 3 ? undefined : { objectID: `m${i}`, text: `record ${i} ΑΩ ǽ`, n: i, nested: { list: [i, null, true] } }));
    records[0] = { objectID: '', text: 'an empty objectID is a record' };
    const core = format3Core([]);
    const state = { version: 1, lastTaskID: 5, indexes: [{ name: 'x', core, records: await format1Records(records, 64) }] };

    expect(await upgradeSnapshot(state)).toBe(1);
    expect(state.version).toBe(SNAPSHOT_FORMAT);
    const [index] = state.indexes as unknown as Array<{ core: Uint8Array[]; ranksFresh: boolean; records: PackedRecords }>;
    expect(index.core).toHaveLength(1);
    expect(index.ranksFresh).toBe(true);
    expect(index.records.format).toBe('json');
    expect(index.records.chunkRecords).toBe(CHUNK_RECORDS);
    expect(index.records.chunks).toHaveLength(Math.ceil(records.length / CHUNK_RECORDS));
    const store = await RecordStore.unpack(index.records);
    records.forEach((record, id) => expect(store.get(id), `record id ${id}`).toEqual(record));
    expect(store.size).toBe(records.filter(Boolean).length);
    expect(store.idOf('')).toBe(0);
    expect((state as Record<string, unknown>).dictionaries).toEqual({ entries: {}, disableStandardEntries: {} });
  });

  it('writes its core in core format 4: a record length plus one, 0 still no record', async () => {
    const core = format3Core([[1, 2, 3], [], [9]]);
    const state = { version: 1, lastTaskID: 1, indexes: [{ name: 'x', core, records: await format1Records([], 16) }] };
    await upgradeSnapshot(state);
    const [upgraded] = (state.indexes[0] as unknown as { core: Uint8Array[] }).core;
    const view = new DataView(upgraded.buffer, upgraded.byteOffset, upgraded.byteLength);
    expect([0, 4, 8, 12].map((at) => view.getUint32(at, true))).toEqual([CORE_MAGIC, 4, 0, 3]);
    expect([view.getUint32(16, true), [...upgraded.subarray(20, 23)], view.getUint32(23, true), view.getUint32(27, true), upgraded[31]]).toEqual([4, [1, 2, 3], 0, 2, 9]);
    for (const bad of [format3Core([[1, 2]]).subarray(0, 21), Uint8Array.of(1, 2, 3, 4, 3, 0, 0, 0)]) {
      const broken = { version: 1, lastTaskID: 1, indexes: [{ name: 'x', core: bad, records: await format1Records([], 16) }] };
      await expect(upgradeSnapshot(broken)).rejects.toThrow(/index "x" .*core/);
    }
  });

  it('keeps a "__proto__" key as data', async () => {
    const record = JSON.parse('{"objectID":"p","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const state = { version: 1, lastTaskID: 1, indexes: [{ name: 'x', core: format3Core([]), records: await format1Records([record], 512) }] };
    await upgradeSnapshot(state);
    const store = await RecordStore.unpack((state.indexes[0] as unknown as { records: PackedRecords }).records);
    expect(Object.hasOwn(store.get(0)!, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the index whose records cannot be read', async () => {
    const records = await format1Records([{ objectID: 'a' }], 512);
    const state = { version: 1, lastTaskID: 1, indexes: [{ name: 'broken', core: format3Core([]), records: { ...records, chunks: [] } }] };
    await expect(upgradeSnapshot(state)).rejects.toThrow(/index "broken" .*chunks do not cover/);
  });

  it('refuses JSON records under format 1 (development builds after 0.1.0 wrote them; never released)', async () => {
    const records = { ...(await format1Records([{ objectID: 'a' }], 16)), format: 'json' };
    const state = { version: 1, lastTaskID: 1, indexes: [{ name: 'dev', core: format3Core([]), records }] };
    await expect(upgradeSnapshot(state)).rejects.toThrow(/index "dev" .*development build/);
  });
});

describe('the format a snapshot says', () => {
  it('is left alone when current', async () => {
    const state = { version: SNAPSHOT_FORMAT, lastTaskID: 3, indexes: [] };
    expect(await upgradeSnapshot(state)).toBe(SNAPSHOT_FORMAT);
    expect(state).toEqual({ version: SNAPSHOT_FORMAT, lastTaskID: 3, indexes: [] });
  });

  it('is refused when newer than this code reads, or one no Lantern wrote', async () => {
    await expect(upgradeSnapshot({ version: SNAPSHOT_FORMAT + 1 })).rejects.toThrow(
      new SnapshotFormatError(`the snapshot is of format ${SNAPSHOT_FORMAT + 1}, newer than this Lantern reads (format ${SNAPSHOT_FORMAT} and older): open the store with the newer version that wrote it`),
    );
    for (const version of [0, 1.5, '2', undefined]) {
      await expect(upgradeSnapshot({ version }), String(version)).rejects.toThrow(SnapshotFormatError);
    }
  });
});
