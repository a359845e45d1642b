// The start of a value's JSON text, serialising only as much of the value as
// that start needs. The call log keeps the first thousand characters of
// every body and answer: serialising a whole answer of twenty highlighted
// hits to keep them cost an in-process search 7% of its time, and a batch of
// a thousand records far more.

/** Whether JSON.stringify would walk `v`'s members (an array or an object without toJSON), rather than write it as one value. */
function isContainer(v: unknown): v is object {
  if (v === null || typeof v !== 'object') return false;
  if (v instanceof Number || v instanceof String || v instanceof Boolean) return false;
  return typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * A container is written by one JSON.stringify call, rather than member by
 * member, when it holds at most this many members (all levels counted) and
 * its strings (keys included) no more than the limit's characters: a whole
 * answer of objectIDs. Walked in JavaScript, a call and a string per key
 * and per value, such an answer cost twice what V8's serialiser does (6.2
 * against 3.2 µs, ten objectIDs). Counting stops at either bound, within the
 * first hit or two of a page of highlighted ones, whose text is far longer
 * than the start needs: counting to twice the limit cost as much as the walk.
 * A page of hits stops it at once (see itemsPastCount).
 */
const WRITTEN_WHOLE = 40;

/**
 * How many times the room left a nested container's characters may be and
 * still be written whole (see jsonStart): what it writes past the limit
 * costs less than walking its members, a call and a string for each (the
 * first hit of a page of the plain shape: ~20 members, ~900 characters).
 */
const NESTED_ROOMS = 2;

/**
 * How many members (keys or items) a nested container has for it to be
 * written whole, if it counts within the room (see jsonStart): one of
 * fewer is walked at the cost of counting it (and counting then
 * serialising it reads each member twice); one of more is most often
 * longer than the room, and counting it would be lost (a TED talk's 20
 * attributes and their highlights cost a fifth more so).
 */
const NESTED_MEMBERS = { fewest: 4, most: 12 };

/** Whether a nested container of `members` members may be written whole (see NESTED_MEMBERS). */
const mayBeWhole = (members: number): boolean => members >= NESTED_MEMBERS.fewest && members <= NESTED_MEMBERS.most;

/** Whether `container` is few enough members and characters to be written whole (see WRITTEN_WHOLE). */
function writtenWhole(container: object, limit: number): boolean {
  members = WRITTEN_WHOLE;
  characters = limit;
  return fits(container);
}

/** What is left of the counts writtenWhole allows while it counts. */
let members = 0;
let characters = 0;

/** Counts `container`'s members and characters down; false as soon as either runs out (so a cycle never fits). */
function fits(container: object): boolean {
  if (Array.isArray(container)) {
    if (itemsPastCount(container)) return false;
    for (const item of container as unknown[]) if (!fitsMember(item)) return false;
    return true;
  }
  for (const key in container) {
    if (!Object.hasOwn(container, key)) continue;
    characters -= key.length;
    if (!fitsMember((container as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * Whether an array's items, each counted as its first one (its own members
 * named, none read), are more than the count has left: a page of hits, or a
 * batch of records, is then not counted member by member.
 */
function itemsPastCount(array: unknown[]): boolean {
  const first: unknown = array[0];
  if (array.length < 2 || !isContainer(first)) return false;
  return array.length * (Array.isArray(first) ? first.length : Object.keys(first).length) > members;
}

function fitsMember(member: unknown): boolean {
  if (--members < 0) return false;
  if (typeof member === 'string') characters -= member.length;
  if (characters < 0) return false;
  return !isContainer(member) || fits(member);
}

/**
 * Names met lately, with their JSON text as a member's start (`"name":`):
 * JSON.stringify of each name was a third of a walk's time, and the walks
 * of an app's answers meet the same few names. Short names only, and all
 * let go past NAMES_KEPT (names that are data, say), so that few are held.
 */
const nameTexts = new Map<string, string>();
const NAMES_KEPT = 1024;
const KEPT_NAME_LENGTH = 64;

/** `"name":`, as JSON.stringify writes the name. */
function nameText(name: string): string {
  const known = nameTexts.get(name);
  if (known !== undefined) return known;
  const text = `${JSON.stringify(name)}:`;
  if (name.length > KEPT_NAME_LENGTH) return text;
  if (nameTexts.size >= NAMES_KEPT) nameTexts.clear();
  nameTexts.set(name, text);
  return text;
}

/**
 * JSON.stringify's text of a string, or its start when the string is longer
 * than `room`: the text of its first room units, each written as one
 * character or more after the opening quote, so that the room is the
 * whole text's start (a lone half of a surrogate pair at the cut, escaped
 * where the pair is not, is past it). A record's body of a few hundred
 * words, of which the room holds a line, was serialised whole.
 */
function stringText(text: string, room: number): string {
  return JSON.stringify(text.length <= room ? text : text.slice(0, room));
}

/** JSON.stringify's text of a container, or undefined where it throws (a BigInt: the walk throws where it meets it). */
function tryStringify(container: object): string | undefined {
  try {
    return JSON.stringify(container);
  } catch {
    return undefined;
  }
}

/**
 * `JSON.stringify(value).slice(0, limit)`, without serialising what lies
 * past `limit`; or the whole text, for a value that is not a container or
 * one written whole (see WRITTEN_WHOLE: a caller cuts it). A start cut at
 * the limit is a string of its own, joined from its parts (never a view
 * of a longer one, which would keep all of that alive). Throws where
 * JSON.stringify throws on what it reads (a BigInt); a cycle is written
 * until the limit instead of refused. '' for a value JSON has no text for.
 */
export function jsonStart(value: unknown, limit: number): string {
  if (!isContainer(value)) return JSON.stringify(value) ?? '';
  const whole = writtenWhole(value, limit) ? tryStringify(value) : undefined;
  if (whole !== undefined) return whole;
  const parts: string[] = [];
  let length = 0;
  // the part that crosses the limit is cut there (the first part, a bracket, never is: the join copies it)
  const emit = (text: string) => {
    const room = limit - length;
    if (room <= 0) return;
    parts.push(text.length > room ? text.slice(0, room) : text);
    length += text.length;
  };
  /**
   * A nested container: written whole, as one call of the serialiser whose
   * text is cut at the limit, when it is several members (see
   * NESTED_MEMBERS), few enough and short enough for twice the room left
   * (see writtenWhole): the first hit of a page, which the room holds most
   * of. Otherwise member by member.
   */
  const write = (container: object): void => {
    if (Array.isArray(container)) return mayBeWhole(container.length) ? writeWhole(container, walkArray) : walkArray(container);
    const keys = Object.keys(container);
    return mayBeWhole(keys.length) ? writeWhole(container, () => walkObject(container, keys)) : walkObject(container, keys);
  };
  const writeWhole = <T extends object>(container: T, walk: (container: T) => void): void => {
    const whole = writtenWhole(container, NESTED_ROOMS * (limit - length)) ? tryStringify(container) : undefined;
    if (whole !== undefined) emit(whole);
    else walk(container);
  };
  const walkArray = (container: unknown[]): void => {
    emit('[');
    for (let i = 0; i < container.length && length < limit; i++) {
      if (i > 0) emit(',');
      const item: unknown = container[i];
      if (isContainer(item)) write(item);
      else emit(typeof item === 'string' ? stringText(item, limit - length) : JSON.stringify(item) ?? 'null');
    }
    emit(']');
  };
  const walkObject = (container: object, keys: string[]): void => {
    emit('{');
    let first = true;
    for (const key of keys) {
      if (length >= limit) break;
      const member: unknown = (container as Record<string, unknown>)[key];
      const nested = isContainer(member);
      const text = nested || typeof member === 'string' ? undefined : JSON.stringify(member);
      if (!nested && typeof member !== 'string' && text === undefined) continue; // undefined, a function, a symbol: no member
      emit(first ? nameText(key) : `,${nameText(key)}`);
      first = false;
      if (nested) write(member);
      else emit(text ?? stringText(member as string, limit - length));
    }
    emit('}');
  };
  if (Array.isArray(value)) walkArray(value);
  else walkObject(value, Object.keys(value));
  return parts.join('');
}
