// The A/B test endpoints: create, read, list, stop, delete.
import { ApiError, badRequest, notFound, type ErrorCode } from '../util/errors.js';
import { checkIndex, mayReach } from '../auth/restrictions.js';
import { conflictingTest, indexesOf, newABTest, statusOf, type ABTest } from '../abtest/tests.js';
import { describeABTest } from '../abtest/metrics.js';
import { estimateABTest as estimate } from '../abtest/estimate.js';
import type { OperationContext } from './types.js';
import { fieldsOf } from './body-values.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: A/B tests: the analytics state, and which indexes exist. */
type Uses = Pick<Engine, 'analytics' | 'indexes'>;

const DEFAULT_LIMIT = 10;

/** A missing test, in the service's words (clients match on them): v2 and v3 alike. */
export const abTestNotFound = () => notFound('ABTestID not found');

function idParam(ctx: OperationContext<'id', Uses>, invalid: ErrorCode): number {
  const id = Number(ctx.params.id);
  if (!/^\d+$/.test(ctx.params.id) || !Number.isSafeInteger(id)) throw new ApiError(invalid, 'Invalid A/B test ID');
  return id;
}

function existing(ctx: OperationContext<'id', Uses>, invalidId: ErrorCode): ABTest {
  const test = ctx.engine.analytics.abTests.get(idParam(ctx, invalidId));
  if (!test) throw abTestNotFound();
  checkIndex(ctx.caller, test.variants[0].index);
  return test;
}

async function put(ctx: OperationContext<never, Uses>, test: ABTest) {
  const taskID = await ctx.engine.analytics.write({ type: 'analytics', action: 'putABTest', test });
  return { abTestID: test.abTestID, index: test.variants[0].index, taskID };
}

/** Reads a test from a request body, the v2 or the v3 shape, giving it `id`. */
export type TestParser = (body: unknown, id: number, now: number, indexExists: (name: string) => boolean) => ABTest;

export const addABTests = (ctx: OperationContext<never, Uses>) => createABTest(ctx, newABTest);

/** Creates the test a body describes: its indexes reachable by the key, none of them in a running test. */
export async function createABTest(ctx: OperationContext<never, Uses>, parse: TestParser) {
  const state = ctx.engine.analytics;
  const now = Date.now();
  const test = parse(ctx.body, state.lastABTestID + 1, now, (name) => ctx.engine.indexes.has(name));
  for (const index of indexesOf(test)) checkIndex(ctx.caller, index);
  const running = conflictingTest(state.abTests.values(), indexesOf(test), now);
  if (running) throw new ApiError('unprocessable', `A/B test ${running.abTestID} is already running on one of these indexes`);
  state.lastABTestID = test.abTestID; // reserved now: a concurrent create gets the next id
  return put(ctx, test);
}

export function getABTest(ctx: OperationContext<'id', Uses>) {
  return describeABTest(existing(ctx, 'invalid_request'), ctx.engine.analytics.store);
}

/** A non-negative integer query parameter of the list operations (v2 and v3); `fallback` when absent. */
export function intParam(ctx: OperationContext<never, Uses>, name: string, fallback: number): number {
  const text = ctx.query[name];
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) throw badRequest(`Invalid value for "${name}": expected a non-negative integer`);
  return n;
}

export function listABTests(ctx: OperationContext<never, Uses>) {
  const offset = intParam(ctx, 'offset', 0);
  const limit = intParam(ctx, 'limit', DEFAULT_LIMIT);
  const { indexPrefix = '', indexSuffix = '' } = ctx.query;
  const visible = [...ctx.engine.analytics.abTests.values()]
    .filter((t) => mayReach(ctx.caller, t.variants[0].index))
    .filter((t) => t.variants[0].index.startsWith(indexPrefix) && t.variants[0].index.endsWith(indexSuffix))
    .sort((a, b) => a.abTestID - b.abTestID);
  const abtests = visible.slice(offset, offset + limit).map((t) => describeABTest(t, ctx.engine.analytics.store));
  return { abtests, count: abtests.length, total: visible.length };
}

/** Stops a running test (metadata and metrics kept); a test that is not running stays as it is. */
export async function stopABTest(ctx: OperationContext<'id', Uses>) {
  const test = existing(ctx, 'unprocessable');
  if (statusOf(test) !== 'active') return put(ctx, test);
  const at = new Date().toISOString();
  return put(ctx, { ...test, status: 'stopped', stoppedAt: at, updatedAt: at });
}

export async function deleteABTest(ctx: OperationContext<'id', Uses>) {
  const test = existing(ctx, 'unprocessable');
  const taskID = await ctx.engine.analytics.write({ type: 'analytics', action: 'deleteABTest', id: test.abTestID });
  return { abTestID: test.abTestID, index: test.variants[0].index, taskID };
}

/** POST /2/abtests/estimate (today's client): sample sizes and duration from the control index's recent traffic. */
export function estimateABTest(ctx: OperationContext<never, Uses>) {
  const { variants } = fieldsOf(ctx.body);
  for (const v of Array.isArray(variants) ? variants : []) if (typeof (v as { index?: unknown })?.index === 'string') checkIndex(ctx.caller, (v as { index: string }).index);
  return estimate(ctx.body, ctx.engine.analytics.store, (name) => ctx.engine.indexes.has(name));
}
