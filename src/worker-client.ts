// lantern-search/worker, the page's side: `connectWorker(worker)` gives the
// engine of a worker started with `startWorker` (worker.ts) as the same
// `request`, typed `client()` and `lanternRequester` as an in-thread engine,
// without bundling the engine itself.
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createClient, type LanternClient } from './api/client.js';
import type { ApiRequest, ApiResponse } from './api/types.js';
import type { NodePort } from './platform/types.js';
import type { FollowState } from './follow/options.js';

/** A response as it crosses the thread boundary: the body as JSON bytes, transferred, not copied. */
export interface WireResponse { status: number; headers?: Record<string, string>; json: Uint8Array }

/** What a worker serves (see exposeEngine). */
export interface WorkerApi {
  /** Answers a call of the REST API (Lantern.request), its answer ready to cross threads. */
  request(request: ApiRequest): Promise<WireResponse>;
  /** Resolves once every task accepted is applied (Lantern.waitForTasks). */
  waitForTasks(): Promise<void>;
  /** Resolves once the tasks are applied and the texts they left are embedded (Lantern.waitForEmbeddings). */
  waitForEmbeddings(): Promise<void>;
  /** Takes a snapshot now (Lantern.snapshot). */
  snapshot(): Promise<void>;
  /** Where the engine stands with the server it follows (undefined when it follows none). */
  followState(): Promise<FollowState | undefined>;
  /** Resolves once the engine caught up with the server it follows and holds task `taskID` (Follower.caughtUp). */
  caughtUp(taskID?: number): Promise<void>;
  /** Closes the engine (Lantern.close). */
  close(): Promise<void>;
}

/** A Node worker_threads Worker (or its parentPort), which Comlink reaches through its node adapter. */
export type NodeWorkerLike = Pick<NodePort, 'on' | 'postMessage'>;

export function endpointOf(target: Comlink.Endpoint | NodeWorkerLike): Comlink.Endpoint {
  return typeof (target as Comlink.Endpoint).addEventListener === 'function'
    ? (target as Comlink.Endpoint)
    : nodeEndpoint(target as Parameters<typeof nodeEndpoint>[0]);
}

/** An engine in a worker, as the page holds it (`connectWorker`): the engine's calls, answered across threads. */
export interface RemoteLantern {
  /** Answers a call of the REST API as plain objects (see Lantern.request). */
  request(request: ApiRequest): Promise<ApiResponse>;
  /** The typed client, sending its calls to the worker (see Lantern.client): as admin without `apiKey`. */
  client(apiKey?: string, appId?: string): LanternClient;
  /** Resolves once every task accepted is applied (see Lantern.waitForTasks). */
  waitForTasks(): Promise<void>;
  /** Resolves once the tasks are applied and the texts they left are embedded (see Lantern.waitForEmbeddings). */
  waitForEmbeddings(): Promise<void>;
  /** Takes a snapshot now (see Lantern.snapshot). */
  snapshot(): Promise<void>;
  /** Where the worker's engine stands with the server it follows (undefined when it follows none). */
  followState(): Promise<FollowState | undefined>;
  /** Resolves once the worker's engine caught up with the server it follows and holds task `taskID` (see Follower.caughtUp). */
  caughtUp(taskID?: number): Promise<void>;
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
    waitForEmbeddings: () => remote.waitForEmbeddings(),
    snapshot: () => remote.snapshot(),
    followState: () => remote.followState(),
    caughtUp: (taskID) => remote.caughtUp(taskID),
    async close() {
      // the worker goes even when its engine never opened (its close rejects with the reason)
      try {
        await remote.close();
      } finally {
        remote[Comlink.releaseProxy]();
        await (worker as { terminate?: () => unknown }).terminate?.();
      }
    },
  };
}
