// Vite bundles the worker from `new Worker(new URL(...), { type: 'module' })`;
// the page imports only lantern-search/client.
import { connectWorker } from 'lantern-search/client';

const RECIPES = [
  { objectID: '1', title: 'Lemon risotto', cuisine: 'Italian' },
  { objectID: '2', title: 'Miso ramen', cuisine: 'Japanese' },
  { objectID: '3', title: 'Shakshuka', cuisine: 'North African' },
];

const engine = connectWorker(new Worker(new URL('./search-worker.js', import.meta.url), { type: 'module' }));
const client = engine.client();
const status = document.querySelector('#status');
const list = document.querySelector('#hits');

const stored = await client.searchSingleIndex({ indexName: 'recipes', searchParams: { hitsPerPage: 0 } }).then((r) => r.nbHits ?? 0, () => 0);
if (stored === 0) await client.saveObjects({ indexName: 'recipes', objects: RECIPES, waitForTasks: true });
status.textContent = stored === 0 ? 'indexed' : 'opened from IndexedDB';
status.dataset.source = stored === 0 ? 'import' : 'indexeddb';

async function show(query) {
  const { hits } = await client.searchSingleIndex({ indexName: 'recipes', searchParams: { query } });
  list.replaceChildren(...hits.map((hit) => Object.assign(document.createElement('li'), { innerHTML: hit._highlightResult.title.value })));
}
document.querySelector('#query').addEventListener('input', (e) => show(e.target.value));
await show('');
