#!/usr/bin/env node
// The lantern command: serve the REST API, import a JSON file, search.
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Lantern } from './lantern.js';
import { fsStorage } from './storage/fs.js';
import { memoryStorage } from './storage/storage.js';
import { serve } from './server/http.js';
import { rootPage, staticFiles } from './server/static.js';

const USAGE = `usage:
  lantern serve [--port 7700] [--host 127.0.0.1] [--data DIR | --memory] [--app-id ID] [--admin-key KEY] [--clusters c1,c2] [--trust-proxy] [--max-connections-per-address 256] [--demo]
  (the admin key may come from the LANTERN_ADMIN_KEY environment variable instead of --admin-key)
  lantern import INDEX FILE.json [--settings FILE.json] [--data DIR]
  lantern search INDEX "QUERY" [--data DIR] [--hits N]
  lantern repair [--data DIR]     keep what a damaged store still holds, report what is lost
  lantern --version | --help`;

/** The web demo, built by `npm run build` (scripts/build-demo.mjs) next to this file, its dataset in data/; the npm package leaves it out. */
const DEMO_APP = fileURLToPath(new URL('./demo/', import.meta.url));
const DEMO_DIR = new URL('./demo/data/', import.meta.url);

const OPTIONS = {
    port: { type: 'string', default: '7700' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string' },
    'app-id': { type: 'string' },
    'admin-key': { type: 'string' },
    clusters: { type: 'string' },
    settings: { type: 'string' },
    hits: { type: 'string', default: '10' },
    demo: { type: 'boolean', default: false },
    // behind one reverse proxy: its X-Forwarded-For names the caller
    'trust-proxy': { type: 'boolean', default: false },
    // open connections one client address may hold (0 = no limit); behind a proxy, the proxy's
    'max-connections-per-address': { type: 'string' },
    memory: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
    version: { type: 'boolean', short: 'v', default: false },
} as const;

/** The command line, or one line saying what is wrong with it. */
function parseCommandLine() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (e) {
    process.stderr.write(`lantern: ${(e as Error).message.split('\n')[0]} (lantern --help lists the options)\n`);
    process.exit(2);
  }
}

const { values: flags, positionals } = parseCommandLine();

function fail(message: string): never {
  process.stderr.write(`lantern: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function readJson(path: string | URL): any {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return fail(`cannot read ${path}: ${(e as Error).message}`);
  }
}

/** A flag's non-negative integer, or undefined when the flag is absent. */
function count(flag: 'max-connections-per-address'): number | undefined {
  const text = flags[flag];
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) fail(`--${flag} needs a whole number, not "${text}"`);
  return Number(text);
}

const DEFAULT_DATA = 'lantern-data';
/** The package's manifest, next to dist/ where this file is built. */
const PACKAGE: { name: string; version: string } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/** From the environment, the admin key stays out of the process list (and out of shell history). */
const ADMIN_KEY_VARIABLE = 'LANTERN_ADMIN_KEY';
const adminKey = flags['admin-key'] ?? process.env[ADMIN_KEY_VARIABLE];

async function open(dataDir: string | undefined, repair = false): Promise<Lantern> {
  const storage = dataDir ? fsStorage(dataDir) : memoryStorage();
  const clusters = flags.clusters?.split(',').filter(Boolean);
  return Lantern.open({ appId: flags['app-id'], adminKey, storage, clusters, repair });
}

function progress(done: number, total: number): void {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  if (done === total) process.stderr.write('\n');
}

async function importRecords(engine: Lantern, indexName: string, records: unknown[], settings?: object): Promise<void> {
  if (!Array.isArray(records)) fail('the file must hold a JSON array of records');
  const client = engine.client();
  if (settings) await client.setSettings({ indexName, indexSettings: settings });
  const chunk = 1000;
  progress(0, records.length);
  for (let i = 0; i < records.length; i += chunk) {
    const requests = records.slice(i, i + chunk).map((body) => ({ action: 'addObject' as const, body: body as Record<string, unknown> }));
    const { taskID } = await client.batch({ indexName, batchWriteParams: { requests } }).catch((e: Error) => {
      process.stderr.write('\n');
      throw new Error(`records ${i + 1} to ${i + requests.length} were not imported (nothing after them was either): ${e.message}`);
    });
    await client.waitForTask({ indexName, taskID });
    progress(Math.min(i + chunk, records.length), records.length);
  }
}

async function serveCommand(): Promise<void> {
  if (flags.demo && !existsSync(DEMO_APP)) fail('the web demo is not in the npm package: run it from a clone of the repository (npm install && npm start)');
  const engine = await open(flags.memory ? undefined : (flags.data ?? DEFAULT_DATA));
  if (flags.demo && !engine.indexes.has('talks')) {
    const settings = readJson(new URL('talks_settings.json', DEMO_DIR));
    delete settings.slaves;
    await importRecords(engine, 'talks', readJson(new URL('talks.json', DEMO_DIR)), settings);
    await engine.snapshot();
  }
  const host = flags.host!;
  const demo = flags.demo ? staticFiles(DEMO_APP, '/demo/') : undefined;
  const root = rootPage({ name: PACKAGE.name, version: PACKAGE.version, ...(demo ? { demo: '/demo/' } : {}) });
  const fallback = (req: IncomingMessage, res: ServerResponse) => root(req, res) || (demo?.(req, res) ?? false);
  const maxConnectionsPerAddress = count('max-connections-per-address');
  const server = await serve(engine, { host, port: Number(flags.port), fallback, trustProxy: flags['trust-proxy'], maxConnectionsPerAddress });
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  // the key itself is never printed: terminals, CI logs and screen shares keep what is printed
  const auth = adminKey ? ` -H "X-Algolia-API-Key: $${ADMIN_KEY_VARIABLE}" -H 'X-Algolia-Application-Id: ${flags['app-id'] ?? ''}'` : '';
  console.log(`listening on ${url}`);
  if (flags.demo) console.log(`web demo (InstantSearch on Lantern in a worker, offline after the first visit): ${url}/demo/`);
  console.log(`try: curl -s${auth} -X POST ${url}/1/indexes/talks/query -d '{"params":"query=gvier&hitsPerPage=3&attributesToRetrieve=name"}'`);
  if (adminKey) console.log(`(with ${ADMIN_KEY_VARIABLE} set to the admin key)`);
  const stop = async () => { await engine.close(); process.exit(0); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function importCommand(indexName?: string, file?: string): Promise<void> {
  if (!indexName || !file) fail('import needs INDEX and FILE.json');
  const engine = await open(flags.data ?? DEFAULT_DATA);
  await importRecords(engine, indexName, readJson(file), flags.settings ? readJson(flags.settings) : undefined);
  await engine.snapshot();
  await engine.close();
}

async function searchCommand(indexName?: string, query = ''): Promise<void> {
  if (!indexName) fail('search needs INDEX');
  const engine = await open(flags.data ?? DEFAULT_DATA);
  const response = await engine.request({
    method: 'POST', path: `/1/indexes/${encodeURIComponent(indexName)}/query`,
    headers: { 'x-algolia-api-key': adminKey, 'x-algolia-application-id': flags['app-id'] },
    body: { query, hitsPerPage: Number(flags.hits), attributesToHighlight: [] },
  });
  await engine.close();
  if (response.status !== 200) fail((response.body as { message: string }).message);
  const { hits, nbHits, processingTimeMS } = response.body as { hits: Record<string, unknown>[]; nbHits: number; processingTimeMS: number };
  console.log(`${nbHits} hits in ${processingTimeMS} ms`);
  for (const hit of hits) {
    const { objectID, ...rest } = hit;
    console.log(`${objectID}\t${JSON.stringify(rest).slice(0, 160)}`);
  }
}

async function repairCommand(): Promise<void> {
  const dir = flags.data ?? DEFAULT_DATA;
  const engine = await open(dir, true);
  const { problems, lost } = engine.recovery;
  await engine.close();
  if (problems.length === 0) {
    console.log(`${dir}: nothing to repair`);
    return;
  }
  console.log(`${dir}: repaired; it now stands on a new snapshot of what was kept (damaged bytes are in ${dir}/damaged/)`);
  console.log(lost.length === 0 ? 'nothing acknowledged was lost' : `lost: ${lost.join('; ')}`);
}

/**
 * Whatever stops the command is one line for the operator, not a stack trace
 * (LANTERN_DEBUG=1 prints the stack too): a store that cannot be opened, a
 * port in use, a write the engine refused.
 */
process.on('uncaughtException', (e: NodeJS.ErrnoException) => {
  const line = e.code === 'EADDRINUSE'
    ? `port ${flags.port} on ${flags.host} is in use (by another lantern serve?): pass --port with another port`
    : e.message ?? String(e);
  process.stderr.write(`lantern: ${line.split('\n')[0]}\n`);
  if (process.env.LANTERN_DEBUG) process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});

const [command, ...args] = positionals;
if (flags.version) {
  console.log(PACKAGE.version);
} else if (flags.help || !command) {
  console.log(USAGE);
} else if (command === 'serve') {
  await serveCommand();
} else if (command === 'import') {
  await importCommand(args[0], args[1]);
} else if (command === 'search') {
  await searchCommand(args[0], args[1]);
} else if (command === 'repair') {
  await repairCommand();
} else {
  fail(`unknown command "${command}"`);
}
