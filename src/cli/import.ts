// `lantern import`: the records of a file into an index, a batch at a time,
// in constant memory (the file is streamed, one batch is applied while the
// next is read). Interrupted (Ctrl-C), it stops after the batch in flight:
// what was imported is durable, and the summary says how to resume.
import type { LanternClient } from '../api/client.js';
import { ApiError } from '../util/errors.js';
import { openRecords, detectFormat, type ColumnType, type SourcedRecord } from './record-sources.js';
import { Progress } from './progress.js';

export interface ImportOptions {
  indexName: string;
  path: string;
  /** json, ndjson or csv; by default from the extension or the first character. */
  format?: string;
  /** CSV columns' types; the others are inferred. */
  columnTypes?: Record<string, ColumnType>;
  /** Settings to apply first. */
  settings?: Record<string, unknown>;
  /** Create the replicas the settings name (left out by default: each is a full index). */
  withReplicas?: boolean;
  /** Records at the start of the file already imported (a resumed import). */
  skip?: number;
  batchSize?: number;
  /** Reads and checks the file without writing anything: what an import would do. */
  dryRun?: boolean;
  /** Stops the import after the batch in flight. */
  signal?: AbortSignal;
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
  const replicasLeftOut = options.settings && !options.dryRun ? await applySettings(client, indexName, options.settings, options.withReplicas ?? false) : [];
  const source = openRecords(path, await detectFormat(path, options.format), options.columnTypes);
  const progress = new Progress(source, options.progressTo);
  const summary: ImportSummary = { imported: 0, skipped: 0, withoutObjectID: 0, replicasLeftOut, interrupted: false, seconds: 0 };
  let applying: Promise<void> | undefined;
  let batch: SourcedRecord[] = [];
  const send = async () => {
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
