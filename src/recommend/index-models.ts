// The models of one index, learnt from its insight events since the start
// of its window: frequently bought together (a user's conversions of one
// day), related products (a user's clicks and conversions), and the
// conversions per day trending models read. Items are numbered in the order
// first seen (the models hold numbers, not objectIDs).
import type { InsightEvent } from '../analytics/events.js';
import { CoInteractions, type CoInteractionsSnapshot } from './co-interactions.js';
import { ConversionDays, type TrendingSnapshot } from './trending.js';
import { dayOf } from './options.js';

export interface IndexModelsSnapshot {
  since: number;
  items: string[];
  boughtTogether: CoInteractionsSnapshot;
  related: CoInteractionsSnapshot;
  trending: TrendingSnapshot;
}

export class IndexModels {
  private readonly itemIds = new Map<string, number>();
  readonly items: string[] = [];

  /** `since`: events before this time are outside the window. */
  constructor(
    readonly since: number,
    readonly boughtTogether = new CoInteractions(),
    readonly related = new CoInteractions(),
    readonly conversions = new ConversionDays(),
  ) {}

  /** Learns one event of this index (one outside the window, or about facet values, teaches nothing). */
  learn(event: InsightEvent): void {
    if (event.at < this.since || !event.objectIDs || event.eventType === 'view') return;
    const converted = event.eventType === 'conversion';
    const session = `${event.userToken}\u0000${dayOf(event.at)}`;
    for (const objectID of event.objectIDs) {
      const item = this.idOf(objectID);
      this.related.add(event.userToken, item);
      if (!converted) continue;
      this.boughtTogether.add(session, item);
      this.conversions.add(item, event.at);
    }
  }

  /** The number of an item the models know, or undefined. */
  known(objectID: string): number | undefined { return this.itemIds.get(objectID); }

  private idOf(objectID: string): number {
    let id = this.itemIds.get(objectID);
    if (id === undefined) {
      id = this.items.length;
      this.itemIds.set(objectID, id);
      this.items.push(objectID);
    }
    return id;
  }

  snapshot(): IndexModelsSnapshot {
    return {
      since: this.since, items: this.items,
      boughtTogether: this.boughtTogether.snapshot(), related: this.related.snapshot(), trending: this.conversions.snapshot(),
    };
  }

  static restore(s: IndexModelsSnapshot): IndexModels {
    const out = new IndexModels(s.since, CoInteractions.restore(s.boughtTogether), CoInteractions.restore(s.related), ConversionDays.restore(s.trending));
    for (const objectID of s.items) out.idOf(objectID);
    return out;
  }
}
