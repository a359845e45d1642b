// New connections opened at once to a busy server: how long until each gets
// its first answer. A server (bench/support/storm-server.mjs, a process of
// its own) takes 2 ms of work per call and answers 20 kB of JSON; clients
// in this process each send one call after another over a kept-alive
// connection. With 8 clients running, 120 more open their connections at
// once, then (phase 3) the same 128 go on with their connections open.
//
// Since libuv 1.45 (Node 20) a listening socket accepts one connection per
// turn of the event loop. `plain`, a node:http server answering every call
// whose request has arrived in each turn, lets one connection in per round
// of every connected client; `lantern`, Lantern's HTTP layer, answers calls
// in turns (src/server/call-turns.ts): one per turn while connections are
// being opened.
//
//   node bench/connection-storm.mjs [--servers plain,lantern] [--clients 8,128,128] [--seconds 4]
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { servers: { type: 'string', default: 'plain,lantern' }, clients: { type: 'string', default: '8,128,128' }, seconds: { type: 'string', default: '4' } },
});

/** Starts a storm server of `kind`; resolves with its port and a way to stop it. @param {string} kind */
async function startServer(kind) {
  const child = spawn(process.execPath, [new URL('./support/storm-server.mjs', import.meta.url).pathname, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d))));
    child.once('exit', (code) => reject(new Error(`storm server exited with ${code}`)));
  });
  return { port: /** @type {number} */ (port), stop: () => child.kill() };
}

/**
 * One call; resolves when its answer has been read.
 * @param {number} port
 * @param {Agent} agent
 * @returns {Promise<void>}
 */
const call = (port, agent) => new Promise((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port, path: '/', method: 'POST', agent }, (res) => {
    res.resume();
    res.on('end', () => resolve());
  });
  req.once('error', reject);
  req.end('{"query":"x"}');
});

for (const kind of values.servers.split(',')) {
  const { port, stop } = await startServer(kind);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  for (const n of values.clients.split(',').map(Number)) {
    const started = performance.now();
    /** @type {number[]} */
    const firsts = [];
    let calls = 0;
    let slow = 0;
    await Promise.all(Array.from({ length: n }, async () => {
      for (let first = true; performance.now() - started < Number(values.seconds) * 1000; first = false) {
        const at = performance.now();
        await call(port, agent);
        const ms = performance.now() - at;
        calls++;
        if (first) firsts.push(ms);
        if (ms > 2000) slow++;
      }
    }));
    firsts.sort((a, b) => a - b);
    console.log(`${kind.padEnd(7)} ${String(n).padStart(3)} clients: first answers p50 ${firsts[n >> 1].toFixed(0)} ms, max ${firsts[n - 1].toFixed(0)} ms; ${calls} calls, ${slow} over 2 s`);
  }
  agent.destroy();
  stop();
}
