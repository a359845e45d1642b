import { UNSPACED_LETTER } from './word-breaks.js';

/** A character past ASCII: text without one (most query words, folded at every search) NFKD leaves as it is, and it holds no mark. */
const PAST_ASCII = /[\u0080-\uffff]/;

/**
 * A word's comparable form outside the core: lower case, diacritics removed
 * (NFKD), as the core folds it (scripts/gen-fold-table.mjs): the marks of
 * the scripts written without spaces are letters there, and stay.
 */
export const fold = (s: string) => (PAST_ASCII.test(s) ? s.normalize('NFKD').replace(/\p{M}/gu, keptMark).toLowerCase() : s.toLowerCase());

const keptMark = (mark: string) => (UNSPACED_LETTER.test(mark) ? mark : '');
