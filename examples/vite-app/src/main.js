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
const status = elementById('status');
const list = elementById('hits');
const input = /** @type {HTMLInputElement} */ (elementById('query'));

const stored = await client.searchSingleIndex({ indexName: 'recipes', searchParams: { hitsPerPage: 0 } }).then((r) => r.nbHits ?? 0, () => 0);
if (stored === 0) await client.saveObjects({ indexName: 'recipes', objects: RECIPES, waitForTasks: true });
status.textContent = stored === 0 ? 'indexed' : 'opened from IndexedDB';
status.dataset.source = stored === 0 ? 'import' : 'indexeddb';

/** @param {string} query */
async function show(query) {
  const { hits } = await client.searchSingleIndex({ indexName: 'recipes', searchParams: { query } });
  list.replaceChildren(...hits.map((hit) => {
    const title = hit._highlightResult?.title;
    return Object.assign(document.createElement('li'), { innerHTML: isHighlightedText(title) ? title.value : '' });
  }));
}
input.addEventListener('input', () => show(input.value));
await show('');

/** The element of index.html with this id. @param {string} id */
function elementById(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no element #${id}`);
  return element;
}

/**
 * Whether an attribute's highlight is a text's (a string attribute's: it has
 * the highlighted `value`); an array's or an object's holds one per item.
 * @param {unknown} highlight
 * @returns {highlight is { value: string }}
 */
function isHighlightedText(highlight) {
  return typeof highlight === 'object' && highlight !== null && 'value' in highlight && typeof highlight.value === 'string';
}
