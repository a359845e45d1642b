// The mapping lists' figures when each cluster is served by nodes of its
// own (`--clusters c1` with `--nats`): a node counts the records of its own
// cluster only, so the node listing users asks a node of every other
// cluster for its figures (its `listUserIds`, page by page, marked as
// forwarded so that it answers with its own) and adds them up per user. A
// cluster no node of which can be reached counts nothing (as before).
import { credentialHeaders, relay, type ClusterNodes, type Credentials } from './forwarding.js';
import type { UserUsage } from './mapping.js';

/** Users per page asked of another cluster's node (the most `listUserIds` lists). */
const PAGE = 1000;

/** `own` (this node's figures) with the records every other cluster in `clusters` holds for each user added. */
export async function usageAcross(own: UserUsage[], clusters: readonly string[], nodes: ClusterNodes, credentials: Credentials): Promise<UserUsage[]> {
  const others = clusters.filter((cluster) => cluster !== nodes.served);
  const figures = await Promise.all(others.map((cluster) => usageOf(cluster, nodes, credentials)));
  const total = new Map(own.map((u) => [u.userID, { ...u }]));
  for (const user of figures.flat()) {
    const sum = total.get(user.userID);
    if (!sum) continue;
    sum.nbRecords += user.nbRecords;
    sum.dataSize += user.dataSize;
  }
  return [...total.values()];
}

/** Every user's figures as a node of `cluster` counts them (none when no node of it answers). */
async function usageOf(cluster: string, nodes: ClusterNodes, credentials: Credentials): Promise<UserUsage[]> {
  const headers = credentialHeaders(credentials);
  const users: UserUsage[] = [];
  for (let page = 0; ; page++) {
    const call = { method: 'GET', path: '/1/clusters/mapping', query: { page: String(page), hitsPerPage: String(PAGE) }, headers, body: undefined };
    const answer = await relay(nodes, { userID: '', cluster }, call).catch(() => undefined);
    const listed = answer?.status === 200 ? (answer.body as { userIDs?: UserUsage[] }).userIDs ?? [] : [];
    users.push(...listed);
    if (listed.length < PAGE) return users;
  }
}
