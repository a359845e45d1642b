// One of the two threads of the throughput measurement (compare.mjs): builds
// its own index of the corpus, says 'ready', and on 'go' runs the queries
// round and round for `ms` milliseconds, then reports how many it ran.
import { parentPort, workerData } from 'node:worker_threads';
import { makeCorpus } from './corpus.mjs';
import { flatDocument, loadLibraries } from './peers.mjs';

const { libraryKey, descriptor, queries, ms, dist } = workerData;
const [library] = await loadLibraries([libraryKey], dist);
const corpus = makeCorpus(descriptor);
corpus.documents = corpus.records.map((r) => flatDocument(r, corpus.peer));
const instance = await library.build(corpus);
for (const q of queries.slice(0, 10)) await instance.search(q); // warm-up

parentPort.once('message', async () => {
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < ms) {
    for (let i = 0; i < queries.length && performance.now() - start < ms; i++) {
      const r = instance.search(queries[i]);
      if (r && typeof r.then === 'function') await r;
      count++;
    }
  }
  parentPort.postMessage({ type: 'done', count, ms: performance.now() - start });
});
parentPort.postMessage({ type: 'ready' });
