#!/usr/bin/env node
// The lantern command: serve the REST API, import a JSON file, search.
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Lantern } from './lantern.js';
import { fsStorage } from './storage/fs.js';
import { StoreLockedError } from './storage/errors.js';
import { memoryStorage } from './storage/storage.js';
import { serve } from './server/http.js';
import { rootPage, staticFiles } from './server/static.js';
import { ImportError, importFile, type ImportSummary } from './cli/import.js';
import { NoAnswerError, httpSender } from './cli/http.js';
import { createClient } from './api/client.js';
import { COLUMN_TYPES, SourceError, type ColumnType } from './cli/record-sources.js';
import { encryptionKeyFrom, KeySourceError } from './cli/encryption-key.js';
import { RejectsFile } from './cli/rejects.js';
import { FlagError, parseCommandLine, type NumericFlag } from './cli/flags.js';
import { resumeCommand } from './cli/resume.js';
import { EmbedError, embedFile, vectorsOfFile, type EmbedSummary } from './cli/embed.js';
import { isPlainObject } from './index/records.js';
import { ReadPool } from './replication/read-pool.js';
import { SERVE_WRITE_WAIT_MS } from './engine/write-room.js';
import { natsCluster, type AdvertisedNodes, type NatsCluster } from './nats/cluster.js';
import type { RecommendOptions } from './recommend/options.js';
import { availableParallelism } from 'node:os';

/** Each command's usage: `lantern help COMMAND` prints one, `lantern --help` all of them. */
const COMMANDS: Record<string, string> = {
  serve: `lantern serve [--port 7700] [--host 127.0.0.1] [--data DIR | --memory | --nats URL,... --app-id ID [--nats-replicas 1]]
              [--app-id ID] [--admin-key KEY] [--key-file FILE] [--clusters c1,c2] [--advertise URL] [--trust-proxy] [--max-connections-per-address 256]
              [--workers 1] [--snapshot-every 2000] [--follow-backlog 10000] [--recommend-min-events N]
              [--max-analytics-events 500000]
              [--demo [--demo-vectors FILE --embedder-url URL [--model NAME] [--api-key KEY]]]
    The REST API over HTTP. The admin key may come from the LANTERN_ADMIN_KEY environment
    variable instead of --admin-key (set but empty, it is refused); without one, any credentials
    are accepted. An encrypted store's key comes from LANTERN_ENCRYPTION_KEY or --key-file FILE
    (see repair). --demo serves the web demo and imports its talks into the index talks, again
    at the next start when one was stopped before all of them were in. --demo-vectors FILE:
    the talks with their vectors (lantern embed's output) imported instead, and an embedder
    that embeds the queries with the same server (--embedder-url or LANTERN_EMBEDDER_URL, --model
    or LANTERN_EMBEDDER_MODEL, the key from LANTERN_EMBEDDER_API_KEY or OPENAI_API_KEY): the
    talks are searched by meaning too, and the web demo shows a words/meaning slider. --workers N
    (or auto: one per core) answers reads on N worker threads, each holding a copy of the
    whole state in memory; the main thread stays the one writer. --nats keeps the data in
    NATS JetStream (servers started with -js): every node started with the same --app-id
    serves the same application, takes writes and answers reads; --nats-replicas 3 keeps
    three copies on a three-server NATS cluster. With --nats, --clusters c1 serves cluster c1
    of the application alone (a stream of its own); calls for users of other clusters are sent
    to their nodes, which are told this node's URL (--advertise URL, default the one it
    listens on). --snapshot-every N: a snapshot after N writes (with --nats, N entries of the
    application's stream). Followers (engines opened with follow: { url, apiKey } and a key
    with the follow right) load a snapshot, then tail the writes; --follow-backlog N keeps N
    records' worth of recent writes for those that reconnect (one away for longer loads a
    snapshot again; 0 serves no followers). --recommend-min-events N: the events each Recommend
    model needs before it answers (by default the service's: 1,000 conversions for bought
    together, 10,000 events for related products, 500 conversions for trending), for a small shop.
    --max-analytics-events N: the searches, and the insight events, kept for analytics, A/B
    tests, personalization and Recommend; past it the oldest are dropped (each search kept
    takes ~700 bytes of memory and rides in every snapshot).`,
  import: `lantern import INDEX FILE [--format json|ndjson|csv] [--types COL:TYPE,...] [--settings FILE.json]
              [--with-replicas] [--skip N] [--rejects REJECTS] [--dry-run] [--data DIR | --url http://HOST:PORT]
    Streams FILE into INDEX: a JSON array, NDJSON (a record a line) or CSV with a header row
    (the format from the extension, else from the first character). CSV values are numbers,
    true/false or text, unless --types gives a column's type: string, number, boolean, json.
    Without --settings, a new index gets search-box settings inferred from the first 1,000
    records (the text attributes, long texts last, and removeWordsIfNoResults allOptional with
    removeStopWords), printed as JSON to start a settings file from; an existing index keeps its
    own. The replicas the settings name are created only with --with-replicas. A record that
    cannot be read (not JSON, a CSV row of too many fields, a value not of its --types type) or
    that the engine refuses stops the import after the records before it; --rejects REJECTS
    sets them aside in REJECTS instead, one JSON line each (its record number, line, the reason
    and its text as FILE holds it), and goes on. Ctrl-C stops after the batch in flight.
    Stopped either way, it prints how many records of FILE are done with and the command that
    goes on from there: --skip N passes over the first N records, whether they can be read or
    not (and --rejects then adds to its file). --dry-run reads and checks the file (its format,
    its records' places) and writes nothing. --url sends the records to a running lantern
    serve, which indexes them (its application id is found with the admin key, or give
    --app-id).`,
  search: `lantern search INDEX "QUERY" [--data DIR | --url http://HOST:PORT] [--hits N]
    Prints the hits. --url asks a running lantern serve (whose data directory it holds; its
    application id is found with the admin key, or give --app-id).`,
  export: `lantern export INDEX [--data DIR | --url http://HOST:PORT]
    Writes every record of INDEX to standard output as NDJSON (lantern import reads it back).`,
  embed: `lantern embed FILE --url URL [--model NAME] [--api-key KEY] [--template TEMPLATE] [--embedder default] [--out OUT]
              [--dimensions N] [--batch 64] [--concurrency 2] [--retries 6] [--format json|ndjson|csv]
    Computes the vector of each record of FILE once, offline, with an OpenAI-compatible
    embeddings server (OpenAI, Ollama's http://127.0.0.1:11434/v1/embeddings, llama.cpp's server,
    LM Studio, vLLM, TEI) and writes the records with _vectors.EMBEDDER set to OUT (NDJSON, by
    default FILE's name ending .vectors.ndjson), for lantern import. A record's text is TEMPLATE
    filled in ('{{doc.name}}. {{doc.description}}'), by default every attribute as a "name: value"
    line, cut to 2,000 bytes; a record with its vector already keeps it. The API key comes from
    LANTERN_EMBEDDER_API_KEY or OPENAI_API_KEY (kept out of the process list), or --api-key.
    Requests of --batch texts (at most 64) go --concurrency at a time; a failed one is retried
    --retries times with a growing delay. Stopped in any way (Ctrl-C, a server that stays down), OUT
    holds the first records whole, and the same command goes on after them. It ends with the
    embedder setting that embeds queries as the records were (add the apiKey to it).`,
  repair: `lantern repair [--data DIR] [--key-file FILE]
    Opens a damaged store with what it still holds, moves what it cannot use to DIR/damaged/
    (nothing is deleted), and reports each thing it moved and what is lost. An encrypted store
    needs its key, from the LANTERN_ENCRYPTION_KEY environment variable or --key-file FILE (a
    passphrase, or base64:KEY for a raw key): a wrong or missing key changes nothing. serve,
    import, search and export take the key the same way.`,
};

const USAGE = `usage:\n${Object.values(COMMANDS).map((text) => `  ${text.split('\n')[0]}`).join('\n')}
  lantern help COMMAND | --version | --help`;

/** The web demo, built by `npm run build` (scripts/build-demo.mjs) next to this file, its dataset in data/; the npm package leaves it out. */
const DEMO_APP = fileURLToPath(new URL('./demo/', import.meta.url));
const DEMO_DIR = new URL('./demo/data/', import.meta.url);

/** The command line, or one line saying what is wrong with it. */
function commandLine() {
  try {
    return parseCommandLine(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`lantern: ${e.message} (lantern --help lists the options)\n`);
    process.exit(2);
  }
}

const { values: flags, positionals, tokens } = commandLine();

/** A mistake in the command line: one line with a hint, exit code 2. */
function fail(message: string): never {
  process.stderr.write(`lantern: ${message} (lantern --help shows the usage)\n`);
  process.exit(2);
}

/** A command that cannot go on (a file it cannot read, data the engine refuses): one line, exit code 1. */
function stop(message: string): never {
  process.stderr.write(`lantern: ${message}\n`);
  process.exit(1);
}

/** A settings file: a JSON object (stops with a one-line error otherwise). */
function readSettings(path: string | URL): Record<string, unknown> {
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return stop(`cannot read ${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!isPlainObject(settings)) stop(`${path} must hold a JSON object of settings`);
  return settings;
}

/** A numeric flag's value (checked by parseCommandLine), or undefined when the flag is absent. */
function count(flag: NumericFlag): number | undefined {
  const text = flags[flag];
  return text === undefined ? undefined : Number(text);
}

/** --workers: a whole number from 1, or auto (one per core). */
function workerCount(): number {
  return flags.workers === 'auto' ? availableParallelism() : Number(flags.workers);
}

const DEFAULT_DATA = 'lantern-data';
/** The package's manifest, next to dist/ where this file is built. */
const PACKAGE: { name: string; version: string } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/** From the environment, the admin key stays out of the process list (and out of shell history). */
const ADMIN_KEY_VARIABLE = 'LANTERN_ADMIN_KEY';
const adminKey = flags['admin-key'] ?? process.env[ADMIN_KEY_VARIABLE];

/** The store's encryption key, from --key-file or LANTERN_ENCRYPTION_KEY (stops with one line when it cannot be used). */
function encryptionKey(): string | Uint8Array | undefined {
  try {
    return encryptionKeyFrom(flags['key-file'], process.env, (path) => readFileSync(path, 'utf8'));
  } catch (e) {
    if (e instanceof KeySourceError) stop(e.message);
    throw e;
  }
}

/**
 * An admin key set but empty (`LANTERN_ADMIN_KEY=` in a service file, a
 * variable that was never filled in) is a mistake: a server would take it
 * for no key, and accept any credentials.
 */
function refuseEmptyAdminKey(): void {
  if (adminKey !== '') return;
  if (flags['admin-key'] !== undefined) stop('--admin-key is empty: give the admin key, or leave --admin-key out to run without one');
  stop(`${ADMIN_KEY_VARIABLE} is set but empty: set it to the admin key, or unset it to run without one`);
}

/**
 * An engine on a data directory, in memory (no directory), or on the
 * application's stream and snapshots in NATS. `maxWriteWaitMs`: how long a
 * write waits for room in the task queue before a 503 (a server's callers
 * get an answer in time).
 */
async function open(dataDir: string | undefined, repair = false, cluster?: NatsCluster, maxWriteWaitMs?: number): Promise<Lantern> {
  const key = encryptionKey();
  const storage = cluster?.storage ?? (dataDir ? fsStorage(dataDir) : memoryStorage());
  const clusters = clusterNames();
  const shared = cluster?.assignments ? { assignments: cluster.assignments, apiKeys: cluster.apiKeys } : {};
  return Lantern.open({
    appId: flags['app-id'], adminKey, storage, log: cluster?.log, clusters, ...shared, repair, ...(key === undefined ? {} : { encryptionKey: key }), snapshotEvery: count('snapshot-every'), followBacklog: count('follow-backlog'),
    maxWriteWaitMs, recommend: recommendMinimums(), maxAnalyticsEvents: count('max-analytics-events'),
  });
}

/** --recommend-min-events N: every Recommend model's minimum of events (undefined: the service's). */
function recommendMinimums(): RecommendOptions | undefined {
  const events = count('recommend-min-events');
  return events === undefined ? undefined : { minBoughtTogetherEvents: events, minRelatedEvents: events, minTrendingEvents: events };
}

/** --clusters: the names given (with --nats, one: the cluster this node serves). */
function clusterNames(): string[] | undefined {
  const names = flags.clusters?.split(',').map((name) => name.trim()).filter(Boolean);
  if (flags.nats && names && names.length !== 1) fail(`with --nats, --clusters names the one cluster this node serves, not "${flags.clusters}": start a node for each cluster`);
  return names;
}

/** --nats: the application's stream and snapshots, shared with every node started with the same --app-id. */
async function joinCluster(servers: string): Promise<NatsCluster> {
  const appId = flags['app-id'];
  if (!appId) fail('--nats needs --app-id: the nodes started with the same one serve the same application');
  if (flags.data || flags.memory) fail('--nats keeps the data in NATS JetStream: leave out --data and --memory');
  const urls = servers.split(',').map((url) => url.trim()).filter(Boolean);
  const cluster = clusterNames()?.[0];
  if (flags.advertise && !cluster) fail('--advertise goes with --nats and --clusters NAME (the cluster this node serves)');
  if (cluster && !flags.advertise && ['0.0.0.0', '::'].includes(flags.host!)) fail(`--host ${flags.host} is no address the other nodes can send calls to: pass --advertise http://THIS-HOST:PORT`);
  if (flags.advertise && !URL.canParse(flags.advertise)) fail(`--advertise needs a URL the other nodes reach this one at (http://HOST:PORT), not "${flags.advertise}"`);
  return natsCluster({ servers: urls, appId, replicas: count('nats-replicas') ?? 1, ...(cluster ? { cluster } : {}) }).catch((e: Error) => stop(e.message));
}

/** Sends calls for users of other clusters to their nodes, and tells them where this node is. */
function advertise(engine: Lantern, nodes: AdvertisedNodes, url: string): void {
  engine.services.clusterNodes = nodes;
  nodes.advertise(url);
}

/** The demo's talks with their vectors (--demo-vectors) and the server that embeds the queries. */
interface DemoVectors { path: string; embedder: string; dimensions: number; url: string }

/**
 * The demo's talks into the index `talks`, unless it holds them all (and,
 * with `vectors`, their vectors): a first start stopped midway (Ctrl-C,
 * kill -9) left it with some, and the next start imports the file again (a
 * talk has an objectID: one already in is replaced by itself). The index's
 * settings, inferred by the first start, are kept.
 */
async function importDemo(engine: Lantern, vectors: DemoVectors | undefined): Promise<void> {
  const { talks } = JSON.parse(readFileSync(new URL('manifest.json', DEMO_DIR), 'utf8')) as { talks: number };
  const index = engine.indexes.get('talks');
  const holds = index?.size;
  const vectorsIn = vectors ? index?.vectors.sizeOf(vectors.embedder) ?? 0 : talks;
  if (holds !== undefined && holds >= talks && vectorsIn >= talks) return;
  if (holds !== undefined && holds < talks) console.error(`the demo's import did not finish (${holds.toLocaleString('en')} of ${talks.toLocaleString('en')} talks are in): importing the talks again`);
  else if (holds !== undefined) console.error(`the demo's talks: importing their vectors from ${vectors!.path}`);
  // the dataset's facets and ranking, with search-box settings inferred from the talks (its own searchable attributes are left out)
  const { attributesToIndex: _searchable, ...settings } = readSettings(new URL('talks_settings.json', DEMO_DIR));
  // the records carry their vectors: an embedder that computes none takes them (a rest one is set once they are in)
  const embedders = vectors ? { embedders: { [vectors.embedder]: { source: 'userProvided', dimensions: vectors.dimensions } } } : {};
  const path = vectors?.path ?? fileURLToPath(new URL('talks.json', DEMO_DIR));
  const summary = await importFile(engine.client(), { indexName: 'talks', path, settings: { ...settings, ...embedders }, inferSettings: true, onInferred: printInferred, progressTo: process.stderr });
  if (summary.stopped) stop(`the demo's talks: ${summary.stopped.reason}`);
  await engine.snapshot();
}

/** --demo-vectors FILE: the file's embedder and dimensions, and the server that embeds the queries. */
async function demoVectors(): Promise<DemoVectors | undefined> {
  const path = flags['demo-vectors'];
  if (path === undefined) return undefined;
  if (!flags.demo) fail('--demo-vectors goes with --demo');
  const url = flags['embedder-url'] ?? process.env.LANTERN_EMBEDDER_URL;
  if (!url) fail('--demo-vectors needs --embedder-url (or LANTERN_EMBEDDER_URL): the server that computed the vectors embeds the queries');
  const { embedder, dimensions } = await vectorsOfFile(path).catch((e: Error) => stop(e.message));
  return { path, embedder, dimensions, url };
}

/** The demo's embedder: queries (and talks added later) embedded by the server that computed the talks' vectors. */
async function setDemoEmbedder(engine: Lantern, { embedder, dimensions, url }: DemoVectors): Promise<void> {
  const model = flags.model ?? process.env.LANTERN_EMBEDDER_MODEL;
  const apiKey = embedderApiKey();
  const rest = { source: 'rest', url, dimensions, ...(model && { model }), ...(apiKey && { apiKey }) };
  const response = await engine.request({ method: 'PUT', path: indexPath('talks', 'settings'), body: { embedders: { [embedder]: rest } } });
  const { taskID } = answered<{ taskID: number }>(response);
  await engine.client().waitForTask({ indexName: 'talks', taskID });
}

/** An embeddings server's API key: from the environment (out of the process list and shell history), or --api-key. */
function embedderApiKey(): string | undefined {
  // a variable set but empty is no key
  return flags['api-key'] || process.env.LANTERN_EMBEDDER_API_KEY || process.env.OPENAI_API_KEY || undefined;
}

async function serveCommand(): Promise<void> {
  refuseEmptyAdminKey();
  if (flags.demo && !existsSync(DEMO_APP)) stop('the web demo is not in the npm package: run it from a clone of the repository (npm install && npm start)');
  const workers = workerCount();
  if (flags['nats-replicas'] && !flags.nats) fail('--nats-replicas goes with --nats URL');
  if (flags.advertise && !flags.nats) fail('--advertise goes with --nats URL and --clusters NAME');
  const cluster = flags.nats === undefined ? undefined : await joinCluster(flags.nats);
  const vectors = await demoVectors();
  const engine = await open(flags.memory || cluster ? undefined : (flags.data ?? DEFAULT_DATA), false, cluster, SERVE_WRITE_WAIT_MS);
  if (flags.demo) await importDemo(engine, vectors);
  if (vectors) await setDemoEmbedder(engine, vectors);
  const host = flags.host!;
  const demo = flags.demo ? staticFiles(DEMO_APP, '/demo/') : undefined;
  const root = rootPage({ name: PACKAGE.name, version: PACKAGE.version, ...(demo ? { demo: '/demo/' } : {}) });
  const fallback = (req: IncomingMessage, res: ServerResponse) => root(req, res) || (demo?.(req, res) ?? false);
  const maxConnectionsPerAddress = count('max-connections-per-address');
  // one worker is the main thread alone: no replica, nothing forwarded
  const pool = workers > 1 ? await ReadPool.start(engine, { workers }).catch((e: Error) => stop(`${e.message} (try without --workers)`)) : undefined;
  const server = await serve(engine, { host, port: count('port'), fallback, trustProxy: flags['trust-proxy'], maxConnectionsPerAddress });
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  if (cluster?.nodes) advertise(engine, cluster.nodes, flags.advertise ?? url);
  // the key itself is never printed: terminals, CI logs and screen shares keep what is printed
  const auth = adminKey ? ` -H "X-Algolia-API-Key: $${ADMIN_KEY_VARIABLE}" -H 'X-Algolia-Application-Id: ${flags['app-id'] ?? ''}'` : '';
  // before "listening on": whoever reads that line may stop the server at once
  const shutDown = async () => {
    await pool?.close();
    await engine.close();
    process.exit(0);
  };
  process.on('SIGINT', shutDown);
  process.on('SIGTERM', shutDown);
  console.log(`listening on ${url}`);
  if (pool) console.log(`reads answered by ${workers} worker threads, each holding a copy of the state`);
  if (cluster?.nodes) console.log(`serving cluster ${cluster.nodes.served} of application ${flags['app-id']} from NATS JetStream (${flags.nats}); calls for users of other clusters go to their nodes`);
  else if (cluster) console.log(`serving application ${flags['app-id']} from NATS JetStream (${flags.nats}) with every node of that app id`);
  if (flags.demo) console.log(`web demo (InstantSearch on Lantern in a worker, offline after the first visit): ${url}/demo/`);
  for (const line of tryLines(engine, url, auth)) console.log(line);
  if (vectors) console.log(`by meaning: curl -s${auth} -X POST ${url}/1/indexes/talks/query -d '{"query":"feeling lonely","hybrid":{"semanticRatio":0.8},"hitsPerPage":3,"attributesToRetrieve":["name"]}'`);
  if (adminKey) console.log(`(with ${ADMIN_KEY_VARIABLE} set to the admin key)`);
}

/**
 * A call to try on what is served: a query of the demo's talks, else of an
 * index the store holds, else the list of indexes (empty: how to add one).
 */
function tryLines(engine: Lantern, url: string, auth: string): string[] {
  if (flags.demo) return [`try: curl -s${auth} -X POST ${url}/1/indexes/talks/query -d '{"params":"query=gvier&hitsPerPage=3&attributesToRetrieve=name"}'`];
  const [first] = [...engine.indexes.keys()].sort();
  if (first !== undefined) return [`try: curl -s${auth} -X POST ${url}${shellSafe(indexPath(first, 'query'))} -d '{"params":"hitsPerPage=3"}'`];
  return [`no index yet: lantern import INDEX FILE --url ${url} adds one`, `try: curl -s${auth} ${url}/1/indexes`];
}

/** A URL path as a shell word: encodeURIComponent leaves ! ' ( ) * as they are. */
const shellSafe = (path: string) => path.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

async function importCommand(indexName?: string, file?: string): Promise<void> {
  if (!indexName || !file) fail('import needs INDEX and FILE');
  if (!existsSync(file)) stop(`${file}: no such file`);
  refuseEmptyAdminKey();
  const settings = flags.settings ? readSettings(flags.settings) : undefined;
  if (flags.url && flags.data) fail('import takes --data DIR or --url http://HOST:PORT, not both');
  const skip = count('skip') ?? 0;
  // a resumed import (--skip) adds to the rejects of the one it goes on from
  const rejects = flags.rejects === undefined ? undefined : openRejects(flags.rejects, skip > 0);
  // a dry run opens nothing on disk; with --url, the server indexes (this process only reads the file)
  const engine = flags.url ? undefined : await open(flags['dry-run'] ? undefined : (flags.data ?? DEFAULT_DATA));
  const client = engine ? engine.client() : createClient(httpSender(flags.url!), adminKey, flags['app-id']);
  // Ctrl-C: the batch in flight is finished and kept; a second one stops at once (the log holds what was acknowledged)
  const interrupt = new AbortController();
  process.once('SIGINT', () => { interrupt.abort(); process.once('SIGINT', () => process.exit(130)); });
  const summary = await importFile(client, {
    indexName, path: file, format: flags.format, columnTypes: columnTypes(flags.types), settings, inferSettings: !settings, onInferred: printInferred,
    withReplicas: flags['with-replicas'], skip, dryRun: flags['dry-run'], rejects, signal: interrupt.signal, progressTo: process.stderr,
  }).catch(async (e: Error) => {
    await engine?.close();
    if (e instanceof NoAnswerError) noAnswer(e);
    if (e instanceof ImportError || e instanceof SourceError) stop(`${file}: ${e.message}`);
    throw e;
  });
  rejects?.close();
  if (engine && !flags['dry-run']) await engine.snapshot();
  await engine?.close();
  for (const line of summaryLines(indexName, summary, flags['dry-run'])) console.log(line);
  if (summary.stopped) stop(`${file}: ${summary.stopped.reason}`);
}

/** --rejects FILE, opened before anything is imported (stops with one line when it cannot be written). */
function openRejects(path: string, append: boolean): RejectsFile {
  try {
    return new RejectsFile(path, append);
  } catch (e) {
    return stop(`cannot write the rejects to ${path}: ${(e as Error).message}`);
  }
}

/**
 * Inferred settings, as JSON a settings file can start from (import without
 * --settings, serve --demo): on stderr with the progress, so that stdout
 * stays the summary.
 */
function printInferred({ settings, from }: NonNullable<ImportSummary['inferred']>): void {
  console.error(`settings inferred from the first ${from.toLocaleString('en')} records (--settings FILE.json to choose your own): ${JSON.stringify(settings)}`);
}

/** --types name:string,views:number */
function columnTypes(text: string | undefined): Record<string, ColumnType> {
  const types: Record<string, ColumnType> = {};
  for (const pair of text?.split(',').filter(Boolean) ?? []) {
    const [column, type] = pair.split(':');
    if (!column || !(COLUMN_TYPES as readonly string[]).includes(type ?? '')) fail(`--types takes COLUMN:TYPE pairs (types: ${COLUMN_TYPES.join(', ')}), not "${pair}"`);
    types[column] = type as ColumnType;
  }
  return types;
}

function summaryLines(indexName: string, s: ImportSummary, dryRun = false): string[] {
  const rate = s.seconds > 0 ? ` (${Math.round(s.imported / s.seconds).toLocaleString('en')}/s)` : '';
  const lines = [dryRun
    ? `read ${s.imported.toLocaleString('en')} records in ${s.seconds.toFixed(1)} s${rate}; nothing written (--dry-run)`
    : `imported ${s.imported.toLocaleString('en')} records into "${indexName}" in ${s.seconds.toFixed(1)} s${rate}`];
  if (s.rejected > 0 || flags.rejects !== undefined) lines.push(`rejected ${s.rejected.toLocaleString('en')} records: set aside in ${flags.rejects}, each with its line and the reason`);
  if (s.skipped > 0) lines.push(`passed over the first ${s.skipped.toLocaleString('en')} records (--skip)`);
  if (s.withoutObjectID > 0) lines.push(`warning: ${s.withoutObjectID.toLocaleString('en')} records had no objectID; each was given one, so importing the file again adds them again`);
  if (s.replicasLeftOut.length > 0) lines.push(`the settings name ${s.replicasLeftOut.length} replicas (${s.replicasLeftOut.slice(0, 3).join(', ')}${s.replicasLeftOut.length > 3 ? ', ...' : ''}): not created; --with-replicas creates them`);
  if (s.interrupted || s.stopped) lines.push(...resumeLines(s));
  return lines;
}

/** How far an interrupted or stopped import went, and the command that goes on from there. */
function resumeLines(s: ImportSummary): string[] {
  const done = s.done === 0 ? 'no record of the file is done with' : `the first ${s.done.toLocaleString('en')} records of the file are done with`;
  const lines = [`${s.interrupted ? 'interrupted' : 'stopped'}: ${done}; to go on from record ${(s.done + 1).toLocaleString('en')}: ${resumeCommand(tokens!, s.done, ADMIN_KEY_VARIABLE)}`];
  if (flags['admin-key'] !== undefined) lines.push(`(with ${ADMIN_KEY_VARIABLE} set to the admin key)`);
  if (s.stopped?.record !== undefined) lines.push(`(once record ${s.stopped.record.toLocaleString('en')} is fixed; --skip ${s.stopped.record} passes over it, --rejects FILE sets aside every record that cannot be imported)`);
  else if (s.stopped && flags.rejects === undefined) lines.push('(--rejects FILE sets aside every record that cannot be imported, and goes on)');
  return lines;
}

/**
 * --data DIR of a command that reads a store (search, export, repair): it
 * must be there already, since opening a store creates its directory.
 */
function existingDataDir(otherwise = ''): string {
  const dir = flags.data ?? DEFAULT_DATA;
  if (!existsSync(dir)) stop(`${dir} does not exist: pass --data with the store's directory${otherwise}`);
  return dir;
}

/** A call to the REST API: in-process on the data directory, or to a running server with --url. */
type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

/** A call's answer when it succeeded; otherwise stops with the error's message. */
function answered<T>(response: { status: number; body: unknown }): T {
  if (response.status !== 200) stop((response.body as { message?: string }).message ?? `the server answered ${response.status}`);
  return response.body as T;
}

async function withApi<T>(use: (call: Call) => Promise<T>): Promise<T> {
  refuseEmptyAdminKey();
  const headers: Record<string, string> = { 'x-algolia-application-id': flags['app-id'] ?? '' };
  if (adminKey) headers['x-algolia-api-key'] = adminKey;
  if (flags.url) {
    const send = httpSender(flags.url);
    return use((method, path, body) => send({ method, path, headers, body }).catch(noAnswer));
  }
  const dir = existingDataDir(', or --url http://HOST:PORT to ask a running lantern serve');
  const engine = await open(dir).catch((e: Error) => {
    // a store a server holds: the server answers the same calls
    if (e instanceof StoreLockedError) stop(`${e.message}; if it is a lantern serve, ask it instead: --url http://HOST:PORT`);
    throw e;
  });
  try {
    return await use((method, path, body) => engine.request({ method, path, headers, body }));
  } finally {
    await engine.close();
  }
}

/** A server that did not answer: one line. */
const noAnswer = (e: Error): never => stop(e.message);

const indexPath = (indexName: string, rest: string) => `/1/indexes/${encodeURIComponent(indexName)}/${rest}`;

async function searchCommand(indexName?: string, query = ''): Promise<void> {
  if (!indexName) fail('search needs INDEX');
  const response = await withApi((call) => call('POST', indexPath(indexName, 'query'), { query, hitsPerPage: count('hits'), attributesToHighlight: [] }));
  const { hits, nbHits, processingTimeMS } = answered<{ hits: Record<string, unknown>[]; nbHits: number; processingTimeMS: number }>(response);
  console.log(`${nbHits} ${nbHits === 1 ? 'hit' : 'hits'} in ${processingTimeMS} ms`);
  for (const hit of hits) {
    const { objectID, ...rest } = hit;
    console.log(`${objectID}\t${JSON.stringify(rest).slice(0, 160)}`);
  }
}

/** Every record of the index as NDJSON on standard output, a browse page at a time. */
async function exportCommand(indexName?: string): Promise<void> {
  if (!indexName) fail('export needs INDEX');
  let exported = 0;
  await withApi(async (call) => {
    let cursor: string | undefined;
    do {
      const response = await call('POST', indexPath(indexName, 'browse'), cursor ? { cursor } : { hitsPerPage: 1000, attributesToHighlight: [] });
      const page = answered<{ hits: Array<Record<string, unknown>>; cursor?: string }>(response);
      const lines = page.hits.map((hit) => JSON.stringify(withoutMarks(hit)));
      if (lines.length > 0 && !process.stdout.write(`${lines.join('\n')}\n`)) await new Promise((resolve) => process.stdout.once('drain', resolve));
      exported += lines.length;
      cursor = page.cursor;
    } while (cursor);
  });
  process.stderr.write(`exported ${exported.toLocaleString('en')} records of "${indexName}"\n`);
}

/** A hit as its record: without the highlighting and ranking the engine adds. */
function withoutMarks(hit: Record<string, unknown>): Record<string, unknown> {
  const { _highlightResult, _snippetResult, _rankingInfo, _distinctSeqID, ...record } = hit;
  return record;
}

async function embedCommand(file?: string): Promise<void> {
  if (!file) fail('embed needs FILE, the records (a JSON array, NDJSON or CSV)');
  if (!flags.url) fail('embed needs --url, the embeddings endpoint (Ollama: http://127.0.0.1:11434/v1/embeddings)');
  if (!existsSync(file)) stop(`${file}: no such file`);
  const out = flags.out ?? `${file.replace(/\.(json|ndjson|jsonl|csv)$/i, '')}.vectors.ndjson`;
  if (resolvePath(out) === resolvePath(file)) fail(`--out ${out} is FILE itself: pass another --out`);
  // Ctrl-C: the requests in flight are answered and written; a second one stops at once (OUT holds whole records)
  const interrupt = new AbortController();
  process.once('SIGINT', () => { interrupt.abort(); process.once('SIGINT', () => process.exit(130)); });
  const summary = await embedFile({
    path: file, format: flags.format, out, url: flags.url, model: flags.model, apiKey: embedderApiKey(), embedder: flags.embedder!,
    template: flags.template, dimensions: count('dimensions'), batchSize: count('batch'), concurrency: count('concurrency'), retries: count('retries'),
    signal: interrupt.signal, progressTo: process.stderr,
  }).catch((e: Error) => {
    if (e instanceof EmbedError) stop(e.message);
    if (e instanceof SourceError) stop(`${file}: ${e.message}`);
    throw e;
  });
  for (const line of embedSummaryLines(out, summary)) console.log(line);
}

function embedSummaryLines(out: string, s: EmbedSummary): string[] {
  const rate = s.seconds > 0 ? `${Math.round(s.embedded / s.seconds).toLocaleString('en')}/s, ` : '';
  const lines = [`embedded ${s.embedded.toLocaleString('en')} records into ${out} in ${s.seconds.toFixed(1)} s (${rate}${s.requests.toLocaleString('en')} requests, ${s.retries} retried)`];
  if (s.resumed > 0) lines.push(`passed over the first ${s.resumed.toLocaleString('en')} records: ${out} held them already`);
  if (s.kept > 0) lines.push(`kept the vectors ${s.kept.toLocaleString('en')} records had`);
  if (s.empty > 0) lines.push(`warning: ${s.empty.toLocaleString('en')} records had no text to embed (see --template): written without a vector`);
  if (s.interrupted) lines.push(`interrupted: ${out} holds the first ${(s.resumed + s.embedded + s.kept + s.empty).toLocaleString('en')} records; the same command goes on from there`);
  // the API key stays out of what is printed: it is the index admin's to add
  lines.push(`settings for lantern import --settings (queries embedded by the same server${s.settings.model ? ' and model' : ''}; add "apiKey" if it needs one): ${JSON.stringify({ embedders: { [flags.embedder!]: s.settings } })}`);
  return lines;
}

/**
 * Opens the store with repair: an encrypted one only with its key (a wrong
 * or missing key stops before anything changes); prints what was set aside,
 * and where, and what was lost.
 */
async function repairCommand(): Promise<void> {
  const dir = existingDataDir();
  const engine = await open(dir, true);
  const { problems, lost, setAside } = engine.recovery;
  await engine.close();
  if (problems.length === 0 && setAside.length === 0) {
    console.log(`${dir}: nothing to repair`);
    return;
  }
  console.log(`${dir}: repaired; it now stands on a new snapshot of what was kept`);
  for (const line of setAside) console.log(`set aside: ${line}`);
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
} else if (command === 'help') {
  const text = args[0] === undefined ? USAGE : Object.hasOwn(COMMANDS, args[0]) ? COMMANDS[args[0]] : undefined;
  if (text === undefined) fail(`no command "${args[0]}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
  console.log(text);
} else if (command === 'serve') {
  await serveCommand();
} else if (command === 'import') {
  await importCommand(args[0], args[1]);
} else if (command === 'search') {
  await searchCommand(args[0], args[1]);
} else if (command === 'export') {
  await exportCommand(args[0]);
} else if (command === 'embed') {
  await embedCommand(args[0]);
} else if (command === 'repair') {
  await repairCommand();
} else {
  fail(`unknown command "${command}"`);
}
