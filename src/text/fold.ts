import { UNSPACED_LETTER } from './word-breaks.js';

/**
 * A word's comparable form outside the core: lower case, diacritics removed
 * (NFKD), as the core folds it (scripts/gen-fold-table.mjs): the marks of
 * the scripts written without spaces are letters there, and stay.
 */
export const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, keptMark).toLowerCase();

const keptMark = (mark: string) => (UNSPACED_LETTER.test(mark) ? mark : '');
