// Facet counts, numeric facet stats and facet value search, over the
// candidate bitmap a search leaves in the core.
import { countIn, type Bitmap } from '../index/bitmap.js';
import { badRequest } from '../util/errors.js';
import { setOwn } from '../util/own-keys.js';
import { facetAttributes, type FacetAttribute } from '../index/facets.js';
import type { SearchIndex } from '../index/search-index.js';
import type { Setting } from '../index/settings.js';

export interface FacetCount { value: string; count: number }

/** The attributes the `facets` parameter asks for: `*` = every declared one (not filterOnly). */
export function requestedFacets(facets: string[] | undefined, setting: Setting): FacetAttribute[] {
  if (!facets || facets.length === 0) return [];
  const declared = facetAttributes(setting('attributesForFaceting')).filter((a) => !a.filterOnly);
  if (facets.includes('*')) return declared;
  return declared.filter((a) => facets.includes(a.name));
}

/** Values of `attribute` among `candidates` with their counts, most frequent first. */
export function countValues(index: SearchIndex, attribute: string, candidates: Bitmap): FacetCount[] {
  const out: FacetCount[] = [];
  for (const [value, list] of index.facets.facet(attribute).values) {
    const count = countIn(candidates, list.ids, list.length);
    if (count > 0) out.push({ value, count });
  }
  return out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

export function facetsOf(index: SearchIndex, attributes: FacetAttribute[], candidates: Bitmap, setting: Setting) {
  const max: number = setting('maxValuesPerFacet');
  const alpha = setting('sortFacetValuesBy') === 'alpha';
  const facets: Record<string, Record<string, number>> = {};
  const stats: Record<string, { min: number; max: number; avg: number; sum: number }> = {};
  for (const attribute of attributes) {
    let counts = countValues(index, attribute.name, candidates).slice(0, max);
    if (alpha) counts = counts.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    // The service leaves out a facet with no values among the candidates, rather than answering `{}` for it.
    if (counts.length > 0) setOwn(facets, attribute.name, Object.fromEntries(counts.map((c) => [c.value, c.count])));
    const numeric = numericStats(index, attribute.name, candidates);
    if (numeric) setOwn(stats, attribute.name, numeric);
  }
  return { facets, stats };
}

/** min/max/avg/sum of a facet's numeric values over the candidates (each record's values once). */
function numericStats(index: SearchIndex, attribute: string, candidates: Bitmap) {
  const column = index.facets.numeric(attribute);
  let min = Infinity, max = -Infinity, sum = 0, count = 0;
  for (let i = 0; i < column.length; i++) {
    const id = column.ids[i];
    if ((candidates[id >>> 5] & (1 << (id & 31))) === 0) continue;
    const n = column.numbers[i];
    if (n < min) min = n;
    if (n > max) max = n;
    sum += n;
    count++;
  }
  return count === 0 ? undefined : { min, max, avg: sum / count, sum };
}

/** The facet a facet search targets: declared with searchable(), else 400. */
export function searchableFacet(facetName: string, setting: Setting): FacetAttribute {
  const attribute = facetAttributes(setting('attributesForFaceting')).find((a) => a.name === facetName);
  if (!attribute?.searchable) {
    throw badRequest(`Cannot search in "${facetName}" facet as it is not declared with searchable() in attributesForFaceting`);
  }
  return attribute;
}
