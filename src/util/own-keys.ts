// Attribute names are data: a record may have "__proto__", "constructor" or
// "toString" like any other attribute (the hosted service stores them so).
// A plain object inherits those names from Object.prototype, and assigning
// "__proto__" sets the object's prototype instead of making an attribute, so
// what reads or writes an object by a name from the data goes through these.
// The objects stay ordinary ones (callers get them back as records).

/** The object's own value for `key`: undefined where it has none, whatever Object.prototype has under that name. */
export function own(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/**
 * Object.assign, which would set `target`'s prototype for a "__proto__" key
 * of `source`. A for-in over the own keys, not Object.entries: that made an
 * array for each key, and every search's parameters pass here.
 */
export function assignOwn(target: object, source: object): void {
  for (const key in source) if (Object.hasOwn(source, key)) setOwn(target, key, (source as Record<string, unknown>)[key]);
}

/** Gives the object an own enumerable `key` ("__proto__" too: a data property, not the prototype). */
export function setOwn(object: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else (object as Record<string, unknown>)[key] = value;
}
