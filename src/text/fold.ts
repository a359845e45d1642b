/** A word's comparable form outside the core: lower case, diacritics removed (NFKD). */
export const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
