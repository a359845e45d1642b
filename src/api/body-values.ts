// Values read from a request body, their type checked before they are used.
// A JSON object may hold keys named `toString` or `valueOf` (`{"toString":
// {}}`), so String(v), Number(v) or a template literal on a value of unknown
// type can throw (a 500, once): a value is converted only once its type is
// known, and error messages show values with `shown` (errors.ts).
import { badRequest, shown } from '../util/errors.js';
import { isPlainObject } from '../index/records.js';

type Body = Record<string, unknown>;

/** The fields of a JSON object body; any other body (none, an array, text) has none. */
export function fieldsOf(body: unknown): Body {
  return isPlainObject(body) ? body : {};
}

/** A body that must be a JSON object when there is one (no body: no fields). */
export function objectBody(body: unknown, what: string): Body {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw badRequest(`Invalid JSON: ${what} must be a JSON object`);
  return body;
}

/** `body` itself, once it holds no field outside `names` (the service answers 400 naming the first other). */
export function onlyParams(body: Body, names: readonly string[]): Body {
  const unknown = Object.keys(body).find((k) => !names.includes(k));
  if (unknown !== undefined) throw badRequest(`Unknown parameter: ${unknown}`);
  return body;
}

/** `body[name]`: an integer in `range` (a JSON number, or its digits as a string); `fallback` when absent. */
export function integerParam(body: Body, name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = range;
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw badRequest(`Invalid value for "${name}": expected an integer from ${min} to ${max}, got ${shown(value)}`);
  }
  return n;
}

/** `body[name]`: a string; `fallback` when absent. */
export function stringParam(body: Body, name: string, fallback = ''): string {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw badRequest(`Invalid value for "${name}": expected a string, got ${shown(value)}`);
  return value;
}

/** `body[name]`: a string, or undefined when absent. */
export function optionalString(body: Body, name: string): string | undefined {
  return body[name] === undefined || body[name] === null ? undefined : stringParam(body, name);
}

/** `body[name]`: a boolean, or undefined when absent. */
export function optionalBoolean(body: Body, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`Invalid value for "${name}": expected true or false, got ${shown(value)}`);
  return value;
}
