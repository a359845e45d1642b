// Whether a value can be written as JSON, found without writing it: an engine
// that keeps no log must refuse what a logging one could not store (a cycle,
// a BigInt, a toJSON that throws), and building a batch's JSON only to drop
// it took a fifth of indexing. The walk follows JSON.stringify: toJSON first,
// then own enumerable properties; what it leaves out (undefined, functions,
// symbols) it does not look into.

/** Throws the TypeError JSON.stringify would (or its RangeError for nesting too deep). */
export function assertJson(value: unknown): void {
  check(value, '', []);
}

function check(value: unknown, key: string, ancestors: object[]): void {
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  if (typeof value !== 'object' || value === null) return;
  if (ancestors.includes(value)) throw new TypeError('Converting circular structure to JSON');
  ancestors.push(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) check(value[i], String(i), ancestors);
  } else {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) check((value as Record<string, unknown>)[keys[i]], keys[i], ancestors);
  }
  ancestors.pop();
}
