// A large batch as the log holds it: its JSON written as UTF-8 an action at
// a time, each added or updated record stringified alone. JSON.stringify of
// a whole batch (~430 KB) made a rope that its first read flattened into a
// large string, and its UTF-8 read back into another: fresh memory of that
// size twice a batch, for a third of what the file store added to an
// import. Here every string is a record's or an action's, short-lived; the
// bytes are JSON.stringify's of the whole batch, byte for byte. The batch
// then runs as it was given, each record with its bytes beside it, which the
// record store packs as they are (see LOGGED_TEXT), not stringified and
// encoded again. Reading each record back from its bytes (what a replay
// reads) took a tenth of an import on the file store and gave the same
// records: every body a log is given is JSON's own (parsed from the wire,
// or copied at the in-process border as JSON would carry it), as a small
// batch, which runs as it was given too, relies on.
import { LOGGED_TEXT } from '../util/logged-text.js';
import type { ByteWriter } from '../util/bytes.js';

/** An operation on records: a batch of actions. */
export interface Batch { actions: unknown[] }

export const isBatch = (op: object): op is Batch => 'actions' in op && Array.isArray(op.actions);

/** A batch written by writeBatch: where each action's JSON is in the bytes. */
export interface WrittenBatch {
  /** Per action: where its JSON starts and ends in the bytes (its record's, for a record action). */
  ranges: Int32Array;
  /** Per action: the record action it is (its kind in RECORD_KINDS, from 1), or 0 for any other. */
  kinds: Uint8Array;
}

/** A batch as the log holds it: its JSON's UTF-8 and where each action is in it. */
export interface LoggedBatch extends WrittenBatch { utf8: Uint8Array }

/** Record actions, as their JSON starts before their record. */
const RECORD_KINDS = ['addObject', 'updateObject'] as const;
const RECORD_HEADS = RECORD_KINDS.map((kind) => `{"action":"${kind}","body":`);

/**
 * What JSON.stringify writes of the batch's actions when there are none.
 * A batch's other members are strings and numbers (type, indexName,
 * userID, at), within which a quote is escaped: the text appears once.
 * writeBatch checks it, should a member holding objects ever be added.
 */
const NO_ACTIONS = '"actions":[]';
const CLOSING_BRACE = 0x7d;
const COMMA = 0x2c;

/**
 * The record action `action` is (its kind, from 1), written `{ action, body }`
 * with those keys only, in that order (as toAction makes it), its record
 * one JSON.stringify writes as it is (an object without toJSON): the
 * batch's JSON then holds the record's own. 0 for any other action.
 */
function recordKindOf(action: unknown): number {
  if (typeof action !== 'object' || action === null) return 0;
  const { action: kind, body } = action as { action?: unknown; body?: unknown };
  const index = RECORD_KINDS.indexOf(kind as (typeof RECORD_KINDS)[number]);
  if (index < 0 || typeof body !== 'object' || body === null || Array.isArray(body)) return 0;
  if (typeof (body as { toJSON?: unknown }).toJSON === 'function') return 0;
  let keys = 0;
  for (const key in action) if (key !== (keys++ === 0 ? 'action' : 'body')) return 0;
  return keys === 2 ? index + 1 : 0;
}

/**
 * Appends the UTF-8 of JSON.stringify(op) to `writer`, an action at a time;
 * the ranges it gives count from where the writer stood. Throws what
 * JSON.stringify throws for a value JSON cannot hold.
 */
export function writeBatch(op: Batch, writer: ByteWriter): WrittenBatch {
  const rest = JSON.stringify({ ...op, actions: [] });
  const at = rest.indexOf(NO_ACTIONS);
  if (at !== rest.lastIndexOf(NO_ACTIONS)) throw new Error(`a batch whose other members hold ${NO_ACTIONS} cannot be written an action at a time`);
  const cut = at + NO_ACTIONS.length - 1; // at the actions' "]"
  const { actions } = op;
  const ranges = new Int32Array(actions.length * 2);
  const kinds = new Uint8Array(actions.length);
  const start = writer.length;
  writer.appendUtf8(rest.slice(0, cut));
  for (let i = 0; i < actions.length; i++) {
    if (i > 0) writer.appendByte(COMMA);
    const kind = recordKindOf(actions[i]);
    kinds[i] = kind;
    if (kind > 0) writer.appendUtf8(RECORD_HEADS[kind - 1]);
    ranges[i * 2] = writer.length - start;
    writer.appendUtf8((kind > 0 ? JSON.stringify((actions[i] as { body: object }).body) : JSON.stringify(actions[i])) ?? 'null');
    ranges[i * 2 + 1] = writer.length - start;
    if (kind > 0) writer.appendByte(CLOSING_BRACE);
  }
  writer.appendUtf8(rest.slice(cut));
  return { ranges, kinds };
}

/**
 * The batch `op`, which writeBatch wrote as `batch`, as it runs: each record
 * action carries its record's bytes (LOGGED_TEXT, a view of the batch's).
 */
export function withLoggedTexts<T extends Batch>(op: T, { utf8, ranges, kinds }: LoggedBatch): T {
  const actions = new Array<unknown>(kinds.length);
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i];
    const action = op.actions[i];
    actions[i] = kind > 0
      ? { action: RECORD_KINDS[kind - 1], body: (action as { body: unknown }).body, [LOGGED_TEXT]: utf8.subarray(ranges[i * 2], ranges[i * 2 + 1]) }
      : action;
  }
  return { ...op, actions };
}
