// Facet value search: the values of a searchable() facet that match
// `facetQuery` (same normalisation, typo and prefix rules as search), with
// counts among the records the other parameters select.
import { countValues, searchableFacet } from './facet-counts.js';
import { byValue } from '../index/facets.js';
import { highlightText } from './highlight.js';
import type { SearchParams } from '../index/params.js';
import { planQuery } from './query-plan.js';
import { runPlan, settingsOf } from './search.js';
import type { SearchIndex } from '../index/search-index.js';
import type { QueryDictionaries } from '../text/dictionaries.js';

/** `dictionaries`: the application's stop words, plurals and compounds (the built-in ones when absent). */
export function searchFacetValues(index: SearchIndex, facetName: string, params: SearchParams, dictionaries?: QueryDictionaries) {
  const started = performance.now();
  const setting = settingsOf(index, params);
  searchableFacet(facetName, setting);
  const { facetQuery = '', maxFacetHits = setting('maxFacetHits') ?? 10 } = params;
  const plan = planQuery(index, params, setting, 0, 0, dictionaries);
  runPlan(index, plan, setting);
  const counts = countValues(index, facetName, index.coreIndex.candidates());
  const words = index.coreIndex.prepareQuery({
    ...plan.core, query: facetQuery, queryType: 'prefixLast', excludedWords: 0, optionalWords: 0, phrasePairs: 0,
    noTypoWords: (plan.core.noTypoWords ?? 0) & ~plan.stopWords, lightWords: 0, stopWords: 0,
  });
  const allWords = words.length >= 31 ? -1 : (1 << words.length) - 1;
  const options = {
    preTag: setting('highlightPreTag'), postTag: setting('highlightPostTag'),
    words: words.map(([s, e]) => facetQuery.slice(s, e)),
  };
  const facetHits = [];
  for (const { value, count } of counts) {
    if (facetHits.length >= maxFacetHits) break;
    const highlighted = highlightText(index.coreIndex, value, options);
    const mask = highlighted.matchedWords.reduce((m, w) => m | (1 << options.words.indexOf(w)), 0);
    if (words.length > 0 && (mask & allWords) !== allWords) continue;
    facetHits.push({ value, highlighted: highlighted.value, count });
  }
  if (setting('sortFacetValuesBy') === 'alpha') facetHits.sort(byValue);
  return { facetHits, exhaustiveFacetsCount: true, processingTimeMS: Math.round(performance.now() - started) };
}
