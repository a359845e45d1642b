// How the recommend models learn: the service's windows and minimums by
// default (/work/shared/spec/recommend.md, "How the models learn"); a small
// application lowers them through `Lantern.open({ recommend: {...} })`.
import { DAY_MS } from '../analytics/params.js';

/** Options of the recommend models (`EngineOptions.recommend`). */
export interface RecommendOptions {
  /** Days of events the models learn from (default 30, the service's window). */
  windowDays?: number;
  /**
   * Days the window grows to when an index has too few events in `windowDays` for a model's minimum (default 90).
   * Events are kept for the analytics' 90 days (src/analytics/events.ts): a longer window finds no older ones.
   */
  extendedWindowDays?: number;
  /** Conversion events (in the window) frequently-bought-together needs before it answers (default 1,000). */
  minBoughtTogetherEvents?: number;
  /** Click and conversion events related-products needs before events rank it (default 10,000; below, content alone answers). */
  minRelatedEvents?: number;
  /** Conversion events trending items and trending facets need before they answer (default 500). */
  minTrendingEvents?: number;
  /** Days counted as "recent" by trending models, compared with the days of the window before them (default 1). */
  trendingRecentDays?: number;
  /**
   * Milliseconds by which models follow new events at most (default 5,000):
   * events are folded in once per interval, so a burst of pushes costs one
   * increment, and a page shown a few seconds after a purchase reflects it
   * (the service retrains daily).
   */
  freshnessMs?: number;
}

export type RecommendSettings = Required<RecommendOptions>;

const DEFAULTS: RecommendSettings = {
  windowDays: 30,
  extendedWindowDays: 90,
  minBoughtTogetherEvents: 1000,
  minRelatedEvents: 10_000,
  minTrendingEvents: 500,
  trendingRecentDays: 1,
  freshnessMs: 5000,
};

/** The options with their defaults; a value out of range is refused (one line saying which). */
export function recommendSettings(options: RecommendOptions = {}): RecommendSettings {
  const out = { ...DEFAULTS };
  for (const [name, value] of Object.entries(options) as Array<[keyof RecommendSettings, unknown]>) {
    if (value === undefined) continue;
    if (!(name in DEFAULTS)) throw new TypeError(`recommend.${name} is not an option (options: ${Object.keys(DEFAULTS).join(', ')})`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`recommend.${name} must be a non-negative number`);
    out[name] = value;
  }
  if (out.extendedWindowDays < out.windowDays) out.extendedWindowDays = out.windowDays;
  return out;
}

/** The day (since the epoch, UTC) of a time. */
export const dayOf = (at: number) => Math.floor(at / DAY_MS);
