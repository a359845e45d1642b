// The security section of the engine's state: API keys (live, and deleted
// ones that can still be restored) and the source allow-list. It applies key
// operations, and extends index-specific keys to the destination of a whole
// copy or move; it gives the durability module its part of snapshots
// (`keys`, `deletedKeys`, `sources`). Given shared keys (the application's,
// held in NATS for the nodes of every cluster: `SharedKeys`), its key maps
// are those, key changes are made there, and snapshots hold no key.
import { indexKeyIndexes, type ApiKey } from './api-keys.js';
import { KeyMap } from './key-map.js';
import type { AllowedSource, ApiKeyChange, WriteOperation } from '../engine/writes.js';
import type { StateSection } from '../durability/state-section.js';

/** Security's part of a snapshot (no keys where keys are shared, nor in a follower's image). */
export interface SecurityPart {
  keys?: ApiKey[];
  deletedKeys?: ApiKey[];
  /** The source allow-list; absent = disabled. */
  sources?: AllowedSource[];
}

/**
 * API keys shared by the nodes of every cluster of an application (cluster
 * mode with named clusters: a NATS key-value bucket). A change is seen here
 * once it resolves, and on the other nodes shortly after.
 */
export interface SharedKeys {
  /** Live keys by value. */
  readonly keys: KeyMap;
  /** Deleted keys that can still be restored, by value. */
  readonly deletedKeys: Map<string, ApiKey>;
  /** Makes a key change (a delete or restore of a key not there changes nothing). */
  write(change: ApiKeyChange): Promise<void>;
}

export class SecurityState implements StateSection<SecurityPart, WriteOperation> {
  /** The keys this engine holds (unused with shared ones). */
  private readonly ownKeys = new KeyMap();
  private readonly ownDeletedKeys = new Map<string, ApiKey>();
  /** The source allow-list (firewall); undefined until first set = every source allowed. */
  sources: AllowedSource[] | undefined;
  /**
   * The task at which each key last started anew (created, or recreated on
   * another index). Key writes apply at once, ahead of queued writes, while
   * a replay applies everything in log order: this tells a queued copy or
   * move which keys were not yet the ones it saw when it was accepted.
   */
  private readonly keyStartedAt = new Map<string, number>();

  /**
   * `hasIndex`: whether an index exists (a copy of a missing index extends no key);
   * `shared`: the application's keys, held elsewhere (this engine's log then holds none).
   */
  constructor(private readonly hasIndex: (name: string) => boolean, readonly shared?: SharedKeys) {}

  /** API keys by value. */
  get keys(): KeyMap { return this.shared?.keys ?? this.ownKeys; }
  /** Deleted keys that can still be restored, by value. */
  get deletedKeys(): Map<string, ApiKey> { return this.shared?.deletedKeys ?? this.ownDeletedKeys; }

  /** The index-specific keys (deleted ones too) that reach an index now. */
  indexKeysReaching(indexName: string): string[] {
    return this.everyKey().filter((key) => indexKeyIndexes(key).includes(indexName)).map((key) => key.value);
  }

  apply(op: WriteOperation, taskID: number): void {
    if (op.type === 'operation') {
      const whole = !(op.operation === 'copy' && op.scope?.length);
      if (whole && this.hasIndex(op.indexName)) this.extendIndexKeys(op.indexName, op.destination, taskID, op.keys);
    }
    if (op.type !== 'key' || op.action === 'assignUsers' || op.action === 'removeUser') return;
    if (op.action === 'sources') {
      this.sources = op.sources;
      return;
    }
    if (this.shared) return; // shared key changes are never logged
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

  /** Every key, live and deleted (copies and moves extend both). */
  private everyKey(): ApiKey[] {
    return [...this.keys.values(), ...this.deletedKeys.values()];
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
      if (reached.includes(source) && !reached.includes(destination)) this.extend(key, destination);
    }
  }

  /** An index key reaches `destination` too (shared: every node of the cluster stores the same key, which the bucket keeps once). */
  private extend(key: ApiKey, destination: string): void {
    key.copiedTo = [...(key.copiedTo ?? []), destination];
    if (this.shared && this.keys.has(key.value)) {
      this.shared.write({ type: 'key', action: 'put', key }).catch((e: Error) => console.error(`lantern: the key extended to ${destination} cannot be stored (${e.message})`));
    }
  }

  snapshot(): SecurityPart {
    const keys = this.shared ? {} : { keys: [...this.keys.values()], deletedKeys: [...this.deletedKeys.values()] };
    return { ...keys, ...(this.sources ? { sources: this.sources } : {}) };
  }

  restore(state: SecurityPart): void {
    for (const key of state.keys ?? []) this.ownKeys.set(key.value, key);
    for (const key of state.deletedKeys ?? []) this.ownDeletedKeys.set(key.value, key);
    this.sources = state.sources;
  }

  reset(): void {
    this.ownKeys.clear();
    this.ownDeletedKeys.clear();
    this.keyStartedAt.clear();
    this.sources = undefined;
  }
}
