// Word splitting and concatenation (compatibility.md, typos): a query word
// may match as two words side by side ("icecream" the records holding "ice
// cream"), its first part up to MAX_SPLIT_HEAD units long, and two
// consecutive query words as one ("ice cream" the records holding
// "icecream"). Which words may do either is the query plan's decision
// (P_SPLIT_WORDS, P_CONCAT_WORDS: typo tolerance on, the word's length, no
// phrase or excluded word); the cuts and joins are made here from the
// query's folded units, each kept only when its words are terms of the
// index. Made in JavaScript, the cuts of a two-word query were a dozen
// strings and objects written to the core and tokenized again, ~5% of a
// first-sight answer.
import { findChild, lookupUnits, nodeTerm } from './dictionary';
import { queryUnits, wordCount, wordLength, wordStart } from './matcher';
import { MAX_SPLIT_HEAD, P_CONCAT_WORDS, P_SPLIT_WORDS, params } from './params';
import { recordMatch, recordPhraseMatch, selectMatchWord } from './wordsets';

/** A split's two terms, passed to recordPhraseMatch (which reads them before it returns). */
const pair = new StaticArray<i32>(2);

/**
 * Matches every split of a word the plan allows and every concatenation of
 * two, as alternatives of their words: a split as a phrase of its two
 * terms, a concatenation as its one term for both of its words. `excluded`
 * and `unkeyed` as for the words' own matches (see selectMatchWord).
 */
export function matchSplitsAndConcatenations(excluded: i32, unkeyed: i32): void {
  const splits = unchecked(params[P_SPLIT_WORDS]);
  const joins = unchecked(params[P_CONCAT_WORDS]);
  if ((splits | joins) == 0) return;
  for (let w = 0; w < wordCount; w++) {
    if ((splits & (1 << w)) != 0) matchSplits(w, excluded, unkeyed);
    if ((joins & (1 << w)) != 0 && w + 1 < wordCount) matchConcatenation(w, excluded, unkeyed);
  }
}

/**
 * Word `w` cut after each of its first units: the first part read down the
 * trie one unit at a time (a part no term starts with ends the cuts), the
 * second looked up whole when the first is a term.
 */
function matchSplits(w: i32, excluded: i32, unkeyed: i32): void {
  const start = wordStart.get(w), length = wordLength.get(w);
  const last = length - 1 < MAX_SPLIT_HEAD ? length - 1 : MAX_SPLIT_HEAD;
  selectMatchWord(w, excluded, unkeyed);
  let node = 0;
  for (let i = 1; i <= last; i++) {
    node = findChild(node, queryUnits.get(start + i - 1));
    if (node < 0) return;
    const head = nodeTerm.get(node);
    if (head < 0) continue;
    const tail = lookupUnits(queryUnits, start + i, length - i);
    if (tail < 0) continue;
    unchecked(pair[0] = head);
    unchecked(pair[1] = tail);
    recordPhraseMatch(pair, false);
  }
}

/** Words `w` and `w + 1` read as one (their units follow each other in queryUnits). */
function matchConcatenation(w: i32, excluded: i32, unkeyed: i32): void {
  const term = lookupUnits(queryUnits, wordStart.get(w), wordLength.get(w) + wordLength.get(w + 1));
  if (term < 0) return;
  selectMatchWord(w, excluded, unkeyed);
  recordMatch(term, 0, false, 0);
  selectMatchWord(w + 1, excluded, unkeyed);
  recordMatch(term, 0, false, 0);
}
