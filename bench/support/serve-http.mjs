// `lantern serve` as a child process and the HTTP calls the serve benches
// make to it (bench/reads-under-writes.mjs, bench/workers.mjs).
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mulberry32 } from '../corpus.mjs';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * POSTs `body` (a value, or JSON already serialised to a Buffer); `method` PUT for the calls that take one.
 * @param {string} base
 * @param {string} path
 * @param {unknown} body
 * @param {'POST' | 'PUT'} [method]
 * @returns {Promise<{ status: number | undefined, body: any }>} the status and the JSON answered
 */
export function post(base, path, body, method = 'POST') {
  const data = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent, headers: { 'content-type': 'application/json', 'content-length': data.length } }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
    });
    req.once('error', reject);
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
 * One searcher: searches one after another until `until`, noting each one's latency.
 * @param {string} base
 * @param {string} indexName
 * @param {string[]} queries
 * @param {number} until
 * @param {number[]} latencies
 */
export async function searchLoad(base, indexName, queries, until, latencies) {
  const rng = mulberry32(latencies.length + 7);
  while (performance.now() < until) {
    const query = queries[Math.floor(rng() * queries.length)];
    const started = performance.now();
    const r = await post(base, `/1/indexes/${indexName}/query`, { query, hitsPerPage: 10 });
    if (r.status !== 200) throw new Error(`search answered ${r.status}`);
    latencies.push(performance.now() - started);
  }
}
