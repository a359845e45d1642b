// The metrics recorder: what this process served, in time buckets at each
// period's resolution — operations, search latency (integer milliseconds,
// kept as counts per value so percentiles are exact), peak queries per
// second, indexing time per task, records — per scope (the app, an index,
// a server), plus incidents (internal errors) for the last 30 days.
import { DEGRADED_FOR_MS, INCIDENT_HISTORY_MS, PERIOD_NAMES, PERIODS, startOf, type Period } from './periods.js';

export interface Bucket {
  /** Start of the bucket, ms since the epoch. */
  t: number;
  operations: number;
  searchOperations: number;
  writeOperations: number;
  /** Search latency: milliseconds → number of searches that took them. */
  latency: Map<number, number>;
  latencySum: number;
  latencyCount: number;
  /** Most searches served within one second. */
  peakQps: number;
  tasks: number;
  taskMs: number;
  /** Records stored at the last sample taken in this bucket. */
  records?: number;
}

export type Status = 'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage';

export interface Incident { t: number; v: { title: string; body: string; status: Status } }

export interface RequestFacts {
  kind: 'search' | 'write' | 'other';
  /** Queries in the call (a multi-query counts each). */
  queries: number;
  /** The indexes reached, one entry per query of a multi-query. */
  indexes: string[];
  server: string;
  ms: number;
  succeeded: boolean;
}

export interface TaskFacts { indexes: string[]; server: string; ms: number }

/** Incidents kept per server (the oldest go first). */
export const MAX_INCIDENTS = 1000;

export const APP_SCOPE = 'app';
export const indexScope = (name: string) => `index:${name}`;
export const serverScope = (name: string) => `server:${name}`;

const emptyBucket = (t: number): Bucket => ({
  t, operations: 0, searchOperations: 0, writeOperations: 0, latency: new Map(), latencySum: 0, latencyCount: 0,
  peakQps: 0, tasks: 0, taskMs: 0,
});

/** One scope at one resolution: buckets in time order, older than the period dropped. */
class Series {
  readonly buckets = new Map<number, Bucket>();
  /** The bucket found last: every call of a second, of ten, lands in the same one (no lookup by time). */
  private latest: Bucket | undefined;
  constructor(private readonly period: Period) {}

  at(now: number): Bucket {
    const latest = this.latest;
    if (latest !== undefined && now >= latest.t && now < latest.t + this.period.step) return latest;
    const t = startOf(now, this.period.step);
    let bucket = this.buckets.get(t);
    if (!bucket) {
      this.buckets.set(t, (bucket = emptyBucket(t)));
      this.prune(now);
    }
    return (this.latest = bucket);
  }

  private prune(now: number): void {
    for (const t of this.buckets.keys()) {
      if (t > now - this.period.span - this.period.step) break;
      this.buckets.delete(t);
    }
  }
}

/**
 * The finest step of the periods: every coarser step is a multiple of it,
 * so that one of its buckets lies within one bucket of every series.
 */
const FINEST_STEP = Math.min(...PERIOD_NAMES.map((name) => PERIODS[name].step));

/** Adds `source`'s figures to `target`'s (sums, the peak the higher; records are sampled, not added). */
function addInto(target: Bucket, source: Bucket): void {
  target.operations += source.operations;
  target.searchOperations += source.searchOperations;
  target.writeOperations += source.writeOperations;
  for (const [ms, count] of source.latency) target.latency.set(ms, (target.latency.get(ms) ?? 0) + count);
  target.latencySum += source.latencySum;
  target.latencyCount += source.latencyCount;
  target.peakQps = Math.max(target.peakQps, source.peakQps);
  target.tasks += source.tasks;
  target.taskMs += source.taskMs;
}

/**
 * Every resolution of one scope, and the searches of the current second.
 * A call's figures go to one bucket of the finest step (`current`), added
 * to every series when a call of a later step comes or the scope is read:
 * each call updated the five series, a share of a search's time.
 */
class Scope {
  readonly series = new Map(PERIOD_NAMES.map((name) => [name, new Series(PERIODS[name])]));
  private current: Bucket | undefined;
  private second = -1;
  private searchesThisSecond = 0;

  /** Changes the bucket of `now` of every series (tasks, records: a few a second at most). */
  update(now: number, change: (bucket: Bucket) => void): void {
    for (const series of this.series.values()) change(series.at(now));
  }

  /** The bucket of the finest step that collects the calls of `now` (see the class comment). */
  currentAt(now: number): Bucket {
    const current = this.current;
    if (current !== undefined && now >= current.t && now < current.t + FINEST_STEP) return current;
    this.addCurrent();
    return (this.current = emptyBucket(startOf(now, FINEST_STEP)));
  }

  /** Adds the calls collected so far to every series (see the class comment). */
  addCurrent(): void {
    const current = this.current;
    if (current === undefined) return;
    this.current = undefined;
    for (const series of this.series.values()) addInto(series.at(current.t), current);
  }

  /** Searches so far in the current second. */
  countSearches(now: number, queries: number): number {
    const second = Math.floor(now / 1000);
    if (second !== this.second) { this.second = second; this.searchesThisSecond = 0; }
    return (this.searchesThisSecond += queries);
  }
}

export class Metrics {
  readonly startedAt: number;
  private readonly scopes = new Map<string, Scope>();
  private readonly incidents = new Map<string, Incident[]>();

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  recordRequest(facts: RequestFacts): void {
    const now = this.now();
    this.recordOn(APP_SCOPE, facts, facts.queries, now);
    this.recordOn(serverScope(facts.server), facts, facts.queries, now);
    facts.indexes.forEach((name, i) => {
      if (facts.indexes.indexOf(name) !== i) return; // each index once, with all of its queries
      this.recordOn(indexScope(name), facts, facts.indexes.filter((n) => n === name).length, now);
    });
  }

  private recordOn(key: string, facts: RequestFacts, queries: number, now: number): void {
    const scope = this.scope(key);
    const qps = facts.kind === 'search' ? scope.countSearches(now, queries) : 0;
    const bucket = scope.currentAt(now);
    bucket.operations++;
    if (facts.kind === 'write') bucket.writeOperations++;
    if (facts.kind !== 'search') return;
    bucket.searchOperations += queries;
    bucket.peakQps = Math.max(bucket.peakQps, qps);
    if (!facts.succeeded) return;
    const ms = Math.round(facts.ms);
    bucket.latency.set(ms, (bucket.latency.get(ms) ?? 0) + 1);
    bucket.latencySum += facts.ms;
    bucket.latencyCount++;
  }

  recordTask(facts: TaskFacts): void {
    const now = this.now();
    for (const key of this.scopesOf(facts.indexes, facts.server)) {
      this.scope(key).update(now, (b) => { b.tasks++; b.taskMs += facts.ms; });
    }
  }

  /** Records stored now, per index; the app scope gets their total. */
  sampleRecords(perIndex: Map<string, number>): void {
    const now = this.now();
    let total = 0;
    for (const [name, count] of perIndex) {
      total += count;
      this.scope(indexScope(name)).update(now, (b) => { b.records = count; });
    }
    this.scope(APP_SCOPE).update(now, (b) => { b.records = total; });
  }

  recordIncident(server: string, title: string, body: string): void {
    const list = this.incidentList(server);
    list.push({ t: this.now(), v: { title, body, status: 'degraded_performance' } });
    if (list.length > MAX_INCIDENTS) list.shift();
  }

  /** The server's incidents of the last 30 days, oldest first. */
  incidentsOf(server: string): Incident[] {
    return [...this.incidentList(server)];
  }

  statusOf(server: string): Status {
    const last = this.incidentList(server).at(-1);
    return last && this.now() - last.t < DEGRADED_FOR_MS ? 'degraded_performance' : 'operational';
  }

  /**
   * One bucket per step of the period, oldest first, from the later of the
   * period's start and this process's start (earlier figures are unknown).
   * `history` also yields the retained buckets before the window (for
   * values carried forward, such as records).
   */
  buckets(scopeKey: string, periodName: string): { points: Bucket[]; before: Bucket[] } {
    const period = PERIODS[periodName];
    const now = this.now();
    const first = Math.max(startOf(now - period.span + period.step, period.step), startOf(this.startedAt, period.step));
    const scope = this.scopes.get(scopeKey);
    scope?.addCurrent();
    const kept = scope?.series.get(periodName)?.buckets ?? new Map<number, Bucket>();
    const points: Bucket[] = [];
    for (let t = first; t <= now; t += period.step) points.push(kept.get(t) ?? emptyBucket(t));
    return { points, before: [...kept.values()].filter((b) => b.t < first) };
  }

  private scopesOf(indexes: string[], server: string): string[] {
    return [APP_SCOPE, serverScope(server), ...new Set(indexes.map(indexScope))];
  }

  private scope(key: string): Scope {
    let scope = this.scopes.get(key);
    if (!scope) this.scopes.set(key, (scope = new Scope()));
    return scope;
  }

  private incidentList(server: string): Incident[] {
    let list = this.incidents.get(server);
    if (!list) this.incidents.set(server, (list = []));
    const oldest = this.now() - INCIDENT_HISTORY_MS;
    while (list.length > 0 && list[0].t < oldest) list.shift();
    return list;
  }
}
