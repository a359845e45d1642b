// The indexes section of the engine's state: every index by name, and those
// a snapshot held that could not be loaded (quarantined). It applies the
// index writes (batches, settings, synonyms, rules, copy/move, deletions),
// each at the time it was accepted, and gives the durability module its
// part of snapshots (`indexes`, `quarantined`).
import { vectorOfText } from '../vectors/vector-text.js';
import type { EmbeddedVector } from '../vectors/index-vectors.js';
import { ApiError, notFound } from '../util/errors.js';
import { IndexLoadError } from '../durability/recovery.js';
import { matchingObjectIDs } from '../query/browse.js';
import { SearchIndex, WriteClock, type IndexSnapshot } from '../index/search-index.js';
import {
  applyOperation, applyRuleChanges, applySettings, applySynonymChanges, detach, linkReplicas, replicasLeaving, settingsTargets, withReplicas,
} from '../index/index-config.js';
import { yieldTurn } from '../util/turns.js';
import { IdleWork } from '../index/idle-work.js';
import type { Action, WriteOperation } from './writes.js';
import type { SearchRecord } from '../index/records.js';
import { LOGGED_TEXT } from '../util/logged-text.js';
import type { RestoreOptions, StateSection } from '../durability/state-section.js';

/** A replica searched within so long has a write fold its ranks in (see computeRanksOf). */
const REPLICA_SEARCHED_MS = 10_000;
/**
 * Quiet time after the last write before the ranks of the indexes written
 * are readied (see readyRanks), as for the prefix warming and packing.
 */
const RANKS_QUIET_MS = 100;

/** The indexes' part of a snapshot. */
export interface IndexesPart {
  indexes: IndexSnapshot[];
  /** Indexes that could not be loaded, as they were stored (see IndexCatalog.quarantined). */
  quarantined?: IndexSnapshot[];
}

export class IndexCatalog implements StateSection<IndexesPart, WriteOperation & { at?: number }> {
  /** The indexes by name (the API lists them: listIndices). */
  readonly indexes = new Map<string, SearchIndex>();
  /**
   * Indexes a snapshot held that could not be loaded, by name: the others
   * opened. Each is kept as it was stored (and in every later snapshot, so a
   * version that reads it gets it back); reads and writes of it answer 503
   * until it is deleted.
   */
  readonly quarantined = new Map<string, { reason: string; snapshot: IndexSnapshot }>();
  /** The time of the write being applied, for its indexes' createdAt and updatedAt. */
  private readonly clock = new WriteClock();
  /** The indexes written since their ranks were last readied (names; their replicas follow: see computeRanksOf). */
  private readonly ranksToReady = new Set<string>();
  /**
   * Readies the ranks of the indexes written, an order a step, once writes
   * pause: sorted whole after an import, the orders of customRanking and of
   * ties cost the first search ~100-300 ms at 100,000 records.
   */
  private readonly rankReadying = new IdleWork(() => this.readyRanks(), RANKS_QUIET_MS);
  /** How far the readying of the first index of ranksToReady went: which of the indexes readied with it (see readiedWith), which slot. */
  private readying = { target: 0, slot: 0 };

  /** The index of that name; a 404 (a 503 for a quarantined one) when there is none. */
  index(name: string): SearchIndex {
    const index = this.indexes.get(name);
    if (!index) throw this.quarantineError(name) ?? notFound('Index does not exist');
    return index;
  }

  /** The error a write to or read of a quarantined index answers. */
  quarantineError(name: string): ApiError | undefined {
    const quarantined = this.quarantined.get(name);
    if (!quarantined) return undefined;
    return new ApiError('unavailable', `Index "${name}" is quarantined: it could not be loaded from its snapshot (${quarantined.reason}). Delete it, or open the store with a version that reads it`);
  }

  /** A write to replay: one to a quarantined index is skipped (it would rebuild the index from its tail). */
  replays(op: WriteOperation, taskID: number): boolean {
    const name = 'indexName' in op ? op.indexName : undefined;
    if (name === undefined || !this.quarantined.has(name) || op.type === 'deleteIndex') return true;
    console.warn(`lantern: task ${taskID} writes to the quarantined index "${name}"; it is skipped`);
    return false;
  }

  /** Applies an index write at the time it was accepted (createdAt/updatedAt replay identically). */
  apply(op: WriteOperation & { at?: number }): void {
    if (!isIndexWrite(op)) return;
    this.clock.at = op.at;
    try {
      this.applyWrite(op);
    } finally {
      this.clock.at = undefined;
    }
    this.noteRanksToReady(op);
  }

  /** The write's indexes (a copy's or move's destination too) have their ranks readied once writes pause. */
  private noteRanksToReady(op: IndexWrite): void {
    this.ranksToReady.add(op.indexName);
    if (op.type === 'operation') this.ranksToReady.add(op.destination);
    this.rankReadying.noteWrite();
  }

  /**
   * A step of readying the ranks of the indexes written (see
   * computeRanksOf), as their next search would: the order behind one rank
   * slot of the first index or of one of its replicas searched lately, or,
   * once every one is up to date, the ranks put in the index's core (which
   * finds the orders so). Whether any step is left. A search arriving
   * meanwhile waits for the step (~100 ms for an order of the 135k cities
   * sorted whole), as it would have done the work itself.
   */
  private readyRanks(): boolean {
    const [name] = this.ranksToReady;
    if (name === undefined) return false;
    const target = this.readiedWith(name)[this.readying.target];
    if (target !== undefined) {
      if (!target.computeRankSlot(this.readying.slot++)) this.readying = { target: this.readying.target + 1, slot: 0 };
      return true;
    }
    this.readying = { target: 0, slot: 0 };
    this.ranksToReady.delete(name);
    this.computeRanksOf(name);
    return this.ranksToReady.size > 0;
  }

  /** The catalog's idle work and each index's stop (the engine is closed): nothing more runs in idle time. */
  letGo(): void {
    this.rankReadying.cancel();
    this.ranksToReady.clear();
    for (const index of this.indexes.values()) index.letGo();
  }

  private applyWrite(op: IndexWrite): void {
    switch (op.type) {
      case 'batch': return this.applyBatch(op.indexName, op.actions);
      case 'settings':
        return applySettings(this.indexes, (n) => this.ensureIndex(n), op.indexName, { settings: op.settings, given: op.given ?? {} }, op.forwardToReplicas === true);
      // synonyms and rules written to a new index make it, as records and settings do
      case 'synonyms':
        this.ensureIndex(op.indexName);
        return applySynonymChanges(this.indexes, op.indexName, op, op.forwardToReplicas === true);
      case 'rules':
        this.ensureIndex(op.indexName);
        return applyRuleChanges(this.indexes, op.indexName, op, op.forwardToReplicas === true);
      case 'operation':
        return applyOperation(this.indexes, (n) => this.ensureIndex(n), (n) => this.newIndex(n), op.indexName, op.destination, op.operation, op.scope);
      case 'deleteIndex': return this.dropIndex(op.indexName);
      case 'deleteByQuery':
        for (const index of withReplicas(this.indexes, op.indexName, true)) index.delete(matchingObjectIDs(index, op.params));
        return;
      case 'vectors': return this.applyVectors(op);
    }
  }

  /** Computed vectors go to the index and to its replicas (each keeps those of records whose text is still the one embedded). */
  private applyVectors(op: Extract<IndexWrite, { type: 'vectors' }>): void {
    const vectors: EmbeddedVector[] = [];
    for (const entry of op.entries) {
      const vector = vectorOfText(entry.vector);
      if (vector) vectors.push({ objectID: entry.objectID, hash: entry.hash, vector });
    }
    for (const index of withReplicas(this.indexes, op.indexName, true)) index.takeEmbedded(op.embedder, vectors);
  }

  /** The indexes a write may have changed the records of: its index and that index's replicas (and a copy's or move's destination). */
  written(op: IndexWrite): SearchIndex[] {
    const names = op.type === 'operation' ? [op.indexName, op.destination] : [op.indexName];
    return names.flatMap((name) => withReplicas(this.indexes, name, true));
  }

  /** After a write: the ids of the indexes it wrote issued again where most are no longer any record's (see SearchIndex.renumberIfSparse). */
  async renumberSparse(op: IndexWrite): Promise<void> {
    for (const index of this.written(op)) await index.renumberIfSparse();
  }

  /** Settings that change indexing are built in the background first (searches keep their answers). */
  async prepareSettings(op: Extract<WriteOperation, { type: 'settings' }>): Promise<void> {
    const targets = settingsTargets(this.indexes, op.indexName, op.settings, op.forwardToReplicas === true);
    for (const [index, changes] of targets) await index.prepareSettings(changes);
    // replicas about to stop reading their primary's data build their own copy meanwhile
    for (const [replica, next] of replicasLeaving(this.indexes, op.indexName, targets)) await replica.prepareOwnCopy(next);
  }

  /**
   * Computes the rank arrays of an index and of its replicas searched lately
   * for their data as it is now, and puts the index's own in its core, where
   * its next search would have put them (a replica that searches the same
   * core puts its own back).
   */
  computeRanksOf(indexName: string): void {
    const [index, ...replicas] = this.readiedWith(indexName);
    for (const replica of replicas) replica.computeRanksOnce();
    index?.prepareRanks();
  }

  /**
   * The indexes whose ranks are readied with an index's: the index (none if
   * there is none) and its replicas searched lately. A replica no one
   * searched lately folds the changes in at its next search (a sort anew
   * when they are many), as folded at every write a dozen sort replicas cost
   * most of a write.
   */
  private readiedWith(indexName: string): SearchIndex[] {
    const [index, ...replicas] = withReplicas(this.indexes, indexName, true);
    return index ? [index, ...replicas.filter((replica) => replica.rankedWithin(REPLICA_SEARCHED_MS))] : [];
  }

  private ensureIndex(name: string): SearchIndex {
    let index = this.indexes.get(name);
    if (!index) {
      index = this.newIndex(name);
      this.indexes.set(name, index);
    }
    return index;
  }

  /** A new empty index on this catalog's clock (not listed yet). */
  private newIndex(name: string): SearchIndex {
    return new SearchIndex(name, undefined, this.clock);
  }

  /** Object writes go to the index and to every replica that follows it. */
  private applyBatch(indexName: string, actions: Action[]): void {
    const replicas = withReplicas(this.indexes, indexName, true).slice(1).map((r) => r.name);
    this.applyActions(indexName, actions);
    for (const replica of replicas) this.applyActions(replica, actions.filter((a) => a.action !== 'delete'));
  }

  /** A deleted primary leaves its replicas standalone. */
  private dropIndex(name: string): void {
    for (const replica of withReplicas(this.indexes, name, true).slice(1)) detach(replica);
    this.indexes.get(name)?.letGo();
    this.indexes.delete(name);
    this.quarantined.delete(name);
  }

  /** Applies actions in order; consecutive adds go to the core as one batch, with the texts the log holds of them. */
  private applyActions(indexName: string, actions: Action[]): void {
    let pendingSaves: SearchRecord[] = [];
    let loggedTexts: Array<Uint8Array | undefined> = [];
    const flush = () => {
      if (pendingSaves.length) this.ensureIndex(indexName).save(pendingSaves, loggedTexts);
      pendingSaves = [];
      loggedTexts = [];
    };
    for (const a of actions) {
      if (a.action === 'addObject' || a.action === 'updateObject') {
        pendingSaves.push(a.body);
        loggedTexts.push(a[LOGGED_TEXT]);
        continue;
      }
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

  /**
   * Takes ahead of searches the memory their first one would take (see
   * CoreIndex.prepareSearches), in every index: the engine calls it once
   * it has loaded what its storage holds. Not after writes: an import
   * applied in turns would take it for the size of its first turns, and
   * the caches of the whole index would then grow entry by entry.
   */
  prepareSearches(): void {
    for (const index of this.indexes.values()) {
      try {
        index.coreIndex.prepareSearches();
      } catch {
        // only ahead of time: an index whose room cannot be taken is opened all the same, and its first search says why
      }
    }
  }

  // --- its part of snapshots

  async snapshot(): Promise<IndexesPart> {
    return {
      ...(this.quarantined.size > 0 ? { quarantined: [...this.quarantined.values()].map((q) => q.snapshot) } : {}),
      indexes: await Promise.all([...this.indexes.values()].map((i) => i.snapshot())),
    };
  }

  async restore(state: Partial<IndexesPart>, { quarantine }: RestoreOptions): Promise<string[]> {
    const setAside: string[] = [];
    const indexes = state.indexes ?? [];
    for (const snapshot of [...indexes, ...state.quarantined ?? []]) {
      try {
        this.indexes.set(snapshot.name, await SearchIndex.restore(snapshot, this.clock));
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        if (!quarantine && indexes.includes(snapshot)) throw new IndexLoadError(snapshot.name, reason);
        this.quarantined.set(snapshot.name, { reason, snapshot });
        setAside.push(snapshot.name);
      }
    }
    linkReplicas(this.indexes);
    return setAside;
  }

  reset(): void {
    this.indexes.clear();
    this.quarantined.clear();
  }

  /** Every index loads into a core of its own with every record readable (one at a time: each is dropped after). */
  async prove(state: Partial<IndexesPart>): Promise<void> {
    for (const snapshot of state.indexes ?? []) {
      await (await SearchIndex.restore(snapshot)).readEveryRecord(yieldTurn);
      await yieldTurn();
    }
  }
}

/** A write to indexes (records, settings, synonyms, rules, copies, deletions). */
export type IndexWrite = Exclude<WriteOperation, { type: 'key' | 'analytics' | 'dictionaries' }>;

export const isIndexWrite = (op: WriteOperation): op is IndexWrite => op.type !== 'key' && op.type !== 'analytics' && op.type !== 'dictionaries';
