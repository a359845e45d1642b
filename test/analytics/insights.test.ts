// POST /1/events through the official insights client: every validation rule
// (422 with the first error, nothing stored), the attribution window, the
// analytics rate limit, forgetting a user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { sender, type Send } from '../api/helpers.js';
import { clientsFor, INDEX, openWithTalks, statusOf, today } from './helpers.js';

let engine: Lantern;
let send: Send;
let clients: ReturnType<typeof clientsFor>;
let queryID: string;
let hits: string[];

const click = (extra: Record<string, unknown> = {}) => ({
  eventType: 'click', eventName: 'Hit clicked', index: INDEX, userToken: 'reader-1', queryID, objectIDs: [hits[0]], positions: [1], ...extra,
});

beforeAll(async () => {
  engine = await openWithTalks();
  send = sender(engine);
  clients = clientsFor(engine);
  const response = await clients.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'giver', clickAnalytics: true, userToken: 'reader-1' } });
  queryID = response.queryID!;
  hits = response.hits.map((h) => h.objectID);
  expect(queryID).toMatch(/^[0-9a-f]{32}$/);
});

afterAll(() => engine.close());

it('gives every tracked search a queryID of its own', async () => {
  const ids = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const { queryID: id } = await clients.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'giver', clickAnalytics: true, userToken: 'reader-2' } });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    ids.add(id!);
  }
  expect(ids.size).toBe(50);
  expect(ids.has(queryID)).toBe(false);
});

const range = () => ({ index: INDEX, startDate: today(), endDate: today() });
const clickCount = async () => (await clients.analytics.getClickThroughRate(range())).clickCount;

describe('validation: one invalid event refuses the whole call', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['unknown eventType', { eventType: 'purchase' }, /eventType/],
    ['empty eventName', { eventName: '' }, /eventName/],
    ['eventName over 64', { eventName: 'x'.repeat(65) }, /eventName/],
    ['control character in eventName', { eventName: 'a\u0007b' }, /eventName/],
    ['userToken with a space', { userToken: 'a b' }, /userToken/],
    ['userToken over 64', { userToken: 'u'.repeat(65) }, /userToken/],
    ['no index', { index: '' }, /index/],
    ['objectIDs and filters', { filters: ['tags:oceans'] }, /objectIDs and filters/],
    ['neither objectIDs nor filters', { objectIDs: undefined, positions: undefined, queryID: undefined }, /objectIDs or filters/],
    ['click after search without positions', { positions: undefined }, /positions/],
    ['positions not aligned', { positions: [1, 2] }, /one entry per objectID/],
    ['position 0', { positions: [0] }, /positive/],
    ['malformed queryID', { queryID: 'not-a-query-id' }, /queryID/],
    ['older than 4 days', { timestamp: Date.now() - 5 * 86_400_000 }, /4 days/],
  ];
  for (const [what, change, message] of cases) {
    it(what, async () => {
      const before = await clickCount();
      const r = await send('POST', '/1/events', { events: [click(), click(change)] });
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(/^events\[1\]: /);
      expect(r.body.message).toMatch(message);
      expect(await clickCount()).toBe(before);
    });
  }

  it('more than 10 filters, more than 1000 events, no events array', async () => {
    const filters = Array.from({ length: 11 }, (_, i) => `tags:t${i}`);
    const view = { eventType: 'view', eventName: 'Filter viewed', index: INDEX, userToken: 'reader-1', filters };
    expect((await send('POST', '/1/events', { events: [view] })).body.message).toMatch(/at most 10 filters/);
    expect((await send('POST', '/1/events', { events: [{ ...view, filters: filters.slice(0, 10) }] })).status).toBe(200);
    const many = Array.from({ length: 1001 }, () => ({ ...view, filters: ['tags:a'] }));
    expect((await send('POST', '/1/events', { events: many })).status).toBe(422);
    expect((await send('POST', '/1/events', { events: many.slice(0, 1000) })).status).toBe(200);
    expect((await send('POST', '/1/events', {})).status).toBe(422);
  });

  it('the official client gets the 422 too', async () => {
    expect(await statusOf(clients.insights.pushEvents({ events: [click({ userToken: 'bad token' }) as never] }))).toBe(422);
  });
});

describe('attribution', () => {
  it('a click counts within an hour of its search, not after', async () => {
    const before = await clickCount();
    const late = click({ objectIDs: [hits[1]], positions: [2], timestamp: Date.now() + 2 * 3_600_000 });
    expect(await clients.insights.pushEvents({ events: [late as never] })).toMatchObject({ status: 200 });
    expect(await clickCount()).toBe(before);
    await clients.insights.pushEvents({ events: [click({ objectIDs: [hits[1]], positions: [2], timestamp: Date.now() - 60_000 }) as never] });
    expect(await clickCount()).toBe(before + 1);
  });

  it('a click on a queryID no search returned counts nowhere', async () => {
    const before = await clickCount();
    await clients.insights.pushEvents({ events: [click({ queryID: 'f'.repeat(32) }) as never] });
    expect(await clickCount()).toBe(before);
  });

  it('deleteUserToken forgets the user\'s events and searches', async () => {
    const { client, insights, analytics } = clientsFor(engine);
    const r = await client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'forgettable', clickAnalytics: true, userToken: 'leaver' } });
    const users = async () => (await analytics.getUsersCount(range())).count;
    const before = await users();
    await insights.pushEvents({ events: [{ eventType: 'conversion', eventName: 'Bought', index: INDEX, userToken: 'leaver', queryID: r.queryID!, objectIDs: ['2652'] }] });
    const answer = await send('DELETE', '/1/usertokens/leaver');
    expect(answer.status).toBe(204); // no content, as the spec says
    await insights.deleteUserToken({ userToken: 'leaver' }); // the official client takes the empty answer
    expect(await users()).toBe(before - 1);
    expect((await analytics.getTopSearches({ ...range(), limit: 1000 })).searches.some((s: any) => s.search === 'forgettable')).toBe(false);
  });
});

describe('limits', () => {
  it('analytics: 100 calls per minute per application, then 429 with Retry-After', async () => {
    const fresh = await openWithTalks();
    try {
      const call = () => fresh.request({ method: 'GET', path: `/2/searches/count?index=${INDEX}`, headers: { 'x-algolia-application-id': 'TESTAPP', 'x-algolia-api-key': 'test-admin-key' } });
      for (let i = 0; i < 100; i++) expect((await call()).status).toBe(200);
      const limited = await call();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers?.['retry-after'])).toBeGreaterThan(0);
      // searches are not analytics calls
      expect((await fresh.request({ method: 'POST', path: `/1/indexes/${INDEX}/query`, headers: { 'x-algolia-application-id': 'TESTAPP', 'x-algolia-api-key': 'test-admin-key' }, body: {} })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
