// Ids unique within a process without drawing randomness for each one: a
// random half drawn once per process (or worker), then a count. Search ids
// (queryIDs) and request ids are made here. crypto.randomUUID refills its
// buffer from the system every 128 ids, and on a loaded machine a refill
// sometimes stalled a call for milliseconds (bench/RESULTS.md, "The
// JavaScript path of an answer"). A count shows how many ids a process made
// between two of them; these ids are names, not secrets.

/** 64 random bits as 16 hex digits, drawn once. */
const RANDOM_HALF = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
let made = 0;

/** 32 hex digits: the random half, then a 64-bit count (a queryID's form). */
export function countedHexId(): string {
  return RANDOM_HALF + (made++).toString(16).padStart(16, '0');
}

/**
 * A UUID of version 8 (RFC 9562: a layout of one's own) and the RFC's
 * variant: 60 random bits, then a 60-bit count, so that whatever checks
 * X-Request-Id as a UUID accepts it as it accepted a random one.
 */
export function countedUuid(): string {
  const count = (made++).toString(16).padStart(15, '0');
  return `${RANDOM_HALF.slice(0, 8)}-${RANDOM_HALF.slice(8, 12)}-8${RANDOM_HALF.slice(12, 15)}-a${count.slice(0, 3)}-${count.slice(3)}`;
}
