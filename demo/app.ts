// The demo page: Lantern in a module worker on IndexedDB, the TED talks
// imported on the first visit, and InstantSearch.js on top through the
// official lite client with `lanternRequester`. A click on a talk opens it:
// the Related talks panel (./related.ts) learns from the visitor's clicks.
import { liteClient, type LiteClient } from 'algoliasearch/lite';
import instantsearch from 'instantsearch.js';
import {
  clearRefinements, configure, currentRefinements, hits, menu, pagination, refinementList, searchBox, sortBy, stats,
} from 'instantsearch.js/es/widgets';
import { lanternRequester } from '../src/requester.js';
import { connectWorker, type RemoteLantern } from '../src/worker-client.js';
import { importDataset, inventory, SUGGESTIONS, TALKS, TALKS_NEWEST_FIRST, TALKS_OLDEST_FIRST } from './dataset.js';
import { RelatedTalks, visitorInsights, type Talk } from './related.js';
import { querySuggestions, yearRange } from './widgets.js';

const element = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** The page's state for people (the status line) and for the end-to-end tests (data attributes on <body>). */
function report(state: 'starting' | 'importing' | 'ready' | 'error', text: string, source?: 'indexeddb' | 'import'): void {
  document.body.dataset.state = state;
  if (source) document.body.dataset.source = source;
  element('status').textContent = text;
}

function startEngine(readOnly = false): RemoteLantern {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: readOnly ? 'read-only' : 'engine' });
  worker.addEventListener('error', (event) => report('error', event.message || 'The search worker failed to load.'));
  return connectWorker(worker);
}

function showProgress(done: number, total: number): void {
  element('import').hidden = false;
  const bar = element<HTMLProgressElement>('import-bar');
  bar.max = total;
  bar.value = done;
  element('import-text').textContent = `Importing the TED talks into IndexedDB: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} records`;
}

const formatDate = (timestamp: number) => new Date(timestamp * 1000).toLocaleDateString('en', { year: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * The embedder of the server's talks, when it has one (`lantern serve --demo
 * --demo-vectors`): their vectors and the model that embeds queries are the
 * server's, not the page's.
 */
async function serverEmbedder(): Promise<string | undefined> {
  try {
    const response = await fetch(new URL(`/1/indexes/${TALKS}/settings`, location.origin));
    const { embedders } = response.ok ? await response.json() as { embedders?: Record<string, unknown> } : {};
    return Object.keys(embedders ?? {})[0];
  } catch {
    return undefined; // offline, or a server that is not lantern serve
  }
}

type SearchRequests = Array<{ indexName: string; params?: Record<string, unknown> }>;

/**
 * The words/meaning slider: at 0 every search is the worker's (keywords,
 * offline); above it the searches of the talks (by relevance) go to the
 * server as hybrid searches with that semanticRatio. Sorts by date and the
 * suggestions stay in the worker.
 */
function meaningSlider(local: LiteClient, embedder: string, onChange: () => void): LiteClient {
  const server = liteClient('lantern-demo', 'search-only', {
    hosts: [{ url: location.host, protocol: location.protocol.replace(':', '') as 'http' | 'https', accept: 'read' }],
    // the server waits up to 2 s for the query's vector before answering by keywords: the client's default read timeout is those 2 s
    timeouts: { connect: 2000, read: 6000, write: 6000 },
  });
  const slider = element<HTMLInputElement>('meaning-ratio');
  element('meaning').hidden = false;
  slider.addEventListener('input', () => {
    document.body.dataset.semanticRatio = slider.value;
    onChange();
  });
  const search = ((requests: SearchRequests) => {
    const semanticRatio = Number(slider.value);
    if (semanticRatio === 0 || !Array.isArray(requests) || requests.some((r) => r.indexName !== TALKS)) return local.search(requests);
    // hybrid is Lantern's (and Meilisearch's) parameter: the official client's types do not know it
    const hybrid = requests.map((r) => ({ ...r, params: { ...r.params, hybrid: { embedder, semanticRatio } } }));
    return server.search(hybrid as Parameters<LiteClient['search']>[0]);
  }) as LiteClient['search'];
  return { ...local, search };
}

/** `readOnly`: the engine of a second tab, which cannot record the visitor's clicks (the related talks are those it opened with). */
function startSearch(engine: RemoteLantern, withSuggestions: boolean, embedder: string | undefined, readOnly: boolean): void {
  const client = liteClient('lantern-demo', 'search-only', { requester: lanternRequester(engine) });
  const onMeaningChange = () => search.refresh();
  const searchClient = embedder ? meaningSlider(client, embedder, onMeaningChange) : client;
  const insights = readOnly ? false : visitorInsights(engine, () => related.followClick());
  // routing: the query, refinements, page and sort live in the address (back and forward work, a link shares a search)
  const search = instantsearch({ indexName: TALKS, searchClient, routing: true, insights, future: { preserveSharedStateOnUnmount: true } });
  const related = new RelatedTalks(search, client, element('related'));
  search.addWidgets([
    configure({ hitsPerPage: 8, distinct: false, attributesToSnippet: ['description:30'], snippetEllipsisText: '…' }),
    searchBox({ container: '#searchbox', placeholder: 'Search talks, speakers, events, tags… (typos welcome)', autofocus: true, showLoadingIndicator: false }),
    stats({
      container: '#stats',
      templates: { text: ({ nbHits, processingTimeMS }, { html }) => html`<strong>${nbHits.toLocaleString('en')}</strong> ${nbHits === 1 ? 'talk' : 'talks'} found in ${processingTimeMS} ms` },
    }),
    sortBy({
      container: '#sort',
      items: [
        { label: 'Most relevant', value: TALKS },
        { label: 'Newest first', value: TALKS_NEWEST_FIRST },
        { label: 'Oldest first', value: TALKS_OLDEST_FIRST },
      ],
    }),
    currentRefinements({ container: '#current' }),
    clearRefinements({ container: '#clear', templates: { resetLabel: 'Clear filters' } }),
    refinementList({ container: '#tags', attribute: 'tags', searchable: true, searchablePlaceholder: 'Search tags', showMore: true, limit: 8, showMoreLimit: 30 }),
    refinementList({ container: '#speakers', attribute: 'speakers', searchable: true, searchablePlaceholder: 'Search speakers', showMore: true, limit: 6, showMoreLimit: 30 }),
    menu({ container: '#events', attribute: 'event_name', sortBy: ['count:desc', 'name:asc'], showMore: true, limit: 6, showMoreLimit: 30 }),
    yearRange({ container: element('dates'), attribute: 'date' }),
    hits({
      container: '#hits',
      templates: {
        empty: ({ query }, { html }) => html`<p class="empty">No talk matches “${query}”.</p>`,
        // a click anywhere on the card is a click event (the insights middleware's) and opens the talk
        item: (hit, { html, components }) => html`
          <article class="talk" data-object-id=${hit.objectID} onClick=${() => related.open(hit as unknown as Talk)}>
            <h2><a href="https://www.ted.com/talks/${hit.slug}" target="_blank" rel="noopener">${components.Highlight({ hit, attribute: 'name' })}</a></h2>
            <p class="meta">
              <span class="speakers">${components.Highlight({ hit, attribute: 'speakers' })}</span>
              <span>${hit.event_name}</span>
              ${typeof hit.date === 'number' ? html`<span>${formatDate(hit.date)}</span>` : ''}
            </p>
            <p class="description">${components.Snippet({ hit, attribute: 'description' })}</p>
            <ul class="tags">${(hit.tags as string[]).slice(0, 6).map((tag) => html`<li>${tag}</li>`)}</ul>
          </article>`,
      },
    }),
    pagination({ container: '#pagination', padding: 2, showFirst: false, showLast: false }),
  ]);
  // the suggestions index is optional: without one the widget is never mounted and its box stays hidden
  if (withSuggestions) search.addWidgets([querySuggestions({ container: element('suggestions'), client, indexName: SUGGESTIONS })]);
  // with nothing found, the facet panels and the pagination have nothing to offer: hidden (style.css)
  search.on('render', () => {
    element('app').dataset.empty = String((search.helper?.lastResults?.nbHits ?? 0) === 0);
    related.markOpened();
  });
  search.start();
}

function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('lantern demo: no offline mode:', e));
}

function showConnectivity(): void {
  const badge = element('network');
  const update = () => {
    badge.textContent = navigator.onLine ? 'online' : 'offline';
    badge.classList.toggle('offline', !navigator.onLine);
  };
  addEventListener('online', update);
  addEventListener('offline', update);
  update();
}

async function main(): Promise<void> {
  registerServiceWorker();
  showConnectivity();
  report('starting', 'Starting the search engine…');
  const started = performance.now();
  let engine = startEngine();
  let readOnly = false;
  const found = await inventory(engine).catch(async (e: Error) => {
    if (!/already open/.test(e.message)) throw e;
    // another tab writes to the database: this one searches what the database holds, read-only
    await engine.close().catch(() => {}); // it never opened: its worker goes
    readOnly = true;
    engine = startEngine(true);
    return inventory(engine);
  });
  const { imported } = found;
  let { indexes } = found;
  if (readOnly && !imported) throw new Error('The demo is importing the talks in another tab: reload this one once it is done.');
  if (!imported) {
    report('importing', 'First visit: importing the dataset…');
    await importDataset(engine, showProgress);
    indexes = (await inventory(engine)).indexes;
    element('import').hidden = true;
  }
  startSearch(engine, indexes.has(SUGGESTIONS), readOnly ? undefined : await serverEmbedder(), readOnly);
  element('app').hidden = false;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (readOnly) {
    document.body.dataset.readOnly = 'true';
    report('ready', `Read-only: the demo is open in another tab, which writes to the database; opened in ${seconds} s`, 'indexeddb');
  } else if (imported) report('ready', `Opened from IndexedDB in ${seconds} s`, 'indexeddb');
  else report('ready', `Imported into IndexedDB in ${seconds} s`, 'import');
}

main().catch((e) => {
  element('import').hidden = true;
  report('error', String(e?.message ?? e));
});
