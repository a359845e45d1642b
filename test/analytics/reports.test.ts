// The analytics reports through the official analytics client: searches sent
// through the official search client (several users, source addresses,
// filters, tags, keystroke series, tracked and untracked), click and
// conversion events through the insights client; every expected figure is
// computed here from what this file sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { clientsFor, daysAgo, INDEX, openWithTalks, statusOf, today } from './helpers.js';
import { sender } from '../api/helpers.js';

interface Sent {
  user: string;
  ip: string;
  query: string;
  tracked?: boolean;
  /** A keystroke the same user's next (longer) query continues: not counted. */
  keystroke?: boolean;
  filters?: Array<[string, string, string]>;
  tags?: string[];
  /** From the response. */
  nbHits?: number;
  hits?: string[];
  queryID?: string;
}

const COUNTRY_OF: Record<string, string> = { '10.0.0.1': 'FR', '10.0.0.2': 'DE', '10.0.0.3': 'FR' };

const sent: Sent[] = [
  { user: 'u1', ip: '10.0.0.1', query: 'g', keystroke: true, tracked: true },
  { user: 'u1', ip: '10.0.0.1', query: 'gi', keystroke: true, tracked: true },
  { user: 'u1', ip: '10.0.0.1', query: 'giver', tracked: true },
  { user: 'u2', ip: '10.0.0.2', query: 'giver', tracked: true, tags: ['mobile'] },
  { user: 'u3', ip: '10.0.0.3', query: 'giver', tags: ['mobile'] },
  { user: 'u1', ip: '10.0.0.1', query: 'ocean', tracked: true, filters: [['tags', ':', 'oceans']] },
  { user: 'u2', ip: '10.0.0.2', query: 'ocean', filters: [['tags', ':', 'oceans'], ['duration_range', ':', '2']] },
  { user: 'u4', ip: '10.0.0.9', query: 'zzqxvw', filters: [['tags', ':', 'science']] },
  { user: 'u4', ip: '10.0.0.9', query: 'zzqxvw', tracked: true },
  { user: '', ip: '10.0.0.3', query: 'climate', filters: [['viewed_count', '>', '1000']] },
];

let engine: Lantern;
let analytics: ReturnType<typeof clientsFor>['analytics'];

const counted = () => sent.filter((s) => !s.keystroke);
const range = { index: INDEX, startDate: today(), endDate: today() };

async function sendSearches(): Promise<void> {
  for (const s of sent) {
    const { client } = clientsFor(engine, s.ip);
    const filters = (s.filters ?? []).map(([a, op, v]) => (op === ':' ? `${a}:${v}` : `${a} ${op} ${v}`)).join(' AND ');
    const response = await client.searchSingleIndex({
      indexName: INDEX,
      searchParams: {
        query: s.query, clickAnalytics: s.tracked ?? false, analyticsTags: s.tags ?? [], hitsPerPage: 5,
        ...(s.user ? { userToken: s.user } : {}), ...(filters ? { filters } : {}),
      },
    });
    s.nbHits = response.nbHits;
    s.hits = response.hits.map((h) => h.objectID);
    s.queryID = response.queryID;
    expect(response.queryID === undefined).toBe(!s.tracked);
  }
}

/** The searches of the final "giver" by u1 and by u2, for events. */
const giverOf = (user: string) => sent.find((s) => s.user === user && s.query === 'giver')!;

beforeAll(async () => {
  engine = await openWithTalks({ resolveCountry: (ip) => COUNTRY_OF[ip] });
  ({ analytics } = clientsFor(engine));
  await sendSearches();
  // a browse and an analytics:false search are never counted
  const { client } = clientsFor(engine);
  await client.browse({ indexName: INDEX, browseParams: { query: 'giver' } });
  await client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'giver', analytics: false } });
  const { insights } = clientsFor(engine);
  const u1 = giverOf('u1');
  const u2 = giverOf('u2');
  await insights.pushEvents({
    events: [
      { eventType: 'click', eventName: 'Hit clicked', index: INDEX, userToken: 'u1', queryID: u1.queryID!, objectIDs: [u1.hits![0]], positions: [1] },
      { eventType: 'click', eventName: 'Hit clicked', index: INDEX, userToken: 'u2', queryID: u2.queryID!, objectIDs: [u2.hits![2], u2.hits![1]], positions: [3, 2] },
      // the same click twice counts once
      { eventType: 'click', eventName: 'Hit clicked', index: INDEX, userToken: 'u2', queryID: u2.queryID!, objectIDs: [u2.hits![2]], positions: [3] },
      { eventType: 'conversion', eventName: 'Talk watched', index: INDEX, userToken: 'u2', queryID: u2.queryID!, objectIDs: [u2.hits![2]] },
      { eventType: 'view', eventName: 'Hit viewed', index: INDEX, userToken: 'u1', objectIDs: [u1.hits![0]] },
    ],
  });
});

afterAll(() => engine.close());

describe('searches', () => {
  it('top searches: final queries only, counts and nbHits', async () => {
    const { searches } = await analytics.getTopSearches({ ...range, limit: 1000 });
    const expected = new Map<string, { count: number; nbHits: number }>();
    for (const s of counted()) expected.set(s.query, { count: (expected.get(s.query)?.count ?? 0) + 1, nbHits: s.nbHits! });
    expect(new Map(searches.map((r: any) => [r.search, { count: r.count, nbHits: r.nbHits }]))).toEqual(expected);
    expect(searches.map((r: any) => r.count)).toEqual([...searches.map((r: any) => r.count)].sort((a, b) => b - a));
    expect(searches.some((r: any) => r.search === 'g' || r.search === 'gi')).toBe(false);
  });

  it('top searches with clickAnalytics: tracked counts, rates, positions; null without tracked searches', async () => {
    const { searches } = await analytics.getTopSearches({ ...range, clickAnalytics: true, limit: 1000 });
    const giver = searches.find((r: any) => r.search === 'giver') as any;
    const trackedGivers = counted().filter((s) => s.query === 'giver' && s.tracked).length;
    // u1: one click (position 1); u2: clicks at 3 and 2 (the repeat counts once) and a conversion
    expect(giver).toMatchObject({
      count: 3, trackedSearchCount: trackedGivers, clickCount: 3, conversionCount: 1,
      clickThroughRate: 2 / trackedGivers, conversionRate: 1 / trackedGivers, averageClickPosition: (1 + 3 + 2) / 3,
    });
    const ocean = searches.find((r: any) => r.search === 'ocean') as any;
    expect(ocean).toMatchObject({ trackedSearchCount: 1, clickCount: 0, clickThroughRate: 0, conversionRate: 0, averageClickPosition: null });
    const climate = searches.find((r: any) => r.search === 'climate') as any;
    expect(climate).toMatchObject({ trackedSearchCount: 0, clickThroughRate: null, conversionRate: null, averageClickPosition: null });
    // the spec's twelve position buckets, per search: giver's clicks were at 1, 3 and 2
    expect(giver.clickPositions).toHaveLength(12);
    expect(giver.clickPositions.slice(0, 4)).toEqual([
      { position: [1, 1], clickCount: 1 }, { position: [2, 2], clickCount: 1 }, { position: [3, 3], clickCount: 1 }, { position: [4, 4], clickCount: 0 },
    ]);
    expect(climate.clickPositions.every((b: any) => b.clickCount === 0)).toBe(true);
  });

  it('orderBy, direction, limit and offset', async () => {
    const all = (await analytics.getTopSearches({ ...range, limit: 1000 })).searches;
    const page = (await analytics.getTopSearches({ ...range, limit: 2, offset: 1 })).searches;
    expect(page).toEqual(all.slice(1, 3));
    const asc = (await analytics.getTopSearches({ ...range, direction: 'asc', limit: 1000 })).searches.map((r: any) => r.count);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const byCtr = (await analytics.getTopSearches({ ...range, clickAnalytics: true, orderBy: 'clickThroughRate', limit: 1000 })).searches as any[];
    expect(byCtr[0].search).toBe('giver');
    expect(byCtr.at(-1)!.clickThroughRate).toBeNull();
  });

  it('tags select the searches sent with those analyticsTags', async () => {
    const { searches } = await analytics.getTopSearches({ ...range, tags: 'mobile' });
    expect(searches).toEqual([{ search: 'giver', count: 2, nbHits: giverOf('u2').nbHits }]);
    const { count } = await analytics.getSearchesCount({ ...range, tags: 'mobile OR desktop' });
    expect(count).toBe(counted().filter((s) => s.tags?.includes('mobile')).length);
  });

  it('searches count with one entry per day; the default range is the last eight days', async () => {
    const response = await analytics.getSearchesCount({ index: INDEX });
    expect(response.count).toBe(counted().length);
    expect(response.dates.map((d) => d.date)).toEqual(Array.from({ length: 8 }, (_, i) => daysAgo(7 - i)));
    expect(response.dates.at(-1)!.count).toBe(counted().length);
    expect(response.dates.slice(0, -1).every((d) => d.count === 0)).toBe(true);
    const past = await analytics.getSearchesCount({ index: INDEX, startDate: daysAgo(10), endDate: daysAgo(2) });
    expect(past).toMatchObject({ count: 0 });
    expect(past.dates.length).toBe(9);
  });

  it('no results: the searches, with how many used filters, and the rate', async () => {
    const empty = counted().filter((s) => s.nbHits === 0);
    expect(empty.length).toBe(2);
    const { searches } = await analytics.getSearchesNoResults(range);
    expect(searches).toEqual([{ search: 'zzqxvw', count: 2, withFilterCount: 1 }]);
    const rate = await analytics.getNoResultsRate(range);
    expect(rate).toMatchObject({ count: counted().length, noResultCount: 2, rate: 2 / counted().length });
    expect(rate.dates).toEqual([{ date: today(), count: counted().length, noResultCount: 2, rate: 2 / counted().length }]);
  });

  it('top hits, overall and for one search', async () => {
    const counts = new Map<string, number>();
    for (const s of counted()) for (const hit of s.hits!) counts.set(hit, (counts.get(hit) ?? 0) + 1);
    const { hits } = await analytics.getTopHits({ ...range, limit: 1000 });
    expect(new Map(hits.map((h: any) => [h.hit, h.count]))).toEqual(counts);
    const ocean = await analytics.getTopHits({ ...range, search: 'ocean', limit: 1000 });
    const oceanCounts = new Map<string, number>();
    for (const s of counted().filter((x) => x.query === 'ocean')) for (const hit of s.hits!) oceanCounts.set(hit, (oceanCounts.get(hit) ?? 0) + 1);
    expect(new Map(ocean.hits.map((h: any) => [h.hit, h.count]))).toEqual(oceanCounts);
  });

  it('users count: distinct userTokens, the source address without one', async () => {
    const users = new Set(counted().map((s) => s.user || s.ip));
    const response = await analytics.getUsersCount(range);
    expect(response).toEqual({ count: users.size, dates: [{ date: today(), count: users.size }] });
  });

  it('countries from resolveCountry', async () => {
    const counts = new Map<string, number>();
    for (const s of counted()) if (COUNTRY_OF[s.ip]) counts.set(COUNTRY_OF[s.ip], (counts.get(COUNTRY_OF[s.ip]) ?? 0) + 1);
    const { countries } = await analytics.getTopCountries(range);
    expect(countries).toEqual([...counts].sort((a, b) => b[1] - a[1]).map(([country, count]) => ({ country, count })));
  });
});

describe('filters', () => {
  const filtered = () => counted().filter((s) => s.filters?.length);

  it('top filter attributes, overall and for one search', async () => {
    const counts = new Map<string, number>();
    for (const s of filtered()) for (const a of new Set(s.filters!.map(([attribute]) => attribute))) counts.set(a, (counts.get(a) ?? 0) + 1);
    const { attributes } = await analytics.getTopFilterAttributes(range);
    expect(new Map(attributes.map((a) => [a.attribute, a.count]))).toEqual(counts);
    expect(attributes[0]).toEqual({ attribute: 'tags', count: 3 });
    const ocean = await analytics.getTopFilterAttributes({ ...range, search: 'ocean' });
    expect(ocean.attributes).toEqual([{ attribute: 'tags', count: 2 }, { attribute: 'duration_range', count: 1 }]);
  });

  it('values of one attribute and of an attribute list', async () => {
    const tags = await analytics.getTopFilterForAttribute({ ...range, attribute: 'tags' });
    expect(tags.values).toEqual([
      { attribute: 'tags', operator: ':', value: 'oceans', count: 2 },
      { attribute: 'tags', operator: ':', value: 'science', count: 1 },
    ]);
    const both = await analytics.getTopFilterForAttribute({ ...range, attribute: 'tags,viewed_count', search: 'climate' });
    expect(both.values).toEqual([{ attribute: 'viewed_count', operator: '>', value: '1000', count: 1 }]);
  });

  it('filters of searches without results, of one search or of all (the spec makes `search` optional)', async () => {
    const response = await analytics.getTopFiltersNoResults({ ...range, search: 'zzqxvw' });
    expect(response.values).toEqual([{ count: 1, values: [{ attribute: 'tags', operator: ':', value: 'science' }] }]);
    // zzqxvw is the only search without results that had filters
    expect((await analytics.getTopFiltersNoResults(range)).values).toEqual(response.values);
  });
});

describe('clicks and conversions', () => {
  const tracked = () => counted().filter((s) => s.tracked);

  it('click-through rate: tracked searches with a click over tracked searches', async () => {
    const response = await analytics.getClickThroughRate(range);
    expect(response).toEqual({
      rate: 2 / tracked().length, trackedSearchCount: tracked().length, clickCount: 3,
      dates: [{ date: today(), rate: 2 / tracked().length, trackedSearchCount: tracked().length, clickCount: 3 }],
    });
    expect(response.trackedSearchCount).toBeLessThanOrEqual((await analytics.getSearchesCount(range)).count);
  });

  it('average click position and conversion rate, with null days', async () => {
    const position = await analytics.getAverageClickPosition({ index: INDEX, startDate: daysAgo(1), endDate: today() });
    expect(position).toEqual({
      average: 2, clickCount: 3,
      dates: [{ date: daysAgo(1), average: null, clickCount: 0 }, { date: today(), average: 2, clickCount: 3 }],
    });
    const conversion = await analytics.getConversionRate(range);
    expect(conversion).toMatchObject({ rate: 1 / tracked().length, trackedSearchCount: tracked().length, conversionCount: 1 });
    const before = await analytics.getConversionRate({ index: INDEX, startDate: daysAgo(3), endDate: daysAgo(3) });
    expect(before).toEqual({ rate: null, trackedSearchCount: 0, conversionCount: 0, dates: [{ date: daysAgo(3), rate: null, trackedSearchCount: 0, conversionCount: 0 }] });
  });
});

describe('the endpoints of today\'s client: no clicks, click positions', () => {
  const trackedWithResults = () => counted().filter((s) => s.tracked && s.nbHits! > 0);
  const clicked = new Set(['u1', 'u2']); // the users whose "giver" was clicked (beforeAll)

  it('searches without clicks, and the no-click rate', async () => {
    const noClick = trackedWithResults().filter((s) => !(s.query === 'giver' && clicked.has(s.user)));
    const { searches } = await analytics.getSearchesNoClicks(range);
    expect(searches).toEqual(noClick.map((s) => ({ search: s.query, count: 1, nbHits: s.nbHits })));
    expect(searches.map((r) => r.search)).toEqual(['ocean']);
    const rate = noClick.length / trackedWithResults().length;
    expect(await analytics.getNoClickRate(range)).toEqual({
      rate, count: trackedWithResults().length, noClickCount: noClick.length,
      dates: [{ date: today(), rate, count: trackedWithResults().length, noClickCount: noClick.length }],
    });
  });

  it('click positions: one bucket per position up to 10, then 11-20 and 21 onwards', async () => {
    const { positions } = await analytics.getClickPositions(range);
    const clicks = [1, 3, 2]; // the distinct clicks sent in beforeAll
    const buckets: Array<[number, number]> = [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7], [8, 8], [9, 9], [10, 10], [11, 20], [21, -1]];
    expect(positions).toEqual(buckets.map(([low, high]) => ({
      position: [low, high], clickCount: clicks.filter((p) => p >= low && (high === -1 || p <= high)).length,
    })));
  });
});

describe('add-to-cart, purchase and revenue', () => {
  let shop: Lantern;
  let shopAnalytics: ReturnType<typeof clientsFor>['analytics'];
  const shopRange = { index: INDEX, startDate: today(), endDate: today() };

  beforeAll(async () => {
    shop = await openWithTalks();
    const c = clientsFor(shop);
    shopAnalytics = c.analytics;
    const search = async (user: string, tracked: boolean) => c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'ocean', userToken: user, clickAnalytics: tracked } });
    const [b1, b2, b3] = [await search('b1', true), await search('b2', true), await search('b3', true), await search('b4', true), await search('b5', false)];
    const conversion = (user: string, queryID: string, subtype: string, objectIDs: string[], extra: Record<string, unknown> = {}) =>
      ({ eventType: 'conversion', eventSubtype: subtype, eventName: subtype, index: INDEX, userToken: user, queryID, objectIDs, ...extra }) as never;
    const [h0, h1] = b1.hits.map((h) => h.objectID);
    await c.insights.pushEvents({
      events: [
        conversion('b1', b1.queryID!, 'addToCart', [h0]),
        conversion('b1', b1.queryID!, 'purchase', [h0], { currency: 'USD', objectData: [{ price: '12.50', quantity: 2, discount: 1 }] }),
        conversion('b2', b2.queryID!, 'addToCart', [h0, h1]),
        conversion('b3', b3.queryID!, 'purchase', [h0], { currency: 'EUR', value: 30 }),
      ],
    });
  });
  afterAll(() => shop.close());

  it('add-to-cart and purchase rates over the tracked searches', async () => {
    const day = (figures: Record<string, unknown>) => ({ ...figures, dates: [{ date: today(), ...figures }] });
    // four tracked searches: b1 and b2 added to cart (1 + 2 objects), b1 and b3 purchased
    expect(await shopAnalytics.getAddToCartRate(shopRange)).toEqual(day({ rate: 2 / 4, trackedSearchCount: 4, addToCartCount: 3 }));
    expect(await shopAnalytics.getPurchaseRate(shopRange)).toEqual(day({ rate: 2 / 4, trackedSearchCount: 4, purchaseCount: 2 }));
    // an object added to the cart and then bought is one conversion
    expect(await shopAnalytics.getConversionRate(shopRange)).toMatchObject({ rate: 3 / 4, conversionCount: 4 });
  });

  it('top searches with revenueAnalytics: add-to-cart and purchase figures and revenue, per search', async () => {
    const { searches } = await shopAnalytics.getTopSearches({ ...shopRange, revenueAnalytics: true }) as { searches: any[] };
    expect(searches).toHaveLength(1);
    expect(searches[0]).toMatchObject({
      search: 'ocean', count: 5, trackedSearchCount: 4, addToCartCount: 3, addToCartRate: 2 / 4, purchaseCount: 2, purchaseRate: 2 / 4,
      currencies: { USD: { currency: 'USD', revenue: 12.5 * 2 - 1 }, EUR: { currency: 'EUR', revenue: 30 } },
    });
    expect(searches[0].clickPositions).toHaveLength(12);
  });

  it('top hits with click and revenue analytics: per record, over the tracked searches that answered it', async () => {
    const { hits } = await shopAnalytics.getTopHits({ ...shopRange, revenueAnalytics: true }) as { hits: any[] };
    const [h0, h1] = (await clientsFor(shop).client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'ocean', analytics: false } })).hits.map((h) => h.objectID);
    // b1 put h0 in the cart and bought it (one conversion), b2 put h0 and h1 in the cart, b3 bought h0 for 30 EUR
    expect(hits.find((h) => h.hit === h0)).toEqual({
      hit: h0, count: 5, trackedHitCount: 4, clickCount: 0, clickThroughRate: 0, conversionCount: 3, conversionRate: 3 / 4,
      addToCartCount: 2, addToCartRate: 2 / 4, purchaseCount: 2, purchaseRate: 2 / 4,
      currencies: { USD: { currency: 'USD', revenue: 12.5 * 2 - 1 }, EUR: { currency: 'EUR', revenue: 30 } },
    });
    expect(hits.find((h) => h.hit === h1)).toMatchObject({ conversionCount: 1, addToCartCount: 1, purchaseCount: 0, currencies: {} });
    const plain = await shopAnalytics.getTopHits(shopRange);
    expect(Object.keys(plain.hits[0])).toEqual(['hit', 'count']);
  });

  it('revenue per currency: price × quantity − discount, or the value', async () => {
    const currencies = { USD: { currency: 'USD', revenue: 12.5 * 2 - 1 }, EUR: { currency: 'EUR', revenue: 30 } };
    expect(await shopAnalytics.getRevenue(shopRange)).toEqual({ currencies, dates: [{ date: today(), currencies }] });
    const before = { index: INDEX, startDate: daysAgo(2), endDate: daysAgo(2) };
    expect(await shopAnalytics.getRevenue(before)).toEqual({ currencies: {}, dates: [{ date: daysAgo(2), currencies: {} }] });
  });

  it('a purchase with a value needs a currency', async () => {
    const { insights } = clientsFor(shop);
    const purchase = { eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Bought', index: INDEX, userToken: 'b9', objectIDs: ['1'] };
    expect(await statusOf(insights.pushEvents({ events: [{ ...purchase, value: 10 } as never] }))).toBe(422);
    expect(await statusOf(insights.pushEvents({ events: [{ ...purchase, value: 10, currency: 'usd' } as never] }))).toBe(422);
    expect(await statusOf(insights.pushEvents({ events: [{ ...purchase, value: 10, currency: 'USD' } as never] }))).toBe(200);
  });
});

describe('status and parameters', () => {
  it('status: the last search time, null for an index never searched', async () => {
    const { updatedAt } = await analytics.getStatus({ index: INDEX });
    expect(Date.now() - Date.parse(updatedAt!)).toBeLessThan(600_000);
    expect(await analytics.getStatus({ index: 'never-searched' })).toEqual({ updatedAt: null });
  });

  it('wrong parameters are 400 with a message', async () => {
    const send = sender(engine);
    const bad = [
      '/2/searches',
      `/2/searches?index=${INDEX}&startDate=2024-13-01`,
      `/2/searches?index=${INDEX}&startDate=${today()}&endDate=${daysAgo(1)}`,
      `/2/searches?index=${INDEX}&limit=1001`,
      `/2/searches?index=${INDEX}&limit=-1`,
      `/2/searches?index=${INDEX}&orderBy=clickThroughRate`,
      `/2/searches?index=${INDEX}&orderBy=nope&clickAnalytics=true`,
      `/2/searches?index=${INDEX}&direction=up`,
      `/2/hits?index=${INDEX}&offset=x`,
    ];
    for (const path of bad) {
      const r = await send('GET', path);
      expect(r.status, path).toBe(400);
      expect(r.body.message).toEqual(expect.any(String));
    }
    expect(await statusOf(analytics.getSearchesCount({ index: INDEX, startDate: 'yesterday' }))).toBe(400);
  });

  it('the analytics right is needed; a key limited to other indexes is refused', async () => {
    const { client } = clientsFor(engine);
    const { key: searchOnly } = await client.addApiKey({ acl: ['search'] });
    const { key: otherIndex } = await client.addApiKey({ acl: ['analytics'], indexes: ['other'] });
    const { key: allowed } = await client.addApiKey({ acl: ['analytics'], indexes: [INDEX] });
    await client.waitForApiKey({ key: allowed, operation: 'add' });
    expect(await statusOf(clientsFor(engine, '127.0.0.1', searchOnly).analytics.getSearchesCount(range))).toBe(403);
    expect(await statusOf(clientsFor(engine, '127.0.0.1', otherIndex).analytics.getSearchesCount(range))).toBe(403);
    expect((await clientsFor(engine, '127.0.0.1', allowed).analytics.getSearchesCount(range)).count).toBe(counted().length);
  });
});
