// The one router: METHOD + path → a row of the route table (routes.ts) → its
// handler. It is the only place that chooses status codes; HTTP,
// `engine.request` and the typed client all come through here.
import { ApiError, RetryLater } from '../util/errors.js';
import { authenticate, authorize, type CallInfo, type CallNeeds } from '../auth/authenticate.js';
import { enforce, restrictResult } from '../auth/enforce.js';
import type { Engine } from '../engine/engine.js';
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
import * as abtestsV3 from './abtests-v3.js';
import * as patterns from './patterns.js';
import * as personalization from './personalization.js';
import * as monitoring from './monitoring.js';
import * as suggestions from './suggestions.js';
import * as clusters from './clusters.js';
import * as dictionaries from './dictionaries.js';
import * as follow from './follow.js';
import * as recommend from './recommend.js';
import { observeRequest } from '../monitoring/observe.js';
import * as logs from './logs.js';
import { requestIdHeaders, requestIdOf } from './request-id.js';
import { parseJsonBody, receivedBody } from './json-body.js';
import { answerValueOf } from '../util/json-value.js';
import { MAX_NESTING } from '../index/storable.js';
import { Reply, contentOf, isRawBody, type ApiRequest, type ApiResponse, type ApiServices, type Handler } from './types.js';
import { changesIndex, ROUTES, type PathParamsOf, type Route, type RouteOp } from './routes.js';
import { RecentValues } from '../util/recent.js';
import type { EndTurn } from '../engine/write-pacer.js';
import { relay, type ClusterNodes, type Elsewhere, type ForwardedCall } from '../clusters/forwarding.js';

/** Each operation's handler: every row of the route table has one (a missing one does not compile). */
const HANDLERS: { readonly [K in RouteOp]: Handler<PathParamsOf<K>, Engine> } = {
  listIndices: indexes.listIndices,
  search: search.search,
  multipleBatch: objects.multipleBatch,
  getObjects: objects.getObjects,
  searchSingleIndex: search.searchSingleIndex,
  searchWithQueryString: search.searchWithQueryString,
  saveObject: objects.saveObject,
  deleteIndex: indexes.deleteIndex,
  browse: search.browse,
  browseWithQueryString: search.browse,
  searchForFacetValues: search.searchForFacetValues,
  deleteBy: objects.deleteBy,
  batch: objects.batch,
  clearObjects: objects.clearObjects,
  getSettings: indexes.getSettings,
  setSettings: indexes.setSettings,
  getTask: indexes.getTask,
  getAppTask: indexes.getAppTask,
  operationIndex: indexes.operationIndex,
  saveSynonym: synonyms.saveSynonym,
  saveSynonyms: synonyms.saveSynonyms,
  getSynonym: synonyms.getSynonym,
  deleteSynonym: synonyms.deleteSynonym,
  clearSynonyms: synonyms.clearSynonyms,
  searchSynonyms: synonyms.searchSynonymsOperation,
  saveRule: rules.saveRule,
  saveRules: rules.saveRules,
  getRule: rules.getRule,
  deleteRule: rules.deleteRule,
  clearRules: rules.clearRules,
  searchRules: rules.searchRulesOperation,
  getObject: objects.getObject,
  addOrUpdateObject: objects.addOrUpdateObject,
  deleteObject: objects.deleteObject,
  partialUpdateObject: objects.partialUpdateObject,
  addApiKey: keys.addApiKey,
  listApiKeys: keys.listApiKeys,
  getApiKey: keys.getApiKey,
  updateApiKey: keys.updateApiKey,
  deleteApiKey: keys.deleteApiKey,
  restoreApiKey: keys.restoreApiKey,
  listAllIndexApiKeys: keys.listAllIndexApiKeys,
  addIndexApiKey: keys.addIndexApiKey,
  listIndexApiKeys: keys.listIndexApiKeys,
  getIndexApiKey: keys.getIndexApiKey,
  updateIndexApiKey: keys.updateIndexApiKey,
  deleteIndexApiKey: keys.deleteIndexApiKey,
  getLogs: logs.getLogs,
  getSources: sources.getSources,
  replaceSources: sources.replaceSources,
  appendSource: sources.appendSource,
  deleteSource: sources.deleteSource,
  getAnalyticsStatus: analytics.getStatus,
  getTopSearches: analytics.getTopSearches,
  getSearchesCount: analytics.getSearchesCount,
  getSearchesNoResults: analytics.getSearchesNoResults,
  getNoResultsRate: analytics.getNoResultsRate,
  getTopHits: analytics.getTopHits,
  getUsersCount: analytics.getUsersCount,
  getTopFilterAttributes: analytics.getTopFilterAttributes,
  getTopFiltersNoResults: analytics.getTopFiltersNoResults,
  getTopFilterForAttribute: analytics.getTopFilterForAttribute,
  getTopCountries: analytics.getTopCountries,
  getAverageClickPosition: analytics.getAverageClickPosition,
  getClickThroughRate: analytics.getClickThroughRate,
  getConversionRate: analytics.getConversionRate,
  getSearchesNoClicks: analytics.getSearchesNoClicks,
  getNoClickRate: analytics.getNoClickRate,
  getClickPositions: analytics.getClickPositions,
  getAddToCartRate: analytics.getAddToCartRate,
  getPurchaseRate: analytics.getPurchaseRate,
  getRevenue: analytics.getRevenue,
  getPatternsFields: patterns.getPatternsFields,
  queryPatternsTimeseries: patterns.queryPatternsTimeseries,
  queryPatternsScalar: patterns.queryPatternsScalar,
  queryPatternsTable: patterns.queryPatternsTable,
  queryPatternsDistribution: patterns.queryPatternsDistribution,
  pushEvents: insights.pushEvents,
  deleteUserToken: insights.deleteUserToken,
  addABTests: abtests.addABTests,
  estimateABTest: abtests.estimateABTest,
  listABTests: abtests.listABTests,
  getABTest: abtests.getABTest,
  stopABTest: abtests.stopABTest,
  deleteABTest: abtests.deleteABTest,
  addABTestsV3: abtestsV3.addABTestsV3,
  listABTestsV3: abtestsV3.listABTestsV3,
  estimateABTestV3: abtests.estimateABTest,
  getABTestV3: abtestsV3.getABTestV3,
  deleteABTestV3: abtests.deleteABTest,
  stopABTestV3: abtests.stopABTest,
  getTimeseriesV3: abtestsV3.getTimeseriesV3,
  setPersonalizationStrategy: personalization.setPersonalizationStrategy,
  getPersonalizationStrategy: personalization.getPersonalizationStrategy,
  setRecommendationStrategy: personalization.setRecommendationStrategy,
  getRecommendationStrategy: personalization.getRecommendationStrategy,
  getUserTokenProfile: personalization.getUserTokenProfile,
  deleteUserProfile: personalization.deleteUserProfile,
  createConfig: suggestions.createConfig,
  getAllConfigs: suggestions.getAllConfigs,
  getConfig: suggestions.getConfig,
  updateConfig: suggestions.updateConfig,
  deleteConfig: suggestions.deleteConfig,
  getConfigStatus: suggestions.getConfigStatus,
  getLogFile: suggestions.getLogFile,
  getStatus: monitoring.getStatus,
  getClusterStatus: monitoring.getStatus,
  getIncidents: monitoring.getIncidents,
  getClusterIncidents: monitoring.getIncidents,
  getUsage: monitoring.getUsage,
  getIndexUsage: monitoring.getUsage,
  getServers: monitoring.getServers,
  getProbes: monitoring.getProbes,
  getLatency: monitoring.getLatency,
  getLatencyByRelevantProbes: monitoring.getLatencyByRelevantProbes,
  getLatencyByOtherProbes: monitoring.getLatencyByOtherProbes,
  getIndexingTime: monitoring.getIndexingTime,
  getReachability: monitoring.getReachability,
  getMetrics: monitoring.getMetrics,
  assignUserId: clusters.assignUserId,
  batchAssignUserIds: clusters.batchAssignUserIds,
  getTopUserIds: clusters.getTopUserIds,
  hasPendingMappings: clusters.hasPendingMappings,
  searchUserIds: clusters.searchUserIds,
  getUserId: clusters.getUserId,
  removeUserId: clusters.removeUserId,
  listUserIds: clusters.listUserIds,
  listClusters: clusters.listClusters,
  getRecommendations: recommend.getRecommendations,
  getRecommendRule: recommend.getRecommendRule,
  deleteRecommendRule: recommend.deleteRecommendRule,
  searchRecommendRules: recommend.searchRecommendRules,
  batchRecommendRules: recommend.batchRecommendRules,
  getRecommendStatus: recommend.getRecommendStatus,
  batchDictionaryEntries: dictionaries.batchDictionaryEntries,
  searchDictionaryEntries: dictionaries.searchDictionaryEntries,
  getDictionarySettings: dictionaries.getDictionarySettings,
  setDictionarySettings: dictionaries.setDictionarySettings,
  getDictionaryLanguages: dictionaries.getDictionaryLanguages,
  followSnapshot: follow.followSnapshot,
  followLog: follow.followLog,
};

/** The handler of a matched route (its path gave the parameters the handler reads). */
function handlerOf(route: Route): Handler<string, Engine> {
  return HANDLERS[route.op as RouteOp];
}

/** The handler of an operation, by name (a replica answers forwarded reads with it: src/replication/reads.ts). */
export function handlerFor(op: RouteOp): Handler<string, Engine> {
  return HANDLERS[op] as Handler<string, Engine>;
}

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
interface Seen { route?: Route; params?: Record<string, string>; body?: unknown; nbHits?: number }

/**
 * Answers one call; every answer names its call (`X-Request-Id`) and every
 * call but the logs call itself is logged, here and nowhere else.
 */
/** Answers one call of `engine`, with the API's services for it (`services`: one per engine, see services.ts). */
export async function route(engine: Engine, services: ApiServices, request: ApiRequest): Promise<ApiResponse> {
  const started = performance.now();
  const headers = lowerCaseKeys(request.headers);
  const { path, query } = splitPath(request);
  const sourceIp = request.sourceIp ?? '127.0.0.1';
  const requestId = requestIdOf(headers, query);
  const seen: Seen = { body: receivedBody(request.body) };
  const response = await answer(engine, services, request.method.toUpperCase(), path, query, headers, { sourceIp, userToken: request.userToken }, seen);
  response.headers = { ...response.headers, ...requestIdHeaders(requestId) };
  if (request.answerAsText) response.text = contentOf(response);
  if (seen.route?.op !== 'getLogs') {
    const logging = performance.now();
    logs.logCall(engine, services.callLog, {
      requestId, method: request.method, path, query, headers, body: seen.body, sourceIp, response,
      processingTimeMs: logging - started, route: seen.route, params: seen.params, nbHits: seen.nbHits,
    });
    if (seen.route && !readsRecords(seen.route)) engine.pacer.charge(performance.now() - logging);
  }
  return { ...response, body: bodyGiven(request, response) };
}

/**
 * The answer's body as the caller gets it, while the log keeps the
 * engine's: bytes and streams are made for each call; one asked as text
 * is that text (the body is left out); any other is a copy of its own, so
 * that what the caller changes is not the engine's, but for the hits the
 * engine made for this answer alone (see madeForAnswer), handed over with
 * what they hold of its records copied (the log's entry, made on a later
 * turn, then reads the caller's hits).
 */
function bodyGiven(request: ApiRequest, response: ApiResponse): unknown {
  if (isRawBody(response.body)) return response.body;
  return request.answerAsText ? undefined : answerValueOf(response.body, ANSWER_LEVELS);
}

/** Levels an answer nests at most: a record's (MAX_NESTING) within a search's hit and its highlights, with room to spare. */
const ANSWER_LEVELS = 2 * MAX_NESTING;

/** Routes that read records, which write pacing makes room for (see write-pacer.ts). */
export const readsRecords = (route: Pick<Route, 'right'>) => route.right === 'search' || route.right === 'browse';

async function answer(
  engine: Engine, services: ApiServices, method: string, path: string, query: Record<string, string>,
  headers: Record<string, string>, info: CallInfo, seen: Seen,
): Promise<ApiResponse> {
  const { sourceIp } = info;
  let endTurn: EndTurn | undefined;
  try {
    const found = match(method, path);
    if (found === undefined) throw new ApiError('not_found', `Path ${path} does not exist`);
    if (found === 'wrong-method') throw new ApiError('not_found', `Method ${method} is not available on ${path}`);
    seen.route = found.route;
    seen.params = found.params;
    if (!sources.sourceAllowed(engine.sources, sourceIp)) throw new ApiError('not_allowed', 'Source address not allowed');
    const caller = await authenticate(engine, services.securedKeyParents, headers, query, info, needsOf(found.route, found.params));
    if (!(found.route.op === 'getApiKey' && caller.key !== undefined && caller.key === found.params.key)) {
      authorize(caller, found.route.right, { changesIndex: changesIndex(found.route) });
    }
    const reads = readsRecords(found.route);
    if (reads) engine.pacer.noteRead();
    // writes are accepted one at a time, paced like their application (see write-pacer.ts): a write to an
    // index holds its turn until it is logged and queued; any other call passes the turn on once it has it
    else endTurn = await engine.pacer.admit();
    if (endTurn && !changesIndex(found.route)) endTurn();
    // a write's parsing and checks are write work, in steps for a large one: searches waiting run between
    const work = reads ? undefined : engine.pacer.work();
    const step = work ? () => work.step() : noStep;
    const large = !reads && typeof seen.body === 'string' && seen.body.length > LARGE_BODY;
    const received = seen.body;
    const body = parseJsonBody(seen.body);
    seen.body = body;
    if (large) await step();
    // index restrictions (every index of a multi-index call) and the rate limit
    enforce(services.keyCalls, found.route, caller, found.params, body);
    // a call for a user of a cluster another node serves is answered there (and checked, logged and observed here too)
    const elsewhere = clusters.placeCall(engine, services.clusterNodes, found.route, found.params, { headers, query });
    // a write answered by another node is not logged here: its turn passes on before the round trip
    if (elsewhere !== undefined) endTurn?.();
    const context = { engine, services, params: found.params, query, body, headers, sourceIp, caller, step };
    const here = elsewhere === undefined
      ? () => handlerOf(found.route)(context)
      : () => relayed(services.clusterNodes!, elsewhere, { method, path, query, headers, body: received });
    // a read may be answered by a replica (the call is checked, logged and observed here all the same)
    const run = services.reads && elsewhere === undefined ? () => services.reads!.run(found.route.op, context, here) : here;
    const pending = observeRequest(engine, { route: found.route, params: found.params, body, headers, query }, run);
    // the handler's part before its first await (all of a small write's checks) is charged too
    work?.charge();
    const answered = await pending;
    const result = restrictResult(found.route, caller, answered);
    if (!(result instanceof Reply)) return json(200, result);
    seen.nbHits = result.nbHits;
    return result.headers ? { status: result.status, body: result.body, headers: result.headers } : json(result.status, result.body);
  } catch (e) {
    return failure(e);
  } finally {
    endTurn?.();
  }
}

const noStep = (): Promise<void> => Promise.resolve();

/** What a call needs of its key (a key may read itself: getApiKey). */
function needsOf(route: Route, params: Record<string, string>): CallNeeds {
  return route.op === 'getApiKey' ? { right: route.right, key: params.key } : { right: route.right, indexName: params.indexName };
}

/** The answer of a node of another cluster to a forwarded call, as a reply of this node. */
async function relayed(nodes: ClusterNodes, elsewhere: Elsewhere, call: ForwardedCall): Promise<Reply> {
  const { status, body, headers } = await relay(nodes, elsewhere, call);
  return new Reply(status, body, headers);
}

function failure(e: unknown): ApiResponse {
  // a refusal for now (rate limit, full write queue) says when to try again
  if (e instanceof RetryLater) return { ...json(e.status, { message: e.message, status: e.status }), headers: { 'retry-after': String(e.retryAfter) }, code: e.code };
  if (e instanceof ApiError) return { ...json(e.status, { message: e.message, status: e.status }), code: e.code };
  if (e instanceof URIError) return json(400, { message: 'Malformed percent-encoding in path', status: 400 });
  console.error('lantern: internal error', e);
  return json(500, { message: 'Internal error', status: 500 });
}
