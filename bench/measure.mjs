// Measuring: a settled heap (forced collections), percentiles, medians.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = globalThis.gc ?? vm.runInNewContext('gc');

/** process.memoryUsage() after three full collections. */
export function settleHeap() {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage();
}

/**
 * @param {ArrayLike<number>} sorted ascending
 * @param {number} p in [0, 1]
 * @returns {number}
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/**
 * @param {Iterable<number>} values
 * @returns {number}
 */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * @param {Iterable<number>} samples
 */
export function stats(samples) {
  const sorted = Float64Array.from(samples).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    mean: sum / sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1],
  };
}
