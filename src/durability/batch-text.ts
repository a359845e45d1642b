// A large batch's JSON text as pieces: end to end, exactly JSON.stringify's
// text of the batch, but never one string. JSON.stringify's text of a batch
// of 1,000 records (~430 KB) is a rope of its builder's parts; the first
// read of it (its UTF-8 for the log, or parsing it when it runs) makes it
// one string in the large-object space, and that took ~3-5 ms a batch, more
// than encoding it (a tenth of an import on files). Its actions are written
// a group at a time instead: each group's text is small, made whole where
// young objects are, and the batch is parsed back group by group when it runs.

/** Actions written as one piece: a group's text stays far below the large-object size (128 KB). */
const ACTIONS_PER_PIECE = 32;

/** The pieces of an operation's JSON text (their concatenation is JSON.stringify(op)), and how to read it back. */
export interface BatchText {
  /** The operation's members before its actions, up to the actions' opening bracket. */
  head: string;
  /** The actions' text, a group of them a piece, without brackets or the commas between groups. */
  groups: string[];
  /** From the actions' closing bracket on. */
  tail: string;
}

/**
 * The text of `op`, whose `actions` is an array, as pieces; the other
 * members are written as JSON.stringify writes them, in their order (those
 * JSON has no text for left out alike). Throws what JSON.stringify throws.
 */
export function batchText(op: { actions: unknown[] }): BatchText {
  const names = Object.keys(op);
  const at = names.indexOf('actions');
  const before = JSON.stringify(membersOf(op, names.slice(0, at)));
  const after = JSON.stringify(membersOf(op, names.slice(at + 1)));
  const groups: string[] = [];
  for (let first = 0; first < op.actions.length; first += ACTIONS_PER_PIECE) {
    groups.push(JSON.stringify(op.actions.slice(first, first + ACTIONS_PER_PIECE)).slice(1, -1));
  }
  return {
    head: `${before === '{}' ? '{' : `${before.slice(0, -1)},`}"actions":[`,
    groups,
    tail: after === '{}' ? ']}' : `],${after.slice(1)}`,
  };
}

/** The text's pieces in order: joined, the operation's JSON text. */
export function* piecesOf(text: BatchText): Generator<string> {
  yield text.head;
  for (let i = 0; i < text.groups.length; i++) {
    if (i > 0) yield ',';
    yield text.groups[i];
  }
  yield text.tail;
}

/** The operation the text holds, as JSON.parse of the joined text would give it. */
export function parseBatchText<T>(text: BatchText): T {
  const op = JSON.parse(text.head + text.tail) as { actions: unknown[] };
  op.actions = text.groups.flatMap((group) => JSON.parse(`[${group}]`) as unknown[]);
  return op as T;
}

function membersOf(op: object, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, (op as Record<string, unknown>)[name]]));
}
