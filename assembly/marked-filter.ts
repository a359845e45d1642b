// Which tokens of a highlighted text may be terms the last search matched:
// a bitmap over the low bits of the matched terms' screen keys (text.ts's
// screenKeyOf). Highlighting looks a token up in the dictionary (a probe
// into a table of every term, which took a fifth of answering a search)
// only when its bit is set: most words of a long text are not among the
// handful of terms a query matched. The same bitmap screens a text as it is
// tokenized (text.ts's SCREEN_BITS).
import { termScreenKey } from './dictionary';
import { SCREEN_BITS, onScreen } from './text';
import { epoch, markedTerms } from './wordsets';

const FILTER_BITS = SCREEN_BITS;
const filter = new StaticArray<u32>(1 << (FILTER_BITS - 5));
let builtFor: i32 = -1;

/** Whether a token of this screen key (text.ts's screenKeyOf) may be one of the terms the current search matched. */
export function mayBeMatched(key: u32): bool {
  return onScreen(matchedTermsScreen(), key);
}

/** The filter as a screen for `tokenize`: the tokens it keeps are those mayBeMatched passes. */
export function matchedTermsScreen(): usize {
  if (builtFor != epoch) build();
  return changetype<usize>(filter);
}

function build(): void {
  memory.fill(changetype<usize>(filter), 0, <usize>filter.length << 2);
  for (let i = 0; i < markedTerms.length; i++) {
    const bit = termScreenKey(markedTerms.get(i)) & ((1 << FILTER_BITS) - 1);
    unchecked(filter[bit >> 5] |= 1 << (bit & 31));
  }
  builtFor = epoch;
}
