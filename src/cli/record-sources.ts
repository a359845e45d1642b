// The records of a file, read as a stream in constant memory: a JSON array
// (@streamparser/json: one element at a time, as JSON.parse would give it),
// NDJSON (a record a line) or CSV with a header row (csv-parse; numbers and
// booleans inferred unless --types says otherwise). Each record comes with
// its position (1-based) and the line it starts on where the format has
// lines, so a bad one can be named. A record that cannot be read (a line
// that is not JSON, a CSV row with too many fields, a value not of its
// --types type) comes as an UnreadableRecord, counted like the others: the
// import decides whether it stops there or sets it aside, and --skip N
// passes over N records whether they could be read or not.
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { JSONParser, TokenType } from '@streamparser/json';
import { parse as parseCsv, type CsvError, type Parser } from 'csv-parse';

export type RecordFormat = 'json' | 'ndjson' | 'csv';
export const FORMATS: readonly RecordFormat[] = ['json', 'ndjson', 'csv'];

/** A CSV column's type: inferred (a number, true/false, else text) unless given. */
export type ColumnType = 'string' | 'number' | 'boolean' | 'json';
export const COLUMN_TYPES: readonly ColumnType[] = ['string', 'number', 'boolean', 'json'];

/** A record read from the file; `text` is what the file holds for it where the format keeps it apart (NDJSON, CSV). */
export interface SourcedRecord { record: unknown; position: number; line?: number; text?: string }

/** A record that cannot be read: where it is, what the file holds for it, and why. */
export interface UnreadableRecord { problem: string; position: number; line?: number; text: string }

export type SourcedEntry = SourcedRecord | UnreadableRecord;

export const isUnreadable = (entry: SourcedEntry): entry is UnreadableRecord => 'problem' in entry;

/** A file that is not of its format, past a point it can be read again from: the message names where. */
export class SourceError extends Error {}

/** "record 1,501 (line 1,502)", or "record 7" where the format has no lines. */
export function placeOf({ position, line }: { position: number; line?: number }): string {
  return `record ${position.toLocaleString('en')}${line === undefined ? '' : ` (line ${line.toLocaleString('en')})`}`;
}

export interface RecordSource {
  format: RecordFormat;
  /** The file's size, and how much of it has been read (for the progress line's ETA). */
  totalBytes: number;
  bytesRead(): number;
  records: AsyncIterable<SourcedEntry>;
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

/**
 * The elements of a top-level JSON array, one at a time, each with its text
 * as the file holds it. A syntax error ends the file (nothing after it can
 * be told apart): the records before it come first, then the error.
 */
async function* jsonArray(stream: AsyncIterable<Buffer>): AsyncGenerator<SourcedRecord> {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  const texts = new ElementTexts();
  parser.onToken = (token) => texts.see(token);
  const ready: unknown[] = [];
  let notAnArray = false;
  // an element of the top-level array has a numeric key; a member of a top-level object, a name
  parser.onValue = ({ value, key }) => {
    if (typeof key === 'number') ready.push(value);
    else notAnArray = true;
  };
  let position = 0;
  let broken: Error | undefined;
  // an element's text is known once the comma or bracket after it is read, its value before
  function* records(): Generator<SourcedRecord> {
    while (ready.length > 0 && (texts.done.length > 0 || broken || parser.isEnded)) {
      const text = texts.done.shift();
      yield { record: ready.shift(), position: ++position, ...(text === undefined ? {} : { text }) };
    }
  }
  for await (const chunk of stream) {
    texts.hold(chunk);
    try {
      parser.write(chunk);
    } catch (e) {
      broken = e as Error;
    }
    if (notAnArray) break;
    yield* records();
    if (broken) break;
  }
  if (notAnArray) throw new SourceError('the file holds a JSON object, not an array of records (one record a line: pass --format ndjson)');
  // the parser ends by itself once the array closes; a file cut short ends here, with an error
  if (!broken && !parser.isEnded) {
    try {
      parser.end();
    } catch (e) {
      broken = e as Error;
    }
  }
  yield* records();
  if (broken) throw new SourceError(`not a JSON array after record ${position.toLocaleString('en')}: ${broken.message}`);
}

/**
 * The text of each element of the top-level array, from the tokenizer's
 * offsets: an element runs from its first token to the comma or bracket
 * that follows it. The bytes read are held from the end of the last element
 * on (a few bytes between elements, one element at most).
 */
class ElementTexts {
  /** The texts of the elements read whole, not yet taken. */
  readonly done: string[] = [];
  private depth = 0;
  /** The offset in the file of the open element's first token (undefined between elements). */
  private start: number | undefined;
  private held: Buffer = Buffer.alloc(0);
  /** The offset in the file of held[0]. */
  private heldFrom = 0;

  hold(chunk: Buffer): void {
    this.held = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
  }

  see({ token, offset }: { token: TokenType; offset: number }): void {
    const opens = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
    const closes = token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET;
    if (this.depth === 1 && this.start === undefined && !closes && token !== TokenType.COMMA) this.start = offset;
    if (opens) this.depth++;
    if (closes) this.depth--;
    if ((this.depth === 1 && token === TokenType.COMMA) || (this.depth === 0 && closes)) this.close(offset);
  }

  private close(end: number): void {
    if (this.start === undefined) return;
    this.done.push(this.held.subarray(this.start - this.heldFrom, end - this.heldFrom).toString('utf8').trim());
    this.held = this.held.subarray(end - this.heldFrom);
    this.heldFrom = end;
    this.start = undefined;
  }
}

/** One JSON record a line; blank lines are skipped. */
async function* ndjson(stream: NodeJS.ReadableStream): AsyncGenerator<SourcedEntry> {
  let line = 0;
  let position = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    position++;
    try {
      yield { record: JSON.parse(text), position, line, text };
    } catch (e) {
      yield { problem: `not JSON: ${(e as Error).message}`, position, line, text };
    }
  }
}

/** A row csv-parse passed over (skip_records_with_error), after how many rows it had read. */
interface SkippedRow { after: number; error: CsvError; raw: string }

/**
 * Rows under a header row, as records; values typed by `columnTypes`, else
 * inferred. A row csv-parse cannot read is passed over by it and told to
 * on_skip, ahead of the rows read after it: it is given its place among them.
 */
async function* csv(stream: NodeJS.ReadableStream, columnTypes: Record<string, ColumnType>): AsyncGenerator<SourcedEntry> {
  const skipped: SkippedRow[] = [];
  const parser: Parser = stream.pipe(parseCsv({
    columns: true, skip_empty_lines: true, bom: true, info: true, raw: true, skip_records_with_error: true,
    on_skip: (error, raw) => void skipped.push({ after: parser.info.records, error: error!, raw: raw ?? '' }),
  }));
  let position = 0;
  // the rows passed over before the row numbered `row` (by csv-parse, which counts only the rows it read)
  function* unreadable(row: number): Generator<UnreadableRecord> {
    while (skipped.length > 0 && skipped[0]!.after < row) {
      const { error, raw } = skipped.shift()!;
      yield { problem: error.message, position: ++position, line: firstLine(Number(error.lines), raw), text: withoutBreaks(raw) };
    }
  }
  try {
    for await (const { record, info, raw } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number; records: number }; raw: string }>) {
      yield* unreadable(info.records);
      const line = firstLine(info.lines, raw);
      const text = withoutBreaks(raw);
      position++;
      try {
        yield { record: typedRow(record, columnTypes), position, line, text };
      } catch (e) {
        if (!(e instanceof SourceError)) throw e;
        yield { problem: e.message, position, line, text };
      }
    }
  } catch (e) {
    throw new SourceError(`not CSV after record ${position.toLocaleString('en')}: ${(e as Error).message}`);
  }
  yield* unreadable(Infinity);
}

/** A row's text as csv-parse gives it: the blank lines before it, and its line break, left out. */
const withoutBreaks = (raw: string) => raw.replace(/^(\r?\n)+/, '').replace(/\r?\n$/, '');

/** The line a row starts on, from the line it ends on (csv-parse's count): a quoted field may span lines. */
const firstLine = (lastLine: number, raw: string) => lastLine - (withoutBreaks(raw).match(/\n/g)?.length ?? 0);

function typedRow(row: Record<string, string>, columnTypes: Record<string, ColumnType>): Record<string, unknown> {
  const record: Record<string, unknown> = Object.create(null);
  for (const [column, text] of Object.entries(row)) {
    const type = columnTypes[column];
    record[column] = type ? converted(text, type, column) : inferred(text);
  }
  return { ...record };
}

function inferred(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  return text;
}

function converted(text: string, type: ColumnType, column: string): unknown {
  if (type === 'string') return text;
  if (type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (type === 'json') {
    try {
      return JSON.parse(text);
    } catch { /* named below */ }
  }
  throw new SourceError(`column "${column}": "${text.slice(0, 40)}" is not a ${type}`);
}
