// The one router: METHOD + path → operation. It is the only place that knows
// URLs and status codes; HTTP, `engine.request` and the typed client all
// come through here.
import { ApiError } from '../engine/errors.js';
import { authenticate, authorize } from '../auth/authenticate.js';
import type { Lantern } from '../lantern.js';
import * as indexes from './indexes.js';
import * as objects from './objects.js';
import * as search from './search.js';
import { Reply, type ApiRequest, type ApiResponse, type Handler, type Right } from './types.js';

export interface Route {
  /** Operation name: the official v5 client's method name. */
  op: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  right: Right;
  handler: Handler;
  /** Typed client: the argument holding the body ('.' = the whole argument). */
  body?: string;
  /** Typed client: arguments sent as query parameters. */
  query?: string[];
}

/** Every operation, one row each: the ACL table is the `right` column. */
export const ROUTES: Route[] = [
  { op: 'listIndices', method: 'GET', path: '/1/indexes', right: 'listIndexes', handler: indexes.listIndices, query: ['page', 'hitsPerPage'] },
  { op: 'search', method: 'POST', path: '/1/indexes/*/queries', right: 'search', handler: search.search, body: '.' },
  { op: 'multipleBatch', method: 'POST', path: '/1/indexes/*/batch', right: 'addObject', handler: objects.multipleBatch, body: '.' },
  { op: 'getObjects', method: 'POST', path: '/1/indexes/*/objects', right: 'search', handler: objects.getObjects, body: '.' },
  { op: 'searchSingleIndex', method: 'POST', path: '/1/indexes/{indexName}/query', right: 'search', handler: search.searchSingleIndex, body: 'searchParams' },
  { op: 'searchWithQueryString', method: 'GET', path: '/1/indexes/{indexName}', right: 'search', handler: search.searchWithQueryString },
  { op: 'saveObject', method: 'POST', path: '/1/indexes/{indexName}', right: 'addObject', handler: objects.saveObject, body: 'body' },
  { op: 'deleteIndex', method: 'DELETE', path: '/1/indexes/{indexName}', right: 'deleteIndex', handler: indexes.deleteIndex },
  { op: 'browse', method: 'POST', path: '/1/indexes/{indexName}/browse', right: 'browse', handler: search.browse, body: 'browseParams' },
  { op: 'browseWithQueryString', method: 'GET', path: '/1/indexes/{indexName}/browse', right: 'browse', handler: search.browse },
  { op: 'searchForFacetValues', method: 'POST', path: '/1/indexes/{indexName}/facets/{facetName}/query', right: 'search', handler: search.searchForFacetValues, body: 'searchForFacetValuesRequest' },
  { op: 'deleteBy', method: 'POST', path: '/1/indexes/{indexName}/deleteByQuery', right: 'deleteIndex', handler: objects.deleteBy, body: 'deleteByParams' },
  { op: 'batch', method: 'POST', path: '/1/indexes/{indexName}/batch', right: 'addObject', handler: objects.batch, body: 'batchWriteParams' },
  { op: 'clearObjects', method: 'POST', path: '/1/indexes/{indexName}/clear', right: 'deleteIndex', handler: objects.clearObjects },
  { op: 'getSettings', method: 'GET', path: '/1/indexes/{indexName}/settings', right: 'settings', handler: indexes.getSettings, query: ['getVersion'] },
  { op: 'setSettings', method: 'PUT', path: '/1/indexes/{indexName}/settings', right: 'editSettings', handler: indexes.setSettings, body: 'indexSettings', query: ['forwardToReplicas'] },
  { op: 'getTask', method: 'GET', path: '/1/indexes/{indexName}/task/{taskID}', right: 'addObject', handler: indexes.getTask },
  { op: 'getAppTask', method: 'GET', path: '/1/task/{taskID}', right: 'addObject', handler: indexes.getAppTask },
  { op: 'getObject', method: 'GET', path: '/1/indexes/{indexName}/{objectID}', right: 'search', handler: objects.getObject, query: ['attributesToRetrieve'] },
  { op: 'addOrUpdateObject', method: 'PUT', path: '/1/indexes/{indexName}/{objectID}', right: 'addObject', handler: objects.addOrUpdateObject, body: 'body' },
  { op: 'deleteObject', method: 'DELETE', path: '/1/indexes/{indexName}/{objectID}', right: 'deleteObject', handler: objects.deleteObject },
  { op: 'partialUpdateObject', method: 'POST', path: '/1/indexes/{indexName}/{objectID}/partial', right: 'addObject', handler: objects.partialUpdateObject, body: 'attributesToUpdate', query: ['createIfNotExists'] },
];

interface CompiledRoute { route: Route; segments: string[]; literals: number }

const COMPILED: CompiledRoute[] = ROUTES.map((route) => {
  const segments = route.path.split('/').slice(1);
  return { route, segments, literals: segments.filter((s) => !s.startsWith('{')).length };
}).sort((a, b) => b.literals - a.literals);

function match(method: string, path: string): { route: Route; params: Record<string, string> } | 'wrong-method' | undefined {
  const parts = path.split('/').slice(1);
  let methodMismatch = false;
  for (const c of COMPILED) {
    if (c.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = c.segments.every((s, i) => {
      if (s.startsWith('{')) {
        if (parts[i] === '') return false;
        params[s.slice(1, -1)] = decodeURIComponent(parts[i]);
        return true;
      }
      return s === parts[i];
    });
    if (!fits) continue;
    if (c.route.method !== method) { methodMismatch = true; continue; }
    return { route: c.route, params };
  }
  return methodMismatch ? 'wrong-method' : undefined;
}

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw new ApiError(400, 'Invalid JSON in request body');
  }
}

function lowerCaseKeys(headers: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

function splitPath(request: ApiRequest): { path: string; query: Record<string, string> } {
  const [path, search = ''] = request.path.split('?', 2);
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) query[k] = v;
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) query[k] = String(v);
  return { path, query };
}

const json = (status: number, body: unknown): ApiResponse => ({ status, body });

export async function route(engine: Lantern, request: ApiRequest): Promise<ApiResponse> {
  try {
    const { path, query } = splitPath(request);
    const found = match(request.method.toUpperCase(), path);
    if (found === undefined) throw new ApiError(404, `Path ${path} does not exist`);
    if (found === 'wrong-method') throw new ApiError(404, `Method ${request.method} is not available on ${path}`);
    const headers = lowerCaseKeys(request.headers);
    const caller = authenticate(engine, headers, query);
    authorize(caller, found.route.right);
    const body = parseBody(request.body);
    const result = await found.route.handler({
      engine, params: found.params, query, body, headers, sourceIp: request.sourceIp ?? '127.0.0.1', caller,
    });
    return result instanceof Reply ? json(result.status, result.body) : json(200, result);
  } catch (e) {
    if (e instanceof ApiError) return json(e.status, { message: e.message, status: e.status });
    if (e instanceof URIError) return json(400, { message: 'Malformed percent-encoding in path', status: 400 });
    console.error('lantern: internal error', e);
    return json(500, { message: 'Internal error', status: 500 });
  }
}
