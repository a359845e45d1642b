// Filter expressions recommend builds from the viewed item's values.

/** A facet value as a filter expression writes it: quoted, its quotes and backslashes escaped. */
export function quoteFacetValue(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** `facet` equal to one of `values` (or, `negative`, to none of them). */
export function facetFilter(facet: string, values: string[], negative: boolean): string {
  if (negative) return values.map((v) => `NOT ${facet}:${quoteFacetValue(v)}`).join(' AND ');
  return `(${values.map((v) => `${facet}:${quoteFacetValue(v)}`).join(' OR ')})`;
}
