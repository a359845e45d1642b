// Every answer carries the id of its call (echoed in the call's log entry as
// `cid`). An id the caller chose is kept when well-formed, so one id follows
// the call end to end: a proxy's `X-Request-Id`, or the official client's
// `request-id` header (`x-algolia-request-id` in the query string for browser
// builds). Otherwise a new one.
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * New ids: 32 hex digits in a UUID's groups, a random half drawn once per
 * process and a count, unique as a random UUID is (as the search ids of
 * src/analytics/observe.ts are). crypto.randomUUID drew from the system's
 * randomness every 128 ids: on a machine where a draw cost 38 µs and
 * sometimes waited milliseconds, an id cost 5 µs on average, as much as
 * the rest of routing a search.
 */
const ID_HEAD = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
let idCount = 0;

function newRequestId(): string {
  const count = (idCount++).toString(16).padStart(16, '0');
  return `${ID_HEAD.slice(0, 8)}-${ID_HEAD.slice(8, 12)}-${ID_HEAD.slice(12)}-${count.slice(0, 4)}-${count.slice(4)}`;
}

/** `headers` with lower-case names. */
export function requestIdOf(headers: Record<string, string>, query: Record<string, string>): string {
  const given = headers['x-request-id'] ?? headers['request-id'] ?? query['x-algolia-request-id'];
  return given !== undefined && WELL_FORMED.test(given) ? given : newRequestId();
}

/** The answer's headers naming the call: `X-Request-Id`, and `Correlation-ID`, which the official client quotes in its errors. */
export function requestIdHeaders(id: string): Record<string, string> {
  return { 'x-request-id': id, 'correlation-id': id };
}
