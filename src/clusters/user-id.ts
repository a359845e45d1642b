// The user a call acts for: the spec's `X-Service-User-ID` header, or the
// official client's `X-Algolia-User-ID` (headers arrive lower-cased); either
// name may also come as a query parameter, in any case (some official
// clients send `?X-Algolia-User-ID=` for assignUserID).
import { badRequest } from '../util/errors.js';

const USER_ID = /^[a-zA-Z0-9 \-*.]+$/;
const NAMES = ['x-algolia-user-id', 'x-service-user-id'];

/** The user ID of a call: from its headers, else from its query string. */
export function userIDOf(headers: Record<string, string>, query: Record<string, string> = {}): string | undefined {
  for (const name of NAMES) if (headers[name] !== undefined) return headers[name];
  for (const [name, value] of Object.entries(query)) if (NAMES.includes(name.toLowerCase())) return value;
  return undefined;
}

/** Checks a user ID's form (letters, digits, space, `-`, `*`, `.`). */
export function checkUserID(userID: unknown, where = 'userID'): string {
  if (typeof userID !== 'string' || !USER_ID.test(userID)) {
    throw badRequest(`${where} must match ${USER_ID.source}: ${JSON.stringify(userID)}`);
  }
  return userID;
}

/** The `userID` field of a batch written for the call's user (none without one). */
export function writtenFor(headers: Record<string, string>, query: Record<string, string>): { userID?: string } {
  const userID = userIDOf(headers, query);
  return userID === undefined ? {} : { userID };
}
