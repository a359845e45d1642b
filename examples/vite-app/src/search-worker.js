// The engine in a module worker, its data in IndexedDB.
import { idbStorage } from 'lantern-search';
import { startWorker } from 'lantern-search/worker';

startWorker({ storage: idbStorage('recipes') });
