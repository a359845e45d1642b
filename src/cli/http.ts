// The REST API of a running `lantern serve`, as the router's requests: what
// `--url` sends through (search, export, import), with node's fetch.
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { applicationIdNamedIn } from '../auth/authenticate.js';

/** A server that does not answer (refused, unknown host): `message` says which and why. */
export class NoAnswerError extends Error {}

const APP_ID_HEADER = 'x-algolia-application-id';

/**
 * Sends requests to the server at `base` (http://HOST:PORT). Requests sent
 * without an application id take the one the server names to the holder of
 * its admin key (a server started with --app-id refuses calls without it):
 * the first refusal is sent again with it, and the calls after carry it.
 * Any other refusal of the credentials says which ones to give.
 */
export function httpSender(base: string): (request: ApiRequest) => Promise<ApiResponse> {
  const root = base.replace(/\/+$/, '');
  let learnedAppId: string | undefined;
  const send = async ({ method, path, query, headers, body }: ApiRequest): Promise<ApiResponse> => {
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
  return async (request) => {
    const given = request.headers?.[APP_ID_HEADER];
    let response = await send(given || learnedAppId === undefined ? request : withAppId(request, learnedAppId));
    if (!given && learnedAppId === undefined && response.status === 403) {
      learnedAppId = applicationIdNamedIn(messageOf(response));
      if (learnedAppId !== undefined) response = await send(withAppId(request, learnedAppId));
    }
    // a refusal that names the application id says what to give already
    if (response.status !== 403 || !messageOf(response).startsWith('Invalid Application-ID') || applicationIdNamedIn(messageOf(response))) return response;
    return { ...response, body: { ...response.body as object, message: `${messageOf(response)}: give the admin key lantern serve was started with (--admin-key or LANTERN_ADMIN_KEY) and its --app-id` } };
  };
}

/** Sends of one call at most, while the server answers 503 with Retry-After (a minute or more of a full queue). */
const MAX_ATTEMPTS = 60;

const withAppId = (request: ApiRequest, appId: string): ApiRequest => ({ ...request, headers: { ...request.headers, [APP_ID_HEADER]: appId } });

const messageOf = (response: ApiResponse) => (response.body as { message?: string } | undefined)?.message ?? '';
