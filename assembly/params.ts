// The query parameters JS writes before a search (slots mirrored in
// src/core/abi.ts), the ranking criterion codes and the hit layout.
export const P_QUERY_LENGTH = 0;
export const P_QUERY_TYPE = 1;       // 0 prefixLast, 1 prefixAll, 2 prefixNone
export const P_TYPO_MODE = 2;        // 0 off, 1 on, 2 min, 3 strict
export const P_MIN_1_TYPO = 3;
export const P_MIN_2_TYPOS = 4;
export const P_TYPOS_ON_NUMBERS = 5;
export const P_EXACT_SINGLE = 6;     // 0 attribute, 1 none, 2 word
export const P_TOP_K = 7;
export const P_OFFSET = 8;
export const P_MIN_PROXIMITY = 9;
export const P_FILTER = 10;          // byte offset of a filter bitmap in scratch, or -1
export const P_CRITERIA_COUNT = 11;
export const P_CRITERIA = 12;        // up to 16 criterion codes
export const P_GEO_ACTIVE = 28;      // 1: rank slot GEO_SLOT holds this query's geo buckets
export const P_FILTER_SCORES_ACTIVE = 29; // 1: rank slot FILTERS_SLOT holds this query's filter scores
export const P_OPTIONAL_WORDS = 30;  // bit mask of optional query words
export const P_NO_TYPO_WORDS = 31;   // bit mask of words matched without typos
export const P_EXCLUDED_WORDS = 32;  // bit mask of excluded words (advancedSyntax -word): exact, removed
export const P_NO_PREFIX_WORDS = 33; // bit mask of words never matched as a prefix
export const P_DISTINCT = 34;        // records kept per attributeForDistinct group (0: off); groups in GROUP_SLOT
export const P_PHRASE_PAIRS = 35;    // bit w: words w and w+1 must be adjacent, in order (advancedSyntax "...")
export const P_ALLOWED_ATTRIBUTES = 36;   // 2 slots (low, high 32 bits): attributes that may match
export const P_NO_TYPO_ATTRIBUTES = 38;   // 2 slots: attributes matched without typos
export const P_NO_PREFIX_ATTRIBUTES = 40; // 2 slots: attributes matched without prefixes
export const P_ALTERNATIVES = 42;    // byte offset in scratch of the word alternatives block, or -1
export const P_NO_EXACT_ATTRIBUTES = 44;  // 2 slots: attributes whose matches never count as exact
export const P_FILTER_WORDS = 46;    // u32 words of the filter bitmap (a multiple of 4); records past it are filtered out
export const params = new StaticArray<i32>(48);

export function mask64(slot: i32): u64 {
  return (<u64>(<u32>unchecked(params[slot + 1])) << 32) | <u64>(<u32>unchecked(params[slot]));
}

export const C_TYPO = 1, C_GEO = 2, C_WORDS = 3, C_FILTERS = 4, C_PROXIMITY = 5, C_ATTRIBUTE = 6, C_EXACT = 7, C_CUSTOM = 8;
export const C_SORT_SLOT = 16; // 16 + slot: an asc()/desc() entry of `ranking`

// Hit layout in results (mirrored in src/core/abi.ts).
export const HIT_STRIDE = 8;
