// The parsers of `filters`, `facetFilters`, `numericFilters`, `tagFilters` and
// `optionalFilters`: exact ASTs for accepted forms, 400s for rejected ones.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/util/errors.js';
import {
  type FilterAtom,
  type NumericOperator,
  parseFacetFilters,
  parseFilters,
  parseNumericFilters,
  parseOptionalFilters,
  parseTagFilters,
} from '../../src/index/filters/parse.js';

interface Opts { negated?: boolean; score?: number }

const f = (attribute: string, value: string, o: Opts = {}): FilterAtom =>
  ({ kind: 'facet', attribute, value, negated: o.negated ?? false, score: o.score ?? 1 });
const tag = (value: string, o: Opts = {}): FilterAtom => f('_tags', value, o);
const n = (attribute: string, operator: NumericOperator, value: number, o: Opts = {}): FilterAtom =>
  ({ kind: 'numeric', attribute, operator, value, negated: o.negated ?? false, score: o.score ?? 1 });
const r = (attribute: string, low: number, high: number, o: Opts = {}): FilterAtom =>
  ({ kind: 'range', attribute, low, high, negated: o.negated ?? false, score: o.score ?? 1 });

/** Runs `fn`, expecting a 400 ApiError; returns its message. */
function error400(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).message;
  }
  throw new Error('expected a 400 error, got none');
}

/** Expects `filters` to be rejected with a message naming `position`. */
function rejects(expression: string, position: number, problem?: RegExp): string {
  const message = error400(() => parseFilters(expression));
  expect(message).toMatch(/^filters: /);
  expect(message).toContain(`at position ${position}`);
  if (problem) expect(message).toMatch(problem);
  return message;
}

describe('parseFilters: atoms', () => {
  it('reads attr:value as a facet atom', () => {
    expect(parseFilters('category:Book')).toEqual([[f('category', 'Book')]]);
  });

  it('reads attr:true and attr:false as facet atoms', () => {
    expect(parseFilters('isEnabled:true')).toEqual([[f('isEnabled', 'true')]]);
    expect(parseFilters('isEnabled:false')).toEqual([[f('isEnabled', 'false')]]);
  });

  it('reads _tags:value as a facet atom on _tags, and a bare value as a tag', () => {
    expect(parseFilters('_tags:published')).toEqual([[tag('published')]]);
    expect(parseFilters('published')).toEqual([[tag('published')]]);
    expect(parseFilters('public OR user_42')).toEqual([[tag('public'), tag('user_42')]]);
    expect(parseFilters('"my tag" AND other')).toEqual([[tag('my tag')], [tag('other')]]);
  });

  it('reads quoted values with double or single quotes and backslash escapes', () => {
    expect(parseFilters('author:"John Doe"')).toEqual([[f('author', 'John Doe')]]);
    expect(parseFilters("author:'John Doe'")).toEqual([[f('author', 'John Doe')]]);
    expect(parseFilters('title:"say \\"hi\\""')).toEqual([[f('title', 'say "hi"')]]);
    expect(parseFilters("title:'it\\'s'")).toEqual([[f('title', "it's")]]);
    expect(parseFilters('path:"a\\\\b"')).toEqual([[f('path', 'a\\b')]]);
    expect(parseFilters('title:"it\'s"')).toEqual([[f('title', "it's")]]);
    expect(parseFilters("title:'say \"hi\"'")).toEqual([[f('title', 'say "hi"')]]);
  });

  it('reads keywords and special characters inside quotes as plain text', () => {
    expect(parseFilters('word:"AND"')).toEqual([[f('word', 'AND')]]);
    expect(parseFilters('word:"a OR b (c)"')).toEqual([[f('word', 'a OR b (c)')]]);
    expect(parseFilters('cat:"A > B"')).toEqual([[f('cat', 'A > B')]]);
    expect(parseFilters('x:""')).toEqual([[f('x', '')]]);
  });

  it('reads quoted and nested attribute names', () => {
    expect(parseFilters('"my attr":value')).toEqual([[f('my attr', 'value')]]);
    expect(parseFilters("'my attr':'a b'")).toEqual([[f('my attr', 'a b')]]);
    expect(parseFilters('authors.mainAuthor:"John Doe"')).toEqual([[f('authors.mainAuthor', 'John Doe')]]);
    expect(parseFilters('a.b.c > 3')).toEqual([[n('a.b.c', '>', 3)]]);
    expect(parseFilters('"my price" >= 3')).toEqual([[n('my price', '>=', 3)]]);
  });

  it('ends unquoted values at whitespace or ")" only', () => {
    expect(parseFilters('url:http://x.y/z?a=b')).toEqual([[f('url', 'http://x.y/z?a=b')]]);
    expect(parseFilters('cat:A>B')).toEqual([[f('cat', 'A>B')]]);
    expect(parseFilters('code:-5')).toEqual([[f('code', '-5')]]);
    expect(parseFilters('(a:x)')).toEqual([[f('a', 'x')]]);
    expect(parseFilters('(a:x OR b:y)')).toEqual([[f('a', 'x'), f('b', 'y')]]);
  });

  it('keeps values case as given and keywords as values after a colon', () => {
    expect(parseFilters('genre:Sci-Fi')).toEqual([[f('genre', 'Sci-Fi')]]);
    expect(parseFilters('word:OR')).toEqual([[f('word', 'OR')]]);
    expect(parseFilters('word:AND AND x:y')).toEqual([[f('word', 'AND')], [f('x', 'y')]]);
  });

  it('accepts whitespace around the colon', () => {
    expect(parseFilters('category : Book')).toEqual([[f('category', 'Book')]]);
  });

  it('reads every numeric operator, with or without spaces', () => {
    const ops: NumericOperator[] = ['<', '<=', '=', '!=', '>', '>='];
    for (const op of ops) {
      expect(parseFilters(`price ${op} 12.99`)).toEqual([[n('price', op, 12.99)]]);
      expect(parseFilters(`price${op}12.99`)).toEqual([[n('price', op, 12.99)]]);
    }
    expect(parseFilters('price >10')).toEqual([[n('price', '>', 10)]]);
    expect(parseFilters('price< 10')).toEqual([[n('price', '<', 10)]]);
  });

  it('reads negative, decimal and exponent numbers', () => {
    expect(parseFilters('temp < -3')).toEqual([[n('temp', '<', -3)]]);
    expect(parseFilters('temp>=-3.5')).toEqual([[n('temp', '>=', -3.5)]]);
    expect(parseFilters('x = .5')).toEqual([[n('x', '=', 0.5)]]);
    expect(parseFilters('x = 1e3')).toEqual([[n('x', '=', 1000)]]);
    expect(parseFilters('x = +2')).toEqual([[n('x', '=', 2)]]);
    expect(parseFilters('x = "7"')).toEqual([[n('x', '=', 7)]]);
  });

  it('reads attr:low TO high as an inclusive range', () => {
    expect(parseFilters('price:5.99 TO 100')).toEqual([[r('price', 5.99, 100)]]);
    expect(parseFilters('price: -10 TO -1')).toEqual([[r('price', -10, -1)]]);
    expect(parseFilters('price:1   TO   2')).toEqual([[r('price', 1, 2)]]);
    expect(parseFilters('(price:1 TO 2)')).toEqual([[r('price', 1, 2)]]);
  });

  it('reads NOT on a facet, numeric, range or tag atom', () => {
    expect(parseFilters('NOT category:Ebook')).toEqual([[f('category', 'Ebook', { negated: true })]]);
    expect(parseFilters('NOT price > 3')).toEqual([[n('price', '>', 3, { negated: true })]]);
    expect(parseFilters('NOT price:1 TO 5')).toEqual([[r('price', 1, 5, { negated: true })]]);
    expect(parseFilters('NOT _tags:x')).toEqual([[tag('x', { negated: true })]]);
    expect(parseFilters('NOT (a:x)')).toEqual([[f('a', 'x', { negated: true })]]);
    expect(parseFilters('NOT"a b":c')).toEqual([[f('a b', 'c', { negated: true })]]);
  });

  it('reads <score=N> suffixes on facet atoms (default 1)', () => {
    expect(parseFilters('(company:Google<score=3> OR company:Amazon<score=2> OR company:Facebook)')).toEqual([[
      f('company', 'Google', { score: 3 }),
      f('company', 'Amazon', { score: 2 }),
      f('company', 'Facebook'),
    ]]);
    expect(parseFilters('brand:"Dr Who"<score=0>')).toEqual([[f('brand', 'Dr Who', { score: 0 })]]);
    expect(parseFilters('NOT brand:X<score=65535>')).toEqual([[f('brand', 'X', { negated: true, score: 65535 })]]);
    expect(parseFilters('_tags:a<score=4> OR b<score=5>')).toEqual([[tag('a', { score: 4 }), tag('b', { score: 5 })]]);
  });
});

describe('parseFilters: structure', () => {
  it('returns [] for an empty or blank expression', () => {
    expect(parseFilters('')).toEqual([]);
    expect(parseFilters('   \t ')).toEqual([]);
  });

  it('reads A AND B as two groups and A OR B as one', () => {
    expect(parseFilters('a:x AND b:y')).toEqual([[f('a', 'x')], [f('b', 'y')]]);
    expect(parseFilters('a:x OR b:y')).toEqual([[f('a', 'x'), f('b', 'y')]]);
    expect(parseFilters('a:x OR b:y OR c:z')).toEqual([[f('a', 'x'), f('b', 'y'), f('c', 'z')]]);
  });

  it('reads A AND (B OR C)', () => {
    expect(parseFilters('price < 10 AND (category:Book OR NOT category:Ebook)')).toEqual([
      [n('price', '<', 10)],
      [f('category', 'Book'), f('category', 'Ebook', { negated: true })],
    ]);
  });

  it('reads (A OR B) AND (C OR D) AND E', () => {
    expect(parseFilters('(a:1 OR a:2) AND (b:1 OR b:2) AND c:1')).toEqual([
      [f('a', '1'), f('a', '2')],
      [f('b', '1'), f('b', '2')],
      [f('c', '1')],
    ]);
  });

  it('reads the documented valid combinations', () => {
    expect(parseFilters('(a:1 OR b:1) AND c:1')).toEqual([[f('a', '1'), f('b', '1')], [f('c', '1')]]);
    expect(parseFilters('a:1 AND (b:1 OR c:1) AND (d:1 OR e:1)')).toEqual([
      [f('a', '1')], [f('b', '1'), f('c', '1')], [f('d', '1'), f('e', '1')],
    ]);
    expect(parseFilters('a:1 AND b:1 AND (c:1 OR d:1) AND (e:1 OR f:1)')).toEqual([
      [f('a', '1')], [f('b', '1')], [f('c', '1'), f('d', '1')], [f('e', '1'), f('f', '1')],
    ]);
  });

  it('accepts redundant parentheses around atoms and OR-groups', () => {
    expect(parseFilters('(a:x) AND ((b:y))')).toEqual([[f('a', 'x')], [f('b', 'y')]]);
    expect(parseFilters('((a:x OR b:y))')).toEqual([[f('a', 'x'), f('b', 'y')]]);
    expect(parseFilters('(a:x OR b:y) OR c:z')).toEqual([[f('a', 'x'), f('b', 'y'), f('c', 'z')]]);
  });

  it('rejects parentheses around an AND, the whole expression\'s or a nested one', () => {
    rejects('(a:x AND (b:y OR c:z))', 0, /parentheses cannot enclose an AND/);
    rejects('(a:x AND b:y)', 0, /parentheses cannot enclose an AND/);
    rejects('a:x AND (b:y AND c:z)', 8, /parentheses cannot enclose an AND/);
    rejects('((a:x AND b:y))', 0, /parentheses cannot enclose an AND/);
  });

  it('needs no spaces around parentheses', () => {
    expect(parseFilters('a:x AND(b:y OR c:z)')).toEqual([[f('a', 'x')], [f('b', 'y'), f('c', 'z')]]);
    expect(parseFilters('(a:x OR b:y)AND c:z')).toEqual([[f('a', 'x'), f('b', 'y')], [f('c', 'z')]]);
  });

  it('allows numeric and range atoms together in an OR-group, and facets with tags', () => {
    expect(parseFilters('price < 5 OR price:10 TO 20')).toEqual([[n('price', '<', 5), r('price', 10, 20)]]);
    expect(parseFilters('brand:a OR _tags:b OR c')).toEqual([[f('brand', 'a'), tag('b'), tag('c')]]);
  });

  it('allows numeric and facet atoms in different groups', () => {
    expect(parseFilters('price > 3 AND brand:x')).toEqual([[n('price', '>', 3)], [f('brand', 'x')]]);
  });
});

describe('parseFilters: rejected forms', () => {
  it('rejects an AND inside an OR, pointing at the OR', () => {
    expect(rejects('a:x AND b:y OR c:z', 12)).toBe(
      'filters: unexpected "OR" at position 12: an OR group cannot contain an AND',
    );
    rejects('a:x OR (b:y AND c:z)', 4, /OR group cannot contain an AND/);
    rejects('(a:x AND b:y) OR c:z', 14, /OR group cannot contain an AND/);
    rejects('a:x OR b:y OR (c:z AND d:w)', 11, /OR group cannot contain an AND/);
    rejects('a:1 AND (b:1 OR (c:1 AND d:1))', 13, /OR group cannot contain an AND/);
  });

  it('rejects NOT applied to a group', () => {
    rejects('NOT (a:x OR b:y)', 0, /NOT applies to a single filter/);
    rejects('c:z AND NOT (a:x AND b:y)', 8, /NOT applies to a single filter/);
  });

  it('rejects a repeated NOT', () => {
    rejects('NOT NOT a:x', 4, /NOT cannot be repeated/);
    rejects('NOT (NOT a:x)', 5, /NOT cannot be repeated/);
  });

  it('rejects an OR across filter types', () => {
    rejects('price > 3 OR brand:x', 13, /OR across filter types/);
    rejects('(brand:x OR price:1 TO 3)', 12, /OR across filter types/);
    rejects('a:1 AND (_tags:t OR NOT n = 3)', 20, /OR across filter types/);
  });

  it('rejects unbalanced parentheses', () => {
    rejects('(a:x OR b:y', 11, /missing "\)" to close the "\(" at position 0/);
    rejects('a:x OR b:y)', 10, /unexpected "\)".*no matching "\("/);
    rejects('((a:x)', 6, /missing "\)"/);
    rejects(')', 0, /unexpected "\)"/);
    rejects('a:x AND ()', 8, /empty parentheses/);
    expect(parseFilters(`${'('.repeat(64)}a:x${')'.repeat(64)}`)).toEqual([[f('a', 'x')]]);
    rejects(`${'('.repeat(10000)}a:x${')'.repeat(10000)}`, 64, /nested too deeply/);
  });

  it('rejects dangling operators', () => {
    rejects('a:x AND', 7, /unexpected end of expression.*expected a filter after "AND" at position 4/);
    rejects('a:x OR ', 7, /expected a filter after "OR" at position 4/);
    rejects('AND a:x', 0, /unexpected "AND" at position 0: expected a filter/);
    rejects('OR a:x', 0, /unexpected "OR"/);
    rejects('a:x AND OR b:y', 8, /unexpected "OR" at position 8: expected a filter after "AND"/);
    rejects('a:x AND AND b:y', 8, /unexpected "AND"/);
    rejects('NOT', 3, /expected a filter after "NOT"/);
    rejects('a:x AND NOT', 11, /expected a filter after "NOT" at position 8/);
    rejects('(a:x OR)', 7, /unexpected "\)" at position 7: expected a filter after "OR"/);
  });

  it('rejects empty parts and juxtaposed atoms', () => {
    rejects('a:x b:y', 4, /unexpected "b:y" at position 4: expected AND, OR or the end/);
    rejects('(a:x b:y)', 5, /expected AND, OR or "\)"/);
    rejects('a:', 1, /missing value after ":"/);
    rejects('a: AND b:y', 1, /missing value after ":" at position 1/);
    rejects('a: OR b:y', 1, /missing value after ":"/);
    rejects('(a:)', 2, /missing value after ":"/);
    rejects(':x', 0, /unexpected ":x" at position 0: expected a filter/);
    rejects('a:x AND >3', 8, /unexpected ">" at position 8: expected a filter/);
    rejects('"":x', 0, /empty quoted attribute name/);
  });

  it('rejects lower-case keywords as operators', () => {
    rejects('a:x and b:y', 4, /unexpected "and"/);
    rejects('price:1 to 5', 8, /unexpected "to"/);
  });

  it('rejects non-numeric bounds and comparison values', () => {
    expect(rejects('price:ten TO 20', 6)).toBe('filters: range bound "ten" at position 6 is not a number');
    rejects('price:10 TO twenty', 12, /range bound "twenty" at position 12 is not a number/);
    rejects('price > abc', 8, /"abc" at position 8 is not a number/);
    rejects('price >= 1.2.3', 9, /not a number/);
    rejects('price:1 TO', 8, /missing upper bound after "TO" at position 8/);
    rejects('price >', 6, /missing number after ">" at position 6/);
    rejects('(price > )', 7, /missing number after ">"/);
    rejects('price > - 3', 8, /"-" at position 8 is not a number/);
  });

  it('rejects unknown operators', () => {
    rejects('price == 3', 6, /unknown operator "==" at position 6/);
    rejects('price => 3', 6, /unknown operator "=>"/);
    rejects('price <> 3', 6, /unknown operator "<>"/);
    rejects('price ! 3', 6, /unknown operator "!"/);
  });

  it('rejects unterminated quotes', () => {
    rejects('a:"abc', 2, /unterminated quoted string starting at position 2/);
    rejects("'abc:x", 0, /unterminated quoted string/);
    rejects('a:"abc\\"', 2, /unterminated quoted string/);
  });

  it('rejects invalid scores and scores on numeric or range atoms', () => {
    rejects('a:x<score=abc>', 3, /invalid score "abc" at position 3/);
    rejects('a:x<score=-1>', 3, /invalid score/);
    rejects('a:x<score=1.5>', 3, /invalid score/);
    rejects('a:x<score=65536>', 3, /invalid score/);
    rejects('a:x<score=3', 3, /unterminated score/);
    rejects('price > 3<score=2>', 9, /numeric filter cannot have a score/);
    rejects('price:1<score=2> TO 3', 7, /range filter cannot have a score/);
    rejects('price:1 TO 3<score=2>', 12, /range filter cannot have a score/);
    rejects('a:x<score=2>y', 12, /unexpected "y"/);
  });

  it('rejects a non-string expression', () => {
    expect(error400(() => parseFilters(3 as unknown as string))).toMatch(/^filters: /);
  });
});

describe('parseFacetFilters', () => {
  it('reads a bare string as one atom', () => {
    expect(parseFacetFilters('category:Book')).toEqual([[f('category', 'Book')]]);
  });

  it('splits on the first colon and keeps spaces, ">" and commas in the value', () => {
    expect(parseFacetFilters('cat.lvl1:A > B')).toEqual([[f('cat.lvl1', 'A > B')]]);
    expect(parseFacetFilters(['author:John Doe'])).toEqual([[f('author', 'John Doe')]]);
    expect(parseFacetFilters('time:12:30')).toEqual([[f('time', '12:30')]]);
    expect(parseFacetFilters('a:x,y')).toEqual([[f('a', 'x,y')]]);
    expect(parseFacetFilters('a:"quoted"')).toEqual([[f('a', '"quoted"')]]);
  });

  it('reads the outer array as AND and inner arrays as OR', () => {
    expect(parseFacetFilters([['category:Book', 'category:Movie'], 'author:John Doe'])).toEqual([
      [f('category', 'Book'), f('category', 'Movie')],
      [f('author', 'John Doe')],
    ]);
    expect(parseFacetFilters(['a:x', 'b:y'])).toEqual([[f('a', 'x')], [f('b', 'y')]]);
  });

  it('negates attr:-value and reads attr:\\-value as a literal dash', () => {
    expect(parseFacetFilters(['category:-Movie'])).toEqual([[f('category', 'Movie', { negated: true })]]);
    expect(parseFacetFilters(['category:\\-Movie'])).toEqual([[f('category', '-Movie')]]);
    expect(parseFacetFilters('count:\\-12')).toEqual([[f('count', '-12')]]);
    expect(parseFacetFilters([['a:-x', 'a:y']])).toEqual([[f('a', 'x', { negated: true }), f('a', 'y')]]);
  });

  it('keeps a score suffix as part of the value', () => {
    expect(parseFacetFilters('a:x<score=2>')).toEqual([[f('a', 'x<score=2>')]]);
  });

  it('returns [] for no filter, an empty string, an empty array, and skips empty OR-groups', () => {
    expect(parseFacetFilters(undefined)).toEqual([]);
    expect(parseFacetFilters(null)).toEqual([]);
    expect(parseFacetFilters('')).toEqual([]);
    expect(parseFacetFilters([])).toEqual([]);
    expect(parseFacetFilters([[], 'a:x'])).toEqual([[f('a', 'x')]]);
  });

  it('rejects invalid shapes naming the parameter', () => {
    expect(error400(() => parseFacetFilters(3))).toMatch(/^facetFilters: expected a string or an array, got a number/);
    expect(error400(() => parseFacetFilters({ a: 'x' }))).toMatch(/^facetFilters: .*an object/);
    expect(error400(() => parseFacetFilters(true))).toMatch(/^facetFilters: /);
    expect(error400(() => parseFacetFilters(['a:x', 3]))).toMatch(/^facetFilters\[1\]: expected a string or an array/);
    // arrays may nest deeper (the spec's schema is recursive), strings only at the bottom
    expect(parseFacetFilters([['a:x', ['b:y']]])).toEqual(parseFacetFilters([['a:x', 'b:y']]));
    expect(error400(() => parseFacetFilters([['a:x', [3]]]))).toMatch(/^facetFilters\[0\]\[1\]\[0\]: expected a string/);
    expect(error400(() => parseFacetFilters([[null]]))).toMatch(/^facetFilters\[0\]\[0\]: .*null/);
  });

  it('rejects a filter without a colon, attribute or value', () => {
    expect(error400(() => parseFacetFilters('category'))).toMatch(/^facetFilters: "category" is not a facet filter/);
    expect(error400(() => parseFacetFilters(['a:x', 'nocolon']))).toMatch(/^facetFilters\[1\]: "nocolon"/);
    expect(error400(() => parseFacetFilters([['a:x', '']]))).toMatch(/^facetFilters\[0\]\[1\]: "" is not a facet filter/);
    expect(error400(() => parseFacetFilters(':x'))).toMatch(/no attribute name/);
    expect(error400(() => parseFacetFilters('a:'))).toMatch(/no value/);
    expect(error400(() => parseFacetFilters('a:-'))).toMatch(/no value/);
  });
});

describe('parseNumericFilters', () => {
  it('reads comparisons with every operator, with or without spaces', () => {
    const ops: NumericOperator[] = ['<', '<=', '=', '!=', '>', '>='];
    for (const op of ops) {
      expect(parseNumericFilters([`price ${op} 10`])).toEqual([[n('price', op, 10)]]);
      expect(parseNumericFilters(`price${op}-1.5`)).toEqual([[n('price', op, -1.5)]]);
    }
  });

  it('reads ranges', () => {
    expect(parseNumericFilters('price:5.99 TO 100')).toEqual([[r('price', 5.99, 100)]]);
    expect(parseNumericFilters(['price: -5 TO 5'])).toEqual([[r('price', -5, 5)]]);
  });

  it('reads a comma-separated string as an AND, with parenthesized OR-groups', () => {
    expect(parseNumericFilters('price>10, stock = 1')).toEqual([[n('price', '>', 10)], [n('stock', '=', 1)]]);
    expect(parseNumericFilters('price>10,(a=1,b:1 TO 2)')).toEqual([
      [n('price', '>', 10)],
      [n('a', '=', 1), r('b', 1, 2)],
    ]);
    expect(parseNumericFilters('a=1,,b=2,')).toEqual([[n('a', '=', 1)], [n('b', '=', 2)]]);
  });

  it('reads nested arrays as AND of ORs', () => {
    expect(parseNumericFilters(['price < 1000', ['inStock = 1', 'deliveryDate < 1441755506']])).toEqual([
      [n('price', '<', 1000)],
      [n('inStock', '=', 1), n('deliveryDate', '<', 1441755506)],
    ]);
  });

  it('returns [] for no filter', () => {
    expect(parseNumericFilters(undefined)).toEqual([]);
    expect(parseNumericFilters(' ')).toEqual([]);
    expect(parseNumericFilters([])).toEqual([]);
  });

  it('rejects malformed filters naming the parameter', () => {
    expect(error400(() => parseNumericFilters('price'))).toMatch(/^numericFilters: "price" is not a numeric filter/);
    expect(error400(() => parseNumericFilters(['price > abc']))).toMatch(/^numericFilters\[0\]: "abc" .* is not a number/);
    expect(error400(() => parseNumericFilters('price == 3'))).toMatch(/^numericFilters: unknown operator "=="/);
    expect(error400(() => parseNumericFilters('> 3'))).toMatch(/^numericFilters: .*no attribute name/);
    expect(error400(() => parseNumericFilters('price:ten TO 20'))).toMatch(/range bound "ten" .* is not a number/);
    expect(error400(() => parseNumericFilters('price:1 TO x'))).toMatch(/range bound "x"/);
    expect(error400(() => parseNumericFilters('price:10'))).toMatch(/is not a numeric filter/);
    expect(error400(() => parseNumericFilters('(a=1,b=2'))).toMatch(/^numericFilters: missing "\)"/);
    expect(error400(() => parseNumericFilters(5))).toMatch(/^numericFilters: expected a string or an array/);
    expect(error400(() => parseNumericFilters([['a=1', 2]]))).toMatch(/^numericFilters\[0\]\[1\]: expected a string/);
  });
});

describe('parseTagFilters', () => {
  it('reads tags as facet atoms on _tags', () => {
    expect(parseTagFilters(['tag1', 'tag2'])).toEqual([[tag('tag1')], [tag('tag2')]]);
    expect(parseTagFilters([['tag1', 'tag2'], 'tag3'])).toEqual([[tag('tag1'), tag('tag2')], [tag('tag3')]]);
  });

  it('reads a comma-separated string as an AND (the InstantSearch form), with parenthesized OR-groups', () => {
    expect(parseTagFilters('tag1,tag2')).toEqual([[tag('tag1')], [tag('tag2')]]);
    expect(parseTagFilters('tag1, (tag2, tag3)')).toEqual([[tag('tag1')], [tag('tag2'), tag('tag3')]]);
    expect(parseTagFilters('only')).toEqual([[tag('only')]]);
  });

  it('negates -tag and reads \\-tag as a literal dash', () => {
    expect(parseTagFilters(['tag1', '-tag2'])).toEqual([[tag('tag1')], [tag('tag2', { negated: true })]]);
    expect(parseTagFilters('-a,\\-b')).toEqual([[tag('a', { negated: true })], [tag('-b')]]);
  });

  it('returns [] for no filter', () => {
    expect(parseTagFilters(undefined)).toEqual([]);
    expect(parseTagFilters('')).toEqual([]);
    expect(parseTagFilters([])).toEqual([]);
  });

  it('rejects invalid shapes and empty tags naming the parameter', () => {
    expect(error400(() => parseTagFilters(1))).toMatch(/^tagFilters: expected a string or an array/);
    expect(error400(() => parseTagFilters([{}]))).toMatch(/^tagFilters\[0\]: expected a string or an array of strings/);
    expect(error400(() => parseTagFilters(['-']))).toMatch(/^tagFilters\[0\]: "-" is an empty tag/);
    expect(error400(() => parseTagFilters(['']))).toMatch(/^tagFilters\[0\]: .*empty tag/);
  });
});

describe('parseOptionalFilters', () => {
  it('reads facet filters with the default score 1', () => {
    expect(parseOptionalFilters('brand:Apple')).toEqual([[f('brand', 'Apple')]]);
    expect(parseOptionalFilters(['cat.lvl1:A > B'])).toEqual([[f('cat.lvl1', 'A > B')]]);
  });

  it('reads <score=N> suffixes', () => {
    expect(parseOptionalFilters(['brand:Apple<score=3>', 'brand:Samsung<score=2>', 'brand:-Huawei'])).toEqual([
      [f('brand', 'Apple', { score: 3 })],
      [f('brand', 'Samsung', { score: 2 })],
      [f('brand', 'Huawei', { negated: true })],
    ]);
    expect(parseOptionalFilters([['a:x<score=0>', 'a:y<score=65535>']])).toEqual([
      [f('a', 'x', { score: 0 }), f('a', 'y', { score: 65535 })],
    ]);
    expect(parseOptionalFilters('a:\\-x<score=4>')).toEqual([[f('a', '-x', { score: 4 })]]);
  });

  it('reads numeric and range forms, with scores', () => {
    expect(parseOptionalFilters(['rating >= 4'])).toEqual([[n('rating', '>=', 4)]]);
    expect(parseOptionalFilters('price:1 TO 5<score=2>')).toEqual([[r('price', 1, 5, { score: 2 })]]);
    expect(parseOptionalFilters('stock>0<score=7>')).toEqual([[n('stock', '>', 0, { score: 7 })]]);
  });

  it('falls back to a facet filter when the numeric form does not fit', () => {
    expect(parseOptionalFilters('title:Ten TO Twenty')).toEqual([[f('title', 'Ten TO Twenty')]]);
    expect(parseOptionalFilters('a:x>y')).toEqual([[f('a', 'x>y')]]);
  });

  it('returns [] for no filter', () => {
    expect(parseOptionalFilters(undefined)).toEqual([]);
    expect(parseOptionalFilters('')).toEqual([]);
  });

  it('rejects invalid scores, shapes and filters naming the parameter', () => {
    expect(error400(() => parseOptionalFilters('a:x<score=high>'))).toMatch(/^optionalFilters: invalid score "high"/);
    expect(error400(() => parseOptionalFilters('a:x<score=70000>'))).toMatch(/invalid score/);
    expect(error400(() => parseOptionalFilters('nocolon'))).toMatch(/^optionalFilters: "nocolon" is not a facet filter/);
    expect(error400(() => parseOptionalFilters(7))).toMatch(/^optionalFilters: expected a string or an array/);
    expect(error400(() => parseOptionalFilters([[1]]))).toMatch(/^optionalFilters\[0\]\[0\]: expected a string/);
  });
});
