// Highlighting and snippeting (attributes, tags, match levels, nested objects
// and arrays, restrictHighlightAndSnippetArrays, prefixes and typos) and
// distinct (attributeForDistinct: speakers on TED; true, N, false).
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, ids, indexTalks, openEngine, searcher, sorted, type Send, type Talk } from './helpers.js';

let send: Send;
let talks: Talk[];
let waitForTasks: () => Promise<unknown>;

const GIVER = '2652'; // "Are you a giver or a taker?" by Adam Grant
const BOOKS = [
  {
    objectID: 'b1', title: 'The Giver of Stars',
    author: { name: 'Jojo Moyes', bio: 'British journalist and novelist', born: 1969 },
    chapters: ['Stars above Kentucky', 'The library', 'Horses in the mountains'],
    reviews: [{ text: 'a moving novel about stars and courage', stars: 5 }, { text: 'slow beginning' }],
    summary: 'In the depths of the Great Depression a young woman joins a team of librarians who deliver books on horseback across the Kentucky mountains and under the stars',
  },
  {
    objectID: 'b2', title: 'Giver', author: { name: 'Lois Lowry', bio: 'American writer' }, chapters: ['One', 'Two'], reviews: [],
    summary: 'A boy receives memories of the past',
  },
];

beforeAll(async () => {
  const opened = await openEngine();
  send = opened.send;
  waitForTasks = () => opened.engine.waitForTasks();
  talks = await indexTalks(opened.engine);
  const client = opened.engine.client();
  await client.setSettings({
    indexName: 'books',
    indexSettings: { searchableAttributes: ['title', 'author.name', 'author.bio', 'chapters', 'reviews.text', 'summary'] },
  });
  await client.saveObjects({ indexName: 'books', objects: BOOKS });
  await opened.engine.waitForTasks();
});

const search = (params: Record<string, unknown>, index?: string) => searcher(send, 'talks')(params, index);

async function hitOf(objectID: string, params: Record<string, unknown>, index = 'talks') {
  const response = await search({ hitsPerPage: 100, ...params }, index);
  const hit = response.hits.find((h: any) => h.objectID === objectID);
  expect(hit, `${objectID} among the hits`).toBeDefined();
  return hit;
}

const strip = (s: string, pre = '<em>', post = '</em>') => s.split(pre).join('').split(post).join('');
const words = (s: string) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));

describe('highlighting', () => {
  it('matchLevel full with every query word, matchedWords, fullyHighlighted', async () => {
    const hit = await hitOf(GIVER, { query: 'giver taker' });
    expect(hit._highlightResult.name).toEqual({
      value: 'Are you a <em>giver</em> or a <em>taker</em>?', matchLevel: 'full', matchedWords: ['giver', 'taker'], fullyHighlighted: false,
    });
  });

  it('matchLevel partial when some query words match; none with no match', async () => {
    const hit = await hitOf(GIVER, { query: 'adam giver' });
    expect(hit._highlightResult.name).toMatchObject({ matchLevel: 'partial', matchedWords: ['giver'] });
    expect(hit._highlightResult.speakers[0]).toMatchObject({ value: '<em>Adam</em> Grant', matchLevel: 'partial', matchedWords: ['adam'] });
    expect(hit._highlightResult.event_name).toEqual({ value: 'TED@IBM', matchLevel: 'none', matchedWords: [] });
  });

  it('fullyHighlighted when the whole value is matched', async () => {
    const hit = await hitOf(GIVER, { query: 'adam grant' });
    expect(hit._highlightResult.speakers[0]).toMatchObject({ value: '<em>Adam</em> <em>Grant</em>', matchLevel: 'full', fullyHighlighted: true });
    const giver = await hitOf('b2', { query: 'giver' }, 'books');
    expect(giver._highlightResult.title).toEqual({ value: '<em>Giver</em>', matchLevel: 'full', matchedWords: ['giver'], fullyHighlighted: true });
  });

  it('a prefix highlights what was typed: "giv" → <em>giv</em>er', async () => {
    const hit = await hitOf(GIVER, { query: 'giv', attributesToHighlight: ['name'] });
    expect(hit._highlightResult.name).toMatchObject({ value: 'Are you a <em>giv</em>er or a taker?', matchLevel: 'full', matchedWords: ['giv'] });
  });

  it('a typo highlights the whole matched word', async () => {
    const hit = await hitOf(GIVER, { query: 'gvier' });
    expect(hit._highlightResult.name).toMatchObject({ value: 'Are you a <em>giver</em> or a taker?', matchedWords: ['gvier'] });
  });

  it('highlightPreTag / highlightPostTag, as fields or in a params string', async () => {
    const fields = await hitOf(GIVER, { query: 'giver', highlightPreTag: '<mark class="x">', highlightPostTag: '</mark>' });
    expect(fields._highlightResult.name.value).toBe('Are you a <mark class="x">giver</mark> or a taker?');
    const params = await hitOf(GIVER, { params: 'query=giver&highlightPreTag=%5B&highlightPostTag=%5D' });
    expect(params._highlightResult.name.value).toBe('Are you a [giver] or a taker?');
    expect(JSON.stringify(params._highlightResult)).not.toContain('<em>');
  });

  it('words only in attributes that are not searchable are highlighted too', async () => {
    // "zebras" is in no searchable text, so not a term of the index: the core must still try the query words on it
    const { engine } = await openEngine();
    const client = engine.client();
    await client.setSettings({ indexName: 'zoo', indexSettings: { searchableAttributes: ['title', 'meta.kind'] } });
    await client.saveObjects({ indexName: 'zoo', objects: [{ objectID: 'z', title: 'zebra crossing', notes: 'zebras everywhere', meta: { kind: 'zebra', note: 'zebras again' } }] });
    await engine.waitForTasks();
    const { hits } = await client.searchSingleIndex({ indexName: 'zoo', searchParams: { query: 'zebra', attributesToHighlight: ['title', 'notes', 'meta'] } });
    const highlighted = hits[0]._highlightResult as Record<string, any>;
    expect(highlighted.title.value).toBe('<em>zebra</em> crossing');
    expect(highlighted.notes).toMatchObject({ value: '<em>zebra</em>s everywhere', matchLevel: 'full' });
    expect(highlighted.meta.kind.value).toBe('<em>zebra</em>');
    expect(highlighted.meta.note).toMatchObject({ value: '<em>zebra</em>s again', matchLevel: 'full' });
  });

  it('a virtual replica highlights by what its primary indexed, not by its own searchableAttributes', async () => {
    // the replica searches its primary's core, where "notes" is not indexed: "zebras" is no term of it
    const { engine } = await openEngine();
    const client = engine.client();
    await client.setSettings({ indexName: 'zoo', indexSettings: { searchableAttributes: ['title'], replicas: ['virtual(zoo_v)'] } });
    await engine.waitForTasks();
    await client.setSettings({ indexName: 'zoo_v', indexSettings: { searchableAttributes: ['title', 'notes'] } });
    await client.saveObjects({ indexName: 'zoo', objects: [{ objectID: 'z', title: 'zebra crossing', notes: 'zebras everywhere' }] });
    await engine.waitForTasks();
    const { hits } = await client.searchSingleIndex({ indexName: 'zoo_v', searchParams: { query: 'zebra' } });
    const highlighted = hits[0]._highlightResult as Record<string, any>;
    expect(highlighted.notes).toMatchObject({ value: '<em>zebra</em>s everywhere', matchLevel: 'full' });
  });

  it('by default the searchable attributes are highlighted, as the settings say after each change', async () => {
    const { engine } = await openEngine();
    const client = engine.client();
    const highlightedAttributes = async () => {
      const { hits } = await client.searchSingleIndex({ indexName: 'shelf', searchParams: { query: 'moss' } });
      return Object.keys(hits[0]._highlightResult ?? {}).sort();
    };
    await client.saveObjects({ indexName: 'shelf', objects: [{ objectID: 'm', title: 'moss garden', notes: 'moss on stones', year: 2001 }] });
    await client.setSettings({ indexName: 'shelf', indexSettings: { searchableAttributes: ['title'] } });
    await engine.waitForTasks();
    expect(await highlightedAttributes()).toEqual(['title']);
    await client.setSettings({ indexName: 'shelf', indexSettings: { searchableAttributes: ['title', 'notes'] } });
    await engine.waitForTasks();
    expect(await highlightedAttributes()).toEqual(['notes', 'title']);
    await client.setSettings({ indexName: 'shelf', indexSettings: { searchableAttributes: [] } });
    await engine.waitForTasks();
    expect(await highlightedAttributes()).toEqual(['notes', 'title', 'year']);
  });

  it('attributesToHighlight: a list, *, or nothing', async () => {
    const listed = await hitOf(GIVER, { query: 'giver', attributesToHighlight: ['name', 'description'] });
    expect(Object.keys(listed._highlightResult).sort()).toEqual(['description', 'name']);
    expect(listed._highlightResult.description.value).toContain('<em>giver</em>s');
    const star = await hitOf(GIVER, { query: 'giver', attributesToHighlight: ['*'] });
    expect(Object.keys(star._highlightResult)).toEqual(expect.arrayContaining(['name', 'description', 'speakers', 'tags', 'slug']));
    const none = await hitOf(GIVER, { query: 'giver', attributesToHighlight: [] });
    expect(Object.keys(none._highlightResult ?? {})).toEqual([]);
  });

  it('every leaf of the highlight is the original value with markup added', async () => {
    const response = await search({ query: 'design thinking', hitsPerPage: 20 });
    const byId = new Map(talks.map((t) => [t.objectID, t]));
    for (const hit of response.hits) {
      const talk = byId.get(hit.objectID)!;
      expect(strip(hit._highlightResult.name.value)).toBe(talk.name);
      expect(hit._highlightResult.tags.map((t: any) => strip(t.value))).toEqual(talk.tags);
      for (const leaf of [hit._highlightResult.name, ...hit._highlightResult.tags]) {
        expect(['none', 'partial', 'full']).toContain(leaf.matchLevel);
        expect(leaf.matchLevel === 'none').toBe(!leaf.value.includes('<em>'));
      }
    }
  });
});

describe('nested objects and arrays are mirrored', () => {
  it('objects stay objects, arrays stay arrays, arrays of objects too', async () => {
    const hit = await hitOf('b1', { query: 'stars novel' }, 'books');
    const h = hit._highlightResult;
    expect(h.title).toMatchObject({ value: 'The Giver of <em>Stars</em>', matchLevel: 'partial', matchedWords: ['stars'] });
    expect(h.author.name).toEqual({ value: 'Jojo Moyes', matchLevel: 'none', matchedWords: [] });
    expect(h.author.bio).toMatchObject({ value: 'British journalist and <em>novel</em>ist', matchLevel: 'partial', matchedWords: ['novel'] });
    expect(Array.isArray(h.chapters)).toBe(true);
    expect(h.chapters.length).toBe(3);
    expect(h.chapters[0]).toMatchObject({ value: '<em>Stars</em> above Kentucky', matchLevel: 'partial' });
    expect(h.chapters[1]).toEqual({ value: 'The library', matchLevel: 'none', matchedWords: [] });
    expect(Array.isArray(h.reviews)).toBe(true);
    expect(h.reviews[0].text).toMatchObject({ value: 'a moving <em>novel</em> about <em>stars</em> and courage', matchLevel: 'full' });
    expect(sorted(h.reviews[0].text.matchedWords)).toEqual(['novel', 'stars']);
  });

  it('snippets mirror the record the same way', async () => {
    const hit = await hitOf('b1', { query: 'stars', attributesToSnippet: ['chapters:2', 'reviews:3', 'author:2'] }, 'books');
    const s = hit._snippetResult;
    expect(Array.isArray(s.chapters)).toBe(true);
    expect(s.chapters.length).toBe(3);
    expect(s.chapters[0].matchLevel).toBe('full');
    expect(s.chapters[0].value).toContain('<em>Stars</em>');
    expect(s.chapters[1]).toMatchObject({ matchLevel: 'none' });
    expect(Array.isArray(s.reviews)).toBe(true);
    expect(s.reviews[0].text.value).toContain('<em>stars</em>');
    expect(typeof s.author).toBe('object');
    expect(s.author.name).toMatchObject({ matchLevel: 'none' });
  });
});

describe('restrictHighlightAndSnippetArrays', () => {
  it('false (default): every array element is kept', async () => {
    const hit = await hitOf(GIVER, { query: 'psychology', attributesToHighlight: ['tags'] });
    expect(hit._highlightResult.tags.length).toBe(hit.tags.length);
  });

  it('true: only the matching array elements are highlighted and snippeted', async () => {
    const hit = await hitOf(GIVER, {
      query: 'psychology', attributesToHighlight: ['tags', 'speakers'], attributesToSnippet: ['tags:2'], restrictHighlightAndSnippetArrays: true,
    });
    expect(hit._highlightResult.tags).toEqual([{ value: '<em>psychology</em>', matchLevel: 'full', matchedWords: ['psychology'], fullyHighlighted: true }]);
    expect(hit._highlightResult.speakers).toEqual([]);
    expect(hit._snippetResult.tags).toEqual([{ value: '<em>psychology</em>', matchLevel: 'full' }]);
  });

  it('true: several matching elements are all kept, in record order', async () => {
    const hit = await hitOf('b1', { query: 'stars', attributesToHighlight: ['chapters', 'reviews'], restrictHighlightAndSnippetArrays: true }, 'books');
    expect(hit._highlightResult.chapters.map((c: any) => strip(c.value))).toEqual(['Stars above Kentucky']);
  });
});

describe('snippets', () => {
  // the description is not searchable, but its words matching the query are marked
  it('attr:N keeps N words around the match', async () => {
    const hit = await hitOf(GIVER, { query: 'giver', attributesToSnippet: ['description:4'] });
    const snippet = hit._snippetResult.description;
    expect(snippet.matchLevel).toBe('full');
    expect(snippet.value).toContain('<em>giver');
    expect(words(strip(snippet.value)).length).toBe(4);
  });

  it('without :N, 10 words', async () => {
    const hit = await hitOf(GIVER, { query: 'giver', attributesToSnippet: ['description'] });
    expect(words(strip(hit._snippetResult.description.value)).length).toBe(10);
    expect(hit._snippetResult.description.value).toContain('<em>giver');
  });

  it('snippetEllipsisText marks cut text (default "…"; the fixture sets "")', async () => {
    const fixture = await hitOf(GIVER, { query: 'giver', attributesToSnippet: ['description:4'] });
    expect(fixture._snippetResult.description.value).not.toContain('…');
    const custom = await hitOf(GIVER, { query: 'giver', attributesToSnippet: ['description:4'], snippetEllipsisText: '[...]' });
    expect(custom._snippetResult.description.value.startsWith('[...]')).toBe(true);
    expect(custom._snippetResult.description.value.endsWith('[...]')).toBe(true);
    const books = await hitOf('b1', { query: 'librarians', attributesToSnippet: ['summary:3'] }, 'books');
    expect(books._snippetResult.summary.value.startsWith('…')).toBe(true);
    expect(books._snippetResult.summary.value.endsWith('…')).toBe(true);
    expect(books._snippetResult.summary.value).toContain('<em>librarians</em>');
  });

  it('an attribute without a match is snippeted from its start, matchLevel none', async () => {
    const hit = await hitOf('b1', { query: 'librarians', attributesToSnippet: ['title:2'] }, 'books');
    const value = hit._snippetResult.title.value;
    expect(hit._snippetResult.title.matchLevel).toBe('none');
    expect(strip(value).replace(/…/g, '').trim()).toBe('The Giver');
  });

  it('a short attribute is kept whole, without ellipsis', async () => {
    const hit = await hitOf('b2', { query: 'giver', attributesToSnippet: ['title:5'] }, 'books');
    expect(hit._snippetResult.title).toEqual({ value: '<em>Giver</em>', matchLevel: 'full' });
  });

  it('the fixture setting attributesToSnippet speakers:15 applies by default', async () => {
    const hit = await hitOf(GIVER, { query: 'adam' });
    expect(hit._snippetResult.speakers).toEqual([{ value: '<em>Adam</em> Grant', matchLevel: 'full' }]);
  });

  it('the snippeted attributes follow the setting after each change; a parameter holds for its search only', async () => {
    const { engine } = await openEngine();
    const client = engine.client();
    const snippeted = async (searchParams: Record<string, unknown> = {}) => {
      const { hits } = await client.searchSingleIndex({ indexName: 'shelf', searchParams: { query: 'moss', ...searchParams } });
      return Object.keys(hits[0]._snippetResult ?? {}).sort();
    };
    await client.saveObjects({ indexName: 'shelf', objects: [{ objectID: 'm', title: 'moss garden', notes: 'moss on stones' }] });
    await client.setSettings({ indexName: 'shelf', indexSettings: { attributesToSnippet: ['title:2'] } });
    await engine.waitForTasks();
    expect(await snippeted()).toEqual(['title']);
    expect(await snippeted({ attributesToSnippet: ['notes'] })).toEqual(['notes']);
    expect(await snippeted()).toEqual(['title']);
    await client.setSettings({ indexName: 'shelf', indexSettings: { attributesToSnippet: ['title', 'notes:1'] } });
    await engine.waitForTasks();
    expect(await snippeted()).toEqual(['notes', 'title']);
  });

  it('snippet tags follow highlightPreTag / highlightPostTag', async () => {
    const hit = await hitOf(GIVER, { query: 'giver', attributesToSnippet: ['description:4'], highlightPreTag: '<b>', highlightPostTag: '</b>' });
    expect(hit._snippetResult.description.value).toContain('<b>giver');
    expect(hit._snippetResult.description.value).not.toContain('<em>');
  });
});

describe('distinct (attributeForDistinct: speakers)', () => {
  // six speakers with several talks each, every one of them given alone
  const SPEAKERS = ['Juan Enriquez', 'Marco Tempest', 'Dan Ariely', 'Clay Shirky', 'Julian Treasure', 'Jacqueline Novogratz'];
  const filters = SPEAKERS.map((s) => `speakers:"${s}"`).join(' OR ');
  const subset = () => talks.filter((t) => t.speakers.some((s) => SPEAKERS.includes(s)));
  const groups = () => {
    const out = new Map<string, Talk[]>();
    for (const t of subset()) out.set(t.speakers[0], [...(out.get(t.speakers[0]) ?? []), t]);
    for (const list of out.values()) list.sort((a, b) => b.date - a.date);
    return out;
  };

  it('the subset is what the tests assume', () => {
    expect(subset().every((t) => t.speakers.length === 1)).toBe(true);
    expect(groups().size).toBe(6);
    expect([...groups().values()].every((g) => g.length >= 3)).toBe(true);
  });

  it('distinct true / 1: one hit per speaker, the best ranked (newest) talk; nbHits counts groups', async () => {
    const expected = [...groups().values()].map((g) => g[0]).sort((a, b) => b.date - a.date).map((t) => t.objectID);
    for (const distinct of [true, 1, 'true']) {
      const response = await search({ filters, distinct, hitsPerPage: 100 });
      expect(ids(response)).toEqual(expected);
      expect(response.nbHits).toBe(6);
    }
  });

  it('the fixture setting (distinct: true) applies by default', async () => {
    const response = await search({ filters, hitsPerPage: 100 });
    expect(response.nbHits).toBe(6);
    expect(new Set(response.hits.map((h: Talk) => h.speakers[0])).size).toBe(6);
  });

  it('distinct false / 0: every talk', async () => {
    for (const distinct of [false, 0]) {
      const response = await search({ filters, distinct, hitsPerPage: 100 });
      expect(response.nbHits).toBe(subset().length);
      expect(sorted(ids(response))).toEqual(sorted(subset().map((t) => t.objectID)));
    }
  });

  it('distinct 2: the two best talks of each speaker; nbHits still counts groups', async () => {
    const response = await search({ filters, distinct: 2, hitsPerPage: 100 });
    const expected = [...groups().values()].flatMap((g) => g.slice(0, 2).map((t) => t.objectID));
    expect(sorted(ids(response))).toEqual(sorted(expected));
    expect(response.nbHits).toBe(6);
    const perSpeaker = new Map<string, number>();
    for (const hit of response.hits) perSpeaker.set(hit.speakers[0], (perSpeaker.get(hit.speakers[0]) ?? 0) + 1);
    expect([...perSpeaker.values()]).toEqual([2, 2, 2, 2, 2, 2]);
  });

  it('distinct 3 in a params string', async () => {
    const response = await search({ params: `filters=${encodeURIComponent(filters)}&distinct=3&hitsPerPage=100` });
    const expected = [...groups().values()].flatMap((g) => g.slice(0, 3).map((t) => t.objectID));
    expect(sorted(ids(response))).toEqual(sorted(expected));
  });

  it('distinct > 1 paginates by groups: hitsPerPage groups per page', async () => {
    const pages = [];
    for (let page = 0; page < 3; page++) pages.push(await search({ filters, distinct: 2, hitsPerPage: 4, page }));
    expect(pages[0].nbPages).toBe(2);
    const groupsOn = (r: any) => new Set(r.hits.map((h: Talk) => h.speakers[0]));
    expect(groupsOn(pages[0]).size).toBe(4);
    expect(pages[0].hits.length).toBe(8);
    expect(groupsOn(pages[1]).size).toBe(2);
    expect(pages[1].hits.length).toBe(4);
    expect(pages[2].hits).toEqual([]);
    const all = [...pages[0].hits, ...pages[1].hits].map((h: Talk) => h.objectID);
    expect(new Set(all).size).toBe(12);
  });

  it('distinct 1 paginates over groups', async () => {
    const one = await search({ filters, distinct: 1, hitsPerPage: 100 });
    const stitched: string[] = [];
    for (let page = 0; page < 3; page++) stitched.push(...ids(await search({ filters, distinct: 1, hitsPerPage: 2, page })));
    expect(stitched).toEqual(ids(one));
  });

  it('on a text query no two hits share their speakers', async () => {
    for (const query of ['design', 'future', 'brain']) {
      const response = await search({ query, hitsPerPage: 200 });
      const keys = response.hits.map((h: Talk) => JSON.stringify(h.speakers));
      expect(new Set(keys).size).toBe(keys.length);
      const single = response.hits.filter((h: Talk) => h.speakers.length === 1).map((h: Talk) => h.speakers[0]);
      expect(new Set(single).size).toBe(single.length);
      const all = await search({ query, distinct: false, hitsPerPage: 0 });
      expect(response.nbHits).toBeLessThan(all.nbHits);
    }
  });

  it('the page\'s groups are those the whole ranking meets first, however far the page reaches', async () => {
    // 3,000 records in 700 groups; groups of many records come first, so a page reaches far past its hits
    const WORDS = ['amber', 'birch', 'cedar', 'delta'];
    const records = Array.from({ length: 3_000 }, (_, i) => ({
      objectID: `r${i}`, title: `${WORDS[i % 4]} ${WORDS[(i >> 2) % 4]}`, group: `g${i < 1_000 ? i % 20 : i % 700}`, score: (i * 7919) % 3_001,
    }));
    await send('PUT', '/1/indexes/grouped/settings', {
      searchableAttributes: ['title'], customRanking: ['desc(score)'], attributeForDistinct: 'group', paginationLimitedTo: 5_000,
    });
    await send('POST', '/1/indexes/grouped/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
    await waitForTasks();
    const groupOf = new Map(records.map((r) => [r.objectID, r.group]));
    for (const query of ['', 'amber', 'cedar delta']) {
      const whole: string[] = [];
      for (let page = 0; page < 3; page++) whole.push(...ids(await search({ query, distinct: false, hitsPerPage: 1_000, page }, 'grouped')));
      for (const distinct of [1, 2]) {
        for (const hitsPerPage of [3, 25]) {
          for (const page of [0, 1, 4]) {
            // the reference: the whole ranking's records, each group's first `distinct`, the page's groups by first appearance
            const taken = new Map<string, number>();
            const order: string[] = [];
            const kept = whole.filter((id) => {
              const group = groupOf.get(id)!;
              if (!taken.has(group)) order.push(group);
              taken.set(group, (taken.get(group) ?? 0) + 1);
              return taken.get(group)! <= distinct;
            });
            const onPage = new Set(order.slice(page * hitsPerPage, (page + 1) * hitsPerPage));
            const response = await search({ query, distinct, hitsPerPage, page }, 'grouped');
            expect(sorted(ids(response)), `${JSON.stringify(query)} distinct ${distinct}, ${hitsPerPage} a page, page ${page}`)
              .toEqual(sorted(kept.filter((id) => onPage.has(groupOf.get(id)!))));
            expect(response.nbHits).toBe(order.length);
          }
        }
      }
    }
  });

  it('ignored without attributeForDistinct', async () => {
    const response = await search({ query: 'giver', distinct: true }, 'books');
    expect(response.nbHits).toBe(2);
  });

  it('a value above 4 is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/query', { query: 'design', distinct: 5 }), 400);
  });

  it('numeric values group rounded and compared as strings; booleans and null make no group', async () => {
    const values: Array<[string, unknown]> = [
      ['a', 1], ['b', 1.4], ['c', '1'], ['d', 2.6], ['e', '3'], ['f', true], ['g', true], ['h', null], ['i', null],
    ];
    const indexName = 'distinct_values';
    expect((await send('PUT', `/1/indexes/${indexName}/settings`, { attributeForDistinct: 'group', distinct: true })).status).toBe(200);
    await send('POST', `/1/indexes/${indexName}/batch`, {
      requests: values.map(([objectID, group], rank) => ({ action: 'addObject', body: { objectID, group, rank } })),
    });
    await waitForTasks();
    const response = await search({ hitsPerPage: 100 }, indexName);
    const kept = sorted(ids(response));
    // one of a/b/c (1), one of d/e (3), and f, g, h, i on their own
    expect(kept.filter((id) => 'abc'.includes(id))).toHaveLength(1);
    expect(kept.filter((id) => 'de'.includes(id))).toHaveLength(1);
    expect(kept.filter((id) => 'fghi'.includes(id))).toEqual(['f', 'g', 'h', 'i']);
    expect(response.nbHits).toBe(6);
  });

  it('groups follow each write searched after it: a value changed, a record deleted, a record added', async () => {
    const indexName = 'distinct_writes';
    expect((await send('PUT', `/1/indexes/${indexName}/settings`, { attributeForDistinct: 'group', distinct: true, customRanking: ['asc(rank)'] })).status).toBe(200);
    const write = async (method: string, path: string, body?: unknown) => {
      expect((await send(method, `/1/indexes/${indexName}${path}`, body)).status).toBeLessThan(300);
      await waitForTasks();
      return search({ hitsPerPage: 100 }, indexName);
    };
    await write('POST', '/batch', { requests: ['a', 'b', 'c', 'd'].map((objectID, rank) => ({ action: 'addObject', body: { objectID, group: rank < 2 ? 'x' : 'y', rank } })) });
    expect(ids(await search({ hitsPerPage: 100 }, indexName))).toEqual(['a', 'c']);
    // b leaves x for a group of its own
    expect(ids(await write('POST', '/b/partial', { group: 'z' }))).toEqual(['a', 'b', 'c']);
    // a deleted: x is empty, b and c still lead theirs
    expect(ids(await write('DELETE', '/a'))).toEqual(['b', 'c']);
    // d replaced without a value: a group of its own
    expect(ids(await write('PUT', '/d', { group: null, rank: 3 }))).toEqual(['b', 'c', 'd']);
    // e joins y ahead of c
    const response = await write('PUT', '/e', { group: 'y', rank: -1 });
    expect(ids(response)).toEqual(['e', 'b', 'd']);
    expect(response.nbHits).toBe(3);
    // settings that rebuild the index give its records new ids: the groups follow them
    expect(ids(await write('PUT', '/settings', { searchableAttributes: ['group'] }))).toEqual(['e', 'b', 'd']);
    expect(ids(await write('POST', '/c/partial', { group: 'z' }))).toEqual(['e', 'b', 'd']);
  });
});
