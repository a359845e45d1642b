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
 * `JSON.stringify(value).slice(0, limit)` and maybe more of it (a caller
 * cuts), without serialising what lies past `limit`. Throws where
 * JSON.stringify throws on what it reads (a BigInt); a cycle is written
 * until the limit instead of refused. '' for a value JSON has no text for.
 */
export function jsonStart(value: unknown, limit: number): string {
  if (!isContainer(value)) return JSON.stringify(value) ?? '';
  const parts: string[] = [];
  let length = 0;
  const emit = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  const walk = (container: object): void => {
    if (Array.isArray(container)) {
      emit('[');
      for (let i = 0; i < container.length && length < limit; i++) {
        if (i > 0) emit(',');
        const item: unknown = container[i];
        if (isContainer(item)) walk(item);
        else emit(JSON.stringify(item) ?? 'null');
      }
      emit(']');
      return;
    }
    emit('{');
    let first = true;
    for (const key of Object.keys(container)) {
      if (length >= limit) break;
      const member: unknown = (container as Record<string, unknown>)[key];
      const nested = isContainer(member);
      const text = nested ? undefined : JSON.stringify(member);
      if (!nested && text === undefined) continue; // undefined, a function, a symbol: no member
      emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      if (nested) walk(member);
      else emit(text!);
    }
    emit('}');
  };
  walk(value);
  return parts.join('');
}
