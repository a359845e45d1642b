// A control for the mixed-traffic figures of reads-under-writes.mjs: a plain
// node:http server (no Lantern) answering each call after 2 ms of work with
// a 20 kB JSON body, asked by clients that each send one call after another
// over a kept-alive connection. With 8 clients running, 120 more opening
// their connections at once wait seconds for their first answers; once every
// connection is open, no call waits. What the mixed phases of Lantern show at
// 128 connections comes from Node's HTTP stack on a shared machine, before
// the engine (its searches took 0-5 ms there).
//
//   node bench/connection-storm.mjs [--clients 8,128,128] [--seconds 4]
import { Agent, createServer, request } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { clients: { type: 'string', default: '8,128,128' }, seconds: { type: 'string', default: '4' } } });
const big = JSON.stringify({ hits: Array.from({ length: 10 }, (_, i) => ({ objectID: String(i), text: 'x'.repeat(2000) })) });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const t = performance.now();
    while (performance.now() - t < 2) { /* the work of a search */ }
    res.setHeader('content-type', 'application/json');
    res.end(big);
  });
});
await new Promise((listening) => server.listen(0, '127.0.0.1', () => listening(undefined)));
const address = /** @type {import('node:net').AddressInfo} */ (server.address());
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
/** One call; resolves with its answer's length. @returns {Promise<number>} */
const call = () => new Promise((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port: address.port, path: '/', method: 'POST', agent }, (res) => {
    let length = 0;
    res.on('data', (d) => (length += d.length));
    res.on('end', () => resolve(length));
  });
  req.once('error', reject);
  req.end('{"query":"x"}');
});
for (const n of values.clients.split(',').map(Number)) {
  const started = performance.now();
  /** @type {number[]} */
  const firsts = [];
  let calls = 0;
  let slow = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    for (let first = true; performance.now() - started < Number(values.seconds) * 1000; first = false) {
      const at = performance.now();
      await call();
      const ms = performance.now() - at;
      calls++;
      if (first) firsts.push(ms);
      if (ms > 2000) slow++;
    }
  }));
  firsts.sort((a, b) => a - b);
  console.log(`${String(n).padStart(3)} clients: first answers p50 ${firsts[n >> 1].toFixed(0)} ms, max ${firsts[n - 1].toFixed(0)} ms; ${calls} calls, ${slow} over 2 s`);
}
server.close();
agent.destroy();
