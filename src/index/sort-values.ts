// How records sort by an asc()/desc() entry: one value per record, missing
// values last in both directions.

export type SortValue = number | string | undefined;

/** The value a record sorts by for one asc()/desc() entry. */
export function sortValue(values: unknown[]): SortValue {
  const v = values[0];
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

/** Missing values sort last in both directions. */
export function compareValues(a: SortValue, b: SortValue, descending: boolean): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  const c = a < b ? -1 : a > b ? 1 : 0;
  return descending ? -c : c;
}
