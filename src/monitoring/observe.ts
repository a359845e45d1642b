// The two places figures come from: a request the router finishes and a
// task the engine applies. Each hook times the work, files its facts with
// the recorder, and turns an internal error into an incident.
import { ApiError } from '../util/errors.js';
import { indexesInRequests } from '../auth/restrictions.js';
import { userIDOf } from '../clusters/user-id.js';
import type { ClusterMap } from '../clusters/mapping.js';
import type { Metrics } from './metrics.js';
import type { WriteOperation } from '../engine/writes.js';
import type { RequestFacts } from './metrics.js';

/** What observing reads and files to (a port of the engine). */
export interface Observed {
  readonly clusters: ClusterMap;
  readonly metrics: Metrics;
  readonly indexes: ReadonlyMap<string, { readonly size: number }>;
}

const SEARCH_OPS = new Set(['search', 'searchSingleIndex', 'searchWithQueryString', 'searchForFacetValues']);
const WRITE_RIGHTS = new Set(['addObject', 'deleteObject', 'deleteIndex', 'editSettings']);

export interface ObservedCall {
  route: { op: string; method: string; right: string };
  params: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
  query?: Record<string, string>;
}

/** The cluster serving a user's calls (the first one for calls without a user). */
function serverFor(engine: Observed, userID: string | undefined): string {
  return (userID !== undefined && engine.clusters.clusterOf(userID)) || engine.clusters.names[0];
}

function kindOf(route: ObservedCall['route']): RequestFacts['kind'] {
  if (SEARCH_OPS.has(route.op)) return 'search';
  return route.method !== 'GET' && WRITE_RIGHTS.has(route.right) ? 'write' : 'other';
}

function indexesOf(call: ObservedCall): string[] {
  if (call.params.indexName !== undefined) return [call.params.indexName];
  try {
    return indexesInRequests(call.body);
  } catch {
    return [];
  }
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Runs an operation of the router, recording it (and an incident if it fails
 * with an internal error). A synchronous operation is recorded and answered
 * synchronously: most are, and a promise per call is allocation enough to
 * show in a search's time.
 */
export function observeRequest<T>(engine: Observed, call: ObservedCall, run: () => T | Promise<T>): T | Promise<T> {
  const started = performance.now();
  const server = serverFor(engine, userIDOf(call.headers, call.query));
  const finish = (succeeded: boolean, error?: unknown) => {
    if (!succeeded && !(error instanceof ApiError)) engine.metrics.recordIncident(server, `Internal error in ${call.route.op}`, describe(error));
    const requests = (call.body as { requests?: unknown } | undefined)?.requests;
    engine.metrics.recordRequest({
      kind: kindOf(call.route),
      queries: call.route.op === 'search' && Array.isArray(requests) ? requests.length : 1,
      // per-index figures only for indexes that exist: a name in a call is the caller's choice, and each
      // one kept a scope of its own (a storm of made-up names grew them without bound)
      indexes: indexesOf(call).filter((name) => engine.indexes.has(name)),
      server,
      ms: performance.now() - started,
      succeeded,
    });
  };
  let result: T | Promise<T>;
  try {
    result = run();
  } catch (e) {
    finish(false, e);
    throw e;
  }
  if (!(result instanceof Promise)) {
    finish(true);
    return result;
  }
  return result.then(
    (value) => { finish(true); return value; },
    (e: unknown) => { finish(false, e); throw e; },
  );
}

/** Applies a task, recording its indexing time and the records stored afterwards. */
/** Runs a task, which may apply in slices: `run` resolves with the milliseconds it was busy (searches ran between slices). */
export async function observeTask(engine: Observed, op: WriteOperation, run: () => Promise<number>): Promise<void> {
  const started = performance.now();
  const server = serverFor(engine, op.type === 'batch' ? op.userID : undefined);
  let busy: number | undefined;
  try {
    busy = await run();
  } catch (e) {
    engine.metrics.recordIncident(server, `Task on ${'indexName' in op ? op.indexName : 'the engine'} failed`, describe(e));
    throw e;
  } finally {
    const indexes = 'indexName' in op ? [op.indexName, ...(op.type === 'operation' ? [op.destination] : [])] : [];
    engine.metrics.recordTask({ indexes, server, ms: busy ?? performance.now() - started });
    engine.metrics.sampleRecords(new Map([...engine.indexes].map(([name, index]) => [name, index.size])));
  }
}
