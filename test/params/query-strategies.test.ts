// Query strategies: optionalWords, removeWordsIfNoResults, advancedSyntax,
// removeStopWords, queryType, typoTolerance, restrictSearchableAttributes,
// disableTypoToleranceOnAttributes / OnWords, responseFields and
// attributesToRetrieve.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, fold, ids, indexTalks, openEngine, searcher, sorted, type Send, type Talk } from './helpers.js';

let send: Send;
let talks: Talk[];
let engine: Awaited<ReturnType<typeof openEngine>>['engine'];
const GIVER = '2652'; // "Are you a giver or a taker?" by Adam Grant

beforeAll(async () => {
  const opened = await openEngine();
  send = opened.send;
  engine = opened.engine;
  talks = await indexTalks(opened.engine);
});

/** A fresh index of `records` with `settings`. */
async function smallIndex(indexName: string, settings: Record<string, unknown>, records: Array<Record<string, unknown>>) {
  const client = engine.client();
  await client.setSettings({ indexName, indexSettings: settings });
  await client.saveObjects({ indexName, objects: records as any });
  await engine.waitForTasks();
  return (params: Record<string, unknown>) => searcher(send, indexName, { hitsPerPage: 100 })(params);
}

/** distinct off: the fixture's distinct on speakers is not what these tests are about. */
const search = (params: Record<string, unknown>) => searcher(send, 'talks', { distinct: false, hitsPerPage: 1000 })(params);

const tokens = (s: string) => fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const searchableTokens = (t: Talk) => [t.name, ...t.speakers, t.event_name, ...t.tags].flatMap(tokens);

describe('optionalWords', () => {
  it('a word that matches nothing does not empty the results when optional', async () => {
    expect((await search({ query: 'giver zzqqxx' })).nbHits).toBe(0);
    const optional = await search({ query: 'giver zzqqxx', optionalWords: ['zzqqxx'] });
    expect(optional.nbHits).toBeGreaterThan(0);
    expect(optional.hits[0].objectID).toBe(GIVER);
  });

  it('as a comma string, in a params string, or as a setting of the query', async () => {
    const array = await search({ query: 'giver zzqqxx', optionalWords: ['zzqqxx'] });
    const comma = await search({ query: 'giver zzqqxx', optionalWords: 'zzqqxx,other' });
    const params = await search({ params: 'query=giver+zzqqxx&optionalWords=zzqqxx' });
    expect(ids(comma)).toEqual(ids(array));
    expect(ids(params)).toEqual(ids(array));
  });

  it('records matching the optional word rank first (words criterion)', async () => {
    const response = await search({ query: 'giver taker', optionalWords: ['taker'], getRankingInfo: true });
    expect(response.nbHits).toBeGreaterThan(1);
    expect(response.hits[0].objectID).toBe(GIVER);
    expect(response.hits[0]._rankingInfo.words).toBe(2);
    for (const hit of response.hits.slice(1)) expect(hit._rankingInfo.words).toBeLessThanOrEqual(2);
    const words = response.hits.map((h: any) => h._rankingInfo.words);
    expect(words).toContain(1);
    // every hit still matches the required word
    const required = await search({ query: 'giver zzqqxx', optionalWords: ['zzqqxx'] });
    expect(sorted(ids(response))).toEqual(sorted(ids(required)));
  });
});

describe('removeWordsIfNoResults', () => {
  it('none (default): no results', async () => {
    expect((await search({ query: 'giver zzqqxx' })).nbHits).toBe(0);
    expect((await search({ query: 'giver zzqqxx', removeWordsIfNoResults: 'none' })).nbHits).toBe(0);
  });

  it('lastWords: drops words from the end', async () => {
    const response = await search({ query: 'giver zzqqxx', removeWordsIfNoResults: 'lastWords' });
    expect(response.nbHits).toBeGreaterThan(0);
    expect(response.hits[0].objectID).toBe(GIVER);
    // only as many words as needed: "giver taker" still has to match both
    const three = await search({ query: 'giver taker zzqqxx', removeWordsIfNoResults: 'lastWords' });
    const expected = await search({ query: 'giver taker zzqqxx', optionalWords: ['zzqqxx'] });
    expect(ids(three)).toEqual(ids(expected));
    expect(three.hits[0].objectID).toBe(GIVER);
  });

  it('lastWords / firstWords remove at most 5 words', async () => {
    const junk = (n: number) => Array.from({ length: n }, (_, i) => `zzq${'abcdefgh'[i]}x`);
    expect((await search({ query: ['giver', ...junk(5)].join(' '), removeWordsIfNoResults: 'lastWords' })).hits[0].objectID).toBe(GIVER);
    expect((await search({ query: ['giver', ...junk(6)].join(' '), removeWordsIfNoResults: 'lastWords' })).nbHits).toBe(0);
    expect((await search({ query: [...junk(5), 'giver'].join(' '), removeWordsIfNoResults: 'firstWords' })).hits[0].objectID).toBe(GIVER);
    expect((await search({ query: [...junk(6), 'giver'].join(' '), removeWordsIfNoResults: 'firstWords' })).nbHits).toBe(0);
  });

  it('lastWords does not drop the first word', async () => {
    expect((await search({ query: 'zzqqxx giver', removeWordsIfNoResults: 'lastWords' })).nbHits).toBe(0);
  });

  it('firstWords: drops words from the start', async () => {
    const response = await search({ query: 'zzqqxx giver', removeWordsIfNoResults: 'firstWords' });
    expect(response.nbHits).toBeGreaterThan(0);
    expect(response.hits[0].objectID).toBe(GIVER);
    const three = await search({ query: 'zzqqxx giver taker', removeWordsIfNoResults: 'firstWords' });
    const expected = await search({ query: 'zzqqxx giver taker', optionalWords: ['zzqqxx'] });
    expect(ids(three)).toEqual(ids(expected));
    expect((await search({ query: 'giver zzqqxx', removeWordsIfNoResults: 'firstWords' })).nbHits).toBe(0);
  });

  it('allOptional: every word becomes optional', async () => {
    for (const query of ['giver zzqqxx', 'zzqqxx giver', 'zzqqxx giver yyqqww']) {
      const response = await search({ query, removeWordsIfNoResults: 'allOptional' });
      expect(response.nbHits, query).toBeGreaterThan(0);
      expect(response.hits.map((h: any) => h.objectID)).toContain(GIVER);
    }
  });

  it('allOptional: proximity counts consecutive matched words (ranking, compatibility.md)', async () => {
    const query = await smallIndex('proximity_optional', { searchableAttributes: ['title'] }, [
      { objectID: 'party', title: 'block party and more' },
      { objectID: 'barbara', title: 'barbara block' },
    ]);
    const response = await query({ query: 'barbara and block', removeWordsIfNoResults: 'allOptional', getRankingInfo: true });
    expect(response.hits.map((h: any) => [h.objectID, h._rankingInfo.words, h._rankingInfo.proximityDistance]))
      .toEqual([['barbara', 2, 1], ['party', 2, 3]]);
  });

  it('before dropping a word, every word is tried with the typo its length refused', async () => {
    const query = await smallIndex('refused_typos', { searchableAttributes: ['name'] }, [
      { objectID: 'mountain', name: 'Mountain lodge' }, { objectID: 'cat', name: 'Cat cafe' }, { objectID: 'lodge', name: 'Lodge of the valley' },
    ]);
    const typos = async (params: Record<string, unknown>) => (await query({ ...params, getRankingInfo: true }))
      .hits.map((h: any) => [h.objectID, h._rankingInfo.nbTypos]);
    // "montian": two typos in 7 letters (one allowed); "cst": one typo in 3 letters (none allowed)
    for (const q of ['montian', 'cst']) expect(await typos({ query: q, queryType: 'prefixNone' }), q).toEqual([]);
    for (const strategy of ['allOptional', 'lastWords', 'firstWords']) {
      expect(await typos({ query: 'montian', queryType: 'prefixNone', removeWordsIfNoResults: strategy }), strategy).toEqual([['mountain', 2]]);
      expect(await typos({ query: 'cst', queryType: 'prefixNone', removeWordsIfNoResults: strategy }), strategy).toEqual([['cat', 1]]);
    }
    // every word still required at that step: the record with both words, not the one with "lodge" alone
    expect(await typos({ query: 'montian lodge', queryType: 'prefixNone', removeWordsIfNoResults: 'allOptional' })).toEqual([['mountain', 2]]);
    // words under 3 letters get no typo, and typoTolerance false none at all
    expect(await typos({ query: 'cx', queryType: 'prefixNone', removeWordsIfNoResults: 'allOptional' })).toEqual([]);
    expect(await typos({ query: 'montian', typoTolerance: false, removeWordsIfNoResults: 'allOptional' })).toEqual([]);
  });

  it('once relaxed, a stop word weighs less than a content word', async () => {
    const query = await smallIndex('relaxed_stop_words', { searchableAttributes: ['name', 'city'] }, [
      { objectID: 'pas', name: 'The Pas Airport', city: 'The Pas' },
      { objectID: 'coruna', name: 'A Coruna', city: 'La Coruna' },
      { objectID: 'skiathos', name: 'Alexandros Papadiamantis', city: 'Skiathos' },
    ]);
    const first = async (params: Record<string, unknown>) => ids(await query({ ...params, removeWordsIfNoResults: 'allOptional' }))[0];
    expect(await first({ query: 'skiathos the', removeStopWords: true })).toBe('skiathos'); // the last word is kept as a prefix
    expect(await first({ query: 'a skiathos' })).toBe('skiathos');
    expect(await first({ query: 'skiathos the', queryLanguages: ['en'] })).toBe('skiathos');
    // a word that is no stop word still counts as much as any
    expect(ids(await query({ query: 'coruna skiathos', removeWordsIfNoResults: 'allOptional' }))).toEqual(['coruna', 'skiathos']);
  });

  it('not used when the full query has results', async () => {
    const plain = await search({ query: 'giver taker' });
    for (const strategy of ['lastWords', 'firstWords', 'allOptional']) {
      expect(ids(await search({ query: 'giver taker', removeWordsIfNoResults: strategy }))).toEqual(ids(plain));
    }
  });

  it('an unknown value is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/query', { query: 'x', removeWordsIfNoResults: 'someWords' }), 400);
  });
});

describe('advancedSyntax', () => {
  it('"exact phrase" requires the words adjacent and in order', async () => {
    const phrase = await search({ query: '"giver or a taker"', advancedSyntax: true });
    expect(ids(phrase)).toEqual([GIVER]);
    expect((await search({ query: '"taker or a giver"', advancedSyntax: true })).nbHits).toBe(0);
    expect((await search({ query: '"giver taker"', advancedSyntax: true })).nbHits).toBe(0);
  });

  it('a phrase allows no typo and no prefix', async () => {
    expect((await search({ query: '"gvier or a taker"', advancedSyntax: true })).nbHits).toBe(0);
    expect((await search({ query: '"giver or a tak"', advancedSyntax: true })).nbHits).toBe(0);
  });

  it('a phrase combines with other words', async () => {
    const response = await search({ query: '"giver or a taker" adam', advancedSyntax: true });
    expect(ids(response)).toEqual([GIVER]);
  });

  it('without advancedSyntax quotes are ignored', async () => {
    expect(ids(await search({ query: '"giver taker"' }))).toContain(GIVER);
  });

  it('-word excludes the records containing the word', async () => {
    const design = await search({ query: 'design' });
    const excluded = await search({ query: 'design -architecture', advancedSyntax: true });
    expect(excluded.nbHits).toBeGreaterThan(0);
    expect(excluded.nbHits).toBeLessThan(design.nbHits);
    const got = new Set(ids(excluded));
    for (const hit of excluded.hits) expect(searchableTokens(hit)).not.toContain('architecture');
    // every whole-word design hit without any architect* word is kept
    const whole = await search({ query: 'design', queryType: 'prefixNone' });
    expect(whole.nbHits).toBeGreaterThan(excluded.nbHits / 2);
    for (const hit of whole.hits) {
      if (!searchableTokens(hit).some((t) => t.startsWith('architect'))) expect(got.has(hit.objectID), hit.objectID).toBe(true);
    }
    for (const id of got) expect(ids(design)).toContain(id);
  });

  it('without advancedSyntax "-word" is an ordinary word', async () => {
    const plain = await search({ query: 'design -architecture' });
    const both = await search({ query: 'design architecture' });
    expect(sorted(ids(plain))).toEqual(sorted(ids(both)));
  });

  it('advancedSyntaxFeatures restricts the features', async () => {
    const phraseOnly = await search({ query: 'design -architecture', advancedSyntax: true, advancedSyntaxFeatures: ['exactPhrase'] });
    expect(sorted(ids(phraseOnly))).toEqual(sorted(ids(await search({ query: 'design architecture' }))));
    const excludeOnly = await search({ query: '"giver taker"', advancedSyntax: true, advancedSyntaxFeatures: ['excludeWords'] });
    expect(ids(excludeOnly)).toContain(GIVER);
  });
});

describe('removeStopWords', () => {
  // The hits are those of the query without its stop words; a stop word next
  // to its word in a record ranks it higher (docs/DESIGN.md, "Stop words"), so
  // the order may differ from the query without them.
  it('true: stop words are left out of the query', async () => {
    const stripped = await search({ query: 'the of a giver', removeStopWords: true, hitsPerPage: 1000 });
    const plain = await search({ query: 'giver', hitsPerPage: 1000 });
    expect(sorted(ids(stripped))).toEqual(sorted(ids(plain)));
    expect(stripped.nbHits).toBe(plain.nbHits);
    expect(stripped.hits[0].objectID).toBe(GIVER);
    expect(stripped.parsedQuery).toBe('giver');
  });

  it('a language list', async () => {
    const listed = await search({ query: 'the of a giver', removeStopWords: ['en'], hitsPerPage: 1000 });
    expect(sorted(ids(listed))).toEqual(sorted(ids(await search({ query: 'giver', hitsPerPage: 1000 }))));
    expect(ids(listed)).toEqual(ids(await search({ query: 'the of a giver', removeStopWords: true, hitsPerPage: 1000 })));
  });

  const titles = [
    { objectID: 'best', title: 'The Best Caramel Apples' },
    { objectID: 'plain', title: 'Caramel Apples' },
    { objectID: 'far', title: 'Caramel Apples', note: 'with the kids' },
    { objectID: 'end', title: 'The End' },
    { objectID: 'nobake', title: 'No Bake Cookies' },
    { objectID: 'bake', title: 'Bake Cookies' },
  ];
  const titleIndex = () => smallIndex('stop_words_rank', { searchableAttributes: ['title', 'note'] }, titles);

  it('a stop word next to its word in a record ranks the record first', async () => {
    const query = await titleIndex();
    const ranked = async (q: string) => (await query({ query: q, removeStopWords: true, getRankingInfo: true }))
      .hits.map((h: any) => [h.objectID, h._rankingInfo.words, h._rankingInfo.proximityDistance, h._rankingInfo.nbExactWords]);
    // "the" two words before "caramel" (2); away from it or missing, it costs 8; words and exact leave it out
    expect(await ranked('the caramel apples')).toEqual([['best', 2, 3, 2], ['plain', 2, 9, 2], ['far', 2, 9, 2]]);
    expect((await ranked('no bake cookies')).map((row: unknown[]) => row[0])).toEqual(['nobake', 'bake']);
    // the hits stay those of the query without its stop words
    expect(sorted(ids(await query({ query: 'the caramel apples', removeStopWords: true }))))
      .toEqual(sorted(ids(await query({ query: 'caramel apples' }))));
  });

  it('a stop word is never required, never a hit on its own, never highlighted', async () => {
    const query = await titleIndex();
    const response = await query({ query: 'the caramel apples', removeStopWords: true });
    expect(response.parsedQuery).toBe('caramel apples');
    const plain = response.hits.find((h: any) => h.objectID === 'plain');
    expect(plain._highlightResult.title).toMatchObject({ matchLevel: 'full', matchedWords: ['caramel', 'apples'] });
    const best = response.hits.find((h: any) => h.objectID === 'best');
    expect(best._highlightResult.title.value).toBe('The Best <em>Caramel</em> <em>Apples</em>');
    // relaxed, the records that match only the stop word stay out
    const relaxed = await query({ query: 'the caramel zzqqxx', removeStopWords: true, removeWordsIfNoResults: 'allOptional' });
    expect(sorted(ids(relaxed))).toEqual(['best', 'far', 'plain']);
    // a query of stop words alone keeps them
    expect(ids(await query({ query: 'the end', removeStopWords: true, queryType: 'prefixNone' }))).toEqual(['end']);
  });

  it('no stop word is removed from a word read as a prefix (prefixAll, the last word of prefixLast)', async () => {
    const query = await titleIndex();
    expect(ids(await query({ query: 'the caramel', removeStopWords: true, queryType: 'prefixAll' }))).toEqual(['best', 'far']);
    expect(sorted(ids(await query({ query: 'the caramel', removeStopWords: true, queryType: 'prefixNone' })))).toEqual(['best', 'far', 'plain']);
    expect(sorted(ids(await query({ query: 'caramel the', removeStopWords: true })))).toEqual(['best', 'far']);
  });

  it('false (fixture default): stop words must match', async () => {
    const kept = await search({ query: 'the of a giver' });
    expect(ids(kept)).not.toContain(GIVER);
  });
});

describe('queryType', () => {
  const exact = { typoTolerance: false };

  it('prefixLast (default): only the last word is a prefix', async () => {
    expect(ids(await search({ query: 'giver tak', ...exact }))).toContain(GIVER);
    expect(ids(await search({ query: 'giv taker', ...exact }))).not.toContain(GIVER);
  });

  it('prefixAll: every word is a prefix', async () => {
    const response = await search({ query: 'giv tak', queryType: 'prefixAll', ...exact });
    expect(ids(response)).toContain(GIVER);
    expect(ids(await search({ query: 'giv tak', queryType: 'prefixLast', ...exact }))).not.toContain(GIVER);
  });

  it('prefixNone: whole words only', async () => {
    expect(ids(await search({ query: 'giv', queryType: 'prefixNone', ...exact }))).not.toContain(GIVER);
    expect(ids(await search({ query: 'giv', ...exact }))).toContain(GIVER);
    expect(ids(await search({ query: 'giver', queryType: 'prefixNone', ...exact }))).toContain(GIVER);
  });

  it('an unknown value is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/query', { query: 'x', queryType: 'prefixSome' }), 400);
  });
});

describe('typoTolerance', () => {
  it('a first-letter typo counts 2 in _rankingInfo.nbTypos and raises the allowance by one', async () => {
    const query = await smallIndex('first_letter_typos', { searchableAttributes: ['name'] }, [
      { objectID: 'michael', name: 'Michael' }, { objectID: 'mountain', name: 'mountain' }, { objectID: 'cat', name: 'cat' },
    ]);
    const typos = async (q: string) => (await query({ query: q, queryType: 'prefixNone', getRankingInfo: true }))
      .hits.map((h: any) => [h.objectID, h._rankingInfo.nbTypos]);
    expect(await typos('Tichael')).toEqual([['michael', 2]]); // 7 letters: one typo, first letter wrong
    expect(await typos('ichael')).toEqual([['michael', 2]]); // first letter dropped
    expect(await typos('Mihcael')).toEqual([['michael', 1]]);
    expect(await typos('Tihcael')).toEqual([]); // 7 letters: not the first letter and one more
    expect(await typos('fountbin')).toEqual([['mountain', 3]]); // 8 letters: first letter and one more
    expect(await typos('founbbin')).toEqual([]);
    expect(await typos('bat')).toEqual([]); // 3 letters: no typo at all
  });

  const typoCounts = (response: any) => {
    const counts: Record<number, number> = {};
    for (const hit of response.hits) counts[hit._rankingInfo.nbTypos] = (counts[hit._rankingInfo.nbTypos] ?? 0) + 1;
    return counts;
  };

  it('false / "false": no typo', async () => {
    expect((await search({ query: 'gvier' })).hits[0].objectID).toBe(GIVER);
    expect((await search({ query: 'gvier', typoTolerance: false })).nbHits).toBe(0);
    expect((await search({ query: 'gvier', typoTolerance: 'false' })).nbHits).toBe(0);
    expect((await search({ params: 'query=gvier&typoTolerance=false' })).nbHits).toBe(0);
  });

  it('min: only the hits with the fewest typos', async () => {
    const all = await search({ query: 'economy', getRankingInfo: true });
    const counts = typoCounts(all);
    expect(Object.keys(counts).length).toBeGreaterThan(2);
    const min = await search({ query: 'economy', typoTolerance: 'min', getRankingInfo: true });
    expect(min.nbHits).toBe(counts[0]);
    for (const hit of min.hits) expect(hit._rankingInfo.nbTypos).toBe(0);
    // with no exact match, the fewest typos are 1
    const typo = await search({ query: 'psycholgy', typoTolerance: 'min', getRankingInfo: true });
    expect(typo.nbHits).toBeGreaterThan(0);
    for (const hit of typo.hits) expect(hit._rankingInfo.nbTypos).toBe(1);
  });

  it('strict: the hits with the two smallest numbers of typos', async () => {
    const all = await search({ query: 'economy', getRankingInfo: true });
    const counts = typoCounts(all);
    const strict = await search({ query: 'economy', typoTolerance: 'strict', getRankingInfo: true });
    expect(strict.nbHits).toBe(counts[0] + counts[1]);
    for (const hit of strict.hits) expect(hit._rankingInfo.nbTypos).toBeLessThanOrEqual(1);
    expect(strict.nbHits).toBeLessThan(all.nbHits);
  });

  it('an unknown value is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/query', { query: 'x', typoTolerance: 'sometimes' }), 400);
  });

  it('min and strict put the typo criterion first, before a custom criterion ranked above it', async () => {
    const query = await smallIndex('typo_first', {
      searchableAttributes: ['name'], customRanking: ['desc(pop)'],
      ranking: ['custom', 'typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact'],
    }, [{ objectID: 'a', name: 'elephant', pop: 1 }, { objectID: 'b', name: 'elephbnt', pop: 5 }, { objectID: 'c', name: 'elepbbnt', pop: 9 }]);
    expect(ids(await query({ query: 'elephant' }))).toEqual(['c', 'b', 'a']);
    expect(ids(await query({ query: 'elephant', typoTolerance: 'strict' }))).toEqual(['a', 'b']);
    expect(ids(await query({ query: 'elephant', typoTolerance: 'min' }))).toEqual(['a']);
  });

  it('true, min and strict split a word in two and concatenate two; false does neither', async () => {
    const query = await smallIndex('split_concat', { searchableAttributes: ['name'] }, [
      { objectID: 'kj', name: 'Katherine Johnson' }, { objectID: 'ic', name: 'icecream' },
      { objectID: 'ia', name: 'ice age' }, { objectID: 'cc', name: 'cream cheese' },
    ]);
    for (const typoTolerance of [true, 'min', 'strict']) {
      expect(ids(await query({ query: 'katherinejohnson', typoTolerance })), String(typoTolerance)).toEqual(['kj']);
      expect(ids(await query({ query: 'ice cream', typoTolerance })), String(typoTolerance)).toEqual(['ic']);
    }
    expect(ids(await query({ query: 'katherinejohnson', typoTolerance: false }))).toEqual([]);
    expect(ids(await query({ query: 'ice cream', typoTolerance: false }))).toEqual([]);
    // disableTypoToleranceOnWords turns both off for its words
    expect(ids(await query({ query: 'ice cream', disableTypoToleranceOnWords: ['cream'] }))).toEqual([]);
  });

  it('splits a word of minWordSizefor1Typo+ characters, its first part up to 12 long, into two words', async () => {
    const query = await smallIndex('split_bounds', { searchableAttributes: ['name'] }, [
      { objectID: 'twelve', name: 'abcdefghijkl tail' }, { objectID: 'thirteen', name: 'abcdefghijklm tail' },
      { objectID: 'apart', name: 'tail of an abcdefghijkl' }, { objectID: 'ic', name: 'ice cream' },
    ]);
    // both words anywhere in the record, side by side first (proximity)
    expect(ids(await query({ query: 'abcdefghijkltail' }))).toEqual(['twelve', 'apart']);
    expect(ids(await query({ query: 'abcdefghijklmtail' }))).toEqual([]);
    expect(ids(await query({ query: 'icecream' }))).toEqual(['ic']);
    expect(ids(await query({ query: 'icecream', minWordSizefor1Typo: 9 }))).toEqual([]);
    // the split of the last word, matched whole: no prefix of its second part
    expect(ids(await query({ query: 'icecrea' }))).toEqual([]);
  });
});

describe('exactOnSingleWordQuery word', () => {
  it('counts the single word only with 3+ characters and when it is not a stop word', async () => {
    const query = await smallIndex('exact_single', { searchableAttributes: ['name'], exactOnSingleWordQuery: 'word' },
      ['ai', 'aide', 'the', 'there', 'cat', 'cats'].map((name) => ({ objectID: name, name })));
    const exact = async (q: string) => Object.fromEntries((await query({ query: q, getRankingInfo: true })).hits
      .map((h: any) => [h.objectID, h._rankingInfo.nbExactWords]));
    expect(await exact('cat')).toEqual({ cat: 1, cats: 0 });
    expect(await exact('ai')).toEqual({ ai: 0, aide: 0 });
    expect(await exact('the')).toEqual({ the: 0, there: 0 });
  });
});

describe('restrictSearchableAttributes', () => {
  it('matches only in the listed attributes', async () => {
    const speakers = await search({ query: 'robinson', restrictSearchableAttributes: ['speakers'], typoTolerance: false });
    const expected = talks.filter((t) => t.speakers.flatMap(tokens).some((w) => w.startsWith('robinson'))).map((t) => t.objectID);
    expect(expected.length).toBeGreaterThan(1);
    expect(sorted(ids(speakers))).toEqual(sorted(expected));
    const names = await search({ query: 'robinson', restrictSearchableAttributes: ['name'], typoTolerance: false });
    expect(sorted(ids(names))).toEqual(sorted(talks.filter((t) => tokens(t.name).some((w) => w.startsWith('robinson'))).map((t) => t.objectID)));
  });

  it('several attributes, as a comma string in a params string', async () => {
    const response = await search({ params: 'query=psychology&restrictSearchableAttributes=name,tags&typoTolerance=false' });
    const expected = talks.filter((t) => [...tokens(t.name), ...t.tags.flatMap(tokens)].some((w) => w.startsWith('psychology')));
    expect(sorted(ids(response))).toEqual(sorted(expected.map((t) => t.objectID)));
  });
});

describe('disableTypoToleranceOnAttributes / disableTypoToleranceOnWords', () => {
  it('no typo in the listed attributes', async () => {
    const robinsons = talks.filter((t) => t.speakers.some((s) => s.endsWith('Robinson'))).map((t) => t.objectID);
    const tolerant = await search({ query: 'robinsen' });
    expect(ids(tolerant)).toEqual(expect.arrayContaining(robinsons));
    const strict = await search({ query: 'robinsen', disableTypoToleranceOnAttributes: ['speakers'] });
    for (const id of robinsons) expect(ids(strict)).not.toContain(id);
  });

  it('no typo on the listed words, other words keep theirs', async () => {
    expect((await search({ query: 'gvier', disableTypoToleranceOnWords: ['gvier'] })).nbHits).toBe(0);
    expect(ids(await search({ query: 'gvier taker', disableTypoToleranceOnWords: ['taker'] }))).toContain(GIVER);
    expect((await search({ query: 'gvier taker', disableTypoToleranceOnWords: ['gvier'] })).nbHits).toBe(0);
  });
});

describe('responseFields', () => {
  it('only the listed top-level fields', async () => {
    const response = await search({ query: 'design', facets: ['tags'], responseFields: ['hits', 'nbHits'] });
    expect(response.hits.length).toBeGreaterThan(0);
    expect(typeof response.nbHits).toBe('number');
    for (const field of ['page', 'nbPages', 'hitsPerPage', 'params', 'query', 'processingTimeMS', 'facets', 'exhaustiveNbHits']) {
      expect(response, field).not.toHaveProperty(field);
    }
  });

  it('"*" (default) returns everything; a params string works too', async () => {
    const all = await search({ query: 'design', responseFields: ['*'] });
    for (const field of ['hits', 'nbHits', 'page', 'nbPages', 'hitsPerPage', 'params', 'query', 'processingTimeMS']) expect(all).toHaveProperty(field);
    const params = await search({ params: 'query=design&responseFields=nbHits,page' });
    expect(params).toHaveProperty('nbHits');
    expect(params).toHaveProperty('page');
    expect(params).not.toHaveProperty('hits');
  });

  it('applies to every result of a multi-query', async () => {
    const response = await send('POST', '/1/indexes/*/queries', {
      requests: [{ indexName: 'talks', query: 'design', responseFields: ['nbHits'] }],
    });
    expect(response.status).toBe(200);
    expect(response.body.results[0]).toHaveProperty('nbHits');
    expect(response.body.results[0]).not.toHaveProperty('hits');
  });
});

describe('attributesToRetrieve', () => {
  const record = () => talks.find((t) => t.objectID === GIVER)!;
  const retrieved = (hit: any) => {
    const { _highlightResult, _snippetResult, _rankingInfo, ...rest } = hit;
    return rest;
  };

  it('a list: those attributes and objectID', async () => {
    const [hit] = (await search({ query: 'gvier', attributesToRetrieve: ['name', 'speakers'] })).hits;
    expect(retrieved(hit)).toEqual({ objectID: GIVER, name: record().name, speakers: record().speakers });
  });

  it('"*" with -attr: everything but the excluded attributes', async () => {
    const [hit] = (await search({ query: 'gvier', attributesToRetrieve: ['*', '-description', '-tags'] })).hits;
    const { description, tags, ...expected } = record();
    expect(retrieved(hit)).toEqual(expected);
  });

  it('objectID cannot be excluded', async () => {
    const [hit] = (await search({ query: 'gvier', attributesToRetrieve: ['*', '-objectID'] })).hits;
    expect(hit.objectID).toBe(GIVER);
  });

  it('in a params string, and under the old name "attributes"', async () => {
    const [fromString] = (await search({ params: `query=gvier&attributesToRetrieve=${encodeURIComponent('["*","-description"]')}` })).hits;
    expect(fromString).not.toHaveProperty('description');
    expect(fromString.name).toBe(record().name);
    const [old] = (await search({ query: 'gvier', attributes: ['name'] })).hits;
    expect(retrieved(old)).toEqual({ objectID: GIVER, name: record().name });
  });
});
