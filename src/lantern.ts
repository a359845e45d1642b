// Lantern: the engine with its three entries — `request` (every endpoint),
// `client(key)` (typed methods) and, through `lanternRequester`, the
// official client.
import { createClient, type LanternClient } from './api/client.js';
import { route } from './api/router.js';
import type { ApiRequest, ApiResponse } from './api/types.js';
import { Engine, type EngineOptions } from './engine/engine.js';

export type LanternOptions = EngineOptions;

export class Lantern extends Engine {
  static async open(options: LanternOptions = {}): Promise<Lantern> {
    const engine = new Lantern(options);
    await engine.load();
    return engine;
  }

  /** Any endpoint of the REST API: `{method, path, headers, body}` → `{status, body}`. */
  request(request: ApiRequest): Promise<ApiResponse> {
    return route(this, request);
  }

  /** Typed methods (the official v5 client's names) acting with `apiKey` (default: the admin key). */
  client(apiKey: string | undefined = this.adminKey): LanternClient {
    return createClient((r) => this.request(r), apiKey, this.appId);
  }
}
