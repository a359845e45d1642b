// An OpenAI-compatible embeddings server for tests (and for trying vector
// search without a model: scripts/embedding-server.mjs). Its embeddings
// need no model and are deterministic: each word (lower-cased letters and
// digits) is hashed to one of D dimensions with a sign (feature hashing),
// the words summed and the sum L2-normalised, so texts sharing words are
// near and localEmbedding() computes the same vector in the test. Controls
// make it fail, slow down, answer nonsense, stop and come back on its port,
// and counters say what it was asked.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a malformed answer is wrong: not JSON, one embedding short, vectors one dimension short, a NaN (sent as a string). */
export type MalformedMode = 'none' | 'not-json' | 'count' | 'dimensions' | 'nan';

export interface EmbeddingServerOptions {
  dimensions?: number;
  /** When set, requests without `Authorization: Bearer <apiKey>` are answered 401. */
  apiKey?: string;
  /** 0 (the default) for a free port. */
  port?: number;
}

/** The embedding of `text` the server answers. */
export function localEmbedding(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash('sha256').update(word).digest();
    vector[digest.readUInt32LE(0) % dimensions] += digest[4] & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) vector[0] = 1; // no word: still a unit vector, so cosine similarity is defined
  else for (let d = 0; d < dimensions; d++) vector[d] /= norm;
  return vector;
}

export class EmbeddingServer {
  /** Requests received (any path, any answer). */
  requests = 0;
  /** Texts embedded in answers that succeeded. */
  textsEmbedded = 0;
  /** How many times each text was embedded. */
  readonly embeddedTexts = new Map<string, number>();
  /** Requests being answered now, and the most there were at once. */
  concurrent = 0;
  maxConcurrent = 0;
  /** The `model` of the last request. */
  lastModel: unknown;
  /** The headers of the last request. */
  lastHeaders: IncomingMessage['headers'] = {};
  private failing: number | 'always' = 0;
  private delayMs = 0;
  private malformed: MalformedMode = 'none';
  private server: Server;

  private constructor(readonly dimensions: number, private readonly apiKey: string | undefined, public port: number) {
    this.server = this.listener();
  }

  static async start(options: EmbeddingServerOptions = {}): Promise<EmbeddingServer> {
    const server = new EmbeddingServer(options.dimensions ?? 32, options.apiKey, options.port ?? 0);
    await server.restart();
    return server;
  }

  /** The embeddings endpoint's URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1/embeddings`;
  }

  /** The next `n` requests (or all, until set to 0) are answered 500. */
  setFailing(n: number | 'always'): void {
    this.failing = n;
  }

  /** Waits this long before answering each request. */
  setDelay(ms: number): void {
    this.delayMs = ms;
  }

  setMalformed(mode: MalformedMode): void {
    this.malformed = mode;
  }

  /** Stops listening and drops every connection: the embedder is down. */
  async stop(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  /** Listens again, on the same port once it has one. */
  async restart(): Promise<void> {
    if (this.server.listening) return;
    this.server = this.listener();
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  private listener(): Server {
    return createServer((request, response) => {
      this.requests++;
      this.concurrent++;
      this.maxConcurrent = Math.max(this.maxConcurrent, this.concurrent);
      response.on('close', () => this.concurrent--);
      this.answer(request, response).catch((error) => send(response, 500, { error: { message: String(error) } }));
    });
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    this.lastHeaders = request.headers;
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
      return send(response, 404, { error: { message: `no ${request.method} ${request.url}` } });
    }
    if (this.apiKey !== undefined && request.headers.authorization !== `Bearer ${this.apiKey}`) {
      // as OpenAI does, the answer quotes the key it was given: the client must not repeat it
      const given = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      return send(response, 401, { error: { message: `Incorrect API key provided: ${given}`, type: 'invalid_request_error' } });
    }
    if (this.failing === 'always' || this.failing > 0) {
      if (this.failing !== 'always') this.failing--;
      return send(response, 500, { error: { message: 'the model failed (as asked by the test)' } });
    }
    let input: unknown;
    try {
      ({ input, model: this.lastModel } = JSON.parse(body));
    } catch {
      return send(response, 400, { error: { message: 'the body is not JSON' } });
    }
    const texts = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(texts) || !texts.every((text) => typeof text === 'string')) {
      return send(response, 400, { error: { message: '"input" must be a string or an array of strings' } });
    }
    this.sendEmbeddings(response, texts);
  }

  private sendEmbeddings(response: ServerResponse, texts: string[]): void {
    if (this.malformed === 'not-json') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>');
      return;
    }
    const vectors = texts.map((text) => Array.from(localEmbedding(text, this.dimensions)) as unknown[]);
    if (this.malformed === 'count') vectors.pop();
    if (this.malformed === 'dimensions') vectors.forEach((vector) => vector.pop());
    if (this.malformed === 'nan') vectors.forEach((vector) => (vector[0] = 'NaN'));
    if (this.malformed === 'none') {
      this.textsEmbedded += texts.length;
      for (const text of texts) this.embeddedTexts.set(text, (this.embeddedTexts.get(text) ?? 0) + 1);
    }
    // in reverse order, as servers that batch on several workers may answer: clients order by index
    const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse();
    send(response, 200, { object: 'list', data, model: this.lastModel, usage: { prompt_tokens: 0, total_tokens: 0 } });
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
