// How the demo's engine learns related talks from the visitor's clicks
// (`Lantern.open({ recommend })`): shared by the worker that opens the
// engine and the page, which asks again once a click has been learnt.
import type { RecommendOptions } from '../src/recommend/options.js';

/**
 * A demo is a small application: one visitor's few clicks are all the
 * events it will ever have, where the service waits for 10,000 before
 * related products follow events (content alone answers until then). Here
 * one click counts, and the models fold new clicks in within half a second
 * (5 s by default), so a click shows in the Related talks panel at once.
 */
export const RECOMMEND = { minRelatedEvents: 1, freshnessMs: 500 } satisfies RecommendOptions;
