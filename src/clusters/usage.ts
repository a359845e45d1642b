// Figures and lookups over the users' usage: per cluster totals, the top
// users of each cluster, and search over user IDs (by prefix).
import type { UserUsage } from './mapping.js';

export type { UserUsage } from './mapping.js';

/** Users listed per cluster by the top endpoint (the spec's limit). */
export const TOP_USERS = 10;

const byRecords = (a: UserUsage, b: UserUsage) => b.nbRecords - a.nbRecords || (a.userID < b.userID ? -1 : 1);

export function clusterFigures(names: readonly string[], users: UserUsage[]) {
  return names.map((clusterName) => {
    const members = users.filter((u) => u.clusterName === clusterName);
    return {
      clusterName,
      nbRecords: members.reduce((sum, u) => sum + u.nbRecords, 0),
      nbUserIDs: members.length,
      dataSize: members.reduce((sum, u) => sum + u.dataSize, 0),
    };
  });
}

/** One entry per cluster: its users with the most records, at most TOP_USERS. */
export function topUsers(names: readonly string[], users: UserUsage[]): Array<Record<string, UserUsage[]>> {
  return names.map((name) => ({ [name]: users.filter((u) => u.clusterName === name).sort(byRecords).slice(0, TOP_USERS) }));
}

export interface UserSearch { query: string; cluster?: string; page: number; hitsPerPage: number }

/**
 * Search over user IDs, as the service's: the query is a prefix of the
 * whole user ID (case aside), not words matched anywhere in it. A user ID
 * is usually made of words and numbers (`app-2026-11-29-0`): matched word
 * by word, with the last word a prefix, `app-2026-11-29-0` would also find
 * `app-2026-11-29-1` (its `0` a prefix of nothing there, but `2` of `2026`
 * for `…-2`), and the service answers one user for a full ID. The user
 * whose ID is the query comes first, then the others in user ID order.
 */
export function searchUsers(users: UserUsage[], request: UserSearch) {
  const query = request.query.toLowerCase();
  const found = users
    .filter((u) => u.userID.toLowerCase().startsWith(query) && (request.cluster === undefined || u.clusterName === request.cluster))
    .sort((a, b) => Number(b.userID.toLowerCase() === query) - Number(a.userID.toLowerCase() === query) || (a.userID < b.userID ? -1 : a.userID > b.userID ? 1 : 0));
  const { page, hitsPerPage } = request;
  return {
    hits: found.slice(page * hitsPerPage, (page + 1) * hitsPerPage).map((u) => userHit(u, request.query.length)),
    nbHits: found.length,
    page,
    hitsPerPage,
    updatedAt: new Date().toISOString(), // the spec's RFC 3339 string (the older documents: unix seconds)
  };
}

/** A user as a hit: its figures, objectID, and the matched prefix highlighted (user IDs hold no HTML to escape). */
function userHit(user: UserUsage, matched: number) {
  const prefix = user.userID.slice(0, matched);
  const userID = matched === 0
    ? { value: user.userID, matchLevel: 'none', matchedWords: [] }
    : { value: `<em>${prefix}</em>${user.userID.slice(matched)}`, matchLevel: 'full', fullyHighlighted: matched === user.userID.length, matchedWords: [prefix] };
  return {
    ...user,
    objectID: user.userID,
    _highlightResult: { userID, clusterName: { value: user.clusterName, matchLevel: 'none', matchedWords: [] } },
  };
}
