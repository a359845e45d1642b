// Parsers of the search filters: the SQL-like `filters` string and the array
// forms `facetFilters`, `numericFilters`, `tagFilters` and `optionalFilters`.
// Every form parses to the same shape: an AND of OR-groups of atoms.
import { badRequest } from '../../util/errors.js';

export type NumericOperator = '<' | '<=' | '=' | '!=' | '>' | '>=';
export type FilterAtom =
  | { kind: 'facet'; attribute: string; value: string; negated: boolean; score: number }
  | { kind: 'numeric'; attribute: string; operator: NumericOperator; value: number; negated: boolean; score: number }
  | { kind: 'range'; attribute: string; low: number; high: number; negated: boolean; score: number };
/** An AND of OR-groups: every inner array is one OR-group. */
export type FilterExpression = FilterAtom[][];

const OPERATORS: readonly string[] = ['<', '<=', '=', '!=', '>', '>='];
const OPERATOR_CHARS = '<>=!';
const MAX_SCORE = 65535;
/** Deeper nesting is refused rather than risking the stack. */
const MAX_DEPTH = 64;
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const SCORE_PREFIX = '<score=';

const DEFAULT_SCORE = 1;

function toNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
}

const facet = (attribute: string, value: string, negated = false, score = DEFAULT_SCORE): FilterAtom =>
  ({ kind: 'facet', attribute, value, negated, score });

// ---------------------------------------------------------------------------
// The `filters` string
// ---------------------------------------------------------------------------

/** `paren`: the position of the "(" around the group, when it has one. */
interface Group<T extends 'and' | 'or'> { t: T; items: Node[]; ops: number[]; pos: number; paren?: number }
type Node = { t: 'atom'; atom: FilterAtom; pos: number } | Group<'and'> | Group<'or'>;

interface Located { atom: FilterAtom; pos: number }

/** Characters ending an unquoted attribute name (or a bare tag). */
const NAME_STOP = new Set([':', '(', ')', '"', "'", ...OPERATOR_CHARS]);

class FilterParser {
  private pos = 0;
  /** The last operator read, for "dangling operator" messages. */
  private lastOperator: { word: string; pos: number } | undefined;
  private depth = 0;

  constructor(private readonly src: string) {}

  parse(): FilterExpression {
    this.skipSpace();
    if (this.pos >= this.src.length) return [];
    const node = this.parseOr();
    this.skipSpace();
    if (this.pos < this.src.length) {
      if (this.src[this.pos] === ')') this.fail(`unexpected ")" at position ${this.pos}: no matching "("`);
      this.fail(`unexpected ${this.describe(this.pos)} at position ${this.pos}: expected AND, OR or the end of the expression`);
    }
    return this.normalize(node);
  }

  // -- errors ---------------------------------------------------------------

  private fail(message: string): never {
    throw badRequest(`filters: ${message}`);
  }

  /** The token at `at`, quoted for a message. */
  private describe(at: number): string {
    const c = this.src[at];
    if (c === undefined) return 'end of expression';
    if (c === '(' || c === ')' || c === '"' || c === "'") return JSON.stringify(c);
    let end = at;
    if (OPERATOR_CHARS.includes(c)) {
      while (end < this.src.length && OPERATOR_CHARS.includes(this.src[end])) end++;
    } else {
      while (end < this.src.length && !isSpace(this.src[end]) && !'()'.includes(this.src[end])) end++;
    }
    return JSON.stringify(this.src.slice(at, end));
  }

  private expectedFilter(): never {
    const at = this.pos;
    const after = this.lastOperator ? ` after "${this.lastOperator.word}" at position ${this.lastOperator.pos}` : '';
    if (at >= this.src.length) this.fail(`unexpected end of expression at position ${at}: expected a filter${after}`);
    this.fail(`unexpected ${this.describe(at)} at position ${at}: expected a filter${after}`);
  }

  // -- scanning -------------------------------------------------------------

  private skipSpace(): void {
    while (this.pos < this.src.length && isSpace(this.src[this.pos])) this.pos++;
  }

  /** Whether the upper-case keyword `kw` stands at `at` as a whole word. */
  private keywordAt(kw: string, at = this.pos): boolean {
    if (!this.src.startsWith(kw, at)) return false;
    const next = this.src[at + kw.length];
    return next === undefined || isSpace(next) || next === '(' || next === ')' || next === '"' || next === "'";
  }

  /** A quoted string starting at the current position (on the quote). */
  private readQuoted(): string {
    const open = this.pos;
    const quote = this.src[open];
    let out = '';
    let i = open + 1;
    while (i < this.src.length) {
      const c = this.src[i];
      if (c === '\\') {
        if (i + 1 >= this.src.length) break;
        out += this.src[i + 1];
        i += 2;
        continue;
      }
      if (c === quote) {
        this.pos = i + 1;
        return out;
      }
      out += c;
      i++;
    }
    this.fail(`unterminated quoted string starting at position ${open}`);
  }

  /** An attribute name (or a bare tag): quoted, or up to a space, paren, colon, quote or operator. */
  private readName(): { text: string; quoted: boolean } {
    const c = this.src[this.pos];
    if (c === '"' || c === "'") return { text: this.readQuoted(), quoted: true };
    const start = this.pos;
    while (this.pos < this.src.length && !isSpace(this.src[this.pos]) && !NAME_STOP.has(this.src[this.pos])) this.pos++;
    return { text: this.src.slice(start, this.pos), quoted: false };
  }

  /** A value: quoted, or up to a space, a ")" or a `<score=` suffix. */
  private readValue(): { text: string; quoted: boolean } {
    const c = this.src[this.pos];
    if (c === '"' || c === "'") return { text: this.readQuoted(), quoted: true };
    const start = this.pos;
    while (
      this.pos < this.src.length &&
      !isSpace(this.src[this.pos]) &&
      this.src[this.pos] !== ')' &&
      !this.src.startsWith(SCORE_PREFIX, this.pos)
    ) this.pos++;
    return { text: this.src.slice(start, this.pos), quoted: false };
  }

  /** An optional `<score=N>` suffix right at the current position. */
  private readScore(): { score: number; pos: number } | undefined {
    if (!this.src.startsWith(SCORE_PREFIX, this.pos)) return undefined;
    const at = this.pos;
    const close = this.src.indexOf('>', at);
    if (close < 0) this.fail(`unterminated score at position ${at}: expected "<score=N>"`);
    const text = this.src.slice(at + SCORE_PREFIX.length, close);
    const score = parseScore(text);
    if (score === undefined) {
      this.fail(`invalid score "${text}" at position ${at}: expected an integer from 0 to ${MAX_SCORE}`);
    }
    this.pos = close + 1;
    return { score, pos: at };
  }

  // -- grammar --------------------------------------------------------------

  private parseOr(): Node {
    const first = this.parseAnd();
    const items = [first];
    const ops: number[] = [];
    for (;;) {
      this.skipSpace();
      if (!this.keywordAt('OR')) break;
      ops.push(this.pos);
      this.lastOperator = { word: 'OR', pos: this.pos };
      this.pos += 2;
      items.push(this.parseAnd());
    }
    return items.length === 1 ? first : { t: 'or' as const, items, ops, pos: first.pos };
  }

  private parseAnd(): Node {
    const first = this.parseUnary();
    const items = [first];
    const ops: number[] = [];
    for (;;) {
      this.skipSpace();
      if (!this.keywordAt('AND')) break;
      ops.push(this.pos);
      this.lastOperator = { word: 'AND', pos: this.pos };
      this.pos += 3;
      items.push(this.parseUnary());
    }
    return items.length === 1 ? first : { t: 'and' as const, items, ops, pos: first.pos };
  }

  private parseUnary(): Node {
    this.skipSpace();
    const at = this.pos;
    const c = this.src[at];
    if (c === undefined || c === ')') this.expectedFilter();
    if (c === '(') {
      if (++this.depth > MAX_DEPTH) this.fail(`parentheses nested too deeply at position ${at}`);
      this.pos++;
      this.skipSpace();
      if (this.src[this.pos] === ')') this.fail(`empty parentheses at position ${at}`);
      this.lastOperator = undefined;
      const node = this.parseOr();
      this.skipSpace();
      if (this.src[this.pos] !== ')') {
        if (this.pos >= this.src.length) {
          this.fail(`unexpected end of expression at position ${this.pos}: missing ")" to close the "(" at position ${at}`);
        }
        this.fail(`unexpected ${this.describe(this.pos)} at position ${this.pos}: expected AND, OR or ")" to close the "(" at position ${at}`);
      }
      this.pos++;
      this.depth--;
      return node.t === 'and' ? { ...node, paren: at } : node;
    }
    if (this.keywordAt('NOT')) {
      this.lastOperator = { word: 'NOT', pos: at };
      this.pos += 3;
      this.skipSpace();
      if (this.keywordAt('NOT')) this.fail(`unexpected "NOT" at position ${this.pos}: NOT cannot be repeated`);
      const operand = this.parseUnary();
      if (operand.t !== 'atom') {
        this.fail(`unexpected group after "NOT" at position ${at}: NOT applies to a single filter, not to a group`);
      }
      if (operand.atom.negated) {
        this.fail(`unexpected "NOT" at position ${operand.pos}: NOT cannot be repeated`);
      }
      return { t: 'atom', atom: { ...operand.atom, negated: true }, pos: at };
    }
    for (const kw of ['AND', 'OR', 'TO']) {
      if (this.keywordAt(kw)) this.expectedFilter();
    }
    return this.parseAtom();
  }

  private parseAtom(): Node {
    const start = this.pos;
    const name = this.readName();
    if (!name.quoted && name.text === '') this.expectedFilter();
    if (name.text === '') this.fail(`empty quoted attribute name or tag at position ${start}`);
    const attribute = name.text;

    // A score right after a bare tag: `tag<score=2>`.
    if (this.src.startsWith(SCORE_PREFIX, this.pos)) {
      const score = this.readScore()!.score;
      return { t: 'atom', atom: facet('_tags', attribute, false, score), pos: start };
    }

    const afterName = this.pos;
    this.skipSpace();
    const c = this.src[this.pos];
    if (c === ':') return this.parseFacetOrRange(attribute, start);
    if (c !== undefined && OPERATOR_CHARS.includes(c)) return this.parseComparison(attribute, start);

    // No colon and no operator: a bare tag, `value` meaning `_tags:value`.
    this.pos = afterName;
    return { t: 'atom', atom: facet('_tags', attribute), pos: start };
  }

  private parseFacetOrRange(attribute: string, start: number): Node {
    const colon = this.pos;
    this.pos++;
    this.skipSpace();
    const valuePos = this.pos;
    // `a: AND b:c` is an empty value, not the value "AND" (`a:AND` is the value "AND").
    const spaced = valuePos > colon + 1;
    if (
      valuePos >= this.src.length || this.src[valuePos] === ')' ||
      (spaced && (this.keywordAt('AND') || this.keywordAt('OR')))
    ) {
      this.fail(`missing value after ":" at position ${colon}`);
    }
    const value = this.readValue();
    const score = this.readScore();

    // `attr:low TO high`
    const afterValue = this.pos;
    this.skipSpace();
    if (this.keywordAt('TO')) {
      const toPos = this.pos;
      if (score) this.fail(`unexpected score at position ${score.pos}: a range filter cannot have a score`);
      const low = toNumber(value.text);
      if (low === undefined) {
        this.fail(`range bound ${JSON.stringify(value.text)} at position ${valuePos} is not a number`);
      }
      this.pos += 2;
      this.skipSpace();
      const highPos = this.pos;
      if (highPos >= this.src.length || this.src[highPos] === ')') {
        this.fail(`missing upper bound after "TO" at position ${toPos}`);
      }
      const highText = this.readValue().text;
      const high = toNumber(highText);
      if (high === undefined) {
        this.fail(`range bound ${JSON.stringify(highText)} at position ${highPos} is not a number`);
      }
      if (this.src.startsWith(SCORE_PREFIX, this.pos)) {
        this.fail(`unexpected score at position ${this.pos}: a range filter cannot have a score`);
      }
      return { t: 'atom', atom: { kind: 'range', attribute, low, high, negated: false, score: DEFAULT_SCORE }, pos: start };
    }
    this.pos = afterValue;
    return { t: 'atom', atom: facet(attribute, value.text, false, score?.score ?? DEFAULT_SCORE), pos: start };
  }

  private parseComparison(attribute: string, start: number): Node {
    const opPos = this.pos;
    let end = opPos;
    while (end < this.src.length && OPERATOR_CHARS.includes(this.src[end])) end++;
    const op = this.src.slice(opPos, end);
    if (!OPERATORS.includes(op)) {
      this.fail(`unknown operator ${JSON.stringify(op)} at position ${opPos}: expected one of < <= = != > >=`);
    }
    this.pos = end;
    this.skipSpace();
    const numPos = this.pos;
    if (numPos >= this.src.length || this.src[numPos] === ')') {
      this.fail(`missing number after "${op}" at position ${opPos}`);
    }
    const text = this.readValue().text;
    if (this.src.startsWith(SCORE_PREFIX, this.pos)) {
      this.fail(`unexpected score at position ${this.pos}: a numeric filter cannot have a score`);
    }
    const value = toNumber(text);
    if (value === undefined) {
      this.fail(`${JSON.stringify(text)} at position ${numPos} is not a number (after "${op}")`);
    }
    return {
      t: 'atom',
      atom: { kind: 'numeric', attribute, operator: op as NumericOperator, value, negated: false, score: DEFAULT_SCORE },
      pos: start,
    };
  }

  // -- shape ----------------------------------------------------------------

  /** Turns the tree into an AND of OR-groups, rejecting what does not fit. */
  private normalize(node: Node): FilterExpression {
    const groups: Located[][] = [];
    const collectAnd = (n: Node): void => {
      if (n.t === 'atom') groups.push([n]);
      else if (n.t === 'or') groups.push(this.orAtoms(n));
      // parentheses around an AND are unsupported (compatibility.md): `(A AND (B OR C))`, `A AND (B AND C)`
      else if (n.paren !== undefined) this.fail(`unexpected "(" at position ${n.paren}: parentheses cannot enclose an AND`);
      else n.items.forEach(collectAnd);
    };
    collectAnd(node);
    for (const group of groups) checkTypes(group, (atPos) => this.fail(
      `OR across filter types at position ${atPos}: an OR group cannot mix numeric and facet filters`,
    ));
    return groups.map((g) => g.map((l) => l.atom));
  }

  private orAtoms(n: Group<'or'>): Located[] {
    const out: Located[] = [];
    n.items.forEach((item, i) => {
      if (item.t === 'atom') out.push(item);
      else if (item.t === 'or') out.push(...this.orAtoms(item));
      else {
        const at = n.ops[i > 0 ? i - 1 : 0];
        this.fail(`unexpected "OR" at position ${at}: an OR group cannot contain an AND`);
      }
    });
    return out;
  }
}

function parseScore(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n <= MAX_SCORE ? n : undefined;
}

/** Rejects an OR-group mixing numeric/range atoms with facet atoms. */
function checkTypes(group: Located[], fail: (pos: number) => never): void {
  if (group.length < 2) return;
  const numeric = (a: FilterAtom) => a.kind !== 'facet';
  const first = numeric(group[0].atom);
  const odd = group.find((l) => numeric(l.atom) !== first);
  if (odd) fail(odd.pos);
}

/** Parses the `filters` string; an empty string is no filter (`[]`). */
export function parseFilters(expression: string): FilterExpression {
  if (typeof expression !== 'string') throw badRequest('filters: expected a string');
  return new FilterParser(expression).parse();
}

// ---------------------------------------------------------------------------
// The array forms
// ---------------------------------------------------------------------------

type AtomParser = (text: string, where: string) => FilterAtom;

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * The common shape: a string (one atom, or a comma-separated AND list when
 * `commaList`), or an array whose strings AND together and whose inner arrays
 * of strings are OR-groups. The spec lets arrays nest deeper (its schema is
 * recursive) and the service accepts them: a deeper array's strings join the
 * OR-group it is in.
 */
/** The strings of an OR-group, with where each was, however deep its arrays nest. */
function orGroup(items: unknown[], where: string): Array<[string, string]> {
  return items.flatMap((inner, j): Array<[string, string]> => {
    if (typeof inner === 'string') return [[inner, `${where}[${j}]`]];
    if (Array.isArray(inner)) return orGroup(inner, `${where}[${j}]`);
    throw badRequest(`${where}[${j}]: expected a string, got ${typeName(inner)}`);
  });
}

function parseList(name: string, value: unknown, parseOne: AtomParser, commaList: boolean): FilterExpression {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') {
    if (value.trim() === '') return [];
    return commaList ? parseCommaList(name, value, parseOne) : [[parseOne(value, name)]];
  }
  if (!Array.isArray(value)) {
    throw badRequest(`${name}: expected a string or an array, got ${typeName(value)}`);
  }
  const out: FilterExpression = [];
  value.forEach((el, i) => {
    if (typeof el === 'string') {
      out.push([parseOne(el, `${name}[${i}]`)]);
    } else if (Array.isArray(el)) {
      const group = orGroup(el, `${name}[${i}]`).map(([text, where]) => parseOne(text, where));
      if (group.length > 0) out.push(group);
    } else {
      throw badRequest(`${name}[${i}]: expected a string or an array of strings, got ${typeName(el)}`);
    }
  });
  return out;
}

/**
 * `a,b,(c,d)`: comma-separated items ANDed, a parenthesized list being an
 * OR-group (the legacy string form of tagFilters and numericFilters, and the
 * form of every filter list inside a URL).
 */
export function splitCommaList(name: string, text: string): Array<string | string[]> {
  const out: Array<string | string[]> = [];
  let i = 0;
  const skip = () => { while (i < text.length && isSpace(text[i])) i++; };
  while (i < text.length) {
    skip();
    if (i >= text.length) break;
    if (text[i] === '(') {
      const close = text.indexOf(')', i);
      if (close < 0) throw badRequest(`${name}: missing ")" for the "(" at position ${i}`);
      const group = text.slice(i + 1, close).split(',').map((s) => s.trim()).filter((s) => s !== '');
      if (group.length > 0) out.push(group);
      i = close + 1;
      skip();
      if (i < text.length && text[i] !== ',') {
        throw badRequest(`${name}: unexpected ${JSON.stringify(text[i])} at position ${i}: expected "," after ")"`);
      }
      i++;
    } else {
      let comma = text.indexOf(',', i);
      if (comma < 0) comma = text.length;
      const item = text.slice(i, comma).trim();
      if (item !== '') out.push(item);
      i = comma + 1;
    }
  }
  return out;
}

function parseCommaList(name: string, text: string, parseOne: AtomParser): FilterExpression {
  return splitCommaList(name, text).map((item) => (Array.isArray(item) ? item : [item]).map((s) => parseOne(s, name)));
}

/** `attr:value`, `attr:-value` (negated), `attr:\-value` (a literal leading dash). */
function facetAtom(text: string, where: string, score = DEFAULT_SCORE, original = text): FilterAtom {
  const colon = text.indexOf(':');
  if (colon < 0) {
    throw badRequest(`${where}: ${JSON.stringify(original)} is not a facet filter: expected "attribute:value"`);
  }
  const attribute = text.slice(0, colon).trim();
  let value = text.slice(colon + 1).trim();
  if (attribute === '') throw badRequest(`${where}: ${JSON.stringify(original)} has no attribute name before ":"`);
  let negated = false;
  if (value.startsWith('-')) {
    negated = true;
    value = value.slice(1);
  } else if (value.startsWith('\\-')) {
    value = value.slice(1);
  }
  if (value === '') throw badRequest(`${where}: ${JSON.stringify(original)} has no value after ":"`);
  return facet(attribute, value, negated, score);
}

/**
 * `attr<op>number` or `attr:low TO high`. When `strict`, anything else is an
 * error; otherwise a string not shaped like a numeric filter returns undefined.
 */
function numericAtom(text: string, where: string, strict: boolean, score = DEFAULT_SCORE): FilterAtom | undefined {
  const quoted = JSON.stringify(text);
  const colon = text.indexOf(':');
  let opIndex = -1;
  for (let i = 0; i < text.length; i++) {
    if (OPERATOR_CHARS.includes(text[i])) { opIndex = i; break; }
  }

  if (opIndex >= 0 && (colon < 0 || colon > opIndex)) {
    const attribute = text.slice(0, opIndex).trim();
    let end = opIndex;
    while (end < text.length && OPERATOR_CHARS.includes(text[end])) end++;
    const op = text.slice(opIndex, end);
    const rest = text.slice(end).trim();
    const value = toNumber(rest);
    if (!strict && (attribute === '' || !OPERATORS.includes(op) || value === undefined)) return undefined;
    if (attribute === '') throw badRequest(`${where}: ${quoted} has no attribute name before "${op}"`);
    if (!OPERATORS.includes(op)) {
      throw badRequest(`${where}: unknown operator ${JSON.stringify(op)} in ${quoted}: expected one of < <= = != > >=`);
    }
    if (value === undefined) throw badRequest(`${where}: ${JSON.stringify(rest)} in ${quoted} is not a number`);
    return { kind: 'numeric', attribute, operator: op as NumericOperator, value, negated: false, score };
  }

  if (colon >= 0) {
    const attribute = text.slice(0, colon).trim();
    // The service takes the range keyword in any case here (`TO` or `to`).
    const m = /^\s*(\S+)\s+TO\s+(\S+)\s*$/i.exec(text.slice(colon + 1));
    if (!m) {
      if (!strict) return undefined;
      throw badRequest(`${where}: ${quoted} is not a numeric filter: expected "attribute:low TO high"`);
    }
    const low = toNumber(m[1]);
    const high = toNumber(m[2]);
    if (!strict && (attribute === '' || low === undefined || high === undefined)) return undefined;
    if (attribute === '') throw badRequest(`${where}: ${quoted} has no attribute name before ":"`);
    if (low === undefined) throw badRequest(`${where}: range bound ${JSON.stringify(m[1])} in ${quoted} is not a number`);
    if (high === undefined) throw badRequest(`${where}: range bound ${JSON.stringify(m[2])} in ${quoted} is not a number`);
    return { kind: 'range', attribute, low, high, negated: false, score };
  }

  if (!strict) return undefined;
  throw badRequest(
    `${where}: ${quoted} is not a numeric filter: expected "attribute<operator>number" or "attribute:low TO high"`,
  );
}

/** `facetFilters`: `"attr:value"` strings; outer array AND, inner arrays OR. */
export function parseFacetFilters(value: unknown): FilterExpression {
  return parseList('facetFilters', value, (text, where) => facetAtom(text, where), false);
}

/** `numericFilters`: `"attr<op>number"` / `"attr:low TO high"`; a string is a comma-separated AND list. */
export function parseNumericFilters(value: unknown): FilterExpression {
  return parseList('numericFilters', value, (text, where) => numericAtom(text, where, true)!, true);
}

/** `tagFilters`: tags on `_tags`, `-tag` negated, `\-tag` literal; a string is a comma-separated AND list. */
export function parseTagFilters(value: unknown): FilterExpression {
  return parseList('tagFilters', value, (text, where) => {
    let tag = text.trim();
    let negated = false;
    if (tag.startsWith('-')) {
      negated = true;
      tag = tag.slice(1);
    } else if (tag.startsWith('\\-')) {
      tag = tag.slice(1);
    }
    if (tag === '') throw badRequest(`${where}: ${JSON.stringify(text)} is an empty tag`);
    return facet('_tags', tag, negated);
  }, true);
}

/** `optionalFilters`: like facetFilters, plus numeric forms and a `<score=N>` suffix (default score 1). */
export function parseOptionalFilters(value: unknown): FilterExpression {
  return parseList('optionalFilters', value, (text, where) => {
    let body = text;
    let score = DEFAULT_SCORE;
    const m = /<score=([^>]*)>\s*$/.exec(text);
    if (m) {
      const parsed = parseScore(m[1]);
      if (parsed === undefined) {
        throw badRequest(`${where}: invalid score "${m[1]}" in ${JSON.stringify(text)}: expected an integer from 0 to ${MAX_SCORE}`);
      }
      score = parsed;
      body = text.slice(0, m.index);
    }
    return numericAtom(body, where, false, score) ?? facetAtom(body, where, score, text);
  }, false);
}
