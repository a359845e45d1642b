// The server of bench/connection-storm.mjs, in a process of its own: each
// call takes 2 ms of work and is answered with a 20 kB JSON body. `plain`:
// a node:http server answering every call as its request arrives; `lantern`:
// Lantern's HTTP layer (`serve` from the package's Node entry, calls in turns)
// over a handler doing the same work. Prints the port it listens on.
//
//   node bench/support/storm-server.mjs plain|lantern
import { createServer } from 'node:http';

const kind = process.argv[2];
const answer = Buffer.from(JSON.stringify({ hits: Array.from({ length: 10 }, (_, i) => ({ objectID: String(i), text: 'x'.repeat(2000) })) }));
/** The work of a search. */
const work = () => {
  const t = performance.now();
  while (performance.now() - t < 2) { /* busy */ }
};

/** @type {import('node:http').Server} */
let server;
if (kind === 'plain') {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      work();
      res.setHeader('content-type', 'application/json');
      res.end(answer);
    });
  });
  await new Promise((listening) => server.listen(0, '127.0.0.1', () => listening(undefined)));
} else if (kind === 'lantern') {
  // the built package, found at run time (as bench/peers.mjs loads it)
  /** @type {{ serve: (handler: { request(call: unknown): Promise<unknown> }, options: { port: number }) => Promise<import('node:http').Server> }} */
  const { serve } = await import(new URL('../../dist/node.js', import.meta.url).href);
  server = await serve({ request: async () => { work(); return { status: 200, body: answer }; } }, { port: 0 });
} else {
  throw new Error(`storm-server: plain or lantern, not ${kind}`);
}
console.log(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
