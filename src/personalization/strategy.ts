// The personalization strategy, in one form whichever way it was sent: the
// spec's maps (`{name: {score, type}}`, `{facet: {score}}`) or today's
// client's arrays (`[{eventName, eventType, score}]`, `[{facetName, score}]`,
// with `personalizationImpact`).
import { badRequest } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';
import type { EventType } from '../analytics/events.js';

export interface Strategy {
  eventsScoring: Array<{ eventName: string; eventType: EventType; score: number }>;
  facetsScoring: Array<{ facetName: string; score: number }>;
  personalizationImpact: number;
  updatedAt: string;
}

const EVENT_TYPES: readonly EventType[] = ['click', 'conversion', 'view'];
const MAX_SCORE = 100;
const DEFAULT_IMPACT = 100;

function score(value: unknown, where: string): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_SCORE) {
    throw badRequest(`${where}.score must be an integer between 0 and ${MAX_SCORE}`);
  }
  return value as number;
}

function eventType(value: unknown, where: string): EventType {
  if (!EVENT_TYPES.includes(value as EventType)) throw badRequest(`${where}: type must be one of ${EVENT_TYPES.join(', ')}`);
  return value as EventType;
}

function nonEmpty(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw badRequest(`${where} must be a non-empty string`);
  return value;
}

function eventsScoring(value: unknown): Strategy['eventsScoring'] {
  if (Array.isArray(value)) {
    return value.map((e, i) => {
      const where = `eventsScoring[${i}]`;
      if (!isPlainObject(e)) throw badRequest(`${where} must be an object`);
      return { eventName: nonEmpty(e.eventName, `${where}.eventName`), eventType: eventType(e.eventType, where), score: score(e.score, where) };
    });
  }
  if (isPlainObject(value)) {
    return Object.entries(value).map(([eventName, e]) => {
      const where = `eventsScoring.${eventName}`;
      if (!isPlainObject(e)) throw badRequest(`${where} must be an object`);
      return { eventName, eventType: eventType(e.type, where), score: score(e.score, where) };
    });
  }
  throw badRequest('eventsScoring is required');
}

function facetsScoring(value: unknown): Strategy['facetsScoring'] {
  const entries = Array.isArray(value)
    ? value.map((f, i) => [isPlainObject(f) ? nonEmpty(f.facetName, `facetsScoring[${i}].facetName`) : '', f, `facetsScoring[${i}]`] as const)
    : isPlainObject(value) ? Object.entries(value).map(([name, f]) => [name, f, `facetsScoring.${name}`] as const) : undefined;
  if (!entries) throw badRequest('facetsScoring is required');
  return entries.map(([facetName, f, where]) => {
    if (!isPlainObject(f)) throw badRequest(`${where} must be an object`);
    return { facetName, score: score(f.score, where) };
  });
}

/** `clientForm`: personalizationImpact is required (today's client); the spec form has none (100). */
export function parseStrategy(body: unknown, clientForm: boolean, now = Date.now()): Strategy {
  if (!isPlainObject(body)) throw badRequest('The body must be an object');
  let impact = DEFAULT_IMPACT;
  if (clientForm || body.personalizationImpact !== undefined) {
    const v = body.personalizationImpact;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100) throw badRequest('personalizationImpact must be an integer between 0 and 100');
    impact = v;
  }
  return {
    eventsScoring: eventsScoring(body.eventsScoring),
    facetsScoring: facetsScoring(body.facetsScoring),
    personalizationImpact: impact,
    updatedAt: new Date(now).toISOString(),
  };
}

/** The spec's read form: maps keyed by event and facet name. */
export function specForm(strategy: Strategy) {
  return {
    eventsScoring: Object.fromEntries(strategy.eventsScoring.map((e) => [e.eventName, { score: e.score, type: e.eventType }])),
    facetsScoring: Object.fromEntries(strategy.facetsScoring.map((f) => [f.facetName, { score: f.score }])),
  };
}

export function clientForm(strategy: Strategy) {
  const { eventsScoring, facetsScoring, personalizationImpact } = strategy;
  return { eventsScoring, facetsScoring, personalizationImpact };
}
