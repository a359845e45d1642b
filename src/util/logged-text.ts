// A record's JSON as the log wrote it, carried beside each record of a large
// batch (durability/batch-text.ts) to the record store.

/**
 * On an action that saves a record: the record's JSON in UTF-8 as the log
 * wrote it (JSON.stringify's, byte for byte), which the record store packs
 * as it is instead of stringifying and encoding the record again. A symbol:
 * JSON and structured clones leave it out, so it is never logged nor sent.
 */
export const LOGGED_TEXT = Symbol('the record\'s JSON as logged');
