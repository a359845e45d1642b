// The README's browser recipe, the worker: the engine on IndexedDB.
import { startWorker } from 'lantern-search/worker';
import { idbStorage } from 'lantern-search';

void startWorker({ storage: idbStorage('talks') });
