// Shared helpers for the core suites: a real WebAssembly CoreIndex built from
// plain strings (one string = one attribute value, attribute id = position).
import { CoreIndex, type CoreQuery, type CoreResult } from '../../src/core/core-index.js';
import { CRITERION } from '../../src/core/abi.js';
import { loadCore } from '../../src/core/wasm.js';
import { prng } from '../support/random.js';

export { CRITERION };
export const DEFAULT_CRITERIA = [
  CRITERION.typo, CRITERION.geo, CRITERION.words, CRITERION.filters,
  CRITERION.proximity, CRITERION.attribute, CRITERION.exact, CRITERION.custom,
];

export async function ready(): Promise<void> {
  await loadCore();
}

/** A document: one string (attribute 0), or one entry per attribute (arrays = array elements of that attribute). */
export type Doc = string | Array<string | string[]>;

export interface BuildOptions {
  attributes?: Array<{ rank: number; unordered?: boolean }>;
  separators?: string;
}

export function build(docs: Doc[], options: BuildOptions = {}): CoreIndex {
  const core = new CoreIndex();
  if (options.separators !== undefined) core.setSeparators(options.separators);
  const width = Math.max(1, ...docs.map((d) => (typeof d === 'string' ? 1 : d.length)));
  const attributes = options.attributes ?? Array.from({ length: width }, (_, i) => ({ rank: i, unordered: false }));
  core.setAttributes(attributes.map((a) => ({ rank: a.rank, unordered: a.unordered ?? false })));
  core.addDocuments(docs.map((d, id) => ({ id, segments: segmentsOf(d) })));
  return core;
}

export function segmentsOf(doc: Doc): Array<{ attribute: number; text: string }> {
  if (typeof doc === 'string') return [{ attribute: 0, text: doc }];
  const out: Array<{ attribute: number; text: string }> = [];
  doc.forEach((value, attribute) => {
    for (const text of Array.isArray(value) ? value : [value]) out.push({ attribute, text });
  });
  return out;
}

export function query(text: string, overrides: Partial<CoreQuery> = {}): CoreQuery {
  return {
    query: text,
    queryType: 'prefixLast',
    typoMode: 'on',
    minWordSizefor1Typo: 4,
    minWordSizefor2Typos: 8,
    allowTyposOnNumericTokens: true,
    exactOnSingleWordQuery: 'attribute',
    minProximity: 1,
    criteria: DEFAULT_CRITERIA,
    offset: 0,
    length: 1000,
    ...overrides,
  };
}

export function search(core: CoreIndex, text: string, overrides: Partial<CoreQuery> = {}): CoreResult {
  return core.search(query(text, overrides));
}

/** Ids of the hits, in order. */
export function ids(core: CoreIndex, text: string, overrides: Partial<CoreQuery> = {}): number[] {
  return search(core, text, overrides).hits.map((h) => h.id);
}

export interface Token { start: number; end: number; mask: number; highlightEnd: number; text: string }

/** Tokens of `text` as the core sees them, with the last search's word mask. */
export function tokensOf(core: CoreIndex, text: string): Token[] {
  const raw = core.highlight(text);
  const out: Token[] = [];
  for (let i = 0; i < raw.length; i += 4) {
    out.push({ start: raw[i], end: raw[i + 1], mask: raw[i + 2], highlightEnd: raw[i + 3], text: text.slice(raw[i], raw[i + 1]) });
  }
  return out;
}

/** Runs a whole compaction, `budget` posting bytes a step (small budgets: many steps). */
export function compactAll(core: CoreIndex, budget = 1 << 30): number {
  let steps = 0;
  for (let term = 0; term < core.termCount; steps++) term = core.compactSome(term, budget);
  return steps;
}

const FILLER = ['alpha', 'bravo', 'delta', 'echo', 'golf', 'hotel', 'india', 'juliet'];
/** Last words, each in a share of the records: long lists (kilobytes, many skip entries), the first heavy enough to defer where the candidates are few. */
export const BROAD: Array<[string, number]> = [['theta', 0.5], ['kappa', 0.2], ['lambda', 0.08], ['sigma', 0.03]];
/** First words: few records (the candidates), spread over the whole index. */
export const RARE: Array<[string, number]> = [['okapi', 0.01], ['quagga', 0.003], ['ibex', 0.03]];

/**
 * Records of a title and a body of filler words, some holding broad words
 * (long posting lists) or rare ones (few records, spread over the index),
 * each in the lead place, later in the title, or in the body.
 */
export function rareAndBroad(seed: number, count: number): Doc[] {
  const rnd = prng(seed);
  const pick = () => FILLER[Math.floor(rnd() * FILLER.length)];
  const words = (n: number) => Array.from({ length: n }, pick);
  return Array.from({ length: count }, (): Doc => {
    const title = words(3);
    const body = words(8);
    for (const [word, share] of [...BROAD, ...RARE]) {
      if (rnd() >= share) continue;
      const place = Math.floor(rnd() * 3);
      if (place === 0) title.unshift(word);
      else if (place === 1) title.push(word);
      else body.splice(Math.floor(rnd() * body.length), 0, word);
    }
    return [title.join(' '), body.join(' ')];
  });
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ra', 'su', 'te', 'vi', 'do', 'pa'];
/** `count` (at most 1,000) words of two or three syllables, sharing prefixes: the first hundred of two. */
export function syllableVocabulary(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const a = SYLLABLES[i % 10], b = SYLLABLES[Math.floor(i / 10) % 10], c = SYLLABLES[Math.floor(i / 100)];
    return i < 100 ? `${a}${b}` : `${a}${b}${c}`;
  });
}
