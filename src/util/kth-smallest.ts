// The k-th smallest of many numbers without sorting them: the automatic
// radius of a search around a point is the distance of the 1,000th nearest
// record, and sorting every record's distance took ~50 ms a query among
// 135k cities.

/**
 * The `k`-th smallest of `values` (1-based, 1 <= k <= length), which it
 * reorders: Hoare's selection, the middle value of each range as pivot.
 */
export function kthSmallest(values: Float64Array, k: number): number {
  const target = k - 1;
  let lo = 0, hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1];
    let i = lo, j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i]; values[i] = values[j]; values[j] = t;
        i++; j--;
      }
    }
    // [lo, j] holds values <= pivot, [i, hi] values >= pivot, and any between them equal it
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target];
  }
  return values[target];
}
