// The storage's own log (a file, IndexedDB: see operation-log.ts): it gives
// each entry its taskID, appends it to the storage (durable once `append`
// resolves: fsync'd, or its transaction committed), then hands it back to
// the engine, one entry at a time in the order they were appended. A write
// the storage cannot make durable is refused, never acknowledged. A storage
// that appends in call order (the file store) is given the next entry while
// it makes the one before durable, so that writers sending at once share an
// fsync; while the engine imports (WritePacer.waitsForDiskHere), a write's
// turn to be accepted passes on as soon as its entry has its place.
import { ApiError } from '../util/errors.js';
import { isStorageWriteError } from '../storage/errors.js';
import type { AppendOptions, Entry } from '../storage/storage.js';
import type { WritePacer } from '../engine/write-pacer.js';
import type { Codec } from './persistence.js';
import { isBatch, withLoggedTexts } from './batch-text.js';
import { encodeForLog, isLarge, LocalLog, type EncodedOperation, type EntryShape, type Logged } from './operation-log.js';

/** An entry given its place in the storage's log: its taskID, its append under way, and how it is handed back. */
interface Placed {
  taskID: number;
  /** Resolves once the storage holds it durably. */
  durable: Promise<void>;
  /** Hands it back to the engine (none for a replica's copy: the engine applied it already). */
  handBack?: () => Promise<void>;
}

const ignore = () => {};

export class StorageLog<Operation extends object> extends LocalLog<Operation> {
  readonly keeps = true;
  /** Resolves when the next entry may be appended to the storage: appends reach it one at a time, in order. */
  private appendable: Promise<void> = Promise.resolve();
  /** Resolves once every entry appended so far is handed back, or failed: they are handed back in order. */
  private handed: Promise<void> = Promise.resolve();

  /**
   * `append`: the storage's (see Storage.append); `pacer` is charged with
   * the time appends take on this thread (appending competes with searches
   * as indexing does); `inCallOrder`: the storage's `appendsInCallOrder`.
   */
  constructor(
    private readonly appendToStorage: (entry: Entry, options?: AppendOptions) => Promise<void>, private readonly codec: Codec, private readonly pacer: WritePacer,
    private readonly inCallOrder = false,
  ) {
    super();
  }

  append(op: Logged<Operation>, shape: EntryShape): Promise<number> {
    // a small write is encoded at once (a 400 before it is queued); a large one on a turn of its own, in its turn
    const encoded = isLarge(op) ? undefined : encodeForLog(this.codec, op);
    return this.inOrder(encoded, async () => {
      const started = performance.now();
      const { bytes, batch } = await (encoded ?? encodeForLog(this.codec, op));
      const taskID = this.next++;
      const atOnce = this.pacer.waitsForDiskHere;
      const durable = this.stored({ taskID, bytes }, started, atOnce);
      // its place in the log is taken: the next write may be accepted while this one is made durable
      if (shape.queued && !atOnce) this.pacer.passTurn();
      // a large batch runs with each record's logged bytes beside it, for the record store to pack
      const operation = batch === undefined || !isBatch(op) ? () => op : () => withLoggedTexts(op, batch);
      return { taskID, durable, handBack: () => this.handBack(taskID, shape, operation) };
    });
  }

  /** Stores an operation the writer gave `taskID` (a replica's copy), in turn with the appends. */
  override async record(taskID: number, op: Logged<Operation>): Promise<void> {
    const encoded = isLarge(op) ? undefined : encodeForLog(this.codec, op);
    await this.inOrder(encoded, async () => {
      const started = performance.now();
      const { bytes } = await (encoded ?? encodeForLog(this.codec, op));
      return { taskID, durable: this.stored({ taskID, bytes }, started, this.pacer.waitsForDiskHere) };
    });
  }

  override async close(): Promise<void> { await this.handed; }

  /**
   * Starts an append to the storage, charging the pacer with the time this
   * thread spent on it since `started` (encoding, and the storage's
   * writing until it waits for the disk, if the wait leaves the thread to
   * other work); `atOnce`: see AppendOptions. The promise resolves once the
   * entry is durable; a write that is not made durable is refused: 507 for
   * a full disk, else 503.
   */
  private stored(entry: Entry, started: number, atOnce: boolean): Promise<void> {
    const durable = this.appendToStorage(entry, { atOnce }).catch((e: unknown) => {
      if (isStorageWriteError(e)) throw new ApiError(e.diskFull ? 'disk_full' : 'unavailable', e.message);
      throw e;
    });
    this.pacer.charge(performance.now() - started);
    durable.catch(ignore); // it is awaited once the entries before it are handed back: a failure before then is not unhandled
    return durable;
  }

  /**
   * Appends entries to the storage one at a time, in the order asked for,
   * and hands them back in that order, each once it is durable; resolves
   * with the entry's taskID once it is handed back. `place` encodes the
   * entry and starts its append. The next entry's `place` runs once this
   * one's has, when the storage appends in call order (its record may then
   * be made durable together with this one: a group commit; what waits to
   * be handed back is bounded by the writes accepted and not acknowledged,
   * each a caller waiting), else once this one is handed back. `encoded`:
   * the encoding under way, whose failure (a 400) must not wait for the
   * entries before it, nor stop the chain.
   */
  private inOrder(encoded: Promise<EncodedOperation> | undefined, place: () => Promise<Placed>): Promise<number> {
    encoded?.catch(ignore);
    const handedBefore = this.handed;
    const placed = this.appendable.then(place);
    const done = Promise.all([placed, handedBefore]).then(async ([entry]) => {
      await entry.durable;
      await entry.handBack?.();
      return entry.taskID;
    });
    this.handed = done.then(ignore, ignore);
    this.appendable = this.inCallOrder ? placed.then(ignore, ignore) : this.handed;
    return encoded ? encoded.then(() => done) : done;
  }
}
