// Multi-cluster user mapping (/1/clusters, admin key): assign, move, batch
// assign, read, list, top users, search, remove, pending mappings. A call
// carrying a user ID that is not assigned is rejected; when each cluster
// has nodes of its own, a call for a user of another cluster is answered by
// a node of that cluster (`placeCall`: the router's forwarding step), and a
// user moved to another cluster takes its records (clusters/migration.ts).
import { ApiError, badRequest, notFound } from '../util/errors.js';
import { FORWARDED_HEADER, type ClusterNodes, type Elsewhere } from '../clusters/forwarding.js';
import { checkUserID, userIDOf } from '../clusters/user-id.js';
import { deleteRecords, startMove, type MoveUses } from '../clusters/migration.js';
import { usageAcross } from '../clusters/usage-across.js';
import { credentialsOf } from '../auth/authenticate.js';
import { clusterFigures, searchUsers, topUsers, type UserUsage } from '../clusters/usage.js';
import { now, queryFlag } from './query-flags.js';
import { fieldsOf, integerParam, optionalString, stringParam } from './body-values.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the cluster map, the indexes (for usage), record writes and assignments. */
type Uses = MoveUses & Pick<Engine, 'unassignUser'>;

/** Users listed per page, and the most a page may hold (the spec's limit). */
export const USERS_PER_PAGE = 1000;

/** Mapping calls about one user: answered by a node of that user's cluster (its records are there; a move carries them from there). */
const ABOUT_A_USER = new Set(['getUserId', 'removeUserId', 'assignUserId']);

/** Where a call names its user (see userIDOf). */
interface UserCall { headers: Record<string, string>; query: Record<string, string> }

/** The user a call acts for: the header's (mapping calls but those about one user act for none). */
function userOfCall(route: { path: string; op: string }, params: Readonly<Record<string, string>>, call: UserCall): string | undefined {
  if (route.op === 'assignUserId') return userIDOf(call.headers, call.query);
  if (ABOUT_A_USER.has(route.op)) return params.userID;
  return route.path.startsWith('/1/clusters') ? undefined : userIDOf(call.headers, call.query);
}

/**
 * Where a call is answered: here (undefined), or on a node of the cluster
 * its user is assigned to, when this node serves another. Refuses a call
 * for a user no cluster holds (404).
 */
export function placeCall(
  engine: Uses, nodes: ClusterNodes | undefined, route: { path: string; op: string }, params: Readonly<Record<string, string>>, call: UserCall,
): Elsewhere | undefined {
  const userID = userOfCall(route, params, call);
  if (userID === undefined) return undefined;
  const cluster = engine.clusters.clusterOf(userID);
  if (cluster === undefined) {
    if (ABOUT_A_USER.has(route.op)) return undefined; // the handler says it is not assigned
    throw notFound(`User ID "${userID}" is not assigned to any cluster`);
  }
  if (!nodes || cluster === nodes.served) return undefined;
  if (call.headers[FORWARDED_HEADER] !== undefined) {
    throw new ApiError('unavailable', `User ID "${userID}" is on cluster "${cluster}", and this node (cluster "${nodes.served}") was sent the call by a node of cluster "${call.headers[FORWARDED_HEADER]}": the nodes disagree on the assignment for now; try again`);
  }
  return { userID, cluster };
}

/** Every user's figures on this node's cluster. */
function usage(ctx: OperationContext<never, Uses>): UserUsage[] {
  return ctx.engine.clusters.usage((name) => ctx.engine.indexes.get(name));
}

/** Every user's figures on every cluster (asked of the other clusters' nodes, unless this call was sent by one). */
function usageEverywhere(ctx: OperationContext<never, Uses>): Promise<UserUsage[]> | UserUsage[] {
  const nodes = ctx.services.clusterNodes;
  if (!nodes || ctx.headers[FORWARDED_HEADER] !== undefined) return usage(ctx);
  return usageAcross(usage(ctx), ctx.engine.clusters.names, nodes, credentialsOf(ctx.headers, ctx.query));
}

function checkCluster(ctx: OperationContext<never, Uses>, cluster: unknown): string {
  if (typeof cluster !== 'string') throw badRequest('"cluster" (string) is required');
  if (!ctx.engine.clusters.has(cluster)) throw badRequest(`Cluster "${cluster}" does not exist`);
  return cluster;
}

function assignedUser(ctx: OperationContext<never, Uses>, userID: string): UserUsage {
  const entry = usage(ctx).find((u) => u.userID === userID);
  if (!entry) throw notFound(`User ID "${userID}" is not assigned to any cluster`);
  return entry;
}

/**
 * Assigns or moves the user named by the header; usable at once. Moved to
 * a cluster served by other nodes, its records follow (pending meanwhile).
 */
export async function assignUserId(ctx: OperationContext<never, Uses>) {
  const userID = userIDOf(ctx.headers, ctx.query);
  if (userID === undefined) throw badRequest('The X-Algolia-User-ID (or X-Service-User-ID) header or query parameter is required');
  const cluster = checkCluster(ctx, fieldsOf(ctx.body).cluster);
  const from = ctx.engine.clusters.clusterOf(checkUserID(userID));
  const nodes = ctx.services.clusterNodes;
  if (nodes && from !== undefined && from !== cluster) {
    await startMove(ctx.engine, nodes, { userID, from, to: cluster }, credentialsOf(ctx.headers, ctx.query));
  } else await ctx.engine.assignUsers(cluster, [userID]);
  return { createdAt: now() };
}

/** Assigns several users; a user already on another cluster is not moved (the call is refused). */
export async function batchAssignUserIds(ctx: OperationContext<never, Uses>) {
  const { cluster: clusterName, users } = fieldsOf(ctx.body);
  const cluster = checkCluster(ctx, clusterName);
  if (!Array.isArray(users) || users.length === 0) throw badRequest('"users" must be a non-empty array of user IDs');
  const checked = [...new Set(users.map((u: unknown, i: number) => checkUserID(u, `users[${i}]`)))];
  const moving = checked.filter((u) => (ctx.engine.clusters.clusterOf(u) ?? cluster) !== cluster);
  if (moving.length) throw badRequest(`Batch assignment cannot move users; already on another cluster: ${moving.join(', ')}`);
  await ctx.engine.assignUsers(cluster, checked);
  return { createdAt: now() };
}

export function getUserId(ctx: OperationContext<'userID', Uses>) {
  return assignedUser(ctx, ctx.params.userID);
}

export async function listClusters(ctx: OperationContext<never, Uses>) {
  // the older documents' `clusters` beside the spec's `topUsers` (the names of the clusters)
  const clusters = clusterFigures(ctx.engine.clusters.names, await usageEverywhere(ctx));
  return { topUsers: clusters.map((c) => c.clusterName), clusters };
}

export async function getTopUserIds(ctx: OperationContext<never, Uses>) {
  return { topUsers: topUsers(ctx.engine.clusters.names, await usageEverywhere(ctx)) };
}

export async function listUserIds(ctx: OperationContext<never, Uses>) {
  const page = integerParam(ctx.query, 'page', 0);
  const hitsPerPage = integerParam(ctx.query, 'hitsPerPage', USERS_PER_PAGE, { max: USERS_PER_PAGE }) || USERS_PER_PAGE;
  const sorted = (await usageEverywhere(ctx)).sort((a, b) => (a.userID < b.userID ? -1 : a.userID > b.userID ? 1 : 0));
  return { userIDs: sorted.slice(page * hitsPerPage, (page + 1) * hitsPerPage) };
}

export async function searchUserIds(ctx: OperationContext<never, Uses>) {
  const body = fieldsOf(ctx.body);
  const request = {
    query: stringParam(body, 'query'),
    cluster: optionalString(body, 'clusterName') ?? optionalString(body, 'cluster'),
    page: integerParam(body, 'page', 0),
    hitsPerPage: integerParam(body, 'hitsPerPage', 20, { max: USERS_PER_PAGE }),
  };
  return searchUsers(await usageEverywhere(ctx), request);
}

/** Removes the user and the records stored under its ID (one deletion task per index). */
export async function removeUserId(ctx: OperationContext<'userID', Uses>) {
  const { userID } = assignedUser(ctx, ctx.params.userID);
  const owned = ctx.engine.clusters.ownedBy(userID, (name) => ctx.engine.indexes.get(name));
  for (const [indexName, objectIDs] of owned) await deleteRecords(ctx.engine, indexName, objectIDs);
  await ctx.engine.unassignUser(userID);
  return { deletedAt: now() };
}

/** Users whose records are being carried to their new cluster (only with clusters served by nodes of their own: elsewhere moves are immediate). */
export function hasPendingMappings(ctx: OperationContext<never, Uses>) {
  const pending = ctx.engine.clusters.pending();
  return queryFlag(ctx, 'getClusters') ? { pending: pending.size > 0, clusters: Object.fromEntries(pending) } : { pending: pending.size > 0 };
}
