// The engine: indexes, the task queue and the durable log. Every write is
// logged, acknowledged with a taskID, then applied in order. Snapshots of the
// whole state are taken every so many writes (and on demand); reopening loads
// the newest valid snapshot and replays the log after it through `apply`.
import { assertJson } from './json-check.js';
import { assertStorable } from './storable.js';
import { loadCore } from '../core/wasm.js';
import { memoryStorage, type Storage } from '../storage/storage.js';
import { Codec } from './persistence.js';
import { isStorageWriteError } from '../storage/errors.js';
import { ApiError, badRequest, notFound } from './errors.js';
import { IndexLoadError, decodeSnapshotOf, recover, type Recovered } from './recovery.js';
import { yieldTurn } from './tasks.js';
import { WritePacer } from './write-pacer.js';
import { matchingObjectIDs, newCursorKey } from './browse.js';
export { checkIndexName } from './index-name.js';
import { SearchIndex, writeClock, type IndexSnapshot } from './search-index.js';
import {
  applyOperation, applyRuleChanges, applySettings, applySynonymChanges, detach, linkVirtualReplicas, settingsTargets, withReplicas,
} from './index-config.js';
import { TaskQueue } from './tasks.js';
import type { Action, AllowedSource, KeyOperation, WriteOperation } from './writes.js';
import { indexKeyIndexes, type ApiKey } from '../auth/api-keys.js';
import { AnalyticsState, type AnalyticsOperation, type AnalyticsSnapshot } from '../analytics/state.js';
import { ClusterMap, type ClusterState } from '../clusters/mapping.js';
import { Metrics } from '../monitoring/metrics.js';
import { observeTask } from '../monitoring/observe.js';

/** How `Lantern.open` opens an engine (exported as `LanternOptions`). */
export interface EngineOptions {
  /** The application ID callers must send in `X-Algolia-Application-Id` (default: any). */
  appId?: string;
  /**
   * The admin API key. Without one the engine is open: every caller is
   * admin, which suits an application embedding it for itself.
   */
  adminKey?: string;
  /**
   * Where indexes, keys and tasks are kept: `memoryStorage()` (the default:
   * nothing survives the process), `idbStorage(name)` in browsers and
   * workers, `fsStorage(dir)` in Node and Electron (`lantern-search/node`).
   */
  storage?: Storage;
  /** Encrypts the log and snapshots (AES-GCM): a passphrase or a 16/32-byte key. */
  encryptionKey?: string | Uint8Array;
  /** A snapshot is taken after this many writes (default 2000; 0 = only on `snapshot()`). */
  snapshotEvery?: number;
  /**
   * Records (of batches; 1 for any other write) the task queue may hold
   * before a write's acknowledgement waits for room (default 20,000, a few
   * seconds of indexing): a writer faster than indexing is slowed down instead
   * of growing the queue and memory without bound. Its write is durable
   * before it waits.
   */
  maxQueuedRecords?: number;
  /** The country (ISO code) of a search's source address, for analytics; unknown when absent or undefined. */
  resolveCountry?: (ip: string) => string | undefined;
  /** Names of the clusters users can be assigned to (default one cluster). */
  clusters?: string[];
  /**
   * Opens a damaged store by keeping what can be kept: damaged log records are
   * skipped, the best snapshot that loads is used, and a new snapshot is
   * written at once. Without it, damage that would lose acknowledged writes
   * fails the open with a StoreDamagedError and changes nothing.
   */
  repair?: boolean;
}

/** The whole engine as a snapshot holds it. */
interface EngineState {
  version: 1;
  lastTaskID: number;
  indexes: IndexSnapshot[];
  /** API keys, live and deleted (restorable); absent in older snapshots. */
  keys?: ApiKey[];
  deletedKeys?: ApiKey[];
  /** The source allow-list; absent = disabled. */
  sources?: AllowedSource[];
  /** Search and insight events, A/B tests, personalization; absent in older snapshots. */
  analytics?: AnalyticsSnapshot;
  /** Multi-cluster user assignments and record owners; absent in older snapshots. */
  clusters?: ClusterState;
  /** Indexes that could not be loaded, as they were stored (see Engine.quarantined). */
  quarantined?: IndexSnapshot[];
}

/**
 * Actions of a batch applied in one event-loop turn (~1,000 records take
 * ~25 ms to index; each slice makes the next searches refresh the core's
 * caches). Measured with four writers of 1,000-record batches against eight
 * searchers (bench/reads-under-writes.mjs, alternated in one session): p99
 * 65-72 ms at 250, 62-64 ms at 100, 54-59 ms at 50 (which cost a third of
 * the writes' throughput).
 */
const APPLY_SLICE = 100;

/** Milliseconds `work` took. */
function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

export class Engine {
  /** @internal The indexes by name (the API lists them: listIndices). */
  readonly indexes = new Map<string, SearchIndex>();
  /** @internal */
  readonly tasks = new TaskQueue();
  /** The application ID callers must send (any, when undefined). */
  readonly appId: string | undefined;
  /** The admin API key (undefined: the engine is open, every caller is admin). */
  readonly adminKey: string | undefined;
  /** @internal API keys by value, and the deleted ones that can still be restored. */
  readonly keys = new Map<string, ApiKey>();
  /** @internal */
  readonly deletedKeys = new Map<string, ApiKey>();
  /** @internal The source allow-list (firewall); undefined until first set = every source allowed. */
  sources: AllowedSource[] | undefined;
  /** @internal Search and insight events, A/B tests, the personalization strategy. */
  analytics = this.newAnalyticsState();
  /** @internal */
  readonly resolveCountry: ((ip: string) => string | undefined) | undefined;
  /** @internal */
  readonly clusters: ClusterMap;
  /** @internal What this process served: operations, latency, indexing time, incidents. */
  readonly metrics = new Metrics();
  /** @internal Keeps indexing from starving searches (the router notes each read). */
  readonly pacer = new WritePacer();
  private readonly storage: Storage;
  private codec!: Codec;
  /** @internal Signs browse cursors; a new one per process, so older cursors are stale. */
  cursorKey!: CryptoKey;
  private logTail: Promise<void> = Promise.resolve();
  private lastApplied = 0;
  private appliedSinceSnapshot = 0;
  private snapshotting: Promise<void> | undefined;
  /** The snapshot in flight has captured the engine and is being encoded and stored. */
  private snapshotCaptured = false;
  private readonly snapshotEvery: number;
  /**
   * @internal
   * Indexes a snapshot held that could not be loaded, by name: the others
   * opened. Each is kept as it was stored (and in every later snapshot, so a
   * version that reads it gets it back); reads and writes of it answer 503
   * until it is deleted.
   */
  readonly quarantined = new Map<string, { reason: string; snapshot: IndexSnapshot }>();
  /**
   * The task at which each key last started anew (created, or recreated on
   * another index). Key writes apply at once, ahead of queued writes, while
   * a replay applies everything in log order: this tells a queued copy or
   * move which keys were not yet the ones it saw when it was accepted.
   */
  private readonly keyStartedAt = new Map<string, number>();
  /** What opening found damaged and recovered from (empty for a sound store). */
  recovery: Recovered = { lastTaskID: 0, problems: [], lost: [], fellBack: false };

  /** @internal Engines are opened with `Lantern.open`. */
  protected constructor(private readonly options: EngineOptions) {
    this.appId = options.appId;
    this.adminKey = options.adminKey;
    this.storage = options.storage ?? memoryStorage();
    this.snapshotEvery = options.snapshotEvery ?? 2000;
    this.resolveCountry = options.resolveCountry;
    this.clusters = new ClusterMap(options.clusters);
  }

  private newAnalyticsState(): AnalyticsState {
    return new AnalyticsState((op) => this.writeKey(op), (op) => this.logApplied(op));
  }

  /** @internal Reads back what the storage holds (Lantern.open calls it). */
  protected async load(): Promise<void> {
    try {
      await loadCore();
      this.cursorKey = await newCursorKey();
      this.codec = await Codec.create(this.options.encryptionKey);
      await this.recover();
    } catch (e) {
      await this.storage.close();
      throw e;
    }
  }

  /** Newest valid snapshot, then the log after it (see recovery.ts). */
  private async recover(): Promise<void> {
    const stored = await this.storage.open();
    const repair = this.options.repair === true;
    this.recovery = await recover<EngineState>(stored, this.codec, {
      restore: (state, quarantine) => this.restore(state, quarantine),
      reset: () => this.reset(),
      replay: (op, taskID) => this.replay(op as WriteOperation, taskID),
    }, repair);
    this.lastApplied = this.recovery.lastTaskID;
    this.tasks.advancePast(this.lastApplied);
    await stored.repair?.();
    // a store recovered from an older snapshot, or repaired, stands on a new one from now on
    if (this.recovery.fellBack || (repair && this.recovery.problems.length > 0)) await this.snapshot();
  }

  /** Back to an empty engine (a snapshot failed to load halfway). */
  private reset(): void {
    this.indexes.clear();
    this.keys.clear();
    this.keyStartedAt.clear();
    this.deletedKeys.clear();
    this.sources = undefined;
    this.analytics = this.newAnalyticsState();
    this.clusters.clear();
    this.quarantined.clear();
  }

  /** Applies a logged write again; one to a quarantined index is skipped (it would rebuild the index from its tail). */
  private replay(op: WriteOperation, taskID: number): void {
    const name = 'indexName' in op ? op.indexName : undefined;
    if (name !== undefined && this.quarantined.has(name) && op.type !== 'deleteIndex') {
      console.warn(`lantern: task ${taskID} writes to the quarantined index "${name}"; it is skipped`);
      return;
    }
    this.apply(op, taskID);
  }

  private async restore(state: EngineState, quarantine: boolean): Promise<string[]> {
    const set: string[] = [];
    for (const snapshot of [...state.indexes, ...state.quarantined ?? []]) {
      try {
        this.indexes.set(snapshot.name, await SearchIndex.restore(snapshot));
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        if (!quarantine && state.indexes.includes(snapshot)) throw new IndexLoadError(snapshot.name, reason);
        this.quarantined.set(snapshot.name, { reason, snapshot });
        set.push(snapshot.name);
      }
    }
    linkVirtualReplicas(this.indexes);
    for (const key of state.keys ?? []) this.keys.set(key.value, key);
    for (const key of state.deletedKeys ?? []) this.deletedKeys.set(key.value, key);
    this.sources = state.sources;
    if (state.analytics) this.analytics.restore(state.analytics);
    this.clusters.restore(state.clusters);
    return set;
  }

  /** Writes a snapshot of everything applied so far (waits for queued writes first). */
  async snapshot(): Promise<void> {
    if (this.snapshotting) return this.snapshotting;
    this.snapshotting = (async () => {
      try {
        let state: EngineState | undefined = await this.captured();
        const taskID = state.lastTaskID;
        this.appliedSinceSnapshot = 0;
        this.snapshotCaptured = true;
        const pieces = await this.codec.encodeSnapshot(state, yieldTurn);
        // the pieces hold what they still have to write, and nothing else does: the capture (a copy of
        // every core) is let go a section at a time as it is written, before the proof reads it back
        state = undefined;
        await this.storage.writeSnapshot({ taskID, pieces }, (stored) => this.prove(stored, taskID));
      } finally {
        this.snapshotting = undefined;
        this.snapshotCaptured = false;
      }
    })();
    return this.snapshotting;
  }

  /**
   * The engine's state, taken after the writes queued so far and before any
   * newer one: it cannot change while it is captured, and a steady stream of
   * writes cannot postpone it.
   */
  private captured(): Promise<EngineState> {
    return this.tasks.exclusive(async () => {
      this.storage.snapshotStarted?.(this.lastApplied);
      return this.state();
    });
  }

  /**
   * Proves a stored snapshot before anything it supersedes is dropped: it is
   * decoded, says the task it was taken at, and every index loads into a core
   * of its own with every record readable, as a restart would need them.
   */
  private async prove(stored: Uint8Array, taskID: number): Promise<void> {
    const state = await decodeSnapshotOf<EngineState>(this.codec, stored, taskID, yieldTurn);
    for (const snapshot of state.indexes) {
      await (await SearchIndex.restore(snapshot)).readEveryRecord(yieldTurn);
      await yieldTurn();
    }
  }

  private async state(): Promise<EngineState> {
    return ({
      version: 1,
      lastTaskID: this.lastApplied,
      keys: [...this.keys.values()],
      deletedKeys: [...this.deletedKeys.values()],
      ...(this.sources ? { sources: this.sources } : {}),
      analytics: this.analytics.snapshot(),
      clusters: this.clusters.snapshot(),
      ...(this.quarantined.size > 0 ? { quarantined: [...this.quarantined.values()].map((q) => q.snapshot) } : {}),
      indexes: await Promise.all([...this.indexes.values()].map((i) => i.snapshot())),
    });
  }

  /** Runs storage calls one at a time, in the order they were asked for. */
  private serialized(call: () => Promise<void>): Promise<void> {
    const done = this.logTail.then(call);
    this.logTail = done.catch(() => {});
    return done;
  }

  /** @internal */
  index(name: string): SearchIndex {
    const index = this.indexes.get(name);
    if (!index) throw this.quarantineError(name) ?? notFound("Index does not exist");
    return index;
  }

  private quarantineError(name: string): ApiError | undefined {
    const quarantined = this.quarantined.get(name);
    if (!quarantined) return undefined;
    return new ApiError(503, `Index "${name}" is quarantined: it could not be loaded from its snapshot (${quarantined.reason}). Delete it, or open the store with a version that reads it`);
  }

  /** @internal Logs `op` durably, then queues it; resolves with its taskID. */
  async write(operation: WriteOperation): Promise<number> {
    const quarantined = 'indexName' in operation && operation.type !== 'deleteIndex' ? this.quarantineError(operation.indexName) : undefined;
    if (quarantined) throw quarantined;
    const op = { ...operation, at: Date.now() };
    const taskID = this.tasks.allocate();
    await this.logged(taskID, op);
    const weight = op.type === 'batch' ? Math.max(1, op.actions.length) : 1;
    this.tasks.schedule(taskID, () => this.applied(taskID, op), (e) => console.error(`lantern: task ${taskID} failed`, e), 'indexName' in op ? op.indexName : undefined, weight);
    // backpressure: a writer faster than indexing waits (its write is durable) instead of growing the queue without bound
    await this.tasks.roomFor(this.options.maxQueuedRecords ?? 20_000);
    return taskID;
  }

  /**
   * Logs a key change durably and applies it at once (no task to wait for).
   * Key operations are idempotent: a snapshot taken before the queue reaches
   * this taskID replays it harmlessly. Analytics operations take the same
   * path (they are idempotent too). Resolves with the taskID.
   * @internal
   */
  async writeKey(op: KeyOperation | AnalyticsOperation): Promise<number> {
    const taskID = this.tasks.allocate();
    await this.logged(taskID, op, () => this.apply(op, taskID));
    return taskID;
  }

  /**
   * Logs an operation the engine made itself and has already applied (the
   * search events analytics recorded on the spot): it needs neither applying
   * nor the JSON check of what callers send.
   * @internal
   */
  async logApplied(op: AnalyticsOperation): Promise<number> {
    const taskID = this.tasks.allocate();
    if (this.storage.append && this.storage.readOnly === undefined) await this.logged(taskID, op);
    return taskID;
  }

  /**
   * Appends `op` to the storage's log (in call order), then runs `then`. A
   * storage that keeps no log gets nothing: encoding a batch of records to
   * bytes only to drop them took a third of indexing in memory. The
   * operation is still checked to be JSON (what cannot be logged is refused
   * alike whatever the storage).
   */
  private logged(taskID: number, op: object, then?: () => void): Promise<void> {
    if (this.storage.readOnly !== undefined) throw new ApiError(503, this.storage.readOnly);
    const append = this.storage.append?.bind(this.storage);
    let encoded: Promise<Uint8Array> | undefined;
    try {
      if (append) encoded = this.codec.encodeOperation(op);
      else assertJson(op);
    } catch (e) {
      // in-process callers only (HTTP bodies are JSON): a cycle, a BigInt
      throw badRequest(`Invalid JSON: the write cannot be written as JSON (${String(e instanceof Error ? e.message : e).split('\n')[0]})`);
    }
    assertStorable(op); // and what a snapshot could not hold exactly (too deep, Infinity, a lone surrogate)
    return this.serialized(async () => {
      if (append) {
        const bytes = await encoded!;
        // a large write is appended on a turn of its own, after its checks and encoding: searches waiting run between
        if (bytes.length > LARGE_ENTRY_BYTES) await yieldTurn();
        const appending = performance.now();
        await append({ taskID, bytes }).catch(refuseUnstored);
        this.pacer.charge(performance.now() - appending);
      }
      then?.();
    });
  }

  private applyKey(op: KeyOperation, taskID: number): void {
    if (op.action === 'assignUsers' || op.action === 'removeUser') return this.clusters.apply(op);
    if (op.action === 'sources') {
      this.sources = op.sources;
      return;
    }
    if (op.action === 'put') {
      // the indexes a copy or move extended the key to are the ones of now (a key write applies at once,
      // before the operations still queued; a replay applies them in log order): they are kept, when the
      // key stays on its index (a key recreated over a deleted one of another index starts anew)
      const existing = this.keys.get(op.key.value) ?? this.deletedKeys.get(op.key.value);
      const continued = existing !== undefined && existing.index === op.key.index;
      const key = continued ? { ...op.key, copiedTo: existing.copiedTo } : op.key;
      if (!key.copiedTo) delete key.copiedTo;
      if (!continued) this.keyStartedAt.set(op.key.value, taskID);
      this.keys.set(op.key.value, key);
      this.deletedKeys.delete(op.key.value);
      return;
    }
    const [from, to] = op.action === 'delete' ? [this.keys, this.deletedKeys] : [this.deletedKeys, this.keys];
    const key = from.get(op.value);
    if (!key) return;
    from.delete(op.value);
    to.set(op.value, key);
  }

  private async applied(taskID: number, op: WriteOperation): Promise<void> {
    await this.afterSnapshotInFlight();
    try {
      if (op.type === 'settings') await this.prepareSettings(op);
      await observeTask(this, op, () => this.applyInSlices(op, taskID));
    } finally {
      this.lastApplied = taskID;
      this.appliedSinceSnapshot++;
      if (this.snapshotDue()) this.autoSnapshot();
    }
  }

  /**
   * Applies a live write; a large batch a slice of actions per event-loop
   * turn, so searches are answered between slices instead of waiting for the
   * whole batch. Resolves with the milliseconds spent applying.
   */
  private async applyInSlices(op: WriteOperation & { at?: number }, taskID: number): Promise<number> {
    const actions = op.type === 'batch' ? op.actions : [];
    let busy = 0;
    for (let first = 0; first === 0 || first < actions.length; first += APPLY_SLICE) {
      if (first > 0) await yieldTurn();
      // searches waiting get as much time as writes took since the last pause (see write-pacer.ts)
      await this.pacer.pause();
      const slice = op.type === 'batch' && actions.length > APPLY_SLICE ? { ...op, actions: actions.slice(first, first + APPLY_SLICE) } : op;
      const ms = timed(() => {
        this.apply(slice, taskID);
        // while searches arrive, the write folds its changes into the rank orders (paced as write work)
        // instead of the first search after it
        if (this.pacer.readsArriving && 'indexName' in op) this.computeRanksOf(op.indexName);
      });
      this.pacer.charge(ms);
      busy += ms;
    }
    return busy;
  }

  private snapshotDue(): boolean {
    return this.snapshotEvery > 0 && this.appliedSinceSnapshot >= this.snapshotEvery;
  }

  private autoSnapshot(): void {
    this.snapshot().catch((e) => console.error('lantern: automatic snapshot failed', e));
  }

  /**
   * A write stall: when the next snapshot is due while the one before it is
   * still being encoded and stored, writes wait for it before they are
   * applied, then start the due one. Otherwise a slow disk would let the log
   * grow past two snapshots' worth of writes.
   */
  private async afterSnapshotInFlight(): Promise<void> {
    if (!this.snapshotDue() || !this.snapshotCaptured) return;
    await this.snapshotting?.catch(() => {});
    this.autoSnapshot();
  }

  /** Settings that change indexing are built in the background first (searches keep their answers). */
  private async prepareSettings(op: Extract<WriteOperation, { type: 'settings' }>): Promise<void> {
    for (const [index, changes] of settingsTargets(this.indexes, op.indexName, op.settings, op.forwardToReplicas === true)) {
      await index.prepareSettings(changes);
    }
  }

  /** Resolves once every accepted write is applied. */
  waitForTasks(): Promise<void> { return this.tasks.idle(); }

  async close(): Promise<void> {
    await this.analytics.flush();
    await this.tasks.idle();
    await this.snapshotting;
    await this.logTail;
    await this.storage.close();
  }

  /** Applies the write `taskID` at the time it was accepted (createdAt/updatedAt replay identically). */
  private apply(op: WriteOperation & { at?: number }, taskID: number): void {
    const clock = writeClock.now;
    if (op.at !== undefined) writeClock.now = () => op.at!;
    try {
      this.applyOperation(op, taskID);
    } finally {
      writeClock.now = clock;
    }
  }

  private applyOperation(op: WriteOperation, taskID: number): void {
    this.clusters.observe(op);
    switch (op.type) {
      case 'batch': return this.applyBatch(op.indexName, op.actions);
      case 'settings':
        return applySettings(this.indexes, (n) => this.ensureIndex(n), op.indexName, op.settings, op.forwardToReplicas === true);
      case 'synonyms': return applySynonymChanges(this.indexes, op.indexName, op, op.forwardToReplicas === true);
      case 'rules': return applyRuleChanges(this.indexes, op.indexName, op, op.forwardToReplicas === true);
      case 'operation': {
        const whole = !(op.operation === 'copy' && op.scope?.length);
        if (whole && this.indexes.has(op.indexName)) this.extendIndexKeys(op.indexName, op.destination, taskID, op.keys);
        return applyOperation(this.indexes, (n) => this.ensureIndex(n), op.indexName, op.destination, op.operation, op.scope);
      }
      case 'deleteIndex': return this.dropIndex(op.indexName);
      case 'key': return this.applyKey(op, taskID);
      case 'analytics': return this.analytics.apply(op);
      case 'deleteByQuery': {
        for (const index of withReplicas(this.indexes, op.indexName, true)) index.delete(matchingObjectIDs(index, op.params));
        return;
      }
    }
  }

  private ensureIndex(name: string): SearchIndex {
    let index = this.indexes.get(name);
    if (!index) {
      index = new SearchIndex(name);
      this.indexes.set(name, index);
    }
    return index;
  }

  /** Applies actions in order; consecutive adds go to the core as one batch. */
  /** Object writes go to the index and to every replica that follows it. */
  private applyBatch(indexName: string, actions: Action[]): void {
    const replicas = withReplicas(this.indexes, indexName, true).slice(1).map((r) => r.name);
    this.applyActions(indexName, actions);
    for (const replica of replicas) this.applyActions(replica, actions.filter((a) => a.action !== 'delete'));
  }

  /** Computes the rank arrays of an index and of its replicas for their data as it is now. */
  private computeRanksOf(indexName: string): void {
    for (const index of withReplicas(this.indexes, indexName, true)) index.computeRanksOnce();
  }

  /** Every key, live and deleted (copies and moves extend both). */
  private everyKey(): ApiKey[] {
    return [...this.keys.values(), ...this.deletedKeys.values()];
  }

  /** @internal The index-specific keys (deleted ones too) that reach an index now. */
  indexKeysReaching(indexName: string): string[] {
    return this.everyKey().filter((key) => indexKeyIndexes(key).includes(indexName)).map((key) => key.value);
  }

  /**
   * A whole copy or move: the source's index-specific keys reach the destination too (its own ones stay):
   * those of `only`, the keys reaching it when the operation was accepted, when the operation says.
   */
  private extendIndexKeys(source: string, destination: string, taskID: number, only?: string[]): void {
    for (const key of this.everyKey()) {
      if (only && !only.includes(key.value)) continue;
      // a key that started anew after this operation was accepted (recreated on another index, applied at
      // once while the operation was queued) is not the key `only` named: a replay resets it after this
      if ((this.keyStartedAt.get(key.value) ?? 0) > taskID) continue;
      const reached = indexKeyIndexes(key);
      if (reached.includes(source) && !reached.includes(destination)) key.copiedTo = [...(key.copiedTo ?? []), destination];
    }
  }

  /** A deleted primary leaves its replicas standalone. */
  private dropIndex(name: string): void {
    for (const replica of withReplicas(this.indexes, name, true).slice(1)) detach(replica);
    this.indexes.delete(name);
    this.quarantined.delete(name);
  }

  private applyActions(indexName: string, actions: Action[]): void {
    let pendingSaves: Array<Extract<Action, { body: unknown }>['body']> = [];
    const flush = () => {
      if (pendingSaves.length) this.ensureIndex(indexName).save(pendingSaves as never);
      pendingSaves = [];
    };
    for (const a of actions) {
      if (a.action === 'addObject' || a.action === 'updateObject') { pendingSaves.push(a.body); continue; }
      flush();
      switch (a.action) {
        case 'partialUpdateObject':
        case 'partialUpdateObjectNoCreate': {
          const create = a.action === 'partialUpdateObject';
          if (create || this.indexes.has(indexName)) this.ensureIndex(indexName).partialUpdate(a.objectID, a.body, create);
          break;
        }
        case 'deleteObject': this.indexes.get(indexName)?.delete([a.objectID]); break;
        case 'clear': this.indexes.get(indexName)?.clear(); break;
        case 'delete': this.dropIndex(indexName); break;
      }
    }
    flush();
  }
}

/** Bytes of a logged write past which it is appended on a turn of its own (see logged). */
const LARGE_ENTRY_BYTES = 64 * 1024;

/** A write the storage could not make durable is refused, not acknowledged: 507 when the disk is full, else 503. */
function refuseUnstored(e: unknown): never {
  if (isStorageWriteError(e)) throw new ApiError(e.diskFull ? 507 : 503, e.message);
  throw e;
}
