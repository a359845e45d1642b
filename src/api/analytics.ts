// The analytics endpoints (/2/...): read-only reports over the searches and
// events of one index, at most 100 calls per minute per application.
import { checkIndex } from '../auth/restrictions.js';
import { indexParam, parseReportParams, type ReportParams } from '../analytics/params.js';
import * as reports from '../analytics/reports.js';
import type { Handler, OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the reports: the analytics state. */
type Uses = Pick<Engine, 'analytics'>;

const CALLS_PER_MINUTE = 100;

/** Counts one analytics call of the application (429 past the limit). */
function countCall(ctx: OperationContext<never, Uses>): void {
  ctx.services.analyticsCalls.hit('analytics', CALLS_PER_MINUTE);
}

type Report<Params extends string> = (scope: reports.Scope, params: ReportParams, ctx: OperationContext<Params, Uses>) => unknown;

function report<Params extends string = never>(build: Report<Params>): Handler<Params, Uses> {
  return (ctx) => {
    countCall(ctx);
    const params = parseReportParams(ctx.query);
    checkIndex(ctx.caller, params.index);
    return build(reports.Scope.of(ctx.engine.analytics.store, params), params, ctx);
  };
}

export const getStatus: Handler<never, Uses> = (ctx) => {
  countCall(ctx);
  const index = indexParam(ctx.query);
  checkIndex(ctx.caller, index);
  return reports.status(ctx.engine.analytics.store, index);
};

export const getTopSearches = report(reports.topSearches);
export const getSearchesCount = report(reports.searchesCount);
export const getSearchesNoResults = report(reports.searchesNoResults);
export const getNoResultsRate = report(reports.noResultRate);
export const getTopHits = report(reports.topHits);
export const getUsersCount = report(reports.usersCount);
export const getTopFilterAttributes = report(reports.topFilterAttributes);
export const getTopFiltersNoResults = report(reports.topFiltersNoResults);
export const getTopFilterForAttribute = report<'attribute'>((scope, params, ctx) => reports.topFilterValues(scope, params, ctx.params.attribute));
export const getTopCountries = report(reports.topCountries);
export const getAverageClickPosition = report(reports.averageClickPosition);
export const getClickThroughRate = report(reports.clickThroughRate);
export const getConversionRate = report(reports.conversionRate);
export const getSearchesNoClicks = report(reports.searchesNoClicks);
export const getNoClickRate = report(reports.noClickRate);
export const getClickPositions = report(reports.clickPositions);
export const getAddToCartRate = report(reports.addToCartRate);
export const getPurchaseRate = report(reports.purchaseRate);
export const getRevenue = report(reports.revenue);
