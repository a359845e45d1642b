// Snapshots of a cluster's application in a JetStream object store: the
// `Storage` of cluster mode, which holds no log (the log is the stream, see
// stream-log.ts). A snapshot is named after the last task it holds and the
// node that stored it. Before anything older goes it is read back whole
// (the object store checks its SHA-256 as it is read) and proven like any
// stored snapshot (decoded, every index loaded); then the snapshots older
// than it, but the newest two, are deleted and the stream is trimmed up to
// the oldest one kept. So at every moment a proven snapshot holds every
// entry trimmed. A node opening loads the newest snapshot that loads (an
// older one stands in for a damaged one), then follows the stream after it.
import type { ObjectStore } from '@nats-io/obj';
import { SNAPSHOTS_KEPT, type SnapshotEntry, type Storage, type StoredSnapshot, type StoredState } from '../storage/storage.js';
import { StorageError } from '../storage/errors.js';
import type { StreamLog } from './stream-log.js';
import { whenAnswered } from './patience.js';

const PREFIX = 'snapshot-';
/** Digits of the task in a snapshot's name (names sort as their tasks do). */
const TASK_DIGITS = 16;

interface Listed { name: string; taskID: number; size: number }

export class SnapshotStore implements Storage {
  constructor(private readonly bucket: ObjectStore, private readonly log: StreamLog, private readonly disconnect: () => Promise<void>) {}

  async open(): Promise<StoredState> {
    const snapshots = (await whenAnswered(() => this.listed())).map((listed) => this.stored(listed));
    // a stream trimmed once is not the whole history without a snapshot
    return { snapshots, log: [], damage: [], needsSnapshot: (await this.log.firstTaskID()) > 1 };
  }

  async writeSnapshot({ taskID, pieces }: SnapshotEntry, prove: (stored: StoredSnapshot) => Promise<void>): Promise<void> {
    const newest = (await this.listed())[0];
    // another node stored the state this far already (the pieces are encoded only as they are read: never, then)
    if (newest && newest.taskID >= taskID) return;
    const name = `${PREFIX}${String(taskID).padStart(TASK_DIGITS, '0')}-${this.log.nodeID}`;
    const { size } = await this.bucket.put({ name }, readable(pieces));
    try {
      await prove(this.stored({ name, taskID, size }));
    } catch (e) {
      await this.bucket.delete(name).catch(() => {});
      throw e;
    }
    await this.prune(taskID);
  }

  async close(): Promise<void> {
    await this.disconnect();
  }

  /**
   * After the snapshot of task `proven` was proven: deletes the snapshots
   * older than it but the newest SNAPSHOTS_KEPT, and trims the stream up to
   * the oldest snapshot kept (never past `proven`: other nodes' newer ones
   * may not be proven yet).
   */
  private async prune(proven: number): Promise<void> {
    const listed = await this.listed();
    const kept = listed.slice(0, SNAPSHOTS_KEPT);
    for (const old of listed.slice(SNAPSHOTS_KEPT)) if (old.taskID < proven) await this.bucket.delete(old.name);
    await this.log.trim(Math.min(proven, ...kept.map((s) => s.taskID)));
  }

  /** The snapshots stored, newest first. */
  private async listed(): Promise<Listed[]> {
    const listed: Listed[] = [];
    for (const info of await this.bucket.list()) {
      if (info.deleted || !info.name.startsWith(PREFIX)) continue;
      listed.push({ name: info.name, taskID: Number(info.name.slice(PREFIX.length, PREFIX.length + TASK_DIGITS)), size: info.size });
    }
    return listed.sort((a, b) => b.taskID - a.taskID);
  }

  private stored({ name, taskID, size }: Listed): StoredSnapshot {
    return {
      taskID,
      bytes: size,
      read: async () => {
        // a snapshot NATS does not answer for yet (a leader being elected) is not a damaged one
        const bytes = await whenAnswered(() => this.bucket.getBlob(name)).catch((e: Error) => {
          throw new StorageError(`snapshot ${name} cannot be read from the NATS object store (${e.message.split('\n')[0]})`);
        });
        if (!bytes) throw new StorageError(`snapshot ${name} is no longer in the NATS object store`);
        return bytes;
      },
    };
  }
}

/** The pieces as a stream the object store reads (each is encoded as it is asked for). */
function readable(pieces: SnapshotEntry['pieces']): ReadableStream<Uint8Array> {
  const iterator = Symbol.asyncIterator in pieces ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator]();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
}
