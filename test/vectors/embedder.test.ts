import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';
import type { RestEmbedderSettings } from '../../src/vectors/embedder-settings.js';
import { createEmbedder, EmbedderError, type EmbedFunction, type Embedder } from '../../src/vectors/embedder.js';

const DIMENSIONS = 16;
const KEY = 'sk-test-0123456789abcdef';
let server: EmbeddingServer;

beforeAll(async () => {
  server = await EmbeddingServer.start({ dimensions: DIMENSIONS, apiKey: KEY });
});
afterAll(() => server.stop());
afterEach(async () => {
  server.setFailing(0);
  server.setDelay(0);
  server.setMalformed('none');
  await server.restart();
});

function restEmbedder(settings: Partial<RestEmbedderSettings> = {}): Embedder {
  return createEmbedder('openai', { source: 'rest', url: server.url, apiKey: KEY, model: 'hash-embed', dimensions: DIMENSIONS, ...settings }, {})!;
}

/** The EmbedderError `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<EmbedderError> {
  const error = await promise.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(EmbedderError);
  expect(error.embedder).toBe('openai');
  return error;
}

describe('a REST embedder', () => {
  it('answers the vectors of each text, in order, from an answer sent out of order', async () => {
    const texts = ['red running shoe', 'blue trail shoe', 'wooden table'];
    const vectors = await restEmbedder().embed(texts);
    expect(vectors).toEqual(texts.map((text) => localEmbedding(text, DIMENSIONS)));
    expect(server.lastModel).toBe('hash-embed');
    expect(server.lastHeaders.authorization).toBe(`Bearer ${KEY}`);
  });

  it('sends its headers and no model when it has none; apiKey and JSON win over its headers', async () => {
    const headers = { 'x-team': 'search', 'Content-Type': 'text/plain', Authorization: 'Bearer other' };
    await restEmbedder({ model: undefined, headers }).embed(['a']);
    expect(server.lastModel).toBeUndefined();
    expect(server.lastHeaders['x-team']).toBe('search');
    expect(server.lastHeaders['content-type']).toBe('application/json');
    expect(server.lastHeaders.authorization).toBe(`Bearer ${KEY}`);
  });

  it('sends a batch of 150 texts in 3 requests, one at a time', async () => {
    const before = server.requests;
    server.maxConcurrent = 0;
    const texts = Array.from({ length: 150 }, (_, i) => `text number ${i}`);
    const vectors = await restEmbedder().embed(texts);
    expect(server.requests - before).toBe(3);
    expect(server.maxConcurrent).toBe(1);
    expect(vectors[149]).toEqual(localEmbedding('text number 149', DIMENSIONS));
  });

  it('says "status" 401 for a wrong key, without the key, though the server quotes it', async () => {
    const wrongKey = 'sk-wrong-9876543210fedcba';
    const error = await failure(restEmbedder({ apiKey: wrongKey }).embed(['a']));
    expect(error.kind).toBe('status');
    expect(error.status).toBe(401);
    expect(error.message).toContain('answered 401: Incorrect API key provided: sk-...');
    expect(error.message).not.toContain(wrongKey);
    expect(error.message).not.toContain(KEY);
  });

  it('says "status" with the server\'s message for a server error', async () => {
    server.setFailing(1);
    const error = await failure(restEmbedder().embed(['a']));
    expect(error.kind).toBe('status');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^Embedder "openai": http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings answered 500: the model failed/);
  });

  it('says "unreachable" when the server is down, with the reason', async () => {
    await server.stop();
    for (let attempt = 0; attempt < 2; attempt++) { // the first may find a kept-alive connection closed
      const error = await failure(restEmbedder().embed(['a']));
      expect(error.kind).toBe('unreachable');
      expect(error.message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings: \S/);
    }
    const error = await failure(restEmbedder().embed(['a']));
    expect(error.message).toContain('ECONNREFUSED');
  });

  it.each([
    ['not-json', 'malformed', 'answered something that is not JSON'],
    ['count', 'malformed', 'answered 1 embeddings for 2 texts'],
    ['nan', 'malformed', 'got a vector with string at 0'],
    ['dimensions', 'dimensions', `got a vector of ${DIMENSIONS - 1} dimensions, the setting says ${DIMENSIONS}`],
  ] as const)('says %s answers are "%s"', async (mode, kind, message) => {
    server.setMalformed(mode);
    const error = await failure(restEmbedder().embed(['a', 'b']));
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(message);
  });

  it('refuses vectors of another length than its setting', async () => {
    const error = await failure(restEmbedder({ dimensions: 8 }).embed(['a']));
    expect(error.kind).toBe('dimensions');
  });

  it('gives up after timeoutMs, and a caller\'s abort stops it with the caller\'s reason', async () => {
    server.setDelay(5000);
    const error = await failure(restEmbedder().embed(['a'], { timeoutMs: 100 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('Embedder "openai": no answer within 100 ms');

    const controller = new AbortController();
    const embedding = restEmbedder().embed(['a'], { signal: controller.signal });
    controller.abort(new Error('the user left'));
    await expect(embedding).rejects.toThrow('the user left');
  });

  it('is undefined for a userProvided embedder', () => {
    expect(createEmbedder('default', { source: 'userProvided', dimensions: 3 }, {})).toBeUndefined();
  });
});

describe('a function embedder', () => {
  const settings = { source: 'function' as const, name: 'hash', dimensions: DIMENSIONS };
  const functions: Record<string, EmbedFunction> = {
    hash: async (texts) => texts.map((text) => localEmbedding(text, DIMENSIONS)),
  };

  it('answers the function\'s vectors as Float32Arrays', async () => {
    const vectors = await createEmbedder('local', settings, functions)!.embed(['a b', 'c']);
    expect(vectors).toEqual([localEmbedding('a b', DIMENSIONS), localEmbedding('c', DIMENSIONS)]);
  });

  it('checks what the function returns, as a server\'s answer', async () => {
    const shortVectors: EmbedFunction = async (texts) => texts.map(() => [1, 2]);
    const infinite: EmbedFunction = async (texts) => texts.map(() => new Array(DIMENSIONS).fill(Infinity));
    const tooFew: EmbedFunction = async () => [];
    const throwing: EmbedFunction = async () => {
      throw new Error('model not loaded');
    };
    const kindOf = async (embed: EmbedFunction) => {
      const error = await createEmbedder('local', settings, { hash: embed })!.embed(['a']).catch((e) => e);
      expect(error).toBeInstanceOf(EmbedderError);
      return `${error.kind}: ${error.message}`;
    };
    expect(await kindOf(shortVectors)).toBe(`dimensions: Embedder "local": got a vector of 2 dimensions, the setting says ${DIMENSIONS}`);
    expect(await kindOf(infinite)).toBe('malformed: Embedder "local": text 0 got a vector with Infinity at 0');
    expect(await kindOf(tooFew)).toBe('malformed: Embedder "local": function "hash" returned 0 vectors for 1 texts');
    expect(await kindOf(throwing)).toBe('unreachable: Embedder "local": function "hash" failed: model not loaded');
  });

  it('says which function is missing, and those it was given', async () => {
    const error = await createEmbedder('local', { ...settings, name: 'minilm' }, functions)!.embed(['a']).catch((e) => e);
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe('Embedder "local": no function "minilm" was given to this thread\'s Lantern.open({ embedders }) (it has "hash"; functions do not cross to worker threads)');
  });

  it('times out a function that never answers', async () => {
    const never: EmbedFunction = () => new Promise(() => undefined);
    const error = await createEmbedder('local', settings, { hash: never })!.embed(['a'], { timeoutMs: 50 }).catch((e) => e);
    expect(error.kind).toBe('timeout');
  });
});
