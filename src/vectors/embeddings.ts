// The engine's embedders at work: this module owns computing vectors.
// After a write is applied, the texts its records left waiting (see
// index-vectors.ts) go to a background queue per embedder; each answer is
// logged as a `vectors` write, so every node, follower and restart takes
// the vectors from the log and none computes them again. A write is
// searchable by keywords as soon as it is applied; its task says how many
// of its records still wait for an embedder (`pendingEmbeddings`).
// Queries are embedded on the spot, within a time limit, and remembered
// for a while (a search box asks the same text again and again).
import { EmbedderError, createEmbedder, type EmbedFunction, type Embedder } from './embedder.js';
import { EmbeddingQueue, type EmbeddedVector, type EmbeddingQueueOptions } from './embedding-queue.js';
import { sameVectorSpace, type EmbedderSettings } from './embedder-settings.js';
import type { EmbeddingJob } from './index-vectors.js';
import type { SearchIndex } from '../index/search-index.js';
import type { WriteOperation } from '../engine/writes.js';
import { vectorText } from './vector-text.js';
import { RecentValues } from '../util/recent.js';
import type { QueryVector } from '../query/hybrid.js';

/** How long a search waits for its query's vector before answering by keywords alone. */
export const QUERY_EMBEDDING_TIMEOUT_MS = 2000;
/** Query vectors remembered, by embedder and text. */
const QUERIES_KEPT = 512;

export interface EmbeddingsOptions {
  /** In-process embedding functions, by the name a `function` embedder's setting gives. */
  functions?: Record<string, EmbedFunction>;
  /** The index of that name, if there is one (a text is sent only while its record still needs it). */
  index(name: string): SearchIndex | undefined;
  /** Logs computed vectors as a write (the engine's write path); resolves once logged. */
  write(operation: Extract<WriteOperation, { type: 'vectors' }>): Promise<unknown>;
  /** The background queue's pacing (tests shorten its retry delays). */
  queue?: Omit<EmbeddingQueueOptions, 'onEmbedded'>;
  queryTimeoutMs?: number;
}

/** A lane of the queue: one embedder of one index. */
const laneOf = (indexName: string, embedder: string) => JSON.stringify([indexName, embedder]);

export class Embeddings {
  private readonly queue: EmbeddingQueue;
  /** Embedders built from settings, by lane, with the settings they were built from. */
  private readonly embedders = new Map<string, { settings: EmbedderSettings; embedder: Embedder }>();
  /** The task whose write left each waiting text (by lane, then objectID), and how many each task has waiting. */
  private readonly ownerTask = new Map<string, Map<string, number>>();
  private readonly waitingPerTask = new Map<number, number>();
  private readonly queries = new RecentValues<string, Promise<Float32Array>>(QUERIES_KEPT);

  constructor(private readonly options: EmbeddingsOptions) {
    this.queue = new EmbeddingQueue({
      ...options.queue,
      onEmbedded: (lane, results) => this.log(lane, results),
      needsEmbedding: (lane, job) => {
        const [indexName, embedder] = JSON.parse(lane) as [string, string];
        return options.index(indexName)?.vectors.needsEmbedding(embedder, job.key, job.hash) ?? false;
      },
      onDropped: (lane, objectIDs) => this.disown(lane, objectIDs),
    });
  }

  /**
   * After a write to `index` is applied (task `taskID`; 0 when recovering):
   * queues the texts it left waiting. A standard replica with its
   * primary's embedders queues them as its primary's: the vectors logged
   * for the primary reach its replicas too, so a text is embedded once.
   */
  takeWaiting(index: SearchIndex, taskID: number, primary?: SearchIndex): void {
    const jobs = index.vectors.drainWaiting();
    if (jobs.length === 0) return;
    const owner = primary && JSON.stringify(primary.settings.embedders) === JSON.stringify(index.settings.embedders) ? primary : index;
    const byEmbedder = new Map<string, EmbeddingJob[]>();
    for (const job of jobs) {
      const list = byEmbedder.get(job.embedder);
      if (list) list.push(job); else byEmbedder.set(job.embedder, [job]);
    }
    for (const [name, list] of byEmbedder) {
      const settings = owner.vectors.settingsOf(name);
      const embedder = settings && this.embedderFor(owner.name, name, settings);
      if (!embedder) continue;
      const lane = laneOf(owner.name, name);
      for (const job of list) this.own(lane, job.objectID, taskID);
      this.queue.enqueue(embedder, list.map((job) => ({ key: job.objectID, text: job.text, hash: job.hash })));
    }
  }

  /** Records of task `taskID` still waiting for an embedder. */
  waitingOf(taskID: number): number { return this.waitingPerTask.get(taskID) ?? 0; }

  /** Resolves once nothing waits for an embedder (tests, and `waitForEmbeddings`). */
  idle(): Promise<void> { return this.queue.idle(); }

  /** Each embedder's queue: texts pending, the last error while it fails. */
  status(): ReturnType<EmbeddingQueue['status']> { return this.queue.status(); }

  /**
   * The vector of a query's text, or why there is none: the embedder failed
   * or took longer than the time limit (the search then answers by keywords).
   */
  async embedQuery(index: SearchIndex, name: string, text: string): Promise<QueryVector> {
    const settings = index.vectors.settingsOf(name);
    const embedder = settings && this.embedderFor(index.name, name, settings);
    if (!embedder) return {};
    const key = JSON.stringify([laneOf(index.name, name), JSON.stringify(settings), text]);
    const embedding = this.queries.get(key, () => embedder.embed([text], { timeoutMs: this.options.queryTimeoutMs ?? QUERY_EMBEDDING_TIMEOUT_MS }).then((v) => v[0]));
    try {
      return { vector: await embedding };
    } catch (error) {
      this.queries.delete(key); // the next search asks again
      // the embedder is named as the index names it (an EmbedderError names the queue's lane)
      const reason = error instanceof EmbedderError ? error.reason : (error as Error).message;
      return { failure: `the query could not be embedded by the embedder "${name}", keyword results only: ${reason}` };
    }
  }

  close(): void { this.queue.close(); }

  /** The embedder of a lane for `settings`; a lane whose settings changed gets a new one (its old texts are dropped when its vectors changed meaning). */
  private embedderFor(indexName: string, name: string, settings: EmbedderSettings): Embedder | undefined {
    const lane = laneOf(indexName, name);
    const built = this.embedders.get(lane);
    if (built && JSON.stringify(built.settings) === JSON.stringify(settings)) return built.embedder;
    // answers of another model are not this one's: dropped with the texts sent for them
    if (built && !sameVectorSpace(built.settings, settings)) this.queue.clear(lane);
    const embedder = createEmbedder(lane, settings, this.options.functions ?? {});
    if (!embedder) return undefined;
    this.embedders.set(lane, { settings, embedder });
    return embedder;
  }

  private own(lane: string, objectID: string, taskID: number): void {
    let owners = this.ownerTask.get(lane);
    if (!owners) this.ownerTask.set(lane, (owners = new Map()));
    const before = owners.get(objectID);
    if (before !== undefined) this.release(before);
    owners.set(objectID, taskID);
    this.waitingPerTask.set(taskID, (this.waitingPerTask.get(taskID) ?? 0) + 1);
  }

  private release(taskID: number): void {
    const left = (this.waitingPerTask.get(taskID) ?? 1) - 1;
    if (left > 0) this.waitingPerTask.set(taskID, left); else this.waitingPerTask.delete(taskID);
  }

  /** The texts of these records stop waiting: embedded and logged, or dropped unsent (their index or embedder gone, the lane cleared). */
  private disown(lane: string, objectIDs: readonly string[]): void {
    const owners = this.ownerTask.get(lane);
    if (!owners) return;
    for (const objectID of objectIDs) {
      const taskID = owners.get(objectID);
      if (taskID === undefined) continue;
      owners.delete(objectID);
      this.release(taskID);
    }
    if (owners.size === 0) this.ownerTask.delete(lane);
  }

  /** Logs an embedder's answer; the texts stop waiting once it is logged. */
  private async log(lane: string, results: EmbeddedVector[]): Promise<void> {
    const [indexName, embedder] = JSON.parse(lane) as [string, string];
    await this.options.write({
      type: 'vectors', indexName, embedder,
      entries: results.map((r) => ({ objectID: r.key, hash: r.hash, vector: vectorText(r.vector) })),
    });
    this.disown(lane, results.map((r) => r.key));
  }
}
