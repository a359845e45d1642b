// Recommend across restarts on fsStorage: rules are logged and snapshotted,
// models are trained again from the stored events (snapshot + log replay),
// at once; a follower keeps its models until its server has some to say.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, closeEngine, openAt, tempDir } from '../persistence/helpers.js';
import { conversion, products, pushEvents } from './planted.js';
import type { Lantern } from '../../src/lantern.js';
import { RecommendState } from '../../src/recommend/state.js';
import { EventStore } from '../../src/analytics/events.js';

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

  it('a restarted engine trains at once, not a freshness interval later, and says nothing of models until then', async () => {
    const slow = { recommend: { ...OPTIONS.recommend, freshnessMs: 60_000 } };
    const dir = tempDir();
    const first = await openAt(dir, slow);
    await first.request({ method: 'POST', path: `/1/indexes/${SHOP}/batch`, body: { requests: products(5).map(({ _vectors, ...body }) => ({ action: 'addObject', body })) } });
    await first.waitForTasks();
    await pushEvents(first, Array.from({ length: 3 }, (_, u) => conversion(SHOP, `u${u}`, ['p1', 'p2'], Date.now())));
    await first.snapshot();
    await closeEngine(first);

    const second = await openAt(dir, slow);
    expect(second.recommend.snapshot('replica').recommend!.models).toBeUndefined();
    const answer = async () => {
      const response = await second.request({ method: 'POST', path: '/1/indexes/*/recommendations', body: { requests: [{ indexName: SHOP, model: 'bought-together', objectID: 'p1', threshold: 0 }] } });
      return (response.body as { results: Array<{ hits: Array<{ objectID: string }> }> }).results[0]!.hits.map((h) => h.objectID);
    };
    await expect.poll(answer, { timeout: 5000, interval: 20 }).toEqual(['p2']);
    expect(second.recommend.snapshot('replica').recommend!.models!.map(([index]) => index)).toEqual([SHOP]);
    await closeEngine(second);
  });
});

describe('a follower\'s models', () => {
  it('stay through an image that says nothing of models, and go with one that has none', async () => {
    const dir = tempDir();
    const server = await openAt(dir, OPTIONS);
    await server.request({ method: 'POST', path: `/1/indexes/${SHOP}/batch`, body: { requests: products(5).map(({ _vectors, ...body }) => ({ action: 'addObject', body })) } });
    await server.waitForTasks();
    await pushEvents(server, Array.from({ length: 3 }, (_, u) => conversion(SHOP, `u${u}`, ['p1', 'p2'], Date.now())));
    await server.recommend.whenFresh();
    const image = server.recommend.snapshot('replica');
    await closeEngine(server);

    const follower = new RecommendState(() => new EventStore(), undefined, false);
    follower.restore(image);
    expect(follower.modelsOf(SHOP)).toBeDefined();
    follower.restore({ recommend: { rules: [], settings: image.recommend!.settings } });
    expect(follower.modelsOf(SHOP)).toBeDefined();
    follower.restore({ recommend: { rules: [], models: [], settings: image.recommend!.settings } });
    expect(follower.modelsOf(SHOP)).toBeUndefined();
  });
});
