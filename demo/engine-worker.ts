// The demo's module worker: Lantern on IndexedDB, served to the page through
// Comlink. The page may send requests at once: they wait for the engine to
// open, or fail with the reason it could not (another tab holding the
// database, for instance).
import { idbStorage } from '../src/storage/idb.js';
import { startWorker } from '../src/worker.js';

startWorker({ storage: idbStorage('ted-talks-demo') }).catch(() => {
  // reported to the page: its requests reject with this error
});
