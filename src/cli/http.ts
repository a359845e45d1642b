// The REST API of a running `lantern serve`, as the router's requests: what
// `--url` sends through (search, export, import), with node's fetch.
import type { ApiRequest, ApiResponse } from '../api/types.js';

/** A server that does not answer (refused, unknown host): `message` says which and why. */
export class NoAnswerError extends Error {}

/** Sends requests to the server at `base` (http://HOST:PORT). */
export function httpSender(base: string): (request: ApiRequest) => Promise<ApiResponse> {
  const root = base.replace(/\/+$/, '');
  return async ({ method, path, query, headers, body }) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
    const url = `${root}${path}${search.size > 0 ? `?${search}` : ''}`;
    const sent = Object.fromEntries(Object.entries(headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const init = { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) };
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(url, init)
        .catch((e: Error) => { throw new NoAnswerError(`no answer from ${root}: ${(e.cause as Error | undefined)?.message ?? e.message}`); });
      // a 503 with Retry-After (a full write queue) wrote nothing: the same call is sent again when the server says
      const retryAfter = Number(response.headers.get('retry-after'));
      if (response.status === 503 && retryAfter > 0 && attempt < MAX_ATTEMPTS) {
        await response.body?.cancel();
        await new Promise((resume) => setTimeout(resume, retryAfter * 1000));
        continue;
      }
      return { status: response.status, body: await response.json() };
    }
  };
}

/** Sends of one call at most, while the server answers 503 with Retry-After (a minute or more of a full queue). */
const MAX_ATTEMPTS = 60;
