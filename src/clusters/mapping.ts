// Multi-cluster user mapping: clusters are named partitions of this engine,
// fixed when it opens. Each user ID is assigned to one cluster; records
// written with a user ID belong to that user, so a user's figures (records,
// data size) are counted from what is stored now. The assignments are this
// engine's state (logged, in snapshots), or, when each cluster is served by
// nodes of its own (cluster mode, `--clusters c1` with `--nats`), held app
// wide by `SharedAssignments` (src/nats/user-directory.ts) and only read
// here: a node then holds the records of its own cluster alone.
import type { Action, ClusterOperation, WriteOperation } from '../engine/writes.js';
import type { SearchRecord } from '../index/records.js';
import type { StateSection } from '../durability/state-section.js';

export const DEFAULT_CLUSTERS = ['c1-lantern'];


/** What a snapshot holds: assignments and which user wrote which record. */
export interface ClusterState {
  users: Array<[userID: string, cluster: string, createdAt: number]>;
  owners: Array<[indexName: string, records: Array<[objectID: string, userID: string]>]>;
}

export interface UserUsage { userID: string; clusterName: string; nbRecords: number; dataSize: number }

/**
 * A user's cluster, and when the user was first assigned (ms since the
 * epoch); while its records are carried to it from another cluster, that one.
 */
export interface Assignment { cluster: string; createdAt: number; movingFrom?: string }

/**
 * User assignments shared by the nodes of every cluster of an application
 * (cluster mode with named clusters: a NATS key-value bucket). A change is
 * seen here once it resolves, and on the other nodes shortly after.
 */
export interface SharedAssignments {
  /** The clusters users may be assigned to: every cluster a node was started for. */
  readonly clusters: readonly string[];
  /** Every assigned user. */
  readonly users: ReadonlyMap<string, Assignment>;
  /** Assigns (or moves) `users` to `cluster`; `movingFrom`: their records are being carried from that cluster. */
  assign(cluster: string, users: string[], at: number, movingFrom?: string): Promise<void>;
  remove(userID: string): Promise<void>;
}

/** Reads records by index name (the engine's indexes). */
export type RecordSource = (indexName: string) => { get(objectID: string): SearchRecord | undefined } | undefined;

const encoder = new TextEncoder();

/** The clusters' part of a snapshot (absent in a follower's image). */
export interface ClustersPart {
  clusters?: ClusterState;
}

/** The clusters section of the engine's state: user assignments and record owners. */
export class ClusterMap implements StateSection<ClustersPart, WriteOperation> {
  private readonly ownNames: readonly string[];
  /** The assignments this engine holds (unused with shared ones). */
  private readonly users = new Map<string, Assignment>();
  /** indexName → objectID → the user who wrote it last. */
  private readonly owners = new Map<string, Map<string, string>>();

  /** `shared`: the application's assignments, held elsewhere (this engine's log then holds none). */
  constructor(names: readonly string[] = DEFAULT_CLUSTERS, readonly shared?: SharedAssignments) {
    this.ownNames = names.length > 0 ? [...new Set(names)] : DEFAULT_CLUSTERS;
  }

  get names(): readonly string[] { return this.shared?.clusters ?? this.ownNames; }

  has(cluster: string): boolean { return this.names.includes(cluster); }

  clusterOf(userID: string): string | undefined { return this.assignments.get(userID)?.cluster; }

  get userIDs(): string[] { return [...this.assignments.keys()]; }

  private get assignments(): ReadonlyMap<string, Assignment> { return this.shared?.users ?? this.users; }

  /** Follows every write (who owns which record), applies assignments. */
  apply(op: WriteOperation): void {
    if (op.type === 'key') {
      if (op.action === 'assignUsers' || op.action === 'removeUser') this.assign(op);
    } else this.observe(op);
  }

  private assign(op: ClusterOperation): void {
    if (op.action === 'removeUser') {
      this.users.delete(op.userID);
      return;
    }
    for (const userID of op.users) {
      const current = this.users.get(userID);
      this.users.set(userID, { cluster: op.cluster, createdAt: current?.createdAt ?? op.at });
    }
  }

  /** Follows a write about to be applied: who owns which record afterwards. */
  private observe(op: WriteOperation): void {
    if (op.type === 'batch') this.recordWrites(op.indexName, op.actions, op.userID);
    // records that arrive by copy/move, or after a deletion, were not written by a user
    else if (op.type === 'deleteIndex') this.owners.delete(op.indexName);
    else if (op.type === 'operation' && (op.operation === 'move' || !op.scope?.length)) {
      this.owners.delete(op.destination);
      if (op.operation === 'move') this.owners.delete(op.indexName);
    }
  }

  /** A write with a user ID owns the record; one without makes it shared again. */
  private recordWrites(indexName: string, actions: Action[], userID: string | undefined): void {
    let owned = this.owners.get(indexName);
    if (!owned && userID === undefined) return;
    if (!owned) this.owners.set(indexName, (owned = new Map()));
    for (const a of actions) {
      switch (a.action) {
        case 'clear':
        case 'delete': owned.clear(); break;
        case 'deleteObject': owned.delete(a.objectID); break;
        default: {
          const objectID = 'objectID' in a ? a.objectID : a.body.objectID;
          if (userID === undefined) owned.delete(objectID);
          else owned.set(objectID, userID);
        }
      }
    }
  }

  /** The records a user owns that are still stored, per index. */
  ownedBy(userID: string, records: RecordSource): Map<string, string[]> {
    const found = new Map<string, string[]>();
    for (const [indexName, owned] of this.owners) {
      const index = records(indexName);
      if (!index) continue;
      const ids = [...owned].filter(([id, owner]) => owner === userID && index.get(id)).map(([id]) => id);
      if (ids.length) found.set(indexName, ids);
    }
    return found;
  }

  /** Every assigned user with the records and bytes (JSON, UTF-8) stored under its ID. */
  usage(records: RecordSource): UserUsage[] {
    const totals = new Map<string, UserUsage>();
    for (const [userID, { cluster }] of this.assignments) totals.set(userID, { userID, clusterName: cluster, nbRecords: 0, dataSize: 0 });
    for (const [indexName, owned] of this.owners) {
      const index = records(indexName);
      if (!index) continue;
      for (const [objectID, userID] of owned) {
        const total = totals.get(userID);
        const record = total && index.get(objectID);
        if (!total || !record) continue;
        total.nbRecords++;
        total.dataSize += encoder.encode(JSON.stringify(record)).length;
      }
    }
    return [...totals.values()];
  }

  /** The users whose records are being carried to their cluster, by that cluster. */
  pending(): Map<string, string[]> {
    const moving = new Map<string, string[]>();
    for (const [userID, { cluster, movingFrom }] of this.assignments) {
      if (movingFrom !== undefined) moving.set(cluster, [...(moving.get(cluster) ?? []), userID]);
    }
    return moving;
  }

  createdAt(userID: string): number | undefined { return this.assignments.get(userID)?.createdAt; }

  snapshot(): ClustersPart {
    return {
      clusters: {
        users: [...this.users].map(([userID, u]) => [userID, u.cluster, u.createdAt]),
        owners: [...this.owners].map(([indexName, owned]) => [indexName, [...owned]]),
      },
    };
  }

  restore({ clusters }: ClustersPart): void {
    this.reset();
    for (const [userID, cluster, createdAt] of clusters?.users ?? []) this.users.set(userID, { cluster, createdAt });
    for (const [indexName, owned] of clusters?.owners ?? []) this.owners.set(indexName, new Map(owned));
  }

  reset(): void {
    this.users.clear();
    this.owners.clear();
  }
}
