// A requester for the official `algoliasearch` v5 client that answers
// in-process: `algoliasearch(appId, key, { requester: lanternRequester(engine) })`.
import { contentOf, type ApiRequest, type ApiResponse } from './api/types.js';

/** A request as the official client's transporter hands it over (optional fields may hold `undefined`, as its own type says). */
export interface EndRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  data?: string | Uint8Array | undefined;
  connectTimeout?: number | undefined;
  responseTimeout?: number | undefined;
}

export interface RequesterResponse { status: number; content: string; isTimedOut: boolean; headers?: Record<string, string> | undefined }

export interface RequestHandler { request(request: ApiRequest): Promise<ApiResponse> }

/**
 * A requester for the official `algoliasearch` clients (v5, and the lite
 * client InstantSearch takes) that answers their calls in-process:
 * `algoliasearch(appId, apiKey, { requester: lanternRequester(engine) })`.
 *
 * @param engine - a `Lantern`, a worker's engine from `connectWorker`, or anything with a `request` method.
 * @param sourceIp - the address the calls are counted from (rate limits, key restrictions, logs).
 */
export function lanternRequester(engine: RequestHandler, sourceIp = '127.0.0.1') {
  return {
    /** Answers one of the client's requests. */
    async send(request: EndRequest): Promise<RequesterResponse> {
      const url = new URL(request.url, 'http://localhost');
      const response = await engine.request({
        method: request.method,
        path: url.pathname + url.search,
        headers: request.headers,
        body: await decodeBody(request),
        sourceIp,
        answerAsText: true,
      });
      return {
        status: response.status,
        content: contentOf(response),
        isTimedOut: false,
        headers: { 'content-type': 'application/json; charset=UTF-8', ...response.headers },
      };
    },
  };
}

/** The body as text; gzip bodies (the client's `compression: 'gzip'`) are inflated with DecompressionStream. */
export async function decodeBody(request: EndRequest): Promise<string | undefined> {
  if (request.data === undefined) return undefined;
  const encoding = Object.entries(request.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
  if (typeof request.data === 'string' && encoding !== 'gzip') return request.data;
  const bytes = typeof request.data === 'string' ? Uint8Array.from(request.data, (c) => c.charCodeAt(0)) : request.data;
  if (encoding !== 'gzip') return new TextDecoder().decode(bytes);
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}
