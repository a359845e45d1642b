// Word breaks for the scripts written without spaces between words: Thai,
// Lao, Khmer and Myanmar (Burmese). The core splits words at punctuation and
// spaces only, so a run of these letters would be one token and a word inside
// it never found. Before a record's text reaches the core, each run that
// Intl.Segmenter (ICU's dictionaries: the same in Node, browsers and
// Electron) breaks into several words is followed by those words, a
// zero-width space (which the core reads as a separator) before each: the
// core indexes the run whole and each of its words, so its matching, typos
// and prefixes work per word, and for the run whole as it did (a run being
// typed is a prefix of it, a misspelt one within its typos). The offsets
// the core answers are mapped back to the text as given. Queries reach the
// core as typed: a run of several words also matches them as a phrase
// alternative (wordsOfQueryWord, see the query plan).
//
// ICU picks the dictionary by script, whatever the locale (measured: 'en',
// 'th', 'lo', 'km' and 'my' break these scripts identically), so one
// segmenter serves every language, and the records and queries of an index
// are broken the same way whatever its indexLanguages and queryLanguages say.

/** Letters of the scripts broken here: Thai and Lao, Myanmar, Khmer and their extensions. */
export const UNSPACED_LETTER = /[\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u19E0-\u19FF\uA9E0-\uA9FF\uAA60-\uAA7F]/;
const UNSPACED_RUN = new RegExp(`${UNSPACED_LETTER.source}+`, 'g');

/** The separator put between words: a format character the core's tokenizer splits on (and never indexes). */
export const WORD_BREAK = '\u200B';

/** Put after a word found inside a longer word: a noncharacter, which the core keeps as the term's last unit (assembly/text.ts). */
export const INNER_MARK = '\uFDD0';

let segmenter: Intl.Segmenter | undefined;

/** Whether `text` holds a letter of a script written without spaces (one regular expression test: the fast path). */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED_LETTER.test(text);
}

/** Whether offset `at` of `text` falls between two letters of an unspaced run (where a break is put in, not one of the text's own). */
export function isInsideRun(text: string, at: number): boolean {
  return at > 0 && at < text.length && UNSPACED_LETTER.test(text[at - 1]) && UNSPACED_LETTER.test(text[at]);
}

/**
 * A text as the core reads it, and how to map the core's offsets in it back
 * to the text as given: it is made of spans copied from the given text
 * (a run whole, then each of its words), WORD_BREAK between them.
 */
export class BrokenText {
  constructor(
    /** The text as the core reads it. */
    readonly text: string,
    /** Ascending starts in `text` of the spans copied, and where each was copied from in the text as given. */
    private readonly spanStarts: readonly number[],
    private readonly spanSources: readonly number[],
  ) {}

  /** The offset in the text as given of a token's start at `at` (never a break). */
  originalStart(at: number): number {
    const span = this.spanAt(at);
    return this.spanSources[span] + at - this.spanStarts[span];
  }

  /** The offset in the text as given of a token's end at `at` (the end of its last unit: a span's end). */
  originalEnd(at: number): number {
    return this.originalStart(at - 1) + 1;
  }

  /** The last span starting at or before `at`. */
  private spanAt(at: number): number {
    let lo = 0, hi = this.spanStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.spanStarts[mid] <= at) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
}

/** The words Intl.Segmenter finds in `run` (a run of unspaced letters). */
function wordsOfRun(run: string): string[] {
  segmenter ??= new Intl.Segmenter('th', { granularity: 'word' });
  return Array.from(segmenter.segment(run), (s) => s.segment);
}

/** Myanmar's asat and virama: a grapheme holding one ends a syllable, no word starts there. */
const SYLLABLE_END = /[\u1039\u103A]/;
/** Inner words of the words seen lately (dictionary words recur; the segmenter is what indexing these scripts costs). */
const innerWordCache = new Map<string, InnerWord[]>();
const INNER_WORD_CACHE_SIZE = 20_000;

/** A word found inside a longer word, and where it starts in that word. */
interface InnerWord { word: string; at: number }

/**
 * The dictionary words inside `word` after its start (ICU keeps a compound
 * such as ประเทศไทย, "Thailand", one word, so ไทย would be found only as
 * typed from its start): at each grapheme after the first, the first word
 * the segmenter reads in the rest, when it is two graphemes or more and a
 * dictionary word: one that the segmenter reads twice over as itself twice
 * (letters outside the dictionary it groups otherwise, measured).
 */
function innerWordsOf(word: string): InnerWord[] {
  const known = innerWordCache.get(word);
  if (known) return known;
  graphemes ??= new Intl.Segmenter('th', { granularity: 'grapheme' });
  const inner: InnerWord[] = [];
  for (const { index, segment } of graphemes.segment(word)) {
    if (index === 0 || SYLLABLE_END.test(segment)) continue;
    const first = wordsOfRun(word.slice(index))[0];
    if (countGraphemes(first) < 2 || !isDictionaryWord(first)) continue;
    inner.push({ word: first, at: index });
  }
  if (innerWordCache.size >= INNER_WORD_CACHE_SIZE) innerWordCache.clear();
  innerWordCache.set(word, inner);
  return inner;
}

let graphemes: Intl.Segmenter | undefined;

function countGraphemes(text: string): number {
  let n = 0;
  for (const _ of graphemes!.segment(text)) n++;
  return n;
}

function isDictionaryWord(word: string): boolean {
  const twice = wordsOfRun(word + word);
  return twice.length === 2 && twice[0] === word;
}

/**
 * `text` as the core indexes it, when it holds runs of unspaced scripts: each
 * run that holds several words stays whole (a word the run's start is typed
 * against, a misspelt run matched with its typos), followed by its words,
 * then with `innerWords` by the dictionary words inside them, INNER_MARK
 * after each (the core matches these as words, never exact: a word of its
 * own ranks first; after the run's words, which stay next to each other for
 * phrases), WORD_BREAK between them all. Undefined when it has no such run.
 */
export function breakWords(text: string, innerWords = true): BrokenText | undefined {
  if (!hasUnspacedScript(text)) return undefined;
  // each span copied runs on through the text after it, up to the next span
  const starts: number[] = [0];
  const sources: number[] = [0];
  let out = '';
  let copied = 0;
  const copy = (from: number, word: string, after = '') => {
    out += WORD_BREAK;
    starts.push(out.length);
    sources.push(from);
    out += word + after;
  };
  for (const run of text.matchAll(UNSPACED_RUN)) {
    const words = wordsOfRun(run[0]);
    const inner = innerWords ? words.map(innerWordsOf) : [];
    if (words.length < 2 && !inner[0]?.length) continue;
    const end = run.index + run[0].length;
    out += text.slice(copied, end);
    let at = run.index;
    const wordStarts = words.map((word) => { const start = at; at += word.length; return start; });
    if (words.length > 1) words.forEach((word, w) => copy(wordStarts[w], word));
    inner.forEach((found, w) => { for (const i of found) copy(wordStarts[w] + i.at, i.word, INNER_MARK); });
    // the text after the run, from where it is in the text as given
    starts.push(out.length);
    sources.push(end);
    copied = end;
  }
  return new BrokenText(out + text.slice(copied), starts, sources);
}

/**
 * The words of a query word that holds a run of an unspaced script broken
 * into several, separated by spaces (the records' words that match it as a
 * phrase); undefined when it breaks into one word or none.
 */
export function wordsOfQueryWord(word: string): string | undefined {
  if (!hasUnspacedScript(word)) return undefined; // most words: matchAll copies its expression per call
  let words: string[] = [];
  let copied = 0;
  for (const run of word.matchAll(UNSPACED_RUN)) {
    words = [...words, word.slice(copied, run.index), ...wordsOfRun(run[0])];
    copied = run.index + run[0].length;
  }
  words.push(word.slice(copied));
  words = words.filter((w) => w !== '');
  return words.length > 1 ? words.join(' ') : undefined;
}

/** `text` as the core indexes it: with its unspaced runs' words and the words inside them, else itself. */
export function indexedForm(text: string): string {
  return breakWords(text)?.text ?? text;
}

/** A query alternative's `text` as the core matches it: its unspaced runs' words (the records' words, a phrase), else itself. */
export function alternativeForm(text: string): string {
  return breakWords(text, false)?.text ?? text;
}

/**
 * `texts` joined, and each through `each` when they hold a run of a script
 * written without spaces (undefined when none does): asked of the joined
 * text once rather than text by text (most batches, a query's dozen
 * alternatives and a page's highlights hold none, and a call of the
 * regular expression cost more than its scan of a short text).
 */
export function whereUnspaced<T>(texts: readonly string[], each: (text: string) => T): { each: T[] | undefined; joined: string } {
  const joined = texts.join('');
  return { each: hasUnspacedScript(joined) ? texts.map(each) : undefined, joined };
}

/**
 * Like whereUnspaced, but each text asked on its own and none joined: for
 * texts long enough that joining them is the cost (a page of highlighted
 * documents of a thousand words: the joined copy was a fifth of what such
 * an answer allocated), where a call of the regular expression per text is not.
 */
export function eachUnspaced<T>(texts: readonly string[], each: (text: string) => T): T[] | undefined {
  return texts.some(hasUnspacedScript) ? texts.map(each) : undefined;
}

/** `texts` each in `form` (indexedForm, alternativeForm), and joined: the same array when none holds an unspaced run (see whereUnspaced). */
export function formsOf(texts: string[], form: (text: string) => string): { texts: string[]; joined: string } {
  const { each: forms, joined } = whereUnspaced(texts, form);
  return forms ? { texts: forms, joined: forms.join('') } : { texts, joined };
}
