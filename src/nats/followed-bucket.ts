// A JetStream key-value bucket every node of every cluster of an
// application reads whole and keeps in memory (user assignments:
// user-directory.ts; API keys: key-directory.ts). Opening it makes it the
// first time, watches it from its first entry on, and resolves once the
// entries it held at the start are handed to the reader; later changes, the
// node's own and the others', are handed over as the watch sees them.
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { JetStreamClient } from '@nats-io/jetstream';
import { FOR_A_WRITE, FOR_MAKING, whenAnswered } from './patience.js';

/** What a bucket's reader does with each entry; `what` names the bucket in messages (`user assignments`). */
interface BucketReader {
  what: string;
  apply(entry: KvEntry): void;
}

/** What reads a followed bucket: keeps its entries in memory (`applyChange`) and writes to it (`kv`). */
export abstract class FollowedBucket {
  protected kv!: KV;
  protected readonly decoder = new TextDecoder();

  /** `what` names the bucket in messages (`user assignments`). */
  protected constructor(private readonly what: string) {}

  /** Opens (making it the first time) the bucket `name`, and resolves once what it holds is applied. */
  protected async openBucket(js: JetStreamClient, name: string, replicas: number): Promise<this> {
    this.kv = await whenAnswered(() => new Kvm(js).create(name, { history: 1, replicas }), FOR_MAKING);
    await follow(this.kv, { what: this.what, apply: (entry) => this.applyChange(entry) });
    return this;
  }

  /** Stores `value` under `key` (waiting for a bucket another node has just made, or one electing its leader, to listen). */
  protected async put(key: string, value: string): Promise<void> {
    await whenAnswered(() => this.kv.put(key, value), FOR_A_WRITE);
  }

  /** Deletes `key` (waiting, as `put` does, for the bucket to listen). */
  protected async delete(key: string): Promise<void> {
    await whenAnswered(() => this.kv.delete(key), FOR_A_WRITE);
  }

  /** Applies an entry of the bucket (the node's own writes too). */
  protected abstract applyChange(entry: KvEntry): void;
}

/** Watches the bucket from its first entry on; resolves once the entries it held at the start are applied. */
async function follow(kv: KV, reader: BucketReader): Promise<void> {
  const last = (await kv.status()).streamInfo.state.last_seq;
  const watch = await kv.watch();
  let resolveCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => { resolveCaughtUp = resolve; });
  if (last === 0) resolveCaughtUp();
  void (async () => {
    for await (const entry of watch) {
      applyEntry(reader, entry);
      if (entry.revision >= last) resolveCaughtUp();
    }
  })().catch((e: Error) => console.error(`lantern: ${reader.what} are no longer followed (${e.message.split('\n')[0]})`));
  await caughtUp;
}

function applyEntry(reader: BucketReader, entry: KvEntry): void {
  try {
    reader.apply(entry);
  } catch (e) {
    console.error(`lantern: the entry ${entry.key} of ${reader.what} cannot be read; it is skipped (${(e as Error).message})`);
  }
}
