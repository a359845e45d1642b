// The README's browser recipe, the page: it only talks to the worker.
import { connectWorker } from 'lantern-search/client';

const engine = connectWorker(new Worker(new URL('./search-worker.js', import.meta.url), { type: 'module' }));
const client = engine.client();
await client.saveObjects({ indexName: 'talks', objects: [{ objectID: '2652', name: 'Are you a giver or a taker?' }], waitForTasks: true });
const { hits } = await client.searchSingleIndex<{ name: string }>({ indexName: 'talks', searchParams: { query: 'gvier' } });
document.title = hits[0]?.name ?? '';
