// The engine, in a Web Worker, its data in IndexedDB.
import { idbStorage } from 'lantern-search';
import { startWorker } from 'lantern-search/worker';

startWorker({ storage: idbStorage('books') });
