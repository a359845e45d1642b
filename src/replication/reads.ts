// The reads a replica answers, and how it answers one. The operations are
// pure reads of the state every replica holds (records, settings, synonyms,
// rules, dictionaries, A/B tests): searches of every kind, facet searches,
// browsing, getting records, settings, synonyms and rules. Everything else
// (writes, tasks, keys, logs, analytics reports, monitoring) is answered
// by the writer. The router checked the call before forwarding it; the
// replica runs only the operation's handler.
import { ApiError } from '../util/errors.js';
import { handlerFor, readsRecords } from '../api/router.js';
import { ROUTES, type RouteOp } from '../api/routes.js';
import { Reply, type ApiServices } from '../api/types.js';
import type { Engine } from '../engine/engine.js';
import type { ReadAnswer, ReadCall } from './protocol.js';

const FORWARDED: readonly RouteOp[] = [
  'search', 'searchSingleIndex', 'searchWithQueryString', 'searchForFacetValues', 'browse', 'browseWithQueryString',
  'getObject', 'getObjects', 'getSettings', 'getSynonym', 'searchSynonyms', 'getRule', 'searchRules',
];

/** The operations replicas answer. */
export const REPLICA_READS: ReadonlySet<string> = new Set(FORWARDED);

const RECORD_READS: ReadonlySet<string> = new Set(ROUTES.filter(readsRecords).map((r) => r.op));

/** Answers a forwarded call on a replica's engine: its handler's result, or its error. */
export async function answerRead(engine: Engine, services: ApiServices, op: string, call: ReadCall): Promise<ReadAnswer> {
  if (!REPLICA_READS.has(op)) return { ok: false, message: `${op} is not answered by replicas` };
  // a replica paces the writes it applies around its reads as the writer does (see write-pacer.ts)
  if (RECORD_READS.has(op)) engine.pacer.noteRead();
  try {
    const result = await handlerFor(op as RouteOp)({ ...call, engine, services, step: noStep });
    if (!(result instanceof Reply)) return { ok: true, result };
    const reply = { status: result.status, ...(result.headers ? { headers: result.headers } : {}), ...(result.nbHits !== undefined ? { nbHits: result.nbHits } : {}) };
    return { ok: true, result: result.body, reply };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, code: e.code, message: e.message };
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

const noStep = (): Promise<void> => Promise.resolve();

/** The answer as the router takes a handler's: its result, a reply, or the error thrown again. */
export function resultOf(answer: ReadAnswer, headers: Record<string, string>): unknown {
  if (!answer.ok) throw answer.code ? new ApiError(answer.code, answer.message) : new Error(answer.message);
  const reply = answer.reply;
  return new Reply(reply?.status ?? 200, answer.result, { ...reply?.headers, ...headers }, reply?.nbHits);
}
