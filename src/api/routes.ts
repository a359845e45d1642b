// The REST API's shape, one row per operation: its name (the official v5
// client's method), method and path, the right it needs (the ACL table is
// the `right` column), and where the typed client puts its arguments. The
// router (router.ts) gives each row its handler; the typed client
// (client.ts) builds requests from the rows alone, so a page that talks to
// an engine in a worker does not bundle the engine.
import type { Right } from './types.js';

export interface Route {
  /** Operation name: the official v5 client's method name. */
  op: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  right: Right;
  /** Typed client: the argument holding the body ('.' = the whole argument). */
  body?: string;
  /** Typed client: arguments sent as query parameters. */
  query?: readonly string[];
}

/** Query parameters of the analytics reports: a figure over days, a top list, a searchable top list. */
const REPORT_QUERY = ['index', 'startDate', 'endDate', 'tags'];
const TOP_QUERY = ['index', 'startDate', 'endDate', 'limit', 'offset', 'tags'];
const TOP_SEARCH_QUERY = ['index', 'search', 'startDate', 'endDate', 'limit', 'offset', 'tags'];

/** Every operation, one row each. */
const ROUTE_TABLE = [
  { op: 'listIndices', method: 'GET', path: '/1/indexes', right: 'listIndexes', query: ['page', 'hitsPerPage'] },
  { op: 'search', method: 'POST', path: '/1/indexes/*/queries', right: 'search', body: '.' },
  { op: 'multipleBatch', method: 'POST', path: '/1/indexes/*/batch', right: 'addObject', body: '.' },
  { op: 'getObjects', method: 'POST', path: '/1/indexes/*/objects', right: 'search', body: '.' },
  { op: 'searchSingleIndex', method: 'POST', path: '/1/indexes/{indexName}/query', right: 'search', body: 'searchParams' },
  { op: 'searchWithQueryString', method: 'GET', path: '/1/indexes/{indexName}', right: 'search' },
  { op: 'saveObject', method: 'POST', path: '/1/indexes/{indexName}', right: 'addObject', body: 'body' },
  { op: 'deleteIndex', method: 'DELETE', path: '/1/indexes/{indexName}', right: 'deleteIndex' },
  { op: 'browse', method: 'POST', path: '/1/indexes/{indexName}/browse', right: 'browse', body: 'browseParams' },
  { op: 'browseWithQueryString', method: 'GET', path: '/1/indexes/{indexName}/browse', right: 'browse' },
  { op: 'searchForFacetValues', method: 'POST', path: '/1/indexes/{indexName}/facets/{facetName}/query', right: 'search', body: 'searchForFacetValuesRequest' },
  { op: 'deleteBy', method: 'POST', path: '/1/indexes/{indexName}/deleteByQuery', right: 'deleteIndex', body: 'deleteByParams' },
  { op: 'batch', method: 'POST', path: '/1/indexes/{indexName}/batch', right: 'addObject', body: 'batchWriteParams' },
  { op: 'clearObjects', method: 'POST', path: '/1/indexes/{indexName}/clear', right: 'deleteIndex' },
  { op: 'getSettings', method: 'GET', path: '/1/indexes/{indexName}/settings', right: 'settings', query: ['getVersion'] },
  { op: 'setSettings', method: 'PUT', path: '/1/indexes/{indexName}/settings', right: 'editSettings', body: 'indexSettings', query: ['forwardToReplicas'] },
  { op: 'getTask', method: 'GET', path: '/1/indexes/{indexName}/task/{taskID}', right: 'addObject' },
  { op: 'getAppTask', method: 'GET', path: '/1/task/{taskID}', right: 'editSettings' },
  { op: 'operationIndex', method: 'POST', path: '/1/indexes/{indexName}/operation', right: 'addObject', body: 'operationIndexParams' },
  { op: 'saveSynonym', method: 'PUT', path: '/1/indexes/{indexName}/synonyms/{objectID}', right: 'editSettings', body: 'synonymHit', query: ['forwardToReplicas'] },
  { op: 'saveSynonyms', method: 'POST', path: '/1/indexes/{indexName}/synonyms/batch', right: 'editSettings', body: 'synonymHit', query: ['forwardToReplicas', 'replaceExistingSynonyms'] },
  { op: 'getSynonym', method: 'GET', path: '/1/indexes/{indexName}/synonyms/{objectID}', right: 'settings' },
  { op: 'deleteSynonym', method: 'DELETE', path: '/1/indexes/{indexName}/synonyms/{objectID}', right: 'editSettings', query: ['forwardToReplicas'] },
  { op: 'clearSynonyms', method: 'POST', path: '/1/indexes/{indexName}/synonyms/clear', right: 'editSettings', query: ['forwardToReplicas'] },
  { op: 'searchSynonyms', method: 'POST', path: '/1/indexes/{indexName}/synonyms/search', right: 'settings', body: 'searchSynonymsParams' },
  { op: 'saveRule', method: 'PUT', path: '/1/indexes/{indexName}/rules/{objectID}', right: 'editSettings', body: 'rule', query: ['forwardToReplicas'] },
  { op: 'saveRules', method: 'POST', path: '/1/indexes/{indexName}/rules/batch', right: 'editSettings', body: 'rules', query: ['forwardToReplicas', 'clearExistingRules'] },
  { op: 'getRule', method: 'GET', path: '/1/indexes/{indexName}/rules/{objectID}', right: 'settings' },
  { op: 'deleteRule', method: 'DELETE', path: '/1/indexes/{indexName}/rules/{objectID}', right: 'editSettings', query: ['forwardToReplicas'] },
  { op: 'clearRules', method: 'POST', path: '/1/indexes/{indexName}/rules/clear', right: 'editSettings', query: ['forwardToReplicas'] },
  { op: 'searchRules', method: 'POST', path: '/1/indexes/{indexName}/rules/search', right: 'settings', body: 'searchRulesParams' },
  { op: 'getObject', method: 'GET', path: '/1/indexes/{indexName}/{objectID}', right: 'search', query: ['attributesToRetrieve'] },
  { op: 'addOrUpdateObject', method: 'PUT', path: '/1/indexes/{indexName}/{objectID}', right: 'addObject', body: 'body' },
  { op: 'deleteObject', method: 'DELETE', path: '/1/indexes/{indexName}/{objectID}', right: 'deleteObject' },
  { op: 'partialUpdateObject', method: 'POST', path: '/1/indexes/{indexName}/{objectID}/partial', right: 'addObject', body: 'attributesToUpdate', query: ['createIfNotExists'] },
  // API keys (admin key only; getApiKey also answers the key itself)
  { op: 'addApiKey', method: 'POST', path: '/1/keys', right: 'admin', body: '.' },
  { op: 'listApiKeys', method: 'GET', path: '/1/keys', right: 'admin' },
  { op: 'getApiKey', method: 'GET', path: '/1/keys/{key}', right: 'admin' },
  { op: 'updateApiKey', method: 'PUT', path: '/1/keys/{key}', right: 'admin', body: 'apiKey' },
  { op: 'deleteApiKey', method: 'DELETE', path: '/1/keys/{key}', right: 'admin' },
  { op: 'restoreApiKey', method: 'POST', path: '/1/keys/{key}/restore', right: 'admin' },
  { op: 'listAllIndexApiKeys', method: 'GET', path: '/1/indexes/*/keys', right: 'admin' },
  { op: 'addIndexApiKey', method: 'POST', path: '/1/indexes/{indexName}/keys', right: 'admin', body: 'apiKey' },
  { op: 'listIndexApiKeys', method: 'GET', path: '/1/indexes/{indexName}/keys', right: 'admin' },
  { op: 'getIndexApiKey', method: 'GET', path: '/1/indexes/{indexName}/keys/{key}', right: 'admin' },
  { op: 'updateIndexApiKey', method: 'PUT', path: '/1/indexes/{indexName}/keys/{key}', right: 'admin', body: 'apiKey' },
  { op: 'deleteIndexApiKey', method: 'DELETE', path: '/1/indexes/{indexName}/keys/{key}', right: 'admin' },
  { op: 'getLogs', method: 'GET', path: '/1/logs', right: 'logs', query: ['offset', 'length', 'indexName', 'type'] },
  // the source allow-list (admin key only)
  { op: 'getSources', method: 'GET', path: '/1/security/sources', right: 'admin' },
  { op: 'replaceSources', method: 'PUT', path: '/1/security/sources', right: 'admin', body: 'source' },
  { op: 'appendSource', method: 'POST', path: '/1/security/sources/append', right: 'admin', body: 'source' },
  { op: 'deleteSource', method: 'DELETE', path: '/1/security/sources/{source}', right: 'admin' },
  // analytics, insights, A/B tests, personalization
  { op: 'getAnalyticsStatus', method: 'GET', path: '/2/status', right: 'analytics', query: ['index'] },
  { op: 'getTopSearches', method: 'GET', path: '/2/searches', right: 'analytics', query: ['index', 'clickAnalytics', 'revenueAnalytics', 'startDate', 'endDate', 'orderBy', 'direction', 'limit', 'offset', 'tags'] },
  { op: 'getSearchesCount', method: 'GET', path: '/2/searches/count', right: 'analytics', query: REPORT_QUERY },
  { op: 'getSearchesNoResults', method: 'GET', path: '/2/searches/noResults', right: 'analytics', query: TOP_QUERY },
  { op: 'getNoResultsRate', method: 'GET', path: '/2/searches/noResultRate', right: 'analytics', query: REPORT_QUERY },
  { op: 'getTopHits', method: 'GET', path: '/2/hits', right: 'analytics', query: [...TOP_SEARCH_QUERY, 'clickAnalytics', 'revenueAnalytics'] },
  { op: 'getUsersCount', method: 'GET', path: '/2/users/count', right: 'analytics', query: REPORT_QUERY },
  { op: 'getTopFilterAttributes', method: 'GET', path: '/2/filters', right: 'analytics', query: TOP_SEARCH_QUERY },
  { op: 'getTopFiltersNoResults', method: 'GET', path: '/2/filters/noResults', right: 'analytics', query: TOP_SEARCH_QUERY },
  { op: 'getTopFilterForAttribute', method: 'GET', path: '/2/filters/{attribute}', right: 'analytics', query: TOP_SEARCH_QUERY },
  { op: 'getTopCountries', method: 'GET', path: '/2/countries', right: 'analytics', query: TOP_QUERY },
  { op: 'getAverageClickPosition', method: 'GET', path: '/2/clicks/averageClickPosition', right: 'analytics', query: REPORT_QUERY },
  { op: 'getClickThroughRate', method: 'GET', path: '/2/clicks/clickThroughRate', right: 'analytics', query: REPORT_QUERY },
  { op: 'getConversionRate', method: 'GET', path: '/2/conversions/conversionRate', right: 'analytics', query: REPORT_QUERY },
  // the analytics endpoints of today's client beside the spec's (compatibility.md, last section)
  { op: 'getSearchesNoClicks', method: 'GET', path: '/2/searches/noClicks', right: 'analytics', query: TOP_QUERY },
  { op: 'getNoClickRate', method: 'GET', path: '/2/searches/noClickRate', right: 'analytics', query: REPORT_QUERY },
  { op: 'getClickPositions', method: 'GET', path: '/2/clicks/positions', right: 'analytics', query: REPORT_QUERY },
  { op: 'getAddToCartRate', method: 'GET', path: '/2/conversions/addToCartRate', right: 'analytics', query: REPORT_QUERY },
  { op: 'getPurchaseRate', method: 'GET', path: '/2/conversions/purchaseRate', right: 'analytics', query: REPORT_QUERY },
  { op: 'getRevenue', method: 'GET', path: '/2/conversions/revenue', right: 'analytics', query: REPORT_QUERY },
  // analytics patterns (/3/patterns/*: analytics.yml). The catalog asks for the analytics right (the spec's x-acl is
  // empty: no key needed); the queries take their payload whole and the `index` query parameter (patterns.ts).
  { op: 'getPatternsFields', method: 'GET', path: '/3/patterns/fields', right: 'analytics' },
  { op: 'queryPatternsTimeseries', method: 'POST', path: '/3/patterns/timeseries', right: 'analytics', body: 'timeseriesPayload', query: ['index'] },
  { op: 'queryPatternsScalar', method: 'POST', path: '/3/patterns/scalar', right: 'analytics', body: 'scalarPayload', query: ['index'] },
  { op: 'queryPatternsTable', method: 'POST', path: '/3/patterns/table', right: 'analytics', body: 'tablePayload', query: ['index'] },
  { op: 'queryPatternsDistribution', method: 'POST', path: '/3/patterns/distribution', right: 'analytics', body: 'distributionPayload', query: ['index'] },
  { op: 'pushEvents', method: 'POST', path: '/1/events', right: 'search', body: '.' },
  { op: 'deleteUserToken', method: 'DELETE', path: '/1/usertokens/{userToken}', right: 'deleteObject' },
  { op: 'addABTests', method: 'POST', path: '/2/abtests', right: 'editSettings', body: '.' },
  { op: 'estimateABTest', method: 'POST', path: '/2/abtests/estimate', right: 'analytics', body: '.' },
  { op: 'listABTests', method: 'GET', path: '/2/abtests', right: 'analytics', query: ['offset', 'limit', 'indexPrefix', 'indexSuffix'] },
  { op: 'getABTest', method: 'GET', path: '/2/abtests/{id}', right: 'analytics' },
  { op: 'stopABTest', method: 'POST', path: '/2/abtests/{id}/stop', right: 'editSettings' },
  { op: 'deleteABTest', method: 'DELETE', path: '/2/abtests/{id}', right: 'editSettings' },
  // A/B testing v3 (/3/abtests). Naming scheme: an op is the v5 client's
  // method name and unique in this table, and v3's methods reuse v2's names
  // (addABTests, getABTest...), so every v3 row is its AbtestingV3Client
  // method's name with `V3` appended (client.ts types `<name>V3` as
  // AbtestingV3Client['<name>']). Rights: the spec's x-acl.
  { op: 'addABTestsV3', method: 'POST', path: '/3/abtests', right: 'editSettings', body: '.' },
  { op: 'listABTestsV3', method: 'GET', path: '/3/abtests', right: 'analytics', query: ['offset', 'limit', 'indexPrefix', 'indexSuffix', 'direction'] },
  { op: 'estimateABTestV3', method: 'POST', path: '/3/abtests/estimate', right: 'analytics', body: '.' },
  { op: 'getABTestV3', method: 'GET', path: '/3/abtests/{id}', right: 'analytics' },
  { op: 'deleteABTestV3', method: 'DELETE', path: '/3/abtests/{id}', right: 'editSettings' },
  { op: 'stopABTestV3', method: 'POST', path: '/3/abtests/{id}/stop', right: 'editSettings' },
  { op: 'getTimeseriesV3', method: 'GET', path: '/3/abtests/{id}/timeseries', right: 'analytics', query: ['startDate', 'endDate', 'metric'] },
  { op: 'setPersonalizationStrategy', method: 'POST', path: '/1/strategies/personalization', right: 'personalization', body: '.' },
  { op: 'getPersonalizationStrategy', method: 'GET', path: '/1/strategies/personalization', right: 'personalization' },
  { op: 'setRecommendationStrategy', method: 'POST', path: '/1/recommendation/personalization/strategy', right: 'editSettings', body: '.' },
  { op: 'getRecommendationStrategy', method: 'GET', path: '/1/recommendation/personalization/strategy', right: 'settings' },
  { op: 'getUserTokenProfile', method: 'GET', path: '/1/profiles/personalization/{userToken}', right: 'personalization' },
  { op: 'deleteUserProfile', method: 'DELETE', path: '/1/profiles/{userToken}', right: 'personalization' },
  // query suggestions (the admin key: analytics-api.md, Authentication)
  { op: 'createConfig', method: 'POST', path: '/1/configs', right: 'admin', body: '.' },
  { op: 'getAllConfigs', method: 'GET', path: '/1/configs', right: 'admin' },
  { op: 'getConfig', method: 'GET', path: '/1/configs/{indexName}', right: 'admin' },
  { op: 'updateConfig', method: 'PUT', path: '/1/configs/{indexName}', right: 'admin', body: 'configuration' },
  { op: 'deleteConfig', method: 'DELETE', path: '/1/configs/{indexName}', right: 'admin' },
  { op: 'getConfigStatus', method: 'GET', path: '/1/configs/{indexName}/status', right: 'admin' },
  { op: 'getLogFile', method: 'GET', path: '/1/logs/{indexName}', right: 'admin' },
  // monitoring and multi-cluster
  { op: 'getStatus', method: 'GET', path: '/1/status', right: 'usage' },
  { op: 'getClusterStatus', method: 'GET', path: '/1/status/{clusters}', right: 'usage' },
  { op: 'getIncidents', method: 'GET', path: '/1/incidents', right: 'usage' },
  { op: 'getClusterIncidents', method: 'GET', path: '/1/incidents/{clusters}', right: 'usage' },
  { op: 'getUsage', method: 'GET', path: '/1/usage/{statistic}/period/{period}', right: 'usage' },
  { op: 'getIndexUsage', method: 'GET', path: '/1/usage/{statistic}/period/{period}/{indexName}', right: 'usage' },
  { op: 'getServers', method: 'GET', path: '/1/inventory/servers', right: 'usage' },
  { op: 'getProbes', method: 'GET', path: '/1/inventory/probes', right: 'usage' },
  { op: 'getLatency', method: 'GET', path: '/1/latency/{clusters}', right: 'usage' },
  { op: 'getLatencyByRelevantProbes', method: 'GET', path: '/1/latency/{clusters}/probes/relevant', right: 'usage' },
  { op: 'getLatencyByOtherProbes', method: 'GET', path: '/1/latency/{clusters}/probes/others', right: 'usage' },
  { op: 'getIndexingTime', method: 'GET', path: '/1/indexing/{clusters}', right: 'usage' },
  { op: 'getReachability', method: 'GET', path: '/1/reachability/{clusters}/probes', right: 'usage' },
  { op: 'getMetrics', method: 'GET', path: '/1/infrastructure/{metric}/period/{period}', right: 'usage' },
  { op: 'assignUserId', method: 'POST', path: '/1/clusters/mapping', right: 'admin', body: 'assignUserIdParams' },
  { op: 'batchAssignUserIds', method: 'POST', path: '/1/clusters/mapping/batch', right: 'admin', body: 'batchAssignUserIdsParams' },
  { op: 'getTopUserIds', method: 'GET', path: '/1/clusters/mapping/top', right: 'admin' },
  { op: 'hasPendingMappings', method: 'GET', path: '/1/clusters/mapping/pending', right: 'admin', query: ['getClusters'] },
  { op: 'searchUserIds', method: 'POST', path: '/1/clusters/mapping/search', right: 'admin', body: 'searchUserIdsParams' },
  { op: 'getUserId', method: 'GET', path: '/1/clusters/mapping/{userID}', right: 'admin' },
  { op: 'removeUserId', method: 'DELETE', path: '/1/clusters/mapping/{userID}', right: 'admin' },
  { op: 'listUserIds', method: 'GET', path: '/1/clusters/mapping', right: 'admin', query: ['page', 'hitsPerPage'] },
  { op: 'listClusters', method: 'GET', path: '/1/clusters', right: 'admin' },
  // Recommend (recommend.yml); rights: the spec's x-acl
  { op: 'getRecommendations', method: 'POST', path: '/1/indexes/*/recommendations', right: 'search', body: '.' },
  { op: 'getRecommendRule', method: 'GET', path: '/1/indexes/{indexName}/{model}/recommend/rules/{objectID}', right: 'settings' },
  { op: 'deleteRecommendRule', method: 'DELETE', path: '/1/indexes/{indexName}/{model}/recommend/rules/{objectID}', right: 'editSettings' },
  { op: 'searchRecommendRules', method: 'POST', path: '/1/indexes/{indexName}/{model}/recommend/rules/search', right: 'settings', body: 'searchRecommendRulesParams' },
  { op: 'batchRecommendRules', method: 'POST', path: '/1/indexes/{indexName}/{model}/recommend/rules/batch', right: 'editSettings', body: 'recommendRule', query: ['clearExistingRules'] },
  { op: 'getRecommendStatus', method: 'GET', path: '/1/indexes/{indexName}/{model}/task/{taskID}', right: 'editSettings' },
  // dictionaries (application-wide: every index's searches read them); rights: the spec's x-acl
  { op: 'batchDictionaryEntries', method: 'POST', path: '/1/dictionaries/{dictionaryName}/batch', right: 'editSettings', body: 'batchDictionaryEntriesParams' },
  { op: 'searchDictionaryEntries', method: 'POST', path: '/1/dictionaries/{dictionaryName}/search', right: 'settings', body: 'searchDictionaryEntriesParams' },
  { op: 'getDictionarySettings', method: 'GET', path: '/1/dictionaries/*/settings', right: 'settings' },
  { op: 'setDictionarySettings', method: 'PUT', path: '/1/dictionaries/*/settings', right: 'editSettings', body: '.' },
  { op: 'getDictionaryLanguages', method: 'GET', path: '/1/dictionaries/*/languages', right: 'settings' },
  // followers (Lantern's own, under /1/lantern/: src/follow/): the state a follower starts from, then the log it tails
  { op: 'followSnapshot', method: 'GET', path: '/1/lantern/follow/snapshot', right: 'follow' },
  { op: 'followLog', method: 'GET', path: '/1/lantern/follow/log', right: 'follow', query: ['after'] },
] as const satisfies readonly Route[];

export const ROUTES: readonly Route[] = ROUTE_TABLE;

/** Whether a route changes an index: its records, settings, rules or synonyms, or copies or moves it. */
export const changesIndex = (route: Route) =>
  route.method !== 'GET' && route.path.startsWith('/1/indexes/') && (route.right === 'addObject' || route.right === 'editSettings');

/** Every operation's name (the typed client's methods: see client.ts). */
export type RouteOp = (typeof ROUTE_TABLE)[number]['op'];

/** The names of a path's parameters: `/1/indexes/{indexName}/task/{taskID}` → 'indexName' | 'taskID'. */
type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** The path parameters of an operation, read off its row. */
export type PathParamsOf<Op extends RouteOp> = ParamNames<Extract<(typeof ROUTE_TABLE)[number], { op: Op }>['path']>;
