// The main thread stays free: the engine answers from a worker_threads
// Worker, through the same typed client and official requester.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { algoliasearch } from 'algoliasearch';
import { lanternRequester } from 'lantern-search';
import { connectWorker } from 'lantern-search/worker';

// the data in a folder of the system's temp directory (an app keeps it with its other data)
const dataDir = process.argv[2] ?? join(tmpdir(), 'lantern-example-worker-threads');
const engine = connectWorker(new Worker(new URL('./engine-worker.mjs', import.meta.url), { workerData: { dataDir } }));
const client = engine.client();
await client.saveObjects({ indexName: 'books', objects: [{ objectID: '1', title: 'The Left Hand of Darkness' }, { objectID: '2', title: 'The Dispossessed' }], waitForTasks: true });
const typed = await client.searchSingleIndex({ indexName: 'books', searchParams: { query: 'dispossesed' } });

// the official client, answered by the worker's engine
const official = algoliasearch('APP', 'KEY', { requester: lanternRequester(engine) });
const viaOfficial = await official.searchSingleIndex({ indexName: 'books', searchParams: { query: 'darknes' } });
console.log(JSON.stringify({ typed: typed.hits[0]?.title, official: viaOfficial.hits[0]?.title }));
await engine.close();
