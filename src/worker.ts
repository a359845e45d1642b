// lantern-search/worker: the engine off the main thread through Comlink.
// Inside a Worker: `startWorker(options)`. Outside: `connectWorker(worker)`
// gives the same `request` and typed `client()` as an in-thread engine.
import * as Comlink from 'comlink';
import { createClient, type LanternClient } from './api/client.js';
import type { ApiRequest, ApiResponse } from './api/types.js';
import { Lantern, type LanternOptions } from './lantern.js';

export interface WorkerApi {
  request(request: ApiRequest): Promise<ApiResponse>;
  waitForTasks(): Promise<void>;
  close(): Promise<void>;
}

export function exposeEngine(engine: Lantern, endpoint?: Comlink.Endpoint): void {
  const api: WorkerApi = {
    request: (r) => engine.request(r),
    waitForTasks: () => engine.waitForTasks(),
    close: () => engine.close(),
  };
  Comlink.expose(api, endpoint);
}

/** Opens an engine inside this worker and serves it to the thread that started the worker. */
export async function startWorker(options: LanternOptions = {}, endpoint?: Comlink.Endpoint): Promise<Lantern> {
  const engine = await Lantern.open(options);
  exposeEngine(engine, endpoint);
  return engine;
}

export interface RemoteLantern {
  request(request: ApiRequest): Promise<ApiResponse>;
  client(apiKey?: string, appId?: string): LanternClient;
  waitForTasks(): Promise<void>;
  close(): Promise<void>;
}

/** The engine of a worker started with `startWorker`, with the in-thread engine's API. */
export function connectWorker(worker: Comlink.Endpoint, terminate: () => void = () => (worker as Worker).terminate?.()): RemoteLantern {
  const remote = Comlink.wrap<WorkerApi>(worker);
  const request = (r: ApiRequest) => remote.request(r) as Promise<ApiResponse>;
  return {
    request,
    client: (apiKey, appId) => createClient(request, apiKey, appId),
    waitForTasks: () => remote.waitForTasks() as Promise<void>,
    async close() {
      await remote.close();
      remote[Comlink.releaseProxy]();
      terminate();
    },
  };
}
