// Word breaks for the scripts written without spaces between words: Thai,
// Lao, Khmer and Myanmar (Burmese). The core splits words at punctuation and
// spaces only, so a run of these letters would be one token and a word inside
// it never found. Before such text reaches the core, a zero-width space
// (which the core reads as a separator) is put between the words
// Intl.Segmenter finds in each run (ICU's dictionaries: the same in Node,
// browsers and Electron), on the records' side and the query's alike, so the
// core's matching, typos and prefixes work per word unchanged. The offsets the
// core answers in the broken text are mapped back to the text as given.
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

/** A text with word breaks put in, and where: to map the core's offsets back to the text as given. */
export class BrokenText {
  constructor(
    /** The text with WORD_BREAK between the words of its unspaced runs. */
    readonly text: string,
    /** Ascending offsets in `text` of the breaks put in. */
    private readonly breaks: readonly number[],
  ) {}

  /** The offset in the text as given of offset `at` in `text` (a token's start or end never falls on a break). */
  originalOffset(at: number): number {
    let lo = 0, hi = this.breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.breaks[mid] < at) lo = mid + 1; else hi = mid;
    }
    return at - lo;
  }
}

/** `text` with word breaks in its runs of unspaced scripts; undefined when it has none (nothing to map back). */
export function breakWords(text: string): BrokenText | undefined {
  if (!hasUnspacedScript(text)) return undefined;
  segmenter ??= new Intl.Segmenter('th', { granularity: 'word' });
  const breaks: number[] = [];
  let out = '';
  let copied = 0;
  for (const run of text.matchAll(UNSPACED_RUN)) {
    out += text.slice(copied, run.index);
    let first = true;
    for (const { segment } of segmenter.segment(run[0])) {
      if (!first) { breaks.push(out.length); out += WORD_BREAK; }
      out += segment;
      first = false;
    }
    copied = run.index + run[0].length;
  }
  return new BrokenText(out + text.slice(copied), breaks);
}

/**
 * The words of a query word that holds a run of an unspaced script broken
 * into several, separated by spaces (the records' words that match it as a
 * phrase); undefined when it breaks into one word or none.
 */
export function wordsOfQueryWord(word: string): string | undefined {
  const broken = breakWords(word);
  if (!broken || broken.text === word) return undefined;
  return broken.text.replaceAll(WORD_BREAK, ' ');
}

/** `text` as the core indexes it: with word breaks where it has unspaced runs, else itself. */
export function indexedForm(text: string): string {
  return breakWords(text)?.text ?? text;
}
