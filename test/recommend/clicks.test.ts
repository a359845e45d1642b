// Clicks and conversions on recommendations, through the official v5
// client: getRecommendations with clickAnalytics answers a queryID, the
// click sent with it (clickedObjectIDsAfterSearch, at the positions the
// hits were shown) and a conversion after it are attributed to that
// recommendation, in the click analytics of the index it recommended from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { lanternRequester } from '../../src/requester.js';
import { APP_ID, ADMIN_HEADERS, ADMIN_KEY } from '../api/helpers.js';
import { clientsFor, today } from '../analytics/helpers.js';
import { plantedEvents, products, pushEvents } from './planted.js';

const SHOP = 'shop';
const RECOMMEND = { minBoughtTogetherEvents: 10, minRelatedEvents: 10, minTrendingEvents: 10, freshnessMs: 20 };

let engine: Lantern;
let clients: ReturnType<typeof clientsFor>;
const range = () => ({ index: SHOP, startDate: today(), endDate: today() });

beforeAll(async () => {
  engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, recommend: RECOMMEND });
  clients = clientsFor(engine);
  await clients.client.saveObjects({ indexName: SHOP, objects: products(40).map(({ _vectors, ...p }) => p), waitForTasks: true });
  await pushEvents(engine, plantedEvents(SHOP, Date.now()), ADMIN_HEADERS);
  await engine.recommend.whenFresh();
});

afterAll(() => engine.close());

describe('clicks on recommendations', () => {
  it('are attributed through the queryID: click-through rate, average position, conversion rate', async () => {
    const recommend = clients.client.initRecommend({ options: { requester: lanternRequester(engine) } });
    const { results } = await recommend.getRecommendations({ requests: [{
      indexName: SHOP, model: 'bought-together', objectID: 'p1', threshold: 0, maxRecommendations: 5,
      queryParameters: { clickAnalytics: true, userToken: 'shopper' },
    }] });
    const answer = results[0] as { queryID?: string; hits: Array<{ objectID: string }> };
    expect(answer.queryID).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.hits).toHaveLength(5);
    const clicked = answer.hits[2]!.objectID;

    // clickedObjectIDsAfterSearch, then convertedObjectIDsAfterSearch
    const accepted = await clients.insights.pushEvents({ events: [
      { eventType: 'click', eventName: 'Recommendation clicked', index: SHOP, userToken: 'shopper', queryID: answer.queryID!, objectIDs: [clicked], positions: [3] },
      { eventType: 'conversion', eventName: 'Recommendation bought', index: SHOP, userToken: 'shopper', queryID: answer.queryID!, objectIDs: [clicked] },
      // a click carrying a queryID no recommendation answered is attributed to nothing
      { eventType: 'click', eventName: 'Recommendation clicked', index: SHOP, userToken: 'shopper', queryID: 'f'.repeat(32), objectIDs: [clicked], positions: [1] },
    ] });
    expect(accepted).toMatchObject({ status: 200 });

    expect(await clients.analytics.getClickThroughRate(range())).toMatchObject({ rate: 1, clickCount: 1, trackedSearchCount: 1 });
    expect(await clients.analytics.getAverageClickPosition(range())).toMatchObject({ average: 3, clickCount: 1 });
    expect(await clients.analytics.getConversionRate(range())).toMatchObject({ rate: 1, conversionCount: 1, trackedSearchCount: 1 });
  });
});
