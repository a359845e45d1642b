// A batch's log text built from its records' texts: each added or updated
// record is stringified once, and its UTF-8 in the log's bytes is what the
// record store packs (see util/json-text.ts). On the file store each record was
// stringified and encoded twice, in its batch's text and again in its chunk.
// The text is JSON.stringify's of the whole batch, byte for byte: the same
// parts, in its order, each record's text where the batch's would hold it.
import { noteJsonText } from '../util/json-text.js';
import { ByteWriter } from '../util/bytes.js';

/** An operation on records: a batch of actions. */
export interface Batch { actions: unknown[] }

export const isBatch = (op: object): op is Batch => 'actions' in op && Array.isArray(op.actions);

export interface BatchText {
  /** The batch's JSON text (only when asked for). */
  text?: string;
  /** Its UTF-8. */
  utf8: Uint8Array;
  /**
   * Per action, where the UTF-8 of the record it adds or updates starts and
   * ends in `utf8` (-1 for any other action): two numbers in one array, not
   * a view per record (a queued batch's thousand views survived every
   * young-generation collection while it waited).
   */
  records: Int32Array;
}

/** What JSON.stringify writes of the batch's actions when there are none: a key only the batch's own level can hold (a quote within a string is escaped). */
const NO_ACTIONS = '"actions":[]';

/** What JSON.stringify writes of a record action before its record, by action. */
const RECORD_ACTION_HEAD: Record<string, string> = {
  addObject: '{"action":"addObject","body":',
  updateObject: '{"action":"updateObject","body":',
};

/**
 * The record of an action written `{ action, body }` with those keys only,
 * in that order (as toAction makes it), whose record JSON.stringify writes
 * as it is (no toJSON): the batch's text then holds the record's own.
 */
function recordOf(action: unknown): object | undefined {
  if (typeof action !== 'object' || action === null) return undefined;
  const { action: kind, body } = action as { action?: unknown; body?: unknown };
  if (typeof kind !== 'string' || !(kind in RECORD_ACTION_HEAD) || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  if (typeof (body as { toJSON?: unknown }).toJSON === 'function') return undefined;
  let keys = 0;
  for (const key in action) if (key !== (keys++ === 0 ? 'action' : 'body')) return undefined;
  return keys === 2 ? body : undefined;
}

/**
 * The batch's JSON text in UTF-8 and, per action, where its record's text
 * is in it; `withText`: the text as a string too. Throws what
 * JSON.stringify throws for a value JSON cannot hold.
 */
export function batchText(op: Batch, withText: boolean): BatchText {
  const skeleton = JSON.stringify({ ...op, actions: [] });
  const cut = skeleton.indexOf(NO_ACTIONS) + NO_ACTIONS.length - 1; // at the actions' "]"
  const { actions } = op;
  // the records' texts first: the bytes are then counted before they are written
  const texts = new Array<string | undefined>(actions.length);
  let units = skeleton.length;
  let longest = 0;
  for (let i = 0; i < actions.length; i++) {
    const record = recordOf(actions[i]);
    const text = record && JSON.stringify(record);
    texts[i] = text;
    const length = text?.length ?? 0;
    units += length + 40;
    if (length > longest) longest = length;
  }
  // room for text that is all ASCII, and some; a UTF-8 append reserves 3 bytes a unit
  const writer = new ByteWriter(units + (units >> 4) + 3 * longest + 64);
  const parts: string[] = [];
  const write = (part: string) => { writer.appendUtf8(part); if (withText) parts.push(part); };
  const records = new Int32Array(actions.length * 2).fill(-1);
  let glue = skeleton.slice(0, cut);
  for (let i = 0; i < actions.length; i++) {
    if (i > 0) glue += ',';
    const text = texts[i];
    if (text === undefined) {
      glue += JSON.stringify(actions[i]) ?? 'null';
      continue;
    }
    write(glue + RECORD_ACTION_HEAD[(actions[i] as { action: string }).action]);
    records[i * 2] = writer.length;
    write(text);
    records[i * 2 + 1] = writer.length;
    glue = '}';
  }
  write(glue + skeleton.slice(cut));
  // one flat string: a rope of the parts waiting in the task queue was thousands of objects the young generation copied
  return { text: withText ? parts.join('') : undefined, utf8: writer.take(), records };
}

/** Notes the records of `op`, a batch decoded from a BatchText's text or the batch it was made of, with their texts in `utf8` (see util/json-text.ts). */
export function noteRecordTexts(op: Batch, utf8: Uint8Array, records: Int32Array): void {
  for (let i = 0; i * 2 < records.length; i++) {
    const start = records[i * 2];
    if (start >= 0) noteJsonText((op.actions[i] as { body: object }).body, utf8.subarray(start, records[i * 2 + 1]));
  }
}
