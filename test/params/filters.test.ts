// Filtering: the `filters` string, facetFilters / numericFilters / tagFilters
// in their string and array forms, their conjunction, invalid expressions,
// and scored filters (optionalFilters, <score=N>, sumOrFiltersScores).
// Counts are checked against a plain JS computation over the fixture.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, ids, indexTalks, openEngine, sorted, type Send, type Talk } from './helpers.js';

let send: Send;
let talks: Talk[];
let engine: Awaited<ReturnType<typeof openEngine>>['engine'];

const PRODUCTS = [
  { objectID: 'p1', name: 'red shirt', brand: 'Acme', inStock: true, price: 10, specs: { color: 'red', size: 'M', weight: 1.5 }, sellers: [{ name: 'Bob' }, { name: 'Ann' }], label: '-sale', _tags: ['new', 'cotton'] },
  { objectID: 'p2', name: 'blue shirt', brand: 'Acme', inStock: false, price: 20, specs: { color: 'blue', size: 'L', weight: 2 }, sellers: [{ name: 'Ann' }], label: 'sale', _tags: ['cotton'] },
  { objectID: 'p3', name: 'green hat', brand: 'Hats & Co', inStock: true, price: 30.5, specs: { color: 'green', size: 'S', weight: 0.2 }, sellers: [], label: 'regular', _tags: ['-promo'] },
  { objectID: 'p4', name: 'red hat', brand: 'Globex', price: -5, specs: { color: 'Red', size: 'XL' }, _tags: ['new'] },
  { objectID: 'p5', name: 'plain socks', brand: 'AND', inStock: false, price: 3, specs: { color: 'white', size: 'M', weight: 0.1 }, label: 'NOT', _tags: [] },
];

beforeAll(async () => {
  const opened = await openEngine();
  send = opened.send;
  engine = opened.engine;
  talks = await indexTalks(opened.engine);
  const client = opened.engine.client();
  await client.setSettings({
    indexName: 'products',
    indexSettings: {
      searchableAttributes: ['name', 'brand'],
      attributesForFaceting: ['brand', 'inStock', 'specs.color', 'specs.size', 'sellers.name', 'label', 'price'],
    },
  });
  await client.saveObjects({ indexName: 'products', objects: PRODUCTS });
  await opened.engine.waitForTasks();
});

/** nbHits without distinct (the fixture's distinct setting would count speakers). */
async function count(params: Record<string, unknown>, index = 'talks'): Promise<number> {
  const response = await send('POST', `/1/indexes/${index}/query`, { distinct: false, hitsPerPage: 0, ...params });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.nbHits;
}

/** Every matching objectID (sorted); only for result sets below 1000. */
async function matching(params: Record<string, unknown>, index = 'talks'): Promise<string[]> {
  const response = await send('POST', `/1/indexes/${index}/query`, {
    distinct: false, hitsPerPage: 1000, attributesToRetrieve: ['objectID'], attributesToHighlight: [], ...params,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.nbHits).toBeLessThan(1000);
  return sorted(ids(response.body));
}

const where = (predicate: (t: Talk) => boolean) => talks.filter(predicate);
const idsWhere = (predicate: (t: Talk) => boolean) => sorted(where(predicate).map((t) => t.objectID));
const hasTag = (t: Talk, tag: string) => t.tags.some((x) => x.toLowerCase() === tag.toLowerCase());
const productIds = (predicate: (p: any) => boolean) => sorted(PRODUCTS.filter(predicate).map((p) => p.objectID));

describe('filters: facets', () => {
  it('tags:business matches exactly the talks tagged business', async () => {
    const expected = idsWhere((t) => hasTag(t, 'business'));
    expect(expected.length).toBe(333);
    expect(await matching({ filters: 'tags:business' })).toEqual(expected);
  });

  it('values are case-insensitive, attribute names case-sensitive', async () => {
    expect(await count({ filters: 'tags:BUSINESS' })).toBe(333);
    expect(await count({ filters: 'tags:Business' })).toBe(333);
    expect(await count({ filters: 'Tags:business' })).toBe(0);
  });

  it('quoted values with spaces (double and single quotes)', async () => {
    const growth = idsWhere((t) => hasTag(t, 'personal growth'));
    expect(growth.length).toBeGreaterThan(0);
    expect(await matching({ filters: 'tags:"personal growth"' })).toEqual(growth);
    expect(await matching({ filters: "tags:'personal growth'" })).toEqual(growth);
    const event = idsWhere((t) => t.event_name === 'TEDGlobal 2012');
    expect(await matching({ filters: 'event_name:"TEDGlobal 2012"' })).toEqual(event);
  });

  it('an array attribute matches when any element matches', async () => {
    const gates = idsWhere((t) => t.speakers.includes('Bill Gates'));
    // one of Bill Gates' talks is shared with Melinda Gates
    expect(where((t) => t.speakers.includes('Bill Gates') && t.speakers.length > 1).length).toBeGreaterThan(0);
    expect(await matching({ filters: 'speakers:"Bill Gates"' })).toEqual(gates);
    expect(await matching({ filters: 'speakers:"Melinda Gates"' })).toEqual(idsWhere((t) => t.speakers.includes('Melinda Gates')));
  });

  it('a numeric attribute declared for faceting matches attr:value', async () => {
    expect(await count({ filters: 'duration_range:2' })).toBe(where((t) => t.duration_range === 2).length);
  });

  it('a quoted attribute name', async () => {
    expect(await count({ filters: '"tags":business' })).toBe(333);
  });
});

describe('filters: boolean operators', () => {
  const cases: Array<[string, (t: Talk) => boolean]> = [
    ['tags:business AND tags:design', (t) => hasTag(t, 'business') && hasTag(t, 'design')],
    ['tags:business OR tags:design', (t) => hasTag(t, 'business') || hasTag(t, 'design')],
    ['NOT tags:business', (t) => !hasTag(t, 'business')],
    ['tags:business AND NOT tags:design', (t) => hasTag(t, 'business') && !hasTag(t, 'design')],
    ['NOT tags:business AND NOT tags:design', (t) => !hasTag(t, 'business') && !hasTag(t, 'design')],
    ['(tags:business OR tags:design) AND (duration_range:1 OR duration_range:2)',
      (t) => (hasTag(t, 'business') || hasTag(t, 'design')) && [1, 2].includes(t.duration_range)],
    ['tags:business AND (date > 1400000000 OR viewed_count > 1000000)',
      (t) => hasTag(t, 'business') && (t.date > 1400000000 || t.viewed_count > 1000000)],
    ['(tags:business OR tags:design) AND tags:technology AND duration_range:2',
      (t) => (hasTag(t, 'business') || hasTag(t, 'design')) && hasTag(t, 'technology') && t.duration_range === 2],
    ['(tags:business)', (t) => hasTag(t, 'business')],
    ['tags:business OR tags:design OR tags:"personal growth" OR speakers:"Hans Rosling"',
      (t) => hasTag(t, 'business') || hasTag(t, 'design') || hasTag(t, 'personal growth') || t.speakers.includes('Hans Rosling')],
  ];
  for (const [filters, predicate] of cases) {
    it(filters, async () => {
      expect(await count({ filters })).toBe(where(predicate).length);
    });
  }
});

describe('filters: numeric', () => {
  const D = 1400000000;
  const cases: Array<[string, (t: Talk) => boolean]> = [
    [`date > ${D}`, (t) => t.date > D],
    [`date>${D}`, (t) => t.date > D],
    [`date >= 1479164400`, (t) => t.date >= 1479164400],
    [`date < ${D}`, (t) => t.date < D],
    [`date <= ${D}`, (t) => t.date <= D],
    ['date = 1479164400', (t) => t.date === 1479164400],
    ['date != 1479164400', (t) => t.date !== 1479164400],
    ['viewed_count >= 1000000', (t) => t.viewed_count >= 1000000],
    ['viewed_count<100000', (t) => t.viewed_count < 100000],
    ['viewed_count:1000000 TO 2000000', (t) => t.viewed_count >= 1000000 && t.viewed_count <= 2000000],
    ['NOT viewed_count:1000000 TO 2000000', (t) => !(t.viewed_count >= 1000000 && t.viewed_count <= 2000000)],
    ['viewed_count > 1000000 AND viewed_count < 1500000', (t) => t.viewed_count > 1000000 && t.viewed_count < 1500000],
    ['viewed_count < 100000 OR viewed_count > 20000000', (t) => t.viewed_count < 100000 || t.viewed_count > 20000000],
    ['duration_range > 2 AND tags:business', (t) => t.duration_range > 2 && hasTag(t, 'business')],
  ];
  for (const [filters, predicate] of cases) {
    it(filters, async () => {
      const expected = where(predicate).length;
      expect(expected).toBeGreaterThan(0);
      expect(await count({ filters })).toBe(expected);
    });
  }

  it('TO ranges are inclusive at both ends', async () => {
    const dates = [...new Set(talks.map((t) => t.date))].sort((a, b) => a - b);
    const [low, high] = [dates[100], dates[200]];
    const expected = idsWhere((t) => t.date >= low && t.date <= high);
    expect(await matching({ filters: `date:${low} TO ${high}` })).toEqual(expected);
    expect(await count({ filters: `date:${low} TO ${low}` })).toBe(where((t) => t.date === low).length);
  });

  it('decimals and negative numbers', async () => {
    expect(await matching({ filters: 'price < 0' }, 'products')).toEqual(['p4']);
    expect(await matching({ filters: 'price >= 20 AND price <= 30.5' }, 'products')).toEqual(['p2', 'p3']);
    expect(await matching({ filters: 'price:-10 TO 3' }, 'products')).toEqual(['p4', 'p5']);
    expect(await matching({ filters: 'price = 30.5' }, 'products')).toEqual(['p3']);
  });
});

describe('filters: nested attributes, booleans, tags', () => {
  it('nested attributes a.b', async () => {
    expect(await matching({ filters: 'specs.color:red' }, 'products')).toEqual(productIds((p) => p.specs.color.toLowerCase() === 'red'));
    expect(await matching({ filters: 'specs.size:M OR specs.size:S' }, 'products')).toEqual(['p1', 'p3', 'p5']);
    expect(await matching({ filters: 'specs.weight > 1' }, 'products')).toEqual(['p1', 'p2']);
    expect(await matching({ filters: 'specs.weight:0 TO 1.5' }, 'products')).toEqual(['p1', 'p3', 'p5']);
  });

  it('nested attributes inside arrays of objects', async () => {
    expect(await matching({ filters: 'sellers.name:Ann' }, 'products')).toEqual(['p1', 'p2']);
    expect(await matching({ filters: 'sellers.name:Bob' }, 'products')).toEqual(['p1']);
  });

  it('booleans attr:true / attr:false', async () => {
    expect(await matching({ filters: 'inStock:true' }, 'products')).toEqual(['p1', 'p3']);
    expect(await matching({ filters: 'inStock:false' }, 'products')).toEqual(['p2', 'p5']);
    expect(await matching({ filters: 'NOT inStock:true' }, 'products')).toEqual(['p2', 'p4', 'p5']);
    expect(await matching({ facetFilters: ['inStock:true'] }, 'products')).toEqual(['p1', 'p3']);
  });

  it('_tags:value', async () => {
    expect(await matching({ filters: '_tags:new' }, 'products')).toEqual(['p1', 'p4']);
    expect(await matching({ filters: '_tags:new AND _tags:cotton' }, 'products')).toEqual(['p1']);
    expect(await matching({ filters: 'NOT _tags:cotton' }, 'products')).toEqual(['p3', 'p4', 'p5']);
  });

  it('quoted values holding special characters, keywords or a leading dash', async () => {
    expect(await matching({ filters: 'brand:"Hats & Co"' }, 'products')).toEqual(['p3']);
    expect(await matching({ filters: 'brand:"AND"' }, 'products')).toEqual(['p5']);
    expect(await matching({ filters: 'label:"NOT"' }, 'products')).toEqual(['p5']);
    expect(await matching({ filters: 'label:"-sale"' }, 'products')).toEqual(['p1']);
  });

  it('an attribute that is not a facet matches nothing', async () => {
    expect(await count({ filters: 'color:red' }, 'products')).toBe(0);
  });
});

describe('numericAttributesForFiltering', () => {
  it('numbers filter without it; with it only the listed attributes, equalOnly() with = and != only', async () => {
    const indexName = 'numeric_listed';
    const client = engine.client();
    await client.saveObjects({ indexName, objects: PRODUCTS.map(({ objectID, price, specs }) => ({ objectID, price, weight: specs.weight ?? 0 })) });
    await engine.waitForTasks();
    expect(await matching({ filters: 'price > 5' }, indexName)).toEqual(['p1', 'p2', 'p3']);
    expect(await matching({ filters: 'weight >= 1.5' }, indexName)).toEqual(['p1', 'p2']);
    await client.setSettings({ indexName, indexSettings: { numericAttributesForFiltering: ['equalOnly(price)'] } });
    await engine.waitForTasks();
    expect(await matching({ filters: 'price = 20' }, indexName)).toEqual(['p2']);
    expect(await matching({ numericFilters: ['price != 20'] }, indexName)).toEqual(['p1', 'p3', 'p4', 'p5']);
    expect(await matching({ filters: 'price > 5' }, indexName)).toEqual([]);
    expect(await matching({ filters: 'price:5 TO 30' }, indexName)).toEqual([]);
    // not listed: not filterable
    expect(await matching({ filters: 'weight >= 1.5' }, indexName)).toEqual([]);
    await client.setSettings({ indexName, indexSettings: { numericAttributesForFiltering: ['price', 'weight'] } });
    await engine.waitForTasks();
    expect(await matching({ filters: 'price > 5 AND weight >= 1.5' }, indexName)).toEqual(['p1', 'p2']);
  });
});

describe('facetFilters', () => {
  it('a string, an array (AND) and nested arrays (OR)', async () => {
    expect(await count({ facetFilters: 'tags:business' })).toBe(333);
    expect(await count({ facetFilters: ['tags:business'] })).toBe(333);
    expect(await count({ facetFilters: ['tags:business', 'tags:design'] }))
      .toBe(where((t) => hasTag(t, 'business') && hasTag(t, 'design')).length);
    expect(await count({ facetFilters: [['tags:business', 'tags:design']] }))
      .toBe(where((t) => hasTag(t, 'business') || hasTag(t, 'design')).length);
    expect(await count({ facetFilters: [['tags:business', 'tags:design'], 'duration_range:2'] }))
      .toBe(where((t) => (hasTag(t, 'business') || hasTag(t, 'design')) && t.duration_range === 2).length);
  });

  it('unquoted values with spaces (as InstantSearch sends them)', async () => {
    expect(await count({ facetFilters: ['tags:personal growth'] })).toBe(where((t) => hasTag(t, 'personal growth')).length);
    expect(await count({ facetFilters: [['event_name:TEDGlobal 2012', 'event_name:TED2014']] }))
      .toBe(where((t) => ['TEDGlobal 2012', 'TED2014'].includes(t.event_name)).length);
  });

  it('attr:-value negates; attr:\\-value matches a value starting with a dash', async () => {
    expect(await count({ facetFilters: ['tags:-business'] })).toBe(where((t) => !hasTag(t, 'business')).length);
    expect(await count({ facetFilters: ['tags:design', 'tags:-business'] }))
      .toBe(where((t) => hasTag(t, 'design') && !hasTag(t, 'business')).length);
    expect(await matching({ facetFilters: ['label:\\-sale'] }, 'products')).toEqual(['p1']);
    expect(await matching({ facetFilters: ['label:-sale'] }, 'products')).toEqual(['p1', 'p3', 'p4', 'p5']);
  });

  it('as JSON in a params string', async () => {
    const params = `facetFilters=${encodeURIComponent(JSON.stringify([['tags:business', 'tags:design'], 'duration_range:2']))}`;
    expect(await count({ params }))
      .toBe(where((t) => (hasTag(t, 'business') || hasTag(t, 'design')) && t.duration_range === 2).length);
  });

  it('as a comma-separated list in a params string (AND)', async () => {
    // "Arrays in a URL: either comma-separated string (a,b) or URL-encoded JSON array"
    expect(await count({ params: 'facetFilters=tags:business,tags:design' }))
      .toBe(where((t) => hasTag(t, 'business') && hasTag(t, 'design')).length);
  });
});

describe('numericFilters', () => {
  const D = 1400000000, V = 1000000;
  it('an array (AND), nested arrays (OR), ranges', async () => {
    expect(await count({ numericFilters: [`date>${D}`] })).toBe(where((t) => t.date > D).length);
    expect(await count({ numericFilters: [`date>${D}`, `viewed_count>${V}`] })).toBe(where((t) => t.date > D && t.viewed_count > V).length);
    expect(await count({ numericFilters: [[`date>${D}`, `viewed_count>${V}`]] })).toBe(where((t) => t.date > D || t.viewed_count > V).length);
    expect(await count({ numericFilters: ['viewed_count:1000000 TO 2000000'] }))
      .toBe(where((t) => t.viewed_count >= 1000000 && t.viewed_count <= 2000000).length);
    expect(await count({ numericFilters: ['date != 1479164400'] })).toBe(talks.length - 1);
  });

  it('takes the range keyword in lower case too (issue #49)', async () => {
    const inRange = where((t) => t.viewed_count >= 1000000 && t.viewed_count <= 2000000).length;
    expect(inRange).toBeGreaterThan(0);
    expect(await count({ numericFilters: ['viewed_count:1000000 to 2000000'] })).toBe(inRange);
    expect(await count({ numericFilters: 'viewed_count:1000000 To 2000000' })).toBe(inRange);
  });

  it('a comma-separated string is an AND list', async () => {
    expect(await count({ numericFilters: `date>${D},viewed_count>${V}` })).toBe(where((t) => t.date > D && t.viewed_count > V).length);
    expect(await count({ params: `numericFilters=${encodeURIComponent(`date>${D},viewed_count>${V}`)}` }))
      .toBe(where((t) => t.date > D && t.viewed_count > V).length);
  });

  it('a comma-separated string with a parenthesised OR-group', async () => {
    expect(await count({ numericFilters: `(date>${D},viewed_count>${V}),duration_range<2` }))
      .toBe(where((t) => (t.date > D || t.viewed_count > V) && t.duration_range < 2).length);
  });

  it('a non-numeric value is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/query', { numericFilters: ['date>soon'] }), 400, /soon/);
    expectError(await send('POST', '/1/indexes/talks/query', { numericFilters: ['date'] }), 400);
  });
});

describe('tagFilters', () => {
  it('a string, an array (AND), nested arrays (OR)', async () => {
    expect(await matching({ tagFilters: 'new' }, 'products')).toEqual(['p1', 'p4']);
    expect(await matching({ tagFilters: ['new'] }, 'products')).toEqual(['p1', 'p4']);
    expect(await matching({ tagFilters: ['new', 'cotton'] }, 'products')).toEqual(['p1']);
    expect(await matching({ tagFilters: [['new', 'cotton']] }, 'products')).toEqual(['p1', 'p2', 'p4']);
  });

  it('comma strings: AND, with (a,b) as an OR-group', async () => {
    expect(await matching({ tagFilters: 'new,cotton' }, 'products')).toEqual(['p1']);
    expect(await matching({ tagFilters: '(new,cotton)' }, 'products')).toEqual(['p1', 'p2', 'p4']);
    expect(await matching({ params: 'tagFilters=new,cotton' }, 'products')).toEqual(['p1']);
  });

  it('-tag negates, \\-tag is a literal leading dash', async () => {
    expect(await matching({ tagFilters: ['-new'] }, 'products')).toEqual(['p2', 'p3', 'p5']);
    expect(await matching({ tagFilters: ['\\-promo'] }, 'products')).toEqual(['p3']);
  });
});

describe('all filter parameters AND together', () => {
  it('filters + facetFilters + numericFilters + tagFilters', async () => {
    expect(await matching({
      filters: 'specs.color:red OR specs.color:blue', facetFilters: ['brand:Acme'], numericFilters: ['price<15'], tagFilters: ['cotton'],
    }, 'products')).toEqual(['p1']);
    expect(await matching({
      filters: 'inStock:true', tagFilters: ['new'],
    }, 'products')).toEqual(['p1']);
  });

  it('on TED, against a JS computation', async () => {
    const expected = where((t) => hasTag(t, 'business') && hasTag(t, 'technology') && t.date > 1300000000 && t.duration_range !== 0);
    expect(await count({
      filters: 'tags:business', facetFilters: ['tags:technology', 'duration_range:-0'], numericFilters: ['date>1300000000'],
    })).toBe(expected.length);
  });

  it('with a text query, every hit satisfies the filter', async () => {
    const unfiltered = await count({ query: 'design' });
    const response = await send('POST', '/1/indexes/talks/query', { query: 'design', filters: 'tags:business', distinct: false, hitsPerPage: 1000 });
    expect(response.status).toBe(200);
    expect(response.body.nbHits).toBeGreaterThan(0);
    expect(response.body.nbHits).toBeLessThan(unfiltered);
    expect(response.body.hits.length).toBe(response.body.nbHits);
    for (const hit of response.body.hits) expect(hasTag(hit, 'business')).toBe(true);
  });

  it('through GET /1/indexes/{i}, multi-query and a params string', async () => {
    const get = await send('GET', `/1/indexes/talks?filters=${encodeURIComponent('tags:business AND duration_range:2')}&distinct=false&hitsPerPage=0`);
    const expected = where((t) => hasTag(t, 'business') && t.duration_range === 2).length;
    expect(get.status).toBe(200);
    expect(get.body.nbHits).toBe(expected);
    const multi = await send('POST', '/1/indexes/*/queries', {
      requests: [
        { indexName: 'talks', params: `filters=${encodeURIComponent('tags:business AND duration_range:2')}&distinct=false&hitsPerPage=0` },
        { indexName: 'talks', filters: 'NOT tags:business', distinct: false, hitsPerPage: 0 },
      ],
    });
    expect(multi.status).toBe(200);
    expect(multi.body.results[0].nbHits).toBe(expected);
    expect(multi.body.results[1].nbHits).toBe(talks.length - 333);
  });
});

describe('invalid filters are 400 with a message naming the problem', () => {
  const bad = async (filters: string, message: RegExp) =>
    expectError(await send('POST', '/1/indexes/talks/query', { filters }), 400, message);

  it('unbalanced parentheses', async () => {
    await bad('(tags:business OR tags:design', /\)|parenthes/i);
    await bad('tags:business)', /\)|parenthes/i);
    await bad('((tags:business)', /position \d+/);
  });

  it('A OR (B AND C)', async () => {
    await bad('tags:business OR (tags:design AND tags:art)', /AND|OR/);
    await bad('(tags:a AND tags:b) OR tags:c', /AND|OR/);
  });

  it('NOT (A OR B)', async () => {
    await bad('NOT (tags:business OR tags:design)', /NOT/);
  });

  it('OR across numeric and facet filters', async () => {
    await bad('tags:business OR date > 3', /numeric|facet|type/i);
    await bad('tags:business OR date:1 TO 5', /numeric|facet|type/i);
  });

  it('a non-numeric range or comparison', async () => {
    await bad('date:abc TO 5', /abc/);
    await bad('date:1 TO x', /"?x"?.*number|number.*x/i);
    await bad('date > abc', /abc/);
  });

  it('dangling operators, missing values, stray words, unterminated quotes', async () => {
    await bad('tags:business AND', /position \d+/);
    await bad('AND tags:business', /position 0/);
    await bad('tags:', /position \d+/);
    await bad('tags:business tags:design', /position 14/);
    await bad('tags:"business', /quot|position/i);
    await bad('event_name:TEDGlobal 2012', /position \d+/);
  });

  it('the message gives the position of the problem', async () => {
    const response = await send('POST', '/1/indexes/talks/query', { filters: 'tags:business OR (tags:design AND tags:art)' });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/position \d+/);
  });

  it('malformed array forms', async () => {
    // arrays may nest deeper (the spec's schema is recursive: test/api/spec-requests.test.ts), but hold strings only
    expectError(await send('POST', '/1/indexes/talks/query', { facetFilters: [['tags:business', [5]]] }), 400);
    expectError(await send('POST', '/1/indexes/talks/query', { facetFilters: [5] }), 400);
    expectError(await send('POST', '/1/indexes/talks/query', { facetFilters: 'business' }), 400);
    expectError(await send('POST', '/1/indexes/talks/query', { facetFilters: { tags: 'business' } }), 400);
  });

  it('in a multi-query', async () => {
    expectError(await send('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'talks', filters: '(tags:business' }] }), 400);
  });
});

describe('filter bitmaps kept between searches', () => {
  // The facet index keeps the bitmaps of recent atoms: a search must never
  // change a kept one (negation, AND, OR) and any write must drop them all.
  const INDEX = 'kept-bitmaps';
  const live = new Map(PRODUCTS.map((p) => [p.objectID, { ...p }] as [string, any]));
  const expected = (predicate: (p: any) => boolean) => sorted([...live.values()].filter(predicate).map((p) => p.objectID));
  const find = (filters: string) => matching({ query: '', filters }, INDEX);
  const write = async (call: (client: ReturnType<typeof engine.client>) => Promise<unknown>) => {
    await call(engine.client());
    await engine.waitForTasks();
  };
  const acme = (p: any) => p.brand === 'Acme';

  beforeAll(async () => {
    await write((client) => client.setSettings({
      indexName: INDEX, indexSettings: { attributesForFaceting: ['brand', 'price'] },
    }));
    await write((client) => client.saveObjects({ indexName: INDEX, objects: [...live.values()] }));
  });

  it('negating, AND-ing and OR-ing an atom leaves it as it was', async () => {
    expect(await find('brand:Acme')).toEqual(expected(acme));
    expect(await find('NOT brand:Acme')).toEqual(expected((p) => !acme(p)));
    expect(await find('brand:Acme AND price > 15')).toEqual(expected((p) => acme(p) && p.price > 15));
    expect(await find('brand:Acme OR brand:Globex')).toEqual(expected((p) => acme(p) || p.brand === 'Globex'));
    expect(await find('brand:Acme')).toEqual(expected(acme));
    expect(await find('price > 15')).toEqual(expected((p) => p.price > 15));
  });

  it('an added, replaced, updated or deleted record shows in the next search', async () => {
    expect(await find('brand:Acme')).toEqual(['p1', 'p2']);
    const added = { objectID: 'p6', name: 'acme socks', brand: 'Acme', price: 7 };
    live.set('p6', added);
    await write((client) => client.saveObject({ indexName: INDEX, body: added }));
    expect(await find('brand:Acme')).toEqual(expected(acme));
    expect(await find('NOT brand:Acme')).toEqual(expected((p) => !acme(p)));

    live.set('p2', { ...live.get('p2'), brand: 'Globex' });
    await write((client) => client.partialUpdateObject({ indexName: INDEX, objectID: 'p2', attributesToUpdate: { brand: 'Globex' } }));
    expect(await find('brand:Acme')).toEqual(expected(acme));
    expect(await find('brand:Globex')).toEqual(expected((p) => p.brand === 'Globex'));

    live.delete('p1');
    await write((client) => client.deleteObject({ indexName: INDEX, objectID: 'p1' }));
    expect(await find('brand:Acme')).toEqual(expected(acme));
    expect(await find('price > 5')).toEqual(expected((p) => p.price > 5));
    expect(await find('brand:Acme')).toEqual(['p6']);
  });

  it('more atoms than are kept, then the first again', async () => {
    for (let price = -6; price < 30; price++) {
      expect(await find(`price > ${price}`)).toEqual(expected((p) => p.price > price));
    }
    expect(await find('brand:Acme')).toEqual(expected(acme));
    expect(await find('NOT price > -6')).toEqual([]);
  });
});

describe('scored filters', () => {
  const ranked = async (params: Record<string, unknown>) => {
    const response = await send('POST', '/1/indexes/talks/query', {
      distinct: false, hitsPerPage: 1000, getRankingInfo: true, attributesToRetrieve: ['tags'], attributesToHighlight: [], ...params,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const nonIncreasing = (values: number[]) => values.every((v, i) => i === 0 || v <= values[i - 1]);

  it('optionalFilters reorder the hits but keep nbHits', async () => {
    const plain = await ranked({ query: '' });
    const boosted = await ranked({ query: '', optionalFilters: ['tags:business'] });
    expect(boosted.nbHits).toBe(plain.nbHits);
    expect(boosted.nbHits).toBe(talks.length);
    // the 333 business talks come first (typo, geo, words are equal for an empty query)
    const flags = boosted.hits.map((h: Talk) => hasTag(h, 'business'));
    expect(flags.slice(0, 333).every(Boolean)).toBe(true);
    expect(flags.slice(333).some(Boolean)).toBe(false);
    expect(boosted.hits[0]._rankingInfo.filters).toBe(1);
    expect(boosted.hits[333]._rankingInfo.filters).toBe(0);
    expect(ids(plain).slice(0, 20)).not.toEqual(ids(boosted).slice(0, 20));
  });

  it('optionalFilters with a text query: nbHits unchanged, matching hits first within each typo bucket', async () => {
    const plain = await ranked({ query: 'design' });
    const boosted = await ranked({ query: 'design', optionalFilters: 'tags:business' });
    expect(boosted.nbHits).toBe(plain.nbHits);
    expect(sorted(ids(boosted))).toEqual(sorted(ids(plain)));
    const hits = boosted.hits;
    for (let i = 1; i < hits.length; i++) {
      const [a, b] = [hits[i - 1]._rankingInfo, hits[i]._rankingInfo];
      if (a.nbTypos === b.nbTypos && a.words === b.words) expect(b.filters).toBeLessThanOrEqual(a.filters);
      expect(hits[i]._rankingInfo.filters).toBe(hasTag(hits[i], 'business') ? 1 : 0);
    }
  });

  it('optionalFilters with a negated value bury the matching records', async () => {
    const response = await ranked({ query: '', optionalFilters: ['tags:-business'] });
    expect(response.nbHits).toBe(talks.length);
    expect(response.hits.slice(0, 500).some((h: Talk) => hasTag(h, 'business'))).toBe(false);
  });

  it('<score=N> in optionalFilters: scores of matched filters add up, higher first', async () => {
    const response = await ranked({ query: '', optionalFilters: ['tags:business<score=2>', 'tags:design<score=3>'] });
    expect(response.nbHits).toBe(talks.length);
    for (const hit of response.hits) {
      const expected = (hasTag(hit, 'business') ? 2 : 0) + (hasTag(hit, 'design') ? 3 : 0);
      expect(hit._rankingInfo.filters).toBe(expected);
    }
    expect(nonIncreasing(response.hits.map((h: any) => h._rankingInfo.filters))).toBe(true);
    const both = where((t) => hasTag(t, 'business') && hasTag(t, 'design')).length;
    expect(response.hits.slice(0, both).every((h: Talk) => hasTag(h, 'business') && hasTag(h, 'design'))).toBe(true);
  });

  it('<score=N> in an OR-group of filters: the max by default, the sum with sumOrFiltersScores', async () => {
    const filters = 'tags:business<score=2> OR tags:design<score=3>';
    const expectedHits = where((t) => hasTag(t, 'business') || hasTag(t, 'design')).length;
    const max = await ranked({ query: '', filters });
    expect(max.nbHits).toBe(expectedHits);
    for (const hit of max.hits) expect(hit._rankingInfo.filters).toBe(hasTag(hit, 'design') ? 3 : 2);
    expect(nonIncreasing(max.hits.map((h: any) => h._rankingInfo.filters))).toBe(true);

    const sum = await ranked({ query: '', filters, sumOrFiltersScores: true });
    expect(sum.nbHits).toBe(expectedHits);
    for (const hit of sum.hits) {
      expect(hit._rankingInfo.filters).toBe((hasTag(hit, 'business') ? 2 : 0) + (hasTag(hit, 'design') ? 3 : 0));
    }
    expect(nonIncreasing(sum.hits.map((h: any) => h._rankingInfo.filters))).toBe(true);
    expect(hasTag(sum.hits[0], 'business') && hasTag(sum.hits[0], 'design')).toBe(true);
  });

  it('optionalFilters in an OR-group (nested array) take the max score, in either order', async () => {
    for (const group of [['tags:business<score=2>', 'tags:design<score=3>'], ['tags:design<score=3>', 'tags:business<score=2>']]) {
      const response = await ranked({ query: '', optionalFilters: [group] });
      expect(response.hits.some((hit: any) => hasTag(hit, 'design') && hasTag(hit, 'business'))).toBe(true);
      for (const hit of response.hits) {
        expect(hit._rankingInfo.filters).toBe(hasTag(hit, 'design') ? 3 : hasTag(hit, 'business') ? 2 : 0);
      }
    }
  });

  it('an invalid score is 400', async () => {
    expectError(await send('POST', '/1/indexes/talks/query', { optionalFilters: ['tags:business<score=x>'] }), 400, /score/);
  });
});
