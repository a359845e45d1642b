// The query pipeline of one index: parameters → core query → page of hits
// → retrieved attributes, highlighting, snippets, ranking info → response.
import type { CoreHit, CoreQuery } from '../core/core-index.js';
import { encodeParams, type SearchParams } from './params.js';
import { effectiveSetting, searchableAttributes } from './settings.js';
import { highlightText, mapLeaves, snippetText, type HighlightOptions } from './highlight.js';
import { project, type Json, type Record_ } from './records.js';
import type { SearchIndex } from './search-index.js';

export interface SearchContext {
  /** The key may see unretrievableAttributes (admin key or seeUnretrievableAttributes). */
  seeUnretrievable: boolean;
}

export interface Page { offset: number; length: number; page: number; hitsPerPage: number; usesOffset: boolean }

/** Page window from page/hitsPerPage or offset/length, capped by paginationLimitedTo. */
export function pageOf(params: SearchParams, setting: (name: string) => any): Page {
  const hitsPerPage: number = setting('hitsPerPage');
  const limit: number = setting('paginationLimitedTo');
  const usesOffset = params.offset !== undefined;
  const offset = usesOffset ? params.offset : (params.page ?? 0) * hitsPerPage;
  const wanted = usesOffset ? (params.length ?? hitsPerPage) : hitsPerPage;
  const length = Math.max(0, Math.min(wanted, limit - offset));
  return { offset, length, page: params.page ?? 0, hitsPerPage, usesOffset };
}

export function searchIndex(index: SearchIndex, params: SearchParams, context: SearchContext): Record<string, unknown> {
  const started = performance.now();
  const setting = (name: string) => params[name] ?? effectiveSetting(index.settings, name);
  const query: string = params.query ?? '';
  const page = pageOf(params, setting);
  index.prepareRanks();
  const result = index.coreIndex.search(coreQuery(index, query, page, setting));
  const words = result.words.map(([s, e]) => query.slice(s, e));
  const hits = result.hits.map((hit) => buildHit(index, hit, words, params, setting, context));
  const limit: number = setting('paginationLimitedTo');
  const reachable = Math.min(result.nbHits, limit);
  const response: Record<string, unknown> = {
    hits,
    nbHits: result.nbHits,
    page: page.page,
    nbPages: page.hitsPerPage > 0 ? Math.ceil(reachable / page.hitsPerPage) : 0,
    hitsPerPage: page.hitsPerPage,
    exhaustiveNbHits: true,
    exhaustiveTypo: true,
    exhaustive: { nbHits: true, typo: true },
    query,
    params: encodeParams(params),
    processingTimeMS: Math.round(performance.now() - started),
  };
  if (page.usesOffset) Object.assign(response, { offset: page.offset, length: page.length });
  return response;
}

function coreQuery(index: SearchIndex, query: string, page: Page, setting: (name: string) => any): CoreQuery {
  const typo = setting('typoTolerance');
  return {
    query,
    queryType: setting('queryType'),
    typoMode: typo === false || typo === 'false' ? 'off' : typo === 'min' ? 'min' : typo === 'strict' ? 'strict' : 'on',
    minWordSizefor1Typo: setting('minWordSizefor1Typo'),
    minWordSizefor2Typos: setting('minWordSizefor2Typos'),
    allowTyposOnNumericTokens: setting('allowTyposOnNumericTokens'),
    exactOnSingleWordQuery: setting('exactOnSingleWordQuery'),
    minProximity: setting('minProximity'),
    criteria: index.ranking.criteria,
    offset: page.offset,
    length: page.length,
  };
}

function buildHit(
  index: SearchIndex, hit: CoreHit, words: string[], params: SearchParams,
  setting: (name: string) => any, context: SearchContext,
): Record<string, unknown> {
  const record = index.record(hit.id) as Record_;
  const hidden = context.seeUnretrievable ? [] : (setting('unretrievableAttributes') ?? []);
  const out: Record<string, unknown> = project(record, setting('attributesToRetrieve'), hidden);
  const options: HighlightOptions = { preTag: setting('highlightPreTag'), postTag: setting('highlightPostTag'), words };
  const visible = context.seeUnretrievable ? record : project(record, ['*'], hidden);
  const highlighted = highlightAttributes(index, visible, setting('attributesToHighlight'));
  if (highlighted.length > 0) {
    out._highlightResult = Object.fromEntries(
      highlighted.map((a) => [a, mapLeaves(visible[a], (t) => highlightText(index.coreIndex, t, options))]),
    );
  }
  const snippets: string[] = setting('attributesToSnippet') ?? [];
  if (snippets.length > 0) {
    const entries: Array<[string, unknown]> = [];
    for (const spec of snippets) {
      const [name, size] = spec.split(':');
      const targets = name === '*' ? Object.keys(visible).filter((k) => k !== 'objectID') : [name];
      const words_ = Number(size) > 0 ? Number(size) : 10;
      for (const attr of targets) {
        if (visible[attr] === undefined) continue;
        entries.push([attr, mapLeaves(visible[attr], (t) => snippetText(index.coreIndex, t, words_, setting('snippetEllipsisText'), options))]);
      }
    }
    if (entries.length) out._snippetResult = Object.fromEntries(entries);
  }
  if (params.getRankingInfo) out._rankingInfo = rankingInfo(hit, index);
  return out;
}

/** attributesToHighlight, or by default the searchable attributes (every attribute when none is set). */
function highlightAttributes(index: SearchIndex, record: Record<string, Json>, setting: string[] | null): string[] {
  const list = setting ?? searchableAttributes(index.settings)?.map((a) => a.path[0]) ?? ['*'];
  const names = list.includes('*') ? Object.keys(record).filter((k) => k !== 'objectID') : [...new Set(list.map((a) => a.split('.')[0]))];
  return names.filter((n) => record[n] !== undefined && (typeof record[n] !== 'object' || record[n] !== null));
}

function rankingInfo(hit: CoreHit, index: SearchIndex): Record<string, unknown> {
  return {
    nbTypos: hit.typos,
    firstMatchedWord: hit.words > 0 ? hit.attributeRank * 1000 + hit.attributePosition : 0,
    proximityDistance: hit.proximity,
    userScore: index.size - hit.customRank,
    geoDistance: 0,
    geoPrecision: 1,
    nbExactWords: hit.exactWords,
    words: hit.words,
    filters: 0,
  };
}
