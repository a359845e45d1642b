// The one router: METHOD + path → operation. It is the only place that knows
// URLs and status codes; HTTP, `engine.request` and the typed client all
// come through here.
import { ApiError } from '../engine/errors.js';
import { yieldTurn } from '../engine/tasks.js';
import { authenticate, authorize, type CallInfo } from '../auth/authenticate.js';
import { enforce, rateLimitHeaders, restrictResult } from '../auth/enforce.js';
import type { Lantern } from '../lantern.js';
import * as indexes from './indexes.js';
import * as keys from './keys.js';
import * as sources from './sources.js';
import * as objects from './objects.js';
import * as search from './search.js';
import * as synonyms from './synonyms.js';
import * as rules from './rules.js';
import * as analytics from './analytics.js';
import * as insights from './insights.js';
import * as abtests from './abtests.js';
import * as personalization from './personalization.js';
import * as monitoring from './monitoring.js';
import * as suggestions from './suggestions.js';
import * as clusters from './clusters.js';
import { observeRequest } from '../monitoring/observe.js';
import * as logs from './logs.js';
import { requestIdHeaders, requestIdOf } from './request-id.js';
import { Reply, type ApiRequest, type ApiResponse, type Handler, type Right } from './types.js';
import { RecentValues } from '../engine/recent.js';

export interface Route {
  /** Operation name: the official v5 client's method name. */
  op: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  right: Right;
  handler: Handler;
  /** Typed client: the argument holding the body ('.' = the whole argument). */
  body?: string;
  /** Typed client: arguments sent as query parameters. */
  query?: readonly string[];
}

/** Query parameters of the analytics reports: a figure over days, a top list, a searchable top list. */
const REPORT_QUERY = ['index', 'startDate', 'endDate', 'tags'];
const TOP_QUERY = ['index', 'startDate', 'endDate', 'limit', 'offset', 'tags'];
const TOP_SEARCH_QUERY = ['index', 'search', 'startDate', 'endDate', 'limit', 'offset', 'tags'];

/** Every operation, one row each: the ACL table is the `right` column. */
const ROUTE_TABLE = [
  { op: 'listIndices', method: 'GET', path: '/1/indexes', right: 'listIndexes', handler: indexes.listIndices, query: ['page', 'hitsPerPage'] },
  { op: 'search', method: 'POST', path: '/1/indexes/*/queries', right: 'search', handler: search.search, body: '.' },
  { op: 'multipleBatch', method: 'POST', path: '/1/indexes/*/batch', right: 'addObject', handler: objects.multipleBatch, body: '.' },
  { op: 'getObjects', method: 'POST', path: '/1/indexes/*/objects', right: 'search', handler: objects.getObjects, body: '.' },
  { op: 'searchSingleIndex', method: 'POST', path: '/1/indexes/{indexName}/query', right: 'search', handler: search.searchSingleIndex, body: 'searchParams' },
  { op: 'searchWithQueryString', method: 'GET', path: '/1/indexes/{indexName}', right: 'search', handler: search.searchWithQueryString },
  { op: 'saveObject', method: 'POST', path: '/1/indexes/{indexName}', right: 'addObject', handler: objects.saveObject, body: 'body' },
  { op: 'deleteIndex', method: 'DELETE', path: '/1/indexes/{indexName}', right: 'deleteIndex', handler: indexes.deleteIndex },
  { op: 'browse', method: 'POST', path: '/1/indexes/{indexName}/browse', right: 'browse', handler: search.browse, body: 'browseParams' },
  { op: 'browseWithQueryString', method: 'GET', path: '/1/indexes/{indexName}/browse', right: 'browse', handler: search.browse },
  { op: 'searchForFacetValues', method: 'POST', path: '/1/indexes/{indexName}/facets/{facetName}/query', right: 'search', handler: search.searchForFacetValues, body: 'searchForFacetValuesRequest' },
  { op: 'deleteBy', method: 'POST', path: '/1/indexes/{indexName}/deleteByQuery', right: 'deleteIndex', handler: objects.deleteBy, body: 'deleteByParams' },
  { op: 'batch', method: 'POST', path: '/1/indexes/{indexName}/batch', right: 'addObject', handler: objects.batch, body: 'batchWriteParams' },
  { op: 'clearObjects', method: 'POST', path: '/1/indexes/{indexName}/clear', right: 'deleteIndex', handler: objects.clearObjects },
  { op: 'getSettings', method: 'GET', path: '/1/indexes/{indexName}/settings', right: 'settings', handler: indexes.getSettings, query: ['getVersion'] },
  { op: 'setSettings', method: 'PUT', path: '/1/indexes/{indexName}/settings', right: 'editSettings', handler: indexes.setSettings, body: 'indexSettings', query: ['forwardToReplicas'] },
  { op: 'getTask', method: 'GET', path: '/1/indexes/{indexName}/task/{taskID}', right: 'addObject', handler: indexes.getTask },
  { op: 'getAppTask', method: 'GET', path: '/1/task/{taskID}', right: 'addObject', handler: indexes.getAppTask },
  { op: 'operationIndex', method: 'POST', path: '/1/indexes/{indexName}/operation', right: 'addObject', handler: indexes.operationIndex, body: 'operationIndexParams' },
  { op: 'saveSynonym', method: 'PUT', path: '/1/indexes/{indexName}/synonyms/{objectID}', right: 'editSettings', handler: synonyms.saveSynonym, body: 'synonymHit', query: ['forwardToReplicas'] },
  { op: 'saveSynonyms', method: 'POST', path: '/1/indexes/{indexName}/synonyms/batch', right: 'editSettings', handler: synonyms.saveSynonyms, body: 'synonymHit', query: ['forwardToReplicas', 'replaceExistingSynonyms'] },
  { op: 'getSynonym', method: 'GET', path: '/1/indexes/{indexName}/synonyms/{objectID}', right: 'settings', handler: synonyms.getSynonym },
  { op: 'deleteSynonym', method: 'DELETE', path: '/1/indexes/{indexName}/synonyms/{objectID}', right: 'editSettings', handler: synonyms.deleteSynonym, query: ['forwardToReplicas'] },
  { op: 'clearSynonyms', method: 'POST', path: '/1/indexes/{indexName}/synonyms/clear', right: 'editSettings', handler: synonyms.clearSynonyms, query: ['forwardToReplicas'] },
  { op: 'searchSynonyms', method: 'POST', path: '/1/indexes/{indexName}/synonyms/search', right: 'settings', handler: synonyms.searchSynonymsOperation, body: 'searchSynonymsParams' },
  { op: 'saveRule', method: 'PUT', path: '/1/indexes/{indexName}/rules/{objectID}', right: 'editSettings', handler: rules.saveRule, body: 'rule', query: ['forwardToReplicas'] },
  { op: 'saveRules', method: 'POST', path: '/1/indexes/{indexName}/rules/batch', right: 'editSettings', handler: rules.saveRules, body: 'rules', query: ['forwardToReplicas', 'clearExistingRules'] },
  { op: 'getRule', method: 'GET', path: '/1/indexes/{indexName}/rules/{objectID}', right: 'settings', handler: rules.getRule },
  { op: 'deleteRule', method: 'DELETE', path: '/1/indexes/{indexName}/rules/{objectID}', right: 'editSettings', handler: rules.deleteRule, query: ['forwardToReplicas'] },
  { op: 'clearRules', method: 'POST', path: '/1/indexes/{indexName}/rules/clear', right: 'editSettings', handler: rules.clearRules, query: ['forwardToReplicas'] },
  { op: 'searchRules', method: 'POST', path: '/1/indexes/{indexName}/rules/search', right: 'settings', handler: rules.searchRulesOperation, body: 'searchRulesParams' },
  { op: 'getObject', method: 'GET', path: '/1/indexes/{indexName}/{objectID}', right: 'search', handler: objects.getObject, query: ['attributesToRetrieve'] },
  { op: 'addOrUpdateObject', method: 'PUT', path: '/1/indexes/{indexName}/{objectID}', right: 'addObject', handler: objects.addOrUpdateObject, body: 'body' },
  { op: 'deleteObject', method: 'DELETE', path: '/1/indexes/{indexName}/{objectID}', right: 'deleteObject', handler: objects.deleteObject },
  { op: 'partialUpdateObject', method: 'POST', path: '/1/indexes/{indexName}/{objectID}/partial', right: 'addObject', handler: objects.partialUpdateObject, body: 'attributesToUpdate', query: ['createIfNotExists'] },
  // API keys (admin key only; getApiKey also answers the key itself)
  { op: 'addApiKey', method: 'POST', path: '/1/keys', right: 'admin', handler: keys.addApiKey, body: '.' },
  { op: 'listApiKeys', method: 'GET', path: '/1/keys', right: 'admin', handler: keys.listApiKeys },
  { op: 'getApiKey', method: 'GET', path: '/1/keys/{key}', right: 'admin', handler: keys.getApiKey },
  { op: 'updateApiKey', method: 'PUT', path: '/1/keys/{key}', right: 'admin', handler: keys.updateApiKey, body: 'apiKey' },
  { op: 'deleteApiKey', method: 'DELETE', path: '/1/keys/{key}', right: 'admin', handler: keys.deleteApiKey },
  { op: 'restoreApiKey', method: 'POST', path: '/1/keys/{key}/restore', right: 'admin', handler: keys.restoreApiKey },
  { op: 'listAllIndexApiKeys', method: 'GET', path: '/1/indexes/*/keys', right: 'admin', handler: keys.listAllIndexApiKeys },
  { op: 'addIndexApiKey', method: 'POST', path: '/1/indexes/{indexName}/keys', right: 'admin', handler: keys.addIndexApiKey, body: 'apiKey' },
  { op: 'listIndexApiKeys', method: 'GET', path: '/1/indexes/{indexName}/keys', right: 'admin', handler: keys.listIndexApiKeys },
  { op: 'getIndexApiKey', method: 'GET', path: '/1/indexes/{indexName}/keys/{key}', right: 'admin', handler: keys.getIndexApiKey },
  { op: 'updateIndexApiKey', method: 'PUT', path: '/1/indexes/{indexName}/keys/{key}', right: 'admin', handler: keys.updateIndexApiKey, body: 'apiKey' },
  { op: 'deleteIndexApiKey', method: 'DELETE', path: '/1/indexes/{indexName}/keys/{key}', right: 'admin', handler: keys.deleteIndexApiKey },
  { op: 'getLogs', method: 'GET', path: '/1/logs', right: 'logs', handler: logs.getLogs, query: ['offset', 'length', 'indexName', 'type'] },
  // the source allow-list (admin key only)
  { op: 'getSources', method: 'GET', path: '/1/security/sources', right: 'admin', handler: sources.getSources },
  { op: 'replaceSources', method: 'PUT', path: '/1/security/sources', right: 'admin', handler: sources.replaceSources, body: 'source' },
  { op: 'appendSource', method: 'POST', path: '/1/security/sources/append', right: 'admin', handler: sources.appendSource, body: 'source' },
  { op: 'deleteSource', method: 'DELETE', path: '/1/security/sources/{source}', right: 'admin', handler: sources.deleteSource },
  // analytics, insights, A/B tests, personalization
  { op: 'getAnalyticsStatus', method: 'GET', path: '/2/status', right: 'analytics', handler: analytics.getStatus, query: ['index'] },
  { op: 'getTopSearches', method: 'GET', path: '/2/searches', right: 'analytics', handler: analytics.getTopSearches, query: ['index', 'clickAnalytics', 'startDate', 'endDate', 'orderBy', 'direction', 'limit', 'offset', 'tags'] },
  { op: 'getSearchesCount', method: 'GET', path: '/2/searches/count', right: 'analytics', handler: analytics.getSearchesCount, query: REPORT_QUERY },
  { op: 'getSearchesNoResults', method: 'GET', path: '/2/searches/noResults', right: 'analytics', handler: analytics.getSearchesNoResults, query: TOP_QUERY },
  { op: 'getNoResultsRate', method: 'GET', path: '/2/searches/noResultRate', right: 'analytics', handler: analytics.getNoResultsRate, query: REPORT_QUERY },
  { op: 'getTopHits', method: 'GET', path: '/2/hits', right: 'analytics', handler: analytics.getTopHits, query: TOP_SEARCH_QUERY },
  { op: 'getUsersCount', method: 'GET', path: '/2/users/count', right: 'analytics', handler: analytics.getUsersCount, query: REPORT_QUERY },
  { op: 'getTopFilterAttributes', method: 'GET', path: '/2/filters', right: 'analytics', handler: analytics.getTopFilterAttributes, query: TOP_SEARCH_QUERY },
  { op: 'getTopFiltersNoResults', method: 'GET', path: '/2/filters/noResults', right: 'analytics', handler: analytics.getTopFiltersNoResults, query: TOP_SEARCH_QUERY },
  { op: 'getTopFilterForAttribute', method: 'GET', path: '/2/filters/{attribute}', right: 'analytics', handler: analytics.getTopFilterForAttribute, query: TOP_SEARCH_QUERY },
  { op: 'getTopCountries', method: 'GET', path: '/2/countries', right: 'analytics', handler: analytics.getTopCountries, query: TOP_QUERY },
  { op: 'getAverageClickPosition', method: 'GET', path: '/2/clicks/averageClickPosition', right: 'analytics', handler: analytics.getAverageClickPosition, query: REPORT_QUERY },
  { op: 'getClickThroughRate', method: 'GET', path: '/2/clicks/clickThroughRate', right: 'analytics', handler: analytics.getClickThroughRate, query: REPORT_QUERY },
  { op: 'getConversionRate', method: 'GET', path: '/2/conversions/conversionRate', right: 'analytics', handler: analytics.getConversionRate, query: REPORT_QUERY },
  // the analytics endpoints of today's client beside the spec's (compatibility.md, last section)
  { op: 'getSearchesNoClicks', method: 'GET', path: '/2/searches/noClicks', right: 'analytics', handler: analytics.getSearchesNoClicks, query: TOP_QUERY },
  { op: 'getNoClickRate', method: 'GET', path: '/2/searches/noClickRate', right: 'analytics', handler: analytics.getNoClickRate, query: REPORT_QUERY },
  { op: 'getClickPositions', method: 'GET', path: '/2/clicks/positions', right: 'analytics', handler: analytics.getClickPositions, query: REPORT_QUERY },
  { op: 'getAddToCartRate', method: 'GET', path: '/2/conversions/addToCartRate', right: 'analytics', handler: analytics.getAddToCartRate, query: REPORT_QUERY },
  { op: 'getPurchaseRate', method: 'GET', path: '/2/conversions/purchaseRate', right: 'analytics', handler: analytics.getPurchaseRate, query: REPORT_QUERY },
  { op: 'getRevenue', method: 'GET', path: '/2/conversions/revenue', right: 'analytics', handler: analytics.getRevenue, query: REPORT_QUERY },
  { op: 'pushEvents', method: 'POST', path: '/1/events', right: 'search', handler: insights.pushEvents, body: '.' },
  { op: 'deleteUserToken', method: 'DELETE', path: '/1/usertokens/{userToken}', right: 'admin', handler: insights.deleteUserToken },
  { op: 'addABTests', method: 'POST', path: '/2/abtests', right: 'editSettings', handler: abtests.addABTests, body: '.' },
  { op: 'estimateABTest', method: 'POST', path: '/2/abtests/estimate', right: 'analytics', handler: abtests.estimateABTest, body: '.' },
  { op: 'listABTests', method: 'GET', path: '/2/abtests', right: 'analytics', handler: abtests.listABTests, query: ['offset', 'limit', 'indexPrefix', 'indexSuffix'] },
  { op: 'getABTest', method: 'GET', path: '/2/abtests/{id}', right: 'analytics', handler: abtests.getABTest },
  { op: 'stopABTest', method: 'POST', path: '/2/abtests/{id}/stop', right: 'editSettings', handler: abtests.stopABTest },
  { op: 'deleteABTest', method: 'DELETE', path: '/2/abtests/{id}', right: 'editSettings', handler: abtests.deleteABTest },
  { op: 'setPersonalizationStrategy', method: 'POST', path: '/1/strategies/personalization', right: 'personalization', handler: personalization.setPersonalizationStrategy, body: '.' },
  { op: 'getPersonalizationStrategy', method: 'GET', path: '/1/strategies/personalization', right: 'personalization', handler: personalization.getPersonalizationStrategy },
  { op: 'setRecommendationStrategy', method: 'POST', path: '/1/recommendation/personalization/strategy', right: 'editSettings', handler: personalization.setRecommendationStrategy, body: '.' },
  { op: 'getRecommendationStrategy', method: 'GET', path: '/1/recommendation/personalization/strategy', right: 'settings', handler: personalization.getRecommendationStrategy },
  { op: 'getUserTokenProfile', method: 'GET', path: '/1/profiles/personalization/{userToken}', right: 'personalization', handler: personalization.getUserTokenProfile },
  { op: 'deleteUserProfile', method: 'DELETE', path: '/1/profiles/{userToken}', right: 'personalization', handler: personalization.deleteUserProfile },
  // query suggestions (the admin key: analytics-api.md, Authentication)
  { op: 'createConfig', method: 'POST', path: '/1/configs', right: 'admin', handler: suggestions.createConfig, body: '.' },
  { op: 'getAllConfigs', method: 'GET', path: '/1/configs', right: 'admin', handler: suggestions.getAllConfigs },
  { op: 'getConfig', method: 'GET', path: '/1/configs/{indexName}', right: 'admin', handler: suggestions.getConfig },
  { op: 'updateConfig', method: 'PUT', path: '/1/configs/{indexName}', right: 'admin', handler: suggestions.updateConfig, body: 'configuration' },
  { op: 'deleteConfig', method: 'DELETE', path: '/1/configs/{indexName}', right: 'admin', handler: suggestions.deleteConfig },
  { op: 'getConfigStatus', method: 'GET', path: '/1/configs/{indexName}/status', right: 'admin', handler: suggestions.getConfigStatus },
  { op: 'getLogFile', method: 'GET', path: '/1/logs/{indexName}', right: 'admin', handler: suggestions.getLogFile },
  // monitoring and multi-cluster
  { op: 'getStatus', method: 'GET', path: '/1/status', right: 'usage', handler: monitoring.getStatus },
  { op: 'getClusterStatus', method: 'GET', path: '/1/status/{clusters}', right: 'usage', handler: monitoring.getStatus },
  { op: 'getIncidents', method: 'GET', path: '/1/incidents', right: 'usage', handler: monitoring.getIncidents },
  { op: 'getClusterIncidents', method: 'GET', path: '/1/incidents/{clusters}', right: 'usage', handler: monitoring.getIncidents },
  { op: 'getUsage', method: 'GET', path: '/1/usage/{statistic}/period/{period}', right: 'usage', handler: monitoring.getUsage },
  { op: 'getIndexUsage', method: 'GET', path: '/1/usage/{statistic}/period/{period}/{indexName}', right: 'usage', handler: monitoring.getUsage },
  { op: 'getServers', method: 'GET', path: '/1/inventory/servers', right: 'usage', handler: monitoring.getServers },
  { op: 'getProbes', method: 'GET', path: '/1/inventory/probes', right: 'usage', handler: monitoring.getProbes },
  { op: 'getLatency', method: 'GET', path: '/1/latency/{clusters}', right: 'usage', handler: monitoring.getLatency },
  { op: 'getLatencyByRelevantProbes', method: 'GET', path: '/1/latency/{clusters}/probes/relevant', right: 'usage', handler: monitoring.getLatencyByRelevantProbes },
  { op: 'getLatencyByOtherProbes', method: 'GET', path: '/1/latency/{clusters}/probes/others', right: 'usage', handler: monitoring.getLatencyByOtherProbes },
  { op: 'getIndexingTime', method: 'GET', path: '/1/indexing/{clusters}', right: 'usage', handler: monitoring.getIndexingTime },
  { op: 'getReachability', method: 'GET', path: '/1/reachability/{clusters}/probes', right: 'usage', handler: monitoring.getReachability },
  { op: 'getMetrics', method: 'GET', path: '/1/infrastructure/{metric}/period/{period}', right: 'usage', handler: monitoring.getMetrics },
  { op: 'assignUserId', method: 'POST', path: '/1/clusters/mapping', right: 'admin', handler: clusters.assignUserId, body: 'assignUserIdParams' },
  { op: 'batchAssignUserIds', method: 'POST', path: '/1/clusters/mapping/batch', right: 'admin', handler: clusters.batchAssignUserIds, body: 'batchAssignUserIdsParams' },
  { op: 'getTopUserIds', method: 'GET', path: '/1/clusters/mapping/top', right: 'admin', handler: clusters.getTopUserIds },
  { op: 'hasPendingMappings', method: 'GET', path: '/1/clusters/mapping/pending', right: 'admin', handler: clusters.hasPendingMappings, query: ['getClusters'] },
  { op: 'searchUserIds', method: 'POST', path: '/1/clusters/mapping/search', right: 'admin', handler: clusters.searchUserIds, body: 'searchUserIdsParams' },
  { op: 'getUserId', method: 'GET', path: '/1/clusters/mapping/{userID}', right: 'admin', handler: clusters.getUserId },
  { op: 'removeUserId', method: 'DELETE', path: '/1/clusters/mapping/{userID}', right: 'admin', handler: clusters.removeUserId },
  { op: 'listUserIds', method: 'GET', path: '/1/clusters/mapping', right: 'admin', handler: clusters.listUserIds, query: ['page', 'hitsPerPage'] },
  { op: 'listClusters', method: 'GET', path: '/1/clusters', right: 'admin', handler: clusters.listClusters },
] as const satisfies readonly Route[];

export const ROUTES: readonly Route[] = ROUTE_TABLE;

/** Every operation's name (the typed client's methods: see client.ts). */
export type RouteOp = (typeof ROUTE_TABLE)[number]['op'];

/** A route's path as segments: literal text, or the name of a parameter (`{name}`). */
interface CompiledRoute { route: Route; segments: Array<{ literal: string } | { param: string }>; literals: number }

const COMPILED: CompiledRoute[] = ROUTES.map((route) => {
  const segments = route.path.split('/').slice(1).map((s) => (s.startsWith('{') ? { param: s.slice(1, -1) } : { literal: s }));
  return { route, segments, literals: segments.filter((s) => 'literal' in s).length };
}).sort((a, b) => b.literals - a.literals);

/** Whether the path's segments fit the route's: literals equal, parameters not empty. */
function fits(c: CompiledRoute, parts: string[]): boolean {
  if (c.segments.length !== parts.length) return false;
  for (let i = 0; i < parts.length; i++) {
    const s = c.segments[i];
    if ('literal' in s ? s.literal !== parts[i] : parts[i] === '') return false;
  }
  return true;
}

type Match = { route: Route; params: Readonly<Record<string, string>> };

/** Paths matched lately (an app sends the same few again and again): their route and frozen parameters, or why none. */
const matched = new RecentValues<string, Match | 'wrong-method' | undefined>(256);

function match(method: string, path: string): Match | 'wrong-method' | undefined {
  return matched.get(`${method} ${path}`, () => matchRoute(method, path));
}

function matchRoute(method: string, path: string): Match | 'wrong-method' | undefined {
  const parts = path.split('/').slice(1);
  let methodMismatch = false;
  for (const c of COMPILED) {
    if (!fits(c, parts)) continue;
    if (c.route.method !== method) { methodMismatch = true; continue; }
    const params: Record<string, string> = {};
    c.segments.forEach((s, i) => { if ('param' in s) params[s.param] = decodeURIComponent(parts[i]); });
    return { route: c.route, params: Object.freeze(params) };
  }
  return methodMismatch ? 'wrong-method' : undefined;
}

/** Characters of a write's body past which it is parsed on a turn of its own (a batch of a few hundred records). */
const LARGE_BODY = 64 * 1024;

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw new ApiError(400, 'Invalid JSON in request body');
  }
}

function lowerCaseKeys(headers: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

function splitPath(request: ApiRequest): { path: string; query: Record<string, string> } {
  const mark = request.path.indexOf('?');
  const query: Record<string, string> = {};
  if (mark >= 0) for (const [k, v] of new URLSearchParams(request.path.slice(mark + 1))) query[k] = v;
  for (const k in request.query) if (request.query[k] !== undefined) query[k] = String(request.query[k]);
  return { path: mark >= 0 ? request.path.slice(0, mark) : request.path, query };
}

const json = (status: number, body: unknown): ApiResponse => ({ status, body });

/** What answering a call learnt, for its log entry. */
interface Seen { route?: Route; params?: Record<string, string>; body?: unknown }

/**
 * Answers one call; every answer names its call (`X-Request-Id`) and every
 * call but the logs call itself is logged, here and nowhere else.
 */
export async function route(engine: Lantern, request: ApiRequest): Promise<ApiResponse> {
  const started = performance.now();
  const headers = lowerCaseKeys(request.headers);
  const { path, query } = splitPath(request);
  const sourceIp = request.sourceIp ?? '127.0.0.1';
  const requestId = requestIdOf(headers, query);
  const seen: Seen = { body: request.body };
  const response = await answer(engine, request.method.toUpperCase(), path, query, headers, { sourceIp, userToken: request.userToken }, seen);
  response.headers = { ...response.headers, ...requestIdHeaders(requestId) };
  if (seen.route?.op !== 'getLogs') {
    const logging = performance.now();
    logs.logCall(engine, {
      requestId, method: request.method, path, query, headers, body: seen.body, sourceIp, response,
      processingTimeMs: logging - started, route: seen.route, params: seen.params,
    });
    if (seen.route && !readsRecords(seen.route)) engine.pacer.charge(performance.now() - logging);
  }
  return response;
}

/** Routes that read records, which write pacing makes room for (see write-pacer.ts). */
const readsRecords = (route: Route) => route.right === 'search' || route.right === 'browse';

async function answer(
  engine: Lantern, method: string, path: string, query: Record<string, string>,
  headers: Record<string, string>, info: CallInfo, seen: Seen,
): Promise<ApiResponse> {
  const { sourceIp } = info;
  try {
    const found = match(method, path);
    if (found === undefined) throw new ApiError(404, `Path ${path} does not exist`);
    if (found === 'wrong-method') throw new ApiError(404, `Method ${method} is not available on ${path}`);
    seen.route = found.route;
    seen.params = found.params;
    if (!sources.sourceAllowed(engine.sources, sourceIp)) throw new ApiError(403, 'Source address not allowed');
    const caller = await authenticate(engine, headers, query, info);
    if (!(found.route.op === 'getApiKey' && caller.key !== undefined && caller.key === found.params.key)) {
      authorize(caller, found.route.right);
    }
    const reads = readsRecords(found.route);
    if (reads) engine.pacer.noteRead();
    // writes are accepted one at a time, paced like their application (see write-pacer.ts)
    else await engine.pacer.admit();
    let accepting = performance.now();
    const large = !reads && typeof seen.body === 'string' && seen.body.length > LARGE_BODY;
    const body = parseBody(seen.body);
    seen.body = body;
    if (large) {
      // a large write's parsing and its checks and encoding are two turns: searches waiting run between
      engine.pacer.charge(performance.now() - accepting);
      await yieldTurn();
      accepting = performance.now();
    }
    // index restrictions (every index of a multi-index call) and the rate limit
    enforce(engine, found.route, caller, found.params, body);
    clusters.admitUser(engine, found.route, headers);
    const context = { engine, params: found.params, query, body, headers, sourceIp, caller };
    const pending = observeRequest(engine, { route: found.route, params: found.params, body, headers }, () => found.route.handler(context));
    // a write's parsing, checks and encoding (the handler's part before its first await) are write work
    if (!reads) engine.pacer.charge(performance.now() - accepting);
    const answered = await pending;
    const result = restrictResult(found.route, caller, answered);
    if (!(result instanceof Reply)) return json(200, result);
    return result.headers ? { status: result.status, body: result.body, headers: result.headers } : json(result.status, result.body);
  } catch (e) {
    return failure(e);
  }
}

function failure(e: unknown): ApiResponse {
  const extra = rateLimitHeaders(e);
  if (extra) return { ...json(429, { message: (e as ApiError).message, status: 429 }), headers: extra };
  if (e instanceof ApiError) return json(e.status, { message: e.message, status: e.status });
  if (e instanceof URIError) return json(400, { message: 'Malformed percent-encoding in path', status: 400 });
  console.error('lantern: internal error', e);
  return json(500, { message: 'Internal error', status: 500 });
}
