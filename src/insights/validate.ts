// Insight events as pushed to POST /1/events: every rule of the spec, checked
// in order; the first broken rule refuses the whole call (422).
import { ApiError } from '../util/errors.js';
import { isOneOf, isPlainObject } from '../index/records.js';
import { indexNameProblem } from '../index/index-name.js';
import type { EventType, InsightEvent } from '../analytics/events.js';

export const MAX_EVENTS = 1000;
export const MAX_FILTERS = 10;
const MAX_AGE_MS = 4 * 86_400_000;
const EVENT_TYPES: readonly EventType[] = ['click', 'conversion', 'view'];
const USER_TOKEN = /^[a-zA-Z0-9_-]{1,64}$/;
const EVENT_NAME = /^[\x20-\x7e]{1,64}$/;
const QUERY_ID = /^[0-9a-f]{32}$/;
const FILTER = /^[^:]+:.+$/;
const CURRENCY = /^[A-Z]{3}$/;

class EventError extends ApiError {
  constructor(position: number, message: string) {
    super('unprocessable', `events[${position}]: ${message}`);
  }
}

/** Throws the event's error: a check's `fail`. */
type Fail = (message: string) => never;

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v !== '');
}

/** What an event is about: records (objectIDs) or facet values (filters), never both. */
function itemsOf(e: Record<string, unknown>, fail: Fail): Pick<InsightEvent, 'objectIDs' | 'filters'> {
  const { objectIDs, filters } = e;
  if (objectIDs !== undefined && filters !== undefined) fail('objectIDs and filters cannot be combined');
  if (objectIDs === undefined && filters === undefined) fail('an event needs objectIDs or filters');
  if (objectIDs !== undefined) {
    if (!stringList(objectIDs)) fail('objectIDs must be a non-empty array of strings');
    return { objectIDs };
  }
  if (!stringList(filters)) fail('filters must be a non-empty array of strings');
  if (filters.length > MAX_FILTERS) fail(`at most ${MAX_FILTERS} filters per event`);
  const decoded = filters.map(decodedFilter);
  const bad = decoded.find((f) => !FILTER.test(f));
  if (bad !== undefined) fail(`filter "${bad}" must have the form attribute:value`);
  return { filters: decoded };
}

/**
 * A filter as meant: search-insights (and so InstantSearch's `insights: true`)
 * sends them URL-encoded (`brand%3AApple`), the service decodes them.
 */
function decodedFilter(filter: string): string {
  if (!filter.includes('%')) return filter;
  try {
    return decodeURIComponent(filter);
  } catch {
    return filter; // a lone "%": meant as it is
  }
}

/** The search an event follows (queryID) and where its records were in the hits (positions). */
function searchLinkOf(e: Record<string, unknown>, objectIDs: string[] | undefined, fail: Fail): Pick<InsightEvent, 'queryID' | 'positions'> {
  const { queryID, positions } = e;
  if (queryID !== undefined && (typeof queryID !== 'string' || !QUERY_ID.test(queryID))) {
    fail('queryID must be the 32-character hexadecimal queryID of a search response');
  }
  if (positions !== undefined) {
    if (queryID === undefined) fail('positions are only accepted with a queryID');
    if (!Array.isArray(positions) || !positions.every((p: unknown) => typeof p === 'number' && Number.isInteger(p) && p >= 1)) {
      fail('positions must be an array of positive integers');
    }
  }
  if (e.eventType === 'click' && queryID !== undefined) {
    if (objectIDs === undefined) fail('a click after a search must carry objectIDs');
    if (positions === undefined) fail('a click after a search must carry positions');
    if (positions.length !== objectIDs.length) fail('positions must have one entry per objectID');
  }
  return { queryID, positions } as Pick<InsightEvent, 'queryID' | 'positions'>;
}

/**
 * A price, discount or value: a number, or a string (the spec takes both:
 * "8$" is 8). A string with no number at its start is accepted and counts
 * for nothing.
 */
function amount(value: unknown, what: string, fail: Fail): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    const n = Number.parseFloat(value.trim());
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return fail(`${what} must be a non-negative number or a string`);
  return value;
}

/** Revenue fields of a conversion: currency, value, objectData (price, quantity, discount). */
function revenueOf(e: Record<string, unknown>, objectIDs: string[] | undefined, fail: Fail): Pick<InsightEvent, 'currency' | 'value' | 'objectData'> {
  const out: Pick<InsightEvent, 'currency' | 'value' | 'objectData'> = {};
  const { currency, objectData } = e;
  if (currency !== undefined) {
    if (typeof currency !== 'string' || !CURRENCY.test(currency)) fail('currency must be a three-letter ISO 4217 code');
    out.currency = currency;
  }
  const value = amount(e.value, 'value', fail);
  if (value !== undefined) out.value = value;
  if (objectData !== undefined) {
    if (!Array.isArray(objectData) || !objectData.every(isPlainObject)) fail('objectData must be an array of objects');
    if (objectIDs !== undefined && objectData.length !== objectIDs.length) fail('objectData must have one entry per objectID');
    out.objectData = objectData.map((d: Record<string, unknown>, i: number) => {
      const { quantity } = d;
      if (quantity !== undefined && (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0)) {
        fail(`objectData[${i}].quantity must be a non-negative integer`);
      }
      return {
        price: amount(d.price, `objectData[${i}].price`, fail),
        quantity,
        discount: amount(d.discount, `objectData[${i}].discount`, fail),
      };
    });
  }
  if ((out.value !== undefined || out.objectData?.some((d) => d.price !== undefined)) && out.currency === undefined) {
    fail('currency is required with value or prices');
  }
  return out;
}

function checkEvent(value: unknown, position: number, now: number): InsightEvent {
  const fail: Fail = (message) => { throw new EventError(position, message); };
  if (!isPlainObject(value)) return fail('an event must be an object');
  const { eventType, eventName, index, userToken, timestamp, eventSubtype } = value;
  if (!isOneOf(EVENT_TYPES, eventType)) fail(`eventType must be one of ${EVENT_TYPES.join(', ')}`);
  if (typeof eventName !== 'string' || !EVENT_NAME.test(eventName)) fail('eventName must be 1 to 64 ASCII characters, no control characters');
  if (typeof index !== 'string' || index === '') fail('index is required');
  const indexProblem = indexNameProblem(index, 'index');
  if (indexProblem !== undefined) fail(indexProblem);
  if (typeof userToken !== 'string' || !USER_TOKEN.test(userToken)) fail('userToken must match [a-zA-Z0-9_-]{1,64}');
  if (timestamp !== undefined && (typeof timestamp !== 'number' || !Number.isInteger(timestamp) || timestamp < 0)) {
    fail('timestamp must be milliseconds since the epoch');
  }
  const at = timestamp ?? now;
  if (now - at > MAX_AGE_MS) fail('the event is more than 4 days old');
  const items = itemsOf(value, fail);
  const link = searchLinkOf(value, items.objectIDs, fail);
  const event: InsightEvent = {
    id: crypto.randomUUID(), eventType, eventName, index, userToken, at, receivedAt: now,
    ...revenueOf(value, items.objectIDs, fail),
  };
  if (typeof eventSubtype === 'string') event.eventSubtype = eventSubtype;
  if (link.queryID !== undefined) event.queryID = link.queryID;
  if (items.objectIDs !== undefined) event.objectIDs = items.objectIDs;
  if (items.filters !== undefined) event.filters = items.filters;
  if (link.positions !== undefined) event.positions = link.positions;
  return event;
}

/**
 * InstantSearch's own telemetry (`{"eventType": "instantsearch", "eventName":
 * "__start__"}` on every page load with `insights: true`): accepted, nothing
 * to record.
 */
const isInstantSearchTelemetry = (e: unknown) => isPlainObject(e) && e.eventType === 'instantsearch';

/** The events of a push to record, all valid, or the first error (422). */
export function parseEvents(body: unknown, now = Date.now()): InsightEvent[] {
  if (!isPlainObject(body) || !Array.isArray(body.events)) throw new ApiError('unprocessable', 'The body needs an "events" array');
  if (body.events.length === 0) throw new ApiError('unprocessable', 'The "events" array is empty');
  if (body.events.length > MAX_EVENTS) throw new ApiError('unprocessable', `At most ${MAX_EVENTS} events per call`);
  return body.events.flatMap((e: unknown, i: number) => (isInstantSearchTelemetry(e) ? [] : [checkEvent(e, i, now)]));
}
