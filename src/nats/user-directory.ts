// The user assignments of an application whose clusters are served by
// nodes of their own (`--clusters c1` with `--nats`): a JetStream key-value
// bucket every node of every cluster reads, so each knows which cluster a
// user is on. Keys `user.<escaped id>` hold `{ userID, cluster, createdAt }`;
// keys `cluster.<escaped name>` hold the name of a cluster a node was
// started for (what users may be assigned to). Each node watches the whole
// bucket and keeps it in memory; its own changes are seen here as soon as
// they are stored, the others' as the watch hands them over.
import type { KvEntry } from '@nats-io/kv';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { Assignment, SharedAssignments } from '../clusters/mapping.js';
import { escaped, unescaped } from './names.js';
import { FollowedBucket } from './followed-bucket.js';

const USER = 'user.';
const CLUSTER = 'cluster.';

interface StoredUser extends Assignment { userID: string }

export class UserDirectory extends FollowedBucket implements SharedAssignments {
  readonly users = new Map<string, Assignment>();
  private readonly clusterNames = new Set<string>();

  private constructor() { super('user assignments'); }

  /** Opens (making it the first time) the bucket `name`, and resolves once what it holds is read. */
  static open(js: JetStreamClient, name: string, replicas: number): Promise<UserDirectory> {
    return new UserDirectory().openBucket(js, name, replicas);
  }

  get clusters(): readonly string[] { return [...this.clusterNames].sort(); }

  /** Makes `cluster` one users may be assigned to (a node serving it is starting). */
  async register(cluster: string): Promise<void> {
    await this.put(`${CLUSTER}${escaped(cluster)}`, cluster);
    this.clusterNames.add(cluster);
  }

  async assign(cluster: string, users: string[], at: number, movingFrom?: string): Promise<void> {
    for (const userID of users) {
      const stored: StoredUser = { userID, cluster, createdAt: this.users.get(userID)?.createdAt ?? at, ...(movingFrom === undefined ? {} : { movingFrom }) };
      await this.put(keyOf(userID), JSON.stringify(stored));
      this.hold(stored);
    }
  }

  async remove(userID: string): Promise<void> {
    await this.delete(keyOf(userID));
    this.users.delete(userID);
  }

  private hold({ userID, ...assignment }: StoredUser): void {
    this.users.set(userID, assignment);
  }

  protected applyChange(entry: KvEntry): void {
    const removed = entry.operation !== 'PUT';
    if (entry.key.startsWith(CLUSTER)) {
      if (!removed) this.clusterNames.add(this.decoder.decode(entry.value));
    } else if (entry.key.startsWith(USER)) {
      if (removed) this.users.delete(userIDOf(entry.key));
      else {
        this.hold(JSON.parse(this.decoder.decode(entry.value)) as StoredUser);
      }
    }
  }
}

const keyOf = (userID: string) => `${USER}${escaped(userID)}`;

/** The user ID of a key. */
const userIDOf = (key: string) => unescaped(key.slice(USER.length));
