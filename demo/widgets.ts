// The demo's two custom widgets, built on InstantSearch's connectors: a date
// range chosen by year, and query suggestions from a suggestions index.
import { connectRange, connectSearchBox } from 'instantsearch.js/es/connectors';
import type { LiteClient } from 'algoliasearch/lite';

const yearOf = (timestamp: number) => new Date(timestamp * 1000).getUTCFullYear();
const startOfYear = (year: number) => Date.UTC(year, 0, 1) / 1000;
const endOfYear = (year: number) => startOfYear(year + 1) - 1;

function yearSelect(label: string, years: number[], selected: number): HTMLLabelElement {
  const wrapper = document.createElement('label');
  wrapper.className = 'year-select';
  wrapper.append(label);
  const select = document.createElement('select');
  select.append(...years.map((year) => new Option(String(year), String(year), false, year === selected)));
  wrapper.append(select);
  return wrapper;
}

/** A range refinement of a Unix-time attribute by whole years: two selects, "from" and "to". */
export const yearRange = connectRange<{ container: HTMLElement }>((state, isFirstRender) => {
  const { container } = state.widgetParams;
  if (isFirstRender) container.classList.add('year-range');
  const { min, max } = state.range;
  if (!state.canRefine || min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max)) {
    container.replaceChildren();
    return;
  }
  const [firstYear, lastYear] = [yearOf(min), yearOf(max)];
  const years = Array.from({ length: lastYear - firstYear + 1 }, (_, i) => firstYear + i);
  const [start, end] = state.start;
  const from = yearSelect('From', years, Number.isFinite(start) ? yearOf(start as number) : firstYear);
  const to = yearSelect('to', years, Number.isFinite(end) ? yearOf(end as number) : lastYear);
  const apply = () => {
    let [fromYear, toYear] = [from, to].map((label) => Number(label.querySelector('select')!.value));
    if (fromYear > toYear) [fromYear, toYear] = [toYear, fromYear];
    state.refine([
      fromYear === firstYear ? undefined : Math.max(startOfYear(fromYear), min),
      toYear === lastYear ? undefined : Math.min(endOfYear(toYear), max),
    ]);
  };
  from.addEventListener('change', apply);
  to.addEventListener('change', apply);
  container.replaceChildren(from, to);
});

interface Suggestion { query: string; popularity: number }

/**
 * Suggested queries that start like the one being typed, from `indexName`
 * (records `{ query, popularity }`); a click searches for one. Hidden while
 * there is nothing to suggest.
 */
export const querySuggestions = connectSearchBox<{ container: HTMLElement; client: LiteClient; indexName: string }>((state, isFirstRender) => {
  const { container, client, indexName } = state.widgetParams;
  const widget = container as HTMLElement & { lastQuery?: string };
  if (isFirstRender) {
    container.classList.add('suggestions');
    container.hidden = true;
  }
  const query = state.query.trim();
  if (query === widget.lastQuery) return;
  widget.lastQuery = query;
  if (!query) {
    container.hidden = true;
    return;
  }
  client.search<Suggestion>({ requests: [{ indexName, query, hitsPerPage: 6, attributesToHighlight: [] }] }).then(({ results }) => {
    if (widget.lastQuery !== query) return; // a later keystroke has its own answer on the way
    const found: Suggestion[] = 'hits' in results[0] ? results[0].hits : [];
    const hits = found.filter((hit) => hit.query.toLowerCase() !== query.toLowerCase());
    container.hidden = hits.length === 0;
    const buttons = hits.map((hit) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'suggestion';
      button.textContent = hit.query;
      button.title = `${hit.popularity} talks`;
      button.addEventListener('click', () => state.refine(hit.query));
      return button;
    });
    const label = document.createElement('span');
    label.className = 'suggestions-label';
    label.textContent = 'Try';
    container.replaceChildren(label, ...buttons);
  }, () => { container.hidden = true; });
});
