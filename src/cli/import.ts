// `lantern import`: the records of a file into an index, a batch at a time,
// in constant memory (the file is streamed, one batch is applied while the
// next is read). Interrupted (Ctrl-C), it stops after the batch in flight:
// what was imported is durable, and the summary says how to resume.
import type { LanternClient } from '../api/client.js';
import { ApiError } from '../util/errors.js';
import { openRecords, detectFormat, type ColumnType, type SourcedRecord } from './record-sources.js';
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
  /** Records at the start of the file already imported (a resumed import). */
  skip?: number;
  batchSize?: number;
  /** Reads and checks the file without writing anything: what an import would do. */
  dryRun?: boolean;
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
  /** Records with no objectID, given one by the engine (importing the file again adds them again). */
  withoutObjectID: number;
  /** Replicas the settings named that were not created. */
  replicasLeftOut: string[];
  /** The settings inferred from the file (inferSettings), with the number of records they were inferred from. */
  inferred?: { settings: SearchBoxSettings; from: number };
  /** Stopped by the signal before the end of the file. */
  interrupted: boolean;
  seconds: number;
}

/** A batch the engine refused, named by its records' places in the file. */
export class ImportError extends Error {}

const BATCH = 1000;

/** Streams a file into an index through `client` (an engine's, in-process, or a server's over HTTP). */
export async function importFile(client: LanternClient, options: ImportOptions): Promise<ImportSummary> {
  const { indexName, path, skip = 0, batchSize = BATCH, signal } = options;
  const started = performance.now();
  const summary: ImportSummary = { imported: 0, skipped: 0, withoutObjectID: 0, replicasLeftOut: [], interrupted: false, seconds: 0 };
  const beforeBatch = await settingsStep(client, options, summary);
  const source = openRecords(path, await detectFormat(path, options.format), options.columnTypes);
  const progress = new Progress(source, options.progressTo);
  let applying: Promise<void> | undefined;
  let batch: SourcedRecord[] = [];
  const send = async () => {
    await beforeBatch(batch);
    if (options.dryRun) return void (summary.imported += batch.splice(0).length);
    const requests = batch.map(({ record }) => ({ action: 'addObject' as const, body: record as Record<string, unknown> }));
    const { taskID } = await client.batch({ indexName, batchWriteParams: { requests } }).catch((e: Error) => {
      // a refusal names the records; anything else (a server that does not answer) passes as it is
      if (!(e instanceof ApiError)) throw e;
      throw new ImportError(`${placeOf(batch)} were not imported (nor anything after them): ${e.message}`);
    });
    // the batch before this one is applied while this one was read and sent
    await applying;
    applying = client.waitForTask({ indexName, taskID });
    summary.imported += batch.length;
    batch = [];
    progress.update(skip + summary.imported);
  };
  for await (const sourced of source.records) {
    if (sourced.position <= skip) { summary.skipped++; continue; }
    if (!hasObjectID(sourced.record)) summary.withoutObjectID++;
    batch.push(sourced);
    if (batch.length < batchSize) continue;
    await send();
    if (signal?.aborted) { summary.interrupted = true; break; }
  }
  if (batch.length > 0 && !summary.interrupted) await send();
  await applying;
  progress.done();
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

/**
 * The import's settings: applied at once when given, or, inferred from the
 * first batch (a new index only), before that batch is sent. Returns what
 * runs before each batch.
 */
async function settingsStep(client: LanternClient, options: ImportOptions, summary: ImportSummary): Promise<(batch: SourcedRecord[]) => Promise<void>> {
  const apply = async (settings: Record<string, unknown> | undefined) => {
    if (!settings || options.dryRun) return;
    summary.replicasLeftOut = await applySettings(client, options.indexName, settings, options.withReplicas ?? false);
  };
  if (!options.inferSettings || !await isNewIndex(client, options.indexName)) {
    await apply(options.settings);
    return async () => {};
  }
  let due = true;
  return async (batch) => {
    if (!due) return;
    due = false;
    summary.inferred = { settings: searchBoxSettings(batch.map((b) => b.record)), from: batch.length };
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
function placeOf(batch: SourcedRecord[]): string {
  const first = batch[0]!, last = batch.at(-1)!;
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
