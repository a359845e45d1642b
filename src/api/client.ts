// Typed methods with the official v5 client's names and argument shapes,
// built from the route table so they can never diverge from HTTP.
import { ApiError } from '../engine/errors.js';
import { ROUTES, type Route } from './router.js';
import type { ApiRequest, ApiResponse } from './types.js';

type Args = Record<string, any>;
type Send = (request: ApiRequest) => Promise<ApiResponse>;

export type LanternClient = {
  [op: string]: (args?: Args) => Promise<any>;
} & {
  saveObjects(args: { indexName: string; objects: Args[]; waitForTasks?: boolean; batchSize?: number }): Promise<any[]>;
  waitForTask(args: { indexName: string; taskID: number }): Promise<void>;
};

/** A route's path split around its parameters (literal text at even places, parameter names at odd ones), and those names. */
const PATHS = new Map(ROUTES.map((route) => {
  const parts = route.path.split(/\{(\w+)\}/);
  return [route, { parts, names: parts.filter((_, i) => i % 2 === 1) }];
}));

function requestFor(route: Route, args: Args, headers: Record<string, string>): ApiRequest {
  const { parts, names } = PATHS.get(route)!;
  let path = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = args[parts[i]];
    if (value === undefined) throw new ApiError(400, `Parameter "${parts[i]}" is required for ${route.op}`);
    path += encodeURIComponent(String(value)) + parts[i + 1];
  }
  const query: Record<string, string> = {};
  for (const name of route.query ?? []) if (args[name] !== undefined) query[name] = String(args[name]);
  let body: unknown;
  if (route.body === '.') body = Object.fromEntries(Object.entries(args).filter(([k]) => !names.includes(k)));
  else if (route.body) body = args[route.body] ?? {};
  return { method: route.method, path, query, headers, body };
}

export function createClient(send: Send, apiKey: string | undefined, appId: string | undefined): LanternClient {
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) headers['x-algolia-api-key'] = apiKey;
  if (appId !== undefined) headers['x-algolia-application-id'] = appId;
  const client: Record<string, (args?: Args) => Promise<any>> = {};
  for (const route of ROUTES) {
    client[route.op] = async (args: Args = {}) => {
      const response = await send(requestFor(route, args, headers));
      if (response.status >= 400) throw new ApiError(response.status, (response.body as { message: string }).message);
      return response.body;
    };
  }
  client.waitForTask = async ({ indexName, taskID }: Args = {}) => {
    for (let delay = 1; ; delay = Math.min(delay * 2, 100)) {
      const { status } = await client.getTask({ indexName, taskID });
      if (status === 'published') return;
      await new Promise((r) => setTimeout(r, delay));
    }
  };
  client.saveObjects = async ({ indexName, objects, waitForTasks = false, batchSize = 1000 }: Args = {}) => {
    const responses = [];
    for (let i = 0; i < objects.length; i += batchSize) {
      const requests = objects.slice(i, i + batchSize).map((body: Args) => ({ action: 'addObject', body }));
      responses.push(await client.batch({ indexName, batchWriteParams: { requests } }));
    }
    if (waitForTasks) for (const r of responses) await client.waitForTask({ indexName, taskID: r.taskID });
    return responses;
  };
  return client as LanternClient;
}
