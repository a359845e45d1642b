/** An error an operation returns to the caller: an HTTP status and a message. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message: string) => new ApiError(404, message);

/**
 * A value a caller sent, as an error message shows it: its JSON, cut short.
 * Never through the value's own toString or valueOf: a JSON object may hold
 * keys of those names, and converting it would throw.
 */
export function shown(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // a cycle or a BigInt (in-process callers)
  }
  text ??= typeof value;
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
