// Worker mode under Node's worker_threads: the same API through Comlink's node adapter.
import type { Worker } from 'node:worker_threads';
import { parentPort } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { connectWorker as connectEndpoint, startWorker as startOnEndpoint, type RemoteLantern } from './worker.js';
import type { LanternOptions } from './lantern.js';

export function startNodeWorker(options: LanternOptions = {}) {
  if (!parentPort) throw new Error('startNodeWorker must run inside a worker_threads Worker');
  return startOnEndpoint(options, nodeEndpoint(parentPort));
}

export function connectNodeWorker(worker: Worker): RemoteLantern {
  return connectEndpoint(nodeEndpoint(worker), () => { void worker.terminate(); });
}
