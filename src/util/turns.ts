// Turns of the event loop: long work (indexing a batch, packing a snapshot,
// building suggestions) pauses on them so that searches waiting are answered.

/**
 * Runs `f` on a later turn of the event loop (setImmediate where it exists:
 * setTimeout waits ≥ 1 ms). Looked up at each call, as the timers of the
 * work that waits on a turn are (a test's fake timers replace both).
 */
export function nextTurn(f: () => void): void {
  const { setImmediate: immediate } = globalThis as { setImmediate?: (f: () => void) => unknown };
  if (immediate) immediate(f);
  else setTimeout(f, 0);
}

/** Resolves on a later turn of the event loop (I/O and other callbacks run first). */
export const yieldTurn = (): Promise<void> => new Promise((resolve) => nextTurn(resolve));
