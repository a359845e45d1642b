// Calling an embedder: a REST endpoint of the OpenAI-compatible embeddings
// API, or a function given in-process. Every answer is checked (one vector
// per text, of the embedder's dimensions, of finite numbers) before a
// vector reaches an index: a wrong one would be searched for ever after.
// Errors say which embedder failed and how (EmbedderError.kind), never with
// its API key.

import type { EmbedderSettings, FunctionEmbedderSettings, RestEmbedderSettings } from './embedder-settings.js';
import { isSecretHeader, maskSecret } from './embedder-settings.js';

/** An in-process embedding function (transformers.js with a local model, for example): one vector per text, in order. */
export type EmbedFunction = (texts: string[]) => Promise<ArrayLike<number>[]>;

export interface EmbedOptions {
  /** Stops waiting (the REST request is aborted); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Gives up after this many milliseconds with an EmbedderError of kind 'timeout'. */
  timeoutMs?: number;
}

export interface Embedder {
  readonly name: string;
  readonly dimensions: number;
  /** One vector per text, in order; texts beyond MAX_TEXTS_PER_REQUEST go in further requests, one at a time. */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

/**
 * How an embedder failed: 'unreachable' (no connection, or no such
 * function), 'status' (an HTTP error status, in `status`), 'malformed' (an
 * answer that is not the API's), 'dimensions' (vectors of another length
 * than the setting's), 'timeout'.
 */
export type EmbedderErrorKind = 'unreachable' | 'status' | 'malformed' | 'dimensions' | 'timeout';

export class EmbedderError extends Error {
  /** What went wrong, without the embedder's name. */
  readonly reason: string;

  /** `received`: for kind 'dimensions', the length of the vectors the embedder answered. */
  constructor(readonly embedder: string, readonly kind: EmbedderErrorKind, reason: string, readonly status?: number, readonly received?: number) {
    super(`Embedder "${embedder}": ${reason}`);
    this.reason = reason;
    this.name = 'EmbedderError';
  }
}

/**
 * Texts sent in one request: OpenAI takes 2048 inputs, but a request of
 * 64 texts of 2 KB stays small for a local server and for a retry; TEI's
 * default (32) needs its --max-client-batch-size raised.
 */
export const MAX_TEXTS_PER_REQUEST = 64;

/** The embedder `settings` name, or undefined for userProvided ones (records and queries carry their vectors). */
export function createEmbedder(name: string, settings: EmbedderSettings, functions: Record<string, EmbedFunction>): Embedder | undefined {
  switch (settings.source) {
    case 'userProvided':
      return undefined;
    case 'rest':
      return chunked(name, settings.dimensions, restCall(name, settings));
    case 'function':
      return chunked(name, settings.dimensions, functionCall(name, settings, functions));
  }
}

/** One request: the raw vectors for at most MAX_TEXTS_PER_REQUEST texts. `signal` aborts it. */
type Call = (texts: string[], signal: AbortSignal) => Promise<unknown[]>;

function chunked(name: string, dimensions: number, call: Call): Embedder {
  return {
    name,
    dimensions,
    embed: (texts, options = {}) => withDeadline(name, options, async (signal) => {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += MAX_TEXTS_PER_REQUEST) {
        const chunk = texts.slice(start, start + MAX_TEXTS_PER_REQUEST);
        const answered = await call(chunk, signal);
        vectors.push(...checkedVectors(name, dimensions, chunk.length, answered));
      }
      return vectors;
    }),
  };
}

/**
 * `run` with a signal that aborts when the caller's does or the time is up.
 * The promise settles then even if `run` does not (a function embedder
 * cannot be stopped): with the caller's reason, or a 'timeout' error.
 */
function withDeadline<T>(name: string, options: EmbedOptions, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal, timeoutMs } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const stop = (reason: unknown) => {
      controller.abort(reason);
      reject(reason);
    };
    const onAbort = () => stop(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = timeoutMs === undefined ? undefined
      : setTimeout(() => stop(new EmbedderError(name, 'timeout', `no answer within ${timeoutMs} ms`)), timeoutMs);
    run(controller.signal).then(resolve, (error) => reject(controller.signal.aborted ? controller.signal.reason : error)).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

function restCall(name: string, settings: RestEmbedderSettings): Call {
  const where = endpoint(settings.url);
  // set() replaces a header of the settings whatever its case: the body is JSON, the key is apiKey's
  const headers = new Headers(settings.headers);
  headers.set('content-type', 'application/json');
  if (settings.apiKey !== undefined) headers.set('authorization', `Bearer ${settings.apiKey}`);
  const secrets = [settings.apiKey, ...Object.entries(settings.headers ?? {}).filter(([h]) => isSecretHeader(h)).map(([, v]) => v)]
    .filter((secret): secret is string => !!secret);
  const fail = (kind: EmbedderErrorKind, message: string, status?: number) =>
    new EmbedderError(name, kind, withoutSecrets(message, secrets), status);

  return async (texts, signal) => {
    let response: Response;
    try {
      response = await fetch(settings.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ input: texts, ...(settings.model !== undefined && { model: settings.model }) }),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw fail('unreachable', `could not reach ${where}: ${causeOf(error)}`);
    }
    const body = await response.text().catch((error) => {
      if (signal.aborted) throw signal.reason;
      throw fail('unreachable', `the answer from ${where} was cut: ${causeOf(error)}`);
    });
    if (!response.ok) {
      throw fail('status', `${where} answered ${response.status}${detail(body)}`, response.status);
    }
    return answeredVectors(body, texts.length, (problem) => fail('malformed', `${where} answered ${problem}`));
  };
}

/** The URL as errors show it: no query string, which may hold a key (Google's `?key=`). */
function endpoint(url: string): string {
  const { origin, pathname } = new URL(url);
  return origin + pathname;
}

/** Node's fetch says "fetch failed" and puts the reason ("connect ECONNREFUSED ...", "other side closed") in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause ?? error;
  const { code, message } = cause as { code?: string; message?: string };
  const text = message || String(cause);
  return code && !text.includes(code) ? `${text} (${code})` : text;
}

/** The server's own message for an error status (OpenAI's `{error: {message}}`), cut short. */
function detail(body: string): string {
  let message: unknown = body;
  try {
    const parsed = JSON.parse(body);
    message = parsed?.error?.message ?? parsed?.error ?? parsed?.message ?? body;
  } catch {
    // not JSON: the text as it is
  }
  const text = (typeof message === 'string' ? message : JSON.stringify(message)).replace(/\s+/g, ' ').trim();
  return text === '' ? '' : `: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

/** A server may echo what it was sent (an OpenAI 401 quotes the key): an error never repeats a secret. */
function withoutSecrets(message: string, secrets: string[]): string {
  return secrets.reduce((text, secret) => text.split(secret).join(maskSecret(secret)), message);
}

/** The `embedding` of each `data` entry, put in order by its `index` (in the order given when no entry has one). */
function answeredVectors(body: string, count: number, malformed: (problem: string) => EmbedderError): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw malformed('something that is not JSON');
  }
  const data = (parsed as { data?: unknown })?.data;
  if (!Array.isArray(data)) throw malformed('no "data" array');
  if (data.length !== count) throw malformed(`${data.length} embeddings for ${count} texts`);
  const indexed = data.some((entry) => entry?.index !== undefined);
  const vectors: unknown[] = new Array(count);
  data.forEach((entry, position) => {
    const index = indexed ? entry?.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= count || vectors[index] !== undefined) {
      throw malformed(`an entry whose "index" is missing, repeated or out of range (${JSON.stringify(index)})`);
    }
    vectors[index] = entry?.embedding;
  });
  return vectors;
}

function functionCall(name: string, settings: FunctionEmbedderSettings, functions: Record<string, EmbedFunction>): Call {
  const embed = Object.hasOwn(functions, settings.name) ? functions[settings.name] : undefined;
  return async (texts) => {
    if (!embed) {
      const given = Object.keys(functions);
      // a function cannot be sent to another thread: an engine in a worker (or lantern serve) has only those given there
      throw new EmbedderError(name, 'unreachable', `no function "${settings.name}" was given to this thread's Lantern.open({ embedders })` +
        ` (${given.length ? `it has ${given.map((g) => `"${g}"`).join(', ')}` : 'it has none'}; functions do not cross to worker threads)`);
    }
    let vectors: unknown;
    try {
      vectors = await embed(texts);
    } catch (error) {
      throw new EmbedderError(name, 'unreachable', `function "${settings.name}" failed: ${causeOf(error)}`);
    }
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw new EmbedderError(name, 'malformed', `function "${settings.name}" returned ${Array.isArray(vectors) ? vectors.length : 'no array of'} vectors for ${texts.length} texts`);
    }
    return vectors;
  };
}

/** Each vector as a Float32Array, once it is known to be `dimensions` finite numbers. */
function checkedVectors(name: string, dimensions: number, count: number, vectors: unknown[]): Float32Array[] {
  const out: Float32Array[] = [];
  for (let i = 0; i < count; i++) {
    const vector = vectors[i] as ArrayLike<unknown> | undefined;
    if (typeof vector !== 'object' || vector === null || typeof vector.length !== 'number') {
      throw new EmbedderError(name, 'malformed', `text ${i} got no vector`);
    }
    if (vector.length !== dimensions) {
      throw new EmbedderError(name, 'dimensions', `got a vector of ${vector.length} dimensions, the setting says ${dimensions}`, undefined, vector.length);
    }
    const floats = new Float32Array(dimensions);
    for (let d = 0; d < dimensions; d++) {
      const value = vector[d];
      if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isFinite(Math.fround(value))) {
        throw new EmbedderError(name, 'malformed', `text ${i} got a vector with ${shownValue(value)} at ${d}`);
      }
      floats[d] = value;
    }
    out.push(floats);
  }
  return out;
}

const shownValue = (value: unknown) => (typeof value === 'number' ? String(value) : typeof value);
