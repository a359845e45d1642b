// Work left for when writes pause (the record store's packing): it waits
// while writes keep coming, then runs a slice per turn until none is left;
// a read (a search) since the last slice holds the next one back a round.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countRead, countWrite, IdleWork, readsCounted } from '../../src/index/idle-work.js';
import { Lantern } from '../../src/lantern.js';
import { WritePacer } from '../../src/engine/write-pacer.js';

describe('idle work', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  // what is pending runs first: among it the immediate that begins idle work's next turn (see noteSlice)
  afterEach(() => { vi.runOnlyPendingTimers(); vi.useRealTimers(); });

  it('waits for a pause of its length in writes, then runs slices until none is left', () => {
    let left = 3;
    const work = new IdleWork(() => --left > 0, 100);
    work.noteWrite();
    vi.advanceTimersByTime(50);
    work.noteWrite(); // within the pause: the timer, due at 100, sees it and waits until 200
    vi.advanceTimersByTime(149);
    expect(left).toBe(3);
    vi.advanceTimersByTime(1);
    expect(left).toBeLessThan(3);
    vi.advanceTimersByTime(10);
    expect(left).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(left).toBe(0); // none left: it stopped
  });

  it('a write between slices sends it back to waiting; cancelled, it runs no more', () => {
    let slices = 0;
    const work = new IdleWork(() => { slices++; return true; }, 100);
    work.noteWrite(); // the timer, due at 100, sees it and waits until 200
    vi.advanceTimersByTime(199);
    expect(slices).toBe(0);
    vi.advanceTimersByTime(10);
    const before = slices;
    expect(before).toBeGreaterThan(0);
    work.noteWrite(); // seen by the next slice's timer, which waits 100 again
    vi.advanceTimersByTime(99);
    expect(slices).toBe(before);
    vi.advanceTimersByTime(10);
    expect(slices).toBeGreaterThan(before);
    work.cancel();
    const cancelledAt = slices;
    vi.advanceTimersByTime(1000);
    expect(slices).toBe(cancelledAt);
  });

  it('waits for writes anywhere in the thread: the work of an index no one writes waits for an import into another', () => {
    let idle = 0;
    const unwritten = new IdleWork(() => { idle++; return false; }, 100);
    const written = new IdleWork(() => false, 100);
    unwritten.noteWrite();
    for (let t = 0; t < 1000; t += 50) {
      written.noteWrite();
      vi.advanceTimersByTime(50);
    }
    expect(idle).toBe(0);
    vi.advanceTimersByTime(200);
    expect(idle).toBe(1);
  });

  it('waits for writes that left no work too (an index on files packs as it goes)', () => {
    let idle = 0;
    const work = new IdleWork(() => { idle++; return false; }, 100);
    work.noteWrite();
    for (let t = 0; t < 1000; t += 50) {
      countWrite();
      vi.advanceTimersByTime(50);
    }
    expect(idle).toBe(0);
    vi.advanceTimersByTime(200);
    expect(idle).toBe(1);
  });

  it('work scheduled without a write runs after a round, and holds no other work back as a write does', () => {
    let ran = 0;
    const waiting = new IdleWork(() => { ran++; return false; }, 100);
    const scheduled = new IdleWork(() => false, 100);
    waiting.noteWrite();
    for (let t = 0; t < 1000; t += 50) {
      scheduled.schedule();
      vi.advanceTimersByTime(50);
    }
    expect(ran).toBe(1);
    let scheduledRan = 0;
    const alone = new IdleWork(() => { scheduledRan++; return false; }, 100);
    alone.schedule();
    vi.advanceTimersByTime(250);
    expect(scheduledRan).toBe(1);
  });

  it('a read since the last slice holds the next back a round, and no longer', () => {
    let slices = 0;
    const work = new IdleWork(() => { slices++; return true; }, 100);
    work.noteWrite();
    vi.advanceTimersByTime(200); // the pause: slices run a turn apart
    expect(slices).toBeGreaterThan(0);
    countRead(); // before the next slice's turn (at 201): it waits a round, until 301
    const before = slices;
    vi.advanceTimersByTime(100);
    expect(slices).toBe(before);
    vi.advanceTimersByTime(1);
    expect(slices).toBe(before + 1);
    // reads on every turn: one slice a round, not one a turn, nor none
    for (let t = 0; t < 1000; t++) {
      countRead();
      vi.advanceTimersByTime(1);
    }
    expect(slices).toBeGreaterThanOrEqual(before + 1 + 9);
    expect(slices).toBeLessThanOrEqual(before + 1 + 11);
    // quiet again: a slice a turn
    const quiet = slices;
    vi.advanceTimersByTime(200);
    expect(slices - quiet).toBeGreaterThan(20);
    work.cancel();
  });
});

describe('idle work of several kinds', () => {
  it('runs one slice a turn of the event loop, whatever work it is of: what arrived meanwhile is read between', async () => {
    // turns counted by an immediate a turn (the check phase, after the poll for I/O)
    let turn = 0;
    let counting = true;
    const count = () => { turn++; if (counting) setImmediate(count); };
    setImmediate(count);
    const turnsOfSlices: number[] = [];
    // due together, as an import leaves its indexes' packing, warming and ranks
    const works = [1, 2, 3].map(() => new IdleWork(() => { turnsOfSlices.push(turn); return false; }, 20));
    for (const work of works) work.noteWrite();
    for (let waited = 0; waited < 2000 && turnsOfSlices.length < works.length; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    counting = false;
    expect(turnsOfSlices).toHaveLength(3);
    expect(new Set(turnsOfSlices).size).toBe(3);
  });

  it('takes turns: work that slices every turn (a large import\'s packing) lets the others in', async () => {
    let slices = 0;
    let otherAt = -1;
    const long = new IdleWork(() => ++slices < 300, 20);
    const other = new IdleWork(() => { otherAt = slices; return false; }, 20);
    long.noteWrite();
    other.noteWrite();
    for (let waited = 0; waited < 5000 && (otherAt < 0 || slices < 300); waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(slices).toBe(300);
    // due together: the other's slice comes within the long work's first turns, not after its 300
    expect(otherAt).toBeGreaterThanOrEqual(0);
    expect(otherAt).toBeLessThan(5);
  });
});

describe('reads counted for idle work', () => {
  it('are the reads the write pacer notes (the router\'s and a replica\'s alike)', () => {
    const before = readsCounted();
    new WritePacer().noteRead();
    expect(readsCounted()).toBe(before + 1);
  });

  it('are the calls that read an index (searches, a browse), not writes nor other calls', async () => {
    const engine = await Lantern.open();
    const call = async (method: string, path: string, body?: unknown) => {
      const before = readsCounted();
      const { status } = await engine.request({ method, path, body });
      expect(status, `${method} ${path}`).toBeLessThan(300);
      return readsCounted() - before;
    };
    try {
      expect(await call('POST', '/1/indexes/books/batch', { requests: [{ action: 'addObject', body: { objectID: '1', title: 'lantern' } }] })).toBe(0);
      await engine.waitForTasks();
      expect(await call('POST', '/1/indexes/books/query', { query: 'lant' })).toBe(1);
      expect(await call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'books', query: 'lan' }, { indexName: 'books', query: 'x' }] })).toBe(1);
      expect(await call('POST', '/1/indexes/books/browse', {})).toBe(1);
      expect(await call('GET', '/1/indexes/books/1')).toBe(1);
      expect(await call('GET', '/1/indexes')).toBe(0);
      expect(await call('GET', '/1/indexes/books/settings')).toBe(0);
    } finally {
      await engine.close();
    }
  });
});
