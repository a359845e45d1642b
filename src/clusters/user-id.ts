// The user a call acts for: the spec's `X-Service-User-ID` header, or the
// official client's `X-Algolia-User-ID` (headers arrive lower-cased).
import { badRequest } from '../util/errors.js';

const USER_ID = /^[a-zA-Z0-9 \-*.]+$/;

export function userIDOf(headers: Record<string, string>): string | undefined {
  return headers['x-algolia-user-id'] ?? headers['x-service-user-id'];
}

/** Checks a user ID's form (letters, digits, space, `-`, `*`, `.`). */
export function checkUserID(userID: unknown, where = 'userID'): string {
  if (typeof userID !== 'string' || !USER_ID.test(userID)) {
    throw badRequest(`${where} must match ${USER_ID.source}: ${JSON.stringify(userID)}`);
  }
  return userID;
}

/** The `userID` field of a batch written for the call's user (none without one). */
export function writtenFor(headers: Record<string, string>): { userID?: string } {
  const userID = userIDOf(headers);
  return userID === undefined ? {} : { userID };
}
