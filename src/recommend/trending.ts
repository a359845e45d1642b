// Trending items and trending facet values: what converts more over the
// recent days than over the days of the window before them. An item's
// trend is its conversions per recent day minus its conversions per day
// before; only growing items trend, and scores are shares of the top trend.
import { dayOf } from './options.js';
import { RecentValues } from '../util/recent.js';

/** Trend lists kept, by what they were computed for (a shop asks for the same few again and again). */
const TRENDS_KEPT = 32;

export interface TrendingSnapshot { days: Array<[number, Array<[number, number]>]>; events: number }

/** What a trend is measured over: the recent days, and the days of the window before them. */
export interface TrendSpan { today: number; recentDays: number; firstDay: number }

export class ConversionDays {
  /** Per day: conversions per item. */
  private readonly days = new Map<number, Map<number, number>>();
  /** Conversions learnt (the models' minimum counts them). */
  events = 0;
  /**
   * Trends computed since the last conversion learnt, by the caller's key
   * for its groups and by span: computing one reads every day's counts (136
   * ms at 1M events), and they change only with a conversion, or a day.
   */
  private readonly computed = new RecentValues<string, Array<[unknown, number]>>(TRENDS_KEPT);

  add(item: number, at: number): void {
    this.events++;
    this.computed.clear();
    const day = dayOf(at);
    let counts = this.days.get(day);
    if (!counts) this.days.set(day, (counts = new Map()));
    counts.set(item, (counts.get(item) ?? 0) + 1);
  }

  /**
   * Each growing group's trend: its conversions per recent day minus its
   * conversions per day before (`groupsOf` gives the groups an item counts
   * for: itself, or its values of a facet), highest first. `key` names
   * what `groupsOf` gives (with what it reads: the index's version), so
   * that the same trends are computed once until a conversion is learnt.
   */
  trends<G>(span: TrendSpan, groupsOf: (item: number) => Iterable<G>, key: string): Array<[G, number]> {
    const cacheKey = JSON.stringify([key, span.today, span.recentDays, span.firstDay]);
    return this.computed.get(cacheKey, () => this.computeTrends(span, groupsOf)) as Array<[G, number]>;
  }

  private computeTrends<G>(span: TrendSpan, groupsOf: (item: number) => Iterable<G>): Array<[G, number]> {
    const recentStart = span.today - span.recentDays + 1;
    const firstDay = Math.min(recentStart, Math.max(span.firstDay, this.firstDay()));
    const baselineDays = Math.max(1, recentStart - firstDay);
    const totals = new Map<G, number>();
    for (const [day, counts] of this.days) {
      if (day < firstDay || day > span.today) continue;
      const weight = day >= recentStart ? 1 / span.recentDays : -1 / baselineDays;
      for (const [item, n] of counts) for (const g of groupsOf(item)) totals.set(g, (totals.get(g) ?? 0) + weight * n);
    }
    return [...totals].filter(([, trend]) => trend > 0).sort((a, b) => b[1] - a[1]);
  }

  private firstDay(): number {
    let first = Infinity;
    for (const day of this.days.keys()) first = Math.min(first, day);
    return first;
  }

  snapshot(): TrendingSnapshot {
    return { days: [...this.days].map(([day, counts]) => [day, [...counts]]), events: this.events };
  }

  static restore(s: TrendingSnapshot): ConversionDays {
    const out = new ConversionDays();
    for (const [day, counts] of s.days) out.days.set(day, new Map(counts));
    out.events = s.events;
    return out;
  }
}
