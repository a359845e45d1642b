// Whether a value can be written as JSON, found without writing it: an engine
// that keeps no log must refuse what a logging one could not store (a cycle,
// a BigInt, a toJSON that throws), and building a batch's JSON only to drop
// it took a fifth of indexing. The walk follows JSON.stringify: toJSON first,
// then own enumerable properties; what it leaves out (undefined, functions,
// symbols) it does not look into.

/** Throws the TypeError JSON.stringify would (or its RangeError for nesting too deep). */
export function assertJson(value: unknown): void {
  if (mayFail(value)) check(value, '', []);
}

/**
 * Arrays found to be JSON already, which the walk does not look into again:
 * the actions of a write whose records were each checked as the API read
 * them (see withCheckedBodies), walked once more by an engine that keeps no
 * log. Only arrays are looked up, the fewer values.
 */
const arraysKnownJson = new WeakSet<unknown[]>();

/** Notes an array found to be JSON (with every value it holds, to any depth): assertJson skips it. */
export function knownJson(array: unknown[]): void {
  arraysKnownJson.add(array);
}

/** Objects and BigInts are all a walk must look at: every other value is written, or left out, as it is. */
const mayFail = (value: unknown): boolean => (typeof value === 'object' && value !== null) || typeof value === 'bigint';

/** `value` is an object or a BigInt; `key` its name or index in its parent (toJSON is given it as a string). */
function check(value: unknown, key: string | number, ancestors: object[]): void {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    value = toJSON.call(value, String(key));
    if (!mayFail(value)) return;
  }
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  const object = value as object;
  if (Array.isArray(object) && arraysKnownJson.has(object)) return;
  if (ancestors.includes(object)) throw new TypeError('Converting circular structure to JSON');
  ancestors.push(object);
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) if (mayFail(object[i])) check(object[i], i, ancestors);
  } else {
    // values without their keys (records of many shapes make a keyed read slow); a key only for a nested value
    const values = Object.values(object);
    let keys: string[] | undefined;
    for (let i = 0; i < values.length; i++) {
      if (mayFail(values[i])) check(values[i], (keys ??= Object.keys(object))[i], ancestors);
    }
  }
  ancestors.pop();
}
