// The engine in a module worker, in memory (an import map does not reach
// into workers, so the path is written out).
import { startWorker } from './node_modules/lantern-search/dist/browser/worker.js';

startWorker();
