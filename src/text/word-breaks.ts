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

/**
 * `text` as the core indexes it, when it holds runs of unspaced scripts: each
 * run that holds several words stays whole (a word the run's start is typed
 * against, a misspelt run matched with its typos), followed by its words,
 * WORD_BREAK between them all. Undefined when it has no such run.
 */
export function breakWords(text: string): BrokenText | undefined {
  if (!hasUnspacedScript(text)) return undefined;
  // the first span runs up to the first word copied; each word's span runs on through the text after it
  const starts: number[] = [0];
  const sources: number[] = [0];
  let out = '';
  let copied = 0;
  for (const run of text.matchAll(UNSPACED_RUN)) {
    const words = wordsOfRun(run[0]);
    if (words.length < 2) continue;
    const end = run.index + run[0].length;
    out += text.slice(copied, end);
    let at = run.index;
    for (const word of words) {
      out += WORD_BREAK;
      starts.push(out.length);
      sources.push(at);
      out += word;
      at += word.length;
    }
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

/** `text` as the core indexes it: with its unspaced runs' words, else itself. */
export function indexedForm(text: string): string {
  return breakWords(text)?.text ?? text;
}
