// `lantern serve --nats` nodes (dist/cli.js) for the cluster tests, the
// REST calls the tests make to them over HTTP, and what the application
// holds in NATS, read with the official client.
import { afterAll, beforeAll } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { startServe, type Served } from './serve.js';
import { startNats, type NatsGroup, type NatsOptions } from './nats.js';

export const APP = 'CLUSTERAPP';
export const KEY = 'cluster-admin-key';

export interface Node {
  served: Served;
  url: URL;
}

export interface Answer { status: number; body: any }

/** Starts a node of application APP on the NATS servers `urls` (comma-separated), with `args` added; resolves once it listens (within `ms`). */
export async function startNode(urls: string, args: string[] = [], ms = 15_000): Promise<Node> {
  // LANTERN_DEBUG: a node that stops prints its stack, for the failing test's message
  const served = await startServe(['--nats', urls, '--app-id', APP, '--admin-key', KEY, ...args], { LANTERN_DEBUG: '1' }, ms);
  return { served, url: new URL(served.url) };
}

/** A REST call to `node`, with `headers` added to the application's and the key's. */
export async function call(node: Node, method: string, path: string, body?: unknown, key = KEY, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(new URL(path, node.url), {
    method,
    headers: { 'x-algolia-application-id': APP, 'x-algolia-api-key': key, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `node` until task `taskID` is published there (at most `ms`). */
export async function waitForTask(node: Node, taskID: number, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { status, body } = await call(node, 'GET', `/1/task/${taskID}`);
    if (status === 200 && body.status === 'published') return;
    if (status !== 200 && status !== 503) throw new Error(`task ${taskID}: ${status} ${JSON.stringify(body)}`);
    if (Date.now() > deadline) throw new Error(`task ${taskID} not published on ${node.url} after ${ms} ms (${status} ${JSON.stringify(body)})`);
    await sleep(10);
  }
}

export const records = (from: number, count: number, word: string) =>
  Array.from({ length: count }, (_, i) => ({ objectID: String(from + i), title: `${word} record ${from + i}`, n: from + i }));

export const batch = (node: Node, indexName: string, objects: object[]) =>
  call(node, 'POST', `/1/indexes/${indexName}/batch`, { requests: objects.map((body) => ({ action: 'addObject', body })) });

export const search = (node: Node, indexName: string, params: Record<string, unknown>, key = KEY) =>
  call(node, 'POST', `/1/indexes/${indexName}/query`, params, key);

/** What a search answers, without what differs from call to call (timings, the server's name). */
export async function answerOf(node: Node, indexName: string, params: Record<string, unknown>): Promise<unknown> {
  const { status, body } = await search(node, indexName, params);
  const { processingTimeMS: _p, serverTimeMS: _s, processingTimingsMS: _t, ...rest } = body;
  return { status, ...rest };
}

/** Retries `check` until it passes (at most `ms`). */
export async function eventually(check: () => Promise<void>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await sleep(50);
    }
  }
}

/** Calls `send` until it answers `status` (at most 20 s). */
export async function eventuallyAnswer(send: () => Promise<{ status: number; body: any }>, status: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await send();
    if (answer.status === status) return answer;
    if (Date.now() > deadline) throw new Error(`expected ${status}, still ${answer.status}: ${JSON.stringify(answer.body)}`);
    await sleep(100);
  }
}

/** A test file's NATS server, a connection of its own to it, and its nodes (set before its tests run). */
export interface ClusterFixture { nats: NatsGroup; nc: NatsConnection; nodes: Node[] }

/**
 * Starts one nats-server and a node for each of `nodeArgs` (its extra
 * arguments) before the file's tests when `run`, and stops them after.
 */
export function clusterFixture(run: boolean, nodeArgs: string[][], natsOptions?: NatsOptions): ClusterFixture {
  const fixture = { nodes: [] as Node[] } as unknown as ClusterFixture;
  beforeAll(async () => {
    if (!run) return;
    fixture.nats = await startNats(1, natsOptions);
    fixture.nc = await connect({ servers: fixture.nats.urls });
    fixture.nodes.push(...await Promise.all(nodeArgs.map((args) => startNode(fixture.nats.urls, args))));
  });
  afterAll(async () => {
    await Promise.all(fixture.nodes.map((n) => n.served.stop()));
    await fixture.nc?.close();
    await fixture.nats?.close();
  });
  return fixture;
}

/** The state of the application's stream (of its cluster `cluster`, when named). */
export async function streamState(nc: NatsConnection, cluster?: string): Promise<{ first_seq: number; last_seq: number }> {
  return (await (await jetstreamManager(nc)).streams.info(cluster === undefined ? `LANTERN_${APP}` : `LANTERN_${APP}__${cluster}`)).state;
}

/** The application's snapshot bucket. */
export const snapshotBucket = (nc: NatsConnection) => new Objm(nc).open(`LANTERN_${APP}_SNAPSHOTS`);

/** The snapshots stored, newest first. */
export async function storedSnapshots(nc: NatsConnection): Promise<Array<{ name: string; taskID: number }>> {
  const listed = (await (await snapshotBucket(nc)).list()).filter((i) => !i.deleted);
  return listed.map((i) => ({ name: i.name, taskID: Number(/^snapshot-(\d+)-/.exec(i.name)![1]) })).sort((x, y) => y.taskID - x.taskID);
}
