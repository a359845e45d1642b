// An A/B test as the API shows it: per-variant figures from the searches the
// test routed (and their clicks and conversions), and the significance of
// the click and conversion differences from a two-proportion z-test.
import type { EventStore, SearchEvent } from '../analytics/events.js';
import { engagementOf, Scope } from '../analytics/reports.js';
import { testHeader, type ABTest } from './tests.js';

/** Standard normal CDF through erf (Abramowitz & Stegun 7.1.26, error < 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * Confidence that two rates differ (two-sided): 2Φ(|z|) − 1 with the pooled
 * proportion. Null without data in both variants; 0 when nothing differs.
 */
export function significance(successesA: number, trialsA: number, successesB: number, trialsB: number): number | null {
  if (trialsA === 0 || trialsB === 0) return null;
  const pooled = (successesA + successesB) / (trialsA + trialsB);
  const spread = Math.sqrt(pooled * (1 - pooled) * (1 / trialsA + 1 / trialsB));
  if (spread === 0) return 0;
  const z = (successesA / trialsA - successesB / trialsB) / spread;
  return 2 * normalCdf(Math.abs(z)) - 1;
}

function variantFigures(scope: Scope, searches: SearchEvent[]) {
  const engagement = engagementOf(scope, searches);
  const tracked = searches.filter((s) => s.tracked);
  const none = searches.length === 0;
  return {
    searchCount: none ? null : searches.length,
    userCount: none ? null : new Set(searches.map((s) => s.user)).size,
    trackedUserCount: none ? null : new Set(searches.filter((s) => s.tracked).map((s) => s.user)).size,
    noResultCount: none ? null : searches.filter((s) => s.nbHits === 0).length,
    ...engagement,
    addToCartCount: tracked.reduce((n, s) => n + scope.outcome(s).addToCarts, 0),
    purchaseCount: tracked.reduce((n, s) => n + scope.outcome(s).purchases, 0),
  };
}

/** Tracked searches of a variant with at least one click / one conversion. */
function successes(scope: Scope, searches: SearchEvent[], kind: 'clicks' | 'conversions'): [number, number] {
  const tracked = searches.filter((s) => s.tracked);
  return [tracked.filter((s) => scope.outcome(s)[kind] > 0).length, tracked.length];
}

export function describeABTest(test: ABTest, store: EventStore, now = Date.now()) {
  const scope = new Scope(store, (s) => s.abTest?.id === test.abTestID);
  const perVariant = [1, 2].map((v) => scope.searches.filter((s) => s.abTest!.variant === v));
  const [clicksA, clicksB] = perVariant.map((list) => successes(scope, list, 'clicks'));
  const [conversionsA, conversionsB] = perVariant.map((list) => successes(scope, list, 'conversions'));
  return {
    ...testHeader(test, now),
    clickSignificance: significance(...clicksA, ...clicksB),
    conversionSignificance: significance(...conversionsA, ...conversionsB),
    variants: test.variants.map((v, i) => ({ ...v, ...variantFigures(scope, perVariant[i]) })),
  };
}
