// shallowCopy: a record's copy for its hit, an answer's for its caller. It
// must be what `{ ...source, ...added }` is: the own enumerable attributes
// in their order, names such as "__proto__" kept as attributes (records may
// have them), and a copy that changes apart from its source.
import { describe, expect, it } from 'vitest';
import { shallowCopy } from '../../src/util/shallow-copy.js';

describe('shallowCopy', () => {
  it('keeps every own attribute in order, "__proto__" and "constructor" as attributes', () => {
    const record = JSON.parse('{"b":1,"__proto__":{"x":1},"a":[2],"constructor":"c","objectID":"1"}') as Record<string, unknown>;
    const copy = shallowCopy(record);
    expect(Object.keys(copy)).toEqual(['b', '__proto__', 'a', 'constructor', 'objectID']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(record));
  });

  it('changes apart from its source, and takes attributes added after the source\'s', () => {
    const record: Record<string, unknown> = { name: 'n', objectID: '1' };
    const copy = shallowCopy(record);
    copy._highlightResult = { name: { value: 'n' } };
    copy.name = 'changed';
    expect(record).toEqual({ name: 'n', objectID: '1' });
    expect(JSON.stringify(copy)).toBe('{"name":"changed","objectID":"1","_highlightResult":{"name":{"value":"n"}}}');
  });

  it('copies `added` in after the source, a name the source has keeping its place', () => {
    const record = { _highlightResult: 'an attribute', name: 'n', objectID: '1' };
    const copy = shallowCopy(record, { _vectors: [1], _highlightResult: { name: {} } });
    expect(JSON.stringify(copy)).toBe('{"_highlightResult":{"name":{}},"name":"n","objectID":"1","_vectors":[1]}');
    expect(record._highlightResult).toBe('an attribute');
  });

  it('leaves out what spread leaves out: inherited and non-enumerable properties', () => {
    const source = Object.create({ inherited: 1 }, { hidden: { value: 2, enumerable: false }, shown: { value: 3, enumerable: true } }) as object;
    expect(shallowCopy(source)).toEqual({ shown: 3 });
  });
});
