// Related talks learnt from the visitor's own clicks. InstantSearch's
// insights middleware sends each click on a talk to the engine in the
// worker, through the installed search-insights whose requests the worker
// answers (the clicks never leave the browser), as one anonymous visitor
// whose token the browser keeps. Opening a talk shows InstantSearch's
// relatedProducts widget for it: the engine ranks first the talks the
// visitor clicked along with it, then talks like it by content.
import type { LiteClient } from 'algoliasearch/lite';
import type { InstantSearch } from 'instantsearch.js';
import type { InsightsProps } from 'instantsearch.js/es/middlewares';
import { relatedProducts } from 'instantsearch.js/es/widgets';
import { createInsightsClient } from 'search-insights';
import { lanternRequester, type RequestHandler } from '../src/requester.js';
import { RECOMMEND } from './recommend.js';

const VISITOR_KEY = 'lantern-demo-visitor';
/** Talks the panel lists. */
const RELATED_TALKS = 5;
/** After the models' freshness, the time they take to learn a click (a few events: well under this). */
const LEARNING_MS = 250;

export interface Talk { objectID: string; name: string; speakers: string[] }

/** The visitor's anonymous token, kept in localStorage: after a reload, the same visitor. */
function visitorToken(): string {
  try {
    let token = localStorage.getItem(VISITOR_KEY);
    if (!token) localStorage.setItem(VISITOR_KEY, (token = `anonymous-${crypto.randomUUID()}`));
    return token;
  } catch {
    return `anonymous-${crypto.randomUUID()}`; // storage refused (a locked-down browser): a visitor for this page only
  }
}

/**
 * InstantSearch's `insights` option: the visitor's clicks on talks recorded
 * by `engine` (`POST /1/events`); `onRecorded` is called after each request
 * it accepted (InstantSearch's own usage event at start is one too).
 */
export function visitorInsights(engine: RequestHandler, onRecorded: () => void): InsightsProps {
  const requester = lanternRequester(engine);
  const insightsClient = createInsightsClient(async (url, data) => {
    const { status } = await requester.send({ url, method: 'POST', headers: { 'content-type': 'application/json' }, data: JSON.stringify(data) });
    if (status === 200) onRecorded();
    return status === 200;
  });
  return {
    insightsClient,
    insightsInitParams: { userToken: visitorToken(), useCookie: false },
    // clicks only: views teach the models nothing, and each render would write one to IndexedDB
    onEvent: (event, client) => {
      if (event.insightsMethod === 'clickedObjectIDsAfterSearch' || event.insightsMethod === 'clickedObjectIDs') {
        client?.(event.insightsMethod, event.payload as never);
      }
    },
  };
}

/**
 * The Related talks panel: InstantSearch's relatedProducts widget for the
 * talk the visitor opened, asked again once the models have learnt a click.
 */
export class RelatedTalks {
  private widget: ReturnType<typeof relatedProducts<Talk>> | undefined;
  private opened: Talk | undefined;
  private relearn: ReturnType<typeof setTimeout> | undefined;
  /** The last widget swap: one at a time, so that a quick second one does not leave two widgets in the panel. */
  private asked = Promise.resolve();

  /** `client`: the search client, whose answers are cached (a talk's related talks change with clicks). */
  constructor(private readonly search: InstantSearch, private readonly client: LiteClient, private readonly panel: HTMLElement) {}

  /** Opens `talk`: the panel lists the talks related to it. */
  open(talk: Talk): void {
    this.opened = talk;
    this.panel.hidden = false;
    this.panel.querySelector('.related-to')!.textContent = talk.name;
    this.markOpened();
    this.ask();
  }

  /** A click was recorded: once the models have learnt it, the opened talk's related talks are asked again. */
  followClick(): void {
    clearTimeout(this.relearn);
    this.relearn = setTimeout(() => { if (this.opened) this.ask(); }, RECOMMEND.freshnessMs + LEARNING_MS);
  }

  /** The opened talk's card in the results is marked (call after the results render). */
  markOpened(): void {
    for (const card of document.querySelectorAll<HTMLElement>('#hits .talk')) card.classList.toggle('opened', card.dataset.objectId === this.opened?.objectID);
  }

  /** Asks for the opened talk's related talks. */
  private ask(): void {
    // the client answers a request it has seen from its cache: this one's answer may have changed
    this.asked = this.asked.then(() => this.client.clearCache()).then(() => this.swapWidget());
  }

  /** A relatedProducts widget for the opened talk in place of the last one (a widget asks once). */
  private swapWidget(): void {
    if (this.widget) this.search.removeWidgets([this.widget]);
    this.widget = relatedProducts<Talk>({
      container: this.panel.querySelector<HTMLElement>('.related-list')!,
      objectIDs: [this.opened!.objectID],
      limit: RELATED_TALKS,
      templates: {
        header: () => '',
        empty: (_, { html }) => html`<p class="empty">No related talk yet.</p>`,
        item: (hit, { html }) => html`
          <button type="button" class="related-talk" data-object-id=${hit.objectID} onClick=${() => this.open(hit)}>
            <span class="name">${hit.name}</span>
            <span class="speakers">${hit.speakers.join(', ')}</span>
          </button>`,
      },
    });
    this.search.addWidgets([this.widget]);
  }
}
