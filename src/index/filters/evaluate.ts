// Filters as set operations: each atom is a bitmap built from a column
// (facet value id lists, numeric arrays), OR within a group, AND across.
// Scored atoms (`<score=N>`, optionalFilters) give per-record scores for the
// `filters` ranking criterion.
import { emptyBitmap, andInto, orInto, invert, setBit, type Bitmap } from '../bitmap.js';
import type { FacetIndex } from '../facets.js';
import type { FilterAtom, FilterExpression } from './parse.js';

export interface FilterContext {
  facets: FacetIndex;
  words: number;
  /** Attributes that facet atoms may use (attributesForFaceting, plus _tags). */
  facetable: ReadonlySet<string>;
  /**
   * numericAttributesForFiltering when it lists some: the attributes numeric
   * atoms may use, and those of them (`equalOnly(attr)`) allowing only = and
   * !=; undefined: every numeric attribute, with every operator.
   */
  numeric?: { all: ReadonlySet<string>; equalOnly: ReadonlySet<string> };
}

/** numericAttributesForFiltering's entries (`attr`, `equalOnly(attr)`); undefined when it lists none (every attribute). */
export function numericFilterable(listed: string[] | null | undefined): FilterContext['numeric'] {
  if (!listed?.length) return undefined;
  const all = new Set<string>(), equalOnly = new Set<string>();
  for (const entry of listed) {
    const m = /^equalOnly\((.+)\)$/.exec(entry.trim());
    const name = m ? m[1].trim() : entry.trim();
    all.add(name);
    if (m) equalOnly.add(name);
  }
  return { all, equalOnly };
}

/** Whether numericAttributesForFiltering lets a numeric atom filter (a facet atom: always). */
function numericAllowed(atom: FilterAtom, ctx: FilterContext): boolean {
  if (atom.kind === 'facet' || ctx.numeric === undefined) return true;
  if (!ctx.numeric.all.has(atom.attribute)) return false;
  return !ctx.numeric.equalOnly.has(atom.attribute) || (atom.kind === 'numeric' && (atom.operator === '=' || atom.operator === '!='));
}

/** The value ranges of a numeric atom: [low, high, lowIncluded, highIncluded] each. */
function rangesOf(atom: Exclude<FilterAtom, { kind: 'facet' }>): Array<[number, number, boolean, boolean]> {
  if (atom.kind === 'range') return [[atom.low, atom.high, true, true]];
  const v = atom.value;
  switch (atom.operator) {
    case '<': return [[-Infinity, v, true, false]];
    case '<=': return [[-Infinity, v, true, true]];
    case '=': return [[v, v, true, true]];
    case '!=': return [[-Infinity, v, true, false], [v, Infinity, false, true]];
    case '>': return [[v, Infinity, false, true]];
    case '>=': return [[v, Infinity, true, true]];
  }
}

/** What an atom matches, as a key of the facet index's atom bitmaps (negation and score apart). */
function atomKey(atom: FilterAtom): string {
  switch (atom.kind) {
    case 'facet': return `f\u0000${atom.attribute}\u0000${atom.value}`;
    case 'numeric': return `n\u0000${atom.attribute}\u0000${atom.operator}\u0000${atom.value}`;
    case 'range': return `r\u0000${atom.attribute}\u0000${atom.low}\u0000${atom.high}`;
  }
}

/** Records matching one atom (before negation); read-only (the facet index keeps it for the next searches). */
function matchAtom(atom: FilterAtom, ctx: FilterContext): Bitmap {
  if (atom.kind === 'facet' && !ctx.facetable.has(atom.attribute)) return emptyBitmap(ctx.words);
  if (!numericAllowed(atom, ctx)) return emptyBitmap(ctx.words);
  return ctx.facets.atomBitmap(atomKey(atom), () => buildAtom(atom, ctx));
}

function buildAtom(atom: FilterAtom, ctx: FilterContext): Bitmap {
  const out = emptyBitmap(ctx.words);
  if (atom.kind === 'facet') {
    for (const list of ctx.facets.facet(atom.attribute).matching(atom.value)) {
      for (let i = 0; i < list.length; i++) setBit(out, list.ids[i]);
    }
    return out;
  }
  const column = ctx.facets.numeric(atom.attribute);
  for (const [low, high, lowIncluded, highIncluded] of rangesOf(atom)) column.markRange(out, low, high, lowIncluded, highIncluded);
  return out;
}

/** Records matching one atom, negation applied; read-only. */
function atomBitmap(atom: FilterAtom, ctx: FilterContext): Bitmap {
  const matched = matchAtom(atom, ctx);
  return atom.negated ? invert(matched.slice()) : matched;
}

/** Records matching any atom of an OR-group; read-only. */
function groupBitmap(group: FilterAtom[], ctx: FilterContext): Bitmap {
  if (group.length === 1) return atomBitmap(group[0], ctx);
  const any = emptyBitmap(ctx.words);
  for (const atom of group) orInto(any, atomBitmap(atom, ctx));
  return any;
}

/** The records allowed by every expression (AND of their OR-groups), a bitmap of its own; undefined when nothing filters. */
export function evaluateFilters(expressions: FilterExpression[], ctx: FilterContext): Bitmap | undefined {
  const groups = expressions.flat();
  if (groups.length === 0) return undefined;
  let result: Bitmap | undefined;
  for (const group of groups) {
    const any = groupBitmap(group, ctx);
    result = result ? andInto(result, any) : any.slice();
  }
  return result;
}

/** True when some atom carries a score other than the default, so `filters` can rank. */
export function hasScores(expression: FilterExpression): boolean {
  return expression.some((group) => group.some((atom) => atom.score !== 1));
}

/**
 * Per-record filter scores: in a group the best matching atom's score (or
 * their sum with sumOrFiltersScores), summed over groups. Returned with ranks
 * (lower first) for the core; undefined when no record scores.
 */
export function filterScores(
  groups: FilterExpression, ctx: FilterContext, capacity: number, sumOrFiltersScores: boolean,
): { ranks: Int32Array; scores: Int32Array } | undefined {
  if (groups.length === 0) return undefined;
  const scores = new Int32Array(capacity);
  // one group (the usual optionalFilters) scores straight into the sums
  const groupScores = groups.length === 1 ? scores : new Int32Array(capacity);
  for (const group of groups) {
    if (groupScores !== scores) groupScores.fill(0);
    for (const atom of group) scoreAtom(groupScores, atomBitmap(atom, ctx), atom.score, sumOrFiltersScores);
    if (groupScores !== scores) for (let id = 0; id < capacity; id++) scores[id] += groupScores[id];
  }
  let best = 0;
  for (let id = 0; id < capacity; id++) if (scores[id] > best) best = scores[id];
  if (best === 0) return undefined;
  const ranks = new Int32Array(capacity);
  for (let id = 0; id < capacity; id++) ranks[id] = best - scores[id];
  return { ranks, scores };
}

/**
 * Adds `score` to the records of `matched` in `groupScores` (summed, or
 * the best kept), reading the bitmap a word at a time: through the idsOf
 * generator, a broad optional filter took half an answer.
 */
function scoreAtom(groupScores: Int32Array, matched: Bitmap, score: number, summed: boolean): void {
  const words = Math.min(matched.length, (groupScores.length + 31) >>> 5);
  for (let w = 0; w < words; w++) {
    let bits = matched[w];
    while (bits !== 0) {
      const id = (w << 5) + 31 - Math.clz32(bits & -bits);
      bits &= bits - 1;
      if (id >= groupScores.length) return;
      groupScores[id] = summed ? groupScores[id] + score : Math.max(groupScores[id], score);
    }
  }
}
