// Calls answered in turns (src/server/call-turns.ts): in the order they came,
// a turn's worth at a time, one per turn while connections are being opened
// so that a busy server lets new connections in between its calls. First the
// turns themselves (counted by an immediate queued again each turn), then
// a real server: connections opened at once while connected clients keep it
// busy are answered before those clients have gone round many times.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallTurns } from '../../src/server/call-turns.js';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID, openEngine } from '../api/helpers.js';
import { serveHere, type Served } from '../support/in-process-server.js';
import { sendHostile } from '../../bench/support/hostile-requests.mjs';

/**
 * Runs `calls` through `turns` at once; returns, in the order the calls
 * started, each call's name and the turn of the event loop it started in
 * (counted by an immediate that queues itself again: once per turn).
 */
async function runCalls(turns: CallTurns, calls: Array<{ name: string; work?: () => Promise<void> }>): Promise<Array<[string, number]>> {
  let turn = 0;
  let counting = true;
  const count = () => { turn++; if (counting) setImmediate(count); };
  setImmediate(count);
  const started: Array<[string, number]> = [];
  await Promise.all(calls.map(({ name, work }) => turns.answer(async () => {
    started.push([name, turn]);
    await work?.();
  })));
  counting = false;
  return started;
}

/** The distinct turns of `started`'s calls. */
const turnsOf = (started: Array<[string, number]>) => new Set(started.map(([, turn]) => turn)).size;

const busyFor = (ms: number) => async () => {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* a call's work */ }
};

describe('calls in turns', () => {
  it('answers calls in the order they came, several in a turn while the turn has time', async () => {
    const started = await runCalls(new CallTurns(), [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(started.map(([name]) => name)).toEqual(['a', 'b', 'c']);
    expect(turnsOf(started)).toBe(1);
  });

  it('leaves the next call to the next turn once a turn has spent its time', async () => {
    const started = await runCalls(new CallTurns(), [{ name: 'a', work: busyFor(20) }, { name: 'b' }, { name: 'c' }]);
    expect(started.map(([name]) => name)).toEqual(['a', 'b', 'c']);
    // b and c, quick, share the turn after a's
    expect(started[1][1]).toBeGreaterThan(started[0][1]);
    expect(started[2][1]).toBe(started[1][1]);
  });

  it('answers one call per turn while connections are being accepted', async () => {
    const turns = new CallTurns();
    turns.noteConnection();
    const started = await runCalls(turns, [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(started.map(([name]) => name)).toEqual(['a', 'b', 'c']);
    expect(turnsOf(started)).toBe(3);
  });

  it('a call waiting on something else does not hold up the calls after it', async () => {
    let wake!: () => void;
    const asleep = new Promise<void>((resolve) => { wake = resolve; });
    const turns = new CallTurns();
    const events: string[] = [];
    const first = turns.answer(async () => { events.push('a starts'); await asleep; events.push('a done'); });
    const second = turns.answer(async () => { events.push('b starts'); });
    await second;
    wake();
    await first;
    expect(events).toEqual(['a starts', 'b starts', 'a done']);
  });

  it('a call that throws passes its error on and the next call still runs', async () => {
    const turns = new CallTurns();
    const failing = turns.answer(async () => { throw new Error('refused'); });
    const next = turns.answer(async () => 'answered');
    await expect(failing).rejects.toThrow('refused');
    await expect(next).resolves.toBe('answered');
  });
});

describe('a busy server lets new connections in', () => {
  let engine: Lantern;
  let served: Served;
  let port: number;

  beforeAll(async () => {
    engine = await openEngine();
    const records = Array.from({ length: 300 }, (_, i) => ({ objectID: String(i), title: `talk ${i} about cities and rivers`, body: 'words '.repeat(40 + (i % 20)) }));
    await engine.request({ method: 'POST', path: '/1/indexes/talks/batch', headers: ADMIN_HEADERS, body: { requests: records.map((body) => ({ action: 'addObject', body })) } });
    await engine.waitForTasks();
    served = await serveHere(engine);
    port = served.port;
  });

  afterAll(async () => {
    await served.close();
    await engine.close();
  });

  const search = (agent: Agent) => new Promise<void>((resolve, reject) => {
    const call = request({ host: '127.0.0.1', port, path: '/1/indexes/talks/query', method: 'POST', agent, headers: ADMIN_HEADERS }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`answered ${res.statusCode}`))));
    });
    call.once('error', reject);
    call.end(JSON.stringify({ query: 'cities rivers' }));
  });

  /** Runs `during` while `clients` connected clients search one after another; resolves with its result and how many calls they got answered. */
  async function whileBusy<T>(clients: number, during: (answeredSoFar: () => number) => Promise<T>): Promise<T> {
    const connected = new Agent({ keepAlive: true, maxSockets: clients });
    let answered = 0;
    let stop = false;
    const looping = Array.from({ length: clients }, async () => {
      while (!stop) { await search(connected); answered++; }
    });
    try {
      while (answered < 5 * clients) await new Promise((resolve) => setTimeout(resolve, 5));
      return await during(() => answered);
    } finally {
      stop = true;
      await Promise.all(looping);
      connected.destroy();
    }
  }

  it('connections opened at once are answered before the connected clients have gone round many times', async () => {
    const CONNECTED = 16;
    const OPENED = 48;
    // each new client opens its own connection; count what the connected clients got meanwhile
    const waits = await whileBusy(CONNECTED, (answered) => Promise.all(Array.from({ length: OPENED }, async () => {
      const before = answered();
      await search(new Agent({ keepAlive: false }));
      return answered() - before;
    })));
    // accepted one per turn of the loop, a new connection waits for the calls ahead of it, about one round of
    // every client (50-54 calls measured); answering every waiting call in each turn let the connected clients'
    // calls by at each connection accepted (400 calls)
    expect(Math.max(...waits)).toBeLessThan(4 * (CONNECTED + OPENED));
  });

  it('a client that closes its side once its request is sent still gets its answer when its turn comes', async () => {
    const raw = Buffer.from(`GET /1/indexes/talks?query=rivers&hitsPerPage=1 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n`
      + `x-algolia-application-id: ${APP_ID}\r\nx-algolia-api-key: ${ADMIN_KEY}\r\n\r\n`);
    // behind the busy clients' calls, each waits turns after its socket ended its side
    const answers = await whileBusy(16, () => Promise.all(Array.from({ length: 30 }, () => sendHostile({ host: '127.0.0.1', port }, { method: 'GET', target: '', headers: {}, raw }))));
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({ nbHits: 300 });
    }
  });
});
