// lantern-search/worker: the engine off the main thread through Comlink, in a
// browser Worker or a Node worker_threads Worker. Inside the worker:
// `startWorker(options)`. Outside: `connectWorker(worker)` (worker-client.ts,
// re-exported here; a page that only talks to the worker imports it from
// lantern-search/client instead, which leaves the engine out).
import * as Comlink from 'comlink';
import { bodyJsonOf } from './api/types.js';
import { Lantern, type LanternOptions } from './lantern.js';
import { platform } from './platform/platform.js';
import { endpointOf, type WorkerApi } from './worker-client.js';

export { connectWorker, type RemoteLantern, type WorkerApi } from './worker-client.js';

/** The channel to the thread that started this worker: the worker_threads parent port in Node, the worker's global scope in a browser. */
async function parentEndpoint(): Promise<Comlink.Endpoint> {
  const port = await platform.parentPort();
  return port ? endpointOf(port) : (globalThis as unknown as Comlink.Endpoint);
}

/** Serves `engine` on `endpoint`; while it is still opening, requests wait for it (and get its error if it fails). */
export function exposeEngine(engine: Lantern | Promise<Lantern>, endpoint: Comlink.Endpoint): void {
  const opened = Promise.resolve(engine);
  const encoder = new TextEncoder();
  const api: WorkerApi = {
    async request(r) {
      // the body's JSON, from the text the router writes once (the call log keeps its start): asked
      // for the body instead, the router copied it for this thread, then the copy was written out
      const response = await (await opened).request({ ...r, answerAsText: true });
      const json = encoder.encode(bodyJsonOf(response));
      return Comlink.transfer({ status: response.status, headers: response.headers, json }, [json.buffer as ArrayBuffer]);
    },
    waitForTasks: async () => (await opened).waitForTasks(),
    waitForEmbeddings: async () => (await opened).waitForEmbeddings(),
    snapshot: async () => (await opened).snapshot(),
    followState: async () => (await opened).follower?.state,
    async caughtUp(taskID) {
      const { follower } = await opened;
      if (!follower) throw new Error('this engine follows no server (open it with `follow`)');
      await follower.caughtUp(taskID);
    },
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

