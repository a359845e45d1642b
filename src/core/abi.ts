// Layout of the WebAssembly core's parameters and results
// (mirrors assembly/params.ts and assembly/index.ts).

export const P = {
  QUERY_LENGTH: 0,
  QUERY_TYPE: 1,
  TYPO_MODE: 2,
  MIN_1_TYPO: 3,
  MIN_2_TYPOS: 4,
  TYPOS_ON_NUMBERS: 5,
  EXACT_SINGLE: 6,
  TOP_K: 7,
  OFFSET: 8,
  MIN_PROXIMITY: 9,
  FILTER: 10,
  CRITERIA_COUNT: 11,
  CRITERIA: 12,
  GEO_ACTIVE: 28,
  FILTER_SCORES_ACTIVE: 29,
  OPTIONAL_WORDS: 30,
  NO_TYPO_WORDS: 31,
  EXCLUDED_WORDS: 32,
  NO_PREFIX_WORDS: 33,
  DISTINCT: 34,
  PHRASE_PAIRS: 35,
  ALLOWED_ATTRIBUTES: 36,
  NO_TYPO_ATTRIBUTES: 38,
  NO_PREFIX_ATTRIBUTES: 40,
  ALTERNATIVES: 42,
  NO_EXACT_ATTRIBUTES: 44,
  FILTER_WORDS: 46,
} as const;

export const PARAM_COUNT = 48;
/** Rank slots: 0 customRanking, 1-7 asc()/desc() entries of `ranking`, then per-query ones. */
export const GEO_SLOT = 8;
export const FILTERS_SLOT = 9;
export const GROUP_SLOT = 10;

export const MAX_CRITERIA = 16;
export const MAX_SORT_SLOTS = 7;

export const QUERY_TYPE = { prefixLast: 0, prefixAll: 1, prefixNone: 2 } as const;
export const TYPO_MODE = { off: 0, on: 1, min: 2, strict: 3 } as const;
export const EXACT_SINGLE = { attribute: 0, none: 1, word: 2 } as const;

export const CRITERION = {
  typo: 1, geo: 2, words: 3, filters: 4, proximity: 5, attribute: 6, exact: 7, custom: 8,
} as const;
/** Code of the sort criterion held in rank slot `slot` (1..7). */
export const sortCriterion = (slot: number) => 16 + slot;

export const HIT_STRIDE = 8;
