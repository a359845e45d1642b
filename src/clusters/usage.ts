// Figures and lookups over the users' usage: per cluster totals, the top
// users of each cluster, and search over user IDs (a throwaway index of
// the users, searched by the same pipeline as any index).
import { SearchIndex } from '../index/search-index.js';
import { searchIndex } from '../query/search.js';
import { parseSearchParams } from '../index/params.js';
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

export function searchUsers(users: UserUsage[], request: UserSearch) {
  const index = new SearchIndex('userIDs');
  index.setSettings({ searchableAttributes: ['userID', 'clusterName'], attributesForFaceting: ['filterOnly(clusterName)'] });
  index.save(users.map((u) => ({ objectID: u.userID, ...u })));
  const result = searchIndex(index, parseSearchParams({
    query: request.query,
    page: request.page,
    hitsPerPage: request.hitsPerPage,
    attributesToHighlight: ['userID', 'clusterName'],
    ...(request.cluster !== undefined ? { facetFilters: [`clusterName:${request.cluster}`] } : {}),
  }), { seeUnretrievable: true });
  return {
    hits: result.answer.hits,
    nbHits: result.nbHits,
    page: result.page.page,
    hitsPerPage: result.page.hitsPerPage,
    updatedAt: new Date().toISOString(), // the spec's RFC 3339 string (the older documents: unix seconds)
  };
}
