// InstantSearch.js on Lantern: the official lite client's requester answers
// from the engine in a worker. The first visit indexes the books into
// IndexedDB; later visits find them there.
import { liteClient } from 'algoliasearch/lite';
import instantsearch from 'instantsearch.js';
import { hits, searchBox } from 'instantsearch.js/es/widgets';
import { connectWorker, lanternRequester } from 'lantern-search/client';

const BOOKS = [
  { objectID: '1', title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' },
  { objectID: '2', title: 'The Dispossessed', author: 'Ursula K. Le Guin' },
  { objectID: '3', title: 'Parable of the Sower', author: 'Octavia E. Butler' },
  { objectID: '4', title: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin' },
];

const status = /** @type {HTMLElement} */ (document.querySelector('#status')); // index.html has it
const engine = connectWorker(new Worker(new URL('./search-worker.js', import.meta.url), { type: 'module' }));
const client = engine.client();
const stored = await client.searchSingleIndex({ indexName: 'books', searchParams: { hitsPerPage: 0 } }).then((r) => r.nbHits ?? 0, () => 0);
if (stored === 0) await client.saveObjects({ indexName: 'books', objects: BOOKS, waitForTasks: true });
status.textContent = stored === 0 ? 'indexed the books into IndexedDB' : 'opened the books from IndexedDB';
status.dataset.source = stored === 0 ? 'import' : 'indexeddb';

const search = instantsearch({ indexName: 'books', searchClient: liteClient('APP', 'KEY', { requester: lanternRequester(engine) }) });
search.addWidgets([
  searchBox({ container: '#searchbox', placeholder: 'Search books (typos welcome)' }),
  hits({ container: '#hits', templates: { item: (hit, { html, components }) => html`<p class="hit">${components.Highlight({ hit, attribute: 'title' })} <small>${hit.author}</small></p>` } }),
]);
search.start();
