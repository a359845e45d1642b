// `lantern serve` as a child process and the HTTP calls the serve benches
// make to it (bench/reads-under-writes.mjs, bench/workers.mjs).
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mulberry32 } from '../corpus.mjs';

/** As many sockets as the benches have connections (128 in the mixed-traffic phase): calls never queue in this process. */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/**
 * POSTs `body` (a value, or JSON already serialised to a Buffer).
 * @param {string} base
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<{ status: number | undefined, body: any }>} the status and the JSON answered
 */
export function post(base, path, body) {
  return send('POST', base, path, body);
}

/**
 * Sets an index's settings and waits until they apply; throws when they are refused.
 * @param {string} base
 * @param {string} indexName
 * @param {unknown} settings
 */
export async function setSettings(base, indexName, settings) {
  const r = await send('PUT', base, `/1/indexes/${indexName}/settings`, settings);
  if (r.status !== 200) throw new Error(`settings answered ${r.status}: ${r.body.message}`);
  await waitForTask(base, indexName, r.body.taskID);
}

/**
 * @param {string} method
 * @param {string} base
 * @param {string} path
 * @param {unknown} body a value, or JSON already serialised to a Buffer
 * @returns {Promise<{ status: number | undefined, body: any }>} the status and the JSON answered
 */
function send(method, base, path, body) {
  const data = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent, headers: { 'content-type': 'application/json', 'content-length': data.length } }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
    });
    req.once('error', (error) => {
      // a kept-alive socket the server closed as it was reused (its idle timeout): sent again
      // on a new one, as node's documentation of `reusedSocket` advises
      if (req.reusedSocket && /** @type {NodeJS.ErrnoException} */ (error).code === 'ECONNRESET') send(method, base, path, data).then(resolve, reject);
      else reject(error);
    });
    req.end(data);
  });
}

/**
 * @param {string} base
 * @param {string} path
 * @returns {Promise<any>} the JSON answered
 */
export function get(base, path) {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { agent }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    }).once('error', reject).end();
  });
}

/**
 * Starts `lantern serve` (dist/cli.js) on a free port with `args`; resolves once it listens.
 * LANTERN_SERVE_NODE_OPTIONS: node options for the server (--cpu-prof, say).
 * @param {string[]} args
 */
export async function startServer(args) {
  const nodeOptions = process.env.LANTERN_SERVE_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeOptions, 'dist/cli.js', 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  /** @type {string} */
  const base = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`lantern serve exited with ${code}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { child, base, stop };
}

/**
 * Waits until the task is published.
 * @param {string} base
 * @param {string} indexName
 * @param {number} taskID
 */
export async function waitForTask(base, indexName, taskID) {
  while ((await get(base, `/1/indexes/${indexName}/task/${taskID}`)).status !== 'published') await new Promise((r) => setTimeout(r, 20));
}

/** @type {(sorted: number[], p: number) => number} */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * One searcher: searches one after another until `until`, noting each one's latency
 * (and, in `startedAt` when given, when it was sent).
 * @param {string} base
 * @param {string} indexName
 * @param {string[]} queries
 * @param {number} until
 * @param {number[]} latencies
 * @param {number[]} [startedAt]
 */
export async function searchLoad(base, indexName, queries, until, latencies, startedAt) {
  const rng = mulberry32(latencies.length + 7);
  while (performance.now() < until) {
    const query = queries[Math.floor(rng() * queries.length)];
    const started = performance.now();
    const r = await post(base, `/1/indexes/${indexName}/query`, { query, hitsPerPage: 10 });
    if (r.status !== 200) throw new Error(`search answered ${r.status}`);
    latencies.push(performance.now() - started);
    startedAt?.push(started);
  }
}
