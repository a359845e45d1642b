// The records of a file, read as a stream in constant memory: a JSON array
// (@streamparser/json: one element at a time, as JSON.parse would give it),
// NDJSON (a record a line) or CSV with a header row (csv-parse; numbers and
// booleans inferred unless --types says otherwise). Each record comes with
// its position (1-based) and line where the format has lines, so a bad one
// can be named.
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { JSONParser } from '@streamparser/json';
import { parse as parseCsv } from 'csv-parse';

export type RecordFormat = 'json' | 'ndjson' | 'csv';
export const FORMATS: readonly RecordFormat[] = ['json', 'ndjson', 'csv'];

/** A CSV column's type: inferred (a number, true/false, else text) unless given. */
export type ColumnType = 'string' | 'number' | 'boolean' | 'json';
export const COLUMN_TYPES: readonly ColumnType[] = ['string', 'number', 'boolean', 'json'];

export interface SourcedRecord { record: unknown; position: number; line?: number }

/** A bad record or a file that is not of its format: the message names where. */
export class SourceError extends Error {}

export interface RecordSource {
  format: RecordFormat;
  /** The file's size, and how much of it has been read (for the progress line's ETA). */
  totalBytes: number;
  bytesRead(): number;
  records: AsyncIterable<SourcedRecord>;
}

/** The format: given, or by the file's extension, or by its first character ('[' an array, '{' NDJSON). */
export async function detectFormat(path: string, given?: string): Promise<RecordFormat> {
  if (given !== undefined) {
    if (!(FORMATS as readonly string[]).includes(given)) throw new SourceError(`--format must be one of ${FORMATS.join(', ')}, not "${given}"`);
    return given as RecordFormat;
  }
  const extension = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (extension === 'csv') return 'csv';
  if (extension === 'ndjson' || extension === 'jsonl') return 'ndjson';
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(4096), 0, 4096, 0);
    const first = buffer.subarray(0, bytesRead).toString('utf8').trimStart()[0];
    if (first === '[') return 'json';
    if (first === '{') return 'ndjson';
    if (extension === 'json') return 'json';
    throw new SourceError(`${path} is neither a JSON array, NDJSON nor CSV by its start: pass --format`);
  } finally {
    await file.close();
  }
}

export function openRecords(path: string, format: RecordFormat, columnTypes: Record<string, ColumnType> = {}): RecordSource {
  const totalBytes = statSync(path).size;
  const stream = createReadStream(path);
  const records = format === 'json' ? jsonArray(stream) : format === 'ndjson' ? ndjson(stream) : csv(stream, columnTypes);
  return { format, totalBytes, bytesRead: () => stream.bytesRead, records };
}

/** The elements of a top-level JSON array, one at a time. */
async function* jsonArray(stream: AsyncIterable<Buffer>): AsyncGenerator<SourcedRecord> {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  const ready: unknown[] = [];
  let notAnArray = false;
  // an element of the top-level array has a numeric key; a member of a top-level object, a name
  parser.onValue = ({ value, key }) => {
    if (typeof key === 'number') ready.push(value);
    else notAnArray = true;
  };
  let position = 0;
  try {
    for await (const chunk of stream) {
      parser.write(chunk);
      if (notAnArray) break;
      for (const record of ready.splice(0)) yield { record, position: ++position };
    }
    // the parser ends by itself once the array closes; a file cut short ends here, with an error
    if (!notAnArray && !parser.isEnded) parser.end();
  } catch (e) {
    throw new SourceError(`not a JSON array after record ${position}: ${(e as Error).message}`);
  }
  if (notAnArray) throw new SourceError('the file holds a JSON object, not an array of records (one record a line: pass --format ndjson)');
  for (const record of ready.splice(0)) yield { record, position: ++position };
}

/** One JSON record a line; blank lines are skipped. */
async function* ndjson(stream: NodeJS.ReadableStream): AsyncGenerator<SourcedRecord> {
  let line = 0;
  let position = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (e) {
      throw new SourceError(`line ${line} is not JSON: ${(e as Error).message}`);
    }
    yield { record, position: ++position, line };
  }
}

/** Rows under a header row, as records; values typed by `columnTypes`, else inferred. */
async function* csv(stream: NodeJS.ReadableStream, columnTypes: Record<string, ColumnType>): AsyncGenerator<SourcedRecord> {
  const parser = stream.pipe(parseCsv({ columns: true, skip_empty_lines: true, bom: true, info: true }));
  let position = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      position++;
      yield { record: typedRow(record, columnTypes, info.lines), position, line: info.lines };
    }
  } catch (e) {
    if (e instanceof SourceError) throw e;
    throw new SourceError(`not CSV after record ${position}: ${(e as Error).message}`);
  }
}

function typedRow(row: Record<string, string>, columnTypes: Record<string, ColumnType>, line: number): Record<string, unknown> {
  const record: Record<string, unknown> = Object.create(null);
  for (const [column, text] of Object.entries(row)) {
    const type = columnTypes[column];
    record[column] = type ? converted(text, type, column, line) : inferred(text);
  }
  return { ...record };
}

function inferred(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  return text;
}

function converted(text: string, type: ColumnType, column: string, line: number): unknown {
  if (type === 'string') return text;
  if (type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (type === 'json') {
    try {
      return JSON.parse(text);
    } catch { /* named below */ }
  }
  throw new SourceError(`line ${line}, column "${column}": "${text.slice(0, 40)}" is not a ${type}`);
}
