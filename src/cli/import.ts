// `lantern import`: the records of a file into an index, a batch at a time,
// in constant memory (the file is streamed, one batch is applied while the
// next is read). Interrupted (Ctrl-C) or stopped by a record it cannot
// import, it stops after the records before: what was imported is durable,
// and the summary says how many records of the file are done with (the
// --skip that goes on from there). With a rejects file, the records it
// cannot import are set aside there instead, and the import goes on.
import type { LanternClient } from '../api/client.js';
import { ApiError } from '../util/errors.js';
import {
  openRecords, detectFormat, isUnreadable, placeOf, SourceError, type ColumnType, type SourcedEntry, type SourcedRecord,
} from './record-sources.js';
import { NoAnswerError } from './http.js';
import type { RejectsFile } from './rejects.js';
import { Progress } from './progress.js';
import { searchBoxSettings, type SearchBoxSettings } from '../index/search-box-settings.js';

export interface ImportOptions {
  indexName: string;
  path: string;
  /** json, ndjson or csv; by default from the extension or the first character. */
  format?: string;
  /** CSV columns' types; the others are inferred. */
  columnTypes?: Record<string, ColumnType>;
  /** Settings to apply first. */
  settings?: Record<string, unknown>;
  /**
   * Infer search-box settings (searchable attributes, the recipe) from the
   * file's first batch and lay them over `settings`, when the index does
   * not exist yet (an existing index keeps its own).
   */
  inferSettings?: boolean;
  /** Create the replicas the settings name (left out by default: each is a full index). */
  withReplicas?: boolean;
  /** Records at the start of the file already imported (a resumed import): passed over, read or not. */
  skip?: number;
  batchSize?: number;
  /** Reads and checks the file without writing anything: what an import would do. */
  dryRun?: boolean;
  /**
   * Where the records that cannot be read or that the engine refuses go;
   * without it, the first of them stops the import.
   */
  rejects?: RejectsFile;
  /** Stops the import after the batch in flight. */
  signal?: AbortSignal;
  /** Told the inferred settings before they are applied (so a user sees them while the import runs). */
  onInferred?: (inferred: NonNullable<ImportSummary['inferred']>) => void;
  /** Where the progress line goes (a terminal only). */
  progressTo?: NodeJS.WriteStream;
}

export interface ImportSummary {
  /** Records imported (with dryRun: read, and would be imported). */
  imported: number;
  /** Records read and passed over (--skip). */
  skipped: number;
  /** Records set aside in the rejects file. */
  rejected: number;
  /**
   * The records from the start of the file that are done with (imported,
   * set aside or passed over): the --skip that goes on from where the
   * import stopped.
   */
  done: number;
  /** Records with no objectID, given one by the engine (importing the file again adds them again). */
  withoutObjectID: number;
  /** Replicas the settings named that were not created. */
  replicasLeftOut: string[];
  /** The settings inferred from the file (inferSettings), with the number of records they were inferred from. */
  inferred?: { settings: SearchBoxSettings; from: number };
  /** Stopped by the signal before the end of the file. */
  interrupted: boolean;
  /**
   * Why the import stopped before the end of the file: a record it could
   * not read or the engine refused (without rejects), a file not of its
   * format from some point on, a server that stopped answering. `record`:
   * the one record it stopped at, when there is one.
   */
  stopped?: { reason: string; record?: number };
  seconds: number;
}

/** Settings the engine refused, before any record was sent. */
export class ImportError extends Error {}

const BATCH = 1000;

/**
 * Streams a file into an index through `client` (an engine's, in-process, or
 * a server's over HTTP), a batch at a time, in the file's order: whatever
 * stops it, the records before `done` are in (or set aside) and none after.
 */
export async function importFile(client: LanternClient, options: ImportOptions): Promise<ImportSummary> {
  const { path, skip = 0, batchSize = BATCH, signal } = options;
  const started = performance.now();
  const summary: ImportSummary = { imported: 0, skipped: 0, rejected: 0, done: 0, withoutObjectID: 0, replicasLeftOut: [], interrupted: false, seconds: 0 };
  const beforeBatch = await settingsStep(client, options, summary);
  const source = openRecords(path, await detectFormat(path, options.format), options.columnTypes);
  const progress = new Progress(source, options.progressTo);
  const writer = new BatchWriter(client, options, summary, beforeBatch);
  let batch: SourcedEntry[] = [];
  const send = async () => {
    await writer.send(batch);
    batch = [];
    progress.update(summary.done);
  };
  try {
    for await (const entry of source.records) {
      if (entry.position <= skip) { summary.skipped++; summary.done = entry.position; continue; }
      if (isUnreadable(entry) && !options.rejects) {
        // the records before it are written: --skip goes on from it, once it is fixed
        await send();
        summary.stopped = { reason: `${placeOf(entry)}: ${entry.problem}`, record: entry.position };
        break;
      }
      if (!isUnreadable(entry) && !hasObjectID(entry.record)) summary.withoutObjectID++;
      batch.push(entry);
      if (batch.length < batchSize) continue;
      await send();
      if (signal?.aborted) { summary.interrupted = true; break; }
    }
    if (batch.length > 0 && !summary.interrupted && !summary.stopped) await send();
  } catch (e) {
    if (!(e instanceof SourceError || e instanceof RefusedError || e instanceof NoAnswerError || e instanceof ApiError)) throw e;
    summary.stopped = { reason: e.message };
    // a file unreadable from some point on: the records read before it are written
    if (e instanceof SourceError) await send().catch(() => {});
  }
  await writer.applied();
  progress.done();
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

/** A batch the engine refused (no rejects file to set its records aside in), named by its records' places. */
class RefusedError extends Error {}

/**
 * Sends batches of entries: the records are written, the unreadable ones and
 * those the engine refuses set aside (with a rejects file). A batch is
 * applied while the next one is read and sent.
 */
class BatchWriter {
  private applying: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: LanternClient,
    private readonly options: ImportOptions,
    private readonly summary: ImportSummary,
    private readonly beforeBatch: (records: SourcedRecord[]) => Promise<void>,
  ) {}

  /**
   * Writes the batch's records and sets the others aside; `done` moves past
   * the batch once the batch before it is applied (an error leaves it before
   * the batch: going on from there sends the batch again).
   */
  async send(batch: SourcedEntry[]): Promise<void> {
    if (batch.length === 0) return;
    const records = batch.filter((entry): entry is SourcedRecord => !isUnreadable(entry));
    await this.beforeBatch(records);
    if (this.options.dryRun) this.summary.imported += records.length;
    const tasks = this.options.dryRun ? [] : await this.write(records);
    for (const entry of batch) if (isUnreadable(entry)) this.setAside(entry, entry.problem);
    await this.applying;
    this.applying = Promise.all(tasks.map((taskID) => this.client.waitForTask({ indexName: this.options.indexName, taskID })));
    this.summary.done = batch.at(-1)!.position;
  }

  /** Resolves once every batch sent is applied. */
  applied(): Promise<unknown> {
    return this.applying;
  }

  /**
   * Writes the records; returns the tasks that apply them. A batch the
   * engine refuses for its records is halved, with a rejects file, until
   * each refused record stands alone and is set aside.
   */
  private async write(records: SourcedRecord[]): Promise<number[]> {
    if (records.length === 0) return [];
    const { indexName, rejects } = this.options;
    const requests = records.map(({ record }) => ({ action: 'addObject' as const, body: record as Record<string, unknown> }));
    try {
      const { taskID } = await this.client.batch({ indexName, batchWriteParams: { requests } });
      this.summary.imported += records.length;
      return [taskID];
    } catch (e) {
      // a server that does not answer, a full disk: nothing to do with the records
      if (!isRefusalOfRecords(e)) throw e;
      if (!rejects) throw new RefusedError(`${rangeOf(records)} were not imported: ${e.message}`);
      if (records.length === 1) {
        this.setAside(records[0]!, e.message);
        return [];
      }
      const half = Math.ceil(records.length / 2);
      return [...await this.write(records.slice(0, half)), ...await this.write(records.slice(half))];
    }
  }

  private setAside(entry: SourcedEntry, reason: string): void {
    const text = entry.text ?? JSON.stringify((entry as SourcedRecord).record);
    this.options.rejects!.add({ record: entry.position, ...(entry.line === undefined ? {} : { line: entry.line }), reason, text });
    this.summary.rejected++;
  }
}

/** An error the engine answers for what the records hold (a bad value, a record too large), not for the engine's own state. */
const isRefusalOfRecords = (e: unknown): e is ApiError => e instanceof ApiError && (e.status === 400 || e.status === 413);

/**
 * The import's settings: applied at once when given, or, inferred from the
 * first batch (a new index only), before that batch is sent. Returns what
 * runs before each batch.
 */
async function settingsStep(client: LanternClient, options: ImportOptions, summary: ImportSummary): Promise<(records: SourcedRecord[]) => Promise<void>> {
  const apply = async (settings: Record<string, unknown> | undefined) => {
    if (!settings || options.dryRun) return;
    summary.replicasLeftOut = await applySettings(client, options.indexName, settings, options.withReplicas ?? false);
  };
  if (!options.inferSettings || !await isNewIndex(client, options.indexName)) {
    await apply(options.settings);
    return async () => {};
  }
  let due = true;
  return async (records) => {
    if (!due || records.length === 0) return;
    due = false;
    summary.inferred = { settings: searchBoxSettings(records.map((r) => r.record)), from: records.length };
    options.onInferred?.(summary.inferred);
    await apply({ ...options.settings, ...summary.inferred.settings });
  };
}

/** The index does not exist yet (its settings are ours to choose). */
async function isNewIndex(client: LanternClient, indexName: string): Promise<boolean> {
  return client.getSettings({ indexName }).then(() => false, (e: Error) => {
    if (e instanceof ApiError && e.status === 404) return true;
    throw e;
  });
}

const hasObjectID = (record: unknown) =>
  typeof record === 'object' && record !== null && typeof (record as { objectID?: unknown }).objectID === 'string';

/** "records 1,001 to 2,000 (lines 1,002 to 2,001)" */
function rangeOf(records: SourcedRecord[]): string {
  const first = records[0]!, last = records.at(-1)!;
  const lines = first.line !== undefined ? ` (lines ${first.line.toLocaleString('en')} to ${last.line!.toLocaleString('en')})` : '';
  return `records ${first.position.toLocaleString('en')} to ${last.position.toLocaleString('en')}${lines}`;
}

/** Applies the settings, without their replicas unless asked; returns the replicas left out. */
async function applySettings(client: LanternClient, indexName: string, settings: Record<string, unknown>, withReplicas: boolean): Promise<string[]> {
  const named = [...asNames(settings.replicas), ...asNames(settings.slaves)];
  const applied = { ...settings };
  if (!withReplicas) { delete applied.replicas; delete applied.slaves; }
  const { taskID } = await client.setSettings({ indexName, indexSettings: applied }).catch((e: Error) => {
    if (!(e instanceof ApiError)) throw e;
    throw new ImportError(`the settings were refused: ${e.message}`);
  });
  await client.waitForTask({ indexName, taskID });
  return withReplicas ? [] : named;
}

const asNames = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
