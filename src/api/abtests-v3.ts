// The A/B testing v3 endpoints (/3/abtests) that differ from v2's: create,
// read, list and the timeseries. Stop, delete and estimate answer as v2's
// handlers do (abtests.ts: the same shapes). Both versions share the tests
// of the analytics state: a test created through one answers through the
// other, in each version's shape (src/abtest/v3.ts).
import { badRequest } from '../util/errors.js';
import { checkIndex, mayReach } from '../auth/restrictions.js';
import type { ABTest } from '../abtest/tests.js';
import { abTestNotFound, createABTest, intParam } from './abtests.js';
import { describeABTestV3, listOrderV3, newABTestV3, timeseriesV3 } from '../abtest/v3.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the analytics state (its A/B tests and events), and which indexes exist. */
type Uses = Pick<Engine, 'analytics' | 'indexes'>;

const DEFAULT_LIMIT = 10;

function existing(ctx: OperationContext<'id', Uses>): ABTest {
  const id = Number(ctx.params.id);
  if (!/^\d+$/.test(ctx.params.id) || !Number.isSafeInteger(id)) throw badRequest(`Invalid A/B test ID "${ctx.params.id}": expected an integer`);
  const test = ctx.engine.analytics.abTests.get(id);
  if (!test) throw abTestNotFound();
  checkIndex(ctx.caller, test.variants[0].index);
  return test;
}

/** v3 creates the tests v2 does (one state), from v3's body. */
export const addABTestsV3 = (ctx: OperationContext<never, Uses>) => createABTest(ctx, newABTestV3);

export function getABTestV3(ctx: OperationContext<'id', Uses>) {
  return describeABTestV3(existing(ctx), ctx.engine.analytics.store);
}

export function listABTestsV3(ctx: OperationContext<never, Uses>) {
  const offset = intParam(ctx, 'offset', 0);
  const limit = intParam(ctx, 'limit', DEFAULT_LIMIT);
  const order = listOrderV3(ctx.query.direction);
  const { indexPrefix = '', indexSuffix = '' } = ctx.query;
  const visible = [...ctx.engine.analytics.abTests.values()]
    .filter((t) => mayReach(ctx.caller, t.variants[0].index))
    .filter((t) => t.variants[0].index.startsWith(indexPrefix) && t.variants[0].index.endsWith(indexSuffix))
    .sort(order);
  const abtests = visible.slice(offset, offset + limit).map((t) => describeABTestV3(t, ctx.engine.analytics.store));
  return { abtests, count: abtests.length, total: visible.length };
}

export function getTimeseriesV3(ctx: OperationContext<'id', Uses>) {
  return timeseriesV3(existing(ctx), ctx.engine.analytics.store, ctx.query);
}
