// Hostile traffic against a real server (`serve` on loopback, as `lantern
// serve` sets it up, with its root page): every malformed call is answered
// 4xx with a JSON `message`, never 5xx. First the two calls a fuzzing storm
// found answered 500 (a body nesting arrays 10,000 deep; `PATCH //%2F`),
// then a seeded fuzz of methods, targets, headers, bodies and raw bytes.
// FUZZ_SEED and FUZZ_N replace the seed and the number of requests (to hunt).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPage } from '../../src/server/static.js';
import { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID, openEngine } from '../api/helpers.js';
import { serveHere, type Served } from '../support/in-process-server.js';
import { hostileRequests, sendHostile, type HostileAnswer, type HostileRequest } from '../../bench/support/hostile-requests.mjs';

let engine: Lantern;
let served: Served;
let address: { host: string; port: number };
let base: string;

beforeAll(async () => {
  engine = await openEngine();
  await engine.request({ method: 'PUT', path: '/1/indexes/films/settings', headers: ADMIN_HEADERS, body: { attributesForFaceting: ['genre'] } });
  await engine.request({ method: 'POST', path: '/1/indexes/films', headers: ADMIN_HEADERS, body: { title: 'Alien', genre: 'horror' } });
  await engine.waitForTasks();
  served = await serveHere(engine, { fallback: rootPage({ name: 'lantern-search', version: '0' }), timeouts: { headers: 2000, request: 4000 } });
  address = { host: '127.0.0.1', port: served.port };
  base = served.origin;
});

afterAll(async () => {
  await served.close();
  await engine.close();
});

/** A refusal as the API words one: a 4xx, JSON, a message. */
function expectRefusal(answer: HostileAnswer, status?: number): void {
  if (status !== undefined) expect(answer.status, answer.text).toBe(status);
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
  expect(answer.status, answer.text).toBeLessThan(500);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(JSON.parse(answer.text)).toEqual(expect.objectContaining({ message: expect.any(String) }));
}

const call = (method: string, target: string, body?: string, headers: Record<string, string> = ADMIN_HEADERS) =>
  sendHostile(address, { method, target, headers, ...(body === undefined ? {} : { body: Buffer.from(body) }) });

describe('the calls the storm answered 500', () => {
  const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
  const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);

  it('a query whose filters nest 10,000 deep is a 400 naming the depth; the index still answers', async () => {
    for (const field of ['facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters', 'insidePolygon', 'userData']) {
      for (const deep of [deepArray, deepObject]) {
        const single = await call('POST', '/1/indexes/films/query', `{"${field}":${deep}}`);
        expectRefusal(single, 400);
        expect(JSON.parse(single.text).message).toMatch(/nests .* more than \d+ levels/);
        expectRefusal(await call('POST', '/1/indexes/*/queries', `{"requests":[{"indexName":"films","${field}":${deep}}]}`), 400);
      }
    }
    const found = await call('POST', '/1/indexes/films/query', '{"query":"alien","facetFilters":[["genre:horror"]]}');
    expect(JSON.parse(found.text).nbHits).toBe(1);
  });

  it('a record nested as deep as a snapshot holds (64 levels) is still written through a batch', async () => {
    let record: unknown = 'deep';
    for (let i = 0; i < 63; i++) record = { a: record };
    const batch = await call('POST', '/1/indexes/*/batch', JSON.stringify({ requests: [{ action: 'addObject', indexName: 'films', body: { objectID: 'deep', nested: record } }] }));
    expect(batch.status, batch.text).toBe(200);
  });

  it('`//%2F` and other targets that start with `//` are 404 with a JSON message, whatever the method', async () => {
    for (const method of ['PATCH', 'GET', 'HEAD', 'POST', 'DELETE']) {
      for (const target of ['//%2F', '//', '//x/1/indexes', '//%2F?a=1']) {
        const answer = await call(method, target);
        if (method === 'HEAD') expect(answer.status).toBe(404);
        else expectRefusal(answer, 404);
      }
    }
    expect((await fetch(`${base}/`)).status).toBe(200); // the root page still answers
  });

  it('bytes node:http cannot read, CONNECT and oversized headers get a JSON 4xx too', async () => {
    for (const [raw, status] of [
      ['GARBAGE\r\n\r\n', 400],
      ['CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\n', 405],
      [`GET /1/indexes HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431],
    ] as const) {
      expectRefusal(await sendHostile(address, { method: '', target: '', headers: {}, raw: Buffer.from(raw) }), status);
    }
  });
});

describe('HTTP fuzz', () => {
  const seed = Number(process.env.FUZZ_SEED ?? 46);
  const count = Number(process.env.FUZZ_N ?? 3000);

  it(`${count} seeded hostile requests (seed ${seed}): never a 5xx, never unanswered, a JSON message on every 4xx`, async () => {
    const next = hostileRequests(seed, { appId: APP_ID, apiKey: ADMIN_KEY });
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    const check = (request: HostileRequest, answer: HostileAnswer) => {
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const shown = `${request.raw ? JSON.stringify(request.raw.toString('latin1').slice(0, 80)) : `${request.method} ${request.target.slice(0, 80)}`} → ${answer.status} ${answer.text.slice(0, 120)}`;
      if (answer.status === 0 || answer.status >= 500) failures.push(shown);
      else if (answer.status >= 400 && request.method !== 'HEAD') {
        let message: unknown;
        try { message = (JSON.parse(answer.text) as { message?: unknown }).message; } catch { /* not JSON */ }
        if (!answer.contentType.startsWith('application/json') || typeof message !== 'string') failures.push(`no JSON message: ${shown}`);
      }
    };
    // eight callers at once, each taking the next request: bounded in count, and in time by the test's timeout
    let sent = 0;
    const caller = async () => {
      while (sent < count) {
        sent++;
        const request = next();
        check(request, await sendHostile(address, request, 8000));
      }
    };
    await Promise.all(Array.from({ length: 8 }, caller));
    expect(failures.slice(0, 20)).toEqual([]);
    // the requests reached the engine: answers of many kinds, successes among them
    expect(Object.keys(statuses).length).toBeGreaterThan(5);
    expect(statuses[200]).toBeGreaterThan(0);
    expect(statuses[400]).toBeGreaterThan(count / 20);
  }, 120_000);
});

describe('a full write queue', () => {
  it('a write that finds no room within maxWriteWaitMs is answered 503 with Retry-After at once, and nothing of it is written', async () => {
    const full = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, maxQueuedRecords: 100, maxWriteWaitMs: 300 });
    const queueServer = await serveHere(full);
    const url = queueServer.origin;
    const batch = (tag: string) => fetch(`${url}/1/indexes/stalled/batch`, {
      method: 'POST', headers: ADMIN_HEADERS,
      body: JSON.stringify({ requests: Array.from({ length: 60 }, (_, i) => ({ action: 'addObject', body: { objectID: `${tag}${i}` } })) }),
    });
    try {
      // the queue applies nothing for 3 s (what a long snapshot does)
      const stall = full.tasks.exclusive(() => new Promise((resume) => setTimeout(resume, 3000)));
      expect((await batch('a')).status).toBe(200); // 60 of 100 records queued: room
      const started = performance.now();
      const refused = await batch('b'); // 120 > 100: no room for 3 s
      const waited = performance.now() - started;
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect((await refused.json() as { message: string }).message).toMatch(/write queue is full/);
      expect(waited).toBeGreaterThanOrEqual(290);
      expect(waited).toBeLessThan(1500); // the bound, well before the 3 s stall ends
      await stall;
      await full.waitForTasks();
      const ids = async () => ((await full.request({ method: 'POST', path: '/1/indexes/stalled/browse', headers: ADMIN_HEADERS, body: {} })).body as { hits: Array<{ objectID: string }> }).hits.map((h) => h.objectID[0]);
      expect(new Set(await ids())).toEqual(new Set(['a']));
      expect((await batch('b')).status).toBe(200); // sent again once there is room
      await full.waitForTasks();
      expect(new Set(await ids())).toEqual(new Set(['a', 'b']));
    } finally {
      await queueServer.close();
      await full.close();
    }
  }, 20_000);
});
