// The durability module over state sections of its own, on the file system:
// a new kind of state is a section and nothing else. Properties:
//
// 1. every operation reaches every section, in the order they are given;
// 2. a snapshot holds each section's part; reopening gives each its part back
//    and replays, through the same `apply`, the operations after it;
// 3. a stored snapshot is proven by the sections before it counts;
// 4. a snapshot that fails to load empties every section before the next is tried.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Durability } from '../../src/durability/durability.js';
import type { StateSection } from '../../src/durability/state-section.js';
import { WritePacer } from '../../src/engine/write-pacer.js';
import { fsStorage } from '../../src/storage/fs.js';
import { tempDir } from '../persistence/helpers.js';

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

async function open(dir: string, snapshotEvery = 0) {
  const log: string[] = [];
  const totals = new Totals(log);
  const notes = new Notes(log);
  const durability = new Durability<Op>({
    storage: fsStorage(dir), snapshotEvery, maxQueuedRecords: 1000, repair: false,
    sections: [totals, notes], pacer: new WritePacer(),
  });
  await durability.open();
  return { durability, totals, notes, log };
}

describe('the durability module over state sections', () => {
  it('applies every operation to every section in order, and gives each its part back after a restart', async () => {
    const dir = tempDir('lantern-sections-');
    dirs.push(dir);
    const first = await open(dir);
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

    const second = await open(dir);
    expect(Object.fromEntries(second.totals.totals)).toEqual({ x: 5, y: 7 }); // (2)
    expect(second.notes.notes).toEqual(['at once', 'after the snapshot']);
    // restored from the snapshot, then only the two writes after it replayed, to both sections
    expect(second.log).toHaveLength(4);
    await second.durability.close();
  });

  it('empties every section when a snapshot fails to load, and reports it', async () => {
    const dir = tempDir('lantern-sections-');
    dirs.push(dir);
    const first = await open(dir);
    await first.durability.write({ type: 'add', to: 'x', n: 1 });
    await first.durability.snapshot();
    await first.durability.close();

    const log: string[] = [];
    const totals = new Totals(log);
    totals.failRestore = true;
    const durability = new Durability<Op>({
      storage: fsStorage(dir), snapshotEvery: 0, maxQueuedRecords: 1000, repair: false,
      sections: [new Notes(log), totals], pacer: new WritePacer(),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // the only snapshot does not load and the log no longer reaches back: refused, nothing changed
    await expect(durability.open()).rejects.toThrow(/cannot load these totals/);
    expect(totals.resets).toBe(1); // (4)
    vi.restoreAllMocks();
  });
});
