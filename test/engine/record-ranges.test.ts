// The runs of a column's entries a set of candidates reads
// (src/index/record-ranges.ts): against each candidate's own range, for
// candidates of every density, whole 32-bit words of them, runs across
// words, bit 31, records with no entries, and ids past the last record.
import { describe, expect, it } from 'vitest';
import { RecordRanges } from '../../src/index/record-ranges.js';
import { emptyBitmap, setBit } from '../../src/index/bitmap.js';
import { prng } from '../support/random.js';

/** Ranges over ids 0..count-1 with 0-3 entries each (a quarter of the ids skipped), and each id's entries as appended. */
function ranges(count: number, random: () => number): { column: RecordRanges; entries: Map<number, number[]> } {
  const column = new RecordRanges();
  const entries = new Map<number, number[]>();
  let appended = 0;
  for (let id = 0; id < count; id++) {
    if (random() < 0.25) continue;
    const own = Array.from({ length: Math.floor(random() * 4) }, () => appended++);
    for (const _ of own) column.append(id);
    entries.set(id, own);
  }
  return { column, entries };
}

function runsOf(column: RecordRanges, ids: number[], words: number): Array<[number, number]> {
  const candidates = emptyBitmap(words);
  for (const id of ids) setBit(candidates, id);
  const { bounds, length } = column.runsAmong(candidates);
  return Array.from({ length }, (_, run) => [bounds[2 * run], bounds[2 * run + 1]]);
}

describe('RecordRanges.runsAmong', () => {
  it('visits the candidates\' entries once each, in order, in runs that do not touch', () => {
    const random = prng(31);
    const { column, entries } = ranges(1_000, random);
    for (let round = 0; round < 60; round++) {
      const share = [0, 0.01, 0.2, 0.6, 0.95, 1][round % 6];
      const ids = Array.from({ length: 1_100 }, (_, id) => id).filter(() => random() < share);
      const runs = runsOf(column, ids, 40);
      expect(runs.flatMap(([from, to]) => Array.from({ length: to - from }, (_, i) => from + i))).toEqual(ids.flatMap((id) => entries.get(id) ?? []));
      for (const [i, [from, to]] of runs.entries()) {
        expect(to).toBeGreaterThan(from);
        if (i > 0) expect(from).toBeGreaterThan(runs[i - 1][1]);
      }
    }
  });

  it('reads every record as one run, and whole words and bit 31 as theirs', () => {
    const column = new RecordRanges();
    for (let id = 0; id < 100; id++) column.append(id);
    expect(runsOf(column, Array.from({ length: 100 }, (_, id) => id), 4)).toEqual([[0, 100]]);
    expect(runsOf(column, [31, 32, 33, 63, 64, 99], 4)).toEqual([[31, 34], [63, 65], [99, 100]]);
    expect(runsOf(column, Array.from({ length: 32 }, (_, i) => 32 + i), 4)).toEqual([[32, 64]]);
    // past the last record: nothing
    expect(runsOf(column, [100, 101, 127], 4)).toEqual([]);
    expect(runsOf(new RecordRanges(), [0, 1, 2], 1)).toEqual([]);
  });
});
