// Memory held after a storm of hostile requests (issue #46: a fuzzing storm
// of 60,000 calls left the process 826 MiB larger). A real server (`serve`
// from the built dist/, as `lantern serve` sets it up) in this process gets
// a bounded storm of seeded hostile requests on loopback
// (bench/support/hostile-requests.mjs) beside a few ordinary writes and
// searches; then garbage is collected and the heap and RSS are printed
// before and after, with what holds the rest: the call log (GET /1/logs),
// request metrics per scope, rate-limit windows, analytics events.
//
//   node --expose-gc bench/hostile-memory.mjs [--requests 20000] [--seconds 120] [--seed 46]
import { parseArgs } from 'node:util';
import { Lantern } from 'lantern-search';
import { serve } from 'lantern-search/node';
import { hostileRequests, sendHostile } from './support/hostile-requests.mjs';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '20000' }, seconds: { type: 'string', default: '120' }, seed: { type: 'string', default: '46' } },
});
const REQUESTS = Number(values.requests);
const DEADLINE = performance.now() + Number(values.seconds) * 1000;
const CONCURRENCY = 16;
const APP = { appId: 'STORM', apiKey: 'storm-admin-key' };

const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
if (!gc) throw new Error('run with node --expose-gc');

const MiB = 1024 * 1024;
/** Heap used and RSS in MiB after a full collection. */
function memory() {
  gc?.();
  gc?.();
  const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
  return { heapMiB: heapUsed / MiB, rssMiB: rss / MiB, externalMiB: (external + arrayBuffers) / MiB };
}

/**
 * The heap a structure holds, measured by letting it go: `drop` empties it, a collection follows.
 * @param {() => void} drop
 */
function heldBy(drop) {
  const before = memory().heapMiB;
  drop();
  return before - memory().heapMiB;
}

const engine = await Lantern.open({ ...APP, adminKey: APP.apiKey, maxWriteWaitMs: 2000 });
const headers = { 'x-algolia-application-id': APP.appId, 'x-algolia-api-key': APP.apiKey };
await engine.request({ method: 'POST', path: '/1/indexes/films/batch', headers, body: { requests: Array.from({ length: 1000 }, (_, i) => ({ action: 'addObject', body: { objectID: String(i), title: `film ${i}`, genre: ['drama', 'horror'][i % 2] } })) } });
await engine.waitForTasks();
const server = await serve(engine, { port: 0, timeouts: { headers: 2000, request: 4000 } });
const address = { host: '127.0.0.1', port: /** @type {import('node:net').AddressInfo} */ (server.address()).port };

const before = memory();
const next = hostileRequests(Number(values.seed), { appId: APP.appId, apiKey: APP.apiKey });
/** @type {Record<number, number>} */
const statuses = {};
let sent = 0;
const started = performance.now();
const caller = async () => {
  while (sent < REQUESTS && performance.now() < DEADLINE) {
    sent++;
    const { status } = await sendHostile(address, next(), 8000);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, caller));
const seconds = (performance.now() - started) / 1000;
await engine.waitForTasks();
const after = memory();

// what holds the rest: each structure's entries, then the heap it frees when emptied
const services = /** @type {any} */ (engine).services;
const metrics = /** @type {any} */ (engine).metrics;
const events = /** @type {any} */ (engine).analytics?.events;
const held = {
  callLogEntries: services.callLog.newestFirst().length,
  metricsScopes: metrics.scopes?.size,
  rateLimitWindows: services.keyCalls.windows?.size,
  analyticsWindows: services.analyticsCalls.windows?.size,
  searchEvents: events?.searches?.length,
  insightEvents: events?.events?.length,
  indexes: engine.indexes.size,
};
const freed = {
  callLogMiB: heldBy(() => { services.callLog.ring.length = 0; }),
  metricsMiB: heldBy(() => metrics.scopes?.clear()),
  rateLimitMiB: heldBy(() => { services.keyCalls.windows?.clear(); services.analyticsCalls.windows?.clear(); }),
};
const rest = memory();

server.closeAllConnections();
server.close();
await engine.close();

/** @param {number} n */
const f = (n) => n.toFixed(1);
console.log(`${sent} hostile requests in ${f(seconds)} s (${Math.round(sent / seconds)}/s), ${CONCURRENCY} at once; answers: ${JSON.stringify(statuses)}`);
console.log(`heap  before ${f(before.heapMiB)} MiB, after ${f(after.heapMiB)} MiB (+${f(after.heapMiB - before.heapMiB)})`);
console.log(`rss   before ${f(before.rssMiB)} MiB, after ${f(after.rssMiB)} MiB (+${f(after.rssMiB - before.rssMiB)})`);
console.log(`held: ${JSON.stringify(held)}`);
console.log(`freed when emptied: call log ${f(freed.callLogMiB)} MiB, request metrics ${f(freed.metricsMiB)} MiB, rate-limit windows ${f(freed.rateLimitMiB)} MiB; heap left ${f(rest.heapMiB)} MiB`);
