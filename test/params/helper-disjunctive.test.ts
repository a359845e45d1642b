// algoliasearch-helper (the state machine under InstantSearch) against
// Lantern through the official v5 client, exactly as InstantSearch wires it:
// the v5 client goes to the helper as is (`client.search([...])` is its
// legacy multi-query signature; facet value search goes through
// `client.search([{ type: 'facet', ... }])` because a v5 client has
// `searchForFacets`). Disjunctive facets (tags, event_name), a conjunctive
// facet (languages), numeric refinements, pagination and facet value search
// are checked against an oracle computed here from the TED fixture.
import { readFileSync } from 'node:fs';
import { algoliasearch } from 'algoliasearch';
import algoliasearchHelper from 'algoliasearch-helper';
import { beforeAll, describe, expect, it } from 'vitest';
import { Lantern, lanternRequester } from '../../src/index.js';

const APP_ID = 'HELPERAPP';
const ADMIN_KEY = 'helper-admin-key';
const INDEX = 'talks';

interface Talk {
  objectID: string; name: string; speakers: string[]; tags: string[]; languages: string[];
  event_name: string; date: number; duration_range: number; [k: string]: unknown;
}

const fixture = <T,>(name: string): T => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));

let engine: Lantern;
let client: ReturnType<typeof algoliasearch>;
let talks: Talk[];
/** Every HTTP request the client sent: path and parsed body. */
const sent: Array<{ path: string; body: any }> = [];

beforeAll(async () => {
  engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
  const inner = lanternRequester(engine);
  const requester = {
    async send(request: Parameters<typeof inner.send>[0]) {
      const body = typeof request.data === 'string' ? JSON.parse(request.data) : undefined;
      sent.push({ path: new URL(request.url, 'http://localhost').pathname, body });
      return inner.send(request);
    },
  };
  client = algoliasearch(APP_ID, ADMIN_KEY, { requester });
  talks = fixture<Talk[]>('talks.json');
  const settings = fixture<Record<string, unknown>>('talks_settings.json');
  delete settings.slaves; // replicas are another feature
  await client.setSettings({ indexName: INDEX, indexSettings: settings as any });
  await client.saveObjects({ indexName: INDEX, objects: talks as any });
  await engine.waitForTasks();
});

// ---------------------------------------------------------------------------
// The helper, promisified
// ---------------------------------------------------------------------------

type Helper = ReturnType<typeof algoliasearchHelper>;
type Results = Helper['lastResults'] & {};

/** A helper with the InstantSearch-like configuration of this suite. */
function newHelper(params: Record<string, unknown> = {}): Helper {
  return algoliasearchHelper(client as any, INDEX, {
    disjunctiveFacets: ['tags', 'event_name'],
    facets: ['languages'],
    // distinct (on speakers in the fixture) would make nbHits count speakers, not talks.
    distinct: false,
    // All values, so facet counts compare exactly (the fixture's 100 would cut tags).
    maxValuesPerFacet: 1000,
    hitsPerPage: 1000,
    attributesToRetrieve: ['date'],
    attributesToHighlight: [],
    ...params,
  } as any);
}

/** Runs `helper.search()` and resolves with the results of that search. */
function search(helper: Helper): Promise<Results> {
  return new Promise((resolve, reject) => {
    const onResult = (event: { results: Results }) => { helper.removeListener('error', onError); resolve(event.results); };
    const onError = (event: { error: unknown }) => { helper.removeListener('result', onResult); reject(event.error); };
    helper.once('result', onResult);
    helper.once('error', onError);
    helper.search();
  });
}

// ---------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------

interface Refinements {
  tags?: string[]; // disjunctive: OR
  events?: string[]; // disjunctive: OR
  languages?: string[]; // conjunctive: AND
  dateMin?: number;
  dateMax?: number;
  /** The query's matching predicate (undefined: every record). */
  query?: (t: Talk) => boolean;
}
type Facet = 'tags' | 'event_name' | 'languages';

const valuesOf = (t: Talk, attribute: Facet): string[] => (attribute === 'event_name' ? [t.event_name] : t[attribute]);

/** Whether `t` matches every refinement except those on `except` (the disjunctive facet being counted). */
function matches(t: Talk, r: Refinements, except?: Facet): boolean {
  if (r.query && !r.query(t)) return false;
  if (except !== 'tags' && r.tags?.length && !r.tags.some((v) => t.tags.includes(v))) return false;
  if (except !== 'event_name' && r.events?.length && !r.events.includes(t.event_name)) return false;
  if (except !== 'languages' && r.languages?.length && !r.languages.every((v) => t.languages.includes(v))) return false;
  if (r.dateMin !== undefined && !(t.date >= r.dateMin)) return false;
  if (r.dateMax !== undefined && !(t.date <= r.dateMax)) return false;
  return true;
}

const hitsOf = (r: Refinements): Talk[] => talks.filter((t) => matches(t, r));
const sortedIds = (list: Array<{ objectID: string }>): string[] => list.map((t) => t.objectID).sort();

function countValues(records: Talk[], attribute: Facet): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of records) for (const v of new Set(valuesOf(t, attribute))) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

interface FacetValue { name: string; count: number; isRefined: boolean }
const byName = (a: FacetValue, b: FacetValue) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The facet values the helper must show: counts over the records matching the
 * other refinements (disjunctive) or all of them (conjunctive), plus every
 * refined value (the helper lists a refined value absent from the response at 0).
 */
function expectedFacet(r: Refinements, attribute: Facet, disjunctive: boolean): FacetValue[] {
  const records = talks.filter((t) => matches(t, r, disjunctive ? attribute : undefined));
  const counts = countValues(records, attribute);
  const refined = (attribute === 'tags' ? r.tags : attribute === 'event_name' ? r.events : r.languages) ?? [];
  for (const v of refined) if (!counts.has(v)) counts.set(v, 0);
  return [...counts].map(([name, count]) => ({ name, count, isRefined: refined.includes(name) })).sort(byName);
}

function facetOf(results: Results, attribute: Facet): FacetValue[] {
  const values = (results.getFacetValues(attribute, {}) ?? []) as Array<{ name: string; count: number; isRefined: boolean }>;
  return values.map(({ name, count, isRefined }) => ({ name, count, isRefined })).sort(byName);
}

/** Lower-case, diacritics removed, split on anything but letters and digits. */
const words = (s: string): string[] =>
  s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * The records a query matches with typoTolerance false under the fixture's
 * prefixLast: every query word in some searchable attribute (name, speakers,
 * event_name, tags), the last one as a prefix, the others whole.
 */
function queryMatcher(query: string): (t: Talk) => boolean {
  const q = words(query);
  return (t) => {
    const w = [t.name, ...t.speakers, t.event_name, ...t.tags].flatMap(words);
    return q.every((word, i) => (i === q.length - 1 ? w.some((x) => x.startsWith(word)) : w.includes(word)));
  };
}

function checkResults(results: Results, r: Refinements): void {
  const expected = hitsOf(r);
  expect(results.nbHits).toBe(expected.length);
  expect(results.hits.length).toBe(Math.min(expected.length, results.hitsPerPage));
  if (expected.length <= results.hitsPerPage) expect(sortedIds(results.hits as any)).toEqual(sortedIds(expected));
  expect(facetOf(results, 'tags')).toEqual(expectedFacet(r, 'tags', true));
  expect(facetOf(results, 'event_name')).toEqual(expectedFacet(r, 'event_name', true));
  expect(facetOf(results, 'languages')).toEqual(expectedFacet(r, 'languages', false));
}

// ---------------------------------------------------------------------------

describe('algoliasearch-helper: disjunctive and conjunctive facets', () => {
  it('no refinement: every talk, facet counts over the whole fixture', async () => {
    const results = await search(newHelper({ hitsPerPage: 0 }));
    expect(results.nbHits).toBe(2356);
    expect(facetOf(results, 'tags')).toEqual(expectedFacet({}, 'tags', true));
    expect(facetOf(results, 'event_name')).toEqual(expectedFacet({}, 'event_name', true));
    expect(facetOf(results, 'languages')).toEqual(expectedFacet({}, 'languages', false));
  });

  it('two tags (OR), one event, one language: hits and counts match the oracle', async () => {
    const r: Refinements = { tags: ['science', 'technology'], events: ['TED2009'], languages: ['French'] };
    expect(hitsOf(r).length).toBeGreaterThan(10); // a meaningful oracle
    const helper = newHelper()
      .addDisjunctiveFacetRefinement('tags', 'science')
      .addDisjunctiveFacetRefinement('tags', 'technology')
      .addDisjunctiveFacetRefinement('event_name', 'TED2009')
      .addFacetRefinement('languages', 'French');
    const before = sent.length;
    const results = await search(helper);
    // One multi-query request: the hits query plus one query per refined disjunctive facet.
    const requests = sent.slice(before);
    expect(requests.map((s) => s.path)).toEqual(['/1/indexes/*/queries']);
    expect(requests[0].body.requests).toHaveLength(3);
    expect((results as any)._rawResults).toHaveLength(3);
    checkResults(results, r);
    // The other tags' counts are over the talks of TED2009 in French (any tag).
    const other = facetOf(results, 'tags').find((v) => v.name === 'design')!;
    expect(other.count).toBe(talks.filter((t) => t.event_name === 'TED2009' && t.languages.includes('French') && t.tags.includes('design')).length);
  });

  it('with a query (typoTolerance false): hits and counts over the query matches', async () => {
    const query = 'brain';
    const r: Refinements = { tags: ['science', 'psychology'], events: ['TEDGlobal 2012'], languages: ['English'], query: queryMatcher(query) };
    // Without the event the query alone matches a good number of talks.
    expect(talks.filter(queryMatcher(query)).length).toBeGreaterThan(50);
    const helper = newHelper({ typoTolerance: false })
      .setQuery(query)
      .addDisjunctiveFacetRefinement('tags', 'science')
      .addDisjunctiveFacetRefinement('tags', 'psychology')
      .addDisjunctiveFacetRefinement('event_name', 'TEDGlobal 2012')
      .addFacetRefinement('languages', 'English');
    checkResults(await search(helper), r);

    // The query alone.
    const alone = await search(newHelper({ typoTolerance: false }).setQuery(query));
    checkResults(alone, { query: queryMatcher(query) });
  });

  it('a two-word query: the first word whole, the last as a prefix', async () => {
    const query = 'social medi';
    const r: Refinements = { tags: ['technology', 'social change'], query: queryMatcher(query) };
    expect(hitsOf(r).length).toBeGreaterThan(3);
    const helper = newHelper({ typoTolerance: false })
      .setQuery(query)
      .addDisjunctiveFacetRefinement('tags', 'technology')
      .addDisjunctiveFacetRefinement('tags', 'social change');
    checkResults(await search(helper), r);
  });

  it('a refined value absent from the other refinements shows at 0, still refined', async () => {
    // No talk of TED2009 is tagged "Bioethics" (checked below), yet it stays listed as refined.
    const r: Refinements = { tags: ['Bioethics'], events: ['TED2009'] };
    expect(talks.filter((t) => t.event_name === 'TED2009' && t.tags.includes('Bioethics'))).toHaveLength(0);
    const helper = newHelper()
      .addDisjunctiveFacetRefinement('tags', 'Bioethics')
      .addDisjunctiveFacetRefinement('event_name', 'TED2009');
    const results = await search(helper);
    expect(results.nbHits).toBe(0);
    checkResults(results, r);
    expect(facetOf(results, 'tags').find((v) => v.name === 'Bioethics')).toEqual({ name: 'Bioethics', count: 0, isRefined: true });
  });

  it('values with ":", ">", quotes, diacritics, commas and parentheses refine like any other', async () => {
    const events = ['NextGen:Charity', 'TEDGlobal>London', "TEDxO'Porto", 'TEDxGöteborg 2010', "Eric Whitacre's Virtual Choir"];
    const r: Refinements = { events };
    expect(hitsOf(r).length).toBeGreaterThanOrEqual(events.length);
    const helper = newHelper();
    for (const e of events) helper.addDisjunctiveFacetRefinement('event_name', e);
    checkResults(await search(helper), r);

    const languages = ['French (Canada)', 'Chinese, Yue'];
    const withLanguages: Refinements = { languages };
    expect(hitsOf(withLanguages).length).toBeGreaterThan(0);
    const conjunctive = newHelper();
    for (const l of languages) conjunctive.addFacetRefinement('languages', l);
    checkResults(await search(conjunctive), withLanguages);
  });

  // The engine returns such values verbatim in `facets` (" Sivamani") and the
  // helper refines on them as returned ("speakers: Sivamani"): the refinement
  // must find the talks the facet count promised.
  it('speaker values with leading, trailing or doubled spaces match their talks', async () => {
    const odd = [...new Set(talks.flatMap((t) => t.speakers))].filter((s) => s !== s.trim() || s.includes('  ')).sort();
    expect(odd.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const speaker of odd) {
      const results = await search(newHelper({ hitsPerPage: 0, disjunctiveFacets: ['speakers'], facets: [] }).addDisjunctiveFacetRefinement('speakers', speaker));
      const expected = talks.filter((t) => t.speakers.includes(speaker)).length;
      if (results.nbHits !== expected) failures.push(`${JSON.stringify(speaker)}: ${results.nbHits} hits, expected ${expected}`);
    }
    expect(failures).toEqual([]);
  });

  it('the fixture maxValuesPerFacet (100): the 100 most frequent tags with exact counts', async () => {
    const helper = newHelper({ maxValuesPerFacet: undefined, hitsPerPage: 0 }).addDisjunctiveFacetRefinement('event_name', 'TED2014');
    const results = await search(helper);
    const all = expectedFacet({ events: ['TED2014'] }, 'tags', true).filter((v) => v.count > 0);
    expect(all.length).toBeGreaterThan(100);
    const got = facetOf(results, 'tags');
    expect(got).toHaveLength(100);
    const exact = new Map(all.map((v) => [v.name, v.count]));
    for (const v of got) expect(v.count, v.name).toBe(exact.get(v.name));
    const lowest = Math.min(...got.map((v) => v.count));
    const shown = new Set(got.map((v) => v.name));
    for (const v of all) if (!shown.has(v.name)) expect(v.count, v.name).toBeLessThanOrEqual(lowest);
  });

  it('toggling refinements off returns to the unrefined counts', async () => {
    const helper = newHelper({ hitsPerPage: 0 })
      .toggleFacetRefinement('tags', 'science')
      .toggleFacetRefinement('event_name', 'TED2009');
    checkResults(await search(helper), { tags: ['science'], events: ['TED2009'] });
    helper.toggleFacetRefinement('tags', 'science');
    checkResults(await search(helper), { events: ['TED2009'] });
    helper.clearRefinements();
    checkResults(await search(helper), {});
  });

  it('excluding a conjunctive value (addFacetExclusion)', async () => {
    const helper = newHelper({ hitsPerPage: 0 })
      .addDisjunctiveFacetRefinement('tags', 'music')
      .addFacetExclusion('languages', 'French');
    const results = await search(helper);
    const expected = talks.filter((t) => t.tags.includes('music') && !t.languages.includes('French'));
    expect(expected.length).toBeGreaterThan(0);
    expect(results.nbHits).toBe(expected.length);
    const languages = facetOf(results, 'languages').filter((v) => v.count > 0);
    const counts = countValues(expected, 'languages');
    expect(languages.map((v) => [v.name, v.count])).toEqual([...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  });
});

describe('algoliasearch-helper: numeric refinements', () => {
  const X = Date.UTC(2010, 0, 1) / 1000;
  const Y = Date.UTC(2014, 0, 1) / 1000;

  it('date >= X with disjunctive refinements: the numeric filter applies to every query', async () => {
    const r: Refinements = { tags: ['psychology', 'brain'], events: ['TEDGlobal 2012', 'TED2014'], dateMin: X };
    expect(hitsOf(r).length).toBeGreaterThan(5);
    const helper = newHelper()
      .addNumericRefinement('date', '>=', X)
      .addDisjunctiveFacetRefinement('tags', 'psychology')
      .addDisjunctiveFacetRefinement('tags', 'brain')
      .addDisjunctiveFacetRefinement('event_name', 'TEDGlobal 2012')
      .addDisjunctiveFacetRefinement('event_name', 'TED2014');
    const results = await search(helper);
    checkResults(results, r);
    expect(results.hits.every((h: any) => h.date >= X)).toBe(true);
  });

  it('X <= date <= Y (two numeric refinements) with a conjunctive refinement', async () => {
    const r: Refinements = { languages: ['Japanese'], dateMin: X, dateMax: Y, tags: ['design'] };
    expect(hitsOf(r).length).toBeGreaterThan(3);
    const helper = newHelper()
      .addNumericRefinement('date', '>=', X)
      .addNumericRefinement('date', '<=', Y)
      .addFacetRefinement('languages', 'Japanese')
      .addDisjunctiveFacetRefinement('tags', 'design');
    checkResults(await search(helper), r);
  });

  it('the boundary is inclusive: date >= (the date of a talk) keeps that talk', async () => {
    const pivot = [...talks].sort((a, b) => a.date - b.date)[1000].date;
    const helper = newHelper({ hitsPerPage: 0 }).addNumericRefinement('date', '>=', pivot);
    checkResults(await search(helper), { dateMin: pivot });
    const strict = await search(newHelper({ hitsPerPage: 0 }).addNumericRefinement('date', '>', pivot));
    expect(strict.nbHits).toBe(talks.filter((t) => t.date > pivot).length);
    expect(strict.nbHits).toBeLessThan(talks.filter((t) => t.date >= pivot).length);
  });
});

describe('algoliasearch-helper: pagination', () => {
  it('setPage walks every page: the pages partition the oracle set, newest first', async () => {
    const r: Refinements = { tags: ['psychology', 'brain'] };
    const expected = hitsOf(r);
    expect(expected.length).toBe(217);
    const hitsPerPage = 20;
    const nbPages = Math.ceil(expected.length / hitsPerPage);
    const helper = newHelper({ hitsPerPage })
      .addDisjunctiveFacetRefinement('tags', 'psychology')
      .addDisjunctiveFacetRefinement('tags', 'brain');
    const seen: Array<{ objectID: string; date: number }> = [];
    for (let page = 0; page < nbPages; page++) {
      helper.setPage(page);
      const results = await search(helper);
      expect(results.page).toBe(page);
      expect(results.nbPages).toBe(nbPages);
      expect(results.nbHits).toBe(expected.length);
      expect(results.hitsPerPage).toBe(hitsPerPage);
      expect(results.hits.length).toBe(page < nbPages - 1 ? hitsPerPage : expected.length - hitsPerPage * (nbPages - 1));
      // Every page carries the same facet counts.
      expect(facetOf(results, 'tags')).toEqual(expectedFacet(r, 'tags', true));
      seen.push(...(results.hits as any));
    }
    expect(new Set(seen.map((h) => h.objectID)).size).toBe(seen.length);
    expect(sortedIds(seen)).toEqual(sortedIds(expected));
    // Empty query: customRanking desc(date) orders the hits across pages.
    for (let i = 1; i < seen.length; i++) expect(seen[i].date).toBeLessThanOrEqual(seen[i - 1].date);

    helper.setPage(nbPages);
    const beyond = await search(helper);
    expect(beyond.hits).toHaveLength(0);
    expect(beyond.nbHits).toBe(expected.length);
  });

  it('a refinement resets the page to 0', async () => {
    const helper = newHelper({ hitsPerPage: 5 }).setPage(3);
    expect(helper.state.page).toBe(3);
    helper.addDisjunctiveFacetRefinement('event_name', 'TED2009');
    expect(helper.state.page).toBe(0);
    const results = await search(helper);
    expect(results.page).toBe(0);
    expect(results.nbHits).toBe(talks.filter((t) => t.event_name === 'TED2009').length);
  });
});

describe('algoliasearch-helper: searchForFacetValues', () => {
  /** The facet values whose words start with `prefix`, counted over `records`, by count then name. */
  function expectedFacetHits(records: Talk[], attribute: Facet, prefix: string): Array<{ value: string; count: number }> {
    const counts = countValues(records, attribute);
    return [...counts]
      .filter(([value]) => words(value).some((w) => w.startsWith(prefix)))
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  }

  const normalized = (hits: Array<{ value: string; count: number }>) =>
    hits.map(({ value, count }) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));

  it("'psych' on tags without refinements: psychology and its count", async () => {
    const helper = newHelper();
    const before = sent.length;
    const result = await helper.searchForFacetValues('tags', 'psych', undefined as any);
    // The v5 path: a facet-type request in a multi-query.
    expect(sent.slice(before).map((s) => s.path)).toEqual(['/1/indexes/*/queries']);
    expect(sent[before].body.requests[0]).toMatchObject({ type: 'facet', facet: 'tags', facetQuery: 'psych' });
    expect(normalized(result.facetHits)).toEqual(expectedFacetHits(talks, 'tags', 'psych'));
    expect(result.facetHits).toEqual([expect.objectContaining({ value: 'psychology', count: 110, isRefined: false })]);
    expect(result.facetHits[0].highlighted).toMatch(/^<em>psych<\/em>ology$/i);
  });

  it("'psych' on the disjunctive tags: its own refinements are ignored, the others narrow the counts", async () => {
    const r: Refinements = { tags: ['psychology', 'brain'], events: ['TEDGlobal 2012', 'TED2014', 'TED2013'], languages: ['French'], dateMin: Date.UTC(2012, 0, 1) / 1000 };
    const helper = newHelper()
      .addDisjunctiveFacetRefinement('tags', 'psychology')
      .addDisjunctiveFacetRefinement('tags', 'brain')
      .addDisjunctiveFacetRefinement('event_name', 'TEDGlobal 2012')
      .addDisjunctiveFacetRefinement('event_name', 'TED2014')
      .addDisjunctiveFacetRefinement('event_name', 'TED2013')
      .addFacetRefinement('languages', 'French')
      .addNumericRefinement('date', '>=', r.dateMin!);
    const records = talks.filter((t) => matches(t, r, 'tags'));
    const expected = expectedFacetHits(records, 'tags', 'psych');
    expect(expected).toHaveLength(1);
    expect(expected[0].count).toBeGreaterThan(0);
    expect(expected[0].count).toBeLessThan(110);
    const result = await helper.searchForFacetValues('tags', 'psych', undefined as any);
    expect(normalized(result.facetHits)).toEqual(expected);
    expect(result.facetHits[0].isRefined).toBe(true);
    // The same count as the disjunctive facet of a search with the same state.
    const searched = await search(helper);
    expect(facetOf(searched, 'tags').find((v) => v.name === 'psychology')!.count).toBe(expected[0].count);
  });

  it("'bio' (typoTolerance false): every matching value, counts by decreasing order, at most maxFacetHits", async () => {
    const expected = expectedFacetHits(talks, 'tags', 'bio');
    expect(expected.length).toBe(9);
    const result = await newHelper({ typoTolerance: false }).searchForFacetValues('tags', 'bio', undefined as any);
    expect(result.facetHits.length).toBe(9);
    expect(normalized(result.facetHits)).toEqual(expected);
    for (let i = 1; i < result.facetHits.length; i++) expect(result.facetHits[i].count).toBeLessThanOrEqual(result.facetHits[i - 1].count);

    const few = await newHelper({ typoTolerance: false }).searchForFacetValues('tags', 'bio', 3);
    expect(few.facetHits.map((h: any) => h.count)).toEqual(expected.slice(0, 3).map((h) => h.count));
  });

  it('on the conjunctive languages facet: the refinements (its own included) narrow the counts', async () => {
    const helper = newHelper({ typoTolerance: false })
      .addDisjunctiveFacetRefinement('tags', 'music')
      .addFacetRefinement('languages', 'Japanese');
    const records = talks.filter((t) => t.tags.includes('music') && t.languages.includes('Japanese'));
    const expected = expectedFacetHits(records, 'languages', 'port');
    expect(expected.length).toBeGreaterThan(0);
    const result = await helper.searchForFacetValues('languages', 'port', undefined as any);
    expect(normalized(result.facetHits)).toEqual(expected);
  });
});
