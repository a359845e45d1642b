// lantern-search/worker: the engine off the main thread through Comlink, in a
// browser Worker or a Node worker_threads Worker. Inside the worker:
// `startWorker(options)`. Outside: `connectWorker(worker)` gives the same
// `request`, typed `client()` and `lanternRequester` as an in-thread engine.
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createClient, type LanternClient } from './api/client.js';
import type { ApiRequest, ApiResponse } from './api/types.js';
import { Lantern, type LanternOptions } from './lantern.js';

/** A response as it crosses the thread boundary: the body as JSON bytes, transferred, not copied. */
interface WireResponse { status: number; headers?: Record<string, string>; json: Uint8Array }

export interface WorkerApi {
  request(request: ApiRequest): Promise<WireResponse>;
  waitForTasks(): Promise<void>;
  snapshot(): Promise<void>;
  close(): Promise<void>;
}

type NodeWorkerLike = { on(event: string, listener: (...args: any[]) => void): unknown; postMessage(message: unknown): void };

function endpointOf(target: Comlink.Endpoint | NodeWorkerLike): Comlink.Endpoint {
  return typeof (target as Comlink.Endpoint).addEventListener === 'function'
    ? (target as Comlink.Endpoint)
    : nodeEndpoint(target as Parameters<typeof nodeEndpoint>[0]);
}

/** The channel to the thread that started this worker. */
async function parentEndpoint(): Promise<Comlink.Endpoint> {
  if (typeof process !== 'undefined' && process.versions?.node) {
    const { parentPort } = await import('node:worker_threads');
    if (parentPort) return endpointOf(parentPort);
  }
  return globalThis as unknown as Comlink.Endpoint;
}

/** Serves `engine` on `endpoint`; while it is still opening, requests wait for it (and get its error if it fails). */
export function exposeEngine(engine: Lantern | Promise<Lantern>, endpoint: Comlink.Endpoint): void {
  const opened = Promise.resolve(engine);
  const encoder = new TextEncoder();
  const api: WorkerApi = {
    async request(r) {
      const response = await (await opened).request(r);
      const json = encoder.encode(JSON.stringify(response.body));
      return Comlink.transfer({ status: response.status, headers: response.headers, json }, [json.buffer as ArrayBuffer]);
    },
    waitForTasks: async () => (await opened).waitForTasks(),
    snapshot: async () => (await opened).snapshot(),
    close: async () => (await opened).close(),
  };
  Comlink.expose(api, endpoint);
}

/** Opens an engine inside this worker and serves it to the thread that started the worker. */
export async function startWorker(options: LanternOptions = {}, endpoint?: Comlink.Endpoint): Promise<Lantern> {
  const opening = Lantern.open(options);
  // exposed before the engine is open: a browser drops the messages a worker has no listener for yet,
  // so requests the page sends right after `new Worker()` would otherwise be lost
  exposeEngine(opening, endpoint ?? (await parentEndpoint()));
  return opening;
}

export interface RemoteLantern {
  request(request: ApiRequest): Promise<ApiResponse>;
  client(apiKey?: string, appId?: string): LanternClient;
  waitForTasks(): Promise<void>;
  snapshot(): Promise<void>;
  /** Releases the proxy and terminates the worker. */
  close(): Promise<void>;
}

/** The engine of a worker started with `startWorker`: a browser Worker or a Node worker_threads Worker. */
export function connectWorker(worker: Comlink.Endpoint | NodeWorkerLike): RemoteLantern {
  const remote = Comlink.wrap<WorkerApi>(endpointOf(worker));
  const decoder = new TextDecoder();
  const request = async (r: ApiRequest): Promise<ApiResponse> => {
    const { status, headers, json } = await remote.request(r);
    return { status, headers, body: JSON.parse(decoder.decode(json)) };
  };
  return {
    request,
    client: (apiKey, appId) => createClient(request, apiKey, appId),
    waitForTasks: () => remote.waitForTasks(),
    snapshot: () => remote.snapshot(),
    async close() {
      await remote.close();
      remote[Comlink.releaseProxy]();
      await (worker as { terminate?: () => unknown }).terminate?.();
    },
  };
}
