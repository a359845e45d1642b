// The WebAssembly core's parameters and results, named for TypeScript. Every
// number comes from the core itself: src/core/abi-slots.ts is generated from
// assembly/params.ts and assembly/ranking.ts (scripts/gen-abi.mjs, run by
// `npm run build:wasm`); this module only groups them.
import * as core from './abi-slots.js';

export { P, PARAM_COUNT, GEO_SLOT, FILTERS_SLOT, GROUP_SLOT, TIE_SLOT, MAX_CRITERIA, MAX_SORT_SLOTS, MAX_SPLIT_HEAD, HIT_STRIDE, TEXT_INDEXED, TEXT_EVERY_TOKEN, TEXT_SNIPPET_SHIFT, TEXT_HEADER, TOKEN_STRIDE,
  SIGNER_WORDS, SCREEN_MAC, SCREEN_BLOCKS, SCREEN_MESSAGE } from './abi-slots.js';

export const QUERY_TYPE = {
  prefixLast: core.QUERY_TYPE_PREFIX_LAST, prefixAll: core.QUERY_TYPE_PREFIX_ALL, prefixNone: core.QUERY_TYPE_PREFIX_NONE,
} as const;
export const TYPO_MODE = {
  off: core.TYPO_MODE_OFF, on: core.TYPO_MODE_ON, min: core.TYPO_MODE_MIN, strict: core.TYPO_MODE_STRICT,
} as const;
export const EXACT_SINGLE = {
  attribute: core.EXACT_SINGLE_ATTRIBUTE, none: core.EXACT_SINGLE_NONE, word: core.EXACT_SINGLE_WORD,
} as const;

/** What a prefix-warming step did (CoreIndex.warmPrefixes). */
export const WARM_STEP = { done: core.WARM_DONE, more: core.WARM_MORE, unlaid: core.WARM_UNLAID } as const;
export type WarmStep = typeof WARM_STEP[keyof typeof WARM_STEP];

export const CRITERION = {
  typo: core.C_TYPO, geo: core.C_GEO, words: core.C_WORDS, filters: core.C_FILTERS,
  proximity: core.C_PROXIMITY, attribute: core.C_ATTRIBUTE, exact: core.C_EXACT, custom: core.C_CUSTOM,
} as const;
/** Code of the sort criterion held in rank slot `slot` (1..MAX_SORT_SLOTS). */
export const sortCriterion = (slot: number) => core.C_SORT_SLOT + slot;
