// Fuzzing the filter parsers: the `filters` string and the list forms
// (facetFilters, numericFilters, tagFilters, optionalFilters). Every input —
// random token soups over a grammar-aware alphabet, mutations of valid
// expressions, random JSON-like values — must either parse to a well-formed
// FilterExpression or be refused with an ApiError 400 carrying a message;
// nothing else may escape. Generated valid expressions must parse to exactly
// the expression they were built from. A few thousand of the `filters`
// strings then go through a real engine: 200 when the parser accepts them,
// 400 when it refuses them, never 500. Everything is seeded (deterministic).
import { beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../support/random.js';
import { ApiError } from '../../src/util/errors.js';
import {
  parseFacetFilters, parseFilters, parseNumericFilters, parseOptionalFilters, parseTagFilters,
  type FilterAtom, type FilterExpression,
} from '../../src/index/filters/parse.js';
import { Lantern } from '../../src/index.js';

// ---------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------

class Rng {
  readonly next: () => number;
  constructor(seed: number) { this.next = prng(seed); }
  int(n: number): number { return Math.floor(this.next() * n); }
  range(lo: number, hi: number): number { return lo + this.int(hi - lo + 1); }
  chance(p: number): boolean { return this.next() < p; }
  pick<T>(list: readonly T[]): T { return list[this.int(list.length)]; }
}

// ---------------------------------------------------------------------------
// Outcome checking
// ---------------------------------------------------------------------------

const OPERATORS = new Set(['<', '<=', '=', '!=', '>', '>=']);
const KEYS: Record<FilterAtom['kind'], string> = {
  facet: 'attribute,kind,negated,score,value',
  numeric: 'attribute,kind,negated,operator,score,value',
  range: 'attribute,high,kind,low,negated,score',
};

interface Shape {
  /** Atom kinds allowed. */
  kinds: ReadonlySet<FilterAtom['kind']>;
  /** Facet values must be non-empty (the list forms refuse empty values). */
  nonEmptyValue: boolean;
  /** Every facet atom is on `_tags`. */
  tagsOnly?: boolean;
  /** Scores other than 1 may appear. */
  scores: boolean;
  /** OR-groups never mix facet and numeric atoms. */
  homogeneousGroups?: boolean;
}

const SHAPES = {
  filters: { kinds: new Set(['facet', 'numeric', 'range']), nonEmptyValue: false, scores: true, homogeneousGroups: true },
  facetFilters: { kinds: new Set(['facet']), nonEmptyValue: true, scores: false },
  numericFilters: { kinds: new Set(['numeric', 'range']), nonEmptyValue: true, scores: false },
  tagFilters: { kinds: new Set(['facet']), nonEmptyValue: true, tagsOnly: true, scores: false },
  optionalFilters: { kinds: new Set(['facet', 'numeric', 'range']), nonEmptyValue: true, scores: true },
} satisfies Record<string, Shape>;

/** Why `result` is not a well-formed FilterExpression (undefined when it is). */
function malformation(result: unknown, shape: Shape): string | undefined {
  if (!Array.isArray(result)) return 'not an array';
  for (const group of result) {
    if (!Array.isArray(group)) return 'a group is not an array';
    if (group.length === 0) return 'an empty group';
    let numericSeen = false;
    let facetSeen = false;
    for (const atom of group as FilterAtom[]) {
      if (atom === null || typeof atom !== 'object' || Array.isArray(atom)) return 'an atom is not an object';
      if (!shape.kinds.has(atom.kind)) return `unexpected kind ${String(atom.kind)}`;
      if (Object.keys(atom).sort().join(',') !== KEYS[atom.kind]) return `${atom.kind} atom with keys ${Object.keys(atom)}`;
      if (typeof atom.attribute !== 'string' || atom.attribute === '') return 'empty or non-string attribute';
      if (typeof atom.negated !== 'boolean') return 'non-boolean negated';
      if (!Number.isInteger(atom.score) || atom.score < 0 || atom.score > 65535) return `bad score ${atom.score}`;
      if (!shape.scores && atom.score !== 1) return `score ${atom.score} where scores do not exist`;
      if (atom.kind === 'facet') {
        facetSeen = true;
        if (typeof atom.value !== 'string') return 'non-string facet value';
        if (shape.nonEmptyValue && atom.value === '') return 'empty facet value';
        if (shape.tagsOnly && atom.attribute !== '_tags') return `tag filter on ${atom.attribute}`;
      } else if (atom.kind === 'numeric') {
        numericSeen = true;
        if (!OPERATORS.has(atom.operator)) return `bad operator ${String(atom.operator)}`;
        if (typeof atom.value !== 'number' || !Number.isFinite(atom.value)) return `non-finite value ${atom.value}`;
      } else {
        numericSeen = true;
        if (typeof atom.low !== 'number' || !Number.isFinite(atom.low)) return `non-finite low ${atom.low}`;
        if (typeof atom.high !== 'number' || !Number.isFinite(atom.high)) return `non-finite high ${atom.high}`;
      }
    }
    if (shape.homogeneousGroups && numericSeen && facetSeen) return 'an OR-group mixing facet and numeric atoms';
  }
  return undefined;
}

type Outcome = { ok: true; value: FilterExpression } | { ok: false; message: string };

interface Tally { cases: number; ok: number; refused: number; failures: string[] }
const newTally = (): Tally => ({ cases: 0, ok: 0, refused: 0, failures: [] });

const show = (input: unknown): string => {
  let text: string;
  try { text = typeof input === 'string' ? JSON.stringify(input) : JSON.stringify(input) ?? String(input); } catch { text = String(input); }
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
};

/** Runs one parser on one input, recording anything but a well-formed result or an ApiError 400. */
let totalCases = 0;

function run(tally: Tally, name: string, parse: (v: any) => FilterExpression, shape: Shape, input: unknown): Outcome | undefined {
  tally.cases++;
  totalCases++;
  let value: FilterExpression;
  try {
    value = parse(input);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && typeof error.message === 'string' && error.message.length > 0) {
      tally.refused++;
      return { ok: false, message: error.message };
    }
    const what = error instanceof ApiError ? `ApiError ${error.status} ${JSON.stringify(error.message)}` : String((error as Error)?.stack ?? error).split('\n').slice(0, 3).join(' | ');
    if (tally.failures.length < 20) tally.failures.push(`${name}(${show(input)}) threw ${what}`);
    return undefined;
  }
  const problem = malformation(value, shape);
  if (problem) {
    if (tally.failures.length < 20) tally.failures.push(`${name}(${show(input)}) returned ${problem}: ${show(value)}`);
    return undefined;
  }
  tally.ok++;
  return { ok: true, value };
}

// ---------------------------------------------------------------------------
// Generators: grammar-aware token soups
// ---------------------------------------------------------------------------

const ATTRIBUTES = [
  'brand', 'price', 'tags', '_tags', 'a', 'b', 'specs.color', 'sellers.name', 'inStock', 'é', '名前', 'x_1',
  '"quoted attr"', "'single attr'", '""', '"a\\"b"', 'AND', 'OR', 'NOT', 'TO', 'and', 'or', 'not', 'to',
];
const VALUES = [
  'red', 'Acme', 'x', 'Hats & Co', '10', '-5', '0', '1.5', '.5', '5.', '1e3', '-1E-2', '+3', '1e999', '-1e400', 'NaN',
  'Infinity', '-Infinity', '0x10', '1_000', '""', "''", '"a\\"b"', "'it\\'s'", '"unterminated', "'unterminated",
  '\\', '\\\\', '-', '\\-x', '-x', ':', '::', 'true', 'false', 'null', '9007199254740993', '1.7976931348623157e308',
];
const OPERATOR_TOKENS = [':', ':', ':', '<', '<=', '=', '!=', '>', '>=', '<>', '==', '!', '=<', '=>', '!==', '<<', '>>=', '=!'];
const KEYWORDS = ['AND', 'OR', 'NOT', 'TO', 'AND', 'OR', 'NOT', 'TO', 'and', 'or', 'not', 'to', 'And', 'ANDOR', 'NOTNOT'];
const PARENS = ['(', ')', '(', ')', '((', '))', '()', ')('];
const SCORES = ['<score=1>', '<score=0>', '<score=65535>', '<score=65536>', '<score=-1>', '<score=>', '<score=1.5>', '<score=', '<score=abc>', '<score=007>', '<score=99999999999999999999>', '<SCORE=2>', '<score =2>'];
const QUOTES = ['"', "'", '\\', '\\"', "\\'", '\\\\', '"\\', '`'];
const SPACES = [' ', ' ', ' ', '  ', '\t', '\n', '\r', '\f', '\v', '\u00a0', '\u2003', '\u3000'];
const UNICODE = ['ü', 'É', '日本', '🙂', '\u0000', '\ud800', '\udfff', '\u200b', '\ufeff', '\u0301', 'ß', 'İ', 'ﬁ', ',', ';', '*', '%', '$', '#', '{', '}', '[', ']'];
const NUMBERS = ['0', '1', '-1', '42', '-0', '0.0', '3.14', '-2.5', '.5', '-.5', '5.', '1e3', '1E-3', '-1.5e+2', '+7', '1e309', '00012', '1.2.3', '--1', '1e', 'e1', '.', '-'];

function token(rng: Rng): string {
  switch (rng.int(11)) {
    case 0: case 1: return rng.pick(ATTRIBUTES);
    case 2: case 3: return rng.pick(VALUES);
    case 4: return rng.pick(OPERATOR_TOKENS);
    case 5: return rng.pick(KEYWORDS);
    case 6: return rng.pick(PARENS);
    case 7: return rng.pick(SCORES);
    case 8: return rng.pick(QUOTES);
    case 9: return rng.pick(NUMBERS);
    default: return rng.pick(UNICODE);
  }
}

/** A small well-formed-looking fragment: `attr:value`, `attr op n`, `attr:n TO n`. */
function fragment(rng: Rng): string {
  const attribute = rng.pick(ATTRIBUTES);
  switch (rng.int(4)) {
    case 0: return `${attribute}:${rng.pick(VALUES)}`;
    case 1: return `${attribute}${rng.pick(['', ' '])}${rng.pick(OPERATOR_TOKENS)}${rng.pick(['', ' '])}${rng.pick(NUMBERS)}`;
    case 2: return `${attribute}:${rng.pick(NUMBERS)} TO ${rng.pick(NUMBERS)}`;
    default: return `${attribute}:${rng.pick(VALUES)}${rng.pick(SCORES)}`;
  }
}

function soup(rng: Rng): string {
  const n = rng.range(1, 14);
  let out = '';
  for (let i = 0; i < n; i++) {
    if (i > 0 && rng.chance(0.6)) out += rng.pick(SPACES);
    out += rng.chance(0.3) ? fragment(rng) : token(rng);
  }
  return out;
}

/** Very long inputs and deep nesting. */
function extreme(rng: Rng): string {
  const valid = 'brand:Acme';
  switch (rng.int(10)) {
    case 0: return `${'('.repeat(rng.range(1, 70))}${valid}${')'.repeat(rng.range(1, 70))}`;
    case 1: { const n = rng.range(1000, 20000); return `${'('.repeat(n)}${valid}${')'.repeat(n)}`; }
    case 2: return `${'NOT '.repeat(rng.range(1, 5000))}${valid}`;
    case 3: return Array.from({ length: rng.range(100, 3000) }, (_, i) => `a:v${i}`).join(rng.pick([' AND ', ' OR ']));
    case 4: return `(${Array.from({ length: rng.range(100, 3000) }, (_, i) => `a:v${i}`).join(' OR ')}) AND price > 3`;
    case 5: return `a:"${'x'.repeat(rng.range(1000, 50000))}`;
    case 6: return 'x'.repeat(rng.range(1000, 100000));
    case 7: return '<score='.repeat(rng.range(100, 3000));
    case 8: return `a:${'\\'.repeat(rng.range(100, 5000))}`;
    default: return Array.from({ length: rng.range(200, 2000) }, () => token(rng)).join(' ');
  }
}

// ---------------------------------------------------------------------------
// Generators: valid expressions with the expression they must parse to
// ---------------------------------------------------------------------------

const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-éü日本🙂';
const VALUE_CHARS = `${NAME_CHARS}:(!@#&*+,;=<>'"`;
const QUOTED_CHARS = `${NAME_CHARS} ()"'\\:<>=!,\t`;
const KEYWORD_SET = new Set(['AND', 'OR', 'NOT', 'TO']);
const VALID_NUMBERS = ['0', '1', '-1', '42', '-0', '3.14', '-2.5', '.5', '-.5', '5.', '1e3', '1E-3', '-1.5e+2', '+7', '00012', '123456789', '1.7976931348623157e308'];

function chars(rng: Rng, alphabet: string, min: number, max: number): string {
  const list = [...alphabet];
  let out = '';
  for (let n = rng.range(min, max); n > 0; n--) out += rng.pick(list);
  return out;
}

function quote(rng: Rng, text: string): string {
  const q = rng.pick(['"', "'"]);
  let out = '';
  for (const c of text) {
    if (c === '\\' || c === q) out += `\\${c}`;
    else out += rng.chance(0.05) ? `\\${c}` : c; // a needless escape keeps the character
  }
  return `${q}${out}${q}`;
}

/** An unquoted name (attribute or bare tag): no stop character, not a keyword. */
function plainName(rng: Rng): string {
  for (;;) {
    const name = chars(rng, NAME_CHARS, 1, 10);
    if (!KEYWORD_SET.has(name)) return name;
  }
}

/** [source text, parsed text] of a name. */
function name(rng: Rng): [string, string] {
  if (rng.chance(0.25)) {
    const text = chars(rng, QUOTED_CHARS, 1, 12);
    return [quote(rng, text), text];
  }
  const text = plainName(rng);
  return [text, text];
}

function value(rng: Rng): [string, string] {
  if (rng.chance(0.3)) {
    const text = chars(rng, QUOTED_CHARS, 0, 12);
    return [quote(rng, text), text];
  }
  let text = chars(rng, VALUE_CHARS, 1, 10);
  while (text.startsWith('"') || text.startsWith("'") || text.includes('<score=')) text = chars(rng, NAME_CHARS, 1, 10);
  if (rng.chance(0.05)) text = rng.pick(['AND', 'OR', 'NOT', 'TO']); // right after the colon these are values
  return [text, text];
}

const space = (rng: Rng): string => rng.pick([' ', ' ', ' ', '  ', '\t', '\n', ' \r\n ']);
const pad = (rng: Rng): string => (rng.chance(0.7) ? '' : space(rng));

interface Valid { text: string; expected: FilterExpression }

function validAtom(rng: Rng, numeric: boolean): { text: string; atom: FilterAtom } {
  const [attrText, attribute] = name(rng);
  let text: string;
  let atom: FilterAtom;
  if (numeric) {
    if (rng.chance(0.3)) {
      const low = rng.pick(VALID_NUMBERS);
      const high = rng.pick(VALID_NUMBERS);
      text = `${attrText}${pad(rng)}:${pad(rng)}${low}${space(rng)}TO${space(rng)}${high}`;
      atom = { kind: 'range', attribute, low: Number(low), high: Number(high), negated: false, score: 1 };
    } else {
      const operator = rng.pick(['<', '<=', '=', '!=', '>', '>='] as const);
      const n = rng.pick(VALID_NUMBERS);
      text = `${attrText}${pad(rng)}${operator}${pad(rng)}${n}`;
      atom = { kind: 'numeric', attribute, operator, value: Number(n), negated: false, score: 1 };
    }
  } else {
    const score = rng.chance(0.2) ? rng.int(65536) : 1;
    const scoreText = score !== 1 || rng.chance(0.05) ? `<score=${score}>` : '';
    if (rng.chance(0.25)) {
      text = `${attrText}${scoreText}`;
      atom = { kind: 'facet', attribute: '_tags', value: attribute, negated: false, score };
    } else {
      const [valueText, v] = value(rng);
      // A space after the colon is allowed, except before a value a keyword would swallow.
      const gap = KEYWORD_SET.has(valueText) ? '' : pad(rng);
      text = `${attrText}${pad(rng)}:${gap}${valueText}${scoreText}`;
      atom = { kind: 'facet', attribute, value: v, negated: false, score };
    }
  }
  if (rng.chance(0.2)) {
    text = `NOT${space(rng)}${text}`;
    atom = { ...atom, negated: true };
  }
  if (rng.chance(0.1)) text = `(${pad(rng)}${text}${pad(rng)})`;
  return { text, atom };
}

const join = (rng: Rng, parts: string[], keyword: string): string =>
  parts.reduce((acc, part) => `${acc}${space(rng)}${keyword}${space(rng)}${part}`);

function validOrGroup(rng: Rng): { text: string; atoms: FilterAtom[] } {
  const numeric = rng.chance(0.4);
  const atoms = Array.from({ length: rng.range(1, 4) }, () => validAtom(rng, numeric));
  let texts = atoms.map((a) => a.text);
  // Nested ORs flatten: `a OR (b OR c)`.
  if (texts.length >= 3 && rng.chance(0.3)) texts = [texts[0], `(${join(rng, texts.slice(1), 'OR')})`];
  return { text: join(rng, texts, 'OR'), atoms: atoms.map((a) => a.atom) };
}

function validExpression(rng: Rng): Valid {
  const groups = Array.from({ length: rng.range(1, 4) }, () => validOrGroup(rng));
  const single = groups.length === 1;
  const texts = groups.map((g) => (g.atoms.length > 1 && (!single || rng.chance(0.5)) ? `(${pad(rng)}${g.text}${pad(rng)})` : g.text));
  // parentheses around an AND are unsupported (compatibility.md): only a single group is wrapped whole
  let text = join(rng, texts, 'AND');
  if (texts.length === 1 && rng.chance(0.1)) text = `(${text})`;
  text = `${pad(rng)}${text}${pad(rng)}`;
  return { text, expected: groups.map((g) => g.atoms) };
}

// ---------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------

function mutate(rng: Rng, text: string): string {
  let out = text;
  for (let n = rng.range(1, 3); n > 0; n--) {
    const chars = [...out];
    const i = rng.int(chars.length + 1);
    const tokens = out.split(/(\s+)/);
    const t = rng.int(tokens.length);
    switch (rng.int(8)) {
      case 0: chars.splice(i, 1); out = chars.join(''); break; // delete a character
      case 1: if (i < chars.length) chars.splice(i, 0, chars[i]); out = chars.join(''); break; // duplicate one
      case 2: if (i + 1 < chars.length) [chars[i], chars[i + 1]] = [chars[i + 1], chars[i]]; out = chars.join(''); break; // swap two
      case 3: chars.splice(i, 0, rng.pick([...'()"\'\\:<>=! ,-.', ...SPACES, ...UNICODE])); out = chars.join(''); break; // insert one
      case 4: tokens.splice(t, 1); out = tokens.join(''); break; // delete a token
      case 5: tokens.splice(t, 0, tokens[t] ?? '', ' '); out = tokens.join(''); break; // duplicate a token
      case 6: { const u = rng.int(tokens.length); [tokens[t], tokens[u]] = [tokens[u], tokens[t]]; out = tokens.join(''); break; } // swap tokens
      default: tokens.splice(t, 0, rng.pick([' ', '']), token(rng), rng.pick([' ', ''])); out = tokens.join(''); break; // insert a token
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Generators: the list forms
// ---------------------------------------------------------------------------

const LIST_STRINGS = [
  'brand:Acme', 'brand:-Acme', 'brand:\\-Acme', 'brand:', ':Acme', ':', 'brand', ' brand : Acme ', 'a:b:c', 'a:-', 'a:\\-',
  'price>10', 'price >= -1.5', 'price=1e3', 'price!=0', 'price<>1', 'price=>1', 'price>', '>5', 'price>abc', 'price>1e999',
  'price:1 TO 5', 'price: -1 TO 1e2', 'price:1 TO', 'price:a TO b', 'price:1 TO 2 TO 3', ':1 TO 2', 'a:b<score=3>',
  'a:b<score=99999>', 'a:b<score=x>', 'price>1<score=2>', 'tag', '-tag', '\\-tag', '-', '\\-', '', ' ', ',', 'a,b',
  '(a,b),c', '(a,b', 'a),b', '((a))', '(,)', '(a)x', 'a:b,c:d', 'price>1,price<5', '(price>1,price<0),x:y', '🙂:日本',
  'a:"quoted"', '\u0000', '\ud800:x', 'NOT a:b', 'a:b OR c:d', 'a:b AND c:d', '<score=2>', 'a<score=2>',
];

function listString(rng: Rng): string {
  if (rng.chance(0.5)) return rng.pick(LIST_STRINGS);
  const parts = Array.from({ length: rng.range(1, 5) }, () => (rng.chance(0.7) ? rng.pick(LIST_STRINGS) : token(rng)));
  return parts.join(rng.pick(['', ',', ' ', ', ', ':']));
}

function jsonish(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth === 0 ? 12 : 10)) {
    case 0: case 1: case 2: case 3: return listString(rng);
    case 4: return rng.pick([0, 1, -1, 1.5, NaN, Infinity, -0, 1e308]);
    case 5: return rng.pick([null, undefined]);
    case 6: return rng.chance(0.5);
    case 7: return rng.pick<unknown>([{}, { a: 1 }, { facetFilters: 'a:b' }, { toString: () => 'a:b' }, new Date(0), /a:b/]);
    default: return depth >= 3 ? listString(rng) : Array.from({ length: rng.int(5) }, () => jsonish(rng, depth + 1));
  }
}

interface ValidList { input: unknown; expected: FilterExpression }

/** A valid list-form input of `kind` and the expression it must parse to. */
function validList(rng: Rng, kind: 'facetFilters' | 'numericFilters' | 'tagFilters' | 'optionalFilters'): ValidList {
  const padded = (s: string) => (rng.chance(0.2) ? ` ${s} ` : s);
  const one = (): { text: string; atom: FilterAtom } => {
    if (kind === 'tagFilters') {
      const tag = plainName(rng).replace(/^-+/, '') || 'x';
      if (rng.chance(0.2)) return { text: padded(`-${tag}`), atom: { kind: 'facet', attribute: '_tags', value: tag, negated: true, score: 1 } };
      return { text: padded(tag), atom: { kind: 'facet', attribute: '_tags', value: tag, negated: false, score: 1 } };
    }
    const attribute = plainName(rng).replace(/[-]/g, '_');
    if (kind === 'numericFilters' || (kind === 'optionalFilters' && rng.chance(0.3))) {
      if (rng.chance(0.3)) {
        const low = rng.pick(VALID_NUMBERS);
        const high = rng.pick(VALID_NUMBERS);
        return { text: `${attribute}:${low} TO ${high}`, atom: { kind: 'range', attribute, low: Number(low), high: Number(high), negated: false, score: 1 } };
      }
      const operator = rng.pick(['<', '<=', '=', '!=', '>', '>='] as const);
      const n = rng.pick(VALID_NUMBERS);
      return { text: `${padded(attribute)}${operator}${padded(n)}`, atom: { kind: 'numeric', attribute, operator, value: Number(n), negated: false, score: 1 } };
    }
    let v = chars(rng, 'abcXYZ019_.é日 :', 1, 8).trim().replace(/^-/, '');
    if (v === '' || /^\d/.test(v)) v = `v${v}`;
    const negated = rng.chance(0.2);
    const score = kind === 'optionalFilters' && rng.chance(0.3) ? rng.int(100) : 1;
    const text = `${padded(attribute)}:${negated ? '-' : ''}${v}${score !== 1 ? `<score=${score}>` : ''}`;
    return { text, atom: { kind: 'facet', attribute, value: v, negated, score } };
  };
  const input: Array<string | string[]> = [];
  const expected: FilterExpression = [];
  for (let n = rng.range(0, 4); n > 0; n--) {
    if (rng.chance(0.4)) {
      const group = Array.from({ length: rng.range(1, 3) }, one);
      input.push(group.map((g) => g.text));
      expected.push(group.map((g) => g.atom));
    } else {
      const single = one();
      input.push(single.text);
      expected.push([single.atom]);
    }
  }
  // numericFilters and tagFilters also take a comma-separated string.
  if ((kind === 'numericFilters' || kind === 'tagFilters') && rng.chance(0.3) && input.length > 0) {
    return { input: input.map((x) => (Array.isArray(x) ? `(${x.join(',')})` : x)).join(','), expected };
  }
  return { input, expected };
}

// ---------------------------------------------------------------------------
// The suites
// ---------------------------------------------------------------------------

/** `filters` strings kept for the end-to-end pass, with whether the parser accepted them. */
const corpus: Array<{ filters: string; ok: boolean }> = [];
const keep = (rng: Rng, filters: string, outcome: Outcome | undefined) => {
  if (outcome && filters.length <= 4000 && corpus.length < 20000 && rng.chance(0.06)) corpus.push({ filters, ok: outcome.ok });
};

function report(tally: Tally): void {
  expect(tally.failures, tally.failures.join('\n')).toEqual([]);
}

describe('filters parser fuzz', () => {
  it('token soups: a well-formed expression or an ApiError 400, nothing else', () => {
    const rng = new Rng(0x5eed0001);
    const tally = newTally();
    for (let i = 0; i < 40000; i++) {
      const text = soup(rng);
      keep(rng, text, run(tally, 'parseFilters', parseFilters, SHAPES.filters, text));
    }
    report(tally);
    expect(tally.cases).toBe(40000);
    // The generator exercises both sides.
    expect(tally.ok).toBeGreaterThan(2000);
    expect(tally.refused).toBeGreaterThan(10000);
  });

  it('very long inputs and deep nesting', () => {
    const rng = new Rng(0x5eed0002);
    const tally = newTally();
    for (let i = 0; i < 300; i++) {
      const text = extreme(rng);
      keep(rng, text, run(tally, 'parseFilters', parseFilters, SHAPES.filters, text));
    }
    report(tally);
    // Nesting up to 64 levels is accepted, deeper is refused.
    expect(parseFilters(`${'('.repeat(64)}a:b${')'.repeat(64)}`)).toEqual([[{ kind: 'facet', attribute: 'a', value: 'b', negated: false, score: 1 }]]);
    expect(() => parseFilters(`${'('.repeat(100000)}a:b${')'.repeat(100000)}`)).toThrow(ApiError);
    const long = Array.from({ length: 5000 }, (_, i) => `a:v${i}`).join(' OR ');
    expect(parseFilters(long)[0]).toHaveLength(5000);
  });

  it('generated valid expressions parse to exactly the expression they were built from', () => {
    const rng = new Rng(0x5eed0003);
    const tally = newTally();
    const mismatches: string[] = [];
    for (let i = 0; i < 20000; i++) {
      const { text, expected } = validExpression(rng);
      const outcome = run(tally, 'parseFilters', parseFilters, SHAPES.filters, text);
      keep(rng, text, outcome);
      if (outcome && !outcome.ok && mismatches.length < 10) mismatches.push(`${show(text)} refused: ${outcome.message}`);
      if (outcome?.ok && JSON.stringify(outcome.value) !== JSON.stringify(expected) && mismatches.length < 10) {
        mismatches.push(`${show(text)}\n  expected ${show(expected)}\n  got      ${show(outcome.value)}`);
      }
    }
    report(tally);
    expect(mismatches, mismatches.join('\n')).toEqual([]);
  });

  it('mutations of valid expressions: a well-formed expression or an ApiError 400', () => {
    const rng = new Rng(0x5eed0004);
    const tally = newTally();
    for (let i = 0; i < 25000; i++) {
      const text = mutate(rng, validExpression(rng).text);
      keep(rng, text, run(tally, 'parseFilters', parseFilters, SHAPES.filters, text));
    }
    report(tally);
    expect(tally.ok).toBeGreaterThan(2000);
    expect(tally.refused).toBeGreaterThan(2000);
  });

  it('non-string filters are refused with a 400', () => {
    const tally = newTally();
    for (const input of [undefined, null, 1, true, {}, [], ['a:b'], NaN]) run(tally, 'parseFilters', parseFilters, SHAPES.filters, input);
    report(tally);
    expect(tally.refused).toBe(8);
  });

  it('parsing is deterministic', () => {
    const rng = new Rng(0x5eed0005);
    for (let i = 0; i < 2000; i++) {
      const text = rng.chance(0.5) ? soup(rng) : mutate(rng, validExpression(rng).text);
      const once = (() => { try { return JSON.stringify(parseFilters(text)); } catch (e) { return `error ${(e as Error).message}`; } })();
      const twice = (() => { try { return JSON.stringify(parseFilters(text)); } catch (e) { return `error ${(e as Error).message}`; } })();
      expect(twice).toBe(once);
    }
  });
});

describe('list parsers fuzz', () => {
  const parsers = [
    ['facetFilters', parseFacetFilters],
    ['numericFilters', parseNumericFilters],
    ['tagFilters', parseTagFilters],
    ['optionalFilters', parseOptionalFilters],
  ] as const;

  for (const [name, parse] of parsers) {
    it(`${name}: random JSON-like values give a well-formed expression or an ApiError 400`, () => {
      const rng = new Rng(0x11570000 + name.length);
      const tally = newTally();
      for (let i = 0; i < 6000; i++) {
        const input = jsonish(rng);
        run(tally, name, parse, SHAPES[name], input);
        // Every element of a failing array also goes on its own, and mutated strings too.
        if (typeof input === 'string') run(tally, name, parse, SHAPES[name], mutate(rng, input || 'a:b'));
      }
      report(tally);
      expect(tally.ok).toBeGreaterThan(500);
      expect(tally.refused).toBeGreaterThan(500);
    });

    it(`${name}: generated valid lists parse to exactly the expression they were built from`, () => {
      const rng = new Rng(0x7a110000 + name.length);
      const tally = newTally();
      const mismatches: string[] = [];
      for (let i = 0; i < 1500; i++) {
        const { input, expected } = validList(rng, name);
        const outcome = run(tally, name, parse, SHAPES[name], input);
        if (outcome && !outcome.ok && mismatches.length < 10) mismatches.push(`${show(input)} refused: ${outcome.message}`);
        if (outcome?.ok && JSON.stringify(outcome.value) !== JSON.stringify(expected) && mismatches.length < 10) {
          mismatches.push(`${show(input)}\n  expected ${show(expected)}\n  got      ${show(outcome.value)}`);
        }
      }
      report(tally);
      expect(mismatches, mismatches.join('\n')).toEqual([]);
    });
  }
});

describe('coverage', () => {
  it('the parser suites ran at least 100,000 generated cases', () => {
    expect(totalCases).toBeGreaterThanOrEqual(100000);
  });
});

describe('filters end to end', () => {
  let engine: Lantern;

  beforeAll(async () => {
    engine = await Lantern.open({});
    const settings = await engine.request({
      method: 'PUT', path: '/1/indexes/x/settings',
      body: { searchableAttributes: ['name', 'brand'], attributesForFaceting: ['brand', 'tags', 'price', 'specs.color', 'a', 'b', 'searchable(é)', 'filterOnly(名前)'] },
    });
    expect(settings.status).toBe(200);
    const records = [
      { objectID: '1', name: 'red shirt', brand: 'Acme', price: 10, tags: ['x', 'AND'], _tags: ['new'], specs: { color: 'red' }, a: 'b', b: 1 },
      { objectID: '2', name: 'blue hat', brand: 'Globex', price: -5.5, tags: ['y'], _tags: ['tag', '-promo'], specs: { color: 'blue' }, a: '"quoted"', é: 'ü' },
      { objectID: '3', name: 'plain', brand: 'Hats & Co', price: 1e3, tags: [], 名前: '日本', a: ['v1', 'v2'], b: 2.5 },
      { objectID: '4', name: 'none' },
    ];
    const batch = await engine.request({
      method: 'POST', path: '/1/indexes/x/batch',
      body: { requests: records.map((body) => ({ action: 'addObject', body })) },
    });
    expect(batch.status).toBe(200);
    await engine.waitForTasks();
    const all = await engine.request({ method: 'POST', path: '/1/indexes/x/query', body: {} });
    expect((all.body as any).nbHits).toBe(4);
  });

  it('a few thousand fuzzed filters strings: 200 when the parser accepts, 400 when it refuses, never 500', async () => {
    const rng = new Rng(0xe2e00001);
    // 3000 distinct strings drawn from what the parser suites kept (a partial shuffle).
    const pool = [...new Map(corpus.map((c) => [c.filters, c])).values()];
    for (let i = 0; i < Math.min(3000, pool.length); i++) {
      const j = i + rng.int(pool.length - i);
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    const sample = pool.slice(0, 3000);
    expect(sample.length).toBeGreaterThanOrEqual(2000);
    expect(sample.some((s) => s.ok)).toBe(true);
    expect(sample.some((s) => !s.ok)).toBe(true);
    const failures: string[] = [];
    for (const { filters, ok } of sample) {
      const response = await engine.request({ method: 'POST', path: '/1/indexes/x/query', body: { filters, hitsPerPage: 2 } });
      const body = response.body as any;
      const expected = ok ? 200 : 400;
      if (response.status !== expected && failures.length < 20) failures.push(`${show(filters)} → ${response.status} ${show(body)}`);
      if (response.status === 400 && !(typeof body?.message === 'string' && body.message.length > 0) && failures.length < 20) {
        failures.push(`${show(filters)} → 400 without a message: ${show(body)}`);
      }
      if (response.status === 200 && !(Number.isInteger(body?.nbHits) && body.nbHits >= 0 && body.nbHits <= 4) && failures.length < 20) {
        failures.push(`${show(filters)} → 200 with nbHits ${show(body?.nbHits)}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});
