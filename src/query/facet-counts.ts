// Facet counts, numeric facet stats and facet value search, over the
// candidate bitmap a search leaves in the core.
import type { Bitmap } from '../index/bitmap.js';
import { badRequest } from '../util/errors.js';
import { setOwn } from '../util/own-keys.js';
import { byValue, facetAttributes, type FacetAttribute, type FacetCount } from '../index/facets.js';
import type { SearchIndex } from '../index/search-index.js';
import type { Setting } from '../index/settings.js';

/** The attributes the `facets` parameter asks for: `*` = every declared one (not filterOnly). */
export function requestedFacets(facets: string[] | undefined, setting: Setting): FacetAttribute[] {
  if (!facets || facets.length === 0) return [];
  const declared = facetAttributes(setting('attributesForFaceting')).filter((a) => !a.filterOnly);
  if (facets.includes('*')) return declared;
  return declared.filter((a) => facets.includes(a.name));
}

/** The `max` values of `attribute` most held among `candidates`, with their counts, most frequent first (ties by value). */
export function countValues(index: SearchIndex, attribute: string, candidates: Bitmap, max = Infinity): FacetCount[] {
  return index.facets.facet(attribute).countAmong(candidates, max);
}

export function facetsOf(index: SearchIndex, attributes: FacetAttribute[], candidates: Bitmap, setting: Setting) {
  const max: number = setting('maxValuesPerFacet');
  const alpha = setting('sortFacetValuesBy') === 'alpha';
  const facets: Record<string, Record<string, number>> = {};
  const stats: Record<string, { min: number; max: number; avg: number; sum: number }> = {};
  for (const attribute of attributes) {
    let counts = countValues(index, attribute.name, candidates, max);
    if (alpha) counts = counts.sort(byValue);
    // The service leaves out a facet with no values among the candidates, rather than answering `{}` for it.
    if (counts.length > 0) setOwn(facets, attribute.name, Object.fromEntries(counts.map((c) => [c.value, c.count])));
    const numeric = numericStats(index, attribute.name, candidates);
    if (numeric) setOwn(stats, attribute.name, numeric);
  }
  return { facets, stats };
}

/** min/max/avg/sum of a facet's numeric values over the candidates (each record's values once). */
function numericStats(index: SearchIndex, attribute: string, candidates: Bitmap) {
  const stats = index.facets.numeric(attribute).statsAmong(candidates);
  return stats === undefined ? undefined : { min: stats.min, max: stats.max, avg: stats.sum / stats.count, sum: stats.sum };
}

/** The facet a facet search targets: declared with searchable(), else 400. */
export function searchableFacet(facetName: string, setting: Setting): FacetAttribute {
  const attribute = facetAttributes(setting('attributesForFaceting')).find((a) => a.name === facetName);
  if (!attribute?.searchable) {
    throw badRequest(`Cannot search in "${facetName}" facet as it is not declared with searchable() in attributesForFaceting`);
  }
  return attribute;
}
