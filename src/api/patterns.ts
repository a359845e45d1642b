// The analytics patterns endpoints (/3/patterns/*): the field catalog and
// the four queries over the recorded searches and events
// (src/analytics/patterns.ts). Queries count toward the analytics calls'
// limit (100 per minute per application, as the /2 reports) and reach only
// the indexes the key may: every index of the `indices` parameter, which
// the `index` query parameter, when given, must name.
import { badRequest } from '../util/errors.js';
import { checkIndex } from '../auth/restrictions.js';
import * as patterns from '../analytics/patterns.js';
import type { Checked } from '../analytics/patterns.js';
import { Reply, type Handler, type OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the analytics state (its searches and events). */
type Uses = Pick<Engine, 'analytics'>;

const CALLS_PER_MINUTE = 100;

/** The catalog does not change while the process runs: one text, one tag. */
const CATALOG = patterns.catalog();
const CATALOG_TAG = `"${hash(JSON.stringify(CATALOG))}"`;

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

export const getPatternsFields: Handler<never, Uses> = () =>
  new Reply(200, CATALOG, { ETag: CATALOG_TAG, 'Cache-Control': 'public, max-age=3600' });

/** Checks the caller may read every index the query reads, and that `index`, when given, names them. */
function checker(ctx: OperationContext<never, Uses>): (query: Checked) => void {
  return ({ indices }) => {
    const named = ctx.query.index;
    if (named !== undefined && named !== '') {
      const listed = new Set(named.split(',').map((i) => i.trim()));
      if (listed.size !== new Set(indices).size || indices.some((i) => !listed.has(i))) {
        throw badRequest(`The index query parameter (${named}) must name the indices of the parameters (${indices.join(',')})`);
      }
    }
    for (const index of indices) checkIndex(ctx.caller, index);
  };
}

type Query = (body: unknown, store: Engine['analytics']['store'], check: (q: Checked) => void) => unknown;

function query(run: Query): Handler<never, Uses> {
  return (ctx) => {
    ctx.services.analyticsCalls.hit('analytics', CALLS_PER_MINUTE);
    return run(ctx.body, ctx.engine.analytics.store, checker(ctx));
  };
}

export const queryPatternsTimeseries = query(patterns.timeseries);
export const queryPatternsScalar = query(patterns.scalar);
export const queryPatternsTable = query(patterns.table);
export const queryPatternsDistribution = query(patterns.distribution);
