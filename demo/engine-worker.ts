// The demo's module worker: Lantern on IndexedDB, served to the page through
// Comlink. The page may send requests at once: they wait for the engine to
// open, or fail with the reason it could not (another tab holding the
// database, for instance). Its recommend models learn from the visitor's
// clicks (./recommend.ts).
import { idbStorage } from '../src/storage/idb.js';
import { startWorker } from '../src/worker.js';
import { RECOMMEND } from './recommend.js';

// named "read-only": a second tab's engine, reading the database another tab writes to (the name, not
// the address: the service worker answers worker.js from its cache, whatever the query string)
const readOnly = (self as unknown as { name: string }).name === 'read-only';

startWorker({ storage: idbStorage('ted-talks-demo', { readOnly }), recommend: RECOMMEND }).catch(() => {
  // reported to the page: its requests reject with this error
});
