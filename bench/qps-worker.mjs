// One of the two threads of the throughput measurement (compare.mjs): builds
// its own index of the corpus, says 'ready', and on 'go' runs the queries
// round and round for `ms` milliseconds, then reports how many it ran.
import { parentPort, workerData } from 'node:worker_threads';
import { makeCorpus } from './corpus.mjs';
import { flatDocument, loadLibraries } from './peers.mjs';

/** @type {{ libraryKey: string, descriptor: import('./corpus.mjs').CorpusDescriptor, queries: string[], ms: number, dist: string }} */
const { libraryKey, descriptor, queries, ms, dist } = workerData;
const port = parentPort;
if (!port) throw new Error('qps-worker.mjs runs in a worker thread (see compare.mjs)');
const [library] = await loadLibraries([libraryKey], dist);
const made = makeCorpus(descriptor);
const corpus = Object.assign(made, { documents: made.records.map((r) => flatDocument(r, made.peer)) });
const instance = await library.build(corpus);
for (const q of queries.slice(0, 10)) await instance.search(q); // warm-up

port.once('message', async () => {
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < ms) {
    for (let i = 0; i < queries.length && performance.now() - start < ms; i++) {
      const r = instance.search(queries[i]);
      if ('then' in r) await r;
      count++;
    }
  }
  port.postMessage({ type: 'done', count, ms: performance.now() - start });
});
port.postMessage({ type: 'ready' });
