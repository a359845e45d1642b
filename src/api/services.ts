// The API's per-engine services (see ApiServices in types.ts), made once
// for each engine by Lantern, the root that routes its calls.
import { CallLog } from './call-log.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { SecuredKeyParents } from '../auth/secured-parents.js';
import type { ApiServices, LogEntry } from './types.js';
import { DEFAULT_BACKLOG } from '../follow/feed.js';

/** Analytics calls are counted per minute. */
const ANALYTICS_WINDOW_MS = 60_000;

/** `followBacklog`: see EngineOptions.followBacklog. */
export function createApiServices(followBacklog = DEFAULT_BACKLOG): ApiServices {
  return {
    callLog: new CallLog<LogEntry>(),
    keyCalls: new RateLimiter(),
    analyticsCalls: new RateLimiter(Date.now, ANALYTICS_WINDOW_MS),
    securedKeyParents: new SecuredKeyParents(),
    strategyTaskID: 0,
    followBacklog,
  };
}
