// Personalization through the official personalization client: the strategy
// in both forms, a user's profile from insight events, and the re-ranking it
// drives, with expected orders computed here from the fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { sender } from '../api/helpers.js';
import { clientsFor, INDEX, openWithTalks, statusOf, talks } from './helpers.js';

let engine: Lantern;
let c: ReturnType<typeof clientsFor>;

const EVENT_SCORE = 10;
const TAG_SCORE = 5;
const clicked = talks.filter((t) => t.tags.includes('oceans')).slice(0, 3);

beforeAll(async () => {
  engine = await openWithTalks();
  c = clientsFor(engine);
});
afterAll(() => engine.close());

describe('strategy', () => {
  it('before any strategy: 404; invalid strategies: 400', async () => {
    expect(await statusOf(c.personalization.getPersonalizationStrategy())).toBe(404);
    const bad = [
      { eventsScoring: [{ eventName: 'x', eventType: 'hover', score: 1 }], facetsScoring: [], personalizationImpact: 50 },
      { eventsScoring: [], facetsScoring: [{ facetName: 'tags', score: 101 }], personalizationImpact: 50 },
      { eventsScoring: [], facetsScoring: [], personalizationImpact: 101 },
    ];
    for (const body of bad) expect(await statusOf(c.personalization.setPersonalizationStrategy(body as never))).toBe(400);
    // the client checks personalizationImpact is present itself; the engine too
    expect((await sender(engine)('POST', '/1/strategies/personalization', { eventsScoring: [], facetsScoring: [] })).status).toBe(400);
  });

  it('the spec form and the client form are one strategy', async () => {
    const send = sender(engine);
    const spec = await send('POST', '/1/recommendation/personalization/strategy', {
      eventsScoring: { 'Talk clicked': { score: EVENT_SCORE, type: 'click' } },
      facetsScoring: { tags: { score: TAG_SCORE } },
    });
    expect(spec.status).toBe(200);
    expect(Date.parse(spec.body.updatedAt)).not.toBeNaN();
    expect(await c.personalization.getPersonalizationStrategy()).toEqual({
      eventsScoring: [{ eventName: 'Talk clicked', eventType: 'click', score: EVENT_SCORE }],
      facetsScoring: [{ facetName: 'tags', score: TAG_SCORE }],
      personalizationImpact: 100,
    });
    await c.personalization.setPersonalizationStrategy({
      eventsScoring: [{ eventName: 'Talk clicked', eventType: 'click', score: EVENT_SCORE }, { eventName: 'Talk viewed', eventType: 'view', score: 1 }],
      facetsScoring: [{ facetName: 'tags', score: TAG_SCORE }],
      personalizationImpact: 100,
    });
    const read = await send('GET', '/1/recommendation/personalization/strategy');
    expect(read.body).toEqual({
      eventsScoring: { 'Talk clicked': { score: EVENT_SCORE, type: 'click' }, 'Talk viewed': { score: 1, type: 'view' } },
      facetsScoring: { tags: { score: TAG_SCORE } },
      taskID: expect.any(Number),
    });
  });
});

/** The user's affinities as the strategy defines them, from the fixture. */
function expectedScores(): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const talk of clicked) for (const tag of talk.tags) scores[tag] = (scores[tag] ?? 0) + EVENT_SCORE * TAG_SCORE;
  return scores;
}

describe('profiles and re-ranking', () => {
  beforeAll(async () => {
    await c.insights.pushEvents({
      events: [
        { eventType: 'click', eventName: 'Talk clicked', index: INDEX, userToken: 'ocean-fan', objectIDs: clicked.map((t) => t.objectID) },
        // not in the strategy: no effect
        { eventType: 'conversion', eventName: 'Talk shared', index: INDEX, userToken: 'ocean-fan', objectIDs: [talks[0].objectID] },
      ],
    });
  });

  it('the profile holds eventScore × facetScore per facet value', async () => {
    const profile = await c.personalization.getUserTokenProfile({ userToken: 'ocean-fan' });
    expect(profile.userToken).toBe('ocean-fan');
    expect(profile.scores).toEqual({ tags: expectedScores() });
    expect(await statusOf(c.personalization.getUserTokenProfile({ userToken: 'stranger' }))).toBe(404);
  });

  async function search(params: Record<string, unknown>) {
    return c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'world', hitsPerPage: 10, analytics: false, ...params } });
  }

  it('with enablePersonalization and the userToken, hits re-rank by affinity (impact 100), relevance breaking ties', async () => {
    const base = (await search({ hitsPerPage: 1000 })).hits.map((h) => h.objectID);
    const scores = expectedScores();
    const personal = (id: string) => talks.find((t) => t.objectID === id)!.tags.reduce((n: number, tag: string) => n + (scores[tag] ?? 0), 0);
    const expected = base.map((id, rank) => ({ id, rank, score: personal(id) }))
      .sort((a, b) => b.score - a.score || a.rank - b.rank)
      .slice(0, 10);
    const response = await search({ enablePersonalization: true, userToken: 'ocean-fan', getRankingInfo: true });
    expect(response.hits.map((h) => h.objectID)).toEqual(expected.map((e) => e.id));
    expect(response.hits.map((h: any) => h._rankingInfo.personalization.filtersScore)).toEqual(expected.map((e) => e.score));
    expect(expected[0].score).toBeGreaterThan(0);
    expect(response.hits.map((h) => h.objectID)).not.toEqual(base.slice(0, 10));
    const page2 = await search({ enablePersonalization: true, userToken: 'ocean-fan', page: 1, hitsPerPage: 5 });
    expect(page2.hits.map((h) => h.objectID)).toEqual(expected.slice(5, 10).map((e) => e.id));
  });

  it('re-ranks the page the same when responseFields leave out the paging fields', async () => {
    const personalized = { enablePersonalization: true, userToken: 'ocean-fan' };
    const all = (await search(personalized)).hits.map((h) => h.objectID);
    const hitsOnly = await search({ ...personalized, responseFields: ['hits'] });
    expect(Object.keys(hitsOnly)).toEqual(['hits']);
    expect(hitsOnly.hits.map((h) => h.objectID)).toEqual(all);
    const page2 = await search({ ...personalized, page: 1, hitsPerPage: 5, responseFields: ['hits'] });
    expect(page2.hits.map((h) => h.objectID)).toEqual(all.slice(5, 10));
  });

  it('answers no hits when responseFields leave them out', async () => {
    const counted = await search({ enablePersonalization: true, userToken: 'ocean-fan', responseFields: ['nbHits'] });
    expect(counted).toEqual({ nbHits: (await search({})).nbHits });
  });

  it('impact 0, no userToken, or personalization off: the relevance order', async () => {
    const base = (await search({})).hits.map((h) => h.objectID);
    expect((await search({ enablePersonalization: true, userToken: 'ocean-fan', personalizationImpact: 0 })).hits.map((h) => h.objectID)).toEqual(base);
    expect((await search({ enablePersonalization: true })).hits.map((h) => h.objectID)).toEqual(base);
    expect((await search({ userToken: 'ocean-fan' })).hits.map((h) => h.objectID)).toEqual(base);
  });

  it('deleting the profile ends the personalization', async () => {
    const base = (await search({})).hits.map((h) => h.objectID);
    const deleted = await c.personalization.deleteUserProfile({ userToken: 'ocean-fan' });
    expect(deleted.userToken).toBe('ocean-fan');
    expect(await statusOf(c.personalization.getUserTokenProfile({ userToken: 'ocean-fan' }))).toBe(404);
    expect((await search({ enablePersonalization: true, userToken: 'ocean-fan' })).hits.map((h) => h.objectID)).toEqual(base);
  });
});
