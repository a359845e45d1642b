// A request's body as JSON, refused (400) when it is not JSON or nests deeper
// than any call needs. JSON.parse itself takes any depth, but the code that
// reads a body walks it recursively (filters, userData, the checks of a
// write): an array nested 10,000 deep overflowed the stack, a 500. Bounding
// the depth once, here, keeps every reader safe from it.
import { ApiError } from '../util/errors.js';
import { MAX_NESTING } from '../index/storable.js';

/**
 * Levels of arrays and objects a body may nest: a record's own (MAX_NESTING)
 * inside the deepest wrapping of a write (`{"requests": [{"body": record}]}`,
 * 3 levels). No read's parameters come near it.
 */
export const MAX_BODY_NESTING = MAX_NESTING + 3;

/**
 * The body of a call: a string (what HTTP hands over) parsed as JSON and
 * checked for depth (blank: no body); any other value, an in-process
 * caller's own, as it is (walking it would read its getters out of turn).
 */
export function parseJsonBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  const value = parseText(body);
  if (nestsDeeperThan(value, MAX_BODY_NESTING)) {
    throw new ApiError('invalid_json', `Invalid JSON: the request body nests arrays and objects more than ${MAX_BODY_NESTING} levels deep`);
  }
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
