// Conformance with the service's official OpenAPI documents
// (test/fixtures/openapi/*.yml): every operation of every document is called
// once through the official v5 client (`algoliasearch` and its init* sub-clients,
// answered in-process by lanternRequester) against a seeded engine; its answer
// must have a 2xx status the document gives the operation, and its body must
// validate (ajv) against the document's schema for that status.
//
// The operations are read from the documents, so one without an entry in
// OPERATIONS below fails the suite. KNOWN_GAPS is a ratchet: it lists exactly
// the operations that do not conform today, with the reason; each of them
// must still fail ("now conforms: remove it from KNOWN_GAPS"), every other
// operation must conform.
//
//   npx vitest run test/conformance                       # the suite
//   CONFORMANCE_REPORT=1 npx vitest run test/conformance  # and a table: operation, status, valid, first error
//
// See test/conformance/README.md.
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester, type EndRequest } from '../../src/requester.js';
import { ADMIN_KEY, APP_ID, readFixture, talksSettings } from '../api/helpers.js';
import { formatErrors, loadOpenApi, matchesOperation, type Operation } from './openapi.js';

/**
 * The operations that do not conform today, `<document>:<operationId>` → why.
 * Remove an entry when its operation conforms (the suite says so).
 */
const KNOWN_GAPS: Record<string, string> = {
  // answered, but the body does not validate: the document's own contradiction. noClickCount has
  // a minimum of 1, so a day (or a range) where every tracked search got a click, or none was
  // made, cannot be answered truthfully; Lantern answers 0 there (docs/compatibility.md)
  'analytics:getNoClickRate': '`noClickCount: 0` on days without a search left unclicked: the document\'s minimum is 1',
};

// ---------------------------------------------------------------------------
// The engine, the clients, and what the calls share

const CLUSTERS = ['c1-test', 'c2-test'];
const IDX = 'conf_talks';
const IDX_B = 'conf_talks_b';
const SCRATCH = 'conf_scratch';
const COPY = 'conf_talks_copy';
const QS_INDEX = 'conf_talks_qs';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const START = day(-7);
const END = day(0);
const END_AT = new Date(Date.now() + 30 * 86_400_000).toISOString();
const talks = readFixture<Array<Record<string, unknown> & { objectID: string }>>('talks.json').slice(0, 300);

interface Recorded { method: string; path: string; status: number; content: string }

/** lanternRequester, keeping every request and answer. */
function recordingRequester(engine: Lantern) {
  const inner = lanternRequester(engine);
  const calls: Recorded[] = [];
  return {
    calls,
    async send(request: EndRequest) {
      const response = await inner.send(request);
      const url = new URL(request.url, 'http://localhost');
      calls.push({ method: request.method, path: url.pathname, status: response.status, content: response.content });
      return response;
    },
  };
}

function clientsOn(requester: ReturnType<typeof recordingRequester>) {
  const options = { requester };
  const search = algoliasearch(APP_ID, ADMIN_KEY, options);
  return {
    search,
    analytics: search.initAnalytics({ options }),
    abtesting: search.initAbtesting({ options }),
    abtestingV3: search.initAbtestingV3({ options }),
    insights: search.initInsights({ options }),
    monitoring: search.initMonitoring({ options }),
    personalization: search.initPersonalization({ region: 'us', options }),
    recommend: search.initRecommend({ options }),
    querySuggestions: search.initQuerySuggestions({ region: 'us', options }),
  };
}

type Clients = ReturnType<typeof clientsOn>;

/** Values one call leaves for later ones (a key, a task, an A/B test's id). */
interface State { key: string; taskID: number; abtest: number; abtestV3: number; queryID: string }

interface Entry {
  /** The request, through the official client. */
  call: (c: Clients, s: State) => Promise<unknown>;
  /** Reads what a later call needs from the answer's body. */
  keep?: (body: any, s: State) => void;
  /** Runs first (not checked). */
  before?: () => Promise<unknown>;
}

const keepTask = (body: any, s: State) => {
  if (typeof body?.taskID === 'number') s.taskID = body.taskID;
};
const report = { index: IDX, startDate: START, endDate: END };
const PATTERN_PARAMETERS = [
  { kind: 'indices', value: [IDX] },
  { kind: 'startDate', value: START },
  { kind: 'endDate', value: END },
];

// ---------------------------------------------------------------------------
// One entry per operation, run in this order

const OPERATIONS: Record<string, Entry> = {
  // search: reads and writes on the seeded index and a scratch index
  'search:listIndices': { call: ({ search }) => search.listIndices({ page: 0, hitsPerPage: 100 }) },
  'search:searchSingleIndex': {
    call: ({ search }) => search.searchSingleIndex({ indexName: IDX, searchParams: { query: 'gvier', facets: ['tags'], hitsPerPage: 5, getRankingInfo: true } }),
  },
  'search:search': {
    call: ({ search }) => search.search({
      requests: [
        { indexName: IDX, query: 'ocean', hitsPerPage: 3, facets: ['tags'] },
        { indexName: IDX, type: 'facet', facet: 'tags', facetQuery: 'sci' },
      ],
    }),
  },
  'search:searchForFacetValues': {
    call: ({ search }) => search.searchForFacetValues({ indexName: IDX, facetName: 'tags', searchForFacetValuesRequest: { facetQuery: 'sci', maxFacetHits: 5 } }),
  },
  'search:browse': { call: ({ search }) => search.browse({ indexName: IDX, browseParams: { query: '', hitsPerPage: 10 } }) },
  'search:getObject': { call: ({ search }) => search.getObject({ indexName: IDX, objectID: talks[0]!.objectID, attributesToRetrieve: ['name', 'speakers'] }) },
  'search:getObjects': {
    call: ({ search }) => search.getObjects({
      requests: [
        { indexName: IDX, objectID: talks[1]!.objectID, attributesToRetrieve: ['name'] },
        { indexName: IDX, objectID: 'no-such-record' },
      ],
    }),
  },
  // getVersion 2: without it the settings carry `synonyms` too, as both documents say the default does
  // (the parameter's own description), which the closed schema does not list
  'search:getSettings': { call: ({ search }) => search.getSettings({ indexName: IDX, getVersion: 2 }) },
  'search:setSettings': {
    call: ({ search }) => search.setSettings({
      indexName: SCRATCH,
      indexSettings: { searchableAttributes: ['name', 'tags'], attributesForFaceting: ['tags'], customRanking: ['desc(year)'] },
      forwardToReplicas: false,
    }),
    keep: keepTask,
  },
  'search:saveObject': { call: ({ search }) => search.saveObject({ indexName: SCRATCH, body: { name: 'A talk without an objectID', tags: ['new'], year: 2024 } }) },
  'search:addOrUpdateObject': {
    call: ({ search }) => search.addOrUpdateObject({ indexName: SCRATCH, objectID: 'scratch-1', body: { name: 'Scratch one', tags: ['old'], year: 2001 } }),
  },
  'search:partialUpdateObject': {
    call: ({ search }) => search.partialUpdateObject({
      indexName: SCRATCH, objectID: 'scratch-1', attributesToUpdate: { year: 2002, tags: { _operation: 'Add', value: 'updated' } }, createIfNotExists: true,
    }),
  },
  'search:batch': {
    call: ({ search }) => search.batch({
      indexName: SCRATCH,
      batchWriteParams: {
        requests: [
          { action: 'addObject', body: { objectID: 'scratch-2', name: 'Scratch two', tags: ['old'], year: 1999 } },
          { action: 'updateObject', body: { objectID: 'scratch-3', name: 'Scratch three', tags: ['old'], year: 1998 } },
          { action: 'partialUpdateObject', body: { objectID: 'scratch-2', year: 2000 } },
        ],
      },
    }),
  },
  'search:multipleBatch': {
    call: ({ search }) => search.multipleBatch({
      requests: [
        { action: 'addObject', indexName: SCRATCH, body: { objectID: 'scratch-4', name: 'Scratch four', tags: ['old'], year: 1997 } },
        { action: 'deleteObject', indexName: SCRATCH, body: { objectID: 'scratch-3' } },
      ],
    }),
  },
  'search:deleteObject': { call: ({ search }) => search.deleteObject({ indexName: SCRATCH, objectID: 'scratch-4' }) },
  'search:deleteBy': { call: ({ search }) => search.deleteBy({ indexName: SCRATCH, deleteByParams: { filters: 'tags:old' } }) },
  'search:clearObjects': { call: ({ search }) => search.clearObjects({ indexName: SCRATCH }) },
  // synonyms
  'search:getSynonym': { call: ({ search }) => search.getSynonym({ indexName: IDX, objectID: 'syn-1' }) },
  'search:saveSynonym': {
    call: ({ search }) => search.saveSynonym({
      indexName: IDX, objectID: 'syn-2', synonymHit: { objectID: 'syn-2', type: 'synonym', synonyms: ['sea', 'ocean'] }, forwardToReplicas: false,
    }),
    keep: keepTask,
  },
  'search:saveSynonyms': {
    call: ({ search }) => search.saveSynonyms({
      indexName: IDX,
      synonymHit: [
        { objectID: 'syn-3', type: 'oneWaySynonym', input: 'tv', synonyms: ['television'] },
        { objectID: 'syn-4', type: 'altCorrection1', word: 'brain', corrections: ['brian'] },
      ],
      forwardToReplicas: false,
      replaceExistingSynonyms: false,
    }),
  },
  'search:searchSynonyms': { call: ({ search }) => search.searchSynonyms({ indexName: IDX, searchSynonymsParams: { query: '', hitsPerPage: 10 } }) },
  'search:deleteSynonym': { call: ({ search }) => search.deleteSynonym({ indexName: IDX, objectID: 'syn-2' }) },
  'search:clearSynonyms': { call: ({ search }) => search.clearSynonyms({ indexName: SCRATCH }) },
  // rules
  'search:getRule': { call: ({ search }) => search.getRule({ indexName: IDX, objectID: 'rule-1' }) },
  'search:saveRule': {
    call: ({ search }) => search.saveRule({
      indexName: IDX,
      objectID: 'rule-2',
      rule: { objectID: 'rule-2', conditions: [{ pattern: 'ocean', anchoring: 'contains' }], consequence: { params: { filters: 'tags:science' } }, description: 'ocean talks' },
    }),
  },
  'search:saveRules': {
    call: ({ search }) => search.saveRules({
      indexName: IDX,
      rules: [{ objectID: 'rule-3', conditions: [{ pattern: 'music', anchoring: 'is' }], consequence: { promote: [{ objectID: talks[2]!.objectID, position: 0 }] } }],
      forwardToReplicas: false,
      clearExistingRules: false,
    }),
  },
  'search:searchRules': { call: ({ search }) => search.searchRules({ indexName: IDX, searchRulesParams: { query: '', hitsPerPage: 10 } }) },
  'search:deleteRule': { call: ({ search }) => search.deleteRule({ indexName: IDX, objectID: 'rule-2' }) },
  'search:clearRules': { call: ({ search }) => search.clearRules({ indexName: SCRATCH }) },
  // API keys
  'search:listApiKeys': { call: ({ search }) => search.listApiKeys() },
  'search:addApiKey': {
    call: ({ search }) => search.addApiKey({ acl: ['search', 'browse'], description: 'conformance', indexes: [IDX], maxHitsPerQuery: 20, validity: 0 }),
    keep: (body, s) => { s.key = body?.key; },
  },
  'search:getApiKey': { call: ({ search }, s) => search.getApiKey({ key: s.key }) },
  'search:updateApiKey': {
    call: ({ search }, s) => search.updateApiKey({ key: s.key, apiKey: { acl: ['search'], description: 'conformance, updated', indexes: [IDX] } }),
  },
  'search:deleteApiKey': { call: ({ search }, s) => search.deleteApiKey({ key: s.key }) },
  'search:restoreApiKey': { call: ({ search }, s) => search.restoreApiKey({ key: s.key }) },
  // dictionaries
  'search:batchDictionaryEntries': {
    call: ({ search }) => search.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'stop-lantern', language: 'en', word: 'lantern', state: 'enabled' } }] },
    }),
  },
  'search:searchDictionaryEntries': {
    call: ({ search }) => search.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'lantern', language: 'en' } }),
  },
  'search:getDictionarySettings': { call: ({ search }) => search.getDictionarySettings() },
  'search:setDictionarySettings': {
    call: ({ search }) => search.setDictionarySettings({ disableStandardEntries: { stopwords: { fr: true } } }),
  },
  'search:getDictionaryLanguages': { call: ({ search }) => search.getDictionaryLanguages() },
  // recommend: related products by content (the seed's events are too few for the models' minimums), rules
  'recommend:getRecommendations': {
    call: ({ recommend }) => recommend.getRecommendations({
      requests: [
        { indexName: IDX, model: 'related-products', objectID: talks[0]!.objectID, threshold: 0, maxRecommendations: 5, queryParameters: { clickAnalytics: true } },
        { indexName: IDX, model: 'trending-facets', facetName: 'tags', threshold: 0 },
        { indexName: IDX, model: 'trending-items', threshold: 0, maxRecommendations: 3, fallbackParameters: { filters: 'tags:science' } },
      ],
    }),
  },
  'recommend:batchRecommendRules': {
    call: ({ recommend }) => recommend.batchRecommendRules({
      indexName: IDX, model: 'related-products',
      recommendRule: [{ objectID: 'rec-1', condition: { context: 'mobile' }, consequence: { hide: [{ objectID: talks[2]!.objectID }] }, description: 'hide one' }],
    }),
    keep: keepTask,
  },
  'recommend:getRecommendStatus': { call: ({ recommend }, s) => recommend.getRecommendStatus({ indexName: IDX, model: 'related-products', taskID: s.taskID }) },
  'recommend:getRecommendRule': { call: ({ recommend }) => recommend.getRecommendRule({ indexName: IDX, model: 'related-products', objectID: 'rec-1' }) },
  'recommend:searchRecommendRules': {
    call: ({ recommend }) => recommend.searchRecommendRules({ indexName: IDX, model: 'related-products', searchRecommendRulesParams: { query: '', hitsPerPage: 10 } }),
  },
  'recommend:deleteRecommendRule': { call: ({ recommend }) => recommend.deleteRecommendRule({ indexName: IDX, model: 'related-products', objectID: 'rec-1' }) },
  // clusters and user IDs
  'search:listClusters': { call: ({ search }) => search.listClusters() },
  'search:assignUserId': { call: ({ search }) => search.assignUserId({ xAlgoliaUserID: 'user-2', assignUserIdParams: { cluster: CLUSTERS[0]! } }) },
  'search:batchAssignUserIds': {
    call: ({ search }) => search.batchAssignUserIds({ xAlgoliaUserID: 'user-3', batchAssignUserIdsParams: { cluster: CLUSTERS[1]!, users: ['user-3', 'user-4'] } }),
  },
  'search:listUserIds': { call: ({ search }) => search.listUserIds({ page: 0, hitsPerPage: 20 }) },
  'search:getUserId': { call: ({ search }) => search.getUserId({ userID: 'user-1' }) },
  'search:getTopUserIds': { call: ({ search }) => search.getTopUserIds() },
  'search:searchUserIds': { call: ({ search }) => search.searchUserIds({ query: 'user', clusterName: CLUSTERS[0]!, hitsPerPage: 10 }) },
  'search:hasPendingMappings': { call: ({ search }) => search.hasPendingMappings({ getClusters: true }) },
  'search:removeUserId': { call: ({ search }) => search.removeUserId({ userID: 'user-2' }) },
  // the source allow-list (everyone first: appending to an empty list would lock the caller out)
  'search:getSources': { call: ({ search }) => search.getSources() },
  'search:replaceSources': { call: ({ search }) => search.replaceSources({ source: [{ source: '0.0.0.0/0', description: 'everyone' }] }) },
  'search:appendSource': { call: ({ search }) => search.appendSource({ source: '192.168.1.1/32', description: 'office' }) },
  'search:deleteSource': { call: ({ search }) => search.deleteSource({ source: '192.168.1.1/32' }) },
  // logs, tasks, copies, deletion
  'search:getLogs': { call: ({ search }) => search.getLogs({ offset: 0, length: 10, indexName: IDX, type: 'all' }) },
  'search:getTask': { call: ({ search }, s) => search.getTask({ indexName: IDX, taskID: s.taskID }) },
  'search:getAppTask': { call: ({ search }, s) => search.getAppTask({ taskID: s.taskID }) },
  'search:operationIndex': {
    call: ({ search }) => search.operationIndex({ indexName: IDX, operationIndexParams: { operation: 'copy', destination: COPY, scope: ['settings', 'synonyms', 'rules'] } }),
  },
  'search:deleteIndex': { call: ({ search }) => search.deleteIndex({ indexName: COPY }) },

  // insights
  'insights:pushEvents': {
    call: ({ insights }, s) => insights.pushEvents({
      events: [
        { eventName: 'Talk clicked', eventType: 'click', index: IDX, userToken: 'user-1', objectIDs: [talks[0]!.objectID], positions: [1], queryID: s.queryID },
        { eventName: 'Talk watched', eventType: 'conversion', index: IDX, userToken: 'user-1', objectIDs: [talks[0]!.objectID], queryID: s.queryID },
        { eventName: 'Talk viewed', eventType: 'view', index: IDX, userToken: 'user-1', objectIDs: [talks[3]!.objectID] },
        { eventName: 'Tag clicked', eventType: 'click', index: IDX, userToken: 'user-1', filters: ['tags:science'] },
      ],
    }),
  },
  'insights:deleteUserToken': { call: ({ insights }) => insights.deleteUserToken({ userToken: 'user-9' }) },

  // analytics (v2 reports over the seeded searches and events, v3 patterns)
  'analytics:getStatus': { call: ({ analytics }) => analytics.getStatus({ index: IDX }) },
  'analytics:getTopSearches': { call: ({ analytics }) => analytics.getTopSearches({ ...report, clickAnalytics: true, orderBy: 'searchCount', direction: 'desc', limit: 10 }) },
  'analytics:getSearchesCount': { call: ({ analytics }) => analytics.getSearchesCount(report) },
  'analytics:getSearchesNoResults': { call: ({ analytics }) => analytics.getSearchesNoResults({ ...report, limit: 10 }) },
  'analytics:getSearchesNoClicks': { call: ({ analytics }) => analytics.getSearchesNoClicks({ ...report, limit: 10 }) },
  'analytics:getNoResultsRate': { call: ({ analytics }) => analytics.getNoResultsRate(report) },
  'analytics:getNoClickRate': { call: ({ analytics }) => analytics.getNoClickRate(report) },
  'analytics:getTopHits': { call: ({ analytics }) => analytics.getTopHits({ ...report, clickAnalytics: true, revenueAnalytics: false, limit: 10 }) },
  'analytics:getUsersCount': { call: ({ analytics }) => analytics.getUsersCount(report) },
  'analytics:getTopFilterAttributes': { call: ({ analytics }) => analytics.getTopFilterAttributes({ ...report, limit: 10 }) },
  'analytics:getTopFilterForAttribute': { call: ({ analytics }) => analytics.getTopFilterForAttribute({ ...report, attribute: 'tags', limit: 10 }) },
  'analytics:getTopFiltersNoResults': { call: ({ analytics }) => analytics.getTopFiltersNoResults({ ...report, limit: 10 }) },
  'analytics:getTopCountries': { call: ({ analytics }) => analytics.getTopCountries({ ...report, limit: 10 }) },
  'analytics:getAverageClickPosition': { call: ({ analytics }) => analytics.getAverageClickPosition(report) },
  'analytics:getClickPositions': { call: ({ analytics }) => analytics.getClickPositions(report) },
  'analytics:getClickThroughRate': { call: ({ analytics }) => analytics.getClickThroughRate(report) },
  'analytics:getConversionRate': { call: ({ analytics }) => analytics.getConversionRate(report) },
  'analytics:getAddToCartRate': { call: ({ analytics }) => analytics.getAddToCartRate(report) },
  'analytics:getPurchaseRate': { call: ({ analytics }) => analytics.getPurchaseRate(report) },
  'analytics:getRevenue': { call: ({ analytics }) => analytics.getRevenue(report) },
  'analytics:getPatternsFields': { call: ({ analytics }) => analytics.getPatternsFields() },
  'analytics:queryPatternsTimeseries': {
    call: ({ analytics }) => analytics.queryPatternsTimeseries({ timeseriesPayload: { domain: 'core', metrics: [{ kind: 'searchesCount' }], parameters: PATTERN_PARAMETERS } }),
  },
  'analytics:queryPatternsScalar': {
    call: ({ analytics }) => analytics.queryPatternsScalar({ scalarPayload: { domain: 'core', metrics: [{ kind: 'searchesCount' }], parameters: PATTERN_PARAMETERS } }),
  },
  'analytics:queryPatternsTable': {
    call: ({ analytics }) => analytics.queryPatternsTable({
      tablePayload: { domain: 'core', metrics: [{ kind: 'searchesCount' }], parameters: PATTERN_PARAMETERS, limit: 10 },
    }),
  },
  'analytics:queryPatternsDistribution': {
    call: ({ analytics }) => analytics.queryPatternsDistribution({
      distributionPayload: { domain: 'core', distributions: [{ kind: 'clickPosition', bins: [1, 2, 3, 4, 5, 10] }], parameters: PATTERN_PARAMETERS },
    }),
  },

  // A/B tests, v2 then v3 (on the same two indexes: one running test per index)
  'abtesting:addABTests': {
    call: ({ abtesting }) => abtesting.addABTests({
      name: 'conformance v2',
      variants: [{ index: IDX, trafficPercentage: 60, description: 'current' }, { index: IDX_B, trafficPercentage: 40, description: 'candidate' }],
      endAt: END_AT,
    }),
    keep: (body, s) => { s.abtest = body?.abTestID; },
  },
  'abtesting:listABTests': { call: ({ abtesting }) => abtesting.listABTests({ offset: 0, limit: 10 }) },
  'abtesting:getABTest': { call: ({ abtesting }, s) => abtesting.getABTest({ id: s.abtest }) },
  'abtesting:estimateABTest': {
    call: ({ abtesting }) => abtesting.estimateABTest({
      configuration: { minimumDetectableEffect: { size: 0.03, metric: 'conversionRate' } },
      variants: [{ index: IDX, trafficPercentage: 50 }, { index: IDX_B, trafficPercentage: 50 }],
    }),
  },
  'abtesting:stopABTest': { call: ({ abtesting }, s) => abtesting.stopABTest({ id: s.abtest }) },
  'abtesting:deleteABTest': { call: ({ abtesting }, s) => abtesting.deleteABTest({ id: s.abtest }) },
  'abtesting-v3:addABTests': {
    call: ({ abtestingV3 }) => abtestingV3.addABTests({
      name: 'conformance v3',
      variants: [{ index: IDX, trafficPercentage: 50 }, { index: IDX_B, trafficPercentage: 50 }],
      metrics: [{ name: 'clickThroughRate' }, { name: 'conversionRate' }],
      endAt: END_AT,
    }),
    keep: (body, s) => { s.abtestV3 = body?.abTestID; },
  },
  'abtesting-v3:listABTests': { call: ({ abtestingV3 }) => abtestingV3.listABTests({ offset: 0, limit: 10 }) },
  'abtesting-v3:getABTest': { call: ({ abtestingV3 }, s) => abtestingV3.getABTest({ id: s.abtestV3 }) },
  'abtesting-v3:estimateABTest': {
    call: ({ abtestingV3 }) => abtestingV3.estimateABTest({
      configuration: { minimumDetectableEffect: { size: 0.03, metric: 'conversionRate' } },
      variants: [{ index: IDX, trafficPercentage: 50 }, { index: IDX_B, trafficPercentage: 50 }],
    }),
  },
  'abtesting-v3:getTimeseries': { call: ({ abtestingV3 }, s) => abtestingV3.getTimeseries({ id: s.abtestV3, startDate: START, endDate: END }) },
  'abtesting-v3:stopABTest': { call: ({ abtestingV3 }, s) => abtestingV3.stopABTest({ id: s.abtestV3 }) },
  'abtesting-v3:deleteABTest': { call: ({ abtestingV3 }, s) => abtestingV3.deleteABTest({ id: s.abtestV3 }) },

  // query suggestions
  'query-suggestions:createConfig': {
    call: ({ querySuggestions }) => querySuggestions.createConfig({
      indexName: QS_INDEX, sourceIndices: [{ indexName: IDX, minHits: 1, minLetters: 3, facets: [{ attribute: 'tags', amount: 1 }] }], languages: ['en'], exclude: ['zzzz'],
    }),
  },
  'query-suggestions:getAllConfigs': { call: ({ querySuggestions }) => querySuggestions.getAllConfigs() },
  'query-suggestions:getConfig': { call: ({ querySuggestions }) => querySuggestions.getConfig({ indexName: QS_INDEX }) },
  'query-suggestions:updateConfig': {
    call: ({ querySuggestions }) => querySuggestions.updateConfig({
      indexName: QS_INDEX, configuration: { sourceIndices: [{ indexName: IDX, minHits: 1, minLetters: 4 }], languages: ['en'], exclude: [] },
    }),
  },
  'query-suggestions:getConfigStatus': {
    before: () => engine.buildQuerySuggestions(QS_INDEX),
    call: ({ querySuggestions }) => querySuggestions.getConfigStatus({ indexName: QS_INDEX }),
  },
  'query-suggestions:getLogFile': {
    call: ({ querySuggestions }) => querySuggestions.getLogFile({ indexName: QS_INDEX }),
  },
  'query-suggestions:deleteConfig': { call: ({ querySuggestions }) => querySuggestions.deleteConfig({ indexName: QS_INDEX }) },

  // personalization
  'personalization:setPersonalizationStrategy': {
    call: ({ personalization }) => personalization.setPersonalizationStrategy({
      eventsScoring: [{ eventName: 'Talk clicked', eventType: 'click', score: 20 }, { eventName: 'Talk viewed', eventType: 'view', score: 10 }],
      facetsScoring: [{ facetName: 'tags', score: 30 }],
      personalizationImpact: 60,
    }),
  },
  'personalization:getPersonalizationStrategy': { call: ({ personalization }) => personalization.getPersonalizationStrategy() },
  'personalization:getUserTokenProfile': { call: ({ personalization }) => personalization.getUserTokenProfile({ userToken: 'user-1' }) },
  'personalization:deleteUserProfile': { call: ({ personalization }) => personalization.deleteUserProfile({ userToken: 'user-5' }) },

  // monitoring (this process's own figures, on the clusters it was opened with)
  'monitoring:getStatus': { call: ({ monitoring }) => monitoring.getStatus() },
  'monitoring:getClusterStatus': { call: ({ monitoring }) => monitoring.getClusterStatus({ clusters: CLUSTERS.join(',') }) },
  'monitoring:getIncidents': { call: ({ monitoring }) => monitoring.getIncidents() },
  'monitoring:getClusterIncidents': { call: ({ monitoring }) => monitoring.getClusterIncidents({ clusters: CLUSTERS[0]! }) },
  'monitoring:getServers': { call: ({ monitoring }) => monitoring.getServers() },
  'monitoring:getLatency': { call: ({ monitoring }) => monitoring.getLatency({ clusters: CLUSTERS[0]! }) },
  'monitoring:getIndexingTime': { call: ({ monitoring }) => monitoring.getIndexingTime({ clusters: CLUSTERS[0]! }) },
  'monitoring:getReachability': { call: ({ monitoring }) => monitoring.getReachability({ clusters: CLUSTERS[0]! }) },
  'monitoring:getMetrics': { call: ({ monitoring }) => monitoring.getMetrics({ metric: 'avg_build_time', period: 'hour' }) },
};

// ---------------------------------------------------------------------------
// Running an entry

interface Outcome {
  key: string;
  status: number | null;
  /** Whether the body validates (null: not checked: no 2xx the document gives, or no body to check). */
  valid: boolean | null;
  conforms: boolean;
  /** Why it does not conform (the first ajv error first), or ''. */
  problem: string;
}

const api = loadOpenApi();
let engine: Lantern;
let recorder: ReturnType<typeof recordingRequester>;
let clients: Clients;
const state: State = { key: '', taskID: 0, abtest: 0, abtestV3: 0, queryID: '' };
const outcomes: Outcome[] = [];

async function run(operation: Operation, entry: Entry): Promise<Outcome> {
  const outcome = (status: number | null, valid: boolean | null, problem: string): Outcome => ({ key: operation.key, status, valid, conforms: problem === '', problem });
  if (entry.before) await entry.before().catch(() => undefined);
  recorder.calls.length = 0;
  let thrown: unknown;
  try {
    await entry.call(clients, state);
  } catch (e) {
    thrown = e;
  }
  const sent = recorder.calls.at(-1);
  if (!sent) return outcome(null, null, `no request reached the engine: ${String(thrown)}`);
  if (!matchesOperation(operation, sent.method, sent.path)) {
    return outcome(sent.status, null, `the client sent ${sent.method} ${sent.path}, not ${operation.method} ${operation.path}`);
  }
  let body: unknown;
  try {
    body = sent.content === '' ? undefined : JSON.parse(sent.content);
  } catch {
    return outcome(sent.status, false, `the body is not JSON: ${sent.content.slice(0, 120)}`);
  }
  entry.keep?.(body, state);
  await waitForTask(sent.path, body);
  const statuses = Object.keys(operation.success);
  if (!statuses.includes(String(sent.status))) {
    const message = (body as { message?: unknown } | undefined)?.message;
    return outcome(sent.status, null, `answered ${sent.status} (${typeof message === 'string' ? message : sent.content.slice(0, 120)}), the document answers ${statuses.join('/')}`);
  }
  const validate = api.validator(operation, sent.status);
  if (!validate) return outcome(sent.status, null, '');
  if (validate(body)) return outcome(sent.status, true, '');
  return outcome(sent.status, false, formatErrors(validate.errors, 40));
}

/** An index write answered a task: wait for it, so the next call sees it. */
async function waitForTask(path: string, body: unknown) {
  const taskID = (body as { taskID?: unknown } | undefined)?.taskID;
  const index = /^\/1\/indexes\/([^/*][^/]*)/.exec(path)?.[1];
  if (typeof taskID !== 'number' || !index) return;
  await clients.search.waitForTask({ indexName: decodeURIComponent(index), taskID }).catch(() => undefined);
}

// ---------------------------------------------------------------------------
// The seed: two indexes of talks with settings, a synonym, a rule, a key, a
// user on a cluster, a personalization strategy, searches with click
// analytics and events on them.

async function seed() {
  engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, clusters: CLUSTERS });
  recorder = recordingRequester(engine);
  clients = clientsOn(recorder);
  const { search, insights, personalization } = clients;
  for (const indexName of [IDX, IDX_B]) {
    const { taskID } = await search.setSettings({ indexName, indexSettings: talksSettings() as never });
    await search.waitForTask({ indexName, taskID });
    await search.saveObjects({ indexName, objects: talks, waitForTasks: true });
  }
  await search.saveSynonym({ indexName: IDX, objectID: 'syn-1', synonymHit: { objectID: 'syn-1', type: 'synonym', synonyms: ['film', 'movie'] } });
  const { taskID } = await search.saveRule({
    indexName: IDX, objectID: 'rule-1', rule: { objectID: 'rule-1', conditions: [{ pattern: 'climate', anchoring: 'contains' }], consequence: { params: { query: 'climate change' } } },
  });
  await search.waitForTask({ indexName: IDX, taskID });
  state.taskID = taskID;
  await search.addApiKey({ acl: ['search'], description: 'seeded', indexes: [IDX] });
  await search.assignUserId({ xAlgoliaUserID: 'user-1', assignUserIdParams: { cluster: CLUSTERS[0]! } });
  await personalization.setPersonalizationStrategy({
    eventsScoring: [{ eventName: 'Talk clicked', eventType: 'click', score: 20 }], facetsScoring: [{ facetName: 'tags', score: 30 }], personalizationImpact: 50,
  });
  // searches with clicks and conversions, with filters, without results, and some without clicks
  const queries: Array<[string, string | undefined, boolean]> = [
    ['giver', undefined, true], ['ocean', 'tags:science', true], ['brain', undefined, true], ['music', 'tags:music', true], ['climate', undefined, true],
    ['zzzzqx', undefined, false], ['zzzzqx', 'tags:nothing', false], ['design', undefined, false], ['happiness', undefined, false],
  ];
  for (const [query, filters, clicked] of queries) {
    const response = await search.searchSingleIndex({
      indexName: IDX, searchParams: { query, clickAnalytics: true, analyticsTags: ['conformance'], ...(filters ? { filters } : {}) },
    }, { headers: { 'X-Algolia-UserToken': 'user-1' } });
    const first = response.hits[0];
    if (!first || !response.queryID || !clicked) continue;
    state.queryID ||= response.queryID;
    await insights.pushEvents({
      events: [
        { eventName: 'Talk clicked', eventType: 'click', index: IDX, userToken: 'user-1', objectIDs: [first.objectID], positions: [1], queryID: response.queryID },
        { eventName: 'Talk added', eventType: 'conversion', eventSubtype: 'addToCart', index: IDX, userToken: 'user-1', objectIDs: [first.objectID], queryID: response.queryID },
        {
          eventName: 'Talk bought', eventType: 'conversion', eventSubtype: 'purchase', index: IDX, userToken: 'user-1', objectIDs: [first.objectID],
          objectData: [{ price: 9.5, quantity: 1, queryID: response.queryID }], currency: 'USD', value: 9.5,
        },
      ],
    });
  }
}

// ---------------------------------------------------------------------------
// The suite

beforeAll(seed, 60_000);

afterAll(async () => {
  if (process.env.CONFORMANCE_REPORT) printReport();
  await engine?.close();
});

describe('the table', () => {
  it('has one entry per operation of the documents, and no other', () => {
    const documented = api.operations.map((o) => o.key).sort();
    expect(Object.keys(OPERATIONS).sort()).toEqual(documented);
  });

  it('no two documents share a method and path (the requester routes by path alone, whatever the host)', () => {
    const seen = new Map<string, string>();
    const shared: string[] = [];
    for (const o of api.operations) {
      const route = `${o.method} ${o.path.replace(/\{[^}]+\}/g, '{}')}`;
      const other = seen.get(route);
      if (other !== undefined && other.split(':')[0] !== o.document) shared.push(`${route}: ${other} and ${o.key}`);
      seen.set(route, o.key);
    }
    expect(shared).toEqual([]);
  });

  it('the validators refuse what the documents refuse', () => {
    const byKey = (key: string) => api.operations.find((o) => o.key === key)!;
    const deleteBy = api.validator(byKey('search:deleteBy'), 200)!;
    expect(deleteBy({ taskID: 1, updatedAt: '2026-11-26T10:00:00Z' })).toBe(true);
    expect(deleteBy({ taskID: 1, deletedAt: '2026-11-26T10:00:00Z' })).toBe(false);
    const searchSingleIndex = api.validator(byKey('search:searchSingleIndex'), 200)!;
    const minimal = { hits: [], nbHits: 0, page: 0, nbPages: 0, hitsPerPage: 20, processingTimeMS: 1, query: '', params: '', exhaustiveNbHits: true };
    expect(searchSingleIndex(minimal), formatErrors(searchSingleIndex.errors)).toBe(true);
    expect(searchSingleIndex({ ...minimal, hits: 'none' })).toBe(false);
    expect(searchSingleIndex({ nbHits: 0 })).toBe(false);
    const getObjects = api.validator(byKey('search:getObjects'), 200)!;
    expect(getObjects({ results: [{ objectID: '1' }, null] }), formatErrors(getObjects.errors)).toBe(true);
    const getTask = api.validator(byKey('search:getTask'), 200)!;
    expect(getTask({ status: 'published' })).toBe(true);
    expect(getTask({ status: 'done' })).toBe(false);
    expect(api.validator(byKey('insights:deleteUserToken'), 204)).toBeNull();
  });

  it('KNOWN_GAPS names only operations of the documents', () => {
    const documented = new Set(api.operations.map((o) => o.key));
    expect(Object.keys(KNOWN_GAPS).filter((key) => !documented.has(key))).toEqual([]);
  });
});

describe('every operation answers 2xx with a body its schema accepts', () => {
  for (const key of Object.keys(OPERATIONS)) {
    const operation = api.operations.find((o) => o.key === key);
    it(key, async () => {
      expect(operation, `${key} is not an operation of the documents`).toBeDefined();
      const result = await run(operation!, OPERATIONS[key]!);
      outcomes.push(result);
      const gap = KNOWN_GAPS[key];
      if (gap === undefined) {
        expect(result.conforms, `${key} (${operation!.method} ${operation!.path}) does not conform:\n${result.problem}`).toBe(true);
      } else {
        expect(result.conforms, `${key} now conforms: remove it from KNOWN_GAPS (listed as: ${gap})`).toBe(false);
      }
    });
  }
});

function printReport() {
  const rows = outcomes.map((o) => [
    o.key,
    o.status === null ? '-' : String(o.status),
    o.valid === null ? (o.conforms ? 'no body' : '-') : o.valid ? 'valid' : 'invalid',
    o.conforms ? 'conforms' : KNOWN_GAPS[o.key] !== undefined ? 'known gap' : 'FAILS',
    o.problem.split('\n')[0]!.slice(0, 140),
  ]);
  const header = ['operation', 'status', 'body', 'result', 'first problem'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const conforming = outcomes.filter((o) => o.conforms).length;
  console.log([line(header), ...rows.map(line), '', `${conforming} of ${outcomes.length} operations conform`].join('\n'));
}
