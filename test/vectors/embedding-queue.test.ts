import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';
import { textHash } from '../../src/vectors/embedder-settings.js';
import { createEmbedder, type Embedder } from '../../src/vectors/embedder.js';
import { EmbeddingQueue, type EmbeddedVector, type EmbeddingJob, type EmbeddingQueueOptions } from '../../src/vectors/embedding-queue.js';

const DIMENSIONS = 16;
let server: EmbeddingServer;
let embedder: Embedder;
let queue: EmbeddingQueue;
/** What onEmbedded was given: each key's last vector, and every call. */
let stored: Map<string, EmbeddedVector>;
let calls: EmbeddedVector[][];

beforeEach(async () => {
  server = await EmbeddingServer.start({ dimensions: DIMENSIONS });
  embedder = createEmbedder('rest', { source: 'rest', url: server.url, dimensions: DIMENSIONS }, {})!;
  stored = new Map();
  calls = [];
});
afterEach(async () => {
  queue?.close();
  await server.stop();
});

/** A queue storing what it embeds in `stored`, retrying within milliseconds. */
function startQueue(options: Partial<EmbeddingQueueOptions> = {}): EmbeddingQueue {
  queue = new EmbeddingQueue({
    onEmbedded: (name, results) => {
      expect(name).toBe('rest');
      calls.push(results);
      for (const result of results) stored.set(result.key, result);
    },
    retryDelayMs: 5,
    maxRetryDelayMs: 40,
    ...options,
  });
  return queue;
}

const job = (key: string, text: string): EmbeddingJob => ({ key, text, hash: textHash(text) });
const jobs = (count: number, prefix = 'record') => Array.from({ length: count }, (_, i) => job(`${prefix}-${i}`, `${prefix} text ${i}`));

/** Every job's vector is stored, for its text. */
function expectStored(expected: EmbeddingJob[]): void {
  for (const { key, text, hash } of expected) {
    expect(stored.get(key)?.hash).toBe(hash);
    expect(stored.get(key)?.vector).toEqual(localEmbedding(text, DIMENSIONS));
  }
}

/** Polls until `condition` holds (the queue works in the background). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('EmbeddingQueue', () => {
  it('embeds queued records in requests of 64 texts, and is idle after', async () => {
    startQueue();
    const queued = jobs(150);
    queue.enqueue(embedder, queued);
    expect(queue.pending('rest')).toBe(150);
    await queue.idle();
    expectStored(queued);
    expect(server.requests).toBe(3);
    expect(calls.map((results) => results.length)).toEqual([64, 64, 22]);
    expect(queue.pending('rest')).toBe(0);
    expect(queue.status()).toEqual({ rest: { pending: 0, requests: 0, lastError: null, retryingSince: null, nextAttemptAt: null } });
  });

  it('keeps at most maxInFlight requests at the server at once', async () => {
    server.setDelay(150); // long enough for the requests sent together to be at the server together, even on a busy machine
    startQueue({ batchSize: 5, maxInFlight: 2 });
    queue.enqueue(embedder, jobs(40));
    await until(() => queue.status().rest.requests === 2);
    expect(queue.pending('rest')).toBe(40);
    await queue.idle();
    expect(server.requests).toBe(8);
    expect(server.maxConcurrent).toBe(2);

    server.maxConcurrent = 0;
    startQueue({ batchSize: 5, maxInFlight: 3 });
    queue.enqueue(embedder, jobs(40, 'more'));
    await queue.idle();
    expect(server.maxConcurrent).toBe(3);
  });

  it('retries through a server that fails 3 times, and says so meanwhile', async () => {
    server.setFailing(3);
    startQueue({ retryDelayMs: 20 });
    const queued = jobs(10);
    queue.enqueue(embedder, queued);
    await until(() => queue.status().rest.lastError !== null);
    expect(queue.status().rest.lastError).toContain('answered 500');
    expect(queue.status().rest.retryingSince).toBeGreaterThan(0);
    expect(queue.pending('rest')).toBe(10);
    await queue.idle();
    expect(server.requests).toBe(4);
    expectStored(queued);
    expect(queue.status().rest.lastError).toBeNull();
  });

  it('keeps the jobs while the server is down, and embeds them once it is back', async () => {
    await server.stop();
    startQueue();
    const queued = jobs(100);
    queue.enqueue(embedder, queued);
    await until(() => (queue.status().rest.lastError ?? '').includes('could not reach'));
    await new Promise((resolve) => setTimeout(resolve, 100)); // several retries fail
    expect(queue.pending('rest')).toBe(100);
    expect(stored.size).toBe(0);

    await server.restart();
    await queue.idle();
    expectStored(queued);
    expect(server.textsEmbedded).toBe(100);
    expect([...server.embeddedTexts.values()].every((times) => times === 1)).toBe(true);
  });

  it('backs off up to maxRetryDelayMs while the server keeps failing', async () => {
    server.setFailing('always');
    startQueue({ retryDelayMs: 1000, maxRetryDelayMs: 1000 });
    queue.enqueue(embedder, jobs(3));
    await until(() => queue.status().rest.nextAttemptAt !== null);
    const { nextAttemptAt, retryingSince } = queue.status().rest;
    expect(nextAttemptAt! - retryingSince!).toBeGreaterThanOrEqual(500 - 50); // half the delay at least (jitter)
    expect(server.requests).toBe(1); // no request before the delay is over
  });

  it('sends only the newest text of a record, and drops an answer for a text it no longer has', async () => {
    server.setDelay(100);
    startQueue({ maxInFlight: 1 });
    queue.enqueue(embedder, [job('a', 'first text')]);
    await until(() => server.concurrent === 1); // 'first text' is at the server
    queue.enqueue(embedder, [job('a', 'second text'), job('b', 'other text')]);
    queue.enqueue(embedder, [job('a', 'third text')]); // replaces 'second text', not yet sent
    expect(queue.pending('rest')).toBe(3);
    await queue.idle();

    expect(server.embeddedTexts.has('second text')).toBe(false);
    expect(calls.flat().map((result) => result.key).sort()).toEqual(['a', 'b']); // 'first text' was not reported
    expectStored([job('a', 'third text'), job('b', 'other text')]);
  });

  it('embeds a text queued again while waiting or in flight once', async () => {
    server.setDelay(50);
    startQueue({ maxInFlight: 1, batchSize: 2 });
    const queued = jobs(4);
    queue.enqueue(embedder, queued);
    await until(() => server.concurrent === 1);
    queue.enqueue(embedder, queued); // two in flight, two waiting
    queue.enqueue(embedder, queued);
    expect(queue.pending('rest')).toBe(4);
    await queue.idle();
    expect(server.textsEmbedded).toBe(4);
    expectStored(queued);
  });

  it('never embeds a (record, text) twice once its vector is stored, but does a record deleted and written again', async () => {
    const deleted = new Set<string>();
    startQueue({ needsEmbedding: (_name, { key, hash }) => !deleted.has(key) && stored.get(key)?.hash !== hash });
    const queued = jobs(20);
    queue.enqueue(embedder, queued);
    await queue.idle();
    queue.enqueue(embedder, queued); // the writes replayed after a restart
    await queue.idle();
    expect(server.textsEmbedded).toBe(20);
    expect(queue.pending('rest')).toBe(0);

    const changed = job('record-3', 'a new text for record 3');
    deleted.add('record-5'); // deleted before its new text was sent
    queue.enqueue(embedder, [...queued, changed, job('record-5', 'gone')]);
    await queue.idle();
    expect(server.textsEmbedded).toBe(21);
    expectStored([changed]);

    stored.delete('record-7'); // deleted, then written again with the same text
    queue.enqueue(embedder, [queued[7]]);
    await queue.idle();
    expect(server.textsEmbedded).toBe(22);
    expectStored(queued.filter((q) => q.key !== 'record-3'));
  });

  it('embeds again the texts whose vectors could not be stored', async () => {
    let refusals = 1;
    startQueue({
      onEmbedded: (_name, results) => {
        if (refusals-- > 0) throw new Error('disk full');
        for (const result of results) stored.set(result.key, result);
      },
    });
    const queued = jobs(5);
    queue.enqueue(embedder, queued);
    await queue.idle();
    expectStored(queued);
    expect(server.textsEmbedded).toBe(10);
  });

  it('forgets an embedder\'s jobs on clear, answers in flight included', async () => {
    server.setDelay(50);
    startQueue({ batchSize: 2, maxInFlight: 1 });
    queue.enqueue(embedder, jobs(6));
    await until(() => server.concurrent === 1);
    queue.clear('rest');
    expect(queue.pending('rest')).toBe(0);
    await queue.idle();
    await until(() => server.concurrent === 0);
    expect(stored.size).toBe(0);
    expect(server.requests).toBe(1);
  });

  it('keeps embedders apart: one down does not hold up another', async () => {
    const down = createEmbedder('down', { source: 'rest', url: 'http://127.0.0.1:1/v1/embeddings', dimensions: DIMENSIONS }, {})!;
    const results: Record<string, number> = {};
    queue = new EmbeddingQueue({ onEmbedded: (name, vectors) => void (results[name] = (results[name] ?? 0) + vectors.length), retryDelayMs: 5 });
    queue.enqueue(down, jobs(3));
    queue.enqueue(embedder, jobs(3));
    await until(() => queue.pending('rest') === 0);
    expect(results).toEqual({ rest: 3 });
    expect(queue.pending('down')).toBe(3);
    expect(queue.status().down.lastError).toContain('Embedder "down": could not reach');
  });

  it('stops on close: no request after, and idle() rejects', async () => {
    server.setFailing('always');
    startQueue();
    queue.enqueue(embedder, jobs(3));
    const idle = queue.idle();
    await until(() => server.requests >= 2);
    queue.close();
    await expect(idle).rejects.toThrow('The embedding queue was closed with 3 texts pending');
    const requests = server.requests;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests).toBe(requests);
    expect(() => queue.enqueue(embedder, jobs(1))).toThrow('closed');
    await expect(queue.idle()).rejects.toThrow('closed');
  });
});
