// Every answer carries the id of its call (echoed in the call's log entry as
// `cid`). An id the caller chose is kept when well-formed, so one id follows
// the call end to end: a proxy's `X-Request-Id`, or the official client's
// `request-id` header (`x-algolia-request-id` in the query string for browser
// builds). Otherwise a new one (a UUID: see counted-ids.ts).
import { countedUuid } from '../util/counted-ids.js';

const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** `headers` with lower-case names. */
export function requestIdOf(headers: Record<string, string>, query: Record<string, string>): string {
  const given = headers['x-request-id'] ?? headers['request-id'] ?? query['x-algolia-request-id'];
  return given !== undefined && WELL_FORMED.test(given) ? given : countedUuid();
}

/** The answer's headers naming the call: `X-Request-Id`, and `Correlation-ID`, which the official client quotes in its errors. */
export function requestIdHeaders(id: string): Record<string, string> {
  return { 'x-request-id': id, 'correlation-id': id };
}
