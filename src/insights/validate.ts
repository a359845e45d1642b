// Insight events as pushed to POST /1/events: every rule of the spec, checked
// in order; the first broken rule refuses the whole call (422).
import { ApiError } from '../engine/errors.js';
import { isPlainObject } from '../engine/records.js';
import { indexNameProblem } from '../engine/index-name.js';
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

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v !== '');
}

function checkItems(e: Record<string, any>, fail: (m: string) => never): void {
  const hasObjects = e.objectIDs !== undefined;
  const hasFilters = e.filters !== undefined;
  if (hasObjects && hasFilters) fail('objectIDs and filters cannot be combined');
  if (!hasObjects && !hasFilters) fail('an event needs objectIDs or filters');
  if (hasObjects && !stringList(e.objectIDs)) fail('objectIDs must be a non-empty array of strings');
  if (hasFilters) {
    if (!stringList(e.filters)) fail('filters must be a non-empty array of strings');
    if (e.filters.length > MAX_FILTERS) fail(`at most ${MAX_FILTERS} filters per event`);
    const bad = (e.filters as string[]).find((f) => !FILTER.test(f));
    if (bad !== undefined) fail(`filter "${bad}" must have the form attribute:value`);
  }
}

function checkSearchLink(e: Record<string, any>, fail: (m: string) => never): void {
  if (e.queryID !== undefined && (typeof e.queryID !== 'string' || !QUERY_ID.test(e.queryID))) {
    fail('queryID must be the 32-character hexadecimal queryID of a search response');
  }
  if (e.positions !== undefined) {
    if (e.queryID === undefined) fail('positions are only accepted with a queryID');
    if (!Array.isArray(e.positions) || !e.positions.every((p: unknown) => Number.isInteger(p) && (p as number) >= 1)) {
      fail('positions must be an array of positive integers');
    }
  }
  if (e.eventType === 'click' && e.queryID !== undefined) {
    if (e.objectIDs === undefined) fail('a click after a search must carry objectIDs');
    if (e.positions === undefined) fail('a click after a search must carry positions');
    if (e.positions.length !== e.objectIDs.length) fail('positions must have one entry per objectID');
  }
}

/** A price, discount or value: a number or a decimal string (the client accepts both). */
function amount(value: unknown, what: string, fail: (m: string) => never): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) fail(`${what} must be a non-negative number`);
  return n as number;
}

/** Revenue fields of a conversion: currency, value, objectData (price, quantity, discount). */
function revenueOf(e: Record<string, any>, fail: (m: string) => never): Pick<InsightEvent, 'currency' | 'value' | 'objectData'> {
  const out: Pick<InsightEvent, 'currency' | 'value' | 'objectData'> = {};
  if (e.currency !== undefined) {
    if (typeof e.currency !== 'string' || !CURRENCY.test(e.currency)) fail('currency must be a three-letter ISO 4217 code');
    out.currency = e.currency;
  }
  const value = amount(e.value, 'value', fail);
  if (value !== undefined) out.value = value;
  if (e.objectData !== undefined) {
    if (!Array.isArray(e.objectData) || !e.objectData.every(isPlainObject)) fail('objectData must be an array of objects');
    if (e.objectIDs !== undefined && e.objectData.length !== e.objectIDs.length) fail('objectData must have one entry per objectID');
    out.objectData = e.objectData.map((d: Record<string, unknown>, i: number) => {
      if (d.quantity !== undefined && (!Number.isInteger(d.quantity) || (d.quantity as number) < 0)) fail(`objectData[${i}].quantity must be a non-negative integer`);
      return {
        price: amount(d.price, `objectData[${i}].price`, fail),
        quantity: d.quantity as number | undefined,
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
  const fail = (message: string): never => { throw new EventError(position, message); };
  if (!isPlainObject(value)) fail('an event must be an object');
  const e = value as Record<string, any>;
  if (!EVENT_TYPES.includes(e.eventType)) fail(`eventType must be one of ${EVENT_TYPES.join(', ')}`);
  if (typeof e.eventName !== 'string' || !EVENT_NAME.test(e.eventName)) fail('eventName must be 1 to 64 ASCII characters, no control characters');
  if (typeof e.index !== 'string' || e.index === '') fail('index is required');
  const indexProblem = indexNameProblem(e.index, 'index');
  if (indexProblem !== undefined) fail(indexProblem);
  if (typeof e.userToken !== 'string' || !USER_TOKEN.test(e.userToken)) fail('userToken must match [a-zA-Z0-9_-]{1,64}');
  if (e.timestamp !== undefined && (!Number.isInteger(e.timestamp) || e.timestamp < 0)) fail('timestamp must be milliseconds since the epoch');
  const at = e.timestamp ?? now;
  if (now - at > MAX_AGE_MS) fail('the event is more than 4 days old');
  checkItems(e, fail);
  checkSearchLink(e, fail);
  const event: InsightEvent = {
    id: crypto.randomUUID(), eventType: e.eventType, eventName: e.eventName, index: e.index, userToken: e.userToken, at, receivedAt: now,
    ...revenueOf(e, fail),
  };
  if (typeof e.eventSubtype === 'string') event.eventSubtype = e.eventSubtype;
  for (const field of ['queryID', 'objectIDs', 'filters', 'positions'] as const) if (e[field] !== undefined) event[field] = e[field];
  return event;
}

/** The events of a push, all valid, or the first error (422). */
export function parseEvents(body: unknown, now = Date.now()): InsightEvent[] {
  if (!isPlainObject(body) || !Array.isArray(body.events)) throw new ApiError('unprocessable', 'The body needs an "events" array');
  if (body.events.length === 0) throw new ApiError('unprocessable', 'The "events" array is empty');
  if (body.events.length > MAX_EVENTS) throw new ApiError('unprocessable', `At most ${MAX_EVENTS} events per call`);
  return body.events.map((e: unknown, i: number) => checkEvent(e, i, now));
}
