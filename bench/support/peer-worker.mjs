// A peer library built and asked in a worker thread of its own, so that it
// has a V8 heap of its own: asked in turns with Lantern in one heap, each
// engine's answers pay for the other's garbage and heap (a scavenge's time
// grows with the heap: MiniSearch's index of 20,000 long documents made
// every one of Lantern's 5-8 ms, bench/RESULTS.md 2026-12-03). The thread
// times each search itself, so the messages' cost is in neither figure.
//
// Messages in: { build: { library, dist, records, recordsName, settings } },
// then { query } per search, then { close: true }; out: { built: true },
// { ids, ms } per search, { closed: true }.
import { parentPort } from 'node:worker_threads';
import { recordSets } from '../corpus.mjs';
import { settleHeap } from '../measure.mjs';
import { flatDocument, loadLibraries, peerFor } from '../peers.mjs';

if (!parentPort) throw new Error('peer-worker.mjs runs in a worker thread');
const port = parentPort;
/** @type {import('../peers.mjs').Instance<string | Uint8Array> | undefined} */
let instance;

port.on('message', async (/** @type {any} */ message) => {
  if (message.build) {
    const { library, dist, records, recordsName, settings } = message.build;
    const [peer] = await loadLibraries([library], dist);
    const corpus = recordSets(records)[recordsName]();
    const peerSettings = peerFor(corpus.peer, settings);
    instance = await peer.build({ ...corpus, settings, peer: peerSettings, documents: corpus.records.map((r) => flatDocument(r, peerSettings)) });
    settleHeap();
    port.postMessage({ built: true });
  } else if (message.query !== undefined) {
    const started = performance.now();
    const { ids } = await /** @type {NonNullable<typeof instance>} */ (instance).search(message.query);
    port.postMessage({ ids, ms: performance.now() - started });
  } else if (message.close) {
    await instance?.close?.();
    port.postMessage({ closed: true });
  }
});
