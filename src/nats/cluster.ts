// Cluster mode on NATS JetStream: the nodes started with the same app id
// serve one application. This module connects a node to NATS and gives the
// engine its two stores there: the application's stream as its log (every
// write appended, every node applying every entry in order:
// stream-log.ts) and an object store for its snapshots (snapshot-store.ts).
// It creates both on first use, with the number of copies JetStream keeps,
// and watches the connection: while it is lost, writes are refused and
// reads go on. Given a cluster name, the node serves that cluster of the
// application: the stream and store are the cluster's, and the node joins
// what the application's clusters share (user assignments:
// user-directory.ts; API keys: key-directory.ts; where each cluster's nodes are: cluster-nodes.ts).
// Node only (`lantern-search/node`, `lantern serve --nats`).
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DiscardPolicy, jetstream, jetstreamManager, JetStreamApiCodes, JetStreamApiError, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import type { SharedLog } from '../durability/shared-log.js';
import type { SharedAssignments } from '../clusters/mapping.js';
import type { SharedKeys } from '../auth/security-state.js';
import type { ClusterNodes } from '../clusters/forwarding.js';
import type { Storage } from '../storage/storage.js';
import { applicationNamesOf, namesOf, type JetStreamNames } from './names.js';
import { UserDirectory } from './user-directory.js';
import { KeyDirectory } from './key-directory.js';
import { NatsClusterNodes } from './cluster-nodes.js';
import { FOR_MAKING, nobodyAnswered, NotAnsweredError, whenAnswered } from './patience.js';
import { SnapshotStore } from './snapshot-store.js';
import { StreamLog } from './stream-log.js';

/** How long a JetStream call waits for its answer (the client's default is 5 s). */
const API_TIMEOUT_MS = 2500;

/** Options of `natsCluster(options)`: the NATS servers and the application whose stream the node follows. */
export interface NatsClusterOptions {
  /** NATS servers to connect to (`nats://host:port`); the client learns the rest of a NATS cluster from them. */
  servers: string[];
  /** The application: every node given the same one serves the same data (its stream is `LANTERN_<appId>`). */
  appId: string;
  /**
   * Copies JetStream keeps of the stream and the snapshots, on as many
   * servers (default 1; 3 on a three-server NATS cluster, which then goes
   * on when one server is lost). A stream made with another number is changed to this one.
   */
  replicas?: number;
  /**
   * The cluster of the application this node serves (`--clusters c1`): its
   * own stream and snapshots (`LANTERN_<appId>__<cluster>`), user
   * assignments and API keys shared with every cluster's nodes, and calls for users of
   * other clusters sent to their nodes. Default: none (one stream for the
   * whole application, assignments in it).
   */
  cluster?: string;
  /** The connection's name, as NATS monitoring shows it (default `lantern`). */
  name?: string;
  /** Where the connection's losses and returns are told (default: a line on stderr). */
  report?: (line: string) => void;
}

/** What `Lantern.open` takes to serve the application from NATS: `{ ...await natsCluster(options), appId }`. */
export interface NatsCluster {
  /** The snapshots (a JetStream object store). */
  storage: Storage;
  /** The application's stream. */
  log: SharedLog;
  /** With a cluster: the user assignments every cluster's nodes share (`Lantern.open`'s `assignments`). */
  assignments?: SharedAssignments;
  /** With a cluster: the API keys every cluster's nodes share (`Lantern.open`'s `apiKeys`). */
  apiKeys?: SharedKeys;
  /** With a cluster: the nodes of the others (`advertise` this node's URL once it listens). */
  nodes?: AdvertisedNodes;
}

/** The nodes of an application's clusters, which this node joins once it is reached at a URL. */
export interface AdvertisedNodes extends ClusterNodes {
  /** Tells the nodes of the other clusters that this one is reached at `url` (from now until the connection closes). */
  advertise(url: string): void;
}

/** Connects to NATS and opens (making them the first time) the application's stream and snapshot store. */
export async function natsCluster(options: NatsClusterOptions): Promise<NatsCluster> {
  const report = options.report ?? ((line: string) => process.stderr.write(`lantern: ${line}\n`));
  const nc = await connect({
    servers: options.servers, name: options.name ?? 'lantern', maxReconnectAttempts: -1, reconnectTimeWait: 250,
  }).catch((e: Error) => {
    throw new Error(`cannot connect to NATS at ${options.servers.join(', ')}: ${e.message}`, { cause: e });
  });
  try {
    const names = namesOf(options.appId, options.cluster);
    const replicas = options.replicas ?? 1;
    // JetStream calls are tried again while a NATS cluster elects a leader: a short wait for each lets them through sooner.
    // Nobody answering the first (JetStream's account) means JetStream is not enabled; once it has answered, it means
    // a stream is not listening yet (another node made it a moment ago), and is waited out too.
    const jsm = await whenAnswered(() => jetstreamManager(nc, { timeout: API_TIMEOUT_MS }));
    await whenAnswered(() => ensureStream(jsm, names, replicas), FOR_MAKING);
    const js = jetstream(nc, { timeout: API_TIMEOUT_MS });
    const bucket = await whenAnswered(() => new Objm(js).create(names.bucket, { replicas, storage: StorageType.File }), FOR_MAKING);
    const log = new StreamLog(nc, js, jsm, names, report);
    void watch(nc, log, report);
    const storage = new SnapshotStore(bucket, log, () => nc.close());
    return options.cluster === undefined ? { log, storage } : { log, storage, ...await joinClusters(nc, js, options.appId, options.cluster, replicas) };
  } catch (e) {
    await nc.close();
    throw new Error(`NATS JetStream cannot hold the application's data: ${(e as Error).message.split('\n')[0]}${hintFor(e, options)}`, { cause: e });
  }
}

/** What the application's clusters share: the assignments (this node's cluster registered in them), the API keys and where each cluster's nodes are. */
async function joinClusters(nc: NatsConnection, js: JetStreamClient, appId: string, cluster: string, replicas: number) {
  const names = applicationNamesOf(appId);
  const assignments = await UserDirectory.open(js, names.directory, replicas);
  await assignments.register(cluster);
  const apiKeys = await KeyDirectory.open(js, names.keys, replicas);
  return { assignments, apiKeys, nodes: new NatsClusterNodes(nc, names, cluster) };
}

/** What to do about a NATS that cannot hold the data: the likely cause, in parentheses (nothing when it is not known). */
function hintFor(e: unknown, { servers, replicas = 1 }: NatsClusterOptions): string {
  if (nobodyAnswered(e) && !(e instanceof NotAnsweredError)) return ` (start the NATS server at ${servers.join(', ')} with -js, or jetstream {} in its configuration)`;
  const code = e instanceof JetStreamApiError ? e.code : undefined;
  if (replicas > 1 && (code === REPLICAS_NOT_CLUSTERED || code === INSUFFICIENT_RESOURCES)) return ` (--nats-replicas ${replicas} needs a JetStream cluster of ${replicas} servers or more)`;
  return '';
}

/** JetStream's codes for a stream asking more copies than there are servers. */
const REPLICAS_NOT_CLUSTERED = 10074;
const INSUFFICIENT_RESOURCES = 10023;

/** Makes the stream the first time, with `replicas` copies (changed to that number when it has another). */
async function ensureStream(jsm: JetStreamManager, { stream, subject }: JetStreamNames, replicas: number): Promise<void> {
  const existing = await jsm.streams.info(stream).catch((e: unknown) => {
    if (e instanceof JetStreamApiError && e.code === JetStreamApiCodes.StreamNotFound) return undefined;
    throw e;
  });
  if (!existing) {
    await jsm.streams.add({
      name: stream, subjects: [subject], storage: StorageType.File, num_replicas: replicas,
      // entries go only when snapshots hold them (purged), and never one by one: a gap would be a trim
      retention: RetentionPolicy.Limits, discard: DiscardPolicy.Old, deny_delete: true,
    });
  } else if (existing.config.num_replicas !== replicas) {
    await jsm.streams.update(stream, { ...existing.config, num_replicas: replicas });
  }
}

/** Follows the connection: writes are refused while it is lost (the client reconnects by itself). */
async function watch(nc: NatsConnection, log: StreamLog, report: (line: string) => void): Promise<void> {
  for await (const status of nc.status()) {
    if (status.type === 'disconnect') {
      log.connection(`the connection to ${status.server} was lost`);
      report(`NATS at ${status.server} cannot be reached: writes are refused until it is back, searches are answered`);
    } else if (status.type === 'reconnect') {
      log.connection(undefined);
      report(`NATS reached again at ${status.server}: writes are taken`);
    }
  }
}
