import { describe, expect, it } from 'vitest';
import { SliceLengths } from '../../src/engine/slice-lengths.js';
import { loadCore } from '../../src/core/wasm.js';
import { Lantern } from '../../src/lantern.js';
import { readFixture, talksSettings } from '../support/fixtures.js';

describe('slice lengths', () => {
  it('sizes slices by what an action took on the index: costly records get short slices', () => {
    const lengths = new SliceLengths();
    const first = lengths.lengthFor('talks');
    // each index's first slice (which made it) is not learnt from
    lengths.noteSlice('talks', first, first * 5);
    lengths.noteSlice('cheap', first, first * 5);
    expect(lengths.lengthFor('talks')).toBe(first);
    lengths.noteSlice('talks', first, first * 0.13); // a TED talk with twelve sort replicas: 0.13 ms an action
    lengths.noteSlice('cheap', first, first * 0.01);
    expect(lengths.lengthFor('talks')).toBeLessThan(first / 4);
    expect(lengths.lengthFor('talks') * 0.13).toBeCloseTo(3, 0);
    // never longer than the first: the count measured best on cheap records
    expect(lengths.lengthFor('cheap')).toBe(first);
    // another index keeps its own estimate
    expect(lengths.lengthFor('other')).toBe(first);
  });

  it('keeps slices within bounds however slow or fast the actions', () => {
    const lengths = new SliceLengths();
    for (let slice = 0; slice < 2; slice++) {
      lengths.noteSlice('slow', 10, 500);
      lengths.noteSlice('fast', 1000, 0);
    }
    expect(lengths.lengthFor('slow')).toBe(10);
    expect(lengths.lengthFor('fast')).toBe(100);
  });

  it('moves a third of the way towards one slice the machine held up, not all of it', () => {
    const lengths = new SliceLengths();
    lengths.noteSlice('talks', 100, 50);
    lengths.noteSlice('talks', 100, 5); // 0.05 ms an action: 60 a slice
    expect(lengths.lengthFor('talks')).toBe(60);
    lengths.noteSlice('talks', 60, 18); // preempted: 0.3 ms an action, which alone would make slices of 10
    expect(lengths.lengthFor('talks')).toBe(Math.round(3 / (0.05 + 0.3 * (0.3 - 0.05))));
    expect(lengths.lengthFor('talks')).toBe(24);
  });

  it('ignores an empty slice', () => {
    const lengths = new SliceLengths();
    const first = lengths.lengthFor('i');
    lengths.noteSlice('i', 10, 1);
    lengths.noteSlice('i', 0, 50);
    expect(lengths.lengthFor('i')).toBe(first);
  });
});

describe('an engine applying batches', () => {
  const talks = readFixture<Array<Record<string, unknown>>>('talks.json');
  const records = (from: number, count: number) => talks.slice(from, from + count);

  /**
   * Applies 600 TED talks after 300 (from which the engine learns what one costs) while a search runs between
   * event-loop turns; returns by how many records each search saw the index grow.
   */
  async function stepsSeen(writeSliceMs: number): Promise<number[]> {
    await loadCore();
    const engine = await Lantern.open({ writeSliceMs });
    const call = (method: string, path: string, body?: unknown) => engine.request({ method, path, body });
    await call('PUT', '/1/indexes/talks/settings', talksSettings());
    await call('POST', '/1/indexes/talks/batch', { requests: records(0, 300).map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    const count = async () => ((await call('POST', '/1/indexes/talks/query', { query: '', hitsPerPage: 0, distinct: false })).body as { nbHits: number }).nbHits;
    await call('POST', '/1/indexes/talks/batch', { requests: records(300, 600).map((body) => ({ action: 'addObject', body })) });
    const seen = [await count()];
    while (seen[seen.length - 1] < 900) {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(await count());
    }
    await engine.close();
    return seen.slice(1).map((n, i) => n - seen[i]).filter((step) => step > 0);
  }
  const median = (steps: number[]) => [...steps].sort((a, b) => a - b)[steps.length >> 1];

  // What an action costs moves with the machine (a talk took 0.02-0.06 ms on the ones this ran on, and slices
  // of talks reached the cap of 100 at the default 3 ms as the core sped up): the test compares two budgets in
  // one process, the shorter one far enough from 100 for machines several times faster (learning what an
  // action costs is the unit tests' above)
  it('applies TED talks in slices of about writeSliceMs: searches between turns see them grow in smaller steps the shorter it is', async () => {
    const short = await stepsSeen(0.3);
    const long = await stepsSeen(3);
    expect(Math.max(...short)).toBeLessThan(100);
    expect(short.length).toBeGreaterThan(6);
    expect(median(short) * 2).toBeLessThan(median(long));
    expect(short.length).toBeGreaterThan(long.length * 2);
  });

  it('refuses a slice budget that is not a positive number of milliseconds', async () => {
    await expect(Lantern.open({ writeSliceMs: 0 })).rejects.toThrow(/writeSliceMs must be a positive number/);
    await expect(Lantern.open({ writeSliceMs: Number.NaN })).rejects.toThrow(/writeSliceMs/);
  });
});
