// Reads stay alive under writes: a large batch is applied a slice at a time
// with searches answered between slices; a writer faster than indexing waits
// for room in the queue; the ranks of customRanking and sort replicas, kept
// across writes as labels with gaps, always order records as a full sort
// does, and the core copies only the labels a write changed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fsStorage } from '../../src/storage/fs.js';
import { loadCore } from '../../src/core/wasm.js';
import { Lantern } from '../../src/lantern.js';
import { RankOrder, type KeySorter } from '../../src/index/rank-order.js';
import { SearchIndex } from '../../src/index/search-index.js';
import { CoreIndex } from '../../src/core/core-index.js';
import { TIE_SLOT } from '../../src/core/abi.js';
import { TieOrder } from '../../src/index/tie-order.js';
import { RetryLater } from '../../src/util/errors.js';
import { WritePacer } from '../../src/engine/write-pacer.js';
import { RecordStore } from '../../src/index/record-store.js';
import { compareValues, sortValue } from '../../src/index/sort-values.js';
import { valuesAt, type SearchRecord } from '../../src/index/records.js';
import type { SortEntry } from '../../src/index/settings.js';
import { prng } from '../support/random.js';

beforeAll(loadCore);

const records = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ objectID: `r${from + i}`, text: `record number ${from + i}`, views: (from + i) % 97 }));

describe('a large batch', () => {
  it('is applied in slices: searches see it grow, and are answered before it is published', async () => {
    const engine = await Lantern.open();
    const batch = await engine.request({ method: 'POST', path: '/1/indexes/big/batch', body: { requests: records(5000).map((body) => ({ action: 'addObject', body })) } });
    const { taskID } = batch.body as { taskID: number };
    const count = async () => {
      const r = await engine.request({ method: 'POST', path: '/1/indexes/big/query', body: { query: 'record', hitsPerPage: 1 } });
      return r.status === 404 ? 0 : (r.body as { nbHits: number }).nbHits;
    };
    // searches between event-loop turns, until the first records show
    let seen: number;
    while ((seen = await count()) === 0) await new Promise((resolve) => setImmediate(resolve));
    const status = engine.tasks.status(taskID);
    expect(seen).toBeLessThan(5000);
    expect(status).toBe('notPublished');
    await engine.waitForTasks();
    expect(await count()).toBe(5000);
    await engine.close();
  });
});

describe('write pacing', () => {
  const timed = async (work: () => Promise<void>) => { const t = performance.now(); await work(); return performance.now() - t; };

  it('after write work, pauses longer than it took when reads came in meanwhile', async () => {
    const pacer = new WritePacer();
    pacer.charge(20);
    pacer.noteRead();
    expect(await timed(() => pacer.pause())).toBeGreaterThanOrEqual(29);
    // paid: the next pause owes nothing
    pacer.noteRead();
    expect(await timed(() => pacer.pause())).toBeLessThan(5);
  });

  it('does not pause when nobody reads (an import runs at full speed)', async () => {
    const pacer = new WritePacer();
    pacer.charge(50);
    expect(await timed(() => pacer.pause())).toBeLessThan(5);
  });

  it('admits writes one at a time, each after the pause the work before it owes', async () => {
    const pacer = new WritePacer();
    pacer.noteRead();
    pacer.charge(15);
    const order: number[] = [];
    const started = performance.now();
    await Promise.all([1, 2].map((n) => pacer.admit().then((endTurn) => { order.push(n); pacer.charge(15); pacer.noteRead(); endTurn(); })));
    expect(order).toEqual([1, 2]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(44);
  });

  it("a write's turn comes once the write before it has ended its turn, not as soon as that one was admitted", async () => {
    const pacer = new WritePacer();
    const order: string[] = [];
    const first = await pacer.admit();
    const second = pacer.admit().then((endTurn) => { order.push('second admitted'); endTurn(); });
    await new Promise((resume) => setTimeout(resume, 30));
    order.push('first accepted');
    first();
    await second;
    expect(order).toEqual(['first accepted', 'second admitted']);
  });
});

describe('admission in time', () => {
  it('a write whose turn does not come within the bound is refused, 503 with Retry-After; the turns after go on', async () => {
    const pacer = new WritePacer(() => 0, 60);
    pacer.noteRead();
    pacer.charge(100); // the next turn pauses 150 ms for it: longer than 60
    const started = performance.now();
    const refused = await pacer.admit().then(() => undefined, (e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(140);
    expect(refused).toBeInstanceOf(RetryLater);
    expect(refused).toMatchObject({ status: 503, retryAfter: 1 });
    // its turn still passes in order (a write sent meanwhile waits behind it, refused too); once it has, the next
    // write, owing nothing, is admitted at once
    await expect(pacer.admit()).rejects.toBeInstanceOf(RetryLater);
    await new Promise((resume) => setTimeout(resume, 150));
    const next = performance.now();
    await expect(pacer.admit()).resolves.toBeTypeOf('function');
    expect(performance.now() - next).toBeLessThan(40);
  });
});

describe('admission under a deep queue', () => {
  it('pauses longer before accepting a write the more records wait to be applied', async () => {
    // the pauses are read where the pacer asks the timers for them: on a loaded machine a timer fires late, never early
    const pauses: number[] = [];
    const setTimer = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((resume: () => void, ms?: number) => {
      pauses.push(ms ?? 0);
      return setTimer(resume, ms);
    }) as typeof setTimeout);
    try {
      const timed = async (work: () => Promise<void>) => { const t = performance.now(); await work(); return performance.now() - t; };
      let queued = 0;
      const pacer = new WritePacer(() => queued);
      const admitAfter = (ms: number) => { pacer.charge(ms); pacer.noteRead(); return timed(async () => { (await pacer.admit())(); }); };
      // 10 ms of write work owes a pause with nothing queued, and three times that with 10,000 records queued
      await admitAfter(10);
      queued = 10_000;
      const deep = await admitAfter(10);
      // applying a slice is paced as before, whatever is queued
      pacer.charge(10);
      pacer.noteRead();
      await pacer.pause();
      expect(pauses).toHaveLength(3);
      expect(pauses[0]).toBeGreaterThanOrEqual(10);
      expect(pauses[1]).toBeCloseTo(3 * pauses[0]);
      expect(pauses[2]).toBeCloseTo(pauses[0]);
      expect(deep).toBeGreaterThanOrEqual(pauses[1] - 1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('backpressure', () => {
  it('a write past maxQueuedRecords is queued and acknowledged once there is room, and none is lost', async () => {
    const engine = await Lantern.open({ maxQueuedRecords: 1500 });
    const write = (i: number) => engine.request({ method: 'POST', path: '/1/indexes/q/batch', body: { requests: records(1000, i * 1000).map((body) => ({ action: 'addObject', body })) } });
    const acknowledged: number[] = [];
    const writes = [0, 1, 2, 3].map((i) => write(i).then(() => { acknowledged.push(i); }));
    // the first write fits; the others wait for room before they are logged and queued:
    // the queue never holds more than its limit (it held every waiting writer's batch past it)
    let heaviest = 0;
    const watch = setInterval(() => { heaviest = Math.max(heaviest, engine.tasks.queuedWeight); }, 1);
    for (let turn = 0; turn < 10_000 && engine.tasks.pendingCount < 1; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(acknowledged.length).toBeLessThan(4);
    await Promise.all(writes);
    clearInterval(watch);
    expect(heaviest).toBeGreaterThan(0);
    expect(heaviest).toBeLessThanOrEqual(1500);
    expect(acknowledged.sort()).toEqual([0, 1, 2, 3]);
    await engine.waitForTasks();
    const all = await engine.request({ method: 'POST', path: '/1/indexes/q/query', body: { query: '', hitsPerPage: 0 } });
    expect((all.body as { nbHits: number }).nbHits).toBe(4000);
    await engine.close();
  });
});

describe('a large write being accepted', () => {
  it('lets a search that arrived meanwhile be answered between its parsing and its logging', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-accept-'));
    const engine = await Lantern.open({ storage: fsStorage(dir) });
    try {
      await engine.request({ method: 'PUT', path: '/1/indexes/big/first', body: { text: 'record first' } });
      await engine.waitForTasks();
      const body = JSON.stringify({ requests: records(2000).map((r) => ({ action: 'addObject', body: r })) }); // ~100 KB, as HTTP hands it over
      const answered: string[] = [];
      const accepted = engine.request({ method: 'POST', path: '/1/indexes/big/batch', body }).then((r) => { answered.push(`batch ${r.status}`); });
      // a search arriving as the next event (as a request on another connection would)
      const searched = new Promise<void>((resolve) => setImmediate(() => {
        engine.request({ method: 'POST', path: '/1/indexes/big/query', body: { query: 'first' } }).then((r) => { answered.push(`search ${r.status}`); resolve(); });
      }));
      await Promise.all([accepted, searched]);
      expect(answered).toEqual(['search 200', 'batch 200']);
      await engine.waitForTasks();
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a batch of many records', () => {
  it('is read when the call is made, then checked in steps: a search that arrived meanwhile is answered first', async () => {
    const engine = await Lantern.open();
    await engine.request({ method: 'PUT', path: '/1/indexes/big/first', body: { text: 'record first' } });
    await engine.waitForTasks();
    const events: string[] = [];
    const requests = records(2000).map((r) => ({ action: 'addObject', body: r as Record<string, unknown> }));
    // the last record says when it is read: as a client writes its body, before the call returns (the caller may change it then)
    Object.defineProperty(requests[1999].body, 'probe', { enumerable: true, get: () => { events.push('last record read'); return 1; } });
    const accepted = engine.request({ method: 'POST', path: '/1/indexes/big/batch', body: { requests } }).then((r) => { events.push(`batch ${r.status}`); });
    expect(events).toEqual(['last record read']);
    const searched = new Promise<void>((resolve) => setImmediate(() => {
      engine.request({ method: 'POST', path: '/1/indexes/big/query', body: { query: 'first' } }).then((r) => { events.push(`search ${r.status}`); resolve(); });
    }));
    await Promise.all([accepted, searched]);
    expect(events).toEqual(['last record read', 'search 200', 'batch 200']);
    await engine.waitForTasks();
    const probed = await engine.request({ method: 'GET', path: '/1/indexes/big/r1999' });
    expect(probed.body).toMatchObject({ objectID: 'r1999', probe: 1 });
    await engine.close();
  });
});

describe('ranks after a write', () => {
  it('are folded in by the write while searches arrive, so the next search does not; without searches, by the first search', async () => {
    const search = (engine: Lantern) => engine.request({ method: 'POST', path: '/1/indexes/ranked/query', body: { query: 'record', hitsPerPage: 3 } });
    const write = async (engine: Lantern, from: number) => {
      await engine.request({ method: 'POST', path: '/1/indexes/ranked/batch', body: { requests: records(50, from).map((body) => ({ action: 'addObject', body: { ...body, views: 1000 + from } })) } });
      await engine.waitForTasks();
    };
    for (const searchesArriving of [true, false]) {
      const engine = await Lantern.open();
      await engine.request({ method: 'PUT', path: '/1/indexes/ranked/settings', body: { customRanking: ['desc(views)'] } });
      await write(engine, 0);
      if (searchesArriving) await search(engine);
      const folds = vi.spyOn(RankOrder.prototype, 'update');
      await write(engine, 100);
      expect(folds.mock.calls.length, `by the write, searches arriving: ${searchesArriving}`).toBe(searchesArriving ? 1 : 0);
      const hits = ((await search(engine)).body as { hits: Array<{ views: number }> }).hits;
      expect(hits.map((h) => h.views)).toEqual([1100, 1100, 1100]);
      expect(folds.mock.calls.length, 'after the search').toBe(1);
      folds.mockRestore();
      await engine.close();
    }
  });
});

describe('ranks of replicas after a write', () => {
  it('are folded in by the write for replicas searched lately; the others fold at their own next search', async () => {
    const engine = await Lantern.open();
    const call = (method: string, path: string, body?: unknown) => engine.request({ method, path, body });
    await call('PUT', '/1/indexes/ranked/settings', { customRanking: ['desc(views)'], replicas: ['by_views_asc', 'by_views_desc'] });
    await call('PUT', '/1/indexes/by_views_asc/settings', { customRanking: ['asc(views)'] });
    await call('PUT', '/1/indexes/by_views_desc/settings', { customRanking: ['desc(views)'] });
    const write = async (from: number, views: number) => {
      await call('POST', '/1/indexes/ranked/batch', { requests: records(50, from).map((body) => ({ action: 'addObject', body: { ...body, views } })) });
      await engine.waitForTasks();
    };
    const first = async (indexName: string) => ((await call('POST', `/1/indexes/${indexName}/query`, { query: 'record', hitsPerPage: 1 })).body as { hits: Array<{ views: number }> }).hits[0].views;
    await write(0, 5);
    await first('ranked');
    await first('by_views_asc');
    const computed = vi.spyOn(SearchIndex.prototype, 'computeRanksOnce');
    await write(100, 1);
    await write(200, 9);
    expect(new Set(computed.mock.contexts.map((index) => (index as SearchIndex).name))).toEqual(new Set(['ranked', 'by_views_asc']));
    // the one no one searched ranks the writes all the same
    expect([await first('by_views_desc'), await first('by_views_asc'), await first('ranked')]).toEqual([9, 1, 9]);
    computed.mockRestore();
    await engine.close();
  });
});

describe('rank labels in the core', () => {
  it('are copied a write at a time: searches rank as in a fresh index of the same records, userScore included', async () => {
    const random = prng(21);
    const engine = await Lantern.open();
    const settings = { customRanking: ['desc(views)'] };
    await engine.request({ method: 'PUT', path: '/1/indexes/ranked/settings', body: settings });
    await engine.waitForTasks();
    const current = new Map<string, { objectID: string; text: string; views: number }>();
    const page = async (target: Lantern, query: string) => {
      const r = await target.request({ method: 'POST', path: '/1/indexes/ranked/query', body: { query, hitsPerPage: 60, getRankingInfo: true, attributesToHighlight: [] } });
      return (r.body as { hits: Array<{ views: number; _rankingInfo: { userScore: number } }> }).hits.map((h) => [h.views, h._rankingInfo.userScore]);
    };
    const wholeCopies = vi.spyOn(CoreIndex.prototype, 'setRanks');
    const rounds = 12;
    for (let round = 0; round < rounds; round++) {
      const batch = Array.from({ length: 150 }, () => {
        const objectID = `r${Math.floor(random() * 400)}`;
        return { objectID, text: `record number ${objectID}`, views: Math.floor(random() * 60) };
      });
      for (const record of batch) current.set(record.objectID, record);
      await engine.request({ method: 'POST', path: '/1/indexes/ranked/batch', body: { requests: batch.map((body) => ({ action: 'addObject', body })) } });
      // a search while the write is applied: the write folds its labels in, and the core copies them
      await page(engine, 'record');
      await engine.waitForTasks();
      const fresh = await Lantern.open();
      await fresh.request({ method: 'PUT', path: '/1/indexes/ranked/settings', body: settings });
      await fresh.request({ method: 'POST', path: '/1/indexes/ranked/batch', body: { requests: [...current.values()].map((body) => ({ action: 'addObject', body })) } });
      await fresh.waitForTasks();
      for (const query of ['', 'record', 'numb']) expect(await page(engine, query), `round ${round}, "${query}"`).toEqual(await page(fresh, query));
      await fresh.close();
    }
    // whole copies, per slot (customRanking's, the tie order's): the fresh indexes' and the first ones, and the
    // engine's at most twice a write: each write here changes more than a quarter of the order (see
    // LabelledOrder.fold), once or twice as it is applied in slices; copied whole each time the core reads
    // them, they were 74 a slot
    for (const slot of [0, TIE_SLOT]) expect(wholeCopies.mock.calls.filter(([s]) => s === slot).length, `slot ${slot}`).toBeLessThan(rounds * 3 + 4);
    wholeCopies.mockRestore();
    await engine.close();
  });
});

describe('rank orders kept across writes', () => {
  /** The core's radix sort, as an index hands it to its orders. */
  let sortByKeys: KeySorter;
  beforeAll(() => {
    const core = new CoreIndex();
    sortByKeys = (ids, high, low) => core.sortByKeys(ids, high, low);
  });

  /** Ranks from a full sort: what the order kept across writes must always equal. */
  function fullSort(store: RecordStore, entries: SortEntry[]): Int32Array {
    const ranks = new Int32Array(store.length);
    const live = [...store.entries()].map(([id, r]) => ({ id, key: entries.map((e) => sortValue(valuesAt(r, e.path))) }));
    const compare = (a: typeof live[0], b: typeof live[0]) => {
      for (let i = 0; i < entries.length; i++) {
        const c = compareValues(a.key[i], b.key[i], entries[i].descending);
        if (c !== 0) return c;
      }
      return 0;
    };
    live.sort(compare);
    let rank = 0;
    live.forEach((r, i) => { if (i > 0 && compare(live[i - 1], r) !== 0) rank = i; ranks[r.id] = rank; });
    return ranks;
  }

  /**
   * Per record id the dense rank its label gives (0 for ids without a
   * record): how many live records have a lower label. It equals a full
   * sort's ranks only if the labels order the records as the entries do,
   * ties sharing a label. The order's own rankOf (userScore) must agree.
   */
  function ranksOf(order: RankOrder, store: RecordStore): Int32Array {
    const { labels } = order.update(store);
    const live = [...store.liveIds()];
    const sortedLabels = live.map((id) => labels[id]).sort((a, b) => a - b);
    const ranks = new Int32Array(store.length);
    for (const id of live) {
      let lo = 0;
      let hi = sortedLabels.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sortedLabels[mid] < labels[id]) lo = mid + 1;
        else hi = mid;
      }
      ranks[id] = lo;
      if (order.rankOf(store, id) !== lo) throw new Error(`rankOf(${id}) is ${order.rankOf(store, id)}, its label ranks it ${lo}`);
    }
    return ranks;
  }

  /** Two entries: a number and a string, each missing now and then, with many ties. */
  const viewsThenName: SortEntry[] = [
    { attribute: 'views', path: ['views'], descending: true },
    { attribute: 'name', path: ['name'], descending: false },
  ];
  const randomRecords = (random: () => number) => (objectID: string): SearchRecord => ({
    objectID,
    views: random() < 0.1 ? undefined : Math.floor(random() * 20),
    name: random() < 0.5 ? `n${Math.floor(random() * 5)}` : undefined,
  } as SearchRecord);

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: equal to a full sort after every round of adds, replacements and removals, each folded in`, () => {
      const random = prng(seed);
      const store = new RecordStore();
      const order = new RankOrder(viewsThenName, sortByKeys);
      // a fold finds each removed record by binary search, ties included; one it lost would make it sort everything
      // again, reading every record (a fold of many changes sorts anew too, from the keys it placed: read nothing)
      const sortsEverything = vi.spyOn(order as unknown as { rebuild: (store: RecordStore, keysPlaced?: boolean) => void }, 'rebuild');
      const make = randomRecords(random);
      for (let round = 0; round < 40; round++) {
        const changes = 1 + Math.floor(random() * (round < 5 ? 200 : 20));
        for (let c = 0; c < changes; c++) {
          const objectID = `o${Math.floor(random() * 300)}`;
          store.remove(objectID);
          if (random() < 0.8) store.push(make(objectID));
        }
        expect(Array.from(ranksOf(order, store)), `round ${round}`).toEqual(Array.from(fullSort(store, viewsThenName)));
      }
      expect(sortsEverything.mock.calls.filter(([, keysPlaced]) => !keysPlaced)).toHaveLength(1);
    });
  }

  for (const seed of [4, 5]) {
    it(`seed ${seed}: with values noted as records are saved, equal to a full sort, and no noted record is read`, () => {
      const random = prng(seed);
      const store = new RecordStore();
      const order = new RankOrder(viewsThenName, sortByKeys);
      const reads = vi.spyOn(store, 'get');
      const make = randomRecords(random);
      for (let round = 0; round < 30; round++) {
        const changes = 1 + Math.floor(random() * (round < 3 ? 300 : 20));
        let unnoted = 0;
        for (let c = 0; c < changes; c++) {
          // the same objectID again and again: records added and removed between two folds among them
          const objectID = `o${Math.floor(random() * 100)}`;
          store.remove(objectID);
          if (random() < 0.2) continue;
          const record = make(objectID);
          const id = store.push(record);
          if (random() < 0.9) order.note(store, id, record);
          else unnoted++;
        }
        reads.mockClear();
        expect(Array.from(ranksOf(order, store)), `round ${round}`).toEqual(Array.from(fullSort(store, viewsThenName)));
        // only records saved without a note are read (a fold reads no more than those)
        expect(reads.mock.calls.length, `round ${round}`).toBeLessThanOrEqual(unnoted);
      }
    });
  }

  for (const descending of [false, true]) {
    it(`one numeric entry (${descending ? 'desc' : 'asc'}): the radix sort of a whole store equals a full sort, then folds`, () => {
      const random = prng(descending ? 11 : 12);
      const entries: SortEntry[] = [{ attribute: 'v', path: ['v'], descending }];
      const edge = [0, -0, -1, 1, 0.5, -0.5, 1e308, -1e308, Number.MIN_VALUE, -Number.MIN_VALUE, 2 ** 53, -(2 ** 53), 3, 3, 3];
      const make = (objectID: string): SearchRecord => {
        const r = random();
        const v = r < 0.1 ? undefined : r < 0.4 ? edge[Math.floor(random() * edge.length)] : (random() - 0.5) * 10 ** Math.floor(random() * 12);
        return { objectID, v } as SearchRecord;
      };
      const store = new RecordStore();
      for (let i = 0; i < 3000; i++) store.push(make(`o${i}`));
      const order = new RankOrder(entries, sortByKeys);
      expect(Array.from(ranksOf(order, store))).toEqual(Array.from(fullSort(store, entries)));
      for (let round = 0; round < 5; round++) {
        for (let c = 0; c < 50; c++) {
          const objectID = `o${Math.floor(random() * 3000)}`;
          store.remove(objectID);
          store.push(make(objectID));
        }
        expect(Array.from(ranksOf(order, store)), `round ${round}`).toEqual(Array.from(fullSort(store, entries)));
      }
    });
  }

  it('many changes since the last fold (writes no search asked for): sorted anew from the keys placed, equal to a full sort, nothing read', () => {
    const random = prng(31);
    const make = randomRecords(random);
    const store = new RecordStore();
    const order = new RankOrder(viewsThenName, sortByKeys);
    for (let i = 0; i < 3000; i++) store.push(make(`o${i}`));
    order.update(store);
    const rebuilds = vi.spyOn(order as unknown as { rebuild: (store: RecordStore, keysPlaced?: boolean) => void }, 'rebuild');
    const reads = vi.spyOn(store, 'get');
    for (let c = 0; c < 2500; c++) {
      const objectID = `o${Math.floor(random() * 3500)}`;
      store.remove(objectID);
      if (random() < 0.1) continue;
      const record = make(objectID);
      order.note(store, store.push(record), record);
    }
    expect(Array.from(ranksOf(order, store))).toEqual(Array.from(fullSort(store, viewsThenName)));
    expect(rebuilds.mock.calls.map(([, keysPlaced]) => keysPlaced)).toEqual([true]);
    expect(reads).not.toHaveBeenCalled();
  });

  it('notes of an order no search folds stay within twice the live records, and it ranks right when asked', () => {
    const make = randomRecords(prng(41));
    const store = new RecordStore();
    const order = new RankOrder(viewsThenName, sortByKeys);
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 500; i++) {
        const record = make(`o${i}`);
        store.remove(record.objectID);
        order.note(store, store.push(record), record);
      }
    }
    expect((order as unknown as { noted: { size: number } }).noted.size).toBeLessThanOrEqual(2 * store.size + 1024);
    expect(Array.from(ranksOf(order, store))).toEqual(Array.from(fullSort(store, viewsThenName)));
  });

  it('one entry holding strings is sorted by comparison', () => {
    const entries: SortEntry[] = [{ attribute: 'name', path: ['name'], descending: false }];
    const store = new RecordStore();
    ['pear', 'apple', 'fig', 'apple', undefined, 'banana'].forEach((name, i) => store.push({ objectID: `s${i}`, name } as SearchRecord));
    expect(Array.from(ranksOf(new RankOrder(entries, sortByKeys), store))).toEqual(Array.from(fullSort(store, entries)));
  });

  it('records placed at either end and into one gap again and again: labelled anew when a gap runs out, a write\'s own ids copied otherwise', () => {
    const entries: SortEntry[] = [{ attribute: 'v', path: ['v'], descending: false }];
    const store = new RecordStore();
    for (let i = 0; i < 20; i++) store.push({ objectID: `s${i}`, v: i } as SearchRecord);
    const order = new RankOrder(entries, sortByKeys);
    order.update(store);
    const generations = new Set([order.generation]);
    let next = 0;
    for (let round = 0; round < 60; round++) {
      const pushed: number[] = [];
      const changedBefore = order.generation === [...generations].at(-1) ? order.changed.length : 0;
      // appended (larger than all), prepended (smaller than all), and squeezed ever closer to 5 from above
      for (const v of [1000 + round, -1000 - round, 5 + 2 ** -round, 5 + 2 ** -round]) pushed.push(store.push({ objectID: `n${next++}`, v } as SearchRecord));
      if (round % 3 === 0) store.remove(`s${round % 20}`);
      const generation = order.generation;
      expect(Array.from(ranksOf(order, store)), `round ${round}`).toEqual(Array.from(fullSort(store, entries)));
      // within a generation, a fold labels the ids it placed and no other
      if (order.generation === generation) expect(order.changed.slice(changedBefore)).toEqual(pushed.filter((id) => store.objectIDOf(id) !== undefined).sort((a, b) => order.rankOf(store, a) - order.rankOf(store, b) || a - b));
      generations.add(order.generation);
    }
    // halving one gap sixty times runs out of room: the order was labelled anew at least once
    expect(generations.size).toBeGreaterThan(1);
  });

  it('a different store (a cleared or restored index) is sorted whole', () => {
    const entries: SortEntry[] = [{ attribute: 'views', path: ['views'], descending: false }];
    const order = new RankOrder(entries, sortByKeys);
    const first = new RecordStore();
    for (let i = 0; i < 10; i++) first.push({ objectID: `a${i}`, views: 10 - i } as SearchRecord);
    order.update(first);
    const second = new RecordStore();
    for (let i = 0; i < 10; i++) second.push({ objectID: `b${i}`, views: i } as SearchRecord);
    expect(Array.from(ranksOf(order, second))).toEqual(Array.from(fullSort(second, entries)));
  });

  describe('the tie order (objectID, descending)', () => {
    /** objectIDs of many shapes: long shared prefixes (several radix passes), prefixes of one another, '' and a NUL, non-ASCII. */
    const objectIDOf = (random: () => number) => (): string => {
      const n = Math.floor(random() * 4000);
      switch (Math.floor(random() * 6)) {
        case 0: return `product-${String(n).padStart(9, '0')}`;
        case 1: return n.toString(16).repeat(1 + (n % 3));
        case 2: return String(n);
        case 3: return `ab${'\u0000'.repeat(n % 3)}${n % 7 === 0 ? '' : n}`;
        case 4: return n % 50 === 0 ? '' : `é${n}ü\u{1F600}`;
        default: return `${String.fromCharCode(0xffff - (n % 40))}${n}`;
      }
    };
    /** The live ids as their labels order them; the labels must also be distinct (no two objectIDs tie). */
    const labelled = (order: TieOrder, store: RecordStore): number[] => {
      const { labels } = order.update(store);
      const live = [...store.liveIds()];
      expect(new Set(live.map((id) => labels[id])).size).toBe(live.length);
      return live.sort((a, b) => labels[a] - labels[b]);
    };
    const byObjectID = (store: RecordStore): number[] => [...store.liveIds()].sort((a, b) => {
      const x = store.objectIDOf(a)!;
      const y = store.objectIDOf(b)!;
      return x < y ? 1 : x > y ? -1 : 0;
    });

    for (const seed of [31, 32]) {
      it(`seed ${seed}: sorted whole by radix passes, then kept by folds, equal to a full sort`, () => {
        const random = prng(seed);
        const nextID = objectIDOf(random);
        const store = new RecordStore();
        for (let i = 0; i < 6000; i++) {
          const objectID = nextID();
          store.remove(objectID);
          store.push({ objectID } as SearchRecord);
        }
        const order = new TieOrder(sortByKeys);
        const sortsEverything = vi.spyOn(order as unknown as { rebuild: () => void }, 'rebuild');
        expect(labelled(order, store)).toEqual(byObjectID(store));
        for (let round = 0; round < 30; round++) {
          for (let c = 1 + Math.floor(random() * 100); c > 0; c--) {
            const objectID = nextID();
            store.remove(objectID);
            if (random() < 0.7) store.push({ objectID } as SearchRecord);
          }
          expect(labelled(order, store), `round ${round}`).toEqual(byObjectID(store));
        }
        expect(sortsEverything).toHaveBeenCalledTimes(1);
      });
    }

    it('a replaced record takes the place of the one it replaces, and only its label is copied', () => {
      const store = new RecordStore();
      for (let i = 0; i < 100; i++) store.push({ objectID: `k${i}` } as SearchRecord);
      const order = new TieOrder(sortByKeys);
      const before = labelled(order, store).map((id) => store.objectIDOf(id));
      const generation = order.generation;
      store.remove('k42');
      const id = store.push({ objectID: 'k42' } as SearchRecord);
      expect(labelled(order, store).map((other) => store.objectIDOf(other))).toEqual(before);
      expect(order.generation).toBe(generation);
      expect(order.changed).toEqual([id]);
    });
  });
});

describe('records replaced again and again', () => {
  const words = ['amber', 'basil', 'cedar', 'dune', 'ember', 'fjord', 'grove', 'harbor', 'island', 'juniper'];
  const version = (n: number, round: number) => Array.from({ length: n }, (_, i) => ({
    objectID: `r${i}`,
    text: `${words[(i + round) % words.length]} ${words[(i * 7 + round * 3) % words.length]} number ${i * (round + 1)}`,
  }));
  const answers = async (engine: Lantern) => Promise.all(['amber', 'cedar dune', 'fjo', 'number 12'].map(async (query) => {
    const r = await engine.request({ method: 'POST', path: '/1/indexes/churn/query', body: { query, hitsPerPage: 1000, attributesToHighlight: [] } });
    const { nbHits, hits } = r.body as { nbHits: number; hits: Array<{ objectID: string }> };
    return { query, nbHits, ids: hits.map((h) => h.objectID).sort() };
  }));

  it('compacts the core a step per write, answering as a fresh index of the same records', async () => {
    const engine = await Lantern.open();
    const write = async (body: object[]) => {
      await engine.request({ method: 'POST', path: '/1/indexes/churn/batch', body: { requests: body.map((b) => ({ action: 'addObject', body: b })) } });
    };
    const N = 1500;
    await write(version(N, 0));
    await engine.waitForTasks();
    const core = () => engine.index('churn').coreIndex;
    const fresh = core().postingBytes();
    let shrank = 0;
    for (let round = 1; round <= 6; round++) {
      const records = version(N, round);
      for (let i = 0; i < N; i += 100) await write(records.slice(i, i + 100));
      await engine.waitForTasks();
      const bytes = core().postingBytes();
      if (bytes < fresh * 1.9) shrank++;
      // tombstones never grow past about twice the live records' postings
      expect(bytes).toBeLessThan(fresh * 3.5);
      const reference = await Lantern.open();
      await reference.request({ method: 'POST', path: '/1/indexes/churn/batch', body: { requests: records.map((b) => ({ action: 'addObject', body: b })) } });
      await reference.waitForTasks();
      expect(await answers(engine)).toEqual(await answers(reference));
      await reference.close();
    }
    expect(shrank).toBeGreaterThan(0);
    await engine.close();
  });
});
