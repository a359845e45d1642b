// Search and insight events are kept for the analytics' 90 days, and at
// most maxAnalyticsEvents of each: past either the oldest are dropped from
// memory and from the next snapshot, a day's worth or an eighth of the room
// at a time; the recommend models, which read events by position, train
// anew when some go.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { EventStore, KEPT_MS, type InsightEvent, type SearchEvent } from '../../src/analytics/events.js';
import { cleanup, closeEngine, openAt, tempDir } from '../persistence/helpers.js';
import { Lantern } from '../../src/lantern.js';
import { conversion, products, pushEvents } from '../recommend/planted.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A day at midnight UTC: the recommend models train anew when the day changes, and these tests stay within one. */
const D = Date.UTC(2026, 5, 1);

afterAll(cleanup);
afterEach(() => { vi.useRealTimers(); });

const search = (id: string, at: number, tracked = false): SearchEvent =>
  ({ id, index: 'talks', query: id, nbHits: 1, hits: ['1'], filters: [], tags: [], user: 'u', at, tracked });
const insight = (id: string, receivedAt: number): InsightEvent =>
  ({ id, eventType: 'click', eventName: 'Clicked', index: 'talks', userToken: 'u', at: receivedAt, receivedAt, objectIDs: ['1'], positions: [1] });

/**
 * An engine whose recommend models learn from a single event, with 12
 * products in the index `shop`: what is bought with an item, and
 * conversions of [user, objectIDs] received (and timestamped) at a time.
 */
async function shop(options: { maxAnalyticsEvents?: number }) {
  const engine = await Lantern.open({ ...options, recommend: { minBoughtTogetherEvents: 1, minRelatedEvents: 1, minTrendingEvents: 1, freshnessMs: 10 } });
  await engine.request({ method: 'POST', path: '/1/indexes/shop/batch', body: { requests: products(12).map(({ _vectors, ...body }) => ({ action: 'addObject', body })) } });
  await engine.waitForTasks();
  const boughtWith = async (objectID: string) => {
    await engine.recommend.whenFresh();
    const response = await engine.request({ method: 'POST', path: '/1/indexes/*/recommendations', body: { requests: [{ indexName: 'shop', model: 'bought-together', objectID, threshold: 0 }] } });
    return (response.body as { results: Array<{ hits: Array<{ objectID: string }> }> }).results[0].hits.map((h) => h.objectID);
  };
  const receive = (time: number, conversions: Array<[string, string[]]>) => {
    vi.setSystemTime(time);
    return pushEvents(engine, conversions.map(([user, objectIDs]) => conversion('shop', user, objectIDs, time)));
  };
  return { engine, boughtWith, receive };
}

describe('the event store keeps 90 days of events', () => {
  it('drops the searches and insight events received past the retention, once the oldest is a day past it', () => {
    const store = new EventStore();
    store.add([search('old', D, true), search('kept', D + 2 * DAY)], [insight('old-click', D), insight('kept-click', D + 2 * DAY)]);
    // the oldest within the day of slack past the retention: nothing goes yet
    store.add([search('within-slack', D + KEPT_MS + DAY - 1)], []);
    expect(store.searches.map((s) => s.id)).toEqual(['old', 'kept', 'within-slack']);
    expect(store.searchOf('old')?.id).toBe('old');
    // a day past it: what was received before the retention goes, searches and insight events alike
    store.add([], [insight('later-click', D + KEPT_MS + DAY + 1)]);
    expect(store.searches.map((s) => s.id)).toEqual(['kept', 'within-slack']);
    expect(store.events.map((e) => e.id)).toEqual(['kept-click', 'later-click']);
    expect(store.searchOf('old')).toBeUndefined();
    expect(store.eventsRemoved).toBe(1);
  });

  it('a user\'s insight events, as personalisation reads them, follow the store through additions, retention and forgets', () => {
    const store = new EventStore();
    const of = (user: string, id: string, receivedAt: number): InsightEvent => ({ ...insight(id, receivedAt), userToken: user });
    const ids = (user: string) => store.eventsOf(user).map((e) => e.id);
    const filtered = (user: string) => store.events.filter((e) => e.userToken === user).map((e) => e.id);
    store.add([], [of('ann', 'a1', D), of('bob', 'b1', D), of('ann', 'a2', D + 3 * DAY)]);
    expect(ids('ann')).toEqual(['a1', 'a2']);
    store.add([], [of('ann', 'a3', D + 4 * DAY), of('cy', 'c1', D + 4 * DAY)]); // added to lists already made
    expect(ids('ann')).toEqual(['a1', 'a2', 'a3']);
    expect(ids('cy')).toEqual(['c1']);
    store.add([], [of('bob', 'b2', D + KEPT_MS + DAY + 1)]); // a1 and b1 past the retention
    for (const user of ['ann', 'bob', 'cy', 'nobody']) expect(ids(user), user).toEqual(filtered(user));
    expect(ids('ann')).toEqual(['a2', 'a3']);
    store.forgetUser('ann', D + 3 * DAY);
    expect(ids('ann')).toEqual(['a3']);
    expect(ids('bob')).toEqual(['b2']);
  });

  it('a snapshot keeps the events it was taken with while it is written, whatever the store drops meanwhile', () => {
    const store = new EventStore();
    store.add([search('old', D), search('kept', D + 2 * DAY)], [insight('old-click', D)]);
    const taken = store.snapshot();
    store.add([search('new', D + KEPT_MS + 2 * DAY)], []); // drops 'old' and 'old-click' from the store
    expect(taken.searches.map((s) => s.id)).toEqual(['old', 'kept']);
    expect(taken.events.map((e) => e.id)).toEqual(['old-click']);
  });

  it('a log entry replayed over a snapshot brings back none of the events the snapshot dropped', () => {
    const store = new EventStore();
    const old = { searches: [search('old', D)], events: [insight('old-click', D)] };
    store.add(old.searches, old.events);
    store.add([search('new', D + KEPT_MS + 2 * DAY)], []);
    const restored = new EventStore();
    restored.restore(store.snapshot());
    restored.add(old.searches, old.events); // the log entry that first added them
    expect(restored.searches.map((s) => s.id)).toEqual(['new']);
    expect(restored.events).toEqual([]);
  });
});

describe('the event store keeps at most its room of each list', () => {
  const ids = (list: ReadonlyArray<{ id: string }>) => list.map((e) => e.id);
  const searches = (n: number, from = 0) => Array.from({ length: n }, (_, i) => search(`s${from + i}`, D + (from + i) * 1000, true));
  const insights = (n: number) => Array.from({ length: n }, (_, i) => ({ ...insight(`e${i}`, D + i * 1000), userToken: `u${i % 3}` }));

  it('drops the oldest once a list is an eighth past its room, down to the room; the newest stay, in order', () => {
    const store = new EventStore(16);
    for (const s of searches(18)) store.add([s], []); // 16 + 2 of slack: nothing goes yet
    expect(store.searches).toHaveLength(18);
    store.add(searches(1, 18), []);
    expect(ids(store.searches)).toEqual(ids(searches(16, 3)));
    expect(store.searchOf('s2')).toBeUndefined(); // a click on a dropped search finds no search
    expect(store.searchOf('s3')?.id).toBe('s3');
    store.add([], insights(40));
    expect(ids(store.events)).toEqual(ids(insights(40).slice(24)));
    expect(store.eventsRemoved).toBe(24);
    for (const user of ['u0', 'u1', 'u2']) expect(ids(store.eventsOf(user))).toEqual(ids(store.events.filter((e) => e.userToken === user)));
  });

  it('keeps the same events whether they come one at a time or in the log\'s batches', () => {
    const oneByOne = new EventStore(16);
    for (const s of searches(100)) oneByOne.add([s], []);
    const batched = new EventStore(16);
    const all = searches(100);
    for (let i = 0; i < all.length; i += 7) batched.add(all.slice(i, i + 7), []);
    expect(ids(batched.searches)).toEqual(ids(oneByOne.searches));
    expect(batched.snapshot().droppedThrough).toEqual(oneByOne.snapshot().droppedThrough);
  });

  it('a log entry replayed over a snapshot brings back none of the events dropped for room', () => {
    const store = new EventStore(16);
    const all = searches(40);
    const events = insights(40);
    for (const s of all) store.add([s], []);
    store.add([], events);
    const restored = new EventStore(16);
    restored.restore(JSON.parse(JSON.stringify(store.snapshot())));
    restored.add(all, events); // the log's entries that first added them
    expect(ids(restored.searches)).toEqual(ids(store.searches));
    expect(ids(restored.events)).toEqual(ids(store.events));
    restored.add(searches(1, 40), []); // a new search is kept
    expect(restored.searches.at(-1)?.id).toBe('s40');
  });

  it('is a whole number from 1', () => {
    for (const room of [0, -1, 1.5, Number.NaN]) expect(() => new EventStore(room)).toThrow(/maxAnalyticsEvents: a whole number from 1/);
  });
});

describe('an engine drops what is past the retention', () => {
  it('searches answered 93 days ago are gone from memory and from the store after a restart', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(D);
    const dir = tempDir();
    const first = await openAt(dir);
    await first.request({ method: 'POST', path: '/1/indexes/talks/batch', body: { requests: [{ action: 'addObject', body: { objectID: '1', title: 'a talk' } }] } });
    await first.waitForTasks();
    const ask = (engine: Lantern, query: string) => engine.request({ method: 'POST', path: '/1/indexes/talks/query', body: { query } });
    for (const query of ['old one', 'old two']) expect((await ask(first, query)).status).toBe(200);
    await first.snapshot();
    vi.setSystemTime(D + 93 * DAY);
    expect((await ask(first, 'talk')).status).toBe(200);
    expect(first.analytics.store.searches.map((s) => s.query)).toEqual(['talk']);
    await first.snapshot();
    await closeEngine(first);

    const second = await openAt(dir);
    expect(second.analytics.store.searches.map((s) => s.query)).toEqual(['talk']);
    await closeEngine(second);
  });

  it('keeps maxAnalyticsEvents searches, and the same ones after a restart replays its log', async () => {
    const dir = tempDir();
    const first = await openAt(dir, { maxAnalyticsEvents: 40 });
    await first.request({ method: 'POST', path: '/1/indexes/talks/batch', body: { requests: [{ action: 'addObject', body: { objectID: '1', title: 'a talk' } }] } });
    await first.waitForTasks();
    const ask = (engine: Lantern, query: string) => engine.request({ method: 'POST', path: '/1/indexes/talks/query', body: { query } });
    for (let i = 0; i < 30; i++) expect((await ask(first, `before ${i}`)).status).toBe(200);
    await first.snapshot();
    for (let i = 0; i < 600; i++) expect((await ask(first, `after ${i}`)).status).toBe(200); // logged in batches after the snapshot
    const kept = first.analytics.store.searches.map((s) => s.query);
    expect(kept.length).toBeGreaterThanOrEqual(40);
    expect(kept.length).toBeLessThanOrEqual(45);
    expect(kept.at(-1)).toBe('after 599');
    const top = await first.request({ method: 'GET', path: '/2/searches?index=talks&limit=1000' });
    expect((top.body as { searches: unknown[] }).searches).toHaveLength(kept.length);
    await closeEngine(first);

    const second = await openAt(dir, { maxAnalyticsEvents: 40 });
    expect(second.analytics.store.searches.map((s) => s.query)).toEqual(kept);
    await closeEngine(second);
  });

  it('searches asked back to back in-process, never letting a timer run, wait for the log a few batches at most', async () => {
    const engine = await Lantern.open({});
    await engine.request({ method: 'POST', path: '/1/indexes/talks/batch', body: { requests: [{ action: 'addObject', body: { objectID: '1', title: 'a talk' } }] } });
    await engine.waitForTasks();
    let most = 0;
    for (let i = 0; i < 6000; i++) {
      await engine.request({ method: 'POST', path: '/1/indexes/talks/query', body: { query: `talk ${i}` } });
      most = Math.max(most, engine.analytics.waitingSearches);
    }
    expect(most).toBeLessThanOrEqual(8 * 500);
    expect(engine.analytics.store.searches).toHaveLength(6000);
    await engine.close();
  });

  it('recommend models learn every event after some were dropped the same day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { engine, boughtWith, receive } = await shop({});
    // two events received when, at D + 1h, the retention and its slack have half an hour left
    await receive(D + HOUR - KEPT_MS - DAY + 30 * 60_000, [['x0', ['p9', 'p10']], ['x1', ['p9', 'p10']]]);
    await receive(D + HOUR, [['u0', ['p1', 'p2']]]);
    expect(await boughtWith('p1')).toEqual(['p2']);
    // an hour later the same day: the two old events go, and all four new ones count
    await receive(D + 2 * HOUR, [['u1', ['p1', 'p3']], ['u2', ['p1', 'p3']], ['u3', ['p7', 'p8']], ['u4', ['p7', 'p8']]]);
    expect(engine.analytics.store.eventsRemoved).toBe(2);
    expect(await boughtWith('p1')).toEqual(['p3', 'p2']);
    expect(await boughtWith('p7')).toEqual(['p8']);
    await engine.close();
  });
  it('recommend models keep what they learnt of events dropped for room until the day\'s training, and learn the later ones', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(D + HOUR);
    const { engine, boughtWith, receive } = await shop({ maxAnalyticsEvents: 8 });
    await receive(D + HOUR, [['a', ['p1', 'p2']], ['b', ['p1', 'p2']]]);
    expect(await boughtWith('p1')).toEqual(['p2']);
    await receive(D + 2 * HOUR, Array.from({ length: 8 }, (_, u): [string, string[]] => [`u${u}`, u === 0 ? ['p9', 'p10'] : ['p5', 'p6']]));
    expect(engine.analytics.store.events.map((e) => e.userToken)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7']);
    expect(await boughtWith('p1')).toEqual(['p2']); // learnt before the drop: kept until the day's training
    expect(await boughtWith('p5')).toEqual(['p6']); // every later event learnt,
    expect(await boughtWith('p9')).toEqual(['p10']); // the first of them too
    await receive(D + DAY + HOUR, [['c', ['p7', 'p8']]]); // the next day trains on what the store keeps
    expect(await boughtWith('p1')).toEqual([]);
    expect(await boughtWith('p7')).toEqual(['p8']);
    await engine.close();
  });
});
