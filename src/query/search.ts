// The query pipeline of one index: parameters → plan → core (with the
// removeWordsIfNoResults fallbacks) → facets over the candidates → page of
// hits with retrieved attributes, highlighting, snippets, ranking info.
import type { CoreHit, CoreResult } from '../core/core-index.js';
import { encodeParams, type SearchParams, type Settings } from '../index/params.js';
import { settingsFor, type SearchableAttribute, type Setting } from '../index/settings.js';
import { facetsOf, requestedFacets } from './facet-counts.js';
import { synonymWords } from '../index/synonyms.js';
import { ValuesToMark, mapLeaves, markValues, unmatchedLeaf, type HighlightLeaf, type HighlightOptions, type SnippetLeaf } from './highlight.js';
import { fallbackMasks, planQuery, type QueryPlan } from './query-plan.js';
import { RELEVANT_SORT_WINDOW, relevantSorted } from './relevant-sort.js';
import { project, projection, type Json, type Projection, type SearchRecord } from '../index/records.js';
import { own, setOwn } from '../util/own-keys.js';
import { madeForAnswer } from '../util/json-value.js';
import { applyRules, type AppliedRules } from '../index/rules.js';
import { andInto, fullBitmap, hasBit, wordsFor, type Bitmap } from '../index/bitmap.js';
import type { SearchIndex } from '../index/search-index.js';
import type { QueryDictionaries } from '../text/dictionaries.js';
import type { Hit, Page, SearchAnswer, SearchResult } from './search-result.js';
import { hybridRequestOf, runHybrid, type HybridResult, type HybridScores, type QueryVector } from './hybrid.js';
import { VECTORS } from '../vectors/record-vectors.js';
import { explainMatch, explainsMatch } from './explain.js';

export interface SearchContext {
  /** The key may see unretrievableAttributes (admin key or seeUnretrievableAttributes). */
  seeUnretrievable: boolean;
  /** The application's stop words, plurals and compounds (the built-in ones when absent). */
  dictionaries?: QueryDictionaries;
  /** The query's vector, embedded by the caller (which may wait for the embedder) for a hybrid search. */
  queryVector?: QueryVector;
  /** The records the search may find (recommendations: the candidates a model chose); every record when absent. */
  within?: Bitmap;
}

/** The fewest hits each side of a hybrid search brings to the fusion, however small the page. */
const HYBRID_WINDOW = 20;

export function settingsOf(index: SearchIndex, params: SearchParams): Setting {
  return settingsFor(index.settings, params);
}

/** Page window from page/hitsPerPage or offset/length, capped by paginationLimitedTo. */
export function pageOf(params: SearchParams, setting: Setting): Page {
  const hitsPerPage = setting('hitsPerPage');
  const limit = setting('paginationLimitedTo');
  const usesOffset = params.offset !== undefined;
  const offset = params.offset ?? (params.page ?? 0) * hitsPerPage;
  const wanted = usesOffset ? (params.length ?? hitsPerPage) : hitsPerPage;
  const length = Math.max(0, Math.min(wanted, limit - offset));
  return { offset: Math.min(offset, limit), length, page: params.page ?? 0, hitsPerPage, usesOffset };
}

/**
 * Runs the plan. With no hits and a removeWordsIfNoResults strategy, first
 * gives the words that matched nothing (stop words aside) the typo their
 * length refused them (the core's raisedTypoWords: "montian" for
 * "mountain", two typos in 7 letters), every word still required; then
 * tries the strategy's optional words, those words keeping the raised
 * budget and stop words weighing less than the others (plan.lightWords).
 * Lantern's own step before the strategy: the service drops such words.
 */
export function runPlan(index: SearchIndex, plan: QueryPlan, setting: Setting): CoreResult {
  index.prepareRanks();
  let result = index.coreIndex.search(plan.core);
  const strategy = setting('removeWordsIfNoResults');
  if (result.nbHits > 0 || strategy === 'none') return result;
  const refused = index.coreIndex.unmatchedWords() & ~plan.lightWords;
  if (refused !== 0 && plan.core.typoMode !== 'off') {
    plan.core.raisedTypoWords = refused;
    result = index.coreIndex.search(plan.core);
    if (result.nbHits > 0) return result;
  }
  const base = plan.core.optionalWords ?? 0;
  plan.core.lightWords = plan.lightWords;
  for (const mask of fallbackMasks(strategy, plan.words.length, plan.stopWords)) {
    plan.core.optionalWords = base | mask;
    result = index.coreIndex.search(plan.core);
    if (result.nbHits > 0) break;
  }
  return result;
}

/**
 * Rule promotions and hidden records: both leave the ranked candidates (the
 * filter bitmap), promoted records are then placed at their positions and
 * the core's page window is shifted by the promotions before it.
 */
function promotionsOf(index: SearchIndex, ruled: AppliedRules, plan: QueryPlan, page: Page): Array<{ id: number; position: number }> {
  if (ruled.promoted.length === 0 && ruled.hidden.length === 0) {
    plan.core.offset = page.offset;
    return [];
  }
  const promoted = ruled.promoted
    .map((p) => ({ id: index.idOf(p.objectID), position: p.position }))
    .filter((p): p is { id: number; position: number } => p.id !== undefined && !ruled.hidden.includes(index.objectIDOf(p.id)!))
    .filter((p) => !ruled.filterPromotes || !plan.core.filter || hasBit(plan.core.filter, p.id));
  const excluded = [...promoted.map((p) => p.id), ...ruled.hidden.map((o) => index.idOf(o)).filter((id): id is number => id !== undefined)];
  if (excluded.length) {
    const filter = plan.core.filter ?? fullBitmap(wordsFor(index.capacity));
    for (const id of excluded) filter[id >>> 5] &= ~(1 << (id & 31));
    plan.core.filter = filter;
  }
  const before = promoted.filter((p) => p.position < page.offset).length;
  plan.core.offset = Math.max(0, page.offset - before);
  return promoted.sort((a, b) => a.position - b.position);
}

/** The page with promoted records at their positions. */
function placePromotions(hits: CoreHit[], promoted: Array<{ id: number; position: number }>, page: Page): Array<CoreHit & { promoted?: boolean }> {
  if (promoted.length === 0) return hits;
  const out: Array<CoreHit & { promoted?: boolean }> = [];
  let next = 0;
  for (let position = page.offset; position < page.offset + page.length; position++) {
    const p = promoted.find((x) => x.position === position);
    if (p) out.push({ id: p.id, typos: 0, words: 0, proximity: 0, attributeRank: 0, attributePosition: 0, exactWords: 0, customRank: 0, promoted: true });
    else if (next < hits.length) out.push(hits[next++]);
  }
  return out;
}

/** Runs a search: its result, with the whole answer (see search-result.ts for what the caller gets of it). */
export function searchIndex(index: SearchIndex, requested: SearchParams, context: SearchContext): SearchResult {
  const started = performance.now();
  const ruled = applyRules(index, requested, context.dictionaries);
  const params = ruled.params;
  const setting = settingsOf(index, params);
  const page = pageOf(params, setting);
  const plan = planQuery(index, params, setting, page.offset, page.length, context.dictionaries);
  if (context.within) plan.core.filter = plan.core.filter ? andInto(plan.core.filter.slice(), context.within) : context.within;
  const promoted = promotionsOf(index, ruled, plan, page);
  const hybrid = hybridRequestOf(index, params, setting, context.queryVector);
  const vectorSearch = hybrid?.vector !== undefined && hybrid.semanticRatio > 0 ? { ...hybrid, vector: hybrid.vector } : undefined;
  const strictness = promoted.length === 0 && !vectorSearch ? relevantSortOf(index, setting) : undefined;
  if (strictness !== undefined) Object.assign(plan.core, { offset: 0, length: RELEVANT_SORT_WINDOW });
  let fused: HybridResult | undefined;
  let found: CoreResult;
  if (vectorSearch) {
    const start = plan.core.offset;
    fused = runHybrid(index, plan, vectorSearch, Math.max(HYBRID_WINDOW, start + page.length), () => runPlan(index, plan, setting), plan.core.distinct ?? 0);
    found = { ...fused, hits: fused.hits.slice(start, start + page.length) };
  } else found = runPlan(index, plan, setting);
  let sortedHits: number | undefined;
  if (strictness !== undefined) {
    const sorted = relevantSorted(found.hits, strictness);
    sortedHits = sorted.length;
    found.hits = sorted.slice(page.offset, page.offset + page.length);
  }
  const semanticHitCount = fused ? found.hits.filter((hit) => fused.vectorOnly.has(hit.id)).length : 0;
  found.hits = placePromotions(found.hits, promoted, page);
  found.nbHits += promoted.length;
  const facetAttributes = requestedFacets(params.facets, setting);
  const faceted = facetAttributes.length > 0 ? facetsOf(index, facetAttributes, fused?.candidates ?? index.coreIndex.candidates(), setting) : undefined;
  const query = plan.core.query;
  const words = found.words.map(([s, e]) => query.slice(s, e));
  const shape = hitShape(index, params, words, setting, plan, context);
  // which attributes of each hit hold a matched term: the others are highlighted without the core
  const marked = shape.marked && !shape.idOnly && found.hits.length > 0 ? index.coreIndex.markedAttributes(found.hits.map((hit) => hit.id)) : undefined;
  // before the hits are marked: explaining reads the core's marks of the page's tokens
  const explained = explainsMatch(params.explain) ? explainMatch(plan, index.coreIndex, found.hits.flatMap((hit) => index.searchableTexts(hit.id))) : undefined;
  const hits = pageHits(index, found.hits, shape, params, plan, marked, fused?.scores);
  const limit: number = setting('paginationLimitedTo');
  const paged = sortedHits ?? found.nbHits;
  const answer: SearchAnswer = {
    hits,
    nbHits: found.nbHits,
    page: page.page,
    nbPages: page.hitsPerPage > 0 ? Math.ceil(Math.min(paged, limit) / page.hitsPerPage) : 0,
    hitsPerPage: page.hitsPerPage,
    exhaustiveNbHits: true,
    exhaustiveTypo: true,
    exhaustive: { nbHits: true, typo: true, ...(faceted ? { facetsCount: true } : {}) },
  };
  if (faceted) Object.assign(answer, { facets: faceted.facets, exhaustiveFacetsCount: true });
  if (faceted && Object.keys(faceted.stats).length) answer.facets_stats = faceted.stats;
  if (plan.geo?.around) answer.aroundLatLng = `${plan.geo.around.lat},${plan.geo.around.lng}`;
  if (plan.geo?.automaticRadius !== undefined) answer.automaticRadius = String(Math.ceil(plan.geo.automaticRadius));
  if (page.usesOffset) Object.assign(answer, { offset: page.offset, length: page.length });
  if (strictness !== undefined) Object.assign(answer, { appliedRelevancyStrictness: strictness, nbSortedHits: sortedHits });
  answer.renderingContent = renderingContentOf(index, params);
  const userData = [...(requested.userData !== undefined ? [requested.userData] : []), ...ruled.userData];
  if (userData.length) answer.userData = userData;
  if (ruled.appliedRules.length) answer.appliedRules = ruled.appliedRules;
  if (explained) answer.explain = explained;
  if (fused) answer.semanticHitCount = semanticHitCount;
  if (hybrid?.failure) answer.semanticError = hybrid.failure;
  Object.assign(answer, {
    query: requested.query ?? '',
    parsedQuery: words.filter((_, w) => (plan.stopWords & (1 << w)) === 0).join(' '),
    params: encodeParams(requested),
    processingTimeMS: Math.round(performance.now() - started),
  });
  // every hit holds its record's objectID (see project): asking the store again read each record's bytes twice
  const objectIDs = hits.map((hit) => hit.objectID);
  return { nbHits: found.nbHits, page, objectIDs, answer, responseFields: setting('responseFields') };
}

/**
 * What the page renders: the index's renderingContent with the query's (a
 * parameter, or a rule's consequence) laid over it part by part, so a rule's
 * `redirect` keeps the index's `facetOrdering`. Without either, `{}`: the
 * service answers the field on every search.
 */
export function renderingContentOf(index: SearchIndex, params: SearchParams): Record<string, unknown> {
  return { ...index.settings.renderingContent, ...params.renderingContent };
}

/**
 * The relevancy strictness a search sorts at: on a virtual replica with a
 * customRanking (its sort), the parameter or setting (100 by default);
 * undefined elsewhere (standard replicas sort every hit by their ranking).
 */
function relevantSortOf(index: SearchIndex, setting: Setting): number | undefined {
  if (!index.isVirtual || index.ranking.custom.length === 0) return undefined;
  return setting('relevancyStrictness');
}

/** What every hit of a search holds: the same for each, so worked out once. */
interface HitShape {
  retrieved: Projection;
  /** What highlighting and snippets may show (undefined: the whole record). */
  visible?: Projection;
  /** restrictHighlightAndSnippetArrays: the array items kept (undefined: all). */
  keep?: (leaf: { matchLevel: string }) => boolean;
  /** The top-level attributes highlighted (`*`: every one), see highlightAttributes. */
  toHighlight: string[] | '*';
  /** attributesToSnippet's entries as [name, words] (see snippetSpecs). */
  toSnippet: Array<[string, number]>;
  /** Whether hits may carry highlights or snippets (not with an empty attributesToHighlight and no attributesToSnippet). */
  marked: boolean;
  /** A hit is its objectID alone: the record itself is not read. */
  idOnly: boolean;
  ellipsis: string;
  /** How hits are highlighted: worked out on first use (most searches of an app that highlights nothing never need it). */
  highlighting: () => HighlightOptions;
  /** A top-level attribute as highlighting reads it (see highlightedAttribute). */
  attribute: (name: string) => HighlightedAttribute;
  /** retrieveVectors: hits carry every vector of their record, written or computed. */
  vectors: boolean;
}

/** A top-level attribute highlighted: whether it is indexed whole (see SearchIndex.indexesWhole), and its core attribute ids. */
interface HighlightedAttribute { whole: boolean; coreIds: number[] }

/**
 * Whether a hit's value of `attribute` may match a query word, so that
 * highlighting it needs the core: always, unless the attribute is indexed
 * whole and none of its core attribute ids is among the hit's `marked` ones
 * (CoreIndex.markedAttributes).
 */
function mayMatch(attribute: HighlightedAttribute, marked: Int32Array | undefined): boolean {
  if (!attribute.whole || marked === undefined) return true;
  for (const id of attribute.coreIds) if (marked.includes(id)) return true;
  return false;
}

/**
 * The highlighted attributes looked up for an index, at the version of its
 * records and settings they were looked up at: every search of an index
 * that does not change reads the same few (a lookup walks the searchable
 * attributes and makes their ids' list).
 */
const highlightedAttributes = new WeakMap<SearchIndex, { version: number; byName: Map<string, HighlightedAttribute> }>();

/** The highlighted attribute `name` of `index` as it is now (see highlightedAttributes). */
function highlightedAttribute(index: SearchIndex, name: string): HighlightedAttribute {
  let known = highlightedAttributes.get(index);
  if (known?.version !== index.version) highlightedAttributes.set(index, (known = { version: index.version, byName: new Map() }));
  let attribute = known.byName.get(name);
  if (attribute === undefined) {
    const whole = index.indexesWhole(name);
    known.byName.set(name, (attribute = { whole, coreIds: whole ? index.attributeIds([name]) : [] }));
  }
  return attribute;
}

/** The attributes a search highlights and snippets (see highlightedNames and snippetSpecs). */
type MarkedNames = Pick<HitShape, 'toHighlight' | 'toSnippet'>;

/**
 * The marked names of an index's own settings, by settings object (a
 * settings change replaces the object, as SearchIndex.parsedSearchableAttributes
 * relies on): most searches give neither parameter, and working the names
 * out again cost each one a Set, a split per name and per snippet entry.
 */
const markedNamesOfSettings = new WeakMap<Settings, MarkedNames>();

/** The names of a search whose hits are not marked (see HitShape.marked). */
const NOTHING_MARKED: MarkedNames = Object.freeze({ toHighlight: [], toSnippet: [] });

/** The attributes `params` over the index's settings (`setting`) highlight and snippet (see MarkedNames). */
function markedNames(index: SearchIndex, params: SearchParams, setting: Setting): MarkedNames {
  const worked = (): MarkedNames => Object.freeze({
    toHighlight: highlightedNames(setting('attributesToHighlight'), index.parsedSearchableAttributes()),
    toSnippet: snippetSpecs(setting('attributesToSnippet')),
  });
  if (params.attributesToHighlight !== undefined || params.attributesToSnippet !== undefined) return worked();
  let known = markedNamesOfSettings.get(index.settings);
  if (known === undefined) markedNamesOfSettings.set(index.settings, (known = worked()));
  return known;
}

function hitShape(index: SearchIndex, params: SearchParams, words: string[], setting: Setting, plan: QueryPlan, context: SearchContext): HitShape {
  const hidden: string[] = context.seeUnretrievable ? [] : (setting('unretrievableAttributes') ?? []);
  let highlighting: HighlightOptions | undefined;
  const toRetrieve: string[] | null = setting('attributesToRetrieve');
  // a record's vectors are answered when asked for (retrieveVectors), not as any attribute is
  const everything = toRetrieve === null || toRetrieve.length === 0 || toRetrieve.includes('*');
  const retrieved = projection(toRetrieve, everything && index.vectors.any ? [...hidden, VECTORS] : hidden);
  const toHighlight: string[] | null = setting('attributesToHighlight');
  const toSnippet: string[] | null = setting('attributesToSnippet');
  const marked = !(toHighlight !== null && toHighlight.length === 0 && (toSnippet ?? []).length === 0);
  // hits that carry no highlight nor snippet name none (an objectID-only answer gives both parameters, empty)
  const names = marked ? markedNames(index, params, setting) : NOTHING_MARKED;
  return {
    retrieved,
    visible: context.seeUnretrievable || hidden.length === 0 ? undefined : projection(['*'], hidden),
    keep: setting('restrictHighlightAndSnippetArrays') === true ? (leaf) => leaf.matchLevel !== 'none' : undefined,
    toHighlight: names.toHighlight,
    toSnippet: names.toSnippet,
    marked,
    idOnly: !marked && retrieved.names?.length === 1 && retrieved.names[0] === 'objectID',
    ellipsis: setting('snippetEllipsisText'),
    highlighting: () => (highlighting ??= highlightOptions(words, setting, plan)),
    vectors: params.retrieveVectors === true && index.vectors.any,
    attribute: (name) => highlightedAttribute(index, name),
  };
}

/** How this search's hits are highlighted (the same for every hit). */
function highlightOptions(words: string[], setting: Setting, plan: QueryPlan): HighlightOptions {
  // every member set, if only to nothing: marking a token reads them, at one shape of options for every search
  const options: HighlightOptions = {
    preTag: setting('highlightPreTag'), postTag: setting('highlightPostTag'), words, unmarked: plan.stopWords, synonyms: undefined,
  };
  // a query no synonym gave an alternative shows none (TED's settings replace them: a Set per word made for nothing)
  if (plan.synonyms.length > 0 && setting('replaceSynonymsInHighlight') === true) {
    // without a synonym's word no token is shown as a query word: every marked token would look for one
    const synonyms = synonymWords(plan.synonyms, words.length);
    if (synonyms.some((set) => set.size > 0)) options.synonyms = synonyms;
  }
  return options;
}

/**
 * The page's hits. Every value of every hit that is highlighted or
 * snippeted through the core is marked in one call (markValues): a call per
 * value cost more in crossings and views than the core spent tokenizing it.
 */
function pageHits(
  index: SearchIndex, hits: CoreHit[], shape: HitShape, params: SearchParams, plan: QueryPlan, marked: Int32Array[] | undefined,
  hybridScores?: Map<number, HybridScores>,
): Hit[] {
  const values = new ValuesToMark();
  const drafts = hits.map((hit, i) => draftHit(index, hit, shape, marked?.[i], values));
  const leaves = values.length > 0 ? markValues(index.coreIndex, values, shape.highlighting(), shape.ellipsis) : [];
  let next = 0;
  const markedLeaf = (text: string): HighlightLeaf | SnippetLeaf => {
    // drafts listed the values in the order mapLeaves hands them back
    if (values.texts[next] !== text) throw new Error('marked values out of order');
    return leaves[next++];
  };
  const page = drafts.map((draft, i) => finishHit(
    index, draft, shape, markedLeaf, params.getRankingInfo ? rankingInfo(hits[i], index, plan, hybridScores?.get(hits[i].id)) : undefined,
  ));
  // each hit is made here, and its highlights and snippets: its record's arrays and objects are the store's
  return madeForAnswer(page, drafts.map(madeMembers));
}

/** A hit's members made whole for its answer (see madeForAnswer), by whether it has highlights and snippets. */
const MADE_MEMBERS = [[], ['_highlightResult'], ['_snippetResult'], ['_highlightResult', '_snippetResult']].map((names) => new Set(names));
const madeMembers = (draft: HitDraft): ReadonlySet<string> => MADE_MEMBERS[(draft.highlights ? 1 : 0) + (draft.snippets ? 2 : 0)];

/**
 * A hit before its highlights and snippets: its record, what it may show,
 * the attributes highlighted and whether each may match a query word
 * (marked through the core), those snippeted (with their sizes in words).
 * A class, as the values to mark are parallel arrays: V8 moved the objects
 * of literals made while a page was drafted to the old generation (see
 * newLeaf in highlight.ts), where each kept its young hit and record alive
 * through every young collection until the next full one.
 */
class HitDraft {
  constructor(
    /** The record found; for objectID-only answers `{ objectID }`, the hit itself. */
    readonly record: SearchRecord,
    readonly visible?: SearchRecord,
    readonly highlighted: readonly string[] = NOTHING_DRAFTED,
    readonly matched: readonly boolean[] = NOTHING_DRAFTED,
    readonly snippeted: ReadonlyArray<[string, number]> = NOTHING_DRAFTED,
  ) {}

  /** Whether the hit gets `_highlightResult`. */
  get highlights(): boolean { return this.visible !== undefined && this.highlighted.length > 0; }

  /** Whether the hit gets `_snippetResult`. */
  get snippets(): boolean { return this.visible !== undefined && this.snippeted.length > 0; }
}

/** A draft's lists when it has none (objectID only, nothing marked): one shared array, not three per hit. */
const NOTHING_DRAFTED: readonly never[] = Object.freeze([]);

/**
 * Reads a hit's record; lists in `values` the values to mark through the
 * core: to highlight, those of attributes that may match a query word
 * (`marked`: see mayMatch), then every value to snippet.
 */
function draftHit(index: SearchIndex, hit: CoreHit, shape: HitShape, marked: Int32Array | undefined, values: ValuesToMark): HitDraft {
  if (shape.idOnly) return new HitDraft({ objectID: index.objectIDOf(hit.id)! });
  const record = index.record(hit.id) as SearchRecord;
  if (!shape.marked) return new HitDraft(record);
  const visible = shape.visible ? project(record, shape.visible) : record;
  const highlighted = highlightAttributes(visible, shape.toHighlight);
  const matched = highlighted.map((name) => {
    const attribute = shape.attribute(name);
    const mayMatchWord = mayMatch(attribute, marked);
    if (mayMatchWord) values.addLeaves(own(visible, name) as Json, attribute.whole);
    return mayMatchWord;
  });
  const snippeted = snippetAttributes(visible, shape.toSnippet);
  for (const [name, words] of snippeted) {
    const { whole } = shape.attribute(name);
    values.addLeaves(own(visible, name) as Json, whole, words);
  }
  return new HitDraft(record, visible, highlighted, matched, snippeted);
}

/**
 * A drafted hit: its retrieved attributes, then its vectors, highlights and
 * snippets (`markedLeaf`: the leaf of the next value drafted) and ranking
 * info, given to `project` in one object (copied in with a whole record:
 * see project).
 */
function finishHit(
  index: SearchIndex, draft: HitDraft, shape: HitShape, markedLeaf: (text: string) => HighlightLeaf | SnippetLeaf, ranking?: Record<string, unknown>,
): Hit {
  const { record, visible } = draft;
  if (shape.idOnly) return ranking ? { objectID: record.objectID, _rankingInfo: ranking } : record;
  const added: Record<string, unknown> = {};
  if (shape.vectors) added[VECTORS] = vectorsOfHit(index, record);
  if (visible && draft.highlights) {
    const result: Record<string, unknown> = {};
    draft.highlighted.forEach((name, i) => {
      setTree(result, name, mapLeaves(own(visible, name) as Json, draft.matched[i] ? markedLeaf : unmatchedLeaf, shape.keep));
    });
    added._highlightResult = result;
  }
  if (visible && draft.snippets) {
    const result: Record<string, unknown> = {};
    for (const [name] of draft.snippeted) setTree(result, name, mapLeaves(own(visible, name) as Json, markedLeaf, shape.keep));
    added._snippetResult = result;
  }
  if (ranking) added._rankingInfo = ranking;
  return project(record, shape.retrieved, added);
}

/** Gives `result` the highlights or snippet of attribute `name`; none for a value with no text (a boolean), as JSON would leave it out. */
function setTree(result: Record<string, unknown>, name: string, tree: unknown): void {
  if (tree !== undefined) setOwn(result, name, tree);
}

/** The top-level attributes of attributesToHighlight, or by default of the searchable attributes (every attribute when none is set). */
function highlightedNames(setting: string[] | null, searchable: SearchableAttribute[] | null): string[] | '*' {
  const list = setting ?? searchable?.map((a) => a.path[0]) ?? ['*'];
  return list.includes('*') ? '*' : [...new Set(list.map((a) => a.split('.')[0]))];
}

/** Every vector the index holds for a record, by embedder: the ones written with it, and those computed for it. */
function vectorsOfHit(index: SearchIndex, record: SearchRecord): Json {
  const out: Record<string, Json> = {};
  for (const name of index.vectors.names()) {
    const vector = index.vectors.vectorOf(name, record);
    out[name] = vector === undefined ? null : Array.from(vector);
  }
  return out;
}

/** Attributes `*` stands for in highlighting and snippets: every one but objectID and the vectors. */
const isText = (name: string) => name !== 'objectID' && name !== VECTORS;

/** The attributes of `record` to highlight (see highlightedNames). */
function highlightAttributes(record: Record<string, Json>, names: string[] | '*'): string[] {
  return (names === '*' ? Object.keys(record).filter(isText) : names).filter((n) => own(record, n) != null);
}

/** attributesToSnippet entries `attr` or `attr:N` (N words, default 10; `*` = every attribute), read once per search. */
function snippetSpecs(setting: string[] | null): Array<[string, number]> {
  return (setting ?? []).map((spec) => {
    const [name, size] = spec.split(':');
    return [name, Number(size) > 0 ? Number(size) : 10];
  });
}

/** The attributes of `record` to snippet, with their sizes in words (see snippetSpecs). */
function snippetAttributes(record: Record<string, Json>, specs: Array<[string, number]>): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const [name, words] of specs) {
    const names = name === '*' ? Object.keys(record).filter(isText) : [name];
    for (const n of names) if (own(record, n) != null) out.push([n, words]);
  }
  return out;
}

function rankingInfo(hit: CoreHit & { promoted?: boolean }, index: SearchIndex, plan: QueryPlan, hybrid?: HybridScores): Record<string, unknown> {
  const geo = plan.geo?.info?.get(hit.id);
  const info: Record<string, unknown> = {
    nbTypos: hit.typos,
    firstMatchedWord: hit.words > 0 ? hit.attributeRank * 1000 + hit.attributePosition : 0,
    proximityDistance: hit.proximity,
    // a promoted hit ranks first by customRanking, as it is placed (its CoreHit says rank 0)
    userScore: index.size - (hit.promoted ? hit.customRank : index.customRankOf(hit.id)),
    geoDistance: geo?.distance ?? 0,
    geoPrecision: geo?.precision ?? 1,
    nbExactWords: hit.exactWords,
    words: hit.words,
    filters: plan.scores?.[hit.id] ?? 0,
  };
  if (geo) info.matchedGeoLocation = { ...geo.point, distance: geo.distance };
  if (hit.promoted) info.promoted = true;
  if (hybrid) Object.assign(info, hybrid);
  return info;
}
