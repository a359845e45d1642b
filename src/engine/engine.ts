// The engine: the composition root. It wires the state sections (indexes,
// security, analytics, clusters, dictionaries, recommend) to the durability module (the task queue,
// the log, snapshots, recovery: src/durability/), and the services the API
// reads (metrics, the write pacer, cursor signing). Every write is logged,
// acknowledged with a taskID, then applied in order to every section;
// reopening loads the newest valid snapshot and replays the log after it.
import { isIndexWrite } from './index-catalog.js';
import { AcceptedEmbedders } from '../vectors/accepted-embedders.js';
import { Embeddings, type EmbeddingsOptions } from '../vectors/embeddings.js';
import { VectorLinker } from '../vectors/vector-linker.js';
import type { EmbedFunction } from '../vectors/embedder.js';
import type { EmbedderSettings } from '../vectors/embedder-settings.js';
import { loadCore } from '../core/wasm.js';
import { memoryStorage, type Storage } from '../storage/storage.js';
import type { ApiError } from '../util/errors.js';
import type { Recovered } from '../durability/recovery.js';
import { yieldTurn } from '../util/turns.js';
import { WritePacer } from './write-pacer.js';
import { SliceLengths } from './slice-lengths.js';
import { WriteRoom } from './write-room.js';
import { workerProof } from './snapshot-proof.js';
import { newCursorKey } from '../query/browse.js';
export { checkIndexName } from '../index/index-name.js';
import type { SearchIndex } from '../index/search-index.js';
import { IndexCatalog } from './index-catalog.js';
import type { AllowedSource, ApiKeyChange, KeyOperation, WriteOperation } from './writes.js';
import type { ApiKey } from '../auth/api-keys.js';
import type { KeyMap } from '../auth/key-map.js';
import { SecurityState, type SharedKeys } from '../auth/security-state.js';
import { AnalyticsState, type AnalyticsOperation } from '../analytics/state.js';
import { ClusterMap, type SharedAssignments } from '../clusters/mapping.js';
import { DictionariesState } from '../dictionaries/state.js';
import { RecommendState, type RecommendOperation } from '../recommend/state.js';
import type { RecommendOptions } from '../recommend/options.js';
import type { DictionaryOperation } from '../dictionaries/entries.js';
import { Metrics } from '../monitoring/metrics.js';
import { observeTask } from '../monitoring/observe.js';
import { Durability, type Logged, type SnapshotHeader } from '../durability/durability.js';
import { assertStorable } from '../index/storable.js';
import type { TaskQueue, TaskStatus } from '../durability/task-queue.js';
import type { SharedLog } from '../durability/shared-log.js';
import type { ReplicatedOp, ReplicationTarget, StateImage } from '../durability/replication.js';
import type { FollowOptions } from '../follow/options.js';

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
  /**
   * A snapshot is taken after this many writes (default 2000; 0 = only on
   * `snapshot()`). Searches count too: their analytics events are logged,
   * 500 searches a write.
   */
  snapshotEvery?: number;
  /**
   * Records (of batches; 1 for any other write) the task queue may hold
   * before a write's acknowledgement waits for room (default 20,000, a few
   * seconds of indexing): a writer faster than indexing is slowed down instead
   * of growing the queue and memory without bound. Its write is durable
   * before it waits.
   */
  maxQueuedRecords?: number;
  /**
   * Milliseconds a write waits for its turn to be accepted (writes are
   * accepted one at a time, paced while searches arrive), and then for room
   * in the task queue (see `maxQueuedRecords`), before it is refused, 503
   * with Retry-After, nothing written (default: no bound; `lantern serve`
   * uses SERVE_WRITE_WAIT_MS, 2 s each).
   */
  maxWriteWaitMs?: number;
  /**
   * Milliseconds a batch's application holds the event loop in one turn
   * before searches waiting are answered (default 3). Each index learns
   * from its slices so far how many actions that is, 10 to 100: a lower
   * figure keeps a page's thread responsive during an import, a higher one
   * applies batches sooner.
   */
  writeSliceMs?: number;
  /**
   * Searches, and insight events, kept for analytics, A/B tests,
   * personalization and Recommend (default 500,000 of each; a search takes
   * ~550-700 bytes of memory): past it the oldest are dropped, as they are
   * past the reports' 90 days. Reports and A/B tests read only what is
   * kept: a busy server's reach is shorter than 90 days (at one search a
   * second, the default holds about six days of them; at 100, an hour and
   * a half). Raise it where memory allows. Every snapshot carries them.
   */
  maxAnalyticsEvents?: number;
  /** The country (ISO code) of a search's source address, for analytics; unknown when absent or undefined. */
  resolveCountry?: (ip: string) => string | undefined;
  /** Names of the clusters users can be assigned to (default one cluster). */
  clusters?: string[];
  /**
   * User assignments shared with the nodes of the application's other
   * clusters (cluster mode with named clusters, see `natsCluster`): the
   * mapping API reads and changes them there, and `clusters` is ignored.
   */
  assignments?: SharedAssignments;
  /**
   * API keys shared with the nodes of the application's other clusters
   * (cluster mode with named clusters, see `natsCluster`): keys are made,
   * changed, deleted and restored there, and the log and snapshots hold none.
   */
  apiKeys?: SharedKeys;
  /**
   * Opens a damaged store by keeping what can be kept: damaged log records are
   * skipped, the best snapshot that loads is used, and a new snapshot is
   * written at once. Without it, damage that would lose acknowledged writes
   * fails the open with a StoreDamagedError and changes nothing.
   */
  repair?: boolean;
  /**
   * A log shared with the other nodes serving the same application
   * (`natsCluster` of `lantern-search/node`, on NATS JetStream): every
   * write is appended to it and acknowledged once it holds it, and every
   * node applies every entry in its order, with the taskIDs it gives.
   * `storage` then holds the snapshots (`natsCluster` gives both), and
   * `snapshotEvery` counts entries of the log: the node that wrote the
   * entry reaching the mark stores the snapshot.
   */
  log?: SharedLog;
  /**
   * Makes this engine a follower of a `lantern serve` (or of any engine
   * served over HTTP): it loads the server's snapshot, then tails its log,
   * applying every write to the indexes the key reaches. It answers
   * searches, browse and getObject from what it holds, offline too, and
   * catches up when the server is back; writes to it are refused (405).
   * With a persistent `storage` it keeps what it received across restarts.
   */
  follow?: FollowOptions;
  /**
   * Records' worth of recent writes kept for followers (default 10,000),
   * from the moment the first follower asks (until then nothing is kept): a
   * follower that was away for longer loads a snapshot instead of the
   * writes it missed. 0: this engine serves no followers.
   */
  followBacklog?: number;
  /**
   * In-process embedding functions, by name: an index's `function` embedder
   * names one (`{"source": "function", "name": "minilm", "dimensions": 384}`).
   * Each takes texts and resolves with one vector per text, in order
   * (transformers.js with a local model, for example).
   */
  embedders?: Record<string, EmbedFunction>;
  /**
   * How long a search waits for its query's vector from a rest or function
   * embedder before answering by keywords alone (default 2,000 ms); the
   * answer then says why in `semanticError`.
   */
  queryEmbeddingTimeoutMs?: number;
  /**
   * How the recommend models learn from insight events: the service's
   * windows and minimums by default (1,000 conversions for frequently bought
   * together, 10,000 events for related products, 500 conversions for
   * trending), lowered here for a small application, and how fresh the
   * models stay (see RecommendOptions). Not for a follower: it receives its
   * server's models, and answers with its server's minimums.
   */
  recommend?: RecommendOptions;
  /** @internal The background embedding queue's pacing (tests shorten its retry delays). */
  embeddingQueue?: EmbeddingsOptions['queue'];
}

/** Milliseconds `work` took. */
function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/** The options a replica shares with the engine it copies (see Engine.replicaOptions). */
export type ReplicaOptions = Pick<EngineOptions, 'maxAnalyticsEvents' | 'recommend'>;

export class Engine {
  /** The application ID callers must send (any, when undefined). */
  readonly appId: string | undefined;
  /** The admin API key (undefined: the engine is open, every caller is admin). */
  readonly adminKey: string | undefined;
  /** @internal */
  readonly resolveCountry: ((ip: string) => string | undefined) | undefined;
  /** @internal What this process served: operations, latency, indexing time, incidents. */
  readonly metrics = new Metrics();
  /** @internal Keeps indexing from starving searches (the router notes each read). */
  readonly pacer: WritePacer;
  private readonly sliceLengths: SliceLengths;
  /** @internal Signs browse cursors; a new one per process, so older cursors are stale. */
  cursorKey!: CryptoKey;
  /**
   * @internal The options a replica of this engine opens with (a read
   * worker's: see replication/read-pool.ts), so that it keeps the events
   * this engine keeps and its answers do not depend on which thread gave
   * them. Data only: they cross to a thread.
   */
  readonly replicaOptions: ReplicaOptions;

  // the state sections, in the order each operation is applied to them (and their parts are snapshotted)
  /** @internal The indexes, and those that could not be loaded. */
  readonly catalog = new IndexCatalog();
  /** @internal API keys and the source allow-list. */
  readonly security: SecurityState;
  /** @internal Search and insight events, A/B tests, personalization, query suggestions. */
  readonly analytics: AnalyticsState;
  /** @internal Multi-cluster user assignments and record owners. */
  readonly clusters: ClusterMap;
  /** @internal The stop words, plurals and compounds dictionaries (every index's searches read them). */
  readonly dictionaries = new DictionariesState();
  /** @internal Recommend rules, and the models learnt from the analytics section's insight events. */
  readonly recommend: RecommendState;

  private readonly durability: Durability<WriteOperation>;
  /** @internal The embedders at work: records' texts embedded in the background, queries on the spot. */
  readonly embeddings: Embeddings;
  /**
   * Whether this engine embeds the texts its writes leave waiting: the one
   * that accepts writes does, not a follower nor a replica (they receive the
   * vectors it logs).
   */
  private embedsRecords: boolean;
  /** Links written vectors into their graphs in the background. */
  private readonly linker: VectorLinker;
  /** The embedders settings accepted and not yet applied (see embeddersOf). */
  private readonly acceptedEmbedders = new AcceptedEmbedders();
  /** Room in the task queue, taken before a write is logged. */
  private readonly writeRoom: WriteRoom;

  /** @internal Engines are opened with `Lantern.open`. */
  protected constructor(options: EngineOptions) {
    this.sliceLengths = new SliceLengths(options.writeSliceMs);
    this.pacer = new WritePacer(() => this.durability.tasks.queuedWeight, options.maxWriteWaitMs);
    this.appId = options.appId;
    this.adminKey = options.adminKey;
    this.resolveCountry = options.resolveCountry;
    this.clusters = new ClusterMap(options.clusters, options.assignments);
    this.security = new SecurityState((name) => this.catalog.indexes.has(name), options.apiKeys);
    this.replicaOptions = { maxAnalyticsEvents: options.maxAnalyticsEvents, recommend: options.recommend && { ...options.recommend } };
    this.analytics = new AnalyticsState((op) => this.writeKey(op), (op) => this.logApplied(op), options.maxAnalyticsEvents);
    this.recommend = new RecommendState(() => this.analytics.store, options.recommend, options.follow === undefined);
    const maxQueuedRecords = options.maxQueuedRecords ?? 20_000;
    this.durability = new Durability<WriteOperation>({
      storage: options.storage ?? memoryStorage(),
      encryptionKey: options.encryptionKey,
      snapshotEvery: options.snapshotEvery ?? 2000,
      maxQueuedRecords,
      repair: options.repair === true,
      check: assertStorable,
      sections: [this.security, this.analytics, this.clusters, this.dictionaries, this.catalog, this.recommend],
      pacer: this.pacer,
      runTask: (op, taskID) => this.runTask(op, taskID),
      replays: (op, taskID) => this.catalog.replays(op, taskID),
      proveElsewhere: workerProof(options.encryptionKey),
      log: options.log,
      follows: options.follow && `This engine follows ${options.follow.url}: it applies only what that server sends, so send writes there`,
    });
    this.embedsRecords = options.follow === undefined;
    this.linker = new VectorLinker(() => this.catalog.indexes.values(), this.pacer);
    this.embeddings = new Embeddings({
      functions: options.embedders, queue: options.embeddingQueue, queryTimeoutMs: options.queryEmbeddingTimeoutMs,
      index: (name) => this.catalog.indexes.get(name),
      write: (op) => this.write(op),
    });
    const tasks = this.durability.tasks;
    this.writeRoom = new WriteRoom(maxQueuedRecords, () => tasks.queuedWeight, (limit) => tasks.roomFor(limit), options.maxWriteWaitMs);
  }

  /** @internal Reads back what the storage holds (Lantern.open calls it). */
  protected async load(): Promise<void> {
    try {
      await loadCore();
      this.cursorKey = await newCursorKey();
      await this.durability.open();
      // the memory the first searches would take is taken now (see CoreIndex.prepareSearches)
      this.catalog.prepareSearches();
      // records written before a restart whose vectors were not logged yet are embedded now
      if (this.embedsRecords) for (const index of this.catalog.indexes.values()) this.takeWaitingTexts(index, 0);
      this.linker.wake();
    } catch (e) {
      await this.durability.storage.close();
      throw e;
    }
  }

  /** @internal The indexes by name (the API lists them: listIndices). */
  get indexes(): Map<string, SearchIndex> { return this.catalog.indexes; }
  /** @internal Indexes a snapshot held that could not be loaded (see IndexCatalog.quarantined). */
  get quarantined(): IndexCatalog['quarantined'] { return this.catalog.quarantined; }
  /** @internal API keys by value. */
  get keys(): KeyMap { return this.security.keys; }
  /** @internal Deleted keys that can still be restored. */
  get deletedKeys(): Map<string, ApiKey> { return this.security.deletedKeys; }
  /** @internal The source allow-list (firewall); undefined until first set = every source allowed. */
  get sources(): AllowedSource[] | undefined { return this.security.sources; }
  /** @internal */
  get tasks(): TaskQueue { return this.durability.tasks; }
  /** @internal A task's status (undefined: no such task), asking the shared log about one not received yet. */
  taskStatus(taskID: number): Promise<TaskStatus | undefined> { return this.durability.taskStatus(taskID); }
  /** What opening found damaged and recovered from (empty for a sound store). */
  get recovery(): Recovered { return this.durability.recovery; }

  /** Writes a snapshot of everything applied so far (waits for queued writes first). */
  snapshot(): Promise<void> { return this.durability.snapshot(); }

  /** @internal Proves a snapshot's bytes as this engine would load them (the proof worker's job: see snapshot-proof.ts). */
  proveSnapshot(bytes: Uint8Array, taskID: number): Promise<void> { return this.durability.proveBytes(bytes, taskID); }

  /** @internal The index of that name; a 404 (a 503 for a quarantined one) when there is none. */
  index(name: string): SearchIndex { return this.catalog.index(name); }

  /** @internal The index-specific keys (deleted ones too) that reach an index now. */
  indexKeysReaching(indexName: string): string[] { return this.security.indexKeysReaching(indexName); }

  /** @internal Logs `op` durably, then queues it; resolves with its taskID. */
  write(operation: WriteOperation): Promise<number> {
    const quarantined: ApiError | undefined = 'indexName' in operation && operation.type !== 'deleteIndex'
      ? this.catalog.quarantineError(operation.indexName) : undefined;
    if (quarantined) return Promise.reject(quarantined);
    const weight = operation.type === 'batch' ? Math.max(1, operation.actions.length) : 1;
    return this.writeRoom.write(weight, async () => {
      const taskID = await this.durability.write(operation, weight, 'indexName' in operation ? operation.indexName : undefined);
      this.acceptedEmbedders.note(operation);
      return taskID;
    });
  }

  /**
   * @internal The embedders an index has once the writes accepted so far are
   * applied: records written now are checked against them (a batch sent
   * right after the settings that name its embedders is not refused).
   */
  embeddersOf(indexName: string): Readonly<Record<string, EmbedderSettings>> | undefined {
    return this.acceptedEmbedders.of(indexName, this.catalog.indexes.get(indexName)?.settings.embedders);
  }

  /**
   * Logs a key change durably and applies it at once (no task to wait for).
   * Analytics and dictionary operations take the same path (they are idempotent too).
   * Resolves with the taskID.
   * @internal
   */
  writeKey(op: KeyOperation | AnalyticsOperation | DictionaryOperation | RecommendOperation): Promise<number> { return this.durability.writeNow(op); }

  /** @internal Makes an API key change: in the shared keys when there are, else logged here. */
  async changeKey(change: ApiKeyChange): Promise<void> {
    if (this.security.shared) await this.security.shared.write(change);
    else await this.writeKey(change);
  }

  /**
   * @internal Assigns (or moves) `users` to `cluster`: in the shared assignments when there are
   * (`movingFrom`: their records are being carried from that cluster), else logged here.
   */
  async assignUsers(cluster: string, users: string[], movingFrom?: string): Promise<void> {
    const at = Date.now();
    if (this.clusters.shared) await this.clusters.shared.assign(cluster, users, at, movingFrom);
    else await this.writeKey({ type: 'key', action: 'assignUsers', cluster, users, at });
  }

  /** @internal Unassigns a user (its records are deleted by the caller). */
  async unassignUser(userID: string): Promise<void> {
    if (this.clusters.shared) await this.clusters.shared.remove(userID);
    else await this.writeKey({ type: 'key', action: 'removeUser', userID });
  }

  /**
   * Logs an operation the engine made itself and has already applied (the
   * search events analytics recorded on the spot).
   * @internal
   */
  logApplied(op: AnalyticsOperation): Promise<number> { return this.durability.logApplied(op); }

  /** Resolves once every accepted write is applied. */
  waitForTasks(): Promise<void> { return this.durability.waitForTasks(); }

  // replication (src/durability/replication.ts): a writer feeds its replicas, a replica applies the stream

  /**
   * @internal Sends every operation entering the state to `target` too, until the function returned is called;
   * a task is published once every target that says so says every replica applied it.
   */
  replicateTo(target: ReplicationTarget<WriteOperation>): () => void { return this.durability.replicateTo(target); }

  /** @internal The state applied so far, as the image a replica starts from (`select`: the part a follower receives). */
  image(select?: (state: SnapshotHeader) => SnapshotHeader): Promise<StateImage> { return this.durability.image(select); }

  /** @internal The last queued task applied (a replica's: the last it received). */
  get appliedThrough(): number { return this.durability.appliedThrough; }

  /** @internal A replica's start: the writer's image (on an engine that holds nothing yet). */
  loadImage(image: StateImage): Promise<void> {
    this.embedsRecords = false;
    return this.durability.loadImage(image);
  }

  /** @internal A replica applies one operation of the writer's stream (a queued one once the previous one is done). */
  applyReplicated(entry: ReplicatedOp<WriteOperation>): Promise<void> {
    this.embedsRecords = false;
    return this.durability.applyReplicated(entry);
  }

  /** Resolves once no record waits for an embedder (every text written so far embedded, and its vectors logged). */
  async waitForEmbeddings(): Promise<void> {
    await this.waitForTasks();
    await this.embeddings.idle();
    await this.waitForTasks();
  }

  /** @internal Resolves once every vector written is linked into its graph (benches and tests; searches find them before). */
  waitForVectorLinks(): Promise<void> { return this.linker.idle(); }

  async close(): Promise<void> {
    this.embeddings.close();
    this.linker.close();
    this.analytics.stopRetrying();
    this.recommend.stop();
    // searches the log refuses now (cluster mode without NATS) end with this process: they were never replicated
    await this.analytics.flush().catch((e: Error) => console.error(`lantern: search events not logged are lost (${e.message.split('\n')[0]})`));
    await this.durability.close();
    // a closed engine does no more work in idle time (packing, warming, listing terms): its app may go on
    this.catalog.letGo();
  }

  /** A queued write: settings that change indexing are built first, then it is applied in slices and observed. */
  private async runTask(op: Logged<WriteOperation>, taskID: number): Promise<void> {
    if (op.type === 'settings') await this.catalog.prepareSettings(op);
    await observeTask(this, op, () => this.applyInSlices(op, taskID));
    if (this.embedsRecords && isIndexWrite(op)) for (const index of this.catalog.written(op)) this.takeWaitingTexts(index, taskID);
    if (isIndexWrite(op)) await this.catalog.renumberSparse(op);
    this.linker.wake();
  }

  /** Queues the texts a write to `index` left waiting for an embedder (a replica's as its primary's, see Embeddings.takeWaiting). */
  private takeWaitingTexts(index: SearchIndex, taskID: number): void {
    this.embeddings.takeWaiting(index, taskID, index.primary === undefined ? undefined : this.catalog.indexes.get(index.primary));
  }

  /**
   * Applies a live write; a large batch a slice of actions per event-loop
   * turn, so searches are answered between slices instead of waiting for the
   * whole batch. Resolves with the milliseconds spent applying.
   */
  private async applyInSlices(op: Logged<WriteOperation>, taskID: number): Promise<number> {
    const actions = op.type === 'batch' ? op.actions : [];
    let busy = 0;
    // a batch's slices taking about writeSliceMs each on the index written (see slice-lengths.ts)
    for (let first = 0, length = 1; first === 0 || first < actions.length; first += length) {
      if (first > 0) await yieldTurn();
      // searches waiting get as much time as writes took since the last pause (see write-pacer.ts)
      await this.pacer.pause();
      if (op.type === 'batch') length = this.sliceLengths.lengthFor(op.indexName);
      const slice = op.type === 'batch' && actions.length > length ? { ...op, actions: actions.slice(first, first + length) } : op;
      const ms = timed(() => {
        this.durability.apply(slice, taskID);
        // while searches arrive, the write folds its changes into the rank orders (paced as write work)
        // instead of the first search after it
        if (this.pacer.readsArriving && 'indexName' in op) this.catalog.computeRanksOf(op.indexName);
      });
      this.pacer.charge(ms);
      if (op.type === 'batch') this.sliceLengths.noteSlice(op.indexName, Math.min(length, actions.length - first), ms);
      busy += ms;
    }
    return busy;
  }
}
