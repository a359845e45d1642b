// The engine: indexes, the task queue and the durable log. Every write is
// logged, acknowledged with a taskID, then applied in order; reopening
// replays the log through the same `apply`.
import { loadCore } from '../core/wasm.js';
import { memoryStorage, type LoggedOperation, type Storage } from '../storage/storage.js';
import { badRequest, notFound } from './errors.js';
import { matchingObjectIDs, newCursorKey } from './browse.js';
import { SearchIndex } from './search-index.js';
import { TaskQueue } from './tasks.js';
import type { Action, WriteOperation } from './writes.js';

export interface EngineOptions {
  appId?: string;
  adminKey?: string;
  storage?: Storage;
}

const MAX_INDEX_NAME = 512;

export function checkIndexName(name: string): string {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_INDEX_NAME || /[\u0000-\u001f*]/.test(name)) {
    throw badRequest(`Invalid index name: "${name}"`);
  }
  return name;
}

export class Engine {
  readonly indexes = new Map<string, SearchIndex>();
  readonly tasks = new TaskQueue();
  readonly appId: string | undefined;
  readonly adminKey: string | undefined;
  private readonly storage: Storage;
  /** Signs browse cursors; a new one per process, so older cursors are stale. */
  cursorKey!: CryptoKey;
  private logTail: Promise<void> = Promise.resolve();

  protected constructor(options: EngineOptions) {
    this.appId = options.appId;
    this.adminKey = options.adminKey;
    this.storage = options.storage ?? memoryStorage();
  }

  protected async load(): Promise<void> {
    await loadCore();
    this.cursorKey = await newCursorKey();
    for (const op of await this.storage.load()) {
      try {
        this.apply(op as LoggedOperation & WriteOperation);
      } catch (e) {
        console.error(`lantern: replaying task ${op.taskID} failed; it is skipped`, e);
      }
      this.tasks.advancePast(op.taskID);
    }
  }

  index(name: string): SearchIndex {
    const index = this.indexes.get(name);
    if (!index) throw notFound("Index does not exist");
    return index;
  }

  /** Logs `op` durably, then queues it; resolves with its taskID. */
  async write(op: WriteOperation): Promise<number> {
    const taskID = this.tasks.allocate();
    const logged = { ...op, taskID };
    const appended = this.logTail.then(() => this.storage.append(logged));
    this.logTail = appended.catch(() => {});
    await appended;
    this.tasks.schedule(taskID, () => this.apply(logged), (e) => console.error(`lantern: task ${taskID} failed`, e));
    return taskID;
  }

  /** Resolves once every accepted write is applied. */
  waitForTasks(): Promise<void> { return this.tasks.idle(); }

  async close(): Promise<void> {
    await this.tasks.idle();
    await this.logTail;
    await this.storage.close();
  }

  private apply(op: WriteOperation): void {
    switch (op.type) {
      case 'batch': return this.applyBatch(op.indexName, op.actions);
      case 'settings': return this.ensureIndex(op.indexName).setSettings(op.settings);
      case 'deleteIndex': this.indexes.delete(op.indexName); return;
      case 'deleteByQuery': {
        const index = this.indexes.get(op.indexName);
        if (index) index.delete(matchingObjectIDs(index, op.params));
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
  private applyBatch(indexName: string, actions: Action[]): void {
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
        case 'delete': this.indexes.delete(indexName); break;
      }
    }
    flush();
  }
}
