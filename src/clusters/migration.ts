// Moving a user to another cluster when each cluster is served by nodes of
// its own (`--clusters c1` with `--nats`): as on the hosted service, the
// user's records go with it. The move is made by a node of the user's
// cluster (the router sends the call there: api/clusters.ts), which holds
// them: the assignment says the new cluster at once, with the old one as
// `movingFrom` (the mapping is pending), then each index's records of the
// user are written on the new cluster (sent to a node of it, as a batch for
// that user) and deleted here, and the assignment is made plain again.
import { ApiError } from '../util/errors.js';
import { credentialHeaders, relay, type ClusterNodes, type Credentials } from './forwarding.js';
import type { Engine } from '../engine/engine.js';
import type { SearchRecord } from '../index/records.js';

/** What a move uses of the engine: the owners of records, the indexes, record writes and assignments. */
export type MoveUses = Pick<Engine, 'clusters' | 'indexes' | 'write' | 'assignUsers'>;

/** A user leaving cluster `from` (this node's) for `to`. */
export interface Move { userID: string; from: string; to: string }

/** Records per batch sent on: well under NATS's 1 MB message once encoded. */
const BATCH_BYTES = 256 * 1024;
/** How long a batch is offered again while the new cluster's node has not yet seen the assignment (it answers 503). */
const SEEN_WITHIN_MS = 15_000;

/**
 * Starts moving a user: refused (503) when no node of the new cluster can
 * be reached; resolves once the assignment says the new cluster (pending),
 * the records following in the background.
 */
export async function startMove(engine: MoveUses, nodes: ClusterNodes, move: Move, credentials: Credentials): Promise<void> {
  if (await nodes.urlOf(move.to) === undefined) {
    throw new ApiError('unavailable', `User ID "${move.userID}" cannot be moved to cluster "${move.to}": no node serving it can be reached now (start one with --clusters ${move.to})`);
  }
  await engine.assignUsers(move.to, [move.userID], move.from);
  void finish(engine, nodes, move, credentials);
}

/** Carries the records, then makes the assignment plain (no longer pending) unless the user was moved again meanwhile. */
async function finish(engine: MoveUses, nodes: ClusterNodes, move: Move, credentials: Credentials): Promise<void> {
  const { userID, from, to } = move;
  try {
    await carry(engine, nodes, move, credentials);
  } catch (e) {
    console.error(`lantern: the records of user "${userID}" could not all be moved to cluster "${to}"; those left are still on "${from}" (${(e as Error).message})`);
  }
  try {
    if (engine.clusters.clusterOf(userID) === to) await engine.assignUsers(to, [userID]);
  } catch (e) {
    console.error(`lantern: user "${userID}" is still said to be moving to cluster "${to}" (${(e as Error).message})`);
  }
}

/** Writes the user's records of every index on the new cluster, then deletes them here. */
async function carry(engine: MoveUses, nodes: ClusterNodes, move: Move, credentials: Credentials): Promise<void> {
  const owned = engine.clusters.ownedBy(move.userID, (name) => engine.indexes.get(name));
  for (const [indexName, objectIDs] of owned) {
    const index = engine.indexes.get(indexName);
    const records = objectIDs.map((id) => index?.get(id)).filter((r): r is SearchRecord => r !== undefined);
    for (const part of inParts(records)) await sendOn(nodes, move, indexName, part, credentials);
    await deleteRecords(engine, indexName, objectIDs);
  }
}

/** Deletes records of an index (a user's, when it is removed or moved): one task. */
export function deleteRecords(engine: Pick<Engine, 'write'>, indexName: string, objectIDs: string[]): Promise<number> {
  return engine.write({ type: 'batch', indexName, actions: objectIDs.map((objectID) => ({ action: 'deleteObject', objectID })) });
}

/** Records in batches of at most BATCH_BYTES of JSON (one record larger than that alone). */
function inParts(records: SearchRecord[]): SearchRecord[][] {
  const parts: SearchRecord[][] = [];
  let bytes = Infinity;
  for (const record of records) {
    const size = JSON.stringify(record).length;
    if (bytes + size > BATCH_BYTES) {
      parts.push([]);
      bytes = 0;
    }
    parts[parts.length - 1].push(record);
    bytes += size;
  }
  return parts;
}

/** Writes records for the user on the new cluster's node; offered again while that node still sends the user's calls here (503). */
async function sendOn(nodes: ClusterNodes, { userID, to }: Move, indexName: string, records: SearchRecord[], credentials: Credentials): Promise<void> {
  const headers = { 'content-type': 'application/json', 'x-algolia-user-id': userID, ...credentialHeaders(credentials) };
  const body = JSON.stringify({ requests: records.map((record) => ({ action: 'addObject', body: record })) });
  const call = { method: 'POST', path: `/1/indexes/${encodeURIComponent(indexName)}/batch`, query: {}, headers, body };
  const deadline = Date.now() + SEEN_WITHIN_MS;
  for (;;) {
    const answer = await relay(nodes, { userID, cluster: to }, call);
    if (answer.status === 200) return;
    if (answer.status !== 503 || Date.now() > deadline) throw new Error(`cluster "${to}" answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
