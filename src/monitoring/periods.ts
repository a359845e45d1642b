// The periods figures are kept and reported over, each with its resolution
// (one time point per step), as the monitoring client documents them.

export interface Period { span: number; step: number }

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const PERIODS: Record<string, Period> = {
  minute: { span: MINUTE, step: 10 * SECOND },
  hour: { span: HOUR, step: MINUTE },
  day: { span: DAY, step: 10 * MINUTE },
  week: { span: 7 * DAY, step: HOUR },
  month: { span: 30 * DAY, step: DAY },
};

export type PeriodName = keyof typeof PERIODS;

export const PERIOD_NAMES = Object.keys(PERIODS);

/** Incidents are kept (and reported) for this long: the spec's "last 30 days". */
export const INCIDENT_HISTORY_MS = 30 * DAY;

/** A server is degraded while its newest incident is younger than this. */
export const DEGRADED_FOR_MS = 5 * MINUTE;

/** Latency and indexing time are reported over this period. */
export const RECENT: PeriodName = 'day';

export const startOf = (t: number, step: number) => t - (t % step);
