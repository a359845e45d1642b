// The engine, in a worker thread, on the file system.
import { workerData } from 'node:worker_threads';
import { startWorker } from 'lantern-search/worker';
import { fsStorage } from 'lantern-search/node';

await startWorker({ storage: fsStorage(workerData.dataDir) });
