// maxQueriesPerIPPerHour: a fixed one-hour window per identity (key, source
// address, and a user token when one is vouched for), opened by its first
// call. Other limits (the analytics API's per-minute one) use the same
// counter with their own window.
import { RetryLater } from '../util/errors.js';

const HOUR = 3_600_000;

/**
 * Who a key's per-IP limit counts: the source address, and the user behind
 * it only when the token cannot be made up by the caller: signed into a
 * secured key, or vouched for by a trusted proxy (or the admin key's
 * X-Forwarded-API-Key call). A bare X-Algolia-UserToken header is not:
 * a new token on every call would be a new allowance on every call.
 */
export function rateIdentity(key: string, sourceIp: string, vouchedUserToken: string | undefined): string {
  return `${key}\u0000${sourceIp}\u0000${vouchedUserToken ?? ''}`;
}

export class RateLimitError extends RetryLater {
  constructor(retryAfter: number) {
    super('rate_limited', 'Too many requests', retryAfter);
  }
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now, private readonly window = HOUR) {}

  /** Counts one call; throws RateLimitError (429, Retry-After seconds) past `limit` in the window. */
  hit(identity: string, limit: number): void {
    if (this.spend(identity, limit, 1)) return;
    const start = this.windows.get(identity)!.start;
    throw new RateLimitError(Math.max(1, Math.ceil((start + this.window - this.now()) / 1000)));
  }

  /** Counts `cost` units of work; false (and nothing counted) when they would pass `limit` in the window. */
  spend(identity: string, limit: number, cost: number): boolean {
    const now = this.now();
    let w = this.windows.get(identity);
    if (!w || now - w.start >= this.window) {
      w = { start: now, count: 0 };
      this.windows.set(identity, w);
      if (this.windows.size > 100_000) this.prune(now);
    }
    if (w.count + cost > limit) return false;
    w.count += cost;
    return true;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.window) this.windows.delete(k);
  }
}
