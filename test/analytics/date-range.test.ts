// Analytics date ranges are cut to the 90 days analytics are kept (today
// included): a far end date (9999-12-31 took 8 s and answered 93 MB) or a far
// start date gives a day series of 90 days at most, and a range holding none
// of those days answers empty figures (the service's 200, no day).
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/routes.js';
import type { Lantern } from '../../src/lantern.js';
import { expectError, openEngine, sender, type Send } from '../api/helpers.js';
import { daysAgo, today } from './helpers.js';

describe('analytics date ranges', () => {
  let engine: Lantern;
  let send: Send;
  beforeAll(async () => {
    engine = await openEngine();
    send = sender(engine);
    await send('PUT', '/1/indexes/films/1', { title: 'alpha' });
    await engine.waitForTasks();
    await send('POST', '/1/indexes/films/query', { query: 'alpha' });
    await engine.analytics.flush();
  });

  it('endDate=9999-12-31 ends today; a far startDate starts 89 days ago; the figures stay', async () => {
    const started = performance.now();
    const far = await send('GET', `/2/searches/count?index=films&startDate=${daysAgo(3)}&endDate=9999-12-31`);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(far.status).toBe(200);
    expect(far.body.dates.map((d: { date: string }) => d.date)).toEqual([daysAgo(3), daysAgo(2), daysAgo(1), today()]);
    expect(far.body.count).toBe(1);
    const whole = await send('GET', '/2/searches/count?index=films&startDate=0001-01-01&endDate=9999-12-31');
    expect(whole.body.dates).toHaveLength(90);
    expect(whole.body.dates[0].date).toBe(daysAgo(89));
    expect(whole.body.dates.at(-1)).toEqual({ date: today(), count: 1 });
  });

  it('every report with a day series is bounded the same way', async () => {
    const reports = ROUTES.filter((r) => r.path.startsWith('/2/') && r.method === 'GET' && r.query?.includes('endDate'));
    expect(reports.length).toBeGreaterThan(15);
    for (const route of reports) {
      const path = route.path.replace('{attribute}', 'title');
      const response = await send('GET', `${path}?index=films&search=alpha&startDate=1000-01-01&endDate=9999-12-31`);
      expect(response.status, route.path).toBe(200);
      expect(JSON.stringify(response.body).length, route.path).toBeLessThan(20_000);
      if ('dates' in response.body) expect(response.body.dates.length, route.path).toBeLessThanOrEqual(90);
    }
  });

  it('a range holding none of the last 90 days answers empty figures, as the service does', async () => {
    for (const range of [['1990-01-01', '1990-12-31'], ['9000-01-01', '9999-12-31'], [daysAgo(200), daysAgo(90)]]) {
      const query = `index=films&startDate=${range[0]}&endDate=${range[1]}`;
      expect(await send('GET', `/2/searches/count?${query}`)).toMatchObject({ status: 200, body: { count: 0, dates: [] } });
      expect(await send('GET', `/2/searches?${query}`)).toMatchObject({ status: 200, body: { searches: [] } });
      expect(await send('GET', `/2/clicks/clickThroughRate?${query}`)).toMatchObject({ status: 200, body: { clickCount: 0, dates: [] } });
    }
    expectError(await send('GET', `/2/searches/count?index=films&startDate=${daysAgo(1)}&endDate=${daysAgo(2)}`), 400, /startDate must not be after endDate/);
    expect((await send('GET', `/2/searches/count?index=films&startDate=${daysAgo(200)}&endDate=${daysAgo(89)}`)).body.dates).toEqual([
      { date: daysAgo(89), count: 0 },
    ]);
  });
});
