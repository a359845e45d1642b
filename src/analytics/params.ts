// The query parameters of the analytics endpoints: index, the UTC day range
// (inclusive), paging, the analyticsTags filter, ordering. Wrong values → 400.
import { badRequest } from '../util/errors.js';

export const DAY_MS = 86_400_000;
/** Top lists stop at the top 1000. */
export const TOP_LIMIT = 1000;
const DEFAULT_LIMIT = 10;
/** Without startDate: seven days before today (eight days with today). */
const DEFAULT_DAYS_BACK = 7;
/**
 * How far back reports reach: the service keeps 90 days of analytics by
 * default. A range is cut to the last 90 days, today included (so a day
 * series cannot grow with the dates asked: endDate=9999-12-31 once
 * answered 93 MB in 8 s).
 */
export const RETENTION_DAYS = 90;

export type OrderBy = 'searchCount' | 'clickThroughRate' | 'conversionRate' | 'averageClickPosition';
const ORDER_BY: readonly OrderBy[] = ['searchCount', 'clickThroughRate', 'conversionRate', 'averageClickPosition'];

export interface ReportParams {
  index: string;
  /** First millisecond of startDate and first millisecond after endDate (UTC). */
  from: number;
  to: number;
  /** Every day of the range, `YYYY-MM-DD`. */
  days: string[];
  limit: number;
  offset: number;
  /** analyticsTags filter: an OR of AND-groups of tags; undefined = every search. */
  tags?: string[][];
  search?: string;
  clickAnalytics: boolean;
  /** Top searches: add-to-cart and purchase figures, and revenue per currency. */
  revenueAnalytics: boolean;
  orderBy: OrderBy;
  direction: 'asc' | 'desc';
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Whether `text` is a day of the calendar, `YYYY-MM-DD`. */
function isDay(text: string): boolean {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : NaN;
  return !Number.isNaN(ms) && dayOf(ms) === text;
}

function parseDay(name: string, text: string): number {
  if (!isDay(text)) throw badRequest(`Invalid value for "${name}": expected a date YYYY-MM-DD`);
  return Date.parse(`${text}T00:00:00Z`);
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/**
 * A bound of a range as its first and last millisecond: a UTC day, or (where
 * dates may be date-times: the patterns queries) an RFC 3339 instant.
 */
function parseBound(name: string, text: string, dateTimes: boolean): { first: number; last: number } {
  if (dateTimes && text.includes('T')) {
    const date = DATE_TIME.exec(text)?.[1];
    // the day checked on its own: Date.parse takes 2024-02-30 for March 1
    const ms = date !== undefined && isDay(date) ? Date.parse(text) : NaN;
    if (Number.isNaN(ms)) throw badRequest(`Invalid value for "${name}": expected a date YYYY-MM-DD or a date-time such as 2026-11-22T00:00:00Z`);
    return { first: ms, last: ms };
  }
  const day = parseDay(name, text);
  return { first: day, last: day + DAY_MS - 1 };
}

function parseCount(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < 0 || n > max) {
    throw badRequest(`Invalid value for "${name}": expected an integer between 0 and ${max}`);
  }
  return n;
}

function parseBool(name: string, text: string | undefined): boolean {
  if (text === undefined || text === 'false') return false;
  if (text === 'true') return true;
  throw badRequest(`Invalid value for "${name}": expected true or false`);
}

/** `tags` (the client's name) or `tag` (the spec's): `a`, `a OR b`, `a AND b`, `a AND b OR c`. */
export function parseTags(text: string | undefined): string[][] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return text.split(/\s+OR\s+/).map((group) => group.split(/\s+AND\s+/).map((t) => t.trim()).filter(Boolean));
}

export function matchesTags(tags: string[][] | undefined, searchTags: string[]): boolean {
  return tags === undefined || tags.some((group) => group.every((t) => searchTags.includes(t)));
}

/**
 * The days asked for, cut to the retention window (RETENTION_DAYS days at
 * most). A range holding none of those days answers empty figures (no day,
 * nothing counted), as the service does for dates older than what it keeps.
 */
function dayRange(query: Record<string, string>, now: number, dateTimes: boolean): Pick<ReportParams, 'from' | 'to' | 'days'> {
  const today = parseDay('endDate', dayOf(now));
  const asked = {
    from: query.startDate !== undefined ? parseBound('startDate', query.startDate, dateTimes).first : today - DEFAULT_DAYS_BACK * DAY_MS,
    to: (query.endDate !== undefined ? parseBound('endDate', query.endDate, dateTimes).last : today + DAY_MS - 1) + 1,
  };
  if (asked.from >= asked.to) throw badRequest('startDate must not be after endDate');
  const from = Math.max(asked.from, today - (RETENTION_DAYS - 1) * DAY_MS);
  const to = Math.min(asked.to, today + DAY_MS);
  if (from >= to) return { from, to: from, days: [] };
  const days: string[] = [];
  for (let d = from - (from % DAY_MS); d < to; d += DAY_MS) days.push(dayOf(d));
  return { from, to, days };
}

/** The index parameter alone (status, and every other endpoint's first check). */
export function indexParam(query: Record<string, string>): string {
  const index = query.index;
  if (index === undefined || index === '') throw badRequest('Missing parameter: index');
  return index;
}

/** A report's parameters; `dateTimes`: its dates may also be RFC 3339 date-times (the patterns queries). */
export function parseReportParams(query: Record<string, string>, now = Date.now(), { dateTimes = false } = {}): ReportParams {
  const clickAnalytics = parseBool('clickAnalytics', query.clickAnalytics);
  const orderBy = (query.orderBy ?? 'searchCount') as OrderBy;
  if (!ORDER_BY.includes(orderBy)) throw badRequest(`Invalid value for "orderBy": expected one of ${ORDER_BY.join(', ')}`);
  if (orderBy !== 'searchCount' && !clickAnalytics) throw badRequest(`orderBy=${orderBy} needs clickAnalytics=true`);
  const direction = query.direction ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') throw badRequest('Invalid value for "direction": expected asc or desc');
  return {
    index: indexParam(query),
    ...dayRange(query, now, dateTimes),
    limit: parseCount('limit', query.limit, DEFAULT_LIMIT, TOP_LIMIT),
    offset: parseCount('offset', query.offset, 0, Number.MAX_SAFE_INTEGER),
    tags: parseTags(query.tags ?? query.tag),
    search: query.search,
    clickAnalytics,
    revenueAnalytics: parseBool('revenueAnalytics', query.revenueAnalytics),
    orderBy,
    direction,
  };
}

/** A top list's page: the first 1000 entries at most, then offset and limit. */
export function pageOf<T>(items: T[], params: Pick<ReportParams, 'limit' | 'offset'>): T[] {
  return items.slice(0, TOP_LIMIT).slice(params.offset, params.offset + params.limit);
}

