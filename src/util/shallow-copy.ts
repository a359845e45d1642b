// A shallow copy that properties are added to afterwards: a hit copied from
// its record then given `_highlightResult`, an answer given `parsed_query`.
// `{ ...source }` is the fast copy where the copying site has met few shapes
// of object, but V8 (Node 20) gives that copy a shape of its own, off the
// shared tree of shapes, and every property added to it then makes another:
// a 21-attribute record copied then given two properties cost 19 µs against
// 0.6 µs, an answer given parsed_query 5.4 against 0.7 µs. Copied into an
// empty object instead, the copy's shape is one of the shared tree, which
// V8 finds again for the next record of that shape.

/** Nothing: what the copy starts from (its shape is the plain object's). */
const EMPTY = Object.freeze({});

/**
 * `{ ...source, ...added }` (own enumerable properties, in order), as a copy
 * that takes more properties fast. What is known to be added at once (a
 * hit's highlights) is best given as `added`: on records of thousands of
 * shapes (TED's talks), a property stored to each copy missed V8's caches,
 * 2-6 µs a hit for two, where copying them in costs ~0.5 µs.
 */
export function shallowCopy<T extends object>(source: T, added?: object): T {
  return added === undefined ? { ...EMPTY, ...source } : { ...EMPTY, ...source, ...added };
}
