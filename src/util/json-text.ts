// An object's JSON text in UTF-8, noted by whoever wrote it, so that the
// next writer of the same object copies the bytes instead of stringifying it
// again: a record's, noted by the log that wrote its batch (see
// durability/batch-text.ts), packed by the record store. On the file store
// every record was stringified and encoded twice, in its batch's log text
// and again when its chunk was packed. A text noted is JSON.stringify's of
// the object, so a writer gets the bytes it would have made; an object is
// noted only once its text is final (the engine never changes a record it
// was given: a change makes a new one). An object noted by nothing is
// stringified, as before.
const texts = new WeakMap<object, Uint8Array>();

/** Notes `value`'s JSON text in UTF-8 (a view the noter never writes to again). */
export function noteJsonText(value: object, utf8: Uint8Array): void {
  texts.set(value, utf8);
}

/** `value`'s JSON text in UTF-8, if it was noted. */
export function jsonTextOf(value: object): Uint8Array | undefined {
  return texts.get(value);
}
