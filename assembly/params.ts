// The query parameters JS writes before a search, their values, the
// ranking criterion codes and the hit layout. The one source of the
// interface: scripts/gen-abi.mjs reads every `export const` here (and the
// rank slots in ranking.ts) into src/core/abi-slots.ts.
export const P_QUERY_LENGTH = 0;
export const P_QUERY_TYPE = 1;       // QUERY_TYPE_*
export const P_TYPO_MODE = 2;        // TYPO_MODE_*
export const P_MIN_1_TYPO = 3;
export const P_MIN_2_TYPOS = 4;
export const P_TYPOS_ON_NUMBERS = 5;
export const P_EXACT_SINGLE = 6;     // EXACT_SINGLE_*
export const P_TOP_K = 7;
export const P_OFFSET = 8;
export const P_MIN_PROXIMITY = 9;
export const P_FILTER = 10;          // byte offset of a filter bitmap in scratch, or -1
export const P_CRITERIA_COUNT = 11;
export const P_CRITERIA = 12;        // up to MAX_CRITERIA criterion codes
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
export const P_LIGHT_WORDS = 47;     // bit mask of words the words criterion counts after all the others (stop words, once relaxed)
export const P_RAISED_TYPO_WORDS = 48; // bit mask of words of 3+ letters allowed one typo more than their length gives (at most 2)
export const P_STOP_WORDS = 49;      // bit mask of optional words that never make a record a candidate on their own (removeStopWords)
export const P_BOUND_LAST_WORD = 50; // 1: the last word may be matched within the other words' candidates only (bounded-match.ts); 0: over every record
export const P_SPLIT_WORDS = 51;    // bit mask of words that may match as two words (split-words.ts)
export const P_CONCAT_WORDS = 52;   // bit w: words w and w+1 may match as one word (split-words.ts)
export const PARAM_COUNT = 53;
export const params = new StaticArray<i32>(PARAM_COUNT);

export const MAX_CRITERIA = 16;
/** The longest first part of a split word (the service's limit, compatibility.md). */
export const MAX_SPLIT_HEAD = 12;
export const QUERY_TYPE_PREFIX_LAST = 0, QUERY_TYPE_PREFIX_ALL = 1, QUERY_TYPE_PREFIX_NONE = 2;
export const TYPO_MODE_OFF = 0, TYPO_MODE_ON = 1, TYPO_MODE_MIN = 2, TYPO_MODE_STRICT = 3;
export const EXACT_SINGLE_ATTRIBUTE = 0, EXACT_SINGLE_NONE = 1, EXACT_SINGLE_WORD = 2;
/** What a prefix-warming step did (prefix-warming.ts): nothing left to do, a step done with more to come, or waiting for a search to lay the caches out. */
export const WARM_DONE = 0, WARM_MORE = 1, WARM_UNLAID = 2;

export function mask64(slot: i32): u64 {
  return (<u64>(<u32>unchecked(params[slot + 1])) << 32) | <u64>(<u32>unchecked(params[slot]));
}

export const C_TYPO = 1, C_GEO = 2, C_WORDS = 3, C_FILTERS = 4, C_PROXIMITY = 5, C_ATTRIBUTE = 6, C_EXACT = 7, C_CUSTOM = 8;
export const C_SORT_SLOT = 16; // 16 + slot: an asc()/desc() entry of `ranking`

// Hit layout in results.
export const HIT_STRIDE = 8;

// Highlighting (highlight.ts): per text, flags; per listed token, TOKEN_STRIDE
// values (start, end, mask of the query words it matches, end of the part
// highlighted).
export const TEXT_INDEXED = 1;     // a searchable value of a live record: every token is a dictionary term
export const TEXT_EVERY_TOKEN = 2; // list every token, not only the matched ones
// A snippet's size in words, in the flags from this bit up (0: a highlight):
// the core lists the tokens of the window the snippet shows.
export const TEXT_SNIPPET_SHIFT = 8;
// Per text in the results: its token count, the tokens listed, the ordinal of the first listed.
export const TEXT_HEADER = 3;
export const TOKEN_STRIDE = 4;
// The blocks of the scripts written without spaces (U+0E00 Thai to U+AA7F
// Myanmar Extended-A; src/text/word-breaks.ts's UNSPACED_LETTER lies within):
// a highlight of texts holding none of these units needs no word breaks.
export const UNSPACED_FIRST = 3584; // U+0E00
export const UNSPACED_LAST = 43647; // U+AA7F
