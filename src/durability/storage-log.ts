// The storage's own log (a file, IndexedDB: see operation-log.ts): it gives
// each entry its taskID, appends it to the storage (durable once `append`
// resolves: fsync'd, or its transaction committed), then hands it back to
// the engine, one entry at a time in the order they were appended. A write
// the storage cannot make durable is refused, never acknowledged.
import { ApiError } from '../util/errors.js';
import { isStorageWriteError } from '../storage/errors.js';
import type { Entry } from '../storage/storage.js';
import type { WritePacer } from '../engine/write-pacer.js';
import type { Codec } from './persistence.js';
import { readBatch } from './batch-text.js';
import { encodeForLog, isLarge, LocalLog, type EncodedOperation, type EntryShape, type Logged } from './operation-log.js';

export class StorageLog<Operation extends object> extends LocalLog<Operation> {
  readonly keeps = true;
  /** The storage calls under way, chained: appends reach the storage one at a time, in order. */
  private tail: Promise<void> = Promise.resolve();

  /**
   * `append`: the storage's (see Storage.append); `pacer` is charged with
   * the time appends take (appending competes with searches as indexing does).
   */
  constructor(private readonly appendToStorage: (entry: Entry) => Promise<void>, private readonly codec: Codec, private readonly pacer: WritePacer) {
    super();
  }

  append(op: Logged<Operation>, shape: EntryShape): Promise<number> {
    // a small write is encoded at once (a 400 before it is queued); a large one on a turn of its own, in its turn
    const encoded = isLarge(op) ? undefined : encodeForLog(this.codec, op);
    return this.serialized(async () => {
      const started = performance.now();
      const { bytes, batch } = await (encoded ?? encodeForLog(this.codec, op));
      const taskID = this.next++;
      await this.stored({ taskID, bytes }, started);
      // a large batch waits in the queue as the bytes it was logged as, read back when it runs (what a replay reads):
      // thousands of parsed records waiting survived every young-generation collection, which copied them each time
      await this.handBack(taskID, shape, batch === undefined ? () => op : () => readBatch<Logged<Operation>>(batch));
      return taskID;
    }, encoded);
  }

  /** Stores an operation the writer gave `taskID` (a replica's copy), in turn with the appends. */
  override record(taskID: number, op: Logged<Operation>): Promise<void> {
    const encoded = isLarge(op) ? undefined : encodeForLog(this.codec, op);
    return this.serialized(async () => {
      const started = performance.now();
      const { bytes } = await (encoded ?? encodeForLog(this.codec, op));
      await this.stored({ taskID, bytes }, started);
    }, encoded);
  }

  override async close(): Promise<void> { await this.tail; }

  /**
   * Appends to the storage, charging the pacer with the time since `started`
   * (encoding included); a write that is not made durable is refused: 507
   * for a full disk, else 503.
   */
  private async stored(entry: Entry, started: number): Promise<void> {
    try {
      await this.appendToStorage(entry);
    } catch (e) {
      if (isStorageWriteError(e)) throw new ApiError(e.diskFull ? 'disk_full' : 'unavailable', e.message);
      throw e;
    } finally {
      this.pacer.charge(performance.now() - started);
    }
  }

  /**
   * Runs storage calls one at a time, in the order they were asked for.
   * `encoded`: the encoding under way, whose failure (a 400) must not wait
   * for the calls before it, nor stop the chain.
   */
  private serialized<T>(call: () => Promise<T>, encoded?: Promise<EncodedOperation>): Promise<T> {
    encoded?.catch(() => {});
    const done = this.tail.then(call);
    this.tail = done.then(() => {}, () => {});
    return encoded ? encoded.then(() => done) : done;
  }
}
