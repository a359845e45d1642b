// Usage statistics: each name reads one figure off a time bucket. Integer
// statistics read the scope asked for (the app or one index); `max_qps` and
// `region_max_qps` are maps (server or region → value), as the spec says.
import type { Bucket } from './metrics.js';

export interface TimePoint<V = number> { t: number; v: V }

/** Nearest-rank percentile of a histogram of integer values (undefined when empty). */
export function percentile(histogram: Map<number, number>, p: number): number | undefined {
  const total = [...histogram.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const value of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(value)!;
    if (seen >= rank) return value;
  }
  return undefined;
}

type Reading = (bucket: Bucket) => number | undefined;

const average: Reading = (b) => (b.latencyCount ? Math.round(b.latencySum / b.latencyCount) : undefined);

/** Integer statistics; an undefined reading (no search in the bucket) leaves the point out. */
export const INTEGER_STATISTICS: Record<string, Reading> = {
  operations: (b) => b.operations,
  total_operations: (b) => b.operations,
  search_operations: (b) => b.searchOperations,
  total_search_operations: (b) => b.searchOperations,
  write_operations: (b) => b.writeOperations,
  total_write_operations: (b) => b.writeOperations,
  avg_processing_time: average,
  '90p_processing_time': (b) => percentile(b.latency, 90),
  '99p_processing_time': (b) => percentile(b.latency, 99),
  '99.9p_processing_time': (b) => percentile(b.latency, 99.9),
};

/** Statistics whose value is a map from server (or region) to the peak queries per second. */
export const MAP_STATISTICS = ['max_qps', 'region_max_qps'];

export const STATISTIC_NAMES = ['records', ...Object.keys(INTEGER_STATISTICS), ...MAP_STATISTICS];

export function integerSeries(points: Bucket[], reading: Reading): TimePoint[] {
  return points.flatMap((b) => {
    const v = reading(b);
    return v === undefined ? [] : [{ t: b.t, v }];
  });
}

/** Records stored at each point: the last sample at or before it (none before the first sample). */
export function recordSeries(points: Bucket[], before: Bucket[]): TimePoint[] {
  let last = before.findLast((b) => b.records !== undefined)?.records;
  return points.flatMap((b) => {
    last = b.records ?? last;
    return last === undefined ? [] : [{ t: b.t, v: last }];
  });
}

/** Per-point maps: name → the reading of that name's buckets. */
export function mapSeries(series: Map<string, Bucket[]>, reading: Reading): TimePoint<Record<string, number>>[] {
  const byTime = new Map<number, Record<string, number>>();
  for (const [name, points] of series) {
    for (const b of points) {
      const map = byTime.get(b.t) ?? {};
      map[name] = reading(b) ?? 0;
      byTime.set(b.t, map);
    }
  }
  return [...byTime].map(([t, v]) => ({ t, v }));
}
