// `lantern serve --nats` nodes (dist/cli.js) for the cluster tests, and the
// REST calls the tests make to them over HTTP.
import { startServe, type Served } from './serve.js';

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

export async function call(node: Node, method: string, path: string, body?: unknown, key = KEY): Promise<Answer> {
  const response = await fetch(new URL(path, node.url), {
    method,
    headers: { 'x-algolia-application-id': APP, 'x-algolia-api-key': key },
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
