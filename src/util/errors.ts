// Errors with codes. An operation throws an ApiError naming what went wrong
// (its code) and saying it for a person (its message); the one table below
// gives each code its HTTP status, which only the wire reads (the router,
// the HTTP server). A new kind of error is a new row. Model:
// meilisearch-types/src/error.rs (each code with its status, in one place).

/** Every error code, with the HTTP status it is answered with. */
export const ERROR_STATUS = {
  /** A parameter, body or value the operation cannot take. */
  invalid_request: 400,
  /** The request body is not JSON. */
  invalid_json: 400,
  /** No key matches the application ID and API key sent. */
  invalid_credentials: 403,
  /** The key may not do this: a right, an index, a referer, a source address it lacks. */
  not_allowed: 403,
  /** The key may not change this index (records, settings, rules, synonyms, copy/move): the service's 400, not a 403. */
  not_enough_rights: 400,
  /** No such path, index, record, key, rule, synonym, test or configuration. */
  not_found: 404,
  /** A write sent to a follower (src/follow/): it only applies what the server it follows sends. */
  follower: 405,
  /** A follower asked for log entries the server no longer keeps: it loads a snapshot instead. */
  log_trimmed: 410,
  /** A request body larger than the server takes. */
  payload_too_large: 413,
  /** Well-formed, but refused by the state it would change (A/B tests, insight events, suggestions). */
  unprocessable: 422,
  /** Too many calls in the window (`Retry-After` says when to try again). */
  rate_limited: 429,
  /** Not now: a read-only store, a quarantined index, a storage that failed. */
  unavailable: 503,
  /** The disk is full: the write was not stored. */
  disk_full: 507,
} as const satisfies Record<string, number>;

/** What went wrong, as a name a program can test (`index_not_found`...): a key of ERROR_STATUS. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error an operation returns to the caller: a code (its HTTP status from ERROR_STATUS) and a message. */
export class ApiError extends Error {
  /** The HTTP status it is answered with. */
  readonly status: number;

  /**
   * @param code - what went wrong, one of ERROR_STATUS's codes.
   * @param status - given only for an error a server answered (the typed client's), else the code's.
   */
  constructor(readonly code: ErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status ?? ERROR_STATUS[code];
  }

  /** The error a server answered with `status` (its code: the first of that status). */
  static answered(status: number, message: string): ApiError {
    const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => ERROR_STATUS[c] === status) ?? 'invalid_request';
    return new ApiError(code, message, status);
  }
}

/** A refusal for now: the same call may succeed `retryAfter` seconds later (answered with Retry-After). */
export class RetryLater extends ApiError {
  constructor(code: ErrorCode, message: string, readonly retryAfter: number) {
    super(code, message);
  }
}

export const badRequest = (message: string) => new ApiError('invalid_request', message);
export const notFound = (message: string) => new ApiError('not_found', message);

/**
 * A value a caller sent, as an error message shows it: its JSON, cut short.
 * Never through the value's own toString or valueOf: a JSON object may hold
 * keys of those names, and converting it would throw.
 */
export function shown(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // a cycle or a BigInt (in-process callers)
  }
  text ??= typeof value;
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
