// The demo's module worker: Lantern on IndexedDB, served to the page through
// Comlink. It tells the page when the engine is open, or why it could not
// open (another tab holding the database, for instance).
import { idbStorage } from '../src/storage/idb.js';
import { startWorker } from '../src/worker.js';

const DATABASE = 'ted-talks-demo';

try {
  await startWorker({ storage: idbStorage(DATABASE) });
  postMessage({ lanternReady: true });
} catch (e) {
  postMessage({ lanternStartError: String((e as Error)?.message ?? e) });
}
