// Typed methods with the official v5 client's names and argument shapes,
// built from the route table so they can never diverge from HTTP. Their
// types are the official clients' own (`algoliasearch`, a peer dependency,
// types only): a method of the route table that no official client has is
// typed in LanternExtras, and one that neither types fails to compile.
import type {
  AbtestingClient, AbtestingV3Client, AddApiKeyResponse, AnalyticsClient, ApiKey, BatchResponse, BrowseResponse, DeleteApiKeyResponse,
  GetApiKeyResponse, GetSettingsProps, IndexSettings, InsightsClient, ListApiKeysResponse, MonitoringClient,
  PersonalizationClient, PersonalizationStrategyParams, QuerySuggestionsClient, RecommendClient, SearchClient, SearchMethodParams,
  SaveObjectsOptions, SearchParams as OfficialSearchParams, SearchResponse, SearchResult, SetPersonalizationStrategyResponse,
  SetSettingsProps, SettingsResponse, UpdateApiKeyResponse, UpdatedAtResponse,
} from 'algoliasearch';
import type { SearchParams, Settings, SettingsChanges } from '../index/params.js';
import { ApiError } from '../util/errors.js';
import { ROUTES, type Route, type RouteOp } from './routes.js';
import type { ApiRequest, ApiResponse } from './types.js';

type Args = Record<string, unknown>;
type Send = (request: ApiRequest) => Promise<ApiResponse>;

/** The official clients whose methods Lantern answers, in the order a name is looked up. */
type OfficialMethod<K extends string> =
  K extends keyof SearchClient ? SearchClient[K]
    : K extends keyof MonitoringClient ? MonitoringClient[K]
      : K extends keyof AnalyticsClient ? AnalyticsClient[K]
        : K extends keyof AbtestingClient ? AbtestingClient[K]
          : K extends keyof InsightsClient ? InsightsClient[K]
            : K extends keyof PersonalizationClient ? PersonalizationClient[K]
              : K extends keyof QuerySuggestionsClient ? QuerySuggestionsClient[K]
                : K extends keyof RecommendClient ? RecommendClient[K]
                  : V3Method<K>;

/** A/B testing v3's methods, which the route table names `<method>V3` (v2 has the plain names: routes.ts). */
type V3Method<K extends string> = K extends `${infer Name}V3` ? Name extends keyof AbtestingV3Client ? AbtestingV3Client[Name] : never : never;

/** A report of the usage and probe routes, which no v5 client has: name to value lists. */
type Report = Record<string, unknown>;

/** Operations of the original REST documents that the v5 clients do not have (or name otherwise). */
export interface LanternExtras {
  /** GET /1/indexes/{indexName}: a search with its parameters in the query string. */
  searchWithQueryString<T = Record<string, unknown>>(args: { indexName: string }): Promise<SearchResponse<T>>;
  /** GET /1/indexes/{indexName}/browse. */
  browseWithQueryString<T = Record<string, unknown>>(args: { indexName: string }): Promise<BrowseResponse<T>>;
  /** Keys of one index (the original API's index-scoped keys). */
  listAllIndexApiKeys(): Promise<ListApiKeysResponse>;
  /** Adds a key of one index (POST /1/indexes/{indexName}/keys). */
  addIndexApiKey(args: { indexName: string; apiKey: ApiKey }): Promise<AddApiKeyResponse>;
  /** The keys of one index (GET /1/indexes/{indexName}/keys). */
  listIndexApiKeys(args: { indexName: string }): Promise<ListApiKeysResponse>;
  /** A key of one index (GET /1/indexes/{indexName}/keys/{key}). */
  getIndexApiKey(args: { indexName: string; key: string }): Promise<GetApiKeyResponse>;
  /** Changes a key of one index (PUT /1/indexes/{indexName}/keys/{key}). */
  updateIndexApiKey(args: { indexName: string; key: string; apiKey: ApiKey }): Promise<UpdateApiKeyResponse>;
  /** Deletes a key of one index (DELETE /1/indexes/{indexName}/keys/{key}). */
  deleteIndexApiKey(args: { indexName: string; key: string }): Promise<DeleteApiKeyResponse>;
  /** The analytics client's `getStatus` (GET /2/status); `getStatus` is the monitoring one. */
  getAnalyticsStatus: AnalyticsClient['getStatus'];
  /** The recommendation strategy: the personalization strategy's shape, under /1/recommendation. */
  setRecommendationStrategy(args: PersonalizationStrategyParams): Promise<SetPersonalizationStrategyResponse>;
  /** The recommendation strategy set with `setRecommendationStrategy`. */
  getRecommendationStrategy(): Promise<PersonalizationStrategyParams>;
  /** The monitoring usage figures of the application (`records`, `search_operations`...) over a period. */
  getUsage(args: { statistic: string; period: string }): Promise<Report>;
  /** The monitoring usage figures of one index over a period. */
  getIndexUsage(args: { statistic: string; period: string; indexName: string }): Promise<Report>;
  /** The monitoring probes: this process's own figures. */
  getProbes(): Promise<Report>;
  /** Search latency of the clusters named (comma-separated), as the monitoring API answers it. */
  getLatencyByRelevantProbes(args: { clusters: string }): Promise<Report>;
  /** Search latency of the clusters named (comma-separated), from the other probes (the same figures here). */
  getLatencyByOtherProbes(args: { clusters: string }): Promise<Report>;
  /** GET /1/lantern/follow/snapshot: the indexes the key reaches, as the snapshot bytes a follower starts from (Lantern's own). */
  followSnapshot(): Promise<Uint8Array>;
  /** GET /1/lantern/follow/log: the writes after task `after` a follower applies, as server-sent events (Lantern's own). */
  followLog(args?: { after?: number }): Promise<ReadableStream<Uint8Array>>;
}

/** Lantern's vector search parameters (vectors.md), typed off the parameter table; the official types have none of them. */
export type VectorSearchParams = Partial<Pick<SearchParams, 'hybrid' | 'vector' | 'retrieveVectors'>>;

/** What a hybrid or vector search's answer adds (its hits carry `_vectors` with `retrieveVectors`: type them in T). */
export interface VectorAnswer {
  /** Hits of the page found by the vector side alone. */
  semanticHitCount?: number;
  /** Why the query has no vector (its embedder failed): the answer is the keyword one. */
  semanticError?: string;
}

/** An official request option argument, which Lantern's client accepts and ignores. */
type RequestOptions = Parameters<SearchClient['searchSingleIndex']>[1];

/** The official methods whose parameters and answers Lantern extends with vectors (embedders, hybrid, vector, retrieveVectors). */
export interface LanternVectorMethods {
  /** Searches one index; `hybrid`, `vector` and `retrieveVectors` too (docs/vectors.md). */
  searchSingleIndex<T = Record<string, unknown>>(
    args: { indexName: string; searchParams?: OfficialSearchParams & VectorSearchParams }, requestOptions?: RequestOptions,
  ): Promise<SearchResponse<T> & VectorAnswer>;
  /** Several searches in one call (multi-queries), each with the vector parameters too. */
  search<T = Record<string, unknown>>(
    args: Omit<SearchMethodParams, 'requests'> & { requests: Array<SearchMethodParams['requests'][number] & VectorSearchParams> }, requestOptions?: RequestOptions,
  ): Promise<{
    /** One answer per request, in their order. */
    results: Array<SearchResult<T> & VectorAnswer>;
  }>;
  /** `embedders` (only the admin key may change it; null removes them all). */
  setSettings(
    args: Omit<SetSettingsProps, 'indexSettings'> & { indexSettings: IndexSettings & Pick<SettingsChanges, 'embedders'> }, requestOptions?: RequestOptions,
  ): Promise<UpdatedAtResponse>;
  /** `embedders` with their API keys masked unless the key has the admin right. */
  getSettings(args: GetSettingsProps, requestOptions?: RequestOptions): Promise<SettingsResponse & Partial<Pick<Settings, 'embedders'>>>;
}

/**
 * The official `saveObjects` options, with records of any object type: the
 * official `Record<string, unknown>` refuses a record declared as an
 * interface (it has no index signature).
 */
export type SaveObjectsArgs<T extends object> = Omit<SaveObjectsOptions, 'objects'> & {
  /** The records to save, each with its objectID (an interface type is accepted: no index signature needed). */
  objects: readonly T[];
};

/** The official clients' helpers Lantern's client has too. */
export interface LanternHelpers {
  /** Saves records in batches of `batchSize` (1,000), waiting for each task with `waitForTasks`. */
  saveObjects<T extends object>(args: SaveObjectsArgs<T>, requestOptions?: RequestOptions): Promise<BatchResponse[]>;
  /** Resolves once the task is published. */
  waitForTask(args: { indexName: string; taskID: number }): Promise<void>;
}

/**
 * `engine.client()`: every operation of the route table, typed as the
 * official client types it (a misspelt method or argument does not compile;
 * `searchSingleIndex<Talk>` types the hits), with Lantern's vector
 * parameters and settings added (LanternVectorMethods). The official methods' second
 * argument, request options, is accepted and ignored.
 */
export type LanternClient =
  { [K in Exclude<RouteOp, keyof LanternExtras | keyof LanternVectorMethods>]: OfficialMethod<K> } & LanternExtras & LanternVectorMethods & LanternHelpers;

/** Route operations typed by no official client nor LanternExtras: must stay `never` (a compile error names them). */
type Untyped = { [K in RouteOp]: K extends keyof LanternExtras | keyof LanternVectorMethods ? never : [OfficialMethod<K>] extends [never] ? K : never }[RouteOp];
const everyOperationTyped: [Untyped] extends [never] ? true : { untyped: Untyped } = true;
void everyOperationTyped;

/** A route's path split around its parameters (literal text at even places, parameter names at odd ones), and those names. */
const PATHS = new Map(ROUTES.map((route) => {
  const parts = route.path.split(/\{(\w+)\}/);
  return [route, { parts, names: parts.filter((_, i) => i % 2 === 1) }];
}));

function requestFor(route: Route, args: Args, headers: Record<string, string>): ApiRequest {
  const { parts, names } = PATHS.get(route)!;
  let path = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = args[parts[i]];
    if (value === undefined) throw new ApiError('invalid_request', `Parameter "${parts[i]}" is required for ${route.op}`);
    path += encodeURIComponent(String(value)) + parts[i + 1];
  }
  const query: Record<string, string> = {};
  for (const name of route.query ?? []) if (args[name] !== undefined) query[name] = String(args[name]);
  let body: unknown;
  if (route.body === '.') body = Object.fromEntries(Object.entries(args).filter(([k]) => !names.includes(k)));
  else if (route.body) body = args[route.body] ?? {};
  return { method: route.method, path, query, headers, body };
}

export function createClient(send: Send, apiKey: string | undefined, appId: string | undefined): LanternClient {
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) headers['x-algolia-api-key'] = apiKey;
  if (appId !== undefined) headers['x-algolia-application-id'] = appId;
  const client: Record<string, (args?: Args) => Promise<unknown>> = {};
  for (const route of ROUTES) {
    client[route.op] = async (args: Args = {}) => {
      const response = await send(requestFor(route, args, headers));
      if (response.status >= 400) {
        const { message } = response.body as { message: string };
        throw response.code ? new ApiError(response.code, message, response.status) : ApiError.answered(response.status, message);
      }
      return response.body;
    };
  }
  const typed = client as unknown as LanternClient;
  const helpers: LanternHelpers = {
    async waitForTask({ indexName, taskID }) {
      for (let delay = 1; ; delay = Math.min(delay * 2, 100)) {
        const { status } = await typed.getTask({ indexName, taskID });
        if (status === 'published') return;
        await new Promise((r) => setTimeout(r, delay));
      }
    },
    async saveObjects({ indexName, objects, waitForTasks = false, batchSize = 1000 }) {
      const responses = [];
      for (let i = 0; i < objects.length; i += batchSize) {
        const requests = objects.slice(i, i + batchSize).map((body) => ({ action: 'addObject' as const, body: body as Record<string, unknown> }));
        responses.push(await typed.batch({ indexName, batchWriteParams: { requests } }));
      }
      if (waitForTasks) for (const r of responses) await helpers.waitForTask({ indexName, taskID: r.taskID });
      return responses;
    },
  };
  return Object.assign(typed, helpers);
}
