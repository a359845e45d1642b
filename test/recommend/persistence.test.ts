// Recommend across restarts on fsStorage: rules are logged and snapshotted,
// models are trained again from the stored events (snapshot + log replay).
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, closeEngine, openAt, tempDir } from '../persistence/helpers.js';
import { conversion, products, pushEvents } from './planted.js';
import type { Lantern } from '../../src/lantern.js';

const OPTIONS = { recommend: { minBoughtTogetherEvents: 1, minRelatedEvents: 1, minTrendingEvents: 1, freshnessMs: 10 } };
const SHOP = 'shop';

afterAll(cleanup);

async function boughtWith(engine: Lantern, objectID: string): Promise<string[]> {
  await engine.recommend.whenFresh();
  const response = await engine.request({ method: 'POST', path: '/1/indexes/*/recommendations', body: { requests: [{ indexName: SHOP, model: 'bought-together', objectID, threshold: 0 }] } });
  expect(response.status).toBe(200);
  return (response.body as { results: Array<{ hits: Array<{ objectID: string }> }> }).results[0]!.hits.map((h) => h.objectID);
}

describe('recommend persistence', () => {
  it.each([['log replay', false], ['a snapshot', true]])('rules and models come back after a restart (from %s)', async (_, snapshot) => {
    const dir = tempDir();
    const first = await openAt(dir, OPTIONS);
    const saved = await first.request({ method: 'POST', path: `/1/indexes/${SHOP}/batch`, body: { requests: products(10).map(({ _vectors, ...body }) => ({ action: 'addObject', body })) } });
    expect(saved.status).toBe(200);
    await first.waitForTasks();
    const now = Date.now();
    await pushEvents(first, [
      ...Array.from({ length: 5 }, (_, u) => conversion(SHOP, `u${u}`, ['p1', 'p2'], now - u * 1000)),
      conversion(SHOP, 'u9', ['p1', 'p3'], now),
    ]);
    const rule = { objectID: 'no-p3', consequence: { hide: [{ objectID: 'p3' }] } };
    expect((await first.request({ method: 'POST', path: `/1/indexes/${SHOP}/bought-together/recommend/rules/batch`, body: [rule] })).status).toBe(200);
    expect(await boughtWith(first, 'p1')).toEqual(['p2']);
    if (snapshot) await first.snapshot();
    await closeEngine(first);

    const second = await openAt(dir, OPTIONS);
    expect(await boughtWith(second, 'p1')).toEqual(['p2']);
    const kept = await second.request({ method: 'GET', path: `/1/indexes/${SHOP}/bought-together/recommend/rules/no-p3` });
    expect(kept.body).toMatchObject(rule);
    await second.request({ method: 'DELETE', path: `/1/indexes/${SHOP}/bought-together/recommend/rules/no-p3` });
    expect(await boughtWith(second, 'p1')).toEqual(['p2', 'p3']);
    await closeEngine(second);
  });
});
