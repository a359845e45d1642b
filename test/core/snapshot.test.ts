// A core snapshot streams through a small window both ways: the loaded index
// answers like the one written, a cut or padded snapshot is refused, and
// neither direction leaves the core's memory (which never shrinks) grown by
// the snapshot's size.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { concat } from '../../src/util/bytes.js';
import { build, query, ready } from './helpers.js';

beforeAll(ready);

type Talk = { name: string; description: string; speakers: string[]; tags: string[] };
const talks: Talk[] = JSON.parse(readFileSync(new URL('../fixtures/talks.json', import.meta.url), 'utf8'));
const docs = talks.map((t) => [t.name, t.description, t.speakers, t.tags]);
const QUERIES = ['climate', 'clim', 'brian', 'the future of', 'design thinking', 'wmoen', 'music', 'x'];

/** The whole snapshot of `core`, exported in one step. */
async function exported(core: CoreIndex): Promise<Uint8Array> {
  return concat(await core.exportSnapshot());
}

function fresh(): CoreIndex {
  const core = new CoreIndex();
  core.setAttributes([0, 1, 2, 3].map((rank) => ({ rank, unordered: false })));
  return core;
}

describe('core snapshot stream', () => {
  let written: CoreIndex;
  let bytes: Uint8Array;
  beforeAll(async () => {
    written = build(docs);
    written.removeDocument(7);
    written.setRanks(0, Int32Array.from(docs, (_, i) => (i * 31) % 97));
    bytes = await exported(written);
  });

  it('loads into an index that answers like the one written', async () => {
    expect(bytes.length).toBeGreaterThan(16 * 65536); // several windows, and blocks sent whole
    const loaded = fresh();
    expect(await loaded.importSnapshot([bytes])).toBe(true);
    expect(loaded.liveCount).toBe(written.liveCount);
    for (const text of QUERIES) expect(loaded.search(query(text, { length: 20 })), text).toEqual(written.search(query(text, { length: 20 })));
    expect(Buffer.compare(await exported(loaded), bytes)).toBe(0);
  });

  it('exports and imports a step at a time, the index searchable between steps, with the same bytes as in one step', async () => {
    const step = 1 << 16;
    let pauses = 0;
    const searchBetween = async () => {
      pauses++;
      expect(written.search(query('climate', { length: 5 })).nbHits).toBeGreaterThan(0);
    };
    const parts = await written.exportSnapshot(searchBetween, step);
    expect(parts.length).toBeGreaterThan(bytes.length / step / 2);
    expect(pauses).toBeGreaterThanOrEqual(parts.length - 1);
    expect(Buffer.compare(concat(parts), bytes)).toBe(0);
    // the parts need not be the export's: any cut of the bytes reads the same
    const cuts = [0, 3, 70_001, 500_000, bytes.length];
    const pieces = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
    const loaded = fresh();
    pauses = 0;
    expect(await loaded.importSnapshot(pieces, async () => { pauses++; }, step)).toBe(true);
    expect(pauses).toBeGreaterThan(bytes.length / step / 2);
    for (const text of QUERIES) expect(loaded.search(query(text, { length: 20 })), text).toEqual(written.search(query(text, { length: 20 })));
  });

  it('brings back terms whose folded form would fold again or split (Latin Extended, Kangxi radicals)', async () => {
    // every character the fold table maps, in words of one, two and three
    const folded: string[] = [];
    for (const [lo, hi] of [[0x80, 0x2fff], [0xff00, 0xffef]]) {
      for (let c = lo; c <= hi; c++) folded.push(String.fromCharCode(c));
    }
    const words = folded.map((c, i) => c + folded[(i * 7) % folded.length] + (i % 3 ? folded[(i * 13) % folded.length] : ''));
    const texts = ['æ ǽ', 'Æ Ǽ', '⼀⼀ ⼈', ...Array.from({ length: Math.ceil(words.length / 20) }, (_, i) => words.slice(i * 20, i * 20 + 20).join(' '))];
    const written = build(texts);
    const loaded = new CoreIndex();
    loaded.setAttributes([{ rank: 0, unordered: false }]);
    expect(await loaded.importSnapshot(await written.exportSnapshot())).toBe(true);
    expect(Buffer.compare(await exported(loaded), await exported(written))).toBe(0);
    for (const text of ['ae', 'ǽ', '⼀⼀', words[500], words[3000]]) {
      expect(loaded.search(query(text, { length: 50 })), text).toEqual(written.search(query(text, { length: 50 })));
    }
  });

  it('brings back live records that hold no text (an empty forward list is not a removed record)', async () => {
    const written = build(['hello world', '', '!!! ---', 'bye']);
    written.removeDocument(3);
    const loaded = new CoreIndex();
    loaded.setAttributes([{ rank: 0, unordered: false }]);
    expect(await loaded.importSnapshot(await written.exportSnapshot())).toBe(true);
    expect(loaded.liveCount).toBe(3);
    expect(loaded.search(query('', { length: 10 })).hits.map((h) => h.id).sort()).toEqual([0, 1, 2]);
  });

  it('refuses a snapshot cut short or followed by more bytes, without throwing', async () => {
    for (const cut of [0, 3, 11, 4096, 65535, 65536, 65537, bytes.length >> 1, bytes.length - 1]) {
      expect(await fresh().importSnapshot([bytes.subarray(0, cut)]), `cut at ${cut}`).toBe(false);
    }
    const padded = new Uint8Array(bytes.length + 4);
    padded.set(bytes);
    expect(await fresh().importSnapshot([padded])).toBe(false);
  });

  it('refuses counts larger than what is left of the snapshot, whatever word is corrupted', async () => {
    const words = bytes.length >> 2;
    for (let k = 2; k < 150; k++) {
      const at = Math.floor((k / 150) * words) * 4;
      for (const value of [0xffffffff, 0x7fffffff, 0x00ffffff]) {
        const corrupt = bytes.slice();
        new DataView(corrupt.buffer).setUint32(at, value, true);
        await expect(fresh().importSnapshot([corrupt]), `word ${at} = ${value}`).resolves.toBeTypeOf('boolean');
      }
    }
  });

  it('leaves memory as it was after writing, and loading needs no room for the whole snapshot', async () => {
    const index = build(docs);
    const before = index.memoryBytes;
    await index.exportSnapshot();
    expect(index.memoryBytes - before).toBeLessThan(bytes.length / 4); // the window, not the snapshot
    const empty = fresh().memoryBytes;
    const loaded = fresh();
    await loaded.importSnapshot([bytes]);
    expect(loaded.memoryBytes - empty).toBeLessThan(before - empty + bytes.length / 4);
  });
});
