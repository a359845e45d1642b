// The durability module over state sections of its own, over every log that
// persists (the storage's log on files and on IndexedDB, a cluster's shared
// log on nats-server): a new kind of state is a section and nothing else.
// Properties:
//
// 1. every operation reaches every section, in the order they are given;
// 2. a snapshot holds each section's part; reopening gives each its part back
//    and replays, through the same `apply`, the operations after it;
// 3. a stored snapshot is proven by the sections before it counts;
// 4. a snapshot that fails to load empties every section before the next is tried.
import 'fake-indexeddb/auto';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Durability, type DurabilityOptions } from '../../src/durability/durability.js';
import type { StateSection } from '../../src/durability/state-section.js';
import { WritePacer } from '../../src/engine/write-pacer.js';
import { fsStorage } from '../../src/storage/fs.js';
import { idbStorage } from '../../src/storage/idb.js';
import { natsCluster } from '../../src/nats/cluster.js';
import { tempDir } from '../persistence/helpers.js';
import { natsServerFor, startNats, type NatsGroup } from '../support/nats.js';

type Op = { type: 'add'; to: string; n: number } | { type: 'note'; text: string };

/** A running total per name: a state of its own kind. */
class Totals implements StateSection<{ totals?: Array<[string, number]> }, Op> {
  readonly totals = new Map<string, number>();
  readonly seen: string[] = [];
  resets = 0;
  proofs = 0;
  failRestore = false;
  constructor(private readonly log: string[]) {}
  apply(op: Op, taskID: number): void {
    this.log.push(`totals ${taskID}`);
    if (op.type === 'add') this.totals.set(op.to, (this.totals.get(op.to) ?? 0) + op.n);
  }
  snapshot() { return { totals: [...this.totals] }; }
  restore(state: { totals?: Array<[string, number]> }): void {
    if (this.failRestore) throw new Error('cannot load these totals');
    for (const [name, n] of state.totals ?? []) this.totals.set(name, n);
  }
  reset(): void { this.totals.clear(); this.resets++; }
  async prove(state: { totals?: Array<[string, number]> }): Promise<void> {
    this.proofs++;
    if (!Array.isArray(state.totals)) throw new Error('no totals');
  }
}

/** Notes, in order: a second kind. */
class Notes implements StateSection<{ notes?: string[] }, Op> {
  notes: string[] = [];
  constructor(private readonly log: string[]) {}
  apply(op: Op, taskID: number): void {
    this.log.push(`notes ${taskID}`);
    if (op.type === 'note') this.notes.push(op.text);
  }
  snapshot() { return { notes: [...this.notes] }; }
  restore(state: { notes?: string[] }): void { this.notes = [...state.notes ?? []]; }
  reset(): void { this.notes = []; }
}

const dirs: string[] = [];
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });
let nats: NatsGroup | undefined;
const runNats = natsServerFor('test/durability/sections.test.ts');
beforeAll(async () => { if (runNats) nats = await startNats(1); }, 30_000);
afterAll(async () => { await nats?.close(); });

/** Where the state is kept: each call of `place()` is a new place, whose function opens that same place again. */
type Place = () => Promise<Pick<DurabilityOptions<Op>, 'storage' | 'log'>>;

let places = 0;
const PLACES: Array<{ name: string; place: () => Place }> = [
  { name: 'the storage\'s log on files', place: () => { const dir = tempDir('lantern-sections-'); dirs.push(dir); return async () => ({ storage: fsStorage(dir) }); } },
  { name: 'the storage\'s log on IndexedDB', place: () => { const name = `sections-${process.pid}-${places++}`; return async () => ({ storage: idbStorage(name) }); } },
  ...(runNats ? [{
    name: 'a shared log on nats-server',
    place: () => {
      const appId = `sections${places++}`;
      return async () => natsCluster({ servers: [nats!.urls], appId, report: () => {} });
    },
  }] : []),
];

async function open(place: Place, sections?: (log: string[]) => Array<StateSection<object, Op>>) {
  const log: string[] = [];
  const totals = new Totals(log);
  const notes = new Notes(log);
  const durability = new Durability<Op>({
    ...await place(), snapshotEvery: 0, maxQueuedRecords: 1000, repair: false,
    sections: sections?.(log) ?? [totals, notes], pacer: new WritePacer(),
  });
  await durability.open();
  return { durability, totals, notes, log };
}

describe.each(PLACES)('the durability module over state sections, on $name', ({ place: newPlace }) => {
  it('applies every operation to every section in order, and gives each its part back after a restart', async () => {
    const place = newPlace();
    const first = await open(place);
    const ids = [
      await first.durability.write({ type: 'add', to: 'x', n: 2 }),
      await first.durability.writeNow({ type: 'note', text: 'at once' }), // applied at once, maybe before the first
      await first.durability.write({ type: 'add', to: 'x', n: 3 }),
    ];
    await first.durability.waitForTasks();
    // (1) each operation once to each section, the sections in the order given
    expect(first.log.filter((_, i) => i % 2 === 0).map((e) => Number(e.split(' ')[1])).sort()).toEqual(ids);
    for (let i = 0; i < first.log.length; i += 2) expect(first.log[i + 1]).toBe(first.log[i].replace('totals', 'notes'));
    expect(first.log).toHaveLength(6);
    await first.durability.snapshot();
    expect(first.totals.proofs).toBe(1); // (3)
    await first.durability.write({ type: 'add', to: 'y', n: 7 });
    await first.durability.write({ type: 'note', text: 'after the snapshot' });
    await first.durability.close();

    const second = await open(place);
    expect(Object.fromEntries(second.totals.totals)).toEqual({ x: 5, y: 7 }); // (2)
    expect(second.notes.notes).toEqual(['at once', 'after the snapshot']);
    // restored from the snapshot, then only the two writes after it replayed, to both sections
    expect(second.log).toHaveLength(4);
    await second.durability.close();
  });

  it('empties every section when a snapshot fails to load, and reports it', async () => {
    const place = newPlace();
    const first = await open(place);
    await first.durability.write({ type: 'add', to: 'x', n: 1 });
    await first.durability.snapshot();
    await first.durability.close();

    const failing = new Totals([]);
    failing.failRestore = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    // the only snapshot does not load and the log no longer reaches back (a shared log is purged up to it too): refused
    await expect(open(place, (log) => [new Notes(log), failing])).rejects.toThrow(/cannot load these totals.*the log does not reach back/);
    expect(failing.resets).toBeGreaterThanOrEqual(1); // (4): once per attempt (a shared log's open tries again as the log moves on)
    vi.restoreAllMocks();
  });
});
