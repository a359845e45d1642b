// Analytics patterns (/3/patterns/*) through the official analytics client:
// the catalog, and timeseries, scalar, table and distribution queries over
// searches and clicks recorded on two days and two indexes, checked against
// the counts made here; filters, groups, tags and date ranges; every answer
// against the spec's schema; mistakes are 400s naming them.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_KEY, APP_ID, clientsFor, INDEX, openWithTalks, statusOf } from './helpers.js';
import { schemaOf, violations } from './spec-schema.js';

const B_INDEX = 'talks_b';
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
let engine: Lantern;
let c: ReturnType<typeof clientsFor>;
let yesterday: string;
let today: string;

/** One recorded search: its day (0 yesterday, 1 today), index, query, tags, and the click position (if clicked). */
const SEARCHES: Array<{ day: 0 | 1; index: string; query: string; tags?: string[]; click?: number }> = [
  { day: 0, index: INDEX, query: 'love', click: 2 },
  { day: 0, index: INDEX, query: 'love' },
  { day: 0, index: INDEX, query: 'love' },
  { day: 0, index: INDEX, query: 'qqqzzzx', tags: ['mobile'] },
  { day: 1, index: INDEX, query: 'ocean', click: 1 },
  { day: 1, index: INDEX, query: 'ocean', click: 5 },
  { day: 1, index: INDEX, query: 'love', tags: ['mobile'] },
  { day: 1, index: B_INDEX, query: 'love', click: 1 },
  { day: 1, index: B_INDEX, query: 'love' },
];
const PARAMS = (indices = [INDEX]) => [
  { kind: 'indices', value: indices }, { kind: 'startDate', value: yesterday }, { kind: 'endDate', value: today },
];

beforeAll(async () => {
  engine = await openWithTalks({}, [B_INDEX]);
  c = clientsFor(engine);
  const now = Date.now();
  yesterday = dayOf(now - DAY);
  today = dayOf(now);
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    for (const [i, s] of SEARCHES.entries()) {
      vi.setSystemTime(s.day === 0 ? now - DAY : now);
      const user = `p-${i}`;
      const r = await c.client.searchSingleIndex({ indexName: s.index, searchParams: { query: s.query, userToken: user, clickAnalytics: true, analyticsTags: s.tags } });
      if (s.click !== undefined) {
        await c.insights.pushEvents({ events: [{ eventType: 'click', eventName: 'Clicked', index: s.index, userToken: user, queryID: r.queryID!, objectIDs: [r.hits[s.click - 1].objectID], positions: [s.click] }] });
      }
    }
  } finally {
    vi.useRealTimers();
  }
});
afterAll(() => engine.close());

const on = (test: (s: (typeof SEARCHES)[number]) => boolean, index = INDEX) => SEARCHES.filter((s) => s.index === index && test(s));

describe('catalog', () => {
  it('lists the core domain\'s fields, with ETag and Cache-Control', async () => {
    const catalog = await c.analytics.getPatternsFields();
    expect(violations(schemaOf('analytics', 'Catalog'), catalog)).toBe('');
    const core = catalog.domains.core;
    expect(core.metrics.map((m) => m.kind)).toEqual(expect.arrayContaining(['searchesCount', 'usersCount', 'clickThroughRate', 'noResultsRate']));
    expect(core.groups.map((g) => g.kind)).toEqual(['index', 'search', 'country']);
    expect(core.distributions.map((d) => d.kind)).toEqual(['clickPosition', 'nbHits']);
    const raw = await engine.request({ method: 'GET', path: '/3/patterns/fields', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY } });
    expect(raw.headers).toMatchObject({ ETag: expect.stringMatching(/^"[0-9a-f]+"$/), 'Cache-Control': expect.stringContaining('max-age') });
  });
});

describe('queries', () => {
  it('scalar: each metric over the period', async () => {
    const body = await c.analytics.queryPatternsScalar({
      scalarPayload: { domain: 'core', parameters: PARAMS(), metrics: ['searchesCount', 'usersCount', 'noResultsCount', 'trackedSearchesCount', 'clicksCount', 'clickThroughRate', 'averageClickPosition'].map((kind) => ({ kind })) },
    });
    expect(violations(schemaOf('analytics', 'ScalarResponse'), body)).toBe('');
    const mine = on(() => true);
    const clicked = mine.filter((s) => s.click !== undefined);
    expect(body).toEqual({
      searchesCount: mine.length, usersCount: mine.length, noResultsCount: 1, trackedSearchesCount: mine.length, clicksCount: clicked.length,
      clickThroughRate: clicked.length / mine.length, averageClickPosition: (2 + 1 + 5) / 3,
    });
    // both indexes; today only
    const both = await c.analytics.queryPatternsScalar({
      scalarPayload: { metrics: [{ kind: 'searchesCount' }], parameters: [{ kind: 'indices', value: [INDEX, B_INDEX] }, { kind: 'startDate', value: today }] },
    });
    expect(both).toEqual({ searchesCount: SEARCHES.filter((s) => s.day === 1).length });
  });

  it('dates may be date-times: the range starts and ends at those instants', async () => {
    const scalar = async (startDate: string, endDate: string) => (await c.analytics.queryPatternsScalar({
      scalarPayload: { metrics: [{ kind: 'searchesCount' }], parameters: [{ kind: 'indices', value: [INDEX, B_INDEX] }, { kind: 'startDate', value: startDate }, { kind: 'endDate', value: endDate }] },
    })).searchesCount;
    const midnight = `${today}T00:00:00Z`;
    expect(await scalar(`${yesterday}T00:00:00Z`, new Date(Date.now() + DAY).toISOString())).toBe(SEARCHES.length);
    expect(await scalar(midnight, `${today}T23:59:59.999+00:00`)).toBe(SEARCHES.filter((s) => s.day === 1).length);
    expect(await scalar(`${yesterday}T00:00:00Z`, `${yesterday}T23:59:59Z`)).toBe(SEARCHES.filter((s) => s.day === 0).length);
    const series = await c.analytics.queryPatternsTimeseries({
      timeseriesPayload: { metrics: [{ kind: 'searchesCount' }], parameters: [{ kind: 'indices', value: [INDEX] }, { kind: 'startDate', value: midnight }, { kind: 'endDate', value: today }] },
    });
    expect(series.series).toEqual([{ totals: { searchesCount: on((s) => s.day === 1).length }, dates: [{ date: today, metrics: { searchesCount: on((s) => s.day === 1).length } }] }]);
  });

  it('timeseries: one series per group, most searched first, totals and each day', async () => {
    const body = await c.analytics.queryPatternsTimeseries({
      timeseriesPayload: { metrics: [{ kind: 'searchesCount' }, { kind: 'clickedSearchesCount' }], groupBy: [{ kind: 'search' }], parameters: PARAMS() },
    });
    expect(violations(schemaOf('analytics', 'TimeseriesResponse'), body)).toBe('');
    const expected = ['love', 'ocean', 'qqqzzzx'].map((query) => ({
      key: { search: query },
      totals: { searchesCount: on((s) => s.query === query).length, clickedSearchesCount: on((s) => s.query === query && s.click !== undefined).length },
      dates: [0, 1].map((day) => ({
        date: day === 0 ? yesterday : today,
        metrics: {
          searchesCount: on((s) => s.query === query && s.day === day).length,
          clickedSearchesCount: on((s) => s.query === query && s.day === day && s.click !== undefined).length,
        },
      })),
    }));
    expect(body.series).toEqual(expected);
    // no groupBy: one series without a key; limit and offset page the series
    const whole = await c.analytics.queryPatternsTimeseries({ timeseriesPayload: { metrics: [{ kind: 'searchesCount' }], parameters: PARAMS() } });
    expect(whole.series).toEqual([{ totals: { searchesCount: 7 }, dates: [{ date: yesterday, metrics: { searchesCount: 4 } }, { date: today, metrics: { searchesCount: 3 } }] }]);
    const paged = await c.analytics.queryPatternsTimeseries({
      timeseriesPayload: { metrics: [{ kind: 'searchesCount' }], groupBy: [{ kind: 'search' }], parameters: PARAMS(), limit: 1, offset: 1 },
    });
    expect(paged.series!.map((s) => s.key)).toEqual([{ search: 'ocean' }]);
    // nothing matched: null
    const none = await c.analytics.queryPatternsTimeseries({ timeseriesPayload: { metrics: [{ kind: 'searchesCount' }], parameters: PARAMS(['nowhere']) } });
    expect(none).toEqual({ series: null });
  });

  it('table: a row per group, in orderBy\'s order', async () => {
    const body = await c.analytics.queryPatternsTable({
      tablePayload: {
        metrics: [{ kind: 'searchesCount' }, { kind: 'clickThroughRate' }], groupBy: [{ kind: 'index' }],
        orderBy: [{ kind: 'searchesCount', direction: 'asc' }], parameters: PARAMS([INDEX, B_INDEX]),
      },
    });
    expect(violations(schemaOf('analytics', 'TableResponse'), body)).toBe('');
    expect(body.rows).toEqual([
      { index: B_INDEX, searchesCount: 2, clickThroughRate: 1 / 2 },
      { index: INDEX, searchesCount: 7, clickThroughRate: 3 / 7 },
    ]);
    const single = await c.analytics.queryPatternsTable({ tablePayload: { metrics: [{ kind: 'noResultsRate' }], parameters: PARAMS() } });
    expect(single.rows).toEqual([{ noResultsRate: 1 / 7 }]);
  });

  it('distribution: bins of click positions and of hit counts', async () => {
    const body = await c.analytics.queryPatternsDistribution({
      distributionPayload: {
        distributions: [{ kind: 'clickPosition', bins: [1, 2, 3, 4, 5, 6, -1] }, { kind: 'nbHits', bins: [0, 1, 10, -1] }],
        parameters: PARAMS(),
      },
    });
    expect(violations(schemaOf('analytics', 'DistributionResponse'), body)).toBe('');
    expect(body.histogramClickPosition).toEqual({ 1: 1, 2: 1, 3: 0, 4: 0, 5: 1, '6+': 0 });
    const hits = body.histogramNbHits as Record<string, number>;
    expect(Object.keys(hits)).toEqual(['0', '1-9', '10+']);
    expect(hits['0']).toBe(1);
    expect(hits['0'] + hits['1-9'] + hits['10+']).toBe(7);
  });

  it('filters (boolean, string, numeric, tags) and the tags parameter', async () => {
    const count = async (filters: unknown[], extra: unknown[] = []) => (await c.analytics.queryPatternsScalar({
      scalarPayload: { metrics: [{ kind: 'searchesCount' }], filters: filters as never, parameters: [...PARAMS(), ...extra] as never },
    })).searchesCount;
    expect(await count([{ kind: 'hasResults' }])).toBe(6);
    expect(await count([{ kind: 'search', operator: '=', parameter: { kind: 'q' } }], [{ kind: 'q', value: 'LOVE' }])).toBe(4);
    expect(await count([{ kind: 'search', operator: 'IN', parameter: { kind: 'q' } }], [{ kind: 'q', value: ['ocean', 'qqqzzzx'] }])).toBe(3);
    expect(await count([{ kind: 'search', operator: 'STARTS_WITH', parameter: { kind: 'q' } }], [{ kind: 'q', value: 'oc' }])).toBe(2);
    expect(await count([{ kind: 'nbHits', operator: '=', parameter: { kind: 'n' } }], [{ kind: 'n', value: 0 }])).toBe(1);
    expect(await count([{ kind: 'tags', operator: 'CONTAINS', parameter: { kind: 't' } }], [{ kind: 't', value: 'mobile' }])).toBe(2);
    expect(await count([{ kind: 'hasResults' }, { kind: 'tags', operator: 'CONTAINS', parameter: { kind: 't' } }], [{ kind: 't', value: 'mobile' }])).toBe(1);
    expect(await count([], [{ kind: 'tags', value: 'mobile' }])).toBe(2);
  });
});

describe('mistakes', () => {
  const post = (what: string, body: unknown, query = '') => engine.request({
    method: 'POST', path: `/3/patterns/${what}${query}`, headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY }, body,
  });
  const metrics = [{ kind: 'searchesCount' }];

  it('are 400s with a message naming them', async () => {
    const cases: Array<[string, unknown, RegExp, string?]> = [
      ['scalar', { metrics }, /parameters is required/],
      ['scalar', { parameters: PARAMS() }, /metrics is required/],
      ['scalar', { metrics, parameters: [{ kind: 'startDate', value: today }] }, /"indices"/],
      ['scalar', { metrics: [{ kind: 'bounces' }], parameters: PARAMS() }, /metrics\[0\]\.kind: "bounces" is not a metric/],
      ['scalar', { metrics: [{ domain: 'personalization', kind: 'searchesCount' }], parameters: PARAMS() }, /unknown domain "personalization"/],
      ['scalar', { metrics, parameters: PARAMS(), groupBy: [] }, /unknown field "groupBy"/],
      ['scalar', { metrics, parameters: [...PARAMS().slice(0, 1), { kind: 'startDate', value: '2024-02-30' }] }, /startDate.*YYYY-MM-DD/],
      ['scalar', { metrics, parameters: [...PARAMS().slice(0, 1), { kind: 'startDate', value: '2024-02-30T00:00:00Z' }] }, /startDate.*date-time/],
      ['scalar', { metrics, parameters: [...PARAMS().slice(0, 1), { kind: 'endDate', value: '2024-02-01T00:00' }] }, /endDate.*date-time/],
      ['scalar', { metrics, parameters: [...PARAMS().slice(0, 1), { kind: 'endDate', value: '2024-13-01T00:00:00Z' }] }, /endDate.*date-time/],
      ['scalar', { metrics, parameters: PARAMS(), filters: [{ kind: 'search' }] }, /"search" is not boolean/],
      ['scalar', { metrics, parameters: PARAMS(), filters: [{ kind: 'nbHits', operator: 'CONTAINS', parameter: { kind: 'n' } }] }, /does not apply to "nbHits"/],
      ['scalar', { metrics, parameters: PARAMS(), filters: [{ kind: 'search', operator: '=', parameter: { kind: 'q' } }] }, /"q" is not among the parameters/],
      ['scalar', { metrics, parameters: [...PARAMS(), { kind: 'indices', value: ['x'] }] }, /"indices" is given twice/],
      ['table', { metrics, parameters: PARAMS(), groupBy: [{ kind: 'index' }] }, /orderBy is required when groupBy is set/],
      ['table', { metrics, parameters: PARAMS(), orderBy: [{ kind: 'usersCount', direction: 'asc' }] }, /must be one of the query's metrics or groupBy/],
      ['timeseries', { metrics, parameters: PARAMS(), limit: 101 }, /"limit": expected an integer from 1 to 100/],
      ['distribution', { distributions: [{ kind: 'clickPosition', bins: [3, 2] }], parameters: PARAMS() }, /bins must ascend/],
      ['distribution', { distributions: [{ kind: 'clickPosition', bins: [1.5, 2] }], parameters: PARAMS() }, /integer edges/],
      ['distribution', { distributions: [{ kind: 'searchesCount' }], parameters: PARAMS() }, /not a distribution/],
      ['scalar', { metrics, parameters: PARAMS() }, /must name the indices/, '?index=talks_b'],
    ];
    for (const [what, body, message, query] of cases) {
      const r = await post(what, body, query);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect((r.body as { message: string }).message, JSON.stringify(body)).toMatch(message);
    }
    expect((await post('scalar', { metrics, parameters: PARAMS() }, `?index=${INDEX}`)).status).toBe(200);
  });

  it('a key reaches only its indexes, and needs the analytics right', async () => {
    const { key } = await c.client.addApiKey({ acl: ['analytics'], indexes: [B_INDEX] });
    const limited = clientsFor(engine, '127.0.0.1', key).analytics;
    const query = (indices: string[]) => limited.queryPatternsScalar({ scalarPayload: { metrics: [{ kind: 'searchesCount' }], parameters: PARAMS(indices) }, index: indices.join(',') });
    expect(await statusOf(query([INDEX]))).toBe(403);
    expect(await statusOf(query([INDEX, B_INDEX]))).toBe(403);
    expect(await query([B_INDEX])).toEqual({ searchesCount: 2 });
    const { key: searchOnly } = await c.client.addApiKey({ acl: ['search'] });
    expect(await statusOf(clientsFor(engine, '127.0.0.1', searchOnly).analytics.queryPatternsScalar({ scalarPayload: { metrics: [{ kind: 'searchesCount' }], parameters: PARAMS() } }))).toBe(403);
  });
});
