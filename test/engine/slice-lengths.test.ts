import { describe, expect, it } from 'vitest';
import { SliceLengths } from '../../src/engine/slice-lengths.js';
import { loadCore } from '../../src/core/wasm.js';
import { Lantern } from '../../src/lantern.js';
import { readFixture } from '../support/fixtures.js';

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

describe('an engine applying batches of TED talks', () => {
  it('applies them in slices shorter than 100 once it has learnt what a talk costs: searches see them grow in smaller steps', async () => {
    await loadCore();
    const engine = await Lantern.open();
    const talks = readFixture<Array<Record<string, unknown>>>('talks.json');
    // the talks with twice the twelve sort replicas the service's TED index has (standard ones: each indexes
    // a copy of every record): ~0.08 ms an action, well past what 100 actions in 3 ms allow. A talk alone, its
    // description twelve times, came near it once the core read texts faster, and with the twelve replicas
    // slices reached 75: a test of slice lengths must not hang on indexing staying slow
    const { slaves, ...settings } = readFixture<{ slaves: string[] }>('talks_settings.json');
    const replicas = [...slaves, ...slaves.map((name) => `${name}_again`)];
    const records = (from: number, count: number) => talks.slice(from, from + count);
    const call = (method: string, path: string, body?: unknown) => engine.request({ method, path, body });
    await call('PUT', '/1/indexes/talks/settings', { ...settings, replicas });
    await call('POST', '/1/indexes/talks/batch', { requests: records(0, 300).map((body) => ({ action: 'addObject', body })) });
    await engine.waitForTasks();
    const count = async () => ((await call('POST', '/1/indexes/talks/query', { query: '', hitsPerPage: 0, distinct: false })).body as { nbHits: number }).nbHits;
    await call('POST', '/1/indexes/talks/batch', { requests: records(300, 600).map((body) => ({ action: 'addObject', body })) });
    // a search between event-loop turns, until the whole batch shows
    const seen = [await count()];
    while (seen[seen.length - 1] < 900) {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(await count());
    }
    const steps = seen.slice(1).map((n, i) => n - seen[i]).filter((step) => step > 0);
    expect(Math.max(...steps)).toBeLessThan(100);
    expect(steps.length).toBeGreaterThan(6);
    await engine.close();
  });
});
