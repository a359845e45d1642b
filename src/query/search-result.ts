// A search's result as the engine reads it, and the answer its caller gets.
// Whatever observes a search (analytics, A/B test metrics, personalization,
// the multi-query strategy, query suggestions) reads the result; only the
// answer sent to the caller is cut to `responseFields`, here and nowhere
// else: a field the caller leaves out is still known to the engine.
import { shallowCopy } from '../util/shallow-copy.js';

/** The window of hits a search answers (see pageOf): page and hitsPerPage, or offset and length. */
export interface Page { offset: number; length: number; page: number; hitsPerPage: number; usesOffset: boolean }

/** A hit as answered: the record's retrieved attributes, and what the search adds (`_highlightResult`, `_rankingInfo`...). */
export interface Hit { objectID: string; _rankingInfo?: Record<string, unknown>; [attribute: string]: unknown }

/** Every field of a search's answer in the wire format, before responseFields. */
export interface SearchAnswer {
  hits: Hit[];
  nbHits: number;
  page: number;
  hitsPerPage: number;
  [field: string]: unknown;
}

/** What a search found, for the engine: never cut by responseFields. */
export interface SearchResult {
  nbHits: number;
  /** The window of hits asked for (page and hitsPerPage, or offset and length), capped by paginationLimitedTo. */
  page: Page;
  /** The objectIDs of the page's hits, in their order. */
  objectIDs: string[];
  /** The id analytics gave the search, answered when clickAnalytics asked for it. */
  queryID?: string;
  /** The A/B test that chose the index and parameters searched, and its variant (1 or 2). */
  abTest?: { id: number; variant: number };
  /** The whole answer; the caller gets it as answerOf cuts it. */
  answer: SearchAnswer;
  /** The answer's fields the caller asked for (parameter or setting); undefined or `*`: every one. */
  responseFields?: string[];
}

/** The page's hits are `hits` now (personalization re-ranked them). */
export function replaceHits(result: SearchResult, hits: Hit[]): void {
  result.answer.hits = hits;
  result.objectIDs = hits.map((hit) => hit.objectID);
}

/**
 * The answer the caller gets: the fields it asked for, then those about the
 * call that responseFields never removes (abTestID, abTestVariantID,
 * queryID: what later calls name the search by).
 */
export function answerOf(result: SearchResult): Record<string, unknown> {
  const answer = askedFields(result.answer, result.responseFields);
  if (result.abTest) Object.assign(answer, { abTestID: result.abTest.id, abTestVariantID: result.abTest.variant });
  if (result.queryID !== undefined) answer.queryID = result.queryID;
  return answer;
}

function askedFields(answer: SearchAnswer, fields: string[] | undefined): Record<string, unknown> {
  if (!fields || fields.includes('*')) return shallowCopy(answer);
  return Object.fromEntries(Object.entries(answer).filter(([field]) => fields.includes(field)));
}
