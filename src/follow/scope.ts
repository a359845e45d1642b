// What a follower receives: the index data (records, settings, synonyms,
// rules, replicas) of the indexes its key reaches, their recommend rules and
// trained recommend models (a follower learns nothing: it gets no events;
// the models come along the log, see models.ts), and the dictionaries
// every search reads; nothing else of the server's state — no API keys
// (embedders' keys are masked),
// secured keys' parents, source allow-list, logs, analytics or cluster
// mappings. The server applies it twice: to the image a follower starts
// from (`followerImage`) and to every operation of its stream (`visibility`).
import type { Caller } from '../auth/caller.js';
import { mayReach } from '../auth/restrictions.js';
import { withoutSecrets } from '../vectors/embedder-settings.js';
import type { SnapshotHeader, Logged } from '../durability/durability.js';
import { isIndexWrite, type IndexesPart, type IndexWrite } from '../engine/index-catalog.js';
import type { WriteOperation } from '../engine/writes.js';
import { replicaName, withReplicas, type Indexes } from '../index/index-config.js';
import type { DictionariesPart } from '../dictionaries/state.js';
import type { RecommendOperation, RecommendPart } from '../recommend/state.js';

/** The parts of a snapshot a follower may receive. */
type FollowerState = SnapshotHeader & Partial<IndexesPart> & Partial<DictionariesPart> & RecommendPart;

/**
 * The image a follower with `caller`'s key starts from: the indexes it
 * reaches, their recommend rules, and the dictionaries (the recommend
 * models follow on its log, which sends each index's as they change).
 */
export function followerImage(state: SnapshotHeader, caller: Caller): FollowerState {
  const { version, lastTaskID, indexes = [], dictionaries, recommend } = state as FollowerState;
  const reached = indexes.filter((index) => mayReach(caller, index.name)).map((index) => ({ ...index, settings: withoutSecrets(index.settings) }));
  const recommendReached = recommend && { rules: recommend.rules.filter(([index]) => mayReach(caller, index)) };
  return { version, lastTaskID, indexes: reached, ...(dictionaries ? { dictionaries } : {}), ...(recommendReached ? { recommend: recommendReached } : {}) };
}

/**
 * Every index an operation may change, as the writer's indexes stand just
 * before it is applied (the feed asks when the writer hands it over): its
 * index, that index's replicas, a copy's or move's destination, and the
 * replicas a settings change names. Empty for an operation on no index.
 */
export function reachOf(op: WriteOperation, indexes: Indexes): string[] {
  if (op.type === 'recommend') return [op.indexName];
  if (!isIndexWrite(op)) return [];
  const names = new Set([op.indexName, ...withReplicas(indexes, op.indexName, true).map((index) => index.name)]);
  if (op.type === 'operation') names.add(op.destination);
  if (op.type === 'settings') for (const entry of op.settings.replicas ?? []) names.add(replicaName(entry));
  return [...names];
}

/** What becomes of an operation on its way to a follower: sent (stripped), skipped, or a reason to load a new image. */
export type Visibility = { send: Logged<IndexWrite> } | 'skip' | 'reload';

/**
 * What a follower with `caller`'s key gets of an operation that reaches
 * `reach`. An operation on its indexes only is sent; one on none of them is
 * skipped. One that reaches both kinds is sent when it starts at one of its
 * indexes and only spreads to others it does not hold (a batch on a primary
 * with a replica it may not see); otherwise (an index of its own copied from
 * one it may not see, a replica created from one) the follower loads a new
 * image, which holds exactly its indexes. A dictionary change (rare, and
 * application-wide) also makes it load one.
 */
export function visibility(op: Logged<WriteOperation>, reach: readonly string[], caller: Caller): Visibility {
  if (op.type === 'dictionaries') return 'reload';
  // recommend rules of an index it holds (sent as they are: they hold no secret)
  if (op.type === 'recommend') return reach.every((name) => mayReach(caller, name)) ? { send: op as Logged<RecommendOperation> as unknown as Logged<IndexWrite> } : 'skip';
  if (!isIndexWrite(op)) return 'skip';
  const reached = reach.filter((name) => mayReach(caller, name)).length;
  if (reached === 0) return 'skip';
  if (reached === reach.length || (mayReach(caller, op.indexName) && !derivesIndexes(op))) return { send: stripped(op) };
  return 'reload';
}

/** Whether an operation makes indexes from another (a copy, a move, replicas named by settings). */
function derivesIndexes(op: IndexWrite): boolean {
  return op.type === 'operation' || (op.type === 'settings' && op.settings.replicas !== undefined);
}

/** An index write without what belongs to other parts of the state (the keys a copy extends, the user a batch is for) nor secrets (embedders' API keys). */
function stripped(op: Logged<IndexWrite>): Logged<IndexWrite> {
  if (op.type === 'operation' && op.keys !== undefined) return { ...op, keys: [] };
  if (op.type === 'settings' && op.settings.embedders) return { ...op, settings: withoutSecrets(op.settings) };
  if (op.type === 'batch' && op.userID !== undefined) return { ...op, userID: undefined };
  return op;
}
