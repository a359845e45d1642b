// A user's affinities and the re-ranking they drive. Each of the user's
// events whose (eventName, eventType) the strategy scores adds
// eventScore × facetScore to every (facet, value) of the objects it names
// (or of the `facet:value` filters it names), for the facets the strategy
// scores. A hit's personal score is the sum of its (facet, value) affinities.
import type { InsightEvent } from '../analytics/events.js';
import type { AnalyticsState } from '../analytics/state.js';
import type { Json, SearchRecord } from '../index/records.js';
import { own } from '../util/own-keys.js';
import type { Strategy } from './strategy.js';

/** facet → value → affinity */
export type Affinities = Record<string, Record<string, number>>;

export interface Profile { userToken: string; lastEventAt: string; scores: Affinities }

type RecordOf = (index: string, objectID: string) => SearchRecord | undefined;

/** A record's values at a path (`brand`, `meta.color`), as strings; objects left out. */
export function valuesAt(record: SearchRecord, path: string): string[] {
  let value: Json | undefined = record;
  for (const part of path.split('.')) value = value && typeof value === 'object' && !Array.isArray(value) ? own(value, part) as Json | undefined : undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v) => v !== undefined && v !== null && typeof v !== 'object').map(String);
}

function eventScore(strategy: Strategy, event: InsightEvent): number {
  return strategy.eventsScoring.find((e) => e.eventName === event.eventName && e.eventType === event.eventType)?.score ?? 0;
}

function add(scores: Affinities, facet: string, value: string, amount: number): void {
  (scores[facet] ??= {})[value] = (scores[facet][value] ?? 0) + amount;
}

function userEvents(state: AnalyticsState, userToken: string): InsightEvent[] {
  const resetAt = state.profileResets.get(userToken) ?? -Infinity;
  return state.store.eventsOf(userToken).filter((e) => e.receivedAt > resetAt);
}

export function profileOf(state: AnalyticsState, userToken: string, recordOf: RecordOf): Profile | undefined {
  const strategy = state.strategy;
  const events = userEvents(state, userToken);
  if (!strategy || events.length === 0) return undefined;
  const scores: Affinities = {};
  for (const event of events) {
    const points = eventScore(strategy, event);
    if (points === 0) continue;
    for (const { facetName, score } of strategy.facetsScoring) {
      for (const objectID of event.objectIDs ?? []) {
        const record = recordOf(event.index, objectID);
        if (record) for (const value of valuesAt(record, facetName)) add(scores, facetName, value, points * score);
      }
      for (const filter of event.filters ?? []) {
        const at = filter.indexOf(':');
        if (filter.slice(0, at) === facetName) add(scores, facetName, filter.slice(at + 1), points * score);
      }
    }
  }
  // a reduce, not Math.max(...): a spread of a few hundred thousand events overflows the stack
  const lastEventAt = new Date(events.reduce((latest, e) => Math.max(latest, e.at), -Infinity)).toISOString();
  return { userToken, lastEventAt, scores };
}

/** A record's personal score: the sum of the user's affinities for its facet values. */
export function personalScore(scores: Affinities, record: SearchRecord): number {
  let total = 0;
  for (const [facet, values] of Object.entries(scores)) {
    for (const value of valuesAt(record, facet)) total += values[value] ?? 0;
  }
  return total;
}

export interface Ranked<T> { item: T; filtersScore: number; rankingScore: number; score: number }

/**
 * Re-ranks `items` (in relevance order): each gets relevance 1 − rank/n and a
 * personal share (its score over the best one's), blended by
 * impact/100 (0 = relevance order, 100 = personal order, relevance breaking ties).
 */
export function rerank<T>(items: T[], personal: (item: T) => number, impact: number): Ranked<T>[] {
  const raw = items.map(personal);
  const best = Math.max(0, ...raw);
  const weight = impact / 100;
  const ranked = items.map((item, rank) => {
    const relevance = 1 - rank / items.length;
    const share = best > 0 ? raw[rank] / best : 0;
    return { item, rank, filtersScore: raw[rank], relevance, blended: (1 - weight) * relevance + weight * share };
  });
  ranked.sort((a, b) => b.blended - a.blended || a.rank - b.rank);
  return ranked.map((r) => ({ item: r.item, filtersScore: r.filtersScore, rankingScore: Math.round(r.relevance * 100), score: Math.round(r.blended * 100) }));
}
