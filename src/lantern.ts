// Lantern: the engine with its three entries — `request` (every endpoint),
// `client(key)` (typed methods) and, through `lanternRequester`, the
// official client.
import { createClient, type LanternClient } from './api/client.js';
import { route } from './api/router.js';
import { createApiServices } from './api/services.js';
import type { ApiRequest, ApiResponse, ApiServices } from './api/types.js';
import { Engine, type EngineOptions } from './engine/engine.js';

export type { EngineOptions as LanternOptions } from './engine/engine.js';
import { notFound } from './util/errors.js';
import { scheduleBuild } from './suggestions/scheduler.js';
import { Follower } from './follow/follower.js';

/**
 * The engine: indexes of JSON records behind the hosted service's REST API,
 * in this thread. Open one with `Lantern.open`, then call the API with
 * `request`, `client()` (typed methods) or the official client
 * (`lanternRequester`).
 */
export class Lantern extends Engine {
  /** @internal The API's services for this engine: the call log, rate limiters, secured keys' parents. */
  readonly services: ApiServices;

  private constructor(options: EngineOptions) {
    super(options);
    this.services = createApiServices(options.followBacklog);
  }

  /**
   * With `follow`: what keeps it current (where it stands, a way to wait
   * until it caught up); undefined for an engine that follows no server.
   */
  follower: Follower | undefined;

  /**
   * Opens an engine on `options.storage` (in memory by default), reading
   * back what it holds. A follower (`options.follow`) then loads what it
   * misses from its server: it resolves once caught up, or once the server
   * could not be reached (it answers from what it holds meanwhile).
   */
  static async open(options: EngineOptions = {}): Promise<Lantern> {
    const engine = new Lantern(options);
    await engine.load();
    if (options.follow) {
      engine.follower = new Follower(engine, options.follow, engine.recovery.lastTaskID);
      await engine.follower.start();
    }
    return engine;
  }

  /** Any endpoint of the REST API: `{method, path, headers, body}` → `{status, body}`. */
  request(request: ApiRequest): Promise<ApiResponse> {
    return route(this, this.services, request);
  }

  /**
   * Builds the query suggestions index of a configuration now (or joins the
   * build under way); resolves with its status once the build is over.
   * Builds also start by themselves when a configuration is created or changed.
   */
  async buildQuerySuggestions(indexName: string) {
    const state = this.analytics.suggestions;
    if (!state.configs.has(indexName)) throw notFound(`Configuration not found for index: ${indexName}`);
    await scheduleBuild(this, indexName);
    return state.status(indexName);
  }

  /** Lets builds under way finish first; stops following, and ends followers' logs. */
  override async close(): Promise<void> {
    await this.follower?.close();
    this.services.follow?.close();
    await Promise.allSettled(this.analytics.suggestions.running.values());
    return super.close();
  }

  /** Typed methods (the official v5 client's names) acting with `apiKey` (default: the admin key). */
  client(apiKey: string | undefined = this.adminKey): LanternClient {
    return createClient((r) => this.request(r), apiKey, this.appId);
  }
}
