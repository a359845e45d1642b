// `lantern embed` (dist/cli.js) as a real process against a real,
// deterministic OpenAI-compatible server (test/support/embedding-server.ts):
// records embedded in requests of --batch texts, --concurrency at a time, in
// the file's order, each vector the server's for the template's text; a
// server failing and then answering; a run killed midway and the same
// command going on after it; bad arguments and a server that refuses, one
// line each. Then the demo: the talks' vectors computed by the command,
// `serve --demo --demo-vectors`, and a hybrid query over HTTP.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runLantern } from '../support/cli.js';
import { CLI, ROOT, startServe } from '../support/serve.js';
import { EmbeddingServer, localEmbedding } from '../support/embedding-server.js';

const DIMENSIONS = 32;
const KEY = 'sk-embed-test-0123456789';
/** No API key from the environment the tests run in. */
const ENV = { OPENAI_API_KEY: '', LANTERN_EMBEDDER_API_KEY: '' };

let dir: string;
let server: EmbeddingServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-embed-'));
  server = await EmbeddingServer.start({ dimensions: DIMENSIONS });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  server.setFailing(0);
  server.setDelay(0);
  await server.restart();
});

type Book = { objectID: string; title: string; author: string; _vectors?: Record<string, number[]> };

/** `n` records as NDJSON in a new file; its path and records. */
function booksFile(name: string, n: number): { path: string; books: Book[] } {
  const books = Array.from({ length: n }, (_, i) => ({ objectID: `b${i}`, title: `Book number ${i} about ${['whales', 'trees', 'cities'][i % 3]}`, author: `Author ${i % 7}` }));
  const path = join(dir, name);
  writeFileSync(path, books.map((b) => JSON.stringify(b)).join('\n') + '\n');
  return { path, books };
}

const readLines = (path: string): Book[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));

/** Each component is the server's float32, written in the fewest digits. */
function expectServersVector(vector: number[] | undefined, text: string): void {
  expect(vector).toHaveLength(DIMENSIONS);
  expect(Float32Array.from(vector!)).toEqual(localEmbedding(text, DIMENSIONS));
}

/** stderr is one line: no stack trace. */
function expectOneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^lantern: /);
  return lines[0]!;
}

describe('lantern embed', () => {
  it('embeds --batch texts a request, --concurrency requests at a time, in the file\'s order; a record with its vector keeps it', async () => {
    const { path, books } = booksFile('books.ndjson', 95);
    const own = Array.from({ length: DIMENSIONS }, (_, d) => (d === 3 ? 1 : 0));
    books[10]!._vectors = { default: own };
    writeFileSync(path, books.map((b) => JSON.stringify(b)).join('\n'));
    const requestsBefore = server.requests;
    server.maxConcurrent = 0;
    server.setDelay(40);
    const run = await runLantern(['embed', path, '--url', server.url, '--model', 'hash-words', '--template', '{{doc.title}} by {{doc.author}}',
      '--batch', '10', '--concurrency', '3', '--dimensions', String(DIMENSIONS)], { env: ENV });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // 94 texts: 10 requests of up to 10, three at a time
    expect(server.requests - requestsBefore).toBe(10);
    expect(server.maxConcurrent).toBe(3);
    expect(server.lastModel).toBe('hash-words');
    const out = join(dir, 'books.vectors.ndjson');
    const written = readLines(out);
    expect(written.map((b) => b.objectID)).toEqual(books.map((b) => b.objectID));
    for (const [i, book] of written.entries()) {
      if (i === 10) expect(book._vectors).toEqual({ default: own });
      else expectServersVector(book._vectors?.default, `${book.title} by ${book.author}`);
      expect({ ...book, _vectors: undefined }).toEqual({ ...books[i], _vectors: undefined });
    }
    expect(run.stdout).toMatch(/^embedded 94 records into .*books\.vectors\.ndjson/);
    expect(run.stdout).toMatch(/kept the vectors 1 records had/);
    const settings = JSON.parse(/settings for lantern import --settings .*?: (\{.*\})$/m.exec(run.stdout)![1]!);
    expect(settings).toEqual({ embedders: { default: { source: 'rest', url: server.url, model: 'hash-words', dimensions: DIMENSIONS, documentTemplate: '{{doc.title}} by {{doc.author}}' } } });
  }, 30_000);

  it('learns the dimensions from the server; retries a server that fails, then answers', async () => {
    const { path } = booksFile('flaky.ndjson', 20);
    server.setFailing(2);
    const out = join(dir, 'flaky.out.ndjson');
    const run = await runLantern(['embed', path, '--url', server.url, '--out', out, '--template', '{{doc.title}}'], { env: ENV });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/embedded 20 records .*, 2 retried\)/);
    const written = readLines(out);
    expect(written).toHaveLength(20);
    for (const book of written) expectServersVector(book._vectors?.default, book.title);
  }, 30_000);

  it('killed midway, it leaves whole records; the same command goes on after them and embeds each text at most twice', async () => {
    const { path, books } = booksFile('long.ndjson', 120);
    const out = join(dir, 'long.vectors.ndjson');
    const args = ['embed', path, '--url', server.url, '--template', '{{doc.title}}', '--batch', '5', '--concurrency', '1'];
    server.setDelay(60);
    server.embeddedTexts.clear();
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...ENV } });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    while (!existsSync(out) || statSync(out).size < 3000) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    await exited;
    const before = readLines(out).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(books.length);
    // a line cut by a crash is what an append could leave: it is dropped
    writeFileSync(out, readFileSync(out, 'utf8') + '{"objectID":"b');
    server.setDelay(0);
    const run = await runLantern(args, { env: ENV });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`passed over the first ${before} records`));
    const written = readLines(out);
    expect(written.map((b) => b.objectID)).toEqual(books.map((b) => b.objectID));
    for (const book of written) expectServersVector(book._vectors?.default, book.title);
    expect(Math.max(...server.embeddedTexts.values())).toBeLessThanOrEqual(2);
  }, 30_000);

  it('a server that stays down: one line saying what the output holds; then it goes on', async () => {
    const { path } = booksFile('down.ndjson', 12);
    const out = join(dir, 'down.out.ndjson');
    await server.stop();
    const run = await runLantern(['embed', path, '--url', server.url, '--out', out, '--retries', '1', '--dimensions', String(DIMENSIONS)], { env: ENV });
    expect(run.code).toBe(1);
    expect(expectOneLine(run.stderr)).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings: .*; tried 2 times \(is the server running at --url\?\); nothing was written to .*down\.out\.ndjson$/);
    await server.restart();
    const again = await runLantern(['embed', path, '--url', server.url, '--out', out], { env: ENV });
    expect(again.code).toBe(0);
    expect(readLines(out)).toHaveLength(12);
  }, 30_000);

  it('bad arguments, a key the server refuses, an output of another file: one line each, with a hint', async () => {
    const { path } = booksFile('args.ndjson', 3);
    const run = (args: string[], env: Record<string, string> = {}) => runLantern(['embed', ...args], { env: { ...ENV, ...env } });

    let r = await run([path]);
    expect(r.code).toBe(2);
    expect(expectOneLine(r.stderr)).toMatch(/embed needs --url, the embeddings endpoint \(Ollama: http:\/\/127\.0\.0\.1:11434\/v1\/embeddings\)/);
    r = await run([path, '--url', 'localhost:11434']);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toBe('lantern: Invalid value for --url: expected an http:// or https:// URL');
    r = await run([path, '--url', server.url, '--template', '{{title}}']);
    expect(expectOneLine(r.stderr)).toBe('lantern: Invalid value for --template: expected tags of the form {{doc.attribute}}, not {{title}}');
    r = await run([path, '--url', server.url, '--batch', '500']);
    expect(r.code).toBe(2);
    expect(expectOneLine(r.stderr)).toBe('lantern: --batch needs a whole number from 1 to 64, not "500" (lantern --help lists the options)');
    r = await run([path, '--url', server.url, '--embedder', 'my model']);
    expect(expectOneLine(r.stderr)).toMatch(/Invalid embedder name "my model".*\(--embedder\)$/);
    r = await run([join(dir, 'nothing.json'), '--url', server.url]);
    expect(expectOneLine(r.stderr)).toMatch(/nothing\.json: no such file$/);

    const guarded = await EmbeddingServer.start({ dimensions: DIMENSIONS, apiKey: KEY });
    try {
      const wrong = 'sk-wrong-key-0123456789';
      r = await run([path, '--url', guarded.url, '--out', join(dir, 'guarded.ndjson')], { LANTERN_EMBEDDER_API_KEY: wrong });
      expect(r.code).toBe(1);
      const line = expectOneLine(r.stderr);
      expect(line).toMatch(/answered 401: .*\(check the API key: --api-key, or the LANTERN_EMBEDDER_API_KEY or OPENAI_API_KEY environment variable\); nothing was written/);
      expect(line).not.toContain(wrong);
      r = await run([path, '--url', guarded.url, '--out', join(dir, 'guarded.ndjson')], { OPENAI_API_KEY: KEY });
      expect(r.code).toBe(0);
      // the key is no part of the settings printed
      expect(r.stdout).not.toContain(KEY);
    } finally {
      await guarded.stop();
    }

    const other = booksFile('other.ndjson', 3).path;
    writeFileSync(other, ['{"objectID":"x1","title":"Another"}', '{"objectID":"x2","title":"File"}'].join('\n'));
    r = await run([other, '--url', server.url, '--out', join(dir, 'guarded.ndjson')]);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toMatch(/guarded\.ndjson does not hold the records of .*other\.ndjson: its line 1 is objectID "b0", record 1 of .* is "x1" \(pass another --out, or remove .* to start afresh\)$/);
  }, 60_000);
});

/** A search of the demo's talks over HTTP. */
async function searchTalks(url: string, body: object) {
  const response = await fetch(`${url}/1/indexes/talks/query`, { method: 'POST', body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() as Record<string, unknown> & { hits: Array<Record<string, unknown>> } };
}

describe('the demo with vectors', () => {
  it('the talks embedded by lantern embed, served by serve --demo --demo-vectors: a hybrid query answers 200 with vector hits', async () => {
    const out = join(dir, 'talks.vectors.ndjson');
    const template = '{{doc.name}}. {{doc.description}}';
    const embedded = await runLantern(['embed', join(ROOT, 'test', 'fixtures', 'talks.json'), '--url', server.url, '--template', template, '--out', out], { env: ENV, timeoutMs: 60_000 });
    expect(embedded.stderr).toBe('');
    expect(embedded.code).toBe(0);
    const talks = readLines(out) as unknown as Array<{ objectID: string; name: string; description: string; _vectors: { default: number[] } }>;
    const giver = talks.find((t) => t.objectID === '2652')!;

    // a demo that ran without vectors first: its talks are in, their vectors are added
    const store = join(dir, 'demo-store');
    const plain = await startServe(['--demo', '--data', store], ENV, 60_000);
    expect(await plain.stop()).toBe(0);
    const served = await startServe(['--demo', '--data', store, '--demo-vectors', out, '--embedder-url', server.url], ENV, 60_000);
    try {
      expect(served.output()).toMatch(/the demo's talks: importing their vectors from .*talks\.vectors\.ndjson/);
      const query = (body: object) => searchTalks(served.url, body);
      // the talk's own text as the query: its vector is the query's, the nearest of all
      const asked = server.requests;
      const { status, body } = await query({ query: `${giver.name}. ${giver.description}`, hybrid: { semanticRatio: 1 }, hitsPerPage: 3, retrieveVectors: true, getRankingInfo: true });
      expect(status).toBe(200);
      expect(server.requests).toBe(asked + 1); // the query, embedded by the server that embedded the talks
      expect(body.semanticError).toBeUndefined();
      expect(body.semanticHitCount).toBeGreaterThan(0);
      expect(body.hits[0]!.objectID).toBe('2652');
      expect((body.hits[0]!._rankingInfo as { semanticScore: number }).semanticScore).toBeGreaterThan(0.999);
      expect((body.hits[0]!._vectors as { default: number[] }).default).toEqual(giver._vectors.default);
      // hybrid: the keyword hits, and the vector hits after them
      const keywords = await query({ query: 'giver', hitsPerPage: 0 });
      const hybrid = await query({ query: 'giver', hybrid: { semanticRatio: 0.5 }, hitsPerPage: 1000, attributesToRetrieve: [], attributesToHighlight: [] });
      expect(hybrid.status).toBe(200);
      expect(hybrid.body.hits[0]!.objectID).toBe('2652');
      expect(hybrid.body.nbHits).toBeGreaterThan(keywords.body.nbHits as number);
      expect(hybrid.body.semanticHitCount).toBeGreaterThan(0);
      // the settings name the server that computed the vectors
      const settings = await (await fetch(`${served.url}/1/indexes/talks/settings`)).json() as { embedders: unknown };
      expect(settings.embedders).toEqual({ default: { source: 'rest', url: server.url, dimensions: DIMENSIONS } });
      expect(served.output()).toMatch(/by meaning: curl/);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    // the next start finds them in
    const again = await startServe(['--demo', '--data', store, '--demo-vectors', out, '--embedder-url', server.url], ENV, 60_000);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the lines after "listening on"
      expect(again.output()).not.toMatch(/import/);
      const { body } = await searchTalks(again.url, { query: 'giver', hybrid: { semanticRatio: 0.5 }, hitsPerPage: 1000, attributesToRetrieve: [] });
      expect(body.semanticHitCount).toBeGreaterThan(0);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 120_000);

  it('--demo-vectors without --embedder-url, or a file that is no embedded file: one line', async () => {
    const noUrl = await runLantern(['serve', '--demo', '--memory', '--port', '0', '--demo-vectors', join(dir, 'talks.vectors.ndjson')], { env: { ...ENV, LANTERN_EMBEDDER_URL: '' } });
    expect(noUrl.code).toBe(2);
    expect(expectOneLine(noUrl.stderr)).toMatch(/--demo-vectors needs --embedder-url \(or LANTERN_EMBEDDER_URL\)/);
    const plain = join(ROOT, 'test', 'fixtures', 'talks.json');
    const notEmbedded = await runLantern(['serve', '--demo', '--memory', '--port', '0', '--demo-vectors', plain, '--embedder-url', server.url], { env: ENV });
    expect(notEmbedded.code).toBe(1);
    expect(expectOneLine(notEmbedded.stderr)).toMatch(/talks\.json line 1 is not a JSON record/);
  }, 30_000);
});
