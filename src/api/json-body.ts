// A request's body as JSON, refused (400) when it is not JSON or nests deeper
// than any call needs. JSON.parse itself takes any depth, but the code that
// reads a body walks it recursively (filters, userData, the checks of a
// write): an array nested 10,000 deep overflowed the stack, a 500. Bounding
// the depth once, here, keeps every reader safe from it.
import { ApiError } from '../util/errors.js';
import { MAX_NESTING } from '../index/storable.js';
import { holdsItself, jsonValueOf, NotJsonError } from '../util/json-value.js';

/**
 * Levels of arrays and objects a body may nest: a record's own (MAX_NESTING)
 * inside the deepest wrapping of a write (`{"requests": [{"body": record}]}`,
 * 3 levels). No read's parameters come near it.
 */
export const MAX_BODY_NESTING = MAX_NESTING + 3;

const TOO_DEEP = `Invalid JSON: the request body nests arrays and objects more than ${MAX_BODY_NESTING} levels deep`;

/**
 * What a call's body is kept as when the call is made: HTTP's text as it
 * is; an in-process caller's value as a copy of its JSON value (see
 * util/json-value.ts), read now, as a client writes its body before
 * sending it, since the caller may change its objects once the call
 * returns. The engine keeps nothing the caller still holds.
 */
export function receivedBody(body: unknown): unknown {
  if (typeof body === 'string' || body === undefined) return body;
  try {
    return jsonValueOf(body, MAX_BODY_NESTING);
  } catch (e) {
    // what the caller's own code threw while its value was read (a toJSON, a getter) refuses it too
    if (!(e instanceof NotJsonError)) return notJson(String(e instanceof Error ? e.message : e).split('\n')[0]!);
    if (!e.tooDeep) return notJson(e.message);
    return holdsItself(body, MAX_BODY_NESTING) ? notJson('Converting circular structure to JSON') : new UnreadableBody(TOO_DEEP);
  }
}

const notJson = (reason: string) => new UnreadableBody(`Invalid JSON: the request body cannot be written as JSON (${reason})`);

/** An in-process caller's body that is not JSON: refused (400) where the body is read, once the call is matched and its caller known. */
class UnreadableBody {
  constructor(readonly message: string) {}
  /** What the call log shows of it: no body. */
  toJSON(): null { return null; }
}

/**
 * The body of a call, as receivedBody kept it: a string (what HTTP hands
 * over) parsed as JSON and checked for depth (blank: no body); an
 * in-process caller's copy as it is.
 */
export function parseJsonBody(body: unknown): unknown {
  if (body instanceof UnreadableBody) throw new ApiError('invalid_json', body.message);
  if (typeof body !== 'string') return body;
  const value = parseText(body);
  if (nestsDeeperThan(value, MAX_BODY_NESTING)) throw new ApiError('invalid_json', TOO_DEEP);
  return value;
}

function parseText(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_json', 'Invalid JSON in request body');
  }
}

/** Whether `value` holds arrays or objects more than `levels` deep (the recursion stops there, so it cannot overflow). */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}
