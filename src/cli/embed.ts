// `lantern embed`: the vectors of a file's records, computed once, offline,
// by an OpenAI-compatible embeddings server, and written with the records
// (`_vectors.<embedder>`) as NDJSON for `lantern import` to ship. The
// requests are the engine's own rest embedder's (src/vectors/embedder.ts)
// and each record's text is the engine's (documentText of the template), so
// an index whose rest embedder has the same server, model and template
// embeds its queries and new records as these were.
//
// Requests of `batchSize` texts go `concurrency` at a time; one that fails
// is retried with a growing delay, unless the server's answer will not
// change (a 4xx, vectors of another length). The output is appended a
// window of requests at a time, in the file's order: stopped in any way, it
// holds the first records whole (a line cut by a crash is dropped), and the
// same command goes on after them.
import { createReadStream, existsSync } from 'node:fs';
import { appendFile, open, truncate } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createEmbedder, EmbedderError, MAX_TEXTS_PER_REQUEST, type Embedder } from '../vectors/embedder.js';
import { documentText, parseEmbedders, type RestEmbedderSettings } from '../vectors/embedder-settings.js';
import { VECTORS, writtenVector } from '../vectors/record-vectors.js';
import { isPlainObject } from '../index/records.js';
import { ApiError } from '../util/errors.js';
import { detectFormat, isUnreadable, openRecords, placeOf, type SourcedRecord } from './record-sources.js';
import { Progress } from './progress.js';

export interface EmbedFileOptions {
  /** The records: a JSON array, NDJSON or CSV (`format`, else from the file). */
  path: string;
  format?: string;
  /** The NDJSON written; when it exists, the records it holds are passed over. */
  out: string;
  url: string;
  model?: string;
  apiKey?: string;
  /** The name the vectors are written under (`_vectors.<embedder>`). */
  embedder: string;
  /** `{{doc.attribute}}` tags; by default every attribute as a "name: value" line. */
  template?: string;
  /** The vectors' length; by default learnt from the server's first answer. */
  dimensions?: number;
  batchSize?: number;
  concurrency?: number;
  /** Retries of a failed request before giving up, the first after `retryDelayMs`, each twice as long as the last. */
  retries?: number;
  retryDelayMs?: number;
  /** A request not answered in this time fails (and is retried). */
  timeoutMs?: number;
  /** Stops after the window of requests in flight is written. */
  signal?: AbortSignal;
  progressTo?: NodeJS.WriteStream;
}

export interface EmbedSummary {
  /** Records the output held already (a run that stopped before), passed over. */
  resumed: number;
  /** Records embedded by this run. */
  embedded: number;
  /** Records that carried their vector already: written as they were. */
  kept: number;
  /** Records with no text to embed (written without a vector). */
  empty: number;
  requests: number;
  retries: number;
  /** The setting of a rest embedder that embeds as this run did (no API key: it is the index admin's to add). */
  settings: RestEmbedderSettings;
  interrupted: boolean;
  seconds: number;
}

/** Why the embedding cannot go on: one line, with what the output holds and how to go on. */
export class EmbedError extends Error {}

/** An output that is not an earlier run's on the same file: nothing can go on from it. */
class ForeignOutputError extends EmbedError {}

const PASSED_THROUGH_PER_WRITE = 1000;
const DEFAULTS = { concurrency: 2, retries: 6, retryDelayMs: 250, timeoutMs: 60_000 };
/** The flag each embedder setting comes from, for errors about them. */
const FLAG_OF: Record<string, string> = { url: '--url', model: '--model', apiKey: '--api-key', documentTemplate: '--template', dimensions: '--dimensions' };

/** A record on its way to the output: its vector to compute from `text`, unless it has one or no text. */
interface Pending { record: Record<string, unknown>; text?: string; vector?: number[] }

export async function embedFile(options: EmbedFileOptions): Promise<EmbedSummary> {
  const started = performance.now();
  const batchSize = options.batchSize ?? MAX_TEXTS_PER_REQUEST;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const source = openRecords(options.path, await detectFormat(options.path, options.format));
  const previous = await PreviousOutput.open(options.out, options.embedder);
  const run = new EmbeddingRun(options, options.dimensions ?? previous.dimensions);
  const summary: EmbedSummary = {
    resumed: 0, embedded: 0, kept: 0, empty: 0, requests: 0, retries: 0, settings: run.settings, interrupted: false, seconds: 0,
  };
  const progress = new Progress(source, options.progressTo);
  /** Records in the output: those it held, then those of each window written. */
  let written = 0;
  let window: Pending[] = [];
  let texts = 0;
  const flush = async () => {
    await run.embed(window, summary);
    await appendFile(options.out, window.map(({ record, vector }) => `${JSON.stringify(vector ? withVector(record, options.embedder, vector) : record)}\n`).join(''));
    for (const { record, text } of window) {
      if (text !== undefined) summary.embedded++;
      else summary[writtenVector(record, options.embedder) ? 'kept' : 'empty']++;
    }
    written += window.length;
    progress.update(written);
    window = [];
    texts = 0;
  };
  try {
    for await (const entry of source.records) {
      if (isUnreadable(entry)) throw new EmbedError(`${placeOf(entry)}: ${entry.problem}`);
      const record = recordOf(entry);
      if (await previous.holds(entry.position, record, options.path)) { summary.resumed = ++written; continue; }
      const pending = pendingOf(record, options);
      window.push(pending);
      if (pending.text !== undefined) texts++;
      // a window is `concurrency` requests; records with nothing to embed are written a thousand at a time
      if (texts < batchSize * concurrency && window.length < PASSED_THROUGH_PER_WRITE) continue;
      await flush();
      if (options.signal?.aborted) { summary.interrupted = true; break; }
    }
    if (!summary.interrupted && window.length > 0) await flush();
  } catch (e) {
    if (e instanceof EmbedderError) throw new EmbedError(`${e.message}${hintFor(e, run.settings.dimensions)}; ${whereItStands(options.out, written)}`);
    if (e instanceof EmbedError && !(e instanceof ForeignOutputError)) throw new EmbedError(`${e.message}; ${whereItStands(options.out, written)}`);
    throw e;
  } finally {
    previous.close();
  }
  progress.done();
  summary.settings = run.settings;
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

function recordOf(entry: SourcedRecord): Record<string, unknown> {
  if (!isPlainObject(entry.record)) throw new EmbedError(`${placeOf(entry)} is not a JSON object`);
  return entry.record;
}

/** The record's text to embed, unless it has its vector already or no text. */
function pendingOf(record: Record<string, unknown>, options: EmbedFileOptions): Pending {
  if (writtenVector(record, options.embedder)) return { record };
  const text = documentText(options.template, record, null);
  return text === '' ? { record } : { record, text };
}

function withVector(record: Record<string, unknown>, embedder: string, vector: number[]): Record<string, unknown> {
  const vectors = isPlainObject(record[VECTORS]) ? record[VECTORS] : {};
  return { ...record, [VECTORS]: { ...vectors, [embedder]: vector } };
}

/** "out.ndjson holds the first 1,280 records: the same command goes on from there". */
function whereItStands(out: string, done: number): string {
  return done === 0 ? `nothing was written to ${out}` : `${out} holds the first ${done.toLocaleString('en')} records: the same command goes on from there`;
}

/**
 * The float32 the server's number stands for, in the fewest digits that
 * give it back (vectors are float32 in the index; the file is half the size
 * of the numbers' full doubles).
 */
function float32Number(x: number): number {
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(x.toPrecision(digits));
    if (Math.fround(shorter) === x) return shorter;
  }
  return x;
}

/** The embedder, its requests in flight and their retries. */
class EmbeddingRun {
  settings: RestEmbedderSettings;
  private embedder: Embedder | undefined;

  constructor(private readonly options: EmbedFileOptions, dimensions: number | undefined) {
    this.settings = restSettings(options, dimensions ?? 1);
    if (dimensions !== undefined) this.embedder = this.embedderOf(this.settings);
  }

  /** Computes the vectors of the window's texts: `batchSize` a request, `concurrency` requests at a time. */
  async embed(window: Pending[], summary: EmbedSummary): Promise<void> {
    const batchSize = this.options.batchSize ?? MAX_TEXTS_PER_REQUEST;
    const toEmbed = window.filter((pending) => pending.text !== undefined);
    const batches: Pending[][] = [];
    for (let start = 0; start < toEmbed.length; start += batchSize) batches.push(toEmbed.slice(start, start + batchSize));
    if (batches.length === 0) return;
    // the first answer says how long the vectors are, when no one said
    if (!this.embedder) await this.learnDimensions(batches.shift()!, summary);
    await Promise.all(batches.map((batch) => this.embedBatch(batch, summary)));
  }

  private async embedBatch(batch: Pending[], summary: EmbedSummary): Promise<void> {
    const vectors = await this.withRetries(() => this.embedder!.embed(batch.map((p) => p.text!), { timeoutMs: this.options.timeoutMs ?? DEFAULTS.timeoutMs }), summary);
    batch.forEach((pending, i) => { pending.vector = Array.from(vectors[i]!, float32Number); });
  }

  /** Embeds the batch with an embedder of 1 dimension: the server's answer (of any other length) says its dimensions. */
  private async learnDimensions(batch: Pending[], summary: EmbedSummary): Promise<void> {
    this.embedder = this.embedderOf(this.settings);
    try {
      await this.embedBatch(batch, summary);
    } catch (e) {
      if (!(e instanceof EmbedderError && e.kind === 'dimensions' && e.received !== undefined)) throw e;
      this.settings = restSettings(this.options, e.received);
      this.embedder = this.embedderOf(this.settings);
      await this.embedBatch(batch, summary);
    }
  }

  private embedderOf(settings: RestEmbedderSettings): Embedder {
    return createEmbedder(this.options.embedder, { ...settings, ...(this.options.apiKey !== undefined && { apiKey: this.options.apiKey }) }, {})!;
  }

  private async withRetries<T>(attempt: () => Promise<T>, summary: EmbedSummary): Promise<T> {
    const { retries = DEFAULTS.retries, retryDelayMs = DEFAULTS.retryDelayMs } = this.options;
    for (let failures = 0; ; failures++) {
      summary.requests++;
      try {
        return await attempt();
      } catch (e) {
        if (!(e instanceof EmbedderError) || !worthRetrying(e)) throw e;
        if (failures === retries) throw new EmbedError(`${e.message}; tried ${retries + 1} times${hintFor(e, this.settings.dimensions)}`);
        summary.retries++;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** failures));
      }
    }
  }
}

/** A failure the same request may not meet again: the server down or busy, an answer cut or garbled. */
function worthRetrying(e: EmbedderError): boolean {
  if (e.kind === 'status') return e.status === undefined || e.status >= 500 || e.status === 408 || e.status === 429;
  return e.kind !== 'dimensions';
}

function hintFor(e: EmbedderError, dimensions: number): string {
  if (e.kind === 'status' && (e.status === 401 || e.status === 403)) return ' (check the API key: --api-key, or the LANTERN_EMBEDDER_API_KEY or OPENAI_API_KEY environment variable)';
  if (e.kind === 'status' && e.status === 404) return ' (check --url, the embeddings endpoint: http://HOST:PORT/v1/embeddings, and --model)';
  if (e.kind === 'status') return ' (check --model and --url)';
  if (e.kind === 'dimensions') return ` (the vectors written so far have ${dimensions}: another --model? pass another --out to start afresh)`;
  if (e.kind === 'unreachable') return ' (is the server running at --url?)';
  return '';
}

/** The embedder's setting, checked as the engine checks it; an error names the flag to change. */
function restSettings(options: EmbedFileOptions, dimensions: number): RestEmbedderSettings {
  const { url, model, embedder, template } = options;
  const settings = { source: 'rest', url, dimensions, ...(model !== undefined && { model }), ...(template !== undefined && { documentTemplate: template }) };
  try {
    return parseEmbedders({ [embedder]: settings })[embedder] as RestEmbedderSettings;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const message = e.message.replace(/"embedders\.[^"]*?\.(\w+)"/, (field, name: string) => FLAG_OF[name] ?? field);
    throw new EmbedError(/embedder name/.test(message) ? `${message} (--embedder)` : message);
  }
}

/**
 * The output a run that stopped left: its whole lines are the first records
 * of the file, passed over (each checked to be the file's record of that
 * place by its objectID); a last line cut short is dropped. New lines are
 * appended after them.
 */
class PreviousOutput {
  private line = 0;

  private constructor(
    private readonly out: string,
    /** The output's lines, until they run out. */
    private lines: AsyncIterator<string> | undefined,
    private readonly stream: ReturnType<typeof createReadStream> | undefined,
    /** The length of the vectors in the output's first line. */
    readonly dimensions: number | undefined,
  ) {}

  static async open(out: string, embedder: string): Promise<PreviousOutput> {
    if (!existsSync(out)) return new PreviousOutput(out, undefined, undefined, undefined);
    await truncate(out, await wholeLinesLength(out));
    const first = await firstLine(out);
    const dimensions = first === undefined ? undefined : writtenVector(parsedLine(first, out, 1), embedder)?.length;
    const stream = createReadStream(out);
    return new PreviousOutput(out, createInterface({ input: stream, crlfDelay: Infinity })[Symbol.asyncIterator](), stream, dimensions);
  }

  /** Whether the output holds the file's record at `position` (the records before it are in: they came first). */
  async holds(position: number, record: Record<string, unknown>, path: string): Promise<boolean> {
    const next = await this.lines?.next();
    if (!next || next.done) { this.lines = undefined; return false; }
    this.line++;
    const written = parsedLine(next.value, this.out, this.line);
    if (written.objectID !== record.objectID) {
      throw new ForeignOutputError(`${this.out} does not hold the records of ${path}: its line ${this.line.toLocaleString('en')} is objectID ${JSON.stringify(written.objectID)}, record ${position.toLocaleString('en')} of ${path} is ${JSON.stringify(record.objectID)} (pass another --out, or remove ${this.out} to start afresh)`);
    }
    return true;
  }

  close(): void {
    this.stream?.destroy();
  }
}

function parsedLine(text: string, out: string, line: number): Record<string, unknown> {
  try {
    const record = JSON.parse(text);
    if (isPlainObject(record)) return record;
  } catch { /* named below */ }
  throw new ForeignOutputError(`${out} line ${line.toLocaleString('en')} is not a JSON record: it is not lantern embed's output`);
}

async function firstLine(path: string): Promise<string | undefined> {
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) return line;
  return undefined;
}

/** The length of the file up to its last line break: what a crash while appending left whole. */
async function wholeLinesLength(path: string): Promise<number> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const chunk = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0;) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await file.read(chunk, 0, end - start, start);
      const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (at >= 0) return start + at + 1;
      end = start;
    }
    return 0;
  } finally {
    await file.close();
  }
}

/**
 * The embedder and length of the vectors in an embedded file (this
 * command's output): its first record's, which has one; stops with one
 * line when there is none.
 */
export async function vectorsOfFile(path: string): Promise<{ embedder: string; dimensions: number }> {
  const first = existsSync(path) ? await firstLine(path) : undefined;
  if (first === undefined) throw new EmbedError(`${path} is missing or empty: compute it with lantern embed`);
  const vectors = parsedLine(first, path, 1)[VECTORS];
  const [embedder, vector] = Object.entries(isPlainObject(vectors) ? vectors : {}).find(([, v]) => Array.isArray(v)) ?? [];
  if (embedder === undefined) throw new EmbedError(`${path}: its first record has no "${VECTORS}": compute the file with lantern embed`);
  return { embedder, dimensions: (vector as unknown[]).length };
}
