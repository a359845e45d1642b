// The API keys of an application whose clusters are served by nodes of
// their own (`--clusters c1` with `--nats`): a JetStream key-value bucket
// every node of every cluster reads, so a key made, changed, deleted or
// restored on any node is the same key on all of them, as on the hosted
// service. Keys `key.<escaped value>` hold `{ key, deleted }` (a deleted key
// stays, to be restored). Each node watches the whole bucket and keeps it
// in memory (the engine's key maps are these ones); its own changes are
// seen here as soon as they are stored, the others' as the watch hands them
// over. The engine's log and snapshots then hold no key.
import type { KvEntry } from '@nats-io/kv';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { ApiKey } from '../auth/api-keys.js';
import type { SharedKeys } from '../auth/security-state.js';
import { KeyMap } from '../auth/key-map.js';
import type { ApiKeyChange } from '../engine/writes.js';
import { escaped } from './names.js';
import { FollowedBucket } from './followed-bucket.js';

const KEY = 'key.';

interface StoredKey { key: ApiKey; deleted: boolean }

export class KeyDirectory extends FollowedBucket implements SharedKeys {
  readonly keys = new KeyMap();
  readonly deletedKeys = new Map<string, ApiKey>();
  private constructor() { super('API keys'); }

  /** Opens (making it the first time) the bucket `name`, and resolves once what it holds is read. */
  static open(js: JetStreamClient, name: string, replicas: number): Promise<KeyDirectory> {
    return new KeyDirectory().openBucket(js, name, replicas);
  }

  async write(change: ApiKeyChange): Promise<void> {
    const stored = this.storedAfter(change);
    if (!stored) return;
    await this.put(`${KEY}${escaped(stored.key.value)}`, JSON.stringify(stored));
    this.hold(stored);
  }

  /** What the bucket holds for the key once `change` is made (undefined: a key that is not there to delete or restore). */
  private storedAfter(change: ApiKeyChange): StoredKey | undefined {
    if (change.action === 'put') return { key: change.key, deleted: false };
    const key = (change.action === 'delete' ? this.keys : this.deletedKeys).get(change.value);
    return key && { key, deleted: change.action === 'delete' };
  }

  private hold({ key, deleted }: StoredKey): void {
    (deleted ? this.deletedKeys : this.keys).set(key.value, key);
    (deleted ? this.keys : this.deletedKeys).delete(key.value);
  }

  protected applyChange(entry: KvEntry): void {
    if (entry.operation !== 'PUT' || !entry.key.startsWith(KEY)) return;
    this.hold(JSON.parse(this.decoder.decode(entry.value)) as StoredKey);
  }
}
