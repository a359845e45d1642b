// Learning from the event store: a whole training (every index's models
// anew, each with its window) and increments (the events received since),
// both in slices of a few milliseconds with a turn of the event loop
// between them, so searches waiting are answered meanwhile.
import type { InsightEvent } from '../analytics/events.js';
import { yieldTurn } from '../util/turns.js';
import { IndexModels } from './index-models.js';
import { DAY_MS } from '../analytics/params.js';
import type { RecommendSettings } from './options.js';

/** Milliseconds of learning between two turns of the event loop. */
const SLICE_MS = 8;

/** Calls `each` on every event, pausing every SLICE_MS. */
async function inSlices(events: readonly InsightEvent[], each: (e: InsightEvent) => void): Promise<void> {
  let sliceStart = performance.now();
  for (let i = 0; i < events.length; i++) {
    each(events[i]);
    if ((i & 255) === 255 && performance.now() - sliceStart > SLICE_MS) {
      await yieldTurn();
      sliceStart = performance.now();
    }
  }
}

/** Events of the last `days` per index: conversions and interactions (clicks and conversions) on records. */
interface Counts { conversions: number; interactions: number }

/**
 * Each index's window start: the last `windowDays`, or `extendedWindowDays`
 * when those days hold fewer events than a model's minimum.
 */
async function windowsOf(events: readonly InsightEvent[], settings: RecommendSettings, now: number): Promise<Map<string, number>> {
  const recent = now - settings.windowDays * DAY_MS;
  const counts = new Map<string, Counts>();
  await inSlices(events, (e) => {
    if (e.at < recent || !e.objectIDs || e.eventType === 'view') return;
    let c = counts.get(e.index);
    if (!c) counts.set(e.index, (c = { conversions: 0, interactions: 0 }));
    c.interactions++;
    if (e.eventType === 'conversion') c.conversions++;
  });
  const windows = new Map<string, number>();
  const extended = now - settings.extendedWindowDays * DAY_MS;
  for (const e of events) {
    if (windows.has(e.index)) continue;
    const c = counts.get(e.index) ?? { conversions: 0, interactions: 0 };
    const enough = c.conversions >= Math.max(settings.minBoughtTogetherEvents, settings.minTrendingEvents) && c.interactions >= settings.minRelatedEvents;
    windows.set(e.index, enough ? recent : extended);
  }
  return windows;
}

/** Every index's models, learnt anew from `events`. */
export async function trainAll(events: readonly InsightEvent[], settings: RecommendSettings, now: number): Promise<Map<string, IndexModels>> {
  const windows = await windowsOf(events, settings, now);
  const models = new Map<string, IndexModels>();
  for (const [index, since] of windows) models.set(index, new IndexModels(since));
  await inSlices(events, (e) => models.get(e.index)!.learn(e));
  return models;
}

/** Learns `events` into `models` (an index seen for the first time gets the default window). */
export function learnNew(models: Map<string, IndexModels>, events: readonly InsightEvent[], settings: RecommendSettings, now: number): Promise<void> {
  return inSlices(events, (e) => {
    let m = models.get(e.index);
    if (!m) models.set(e.index, (m = new IndexModels(now - settings.windowDays * DAY_MS)));
    m.learn(e);
  });
}
