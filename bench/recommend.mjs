// Recommend: training from a million insight events (time, memory), an
// increment of 1,000 events, getRecommendations latency at 100k records,
// the trained models in a snapshot against training them again at load,
// and recall per model on planted signals. Prints numbers.
//
//   npm run build && node --expose-gc bench/recommend.mjs [--events 1000000] [--records 100000]
import { parseArgs } from 'node:util';
import { setInterval, clearInterval } from 'node:timers';
import { mulberry32 } from './corpus.mjs';

const { Lantern } = await import('lantern-search');
const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' }, records: { type: 'string', default: '100000' } } });
const EVENTS = Number(values.events);
const RECORDS = Number(values.records);
const USERS = Math.round(EVENTS / 20);
const DAY = 86_400_000;
const INDEX = 'shop';
const now = Date.now();
const rnd = mulberry32(42);
const heap = () => { globalThis.gc?.(); return process.memoryUsage().heapUsed; };
const mb = (/** @type {number} */ bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
const ms = (/** @type {number} */ t) => `${t.toFixed(t < 10 ? 2 : 0)} ms`;
const pick = (/** @type {number} */ n) => Math.floor(rnd() * n);
let id = 0;
/** @type {(eventType: string, userToken: string, objectIDs: string[], at: number) => any} an event as the engine stores it (src/analytics/events.ts) */
const event = (eventType, userToken, objectIDs, at) => ({
  id: `e${id++}`, eventType, eventName: eventType, index: INDEX, userToken, objectIDs, at, receivedAt: at,
});

// Planted: 200 pairs bought together (p{2i}, p{2i+1}) by 40 users each; 20 taste groups of 50 items
// clicked by 100 users each; 10 items rising today. The rest is random noise over every record.
const PAIRS = 200, GROUPS = 20, GROUP_ITEMS = 50, RISING = 10;
const TASTE_START = 10_000, RISING_START = 20_000;
function plantedEvents() {
  const out = [];
  for (let i = 0; i < PAIRS; i++) {
    for (let u = 0; u < 40; u++) out.push(event('conversion', `pair${i}_${u}`, [`p${2 * i}`, `p${2 * i + 1}`], now - pick(20) * DAY));
  }
  for (let g = 0; g < GROUPS; g++) {
    for (let u = 0; u < 100; u++) {
      for (let k = 0; k < 10; k++) out.push(event('click', `taste${g}_${u}`, [`p${TASTE_START + g * GROUP_ITEMS + pick(GROUP_ITEMS)}`], now - pick(20) * DAY));
    }
  }
  for (let r = 0; r < RISING; r++) for (let k = 0; k < 60; k++) out.push(event('conversion', `rise${r}_${k}`, [`p${RISING_START + r}`], now - pick(3_600_000)));
  return out;
}
/** @param {number} n */
function noise(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const type = rnd() < 0.3 ? 'conversion' : 'click';
    out.push(event(type, `u${pick(USERS)}`, [`p${pick(RECORDS)}`], now - pick(29) * DAY - pick(DAY)));
  }
  return out;
}

const planted = plantedEvents();
const events = planted.concat(noise(EVENTS - planted.length));
for (let i = events.length - 1; i > 0; i--) { const j = pick(i + 1); [events[i], events[j]] = [events[j], events[i]]; }

const engine = await Lantern.open({ recommend: { freshnessMs: 60_000 } });
const records = Array.from({ length: RECORDS }, (_, i) => ({ objectID: `p${i}`, name: `Product ${i}`, brand: `b${i % 50}` }));
await engine.request({ method: 'PUT', path: `/1/indexes/${INDEX}/settings`, body: { attributesForFaceting: ['brand'] } });
for (let i = 0; i < RECORDS; i += 10_000) {
  await engine.request({ method: 'POST', path: `/1/indexes/${INDEX}/batch`, body: { requests: records.slice(i, i + 10_000).map((body) => ({ action: 'addObject', body })) } });
}
await engine.waitForTasks();

// training from the store (events added as the analytics section holds them)
const before = heap();
engine.analytics.store.add([], events);
const withEvents = heap();
let started = performance.now();
await engine.recommend.whenFresh();
const training = performance.now() - started;
const trained = heap();
console.log(`training from ${EVENTS.toLocaleString('en')} events: ${ms(training)}; models ${mb(trained - withEvents)} (the events themselves ${mb(withEvents - before)})`);

// an increment of 1,000 events: wall time, and the longest slice of main-thread work
const more = noise(1000);
engine.analytics.store.add([], more);
let longest = 0, last = performance.now();
const watch = setInterval(() => { const t = performance.now(); longest = Math.max(longest, t - last); last = t; }, 0);
started = performance.now();
await engine.recommend.refresh();
const increment = performance.now() - started;
clearInterval(watch);
console.log(`increment of 1,000 events: ${ms(increment)} (longest turn ${ms(Math.max(longest, 0))})`);

// the models in a snapshot (what an image carries) against training again at load
started = performance.now();
const image = JSON.stringify(engine.recommend.snapshot('replica'));
const packed = performance.now() - started;
started = performance.now();
const copy = new (/** @type {any} */ (engine.recommend.constructor))(() => engine.analytics.store, undefined, false);
copy.restore(JSON.parse(image));
const loaded = performance.now() - started;
console.log(`models in a snapshot: ${mb(image.length)} of JSON, ${ms(packed)} to write, ${ms(loaded)} to load (training again: ${ms(training)})`);

// getRecommendations latency
/** @param {Record<string, unknown>} request @returns {Promise<Array<{ objectID: string }>>} */
async function recommendations(request) {
  const response = await engine.request({ method: 'POST', path: '/1/indexes/*/recommendations', body: { requests: [{ indexName: INDEX, threshold: 0, maxRecommendations: 10, ...request }] } });
  return /** @type {any} */ (response.body).results[0].hits;
}
for (const [model, objectID] of /** @type {Array<[string, () => string | undefined]>} */ ([['bought-together', () => `p${pick(2 * PAIRS)}`], ['related-products', () => `p${TASTE_START + pick(GROUPS * GROUP_ITEMS)}`], ['trending-items', () => undefined]])) {
  const times = [];
  for (let i = 0; i < 500; i++) {
    const o = objectID();
    started = performance.now();
    await recommendations({ model, ...(o ? { objectID: o } : {}) });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`getRecommendations ${model} at ${RECORDS.toLocaleString('en')} records: p50 ${ms(times[250])}, p99 ${ms(times[495])}`);
}

// recall on the planted signals
let found = 0;
for (let i = 0; i < PAIRS; i++) if ((await recommendations({ model: 'bought-together', objectID: `p${2 * i}` }))[0]?.objectID === `p${2 * i + 1}`) found++;
console.log(`recall bought-together (the planted partner first): ${(found / PAIRS * 100).toFixed(1)}%`);
let inGroup = 0, total = 0;
for (let g = 0; g < GROUPS; g++) {
  for (let k = 0; k < 10; k++) {
    const base = TASTE_START + g * GROUP_ITEMS;
    const hits = await recommendations({ model: 'related-products', objectID: `p${base + k}` });
    total += hits.length;
    inGroup += hits.filter((h) => { const n = Number(h.objectID.slice(1)); return n >= base && n < base + GROUP_ITEMS; }).length;
  }
}
console.log(`precision@10 related-products (the same taste group): ${(inGroup / Math.max(1, total) * 100).toFixed(1)}%`);
const trending = await recommendations({ model: 'trending-items' });
const rising = trending.filter((h) => { const n = Number(h.objectID.slice(1)); return n >= RISING_START && n < RISING_START + RISING; }).length;
console.log(`recall@10 trending-items (the ${RISING} rising items): ${(rising / RISING * 100).toFixed(0)}%`);
await engine.close();

// looking-similar: the nearest by vector against an exact scan, on 5,000 vectors
const similar = await Lantern.open();
const DIM = 16;
const vectors = Array.from({ length: 5000 }, () => Array.from({ length: DIM }, () => rnd() - 0.5));
await similar.request({ method: 'PUT', path: '/1/indexes/v/settings', body: { embedders: { look: { source: 'userProvided', dimensions: DIM } } } });
await similar.request({ method: 'POST', path: '/1/indexes/v/batch', body: { requests: vectors.map((v, i) => ({ action: 'addObject', body: { objectID: `v${i}`, _vectors: { look: v } } })) } });
await similar.waitForTasks();
/** @type {(a: number[], b: number[]) => number} */
const cosine = (a, b) => { let d = 0, na = 0, nb = 0; for (let i = 0; i < DIM; i++) { d += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; } return d / Math.sqrt(na * nb); };
let hitsFound = 0;
for (let q = 0; q < 100; q++) {
  const exact = vectors.map((v, i) => [i, cosine(vectors[q], v)]).filter(([i]) => i !== q).sort((a, b) => b[1] - a[1]).slice(0, 10).map(([i]) => `v${i}`);
  const response = await similar.request({ method: 'POST', path: '/1/indexes/*/recommendations', body: { requests: [{ indexName: 'v', model: 'looking-similar', objectID: `v${q}`, threshold: 0, maxRecommendations: 10 }] } });
  hitsFound += /** @type {any} */ (response.body).results[0].hits.filter((/** @type {{ objectID: string }} */ h) => exact.includes(h.objectID)).length;
}
console.log(`recall@10 looking-similar (against an exact scan of 5,000 vectors): ${(hitsFound / 1000 * 100).toFixed(1)}%`);
await similar.close();
