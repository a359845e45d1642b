// A/B testing v3 (/3/abtests) through the official client's initAbtestingV3:
// the tests are v2's (one state), so a test created through either version
// answers through both, each in its own shape; v3's metric results are
// computed from the searches the test routed and the events that followed
// (checked against counts kept here and against v2's figures), per UTC day
// in the timeseries; every answer is checked against the spec's schema.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { ADMIN_KEY, APP_ID, clientsFor, INDEX, openWithTalks, statusOf } from './helpers.js';
import { schemaOf, violations } from './spec-schema.js';

const B_INDEX = 'talks_b';
const DAY = 86_400_000;
let engine: Lantern;
let c: ReturnType<typeof clientsFor>;
let v3: ReturnType<ReturnType<typeof clientsFor>['client']['initAbtestingV3']>;

const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const variants = (a = INDEX, b = B_INDEX, share = 50) => [
  { index: a, trafficPercentage: share, description: 'control' },
  { index: b, trafficPercentage: 100 - share, description: 'candidate' },
];
const ABTEST = () => schemaOf('abtesting-v3', 'ABTest');
const RESPONSE = () => schemaOf('abtesting-v3', 'ABTestResponse');

beforeAll(async () => {
  engine = await openWithTalks({}, [B_INDEX]);
  c = clientsFor(engine);
  v3 = c.client.initAbtestingV3({ options: { requester: lanternRequester(engine) } });
});
afterAll(() => engine.close());
afterEach(() => { vi.useRealTimers(); });

/** `value` of the result named `name` (and `dimension`) in a variant's metrics. */
const valueOf = (metrics: Array<{ name: string; value: number; dimension?: string }>, name: string, dimension?: string) =>
  metrics.find((m) => m.name === name && m.dimension === dimension)?.value;

describe('one state, two shapes', () => {
  it('a test created through v3 reads through v2, and one created through v2 through v3', async () => {
    const created = await v3.addABTests({
      name: 'v3 made', variants: variants(), endAt: inDays(1),
      metrics: [{ name: 'clickThroughRate' }, { name: 'search_count' }, { name: 'revenue', dimension: 'USD' }],
      configuration: { minimumDetectableEffect: { size: 0.2, metric: 'clickThroughRate' }, errorCorrection: 'bonferroni' },
    });
    expect(violations(RESPONSE(), created)).toBe('');
    expect(created.index).toBe(INDEX);

    const asV3 = await v3.getABTest({ id: created.abTestID });
    expect(violations(ABTEST(), asV3)).toBe('');
    expect(violations(ABTEST(), { ...asV3, status: 'paused' })).toMatch(/status/); // the validator does check
    expect(violations(ABTEST(), { ...asV3, variants: [{ ...asV3.variants[0], metrics: [{ name: 'x', value: null }] }] })).not.toBe('');
    expect(asV3).toMatchObject({ abTestID: created.abTestID, name: 'v3 made', status: 'active', stoppedAt: null });
    expect(asV3.configuration).toEqual({ minimumDetectableEffect: { size: 0.2, metric: 'clickThroughRate' }, errorCorrection: 'bonferroni' });
    // no searches yet: counts are 0, a rate without tracked searches is left out (a result's value is a number)
    expect(asV3.variants[0].metrics.map((m) => [m.name, m.value, m.dimension])).toEqual([['search_count', 0, undefined], ['revenue', 0, 'USD']]);
    expect(asV3.variants.map((v) => [v.index, v.trafficPercentage, v.description])).toEqual([[INDEX, 50, 'control'], [B_INDEX, 50, 'candidate']]);

    const asV2 = await c.abtesting.getABTest({ id: created.abTestID });
    expect(asV2).toMatchObject({ abTestID: created.abTestID, name: 'v3 made', status: 'active', clickSignificance: null });
    expect(asV2.variants.map((v) => [v.index, v.searchCount])).toEqual([[INDEX, null], [B_INDEX, null]]);

    // stopped through v2, seen stopped through v3; deleted through v3, gone from v2
    await c.abtesting.stopABTest({ id: created.abTestID });
    const stopped = await v3.getABTest({ id: created.abTestID });
    expect(stopped.status).toBe('stopped');
    expect(stopped.stoppedAt).toEqual(expect.any(String));
    expect(stopped.stoppedAt).toBe((await c.abtesting.getABTest({ id: created.abTestID })).stoppedAt);
    expect(violations(RESPONSE(), await v3.deleteABTest({ id: created.abTestID }))).toBe('');
    expect(await statusOf(c.abtesting.getABTest({ id: created.abTestID }))).toBe(404);

    // the other way: v2 made, every metric through v3
    const old = await c.abtesting.addABTests({ name: 'v2 made', variants: variants(), endAt: inDays(1) });
    const seen = await v3.getABTest({ id: old.abTestID });
    expect(violations(ABTEST(), seen)).toBe('');
    expect(seen.variants[0].metrics.map((m) => m.name)).toEqual([
      'search_count', 'tracked_search_count', 'user_count', 'tracked_user_count', 'no_result_count',
      'add_to_cart_count', 'purchase_count', 'clicked_search_count', 'converted_search_count',
    ]);
    expect(seen.configuration).toBeUndefined();
    const stop = await v3.stopABTest({ id: old.abTestID });
    expect(violations(RESPONSE(), stop)).toBe('');
    expect((await c.abtesting.getABTest({ id: old.abTestID })).status).toBe('stopped');
    await c.abtesting.deleteABTest({ id: old.abTestID });
    expect(await statusOf(v3.getABTest({ id: old.abTestID }))).toBe(404);
  });

  it('list: active tests first, then by creation (direction), paged; the shared ids', async () => {
    const ids: number[] = [];
    for (const [i, name] of ['first', 'second', 'third'].entries()) {
      const a = `list-a-${i}`;
      const b = `list-b-${i}`;
      for (const indexName of [a, b]) await c.client.saveObject({ indexName, body: { objectID: '1', name } });
      await engine.waitForTasks();
      const add = i === 1 ? c.abtesting.addABTests({ name, variants: variants(a, b), endAt: inDays(1) })
        : v3.addABTests({ name, variants: variants(a, b), endAt: inDays(1), metrics: [{ name: 'search_count' }] });
      ids.push((await add).abTestID);
      await new Promise((r) => setTimeout(r, 5)); // distinct creation times
    }
    await v3.stopABTest({ id: ids[2] });
    const desc = await v3.listABTests({ indexPrefix: 'list-a-' });
    expect(desc.abtests!.map((t) => t.abTestID)).toEqual([ids[1], ids[0], ids[2]]);
    expect(desc).toMatchObject({ count: 3, total: 3 });
    for (const t of desc.abtests!) expect(violations(ABTEST(), t)).toBe('');
    const asc = await v3.listABTests({ indexPrefix: 'list-a-', direction: 'asc', offset: 1, limit: 1 });
    expect(asc).toMatchObject({ count: 1, total: 3 });
    expect(asc.abtests!.map((t) => t.abTestID)).toEqual([ids[1]]);
    // v2 lists the same tests
    expect((await c.abtesting.listABTests({ indexPrefix: 'list-a-' })).abtests!.map((t) => t.abTestID)).toEqual(ids);
    for (const id of ids) await v3.deleteABTest({ id });
  });
});

describe('the typed client', () => {
  it('names v3\'s methods <method>V3 and types them as AbtestingV3Client does', async () => {
    const client = engine.client();
    const { abTestID } = await client.addABTestsV3({ name: 'typed', variants: variants(), endAt: inDays(1), metrics: [{ name: 'search_count' }] });
    const test = await client.getABTestV3({ id: abTestID });
    expect(test.variants[1].metrics).toEqual([expect.objectContaining({ name: 'search_count', value: 0 })]);
    const series = await client.getTimeseriesV3({ id: abTestID, metric: ['search_count'] });
    expect(series.variants!.length).toBe(2);
    expect((await client.listABTestsV3({ indexPrefix: INDEX, direction: 'asc' })).abtests!.map((t) => t.abTestID)).toContain(abTestID);
    await client.stopABTestV3({ id: abTestID });
    expect((await client.getABTest({ id: abTestID })).status).toBe('stopped');
    await client.deleteABTestV3({ id: abTestID });
  });
});

describe('metric results', () => {
  it('per variant from searches and events; pValue from the two-proportion test v2 reports', async () => {
    const { abTestID } = await v3.addABTests({
      name: 'figures', variants: variants(), endAt: inDays(1),
      metrics: [
        { name: 'search_count' }, { name: 'tracked_search_count' }, { name: 'user_count' }, { name: 'no_result_count' },
        { name: 'clicked_search_count' }, { name: 'converted_search_count' }, { name: 'click_through_rate' },
        { name: 'conversion_rate' }, { name: 'average_click_position' }, { name: 'purchase_count' }, { name: 'revenue' },
      ],
    });
    const kept = [1, 2].map(() => ({ searches: 0, users: new Set<string>(), noResult: 0, clicked: 0, converted: 0, purchases: 0, revenue: 0 }));
    const events: any[] = [];
    for (let i = 0; i < 80; i++) {
      const user = `f-${i}`;
      const r = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: i % 8 === 0 ? 'qqqzzzx' : 'love', userToken: user, clickAnalytics: true } });
      const k = kept[r.abTestVariantID! - 1];
      k.searches++;
      k.users.add(user);
      if (r.nbHits === 0) { k.noResult++; continue; }
      const clicks = r.abTestVariantID === 2 ? i % 3 !== 0 : i % 4 === 0;
      if (!clicks) continue;
      events.push({ eventType: 'click', eventName: 'Clicked', index: INDEX, userToken: user, queryID: r.queryID, objectIDs: [r.hits[0].objectID], positions: [3] });
      k.clicked++;
      if (i % 2 === 0) {
        events.push({ eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Bought', index: INDEX, userToken: user, queryID: r.queryID, objectIDs: [r.hits[0].objectID], currency: 'USD', value: 10 });
        k.converted++;
        k.purchases++;
        k.revenue += 10;
      }
    }
    await c.insights.pushEvents({ events });
    const test = await v3.getABTest({ id: abTestID });
    expect(violations(ABTEST(), test)).toBe('');
    for (const [i, variant] of test.variants.entries()) {
      const k = kept[i];
      const m = variant.metrics;
      expect([valueOf(m, 'search_count'), valueOf(m, 'tracked_search_count'), valueOf(m, 'user_count'), valueOf(m, 'no_result_count')])
        .toEqual([k.searches, k.searches, k.users.size, k.noResult]);
      expect([valueOf(m, 'clicked_search_count'), valueOf(m, 'converted_search_count'), valueOf(m, 'purchase_count')]).toEqual([k.clicked, k.converted, k.purchases]);
      expect(valueOf(m, 'click_through_rate')).toBeCloseTo(k.clicked / k.searches, 10);
      expect(valueOf(m, 'conversion_rate')).toBeCloseTo(k.converted / k.searches, 10);
      expect(valueOf(m, 'average_click_position')).toBe(3);
      expect(valueOf(m, 'revenue', 'USD')).toBe(k.revenue);
      if (i === 0) expect(m.every((r) => r.pValue === 0)).toBe(true); // the spec: the control's pValue is 0
    }
    // the variant's click-through pValue is 1 − v2's clickSignificance (the same z-test)
    const v2 = await c.abtesting.getABTest({ id: abTestID });
    const ctr = test.variants[1].metrics.find((r) => r.name === 'click_through_rate')!;
    expect(ctr.pValue).toBeCloseTo(1 - v2.clickSignificance!, 10);
    expect(ctr.criticalValue).toBe(0.05);
    expect(ctr.significant).toBe(ctr.pValue! <= 0.05);
    expect(v2.variants.map((v) => v.searchCount)).toEqual(kept.map((k) => k.searches));
    await v3.deleteABTest({ id: abTestID });
  });
});

describe('timeseries', () => {
  it('each day\'s results per variant equal the searches and clicks of that day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse(`${dayOf(Date.now() - 2 * DAY)}T10:00:00Z`);
    vi.setSystemTime(start);
    const { abTestID } = await v3.addABTests({ name: 'days', variants: variants(), endAt: inDays(5), metrics: [{ name: 'search_count' }, { name: 'clicked_search_count' }] });
    const perDay: Array<[number[], number[]]> = [];
    for (const [d, searches] of [[0, 6], [1, 0], [2, 9]] as const) {
      vi.setSystemTime(start + d * DAY);
      const counts: [number[], number[]] = [[0, 0], [0, 0]];
      for (let i = 0; i < searches; i++) {
        const user = `d${d}-${i}`;
        const r = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'love', userToken: user, clickAnalytics: true } });
        const v = r.abTestVariantID! - 1;
        counts[0][v]++;
        if (i % 2 === 0) {
          await c.insights.pushEvents({ events: [{ eventType: 'click', eventName: 'Clicked', index: INDEX, userToken: user, queryID: r.queryID!, objectIDs: [r.hits[0].objectID], positions: [1] }] });
          counts[1][v]++;
        }
      }
      perDay.push(counts);
    }
    const days = [0, 1, 2].map((d) => dayOf(start + d * DAY));
    const series = await v3.getTimeseries({ id: abTestID });
    expect(violations(schemaOf('abtesting-v3', 'Timeseries'), series)).toBe('');
    expect(series.abTestID).toBe(abTestID);
    for (const v of [0, 1]) {
      const dates = series.variants![v].dates!;
      expect(dates.map((d) => d.date)).toEqual(days);
      expect(dates.map((d) => valueOf(d.metrics as never, 'search_count'))).toEqual(perDay.map((p) => p[0][v]));
      expect(dates.map((d) => valueOf(d.metrics as never, 'clicked_search_count'))).toEqual(perDay.map((p) => p[1][v]));
    }
    // the metric parameter picks results (either spelling); startDate and endDate cut the days
    const picked = await v3.getTimeseries({ id: abTestID, startDate: days[1], endDate: days[2], metric: ['search_count'] });
    expect(picked.variants![0].dates!.map((d) => [d.date, (d.metrics ?? []).map((m) => m.name)])).toEqual([[days[1], ['search_count']], [days[2], ['search_count']]]);
    // a v2-made test has timeseries too, of every metric
    await v3.stopABTest({ id: abTestID });
    await v3.deleteABTest({ id: abTestID });
  });

  it('invalid parameters are 400 with a message; an unknown test 404', async () => {
    const { abTestID } = await c.abtesting.addABTests({ name: 'params', variants: variants(), endAt: inDays(1) });
    const get = (query: string, id: string | number = abTestID) => engine.request({
      method: 'GET', path: `/3/abtests/${id}/timeseries${query}`, headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY },
    });
    const cases: Array<[string, RegExp]> = [
      ['?startDate=2024-13-01', /startDate.*YYYY-MM-DD/],
      ['?endDate=yesterday', /endDate.*YYYY-MM-DD/],
      ['?startDate=2024-05-02&endDate=2024-05-01', /startDate must not be after endDate/],
      ['?metric=search_count,bounce_rate', /"bounce_rate" is not one of/],
    ];
    for (const [query, message] of cases) {
      const r = await get(query);
      expect(r.status, query).toBe(400);
      expect((r.body as { message: string }).message, query).toMatch(message);
    }
    expect((await get('', 'abc')).status).toBe(400);
    expect((await get('', 999_999)).status).toBe(404);
    const whole = await v3.getTimeseries({ id: abTestID });
    expect(whole.variants!.map((v) => v.dates!.length)).toEqual([1, 1]);
    expect(whole.variants![0].dates![0].metrics!.map((m) => m.name)).toContain('tracked_user_count');
    await c.abtesting.deleteABTest({ id: abTestID });
  });
});

describe('create and estimate', () => {
  const send = (body: unknown) => engine.request({
    method: 'POST', path: '/3/abtests', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY }, body,
  });
  const base = () => ({ name: 'x', variants: variants(), endAt: inDays(1), metrics: [{ name: 'conversion_rate' }] });

  it('invalid requests are 422 with a message; a missing index 404', async () => {
    const bad: Array<[string, unknown, RegExp]> = [
      ['no metrics', { ...base(), metrics: undefined }, /metrics is required/],
      ['no endAt', { ...base(), endAt: undefined }, /endAt is required/],
      ['unknown metric', { ...base(), metrics: [{ name: 'bounceRate' }] }, /metrics\[0\]\.name must be one of/],
      ['dimension off revenue', { ...base(), metrics: [{ name: 'search_count', dimension: 'USD' }] }, /revenue only/],
      ['unknown field', { ...base(), owner: 'me' }, /unknown field "owner"/],
      ['unknown variant field', { ...base(), variants: [{ ...variants()[0], weight: 1 }, variants()[1]] }, /variants\[0\] has an unknown field "weight"/],
      ['three variants', { ...base(), variants: [...variants(INDEX, B_INDEX, 40), { index: B_INDEX, trafficPercentage: 20 }] }, /exactly 2 variants/],
      ['bad effect', { ...base(), configuration: { minimumDetectableEffect: { size: 2, metric: 'clickThroughRate' } } }, /size must be a number from 0 to 1/],
      ['bad correction', { ...base(), configuration: { errorCorrection: 'holm' } }, /errorCorrection must be one of/],
      ['no name', { ...base(), name: undefined }, /name is required/],
    ];
    for (const [what, body, message] of bad) {
      const r = await send(body);
      expect(r.status, what).toBe(422);
      expect((r.body as { message: string }).message, what).toMatch(message);
    }
    expect((await send({ ...base(), variants: variants(INDEX, 'missing') })).status).toBe(404);
    const { key } = await c.client.addApiKey({ acl: ['analytics'] });
    const readOnly = c.client.initAbtestingV3({ options: { requester: lanternRequester(engine) } });
    readOnly.setClientApiKey({ apiKey: key });
    expect(await statusOf(readOnly.addABTests(base() as never))).toBe(403);
    expect(await statusOf(readOnly.listABTests({}))).toBe(200);
  });

  it('estimate: v2\'s sample sizes, and noResultsRate from the control\'s searches', async () => {
    const fresh = await openWithTalks({}, [B_INDEX]);
    try {
      const f = clientsFor(fresh);
      const fv3 = f.client.initAbtestingV3({ options: { requester: lanternRequester(fresh) } });
      for (let i = 0; i < 20; i++) {
        const r = await f.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: i < 4 ? 'qqqzzzx' : 'ocean', clickAnalytics: true, userToken: `e${i}` } });
        if (i >= 4 && i < 9) await f.insights.pushEvents({ events: [{ eventType: 'click', eventName: 'Clicked', index: INDEX, userToken: `e${i}`, queryID: r.queryID!, objectIDs: [r.hits[0].objectID], positions: [1] }] });
      }
      const request = (metric: string) => ({ configuration: { minimumDetectableEffect: { size: 0.2, metric } }, variants: variants() }) as never;
      const byV3 = await fv3.estimateABTest(request('clickThroughRate'));
      expect(violations(schemaOf('abtesting-v3', 'EstimateABTestResponse'), byV3)).toBe('');
      expect(byV3).toEqual(await f.abtesting.estimateABTest(request('clickThroughRate')));
      // 4 of 20 searches found nothing: p1 = 0.2, p2 = 0.24
      const [p1, p2] = [0.2, 0.24];
      const mean = (p1 + p2) / 2;
      const n = Math.ceil((1.959964 * Math.sqrt(2 * mean * (1 - mean)) + 0.841621 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p2 - p1) ** 2);
      expect((await fv3.estimateABTest(request('noResultsRate'))).sampleSizes).toEqual([n, n]);
      expect(await statusOf(fv3.estimateABTest(request('bounceRate')))).toBe(422);
    } finally {
      await fresh.close();
    }
  });
});
